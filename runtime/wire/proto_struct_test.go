package wire

import (
	"bytes"
	"encoding/json"
	"math"
	"reflect"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/structpb"
)

var structDocs = []string{
	`{}`,
	`{"a":1}`,
	` { "a" : 1 , "b" : [ ] } `,
	`{"null":null,"t":true,"f":false,"n":0,"neg":-0,"x":-1.5e-7,"big":1e21,"huge":1.7976931348623157e308,"tiny":5e-324,
	  "int":12345678901234567890,"frac":0.1,"e":1E+2}`,
	`{"s":"","esc":"quote \" backslash \\ slash \/ \b\f\n\r\t \u0000 \u001f \u007f","uni":"caf\u00e9 日本 😀 \ud83d\ude00 \u2028"}`,
	`{"nested":{"a":{"b":{"c":{"d":[1,[2,[3,[{}]]]]}}}},"arr":[[],{},null,"x",1,true,[null]]}`,
	`{"":"empty key","k\"ey":"escaped key","\u00e9":"é","a/b~c":1}`,
	`{"z":1,"a":2,"m":3,"A":4,"aa":5,"é":6,"\u0000":7}`,
	`{"long":"` + strings.Repeat("0123456789", 2000) + `","list":[` + strings.Repeat(`"abcdefghij",`, 3000) + `1]}`,
	`{"deep":` + strings.Repeat(`{"x":[`, 200) + `1` + strings.Repeat(`]}`, 200) + `}`,
}

var valueDocs = append([]string{`null`, `true`, `false`, `0`, `-0`, `1.5`, `-2e-300`, `""`, `"x"`, `"\u00e9\n"`, `[]`, `[[]]`,
	`[1,"a",null,true,{"b":[]}]`, `{}`, ` [ 1 , 2 ] `}, structDocs...)

func jsonValue(t *testing.T, text []byte) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(text, &v); err != nil {
		t.Fatalf("invalid JSON %.200s: %v", text, err)
	}
	return v
}

// protoJSONOf returns protojson's compact text for m.
func protoJSONOf(m proto.Message) (string, error) {
	out, err := protojson.Marshal(m)
	if err != nil {
		return "", err
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, out); err != nil {
		return "", err
	}
	return buf.String(), nil
}

func TestAppendStructWireMatchesProto(t *testing.T) {
	for _, doc := range structDocs {
		var want structpb.Struct
		if err := protojson.Unmarshal([]byte(doc), &want); err != nil {
			t.Fatalf("protojson refuses %.100s: %v", doc, err)
		}
		if err := CheckProtoJSON("s", json.RawMessage(doc), true); err != nil {
			t.Errorf("checkProtoJSON object (%.100s) = %v", doc, err)
		}
		prefix := []byte{0xde, 0xad}
		b := AppendStructWire(append([]byte{}, prefix...), json.RawMessage(doc))
		if !bytes.HasPrefix(b, prefix) {
			t.Fatalf("appendStructWire lost the prefix")
		}
		var got structpb.Struct
		if err := proto.Unmarshal(b[len(prefix):], &got); err != nil {
			t.Fatalf("%.100s: proto.Unmarshal: %v", doc, err)
		}
		if !proto.Equal(&got, &want) {
			t.Errorf("%.100s: wire form decodes to %v, protojson gives %v", doc, &got, &want)
		}

		// And back.
		data, err := proto.Marshal(&want)
		if err != nil {
			t.Fatal(err)
		}
		text, derr := structFromWire(data)
		if derr != nil {
			t.Fatalf("%.100s: structFromWire: %v", doc, derr)
		}
		if !reflect.DeepEqual(jsonValue(t, text), jsonValue(t, []byte(doc))) {
			t.Errorf("%.100s: structFromWire gives %.200s", doc, text)
		}
		if pj, _ := protoJSONOf(&want); string(text) != pj {
			t.Errorf("%.100s: structFromWire gives %.200s, protojson %.200s", doc, text, pj)
		}
		if bytes.ContainsAny(text, " \n") && !strings.Contains(doc, " ") {
			t.Errorf("structFromWire output is not compact: %.200s", text)
		}
	}
}

