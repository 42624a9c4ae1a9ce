package wire

import (
	"bytes"
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"unicode/utf8"
)

// google.protobuf.Struct, Value and ListValue, which generated code carries
// as their ProtoJSON text (json.RawMessage), converted to and from the
// binary wire format.
//
//	message Struct    { map<string, Value> fields = 1; }
//	message Value     { oneof kind { NullValue null_value = 1; double number_value = 2;
//	                    string string_value = 3; bool bool_value = 4;
//	                    Struct struct_value = 5; ListValue list_value = 6; } }
//	message ListValue { repeated Value values = 1; }

// AppendStructWire appends the binary body of the google.protobuf.Struct
// whose ProtoJSON form is raw, a JSON object. Map entries follow the order
// of the members in raw, repeated names included: protobuf readers keep the
// last entry for a key, so a repeated name resolves as last-wins. Strings
// that are not valid UTF-8 have the bad bytes replaced with U+FFFD.
//
// raw should have passed CheckProtoJSON; when it is not a well-formed
// object nothing is appended (an empty Struct). A number beyond the range of
// a double is written as an infinity, which CheckProtoJSON reports.
func AppendStructWire(b []byte, raw json.RawMessage) []byte {
	if len(raw) == 0 {
		return b
	}
	r := NewReader(raw, Decoder{})
	start := len(b)
	if r.Peek() == '{' {
		b = appendStructFromJSON(b, r)
		r.End()
	} else {
		r.syntax("not an object")
	}
	if r.err != nil {
		b = b[:start]
	}
	r.Release()
	return b
}

// AppendValueWire appends the binary body of the google.protobuf.Value whose
// ProtoJSON form is raw, any JSON value. Nothing is appended when raw is
// empty or malformed (a Value with no kind set, which readers refuse).
func AppendValueWire(b []byte, raw json.RawMessage) []byte {
	if len(raw) == 0 {
		return b
	}
	r := NewReader(raw, Decoder{})
	start := len(b)
	b = appendValueFromJSON(b, r)
	r.End()
	if r.err != nil {
		b = b[:start]
	}
	r.Release()
	return b
}

// appendValueFromJSON appends the Value body of the JSON value r is at.
func appendValueFromJSON(b []byte, r *Reader) []byte {
	switch c := r.Peek(); c {
	case 'n':
		if r.literal("null") {
			b = append(b, 1<<3|WireVarint, 0) // null_value: NULL_VALUE
		}
	case 't':
		if r.literal("true") {
			b = append(b, 4<<3|WireVarint, 1) // bool_value
		}
	case 'f':
		if r.literal("false") {
			b = append(b, 4<<3|WireVarint, 0)
		}
	case '"':
		if s, ok := r.stringBytes("a string"); ok {
			b = append(b, 3<<3|WireBytes) // string_value
			b = appendLenUTF8(b, s)
		}
	case '{':
		b = append(b, 5<<3|WireBytes) // struct_value
		var at int
		b, at = BeginLen(b)
		b = appendStructFromJSON(b, r)
		b = EndLen(b, at)
	case '[':
		b = append(b, 6<<3|WireBytes) // list_value
		var at int
		b, at = BeginLen(b)
		r.BeginArray()
		for r.NextItem() {
			b = append(b, 1<<3|WireBytes) // values
			var item int
			b, item = BeginLen(b)
			b = appendValueFromJSON(b, r)
			b = EndLen(b, item)
		}
		b = EndLen(b, at)
	default:
		if !isNumberStart(c) {
			r.Skip() // records the syntax error
			return b
		}
		text, ok := r.scanNumber()
		if !ok {
			return b
		}
		// Out of range gives an infinity; CheckProtoJSON reports it.
		f, _ := strconv.ParseFloat(string(text), 64)
		b = append(b, 2<<3|WireFixed64) // number_value
		b = AppendFixed64(b, math.Float64bits(f))
	}
	return b
}

// appendStructFromJSON appends the Struct body of the object r is at.
func appendStructFromJSON(b []byte, r *Reader) []byte {
	if !r.BeginObject() {
		return b
	}
	for r.NextField() {
		var entry, value int
		b = append(b, 1<<3|WireBytes) // fields: a map entry
		b, entry = BeginLen(b)
		b = append(b, 1<<3|WireBytes) // key
		b = appendLenUTF8(b, r.Key())
		b = append(b, 2<<3|WireBytes) // value
		b, value = BeginLen(b)
		b = appendValueFromJSON(b, r)
		b = EndLen(b, value)
		b = EndLen(b, entry)
	}
	return b
}

