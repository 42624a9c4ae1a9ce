package wire

import (
	"bytes"
	"encoding/base64"
	"math"
	"strconv"
	"strings"
	"time"
)

// ProtoJSON scalars, read and written the way google.golang.org/protobuf's
// protojson package reads and writes them
// (https://protobuf.dev/programming-guides/json/).

// ReadInt32 reads an int32, sint32 or sfixed32 field: a JSON number or a
// string holding one. A fraction or exponent is allowed when the value is
// whole ("1e2", "1.0").
func (r *Reader) ReadInt32() int32 {
	neg, mag, text, ok := r.protoInt("a 32-bit integer")
	if !ok {
		return 0
	}
	switch {
	case neg && mag > 1<<31:
		r.Fail("minimum", string(text)+" is less than the minimum -2147483648")
	case !neg && mag > math.MaxInt32:
		r.Fail("maximum", string(text)+" is greater than the maximum 2147483647")
	case neg:
		return int32(-int64(mag))
	default:
		return int32(mag)
	}
	return 0
}

// ReadInt64 reads an int64, sint64 or sfixed64 field: a JSON number or a
// string holding one, as protojson writes them.
func (r *Reader) ReadInt64() int64 {
	neg, mag, text, ok := r.protoInt("a 64-bit integer")
	if !ok {
		return 0
	}
	switch {
	case neg && mag > 1<<63:
		r.Fail("minimum", string(text)+" is less than the minimum -9223372036854775808")
	case !neg && mag > math.MaxInt64:
		r.Fail("maximum", string(text)+" is greater than the maximum 9223372036854775807")
	case neg:
		return -int64(mag)
	default:
		return int64(mag)
	}
	return 0
}

// ReadUint32 reads a uint32 or fixed32 field.
func (r *Reader) ReadUint32() uint32 {
	neg, mag, text, ok := r.protoInt("an unsigned 32-bit integer")
	if !ok {
		return 0
	}
	switch {
	case neg:
		r.Fail("minimum", string(text)+" is less than the minimum 0")
	case mag > math.MaxUint32:
		r.Fail("maximum", string(text)+" is greater than the maximum 4294967295")
	default:
		return uint32(mag)
	}
	return 0
}

// ReadUint64 reads a uint64 or fixed64 field.
func (r *Reader) ReadUint64() uint64 {
	neg, mag, text, ok := r.protoInt("an unsigned 64-bit integer")
	if !ok {
		return 0
	}
	if neg {
		r.Fail("minimum", string(text)+" is less than the minimum 0")
		return 0
	}
	return mag
}

// protoInt reads a JSON number, or a string whose whole content is one, and
// returns the whole value it denotes as a sign and a magnitude. It records
// the error and returns false when there is no such value or its magnitude
// does not fit 64 bits; callers check their own range.
func (r *Reader) protoInt(want string) (neg bool, mag uint64, text []byte, ok bool) {
	text, ok = r.protoNumberText(want)
	if !ok {
		return false, 0, nil, false
	}
	neg, mag, st := protoParseInt(text)
	switch st {
	case protoIntFraction:
		r.Fail("type", string(text)+" is not an integer")
		return false, 0, nil, false
	case protoIntTooLarge:
		if neg {
			r.Fail("minimum", string(text)+" is too small")
		} else {
			r.Fail("maximum", string(text)+" is too large")
		}
		return false, 0, nil, false
	}
	return neg, mag, text, true
}

// protoNumberText reads a JSON number, or a string whose content is exactly
// the text of a JSON number, and returns that text. It records a type error
// for anything else.
func (r *Reader) protoNumberText(want string) ([]byte, bool) {
	switch c := r.Peek(); {
	case isNumberStart(c):
		return r.scanNumber()
	case c == '"':
		s, ok := r.stringBytes(want)
		if !ok {
			return nil, false
		}
		if !protoIsNumber(s) {
			r.Fail("type", "expected "+want+", found the string "+strconv.Quote(string(s)))
			return nil, false
		}
		return s, true
	}
	r.wrongType(want)
	return nil, false
}

// protoIsNumber reports whether s is exactly the text of one JSON number.
func protoIsNumber(s []byte) bool {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case i < len(s) && s[i] >= '1' && s[i] <= '9':
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
	default:
		return false
	}
	if i < len(s) && s[i] == '.' {
		i++
		if i >= len(s) || s[i] < '0' || s[i] > '9' {
			return false
		}
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if i >= len(s) || s[i] < '0' || s[i] > '9' {
			return false
		}
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
	}
	return i == len(s)
}

type protoIntStatus uint8

const (
	protoIntOK protoIntStatus = iota
	protoIntFraction
	protoIntTooLarge
)