func TestAppendValueWireMatchesProto(t *testing.T) {
	for _, doc := range valueDocs {
		var want structpb.Value
		if err := protojson.Unmarshal([]byte(doc), &want); err != nil {
			t.Fatalf("protojson refuses %.100s: %v", doc, err)
		}
		if err := CheckProtoJSON("v", json.RawMessage(doc), false); err != nil {
			t.Errorf("checkProtoJSON value (%.100s) = %v", doc, err)
		}
		b := AppendValueWire(nil, json.RawMessage(doc))
		var got structpb.Value
		if err := proto.Unmarshal(b, &got); err != nil {
			t.Fatalf("%.100s: proto.Unmarshal: %v", doc, err)
		}
		if !proto.Equal(&got, &want) {
			t.Errorf("%.100s: wire form decodes to %v, protojson gives %v", doc, &got, &want)
		}
		// proto.Marshal writes fields in the same order for these, so the
		// bytes match too.
		if want, _ := (proto.MarshalOptions{Deterministic: true}).Marshal(&want); !strings.HasPrefix(doc, "{") && !bytes.Equal(b, want) {
			t.Errorf("%.100s: wrote %x, proto.Marshal %x", doc, b, want)
		}

		data, err := proto.Marshal(&want)
		if err != nil {
			t.Fatal(err)
		}
		text, derr := valueFromWire(data)
		if derr != nil {
			t.Fatalf("%.100s: valueFromWire: %v", doc, derr)
		}
		if !reflect.DeepEqual(jsonValue(t, text), jsonValue(t, []byte(doc))) {
			t.Errorf("%.100s: valueFromWire gives %.200s", doc, text)
		}
		if pj, _ := protoJSONOf(&want); string(text) != pj {
			t.Errorf("%.100s: valueFromWire gives %.200s, protojson %.200s", doc, text, pj)
		}
	}
}

func TestAppendStructWireEdgeCases(t *testing.T) {
	decode := func(b []byte) *structpb.Struct {
		var s structpb.Struct
		if err := proto.Unmarshal(b, &s); err != nil {
			t.Fatalf("proto.Unmarshal(%x): %v", b, err)
		}
		return &s
	}
	// A repeated name: last wins, as a protobuf reader keeps the last entry.
	s := decode(AppendStructWire(nil, json.RawMessage(`{"a":1,"b":2,"a":{"c":3}}`)))
	if len(s.Fields) != 2 || s.Fields["a"].GetStructValue().GetFields()["c"].GetNumberValue() != 3 {
		t.Errorf("repeated name decodes to %v", s)
	}
	// Invalid UTF-8 is replaced.
	s = decode(AppendStructWire(nil, json.RawMessage("{\"k\xff\":\"v\xfe\"}")))
	if s.Fields["k\uFFFD"].GetStringValue() != "v\uFFFD" {
		t.Errorf("invalid UTF-8 decodes to %v", s)
	}
	// A number beyond a double is an infinity, and CheckProtoJSON (object) says so.
	s = decode(AppendStructWire(nil, json.RawMessage(`{"n":1e400}`)))
	if !math.IsInf(s.Fields["n"].GetNumberValue(), 1) {
		t.Errorf("1e400 decodes to %v", s)
	}
	// Not an object, or malformed: nothing is appended.
	for _, doc := range []string{``, `null`, `[1]`, `"x"`, `{"a":`, `{"a":1}x`, `{"a":[1,}`, `{"a":tru}`} {
		if b := AppendStructWire([]byte{7}, json.RawMessage(doc)); !bytes.Equal(b, []byte{7}) {
			t.Errorf("appendStructWire(%s) appended %x", doc, b[1:])
		}
	}
	for _, doc := range []string{``, `nul`, `[1,]`, `{"a"}`, `1 2`, `-`, `"\x`} {
		if b := AppendValueWire([]byte{7}, json.RawMessage(doc)); !bytes.Equal(b, []byte{7}) {
			t.Errorf("appendValueWire(%s) appended %x", doc, b[1:])
		}
	}
}