// appendLenUTF8 appends s as a length-delimited string, replacing invalid
// UTF-8 with U+FFFD (protobuf string fields must be valid UTF-8).
func appendLenUTF8(b []byte, s []byte) []byte {
	if !utf8.Valid(s) {
		s = toValidUTF8(s)
	}
	return AppendLenBytes(b, s)
}

// CheckProtoJSON checks raw JSON text held for a google.protobuf.Struct
// (object set) or Value: well-formed, an object when object is set, and
// every number within the range of a double. Empty raw text (absent)
// passes; whether the field is required is the caller's to check.
func CheckProtoJSON(field string, raw json.RawMessage, object bool) *Error {
	if len(raw) == 0 {
		return nil
	}
	if err := CheckRaw(field, raw, false, object); err != nil {
		return err
	}
	return checkProtoNumbers(field, raw)
}

// checkProtoNumbers reports the first number in raw (well-formed JSON) that
// a double cannot hold, at its path.
func checkProtoNumbers(field string, raw json.RawMessage) *Error {
	r := NewReader(raw, Decoder{})
	walkProtoNumbers(r)
	var e *Error
	if r.err != nil {
		e = &Error{Path: r.err.Path, Rule: r.err.Rule, Msg: r.err.Msg, Offset: -1}
		if field != "" {
			e.Path = "/" + escapeToken(field) + e.Path
		}
	}
	r.Release()
	return e
}

func walkProtoNumbers(r *Reader) {
	switch c := r.Peek(); {
	case c == '{':
		r.BeginObject()
		for r.NextField() {
			walkProtoNumbers(r)
		}
	case c == '[':
		r.BeginArray()
		for r.NextItem() {
			walkProtoNumbers(r)
		}
	case isNumberStart(c):
		text, ok := r.scanNumber()
		if !ok {
			return
		}
		if _, err := strconv.ParseFloat(string(text), 64); err != nil {
			if text[0] == '-' {
				r.Fail("minimum", string(text)+" is below the range of a double")
			} else {
				r.Fail("maximum", string(text)+" is beyond the range of a double")
			}
		}
	default:
		r.Skip()
	}
}

// protoMaxDepth limits how deeply messages may nest, as proto.Unmarshal's
// default recursion limit does (it counts map entries as messages).
const protoMaxDepth = 10000

// structFromWire decodes the binary body of a google.protobuf.Struct to its
// ProtoJSON text, compact, with the keys sorted as protojson sorts them (a
// key that repeats keeps its last value). It fails where proto.Unmarshal or
// protojson.Marshal would: malformed data, strings that are not UTF-8, a
// Value with no kind set, a NaN or infinite number_value.
func structFromWire(data []byte) (json.RawMessage, *Error) {
	d := structDecoder{}
	root := []ProtoReader{{data: data}}
	d.checkStruct(root, 1)
	if d.err != nil {
		return nil, d.err
	}
	d.emitStruct(root)
	if d.err != nil {
		return nil, d.err
	}
	return json.RawMessage(d.out), nil
}

// valueFromWire decodes the binary body of a google.protobuf.Value to its
// ProtoJSON text, compact. It fails as structFromWire does; an empty body is
// a Value with no kind set, an error.
func valueFromWire(data []byte) (json.RawMessage, *Error) {
	d := structDecoder{}
	root := []ProtoReader{{data: data}}
	d.checkValue(root, 1)
	if d.err != nil {
		return nil, d.err
	}
	d.emitValue(root)
	if d.err != nil {
		return nil, d.err
	}
	return json.RawMessage(d.out), nil
}

// structDecoder turns Struct, Value and ListValue bodies into JSON in two
// passes. The check pass reads every message the data holds, as
// proto.Unmarshal does, including those a later field replaces; the emit
// pass then writes what a decoded message would hold. A message may come in
// several parts (a singular message field that repeats is merged), so the
// bodies are handled as lists of readers, each over the outer data up to the
// end of its part so offsets in errors count from the start.
type structDecoder struct {
	out []byte
	err *Error
}

