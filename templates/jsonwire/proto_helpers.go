package jsonwire

import (
	"encoding/json"
	"time"
	"unicode/utf8"
)

// appendEnum appends an enum value by its proto name, or by number when the
// value has no name (String returned digits).
func appendEnum(b []byte, name string, number int32) []byte {
	if name == "" || name[0] == '-' || (name[0] >= '0' && name[0] <= '9') {
		return appendInt(b, int64(number))
	}
	return appendString(b, name)
}

// wireString reads a length-delimited string, which proto3 requires to be
// valid UTF-8.
func wireString(w *wireReader) string {
	b := w.lenBytes()
	if !utf8.Valid(b) {
		w.fail("string field holds invalid UTF-8")
		return ""
	}
	return string(b)
}

// appendTimestampWire appends the body of a google.protobuf.Timestamp:
// seconds = 1, nanos = 2, each left out when zero.
func appendTimestampWire(b []byte, t time.Time) []byte {
	if s := t.Unix(); s != 0 {
		b = appendTag(b, 1, wireVarint)
		b = appendVarint(b, uint64(s))
	}
	if n := t.Nanosecond(); n != 0 {
		b = appendTag(b, 2, wireVarint)
		b = appendVarint(b, uint64(n))
	}
	return b
}

// wireTimestamp reads a length-delimited google.protobuf.Timestamp; an error
// is located at field.
func wireTimestamp(w *wireReader, field string) *time.Time {
	data := w.lenBytes()
	if w.err != nil {
		return nil
	}
	body := newWireReader(data)
	var seconds, nanos int64
	for {
		num, wt, ok := body.next()
		if !ok {
			break
		}
		switch {
		case num == 1 && wt == wireVarint:
			seconds = int64(body.varint())
		case num == 2 && wt == wireVarint:
			nanos = int64(int32(body.varint()))
		default:
			body.skip(wt)
		}
	}
	if body.err != nil {
		if w.err == nil {
			w.err = body.err.under(field)
		}
		return nil
	}
	t := time.Unix(seconds, nanos).UTC()
	return &t
}

// wireStruct reads a length-delimited google.protobuf.Struct into its
// ProtoJSON text.
func wireStruct(w *wireReader, field string) json.RawMessage {
	raw, err := structFromWire(w.lenBytes())
	if err != nil && w.err == nil {
		w.err = err.under(field)
	}
	return raw
}

// wireValue reads a length-delimited google.protobuf.Value into its
// ProtoJSON text.
func wireValue(w *wireReader, field string) json.RawMessage {
	raw, err := valueFromWire(w.lenBytes())
	if err != nil && w.err == nil {
		w.err = err.under(field)
	}
	return raw
}

// appendBoolVarint appends a bool as the varint 0 or 1.
func appendBoolVarint(b []byte, v bool) []byte {
	if v {
		return append(b, 1)
	}
	return append(b, 0)
}

// rawOrNull is raw, or the JSON null when raw is empty: how a required any
// value left unset is written.
func rawOrNull(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 {
		return json.RawMessage("null")
	}
	return raw
}
