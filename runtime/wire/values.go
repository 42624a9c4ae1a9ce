package wire

import (
	"encoding/json"
	"math"
	"strconv"
)

// Member is one member of an open object that its definition does not
// declare, kept so the object round-trips unchanged.
type Member struct {
	Name  string
	Value json.RawMessage
}

// ReadSlice reads an array whose elements read is given, keeping an empty
// array distinct from an absent one (a nil slice).
//
// read has the shape of a method expression, so (*T).ReadJSON serves.
func ReadSlice[T any](r *Reader, read func(v *T, r *Reader)) []T {
	return ReadSliceReusing(r, nil, read)
}

// ReadSliceReusing is ReadSlice reading into prev's array: while the
// elements fit, each is read over the element that stood there, which read
// may reuse (*v holds it), and the array is extended only past its
// capacity. prev must not be used afterwards; nil reads as ReadSlice does.
func ReadSliceReusing[T any](r *Reader, prev []T, read func(v *T, r *Reader)) []T {
	if !r.BeginArray() {
		return nil
	}
	out := prev[:0]
	if out == nil {
		out = []T{}
	}
	for r.NextItem() {
		if len(out) < cap(out) {
			out = out[:len(out)+1]
		} else {
			out = append(out, *new(T))
		}
		read(&out[len(out)-1], r)
	}
	return out
}

func ReadStringTo(v *string, r *Reader) { *v = r.ReadString() }
func ReadIntTo(v *int64, r *Reader)     { *v = r.ReadInt() }
func ReadFloatTo(v *float64, r *Reader) { *v = r.ReadFloat() }
func ReadBoolTo(v *bool, r *Reader)     { *v = r.ReadBool() }
func ReadAnyTo(v *json.RawMessage, r *Reader) {
	*v = r.ReadRaw(false, false)
}

// Ptr returns a pointer to a copy of v, for optional members.
func Ptr[T any](v T) *T { return &v }

// appender is a generated value that writes itself.
type appender interface{ AppendJSON(b []byte) []byte }

// AppendValue appends v, or null when v is nil.
func AppendValue(b []byte, v appender) []byte {
	if v == nil {
		return append(b, "null"...)
	}
	return v.AppendJSON(b)
}

// ReadMember keeps the current member of an open object.
func (r *Reader) ReadMember() Member {
	name := string(r.Key())
	return Member{Name: name, Value: r.ReadRaw(false, false)}
}

// AppendMembers appends the undeclared members of an open object.
func AppendMembers(b []byte, ms []Member) []byte {
	for _, m := range ms {
		b = append(b, ',')
		b = AppendString(b, m.Name)
		b = append(b, ':')
		b = AppendRaw(b, m.Value)
	}
	return b
}

// CheckRaw validates raw JSON text held by a value: well-formed, not null
// when notNull, an object when wantObject.
func CheckRaw(field string, raw json.RawMessage, notNull, wantObject bool) *Error {
	if len(raw) == 0 {
		if notNull || wantObject {
			return ValidationError(field, "type", "no JSON value (empty raw text)")
		}
		return nil
	}
	r := NewReader(raw, Decoder{})
	c := r.Peek()
	r.Skip()
	r.End()
	bad := r.err
	r.Release()
	switch {
	case bad != nil:
		return ValidationError(field, "syntax", "raw JSON is malformed: "+bad.Msg)
	case wantObject && c != '{':
		return ValidationError(field, "type", "expected an object, found "+kindName(c))
	case notNull && c == 'n':
		return ValidationError(field, "not", "null is not allowed here")
	}
	return nil
}

// CheckMembers checks that undeclared members of an open object do not
// shadow a declared one and carry well-formed JSON.
func CheckMembers(ms []Member, declared func(string) bool) *Error {
	for _, m := range ms {
		if declared(m.Name) {
			return ValidationError(m.Name, "unevaluatedProperties", "an extra member may not repeat a declared member's name")
		}
		if err := CheckRaw(m.Name, m.Value, false, false); err != nil {
			return err
		}
	}
	return nil
}

func CheckMinimum(field string, v, min float64) *Error {
	if v < min {
		return ValidationError(field, "minimum", formatNumber(v)+" is less than the minimum "+formatNumber(min))
	}
	return nil
}

func CheckMaximum(field string, v, max float64) *Error {
	if v > max {
		return ValidationError(field, "maximum", formatNumber(v)+" is greater than the maximum "+formatNumber(max))
	}
	return nil
}

func CheckFinite(field string, v float64) *Error {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return ValidationError(field, "type", "NaN and infinities are not JSON numbers")
	}
	return nil
}

func CheckMinItems(field string, n int, min int) *Error {
	if n < min {
		return ValidationError(field, "minItems", "has "+strconv.Itoa(n)+" items, fewer than the minimum "+strconv.Itoa(min))
	}
	return nil
}

func CheckMaxItems(field string, n int, max int) *Error {
	if n > max {
		return ValidationError(field, "maxItems", "has "+strconv.Itoa(n)+" items, more than the maximum "+strconv.Itoa(max))
	}
	return nil
}

func formatNumber(f float64) string { return string(AppendFloat(nil, f)) }

// EnumError reports a value outside an enum whose values are allowed (the
// list as the message shows it: "a", "b").
func EnumError(field, value, allowed string) *Error {
	return ValidationError(field, "enum", strconv.Quote(value)+" is not one of the allowed values: "+allowed)
}

// RequiredError reports a required value that is not set.
func RequiredError(field string) *Error {
	return ValidationError(field, "required", "required value is not set")
}