func (d *structDecoder) failAt(pos int, rule, msg string, sentinel error) {
	if d.err == nil {
		d.err = &Error{Rule: rule, Msg: msg, Offset: pos, Err: sentinel}
	}
}

// wireSub returns a reader over the length-delimited value just read by w.
func wireSub(w *ProtoReader, v []byte) ProtoReader {
	return ProtoReader{data: w.data[:w.pos], pos: w.pos - len(v)}
}

// checkUTF8 reports a string field that is not valid UTF-8.
func (d *structDecoder) checkUTF8(w *ProtoReader, s []byte) {
	if !utf8.Valid(s) {
		d.failAt(w.pos-len(s), "syntax", "string field is not valid UTF-8", ErrSyntax)
	}
}

func (d *structDecoder) checkDepth(w *ProtoReader, depth int) bool {
	if depth > protoMaxDepth {
		d.failAt(w.pos, "syntax", "messages nest too deeply", ErrSyntax)
		return false
	}
	return true
}

// checkStruct reads a Struct body, checking everything in it.
func (d *structDecoder) checkStruct(parts []ProtoReader, depth int) {
	for _, w := range parts {
		if !d.checkDepth(&w, depth) {
			return
		}
		for d.err == nil {
			num, wt, ok := w.Next()
			if !ok {
				break
			}
			if num != 1 || wt != WireBytes {
				w.Skip(wt)
				continue
			}
			v := w.LenBytes()
			if w.err != nil {
				break
			}
			e := wireSub(&w, v)
			if !d.checkDepth(&e, depth+1) { // proto.Unmarshal counts map entries too
				return
			}
			for d.err == nil {
				num, wt, ok := e.Next()
				if !ok {
					break
				}
				switch {
				case num == 1 && wt == WireBytes:
					d.checkUTF8(&e, e.LenBytes())
				case num == 2 && wt == WireBytes:
					v := e.LenBytes()
					if e.err == nil {
						d.checkValue([]ProtoReader{wireSub(&e, v)}, depth+2)
					}
				default:
					e.Skip(wt)
				}
			}
			if e.err != nil && d.err == nil {
				d.err = e.err
			}
		}
		if w.err != nil && d.err == nil {
			d.err = w.err
		}
		if d.err != nil {
			return
		}
	}
}

// checkList reads a ListValue body, checking everything in it.
func (d *structDecoder) checkList(parts []ProtoReader, depth int) {
	for _, w := range parts {
		if !d.checkDepth(&w, depth) {
			return
		}
		for d.err == nil {
			num, wt, ok := w.Next()
			if !ok {
				break
			}
			if num != 1 || wt != WireBytes {
				w.Skip(wt)
				continue
			}
			v := w.LenBytes()
			if w.err == nil {
				d.checkValue([]ProtoReader{wireSub(&w, v)}, depth+1)
			}
		}
		if w.err != nil && d.err == nil {
			d.err = w.err
		}
		if d.err != nil {
			return
		}
	}
}

// checkValue reads a Value body, checking everything in it.
func (d *structDecoder) checkValue(parts []ProtoReader, depth int) {
	for _, w := range parts {
		if !d.checkDepth(&w, depth) {
			return
		}
		for d.err == nil {
			num, wt, ok := w.Next()
			if !ok {
				break
			}
			switch {
			case num == 3 && wt == WireBytes:
				d.checkUTF8(&w, w.LenBytes())
			case num == 5 && wt == WireBytes:
				v := w.LenBytes()
				if w.err == nil {
					d.checkStruct([]ProtoReader{wireSub(&w, v)}, depth+1)
				}
			case num == 6 && wt == WireBytes:
				v := w.LenBytes()
				if w.err == nil {
					d.checkList([]ProtoReader{wireSub(&w, v)}, depth+1)
				}
			default:
				w.Skip(wt)
			}
		}
		if w.err != nil && d.err == nil {
			d.err = w.err
		}
		if d.err != nil {
			return
		}
	}
}

// structEntry is one map entry of a Struct: its key and the parts of its
// value, vals[lo:hi] of the entries' shared list.
type structEntry struct {
	key    []byte
	lo, hi int
	at     int // offset of the entry, for errors
}

