package wire

import (
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"
)

func TestAppendStringRoundTrips(t *testing.T) {
	for _, s := range []string{"", "plain", `quote " backslash \`, "tab\tnl\ncr\r", "\x00\x01\x1f", "<b>&amp;</b>",
		"café 日本 😀", "\u2028\u2029"} {
		out := AppendString(nil, s)
		var back string
		if err := json.Unmarshal(out, &back); err != nil || back != s {
			t.Errorf("appendString(%q) = %s, decodes to %q (%v)", s, out, back, err)
		}
	}
	if got := string(AppendString(nil, "\x01")); got != `"\u0001"` {
		t.Errorf("control character written as %s, want JSON.stringify's \\u0001", got)
	}
	if got := string(AppendString(nil, "a\xffb")); got != `"a\ufffdb"` {
		t.Errorf("invalid UTF-8 written as %s", got)
	}
}

func TestAppendFloatMatchesJavaScript(t *testing.T) {
	for f, want := range map[float64]string{0: "0", 1: "1", -1.5: "-1.5", 0.1: "0.1", 1e21: "1e+21", 1e-7: "1e-7",
		123456789012: "123456789012", 4.5: "4.5", math.NaN(): "null"} {
		if got := string(AppendFloat(nil, f)); got != want {
			t.Errorf("appendFloat(%v) = %s, want %s", f, got, want)
		}
	}
}

func TestAppendRawCompacts(t *testing.T) {
	got := string(AppendRaw(nil, []byte("{\n  \"a b\": [1, 2],\n  \"c\": \"x y\"\n}")))
	if want := `{"a b":[1,2],"c":"x y"}`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	if got := string(AppendRaw(nil, nil)); got != "null" {
		t.Errorf("empty raw written as %s", got)
	}
}

// probe is a minimal generated-style type for reader tests.
type probe struct {
	Name  string
	Items []int64
}

func (p *probe) AppendJSON(b []byte) []byte { return b }
func (p *probe) Validate() error            { return nil }
func (p *probe) validate() *Error           { return nil }
func (p *probe) ReadJSON(r *Reader) {
	if !r.BeginObject() {
		return
	}
	var seen uint64
	for r.NextField() {
		switch string(r.Key()) {
		case "name":
			p.Name = r.ReadString()
			seen |= 1
		case "items":
			p.Items = ReadSlice(r, ReadIntTo)
		default:
			r.UnknownField()
		}
	}
	if seen&1 == 0 && !r.Failed() {
		r.Missing("name")
	}
}

func TestReaderErrorsNameThePath(t *testing.T) {
	for doc, want := range map[string]struct{ path, rule string }{
		`{"name":"a","items":[1,2,"x"]}`:    {"/items/2", "type"},
		`{"name":"a","items":[1,2.5]}`:      {"/items/1", "type"},
		`{"items":[]}`:                      {"/name", "required"},
		`{"name":"a","extra":1}`:            {"/extra", "unevaluatedProperties"},
		`{"name":"a"`:                       {"/name", "syntax"},
		`{"name":"a"} x`:                    {"", "syntax"},
		`{"na\u006de":5}`:                   {"/name", "type"},
		`[1]`:                               {"", "type"},
		`{"name":"a","items":[1e400]}`:      {"/items/0", "maximum"},
		`{"name":"\ud83d\ude00","items":1}`: {"/items", "type"},
	} {
		var p probe
		err := Decoder{Strict: true}.Decode([]byte(doc), &p)
		var e *Error
		if !errors.As(err, &e) {
			t.Errorf("%s: want *Error, got %v", doc, err)
			continue
		}
		if e.Path != want.path || e.Rule != want.rule {
			t.Errorf("%s: error %q at %q, want %s at %q", doc, e.Rule, e.Path, want.rule, want.path)
		}
	}
}

func TestReaderLenientReportsUnknown(t *testing.T) {
	var dropped []string
	var p probe
	err := Decoder{OnUnknown: func(path string) { dropped = append(dropped, path) }}.Decode([]byte(`{"x":{"y":1},"name":"\u00e9","items":[7]}`), &p)
	if err != nil || p.Name != "é" || len(p.Items) != 1 || p.Items[0] != 7 {
		t.Fatalf("got %+v, %v", p, err)
	}
	if len(dropped) != 1 || dropped[0] != "/x" {
		t.Errorf("dropped %v, want [/x]", dropped)
	}
}

func TestCheckRaw(t *testing.T) {
	if err := CheckRaw("v", json.RawMessage(`null`), true, false); err == nil || err.Rule != "not" {
		t.Errorf("null accepted where not-null: %v", err)
	}
	if err := CheckRaw("v", json.RawMessage(`[1]`), false, true); err == nil || err.Rule != "type" {
		t.Errorf("array accepted where object: %v", err)
	}
	if err := CheckRaw("v", json.RawMessage(`{"a":`), false, false); err == nil || err.Path != "/v" {
		t.Errorf("malformed raw accepted: %v", err)
	}
	if err := CheckRaw("v", json.RawMessage(` {"a": [true, null]} `), true, true); err != nil {
		t.Errorf("valid raw rejected: %v", err)
	}
}

func TestReadIntRange(t *testing.T) {
	for doc, rule := range map[string]string{
		`{"name":"a","items":[9223372036854775808]}`:   "maximum",
		`{"name":"a","items":[9223372036854775808.0]}`: "maximum",
		`{"name":"a","items":[-9223372036854775809]}`:  "minimum",
	} {
		var p probe
		err := Decoder{}.Decode([]byte(doc), &p)
		var e *Error
		if !errors.As(err, &e) || e.Rule != rule {
			t.Errorf("%s: got %v, want %s", doc, err, rule)
		}
	}
	var p probe
	if err := (Decoder{}).Decode([]byte(`{"name":"a","items":[9223372036854775807,-9223372036854775808,1e3]}`), &p); err != nil ||
		p.Items[0] != math.MaxInt64 || p.Items[1] != math.MinInt64 || p.Items[2] != 1000 {
		t.Errorf("extremes misread: %v %v", p.Items, err)
	}
}

func TestNestingIsBounded(t *testing.T) {
	deep := strings.Repeat("[", MaxDepth+1) + strings.Repeat("]", MaxDepth+1)
	doc := `{"name":"a","extra":` + deep + `}`
	var p probe
	err := Decoder{}.Decode([]byte(doc), &p)
	var e *Error
	if !errors.As(err, &e) || e.Rule != "syntax" || !strings.Contains(e.Msg, "nest") {
		t.Fatalf("want a nesting error, got %v", err)
	}
	if len(e.Path) > 64*1024 {
		t.Errorf("the error's path is %d bytes", len(e.Path))
	}
}

func TestReadIntIsExact(t *testing.T) {
	for doc, want := range map[string]int64{
		`{"name":"a","items":[9007199254740993.0]}`:       9007199254740993,
		`{"name":"a","items":[9223372036854775807.0]}`:    math.MaxInt64,
		`{"name":"a","items":[1.2345678901234567e18]}`:    1234567890123456700,
		`{"name":"a","items":[-9.223372036854775808e18]}`: math.MinInt64,
	} {
		var p probe
		if err := (Decoder{}).Decode([]byte(doc), &p); err != nil || p.Items[0] != want {
			t.Errorf("%s: got %v, %v; want %d", doc, p.Items, err, want)
		}
	}
}

func TestNegativeZeroIsWrittenAsZero(t *testing.T) {
	if got := string(AppendFloat(nil, math.Copysign(0, -1))); got != "0" {
		t.Errorf("-0 written as %s, want 0 as JSON.stringify writes it", got)
	}
}

// TestMissingOfNamesTheFirstAbsentMember checks the bit of each required
// member against its name, and that a complete set reports nothing.
func TestMissingOfNamesTheFirstAbsentMember(t *testing.T) {
	names := []string{"type", "messageId", "delta"}
	for seen, want := range map[uint64]string{0: "/type", 0b001: "/messageId", 0b011: "/delta", 0b101: "/messageId", 0b111: ""} {
		r := NewReader([]byte(`{}`), Decoder{})
		r.MissingOf(seen, names...)
		var got string
		if e := r.err; e != nil {
			got = e.Path
			if e.Rule != "required" {
				t.Errorf("seen %03b: rule %q, want required", seen, e.Rule)
			}
		}
		if got != want {
			t.Errorf("seen %03b: reported %q, want %q", seen, got, want)
		}
	}
}