func TestCheckStructAndValueJSON(t *testing.T) {
	for _, c := range []struct {
		doc        string
		object     bool
		rule, path string
	}{
		{`[1]`, true, "type", "/f"},
		{`null`, true, "type", "/f"},
		{`"x"`, true, "type", "/f"},
		{`{"a":`, true, "syntax", "/f"},
		{`{"a":1} 2`, false, "syntax", "/f"},
		{`{"a":[1,1e400]}`, true, "maximum", "/f/a/1"},
		{`{"a/b":{"c":-1e400}}`, true, "minimum", "/f/a~1b/c"},
		{`[0,{"x":1e309}]`, false, "maximum", "/f/1/x"},
		{`1e400`, false, "maximum", "/f"},
	} {
		err := CheckProtoJSON("f", json.RawMessage(c.doc), c.object)
		if err == nil || err.Rule != c.rule || err.Path != c.path || err.Offset != -1 {
			t.Errorf("check %s: %#v, want %s at %s", c.doc, err, c.rule, c.path)
		}
	}
	for _, doc := range []string{``, `{}`, `{"a":[1e308,-1e308,1e-400]}`} {
		if err := CheckProtoJSON("f", json.RawMessage(doc), true); err != nil {
			t.Errorf("checkProtoJSON object (%s) = %v", doc, err)
		}
	}
	for _, doc := range []string{``, `null`, `1`, `"s"`, `[]`, ` {"a":null} `} {
		if err := CheckProtoJSON("f", json.RawMessage(doc), false); err != nil {
			t.Errorf("checkProtoJSON value (%s) = %v", doc, err)
		}
	}
}

// wireMsg builds protobuf bytes by hand for the cases proto.Marshal does not
// write.
type wireMsg []byte

func (m wireMsg) bytes(num protowire.Number, v []byte) wireMsg {
	return protowire.AppendBytes(protowire.AppendTag(m, num, protowire.BytesType), v)
}
func (m wireMsg) varint(num protowire.Number, v uint64) wireMsg {
	return protowire.AppendVarint(protowire.AppendTag(m, num, protowire.VarintType), v)
}
func (m wireMsg) double(num protowire.Number, v float64) wireMsg {
	return protowire.AppendFixed64(protowire.AppendTag(m, num, protowire.Fixed64Type), math.Float64bits(v))
}
func (m wireMsg) fixed32(num protowire.Number, v uint32) wireMsg {
	return protowire.AppendFixed32(protowire.AppendTag(m, num, protowire.Fixed32Type), v)
}

func entry(key string, value wireMsg) []byte {
	return wireMsg(nil).bytes(1, []byte(key)).bytes(2, value)
}

// compareWithProto checks structFromWire (or valueFromWire) on data against
// proto.Unmarshal followed by protojson.Marshal: both fail, or both give the
// same text. Groups, which proto.Unmarshal skips as unknown fields, are the
// one thing only ours refuses.
func compareWithProto(t *testing.T, data []byte, value bool) {
	t.Helper()
	var m proto.Message = &structpb.Struct{}
	from := structFromWire
	if value {
		m, from = &structpb.Value{}, valueFromWire
	}
	got, err := from(data)
	if err == nil && !json.Valid(got) {
		t.Fatalf("%.100x: invalid JSON %s", data, got)
	}
	want, perr := "", proto.Unmarshal(data, m)
	if perr == nil {
		want, perr = protoJSONOf(m)
	}
	switch {
	case err == nil && perr != nil:
		t.Fatalf("%.100x: ours gives %s, proto fails: %v", data, got, perr)
	case err != nil && perr == nil && !strings.Contains(err.Msg, "group"):
		t.Fatalf("%.100x: ours fails (%v), proto gives %s", data, err, want)
	case err == nil && string(got) != want:
		t.Fatalf("%.100x: ours gives %s, proto %s", data, got, want)
	}
	if err != nil && (err.Offset < 0 || err.Offset > len(data)) {
		t.Fatalf("%.100x: error offset %d outside the data", data, err.Offset)
	}
}