// protoParseInt returns the whole value the text of a JSON number denotes,
// by protojson's rules: the fraction and exponent are shifted into the
// integer, which must then have no fractional digits left and at most 20
// digits. "-0" and its like are plain 0.
func protoParseInt(text []byte) (neg bool, mag uint64, st protoIntStatus) {
	s := text
	if len(s) > 0 && s[0] == '-' {
		neg, s = true, s[1:]
	}
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	intp := s[:i]
	s = s[i:]
	if len(intp) == 1 && intp[0] == '0' {
		intp = nil
	}
	var frac, exp []byte
	if len(s) > 0 && s[0] == '.' {
		s = s[1:]
		i = 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		frac, s = s[:i], s[i:]
		for len(frac) > 0 && frac[len(frac)-1] == '0' {
			frac = frac[:len(frac)-1]
		}
	}
	if len(s) > 0 && (s[0] == 'e' || s[0] == 'E') {
		exp = s[1:]
	}
	if len(intp) == 0 && len(frac) == 0 {
		return false, 0, protoIntOK
	}
	e := 0
	if len(exp) > 0 {
		n, err := strconv.ParseInt(string(exp), 10, 32)
		if err != nil {
			if exp[0] == '-' {
				return neg, 0, protoIntFraction
			}
			return neg, 0, protoIntTooLarge
		}
		e = int(n)
	}
	var digits, more []byte
	zeros := 0
	if e >= 0 {
		if len(frac) > e {
			return neg, 0, protoIntFraction
		}
		if len(intp)+e > 20 {
			return neg, 0, protoIntTooLarge
		}
		digits, more, zeros = intp, frac, e-len(frac)
	} else {
		if len(frac) > 0 {
			return neg, 0, protoIntFraction
		}
		at := len(intp) + e
		if at < 0 {
			return neg, 0, protoIntFraction
		}
		for _, c := range intp[at:] {
			if c != '0' {
				return neg, 0, protoIntFraction
			}
		}
		digits = intp[:at]
	}
	for _, part := range [2][]byte{digits, more} {
		for _, c := range part {
			d := uint64(c - '0')
			if mag > (math.MaxUint64-d)/10 {
				return neg, 0, protoIntTooLarge
			}
			mag = mag*10 + d
		}
	}
	for ; zeros > 0; zeros-- {
		if mag > math.MaxUint64/10 {
			return neg, 0, protoIntTooLarge
		}
		mag *= 10
	}
	return neg, mag, protoIntOK
}

// ReadDouble reads a double field: a JSON number, or a string holding one or
// "NaN", "Infinity" or "-Infinity".
func (r *Reader) ReadDouble() float64 { return r.protoFloat(64, "a number") }

// ReadFloat32 reads a float field; like protojson it refuses values beyond
// float32's range.
func (r *Reader) ReadFloat32() float32 { return float32(r.protoFloat(32, "a number")) }

func (r *Reader) protoFloat(bitSize int, want string) float64 {
	var text []byte
	switch c := r.Peek(); {
	case isNumberStart(c):
		t, ok := r.scanNumber()
		if !ok {
			return 0
		}
		text = t
	case c == '"':
		s, ok := r.stringBytes(want)
		if !ok {
			return 0
		}
		switch string(s) {
		case "NaN":
			return math.NaN()
		case "Infinity":
			return math.Inf(1)
		case "-Infinity":
			return math.Inf(-1)
		}
		if !protoIsNumber(s) {
			r.Fail("type", "expected "+want+", found the string "+strconv.Quote(string(s)))
			return 0
		}
		text = s
	default:
		r.wrongType(want)
		return 0
	}
	f, err := strconv.ParseFloat(string(text), bitSize)
	if err != nil {
		size := "a double"
		if bitSize == 32 {
			size = "a float"
		}
		if text[0] == '-' {
			r.Fail("minimum", string(text)+" is below the range of "+size)
		} else {
			r.Fail("maximum", string(text)+" is beyond the range of "+size)
		}
		return 0
	}
	return f
}

// ReadBytes reads a bytes field: base64 in the standard or the URL alphabet,
// padded or not, as protojson accepts it. The result is a new slice.
func (r *Reader) ReadBytes() []byte {
	s, ok := r.stringBytes("a base64 string")
	if !ok {
		return nil
	}
	// The choice of encoding is protojson's, so exactly the same strings are
	// accepted (base64 also skips '\r' and '\n').
	enc := base64.StdEncoding
	if bytes.ContainsAny(s, "-_") {
		enc = base64.URLEncoding
	}
	if len(s)%4 != 0 {
		if enc == base64.StdEncoding {
			enc = base64.RawStdEncoding
		} else {
			enc = base64.RawURLEncoding
		}
	}
	out := make([]byte, enc.DecodedLen(len(s)))
	n, err := enc.Decode(out, s)
	if err != nil {
		r.Fail("type", "invalid base64 data: "+err.Error())
		return nil
	}
	return out[:n]
}

// The range of google.protobuf.Timestamp: 0001-01-01T00:00:00Z to
// 9999-12-31T23:59:59.999999999Z.
const (
	minTimestampSeconds = -62135596800
	maxTimestampSeconds = 253402300799
)