// emitStruct writes the JSON object a checked Struct body holds.
func (d *structDecoder) emitStruct(parts []ProtoReader) {
	var entries []structEntry
	var vals []ProtoReader
	for _, w := range parts {
		for {
			num, wt, ok := w.Next()
			if !ok {
				break
			}
			if num != 1 || wt != WireBytes {
				w.Skip(wt)
				continue
			}
			v := w.LenBytes()
			e := wireSub(&w, v)
			ent := structEntry{lo: len(vals), at: e.pos}
			for {
				num, wt, ok := e.Next()
				if !ok {
					break
				}
				switch {
				case num == 1 && wt == WireBytes:
					ent.key = e.LenBytes()
				case num == 2 && wt == WireBytes:
					v := e.LenBytes()
					vals = append(vals, wireSub(&e, v))
				default:
					e.Skip(wt)
				}
			}
			ent.hi = len(vals)
			entries = append(entries, ent)
		}
	}
	// Sort as protojson does and keep the last entry of each key, as a
	// decoded map does.
	slices.SortStableFunc(entries, func(a, b structEntry) int { return bytes.Compare(a.key, b.key) })
	d.out = append(d.out, '{')
	first := true
	for i, ent := range entries {
		if i+1 < len(entries) && bytes.Equal(entries[i+1].key, ent.key) {
			continue
		}
		if !first {
			d.out = append(d.out, ',')
		}
		first = false
		d.out = AppendString(d.out, string(ent.key))
		d.out = append(d.out, ':')
		if ent.lo == ent.hi {
			d.failAt(ent.at, "type", "google.protobuf.Struct member "+strconv.Quote(string(ent.key))+" has no value", nil)
			return
		}
		d.emitValue(vals[ent.lo:ent.hi])
		if d.err != nil {
			return
		}
	}
	d.out = append(d.out, '}')
}

// emitList writes the JSON array a checked ListValue body holds.
func (d *structDecoder) emitList(parts []ProtoReader) {
	d.out = append(d.out, '[')
	first := true
	for _, w := range parts {
		for d.err == nil {
			num, wt, ok := w.Next()
			if !ok {
				break
			}
			if num != 1 || wt != WireBytes {
				w.Skip(wt)
				continue
			}
			v := w.LenBytes()
			if !first {
				d.out = append(d.out, ',')
			}
			first = false
			d.emitValue([]ProtoReader{wireSub(&w, v)})
		}
	}
	d.out = append(d.out, ']')
}

// emitValue writes the JSON value a checked Value body holds: the kind set
// last, with struct_value and list_value parts merged while they repeat.
func (d *structDecoder) emitValue(parts []ProtoReader) {
	kind := int32(0)
	var (
		num    float64
		str    []byte
		boolV  bool
		nested []ProtoReader
		at     int
	)
	if len(parts) > 0 {
		at = parts[0].pos
	}
	for _, w := range parts {
		for {
			n, wt, ok := w.Next()
			if !ok {
				break
			}
			switch {
			case n == 1 && wt == WireVarint:
				w.Varint()
				kind = 1
			case n == 2 && wt == WireFixed64:
				num, kind, at = math.Float64frombits(w.Fixed64()), 2, w.pos-8
			case n == 3 && wt == WireBytes:
				str, kind = w.LenBytes(), 3
			case n == 4 && wt == WireVarint:
				boolV, kind = w.Varint() != 0, 4
			case (n == 5 || n == 6) && wt == WireBytes:
				v := w.LenBytes()
				if kind != n {
					nested = nested[:0]
				}
				kind = n
				nested = append(nested, wireSub(&w, v))
			default:
				w.Skip(wt)
			}
		}
	}
	switch kind {
	case 0:
		d.failAt(at, "type", "google.protobuf.Value has no kind set", nil)
	case 1:
		d.out = append(d.out, "null"...)
	case 2:
		if math.IsNaN(num) || math.IsInf(num, 0) {
			d.failAt(at, "type", "google.protobuf.Value number_value "+strconv.FormatFloat(num, 'g', -1, 64)+" has no JSON form", nil)
			return
		}
		d.out = AppendDouble(d.out, num)
	case 3:
		d.out = AppendString(d.out, string(str))
	case 4:
		d.out = AppendBool(d.out, boolV)
	case 5:
		d.emitStruct(nested)
	case 6:
		d.emitList(nested)
	}
}