func TestFromWireMatchesProto(t *testing.T) {
	num := func(f float64) wireMsg { return wireMsg(nil).double(2, f) }
	str := func(s string) wireMsg { return wireMsg(nil).bytes(3, []byte(s)) }
	structOf := func(entries ...[]byte) wireMsg {
		var m wireMsg
		for _, e := range entries {
			m = m.bytes(1, e)
		}
		return m
	}
	values := []wireMsg{
		nil,                          // no kind: an error
		num(math.NaN()),              // no JSON form
		num(math.Inf(-1)),            // no JSON form
		num(math.Copysign(0, -1)),    // -0
		num(1e21),                    //
		wireMsg(nil).varint(1, 5),    // null_value with an unknown number
		wireMsg(nil).varint(4, 7),    // bool_value 7: true
		num(1).bytes(3, []byte("s")), // the last kind wins
		str("s").double(2, 2),        // the last kind wins
		str("\xff"),                  // not UTF-8
		wireMsg(nil).bytes(3, []byte("\xff")).double(2, 1), // replaced, still refused
		wireMsg(nil).varint(2, 1),                          // wrong wire type: unknown, no kind
		wireMsg(nil).fixed32(3, 1).varint(4, 0),            // unknown field, then false
		wireMsg(nil).varint(99, 1).varint(1, 0),            // unknown field, then null
		// struct_value twice: merged.
		wireMsg(nil).bytes(5, structOf(entry("a", num(1)))).bytes(5, structOf(entry("b", num(2)), entry("a", str("x")))),
		// struct_value, number, struct_value: the second struct only.
		wireMsg(nil).bytes(5, structOf(entry("a", num(1)))).double(2, 3).bytes(5, structOf(entry("b", num(2)))),
		// list_value twice: appended.
		wireMsg(nil).bytes(6, wireMsg(nil).bytes(1, num(1))).bytes(6, wireMsg(nil).bytes(1, str("y"))),
		// A list element with no kind.
		wireMsg(nil).bytes(6, wireMsg(nil).bytes(1, nil)),
		// An entry with no value, later replaced.
		wireMsg(nil).bytes(5, structOf(wireMsg(nil).bytes(1, []byte("k")), entry("k", num(1)))),
		// An entry with no value, kept.
		wireMsg(nil).bytes(5, structOf(wireMsg(nil).bytes(1, []byte("k")))),
		// An entry with no key, and one whose value comes twice (merged).
		wireMsg(nil).bytes(5, structOf(wireMsg(nil).bytes(2, num(1)), wireMsg(nil).bytes(1, []byte("k")).bytes(2, str("a")).bytes(2, wireMsg(nil).varint(4, 1)))),
		// Replaced entries are still read: a bad string in one is an error.
		wireMsg(nil).bytes(5, structOf(entry("k", str("\xff")), entry("k", num(1)))),
		// A replaced struct_value is still read.
		wireMsg(nil).bytes(5, structOf(entry("\xff", num(1)))).double(2, 1),
		// Map keys are sorted; NaN in a replaced entry is fine.
		wireMsg(nil).bytes(5, structOf(entry("b", num(math.NaN())), entry("a", num(1)), entry("b", num(2)), entry("", str("")))),
		// Truncated data.
		wireMsg(nil).bytes(5, structOf(entry("a", num(1))))[:8],
		wireMsg{0x2a, 0x05, 0x0a},
		// A group.
		wireMsg{0x0b, 0x0c, 0x08, 0x00},
	}
	for _, v := range values {
		compareWithProto(t, v, true)
		compareWithProto(t, structOf(entry("k", v)), false)
		compareWithProto(t, wireMsg(nil).bytes(6, wireMsg(nil).bytes(1, v)), true)
	}
	compareWithProto(t, nil, false)
	compareWithProto(t, []byte{0x0a, 0x00}, false) // an entry with neither key nor value

	if _, err := valueFromWire(nil); err == nil || err.Rule != "type" {
		t.Errorf("empty Value: %v", err)
	}
	if text, err := structFromWire(nil); err != nil || string(text) != "{}" {
		t.Errorf("empty Struct: %s %v", text, err)
	}
	if _, err := valueFromWire(num(math.NaN())); err == nil {
		t.Error("NaN number_value accepted")
	}
	// Offsets count from the start of the data, also inside nested messages.
	data := structOf(entry("k", str("\xff")))
	if _, err := structFromWire(data); err == nil || err.Offset != len(data)-1 {
		t.Errorf("bad UTF-8 at %d: %v", len(data)-1, err)
	}
}