// ReadTimestamp reads a google.protobuf.Timestamp: an RFC 3339 string with
// "Z" or an offset and up to nine fractional digits. It accepts exactly what
// protojson accepts (which parses with time.Parse) and returns the time in
// UTC.
func (r *Reader) ReadTimestamp() time.Time {
	b, ok := r.stringBytes("an RFC 3339 timestamp string")
	if !ok {
		return time.Time{}
	}
	s := string(b)
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		r.Fail("type", strconv.Quote(s)+" is not an RFC 3339 timestamp")
		return time.Time{}
	}
	switch secs := t.Unix(); {
	case secs < minTimestampSeconds:
		r.Fail("minimum", strconv.Quote(s)+" is before 0001-01-01T00:00:00Z")
		return time.Time{}
	case secs > maxTimestampSeconds:
		r.Fail("maximum", strconv.Quote(s)+" is after 9999-12-31T23:59:59.999999999Z")
		return time.Time{}
	}
	i := strings.LastIndexByte(s, '.')
	j := strings.LastIndexAny(s, "Z-+")
	if i >= 0 && j >= i && j-i > len(".999999999") {
		r.Fail("type", strconv.Quote(s)+" has more than nine fractional digits")
		return time.Time{}
	}
	return t.UTC()
}

// ReadEnum reads an enum field: a string, the name of a value (the bytes are
// valid until the next read), or a whole number in int32's range. Unknown
// names and numbers are for the caller to judge.
func (r *Reader) ReadEnum() (name []byte, number int32, isNumber bool) {
	switch c := r.Peek(); {
	case c == '"':
		s, ok := r.stringBytes("an enum value")
		if !ok {
			return nil, 0, false
		}
		return s, 0, false
	case isNumberStart(c):
		n := r.ReadInt32()
		if r.err != nil {
			return nil, 0, false
		}
		return nil, n, true
	}
	r.wrongType("an enum value name or number")
	return nil, 0, false
}

// SkipNull consumes a null and returns true when the next value is null,
// which ProtoJSON reads as the field's default: absent. (For a
// google.protobuf.Value field null is a value, NullValue; read it raw
// instead.) On malformed text starting with 'n' it records a syntax error
// and returns true.
func (r *Reader) SkipNull() bool {
	if r.Peek() != 'n' {
		return false
	}
	r.literal("null")
	return true
}

// AppendInt64String appends a 64-bit integer as a quoted decimal, as
// protojson writes int64, sint64 and sfixed64 fields.
func AppendInt64String(b []byte, v int64) []byte {
	b = append(b, '"')
	b = strconv.AppendInt(b, v, 10)
	return append(b, '"')
}

// AppendUint64String appends a quoted decimal, as protojson writes uint64 and
// fixed64 fields.
func AppendUint64String(b []byte, v uint64) []byte {
	b = append(b, '"')
	b = strconv.AppendUint(b, v, 10)
	return append(b, '"')
}

// AppendDouble appends a double as protojson writes it: "NaN", "Infinity"
// and "-Infinity" as strings, other values as the shortest number text that
// reads back the same, in exponent form below 1e-6 and from 1e21.
func AppendDouble(b []byte, v float64) []byte { return appendProtoFloat(b, v, 64) }

// AppendFloat32 appends a float as protojson writes it: the shortest text
// that reads back as the same float32.
func AppendFloat32(b []byte, v float32) []byte { return appendProtoFloat(b, float64(v), 32) }

func appendProtoFloat(b []byte, v float64, bitSize int) []byte {
	switch {
	case math.IsNaN(v):
		return append(b, `"NaN"`...)
	case math.IsInf(v, 1):
		return append(b, `"Infinity"`...)
	case math.IsInf(v, -1):
		return append(b, `"-Infinity"`...)
	}
	return appendFiniteNumber(b, v, bitSize)
}

// AppendBytes appends a bytes field: quoted standard base64 with padding.
func AppendBytes(b []byte, v []byte) []byte {
	b = append(b, '"')
	b = base64.StdEncoding.AppendEncode(b, v)
	return append(b, '"')
}

// AppendTimestamp appends a google.protobuf.Timestamp as protojson writes
// it: quoted RFC 3339 in UTC with 0, 3, 6 or 9 fractional digits and "Z".
// A time outside the Timestamp range (see CheckTimestamp) is written all
// the same, with a year that is not four digits.
func AppendTimestamp(b []byte, t time.Time) []byte {
	t = t.UTC()
	b = append(b, '"')
	b = t.AppendFormat(b, "2006-01-02T15:04:05.000000000")
	switch ns := t.Nanosecond(); {
	case ns == 0:
		b = b[:len(b)-len(".000000000")]
	case ns%1e6 == 0:
		b = b[:len(b)-6]
	case ns%1e3 == 0:
		b = b[:len(b)-3]
	}
	return append(b, 'Z', '"')
}

// CheckTimestamp reports a time outside the range of
// google.protobuf.Timestamp, which protojson and proto.Marshal refuse.
func CheckTimestamp(field string, t time.Time) *Error {
	switch secs := t.Unix(); {
	case secs < minTimestampSeconds:
		return ValidationError(field, "minimum", "time "+t.UTC().Format(time.RFC3339Nano)+" is before 0001-01-01T00:00:00Z")
	case secs > maxTimestampSeconds:
		return ValidationError(field, "maximum", "time "+t.UTC().Format(time.RFC3339Nano)+" is after 9999-12-31T23:59:59.999999999Z")
	}
	return nil
}
