package wire

import (
	"encoding/json"
	"time"
	"unicode/utf8"
)

// AppendEnum appends an enum value by its proto name, or by number when the
// value has no name (String returned digits).
func AppendEnum(b []byte, name string, number int32) []byte {
	if name == "" || name[0] == '-' || (name[0] >= '0' && name[0] <= '9') {
		return AppendInt(b, int64(number))
	}
	return AppendString(b, name)
}

// WireString reads a length-delimited string, which proto3 requires to be
// valid UTF-8.
func WireString(w *ProtoReader) string {
	b := w.LenBytes()
	if !utf8.Valid(b) {
		w.Fail("string field holds invalid UTF-8")
		return ""
	}
	return string(b)
}

// AppendTimestampWire appends the body of a google.protobuf.Timestamp:
// seconds = 1, nanos = 2, each left out when zero.
func AppendTimestampWire(b []byte, t time.Time) []byte {
	if s := t.Unix(); s != 0 {
		b = AppendTag(b, 1, WireVarint)
		b = AppendVarint(b, uint64(s))
	}
	if n := t.Nanosecond(); n != 0 {
		b = AppendTag(b, 2, WireVarint)
		b = AppendVarint(b, uint64(n))
	}
	return b
}

// WireTimestamp reads a length-delimited google.protobuf.Timestamp; an error
// is located at field.
func WireTimestamp(w *ProtoReader, field string) *time.Time {
	data := w.LenBytes()
	if w.err != nil {
		return nil
	}
	body := NewProtoReader(data)
	var seconds, nanos int64
	for {
		num, wt, ok := body.Next()
		if !ok {
			break
		}
		switch {
		case num == 1 && wt == WireVarint:
			seconds = int64(body.Varint())
		case num == 2 && wt == WireVarint:
			nanos = int64(int32(body.Varint()))
		default:
			body.Skip(wt)
		}
	}
	if body.err != nil {
		if w.err == nil {
			w.err = body.err.Under(field)
		}
		return nil
	}
	t := time.Unix(seconds, nanos).UTC()
	return &t
}

// WireStruct reads a length-delimited google.protobuf.Struct into its
// ProtoJSON text.
func WireStruct(w *ProtoReader, field string) json.RawMessage {
	raw, err := structFromWire(w.LenBytes())
	if err != nil && w.err == nil {
		w.err = err.Under(field)
	}
	return raw
}

// WireValue reads a length-delimited google.protobuf.Value into its
// ProtoJSON text.
func WireValue(w *ProtoReader, field string) json.RawMessage {
	raw, err := valueFromWire(w.LenBytes())
	if err != nil && w.err == nil {
		w.err = err.Under(field)
	}
	return raw
}

// AppendBoolVarint appends a bool as the varint 0 or 1.
func AppendBoolVarint(b []byte, v bool) []byte {
	if v {
		return append(b, 1)
	}
	return append(b, 0)
}

// RawOrNull is raw, or the JSON null when raw is empty: how a required any
// value left unset is written.
func RawOrNull(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 {
		return json.RawMessage("null")
	}
	return raw
}