func TestFromWireDepthLimit(t *testing.T) {
	// Values nested in lists, deeper than proto.Unmarshal's limit.
	v := wireMsg(nil).varint(1, 0)
	for range 6000 {
		v = wireMsg(nil).bytes(6, wireMsg(nil).bytes(1, v))
	}
	for _, pairs := range []int{4999, 5000} { // 9999 and 10001 messages
		v := wireMsg(nil).varint(1, 0)
		for range pairs {
			v = wireMsg(nil).bytes(6, wireMsg(nil).bytes(1, v))
		}
		compareWithProto(t, v, true)
	}
	// Values in structs in values: 10000 messages, then 10003.
	for _, n := range []int{3333, 3334} {
		v := wireMsg(nil).varint(1, 0)
		for range n {
			v = wireMsg(nil).bytes(5, wireMsg(nil).bytes(1, entry("k", v)))
		}
		compareWithProto(t, v, true)
		if _, err := valueFromWire(v); (err == nil) != (n == 3333) {
			t.Errorf("%d struct levels: %v", n, err)
		}
	}
	if _, err := valueFromWire(v); err == nil || !strings.Contains(err.Msg, "deep") {
		t.Errorf("12001 nested messages: %v", err)
	}
	if err := proto.Unmarshal(v, &structpb.Value{}); err == nil {
		t.Error("proto.Unmarshal accepts 12001 nested messages")
	}
	// At the limit: a Struct, a map entry, a Value and 4998 ListValue-Value
	// pairs are 9999 messages, which both accept; one pair more is 10001,
	// which both refuse.
	for _, pairs := range []int{4998, 4999} {
		v = wireMsg(nil).varint(1, 0)
		for range pairs {
			v = wireMsg(nil).bytes(6, wireMsg(nil).bytes(1, v))
		}
		data := wireMsg(nil).bytes(1, entry("k", v))
		compareWithProto(t, data, false)
		if _, err := structFromWire(data); (err == nil) != (pairs == 4998) {
			t.Errorf("%d pairs: %v", pairs, err)
		}
	}
}

func FuzzStructFromWire(f *testing.F) {
	for _, doc := range structDocs[:8] {
		var s structpb.Struct
		if err := protojson.Unmarshal([]byte(doc), &s); err != nil {
			f.Fatal(err)
		}
		data, _ := proto.Marshal(&s)
		f.Add(data, false)
		f.Add(AppendStructWire(nil, json.RawMessage(doc)), false)
		f.Add(AppendValueWire(nil, json.RawMessage(doc)), true)
	}
	f.Add([]byte{0x0a, 0x00}, false)
	f.Add([]byte{0x2a, 0x02, 0x0a, 0x00, 0x2a, 0x00}, true)
	f.Add([]byte{0x11, 0, 0, 0, 0, 0, 0, 0xf8, 0x7f}, true)
	f.Fuzz(func(t *testing.T, data []byte, value bool) {
		compareWithProto(t, data, value)
		compareWithProto(t, data, !value)
	})
}

// FuzzValueWire checks AppendValueWire against protojson on any JSON text
// protojson accepts, and that it never panics on anything else.
func FuzzValueWire(f *testing.F) {
	for _, doc := range valueDocs[:len(valueDocs)-2] {
		f.Add(doc)
	}
	f.Add(`{"a":1,"a":2}`)
	f.Add("\"\xff\"")
	f.Fuzz(func(t *testing.T, doc string) {
		b := AppendValueWire(nil, json.RawMessage(doc))
		s := AppendStructWire(nil, json.RawMessage(doc))
		checkErr := CheckProtoJSON("v", json.RawMessage(doc), false)
		var got structpb.Value
		if err := proto.Unmarshal(b, &got); err != nil {
			t.Fatalf("%q: proto.Unmarshal of our bytes: %v", doc, err)
		}
		var want structpb.Value
		if protojson.Unmarshal([]byte(doc), &want) != nil {
			return
		}
		if checkErr != nil {
			t.Fatalf("%q: protojson accepts, checkProtoJSON says %v", doc, checkErr)
		}
		if !proto.Equal(&got, &want) {
			t.Fatalf("%q: ours decodes to %v, protojson %v", doc, &got, &want)
		}
		if want.GetStructValue() != nil {
			var gs structpb.Struct
			if err := proto.Unmarshal(s, &gs); err != nil || !proto.Equal(&gs, want.GetStructValue()) {
				t.Fatalf("%q: struct form decodes to %v (%v)", doc, &gs, err)
			}
			if err := CheckProtoJSON("s", json.RawMessage(doc), true); err != nil {
				t.Fatalf("%q: checkProtoJSON (object) says %v", doc, err)
			}
		} else if len(s) != 0 {
			t.Fatalf("%q: appendStructWire appended %x for a non-object", doc, s)
		}
	})
}
