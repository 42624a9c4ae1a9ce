package jsonwire

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

// readSlice reads an array whose elements read is given, keeping an empty
// array distinct from an absent one (a nil slice).
//
// read has the shape of a method expression, so (*T).readJSON serves.
func readSlice[T any](r *reader, read func(v *T, r *reader)) []T {
	if !r.beginArray() {
		return nil
	}
	out := []T{}
	for r.nextItem() {
		out = append(out, *new(T))
		read(&out[len(out)-1], r)
	}
	return out
}

func readStringTo(v *string, r *reader) { *v = r.readString() }
func readIntTo(v *int64, r *reader)     { *v = r.readInt() }
func readFloatTo(v *float64, r *reader) { *v = r.readFloat() }
func readBoolTo(v *bool, r *reader)     { *v = r.readBool() }
func readAnyTo(v *json.RawMessage, r *reader) {
	*v = r.readRaw(false, false)
}

// newOf returns a pointer to a copy of v, for optional members.
func newOf[T any](v T) *T { return &v }

// appender is a generated value that writes itself.
type appender interface{ AppendJSON(b []byte) []byte }

// appendValue appends v, or null when v is nil.
func appendValue(b []byte, v appender) []byte {
	if v == nil {
		return append(b, "null"...)
	}
	return v.AppendJSON(b)
}

// readMember keeps the current member of an open object.
func (r *reader) readMember() Member {
	name := string(r.key())
	return Member{Name: name, Value: r.readRaw(false, false)}
}

// appendMembers appends the undeclared members of an open object.
func appendMembers(b []byte, ms []Member) []byte {
	for _, m := range ms {
		b = append(b, ',')
		b = appendString(b, m.Name)
		b = append(b, ':')
		b = appendRaw(b, m.Value)
	}
	return b
}

// checkRaw validates raw JSON text held by a value: well-formed, not null
// when notNull, an object when wantObject.
func checkRaw(field string, raw json.RawMessage, notNull, wantObject bool) *Error {
	if len(raw) == 0 {
		if notNull || wantObject {
			return validationError(field, "type", "no JSON value (empty raw text)")
		}
		return nil
	}
	r := newReader(raw, Decoder{})
	c := r.peek()
	r.skip()
	r.end()
	bad := r.err
	r.release()
	switch {
	case bad != nil:
		return validationError(field, "syntax", "raw JSON is malformed: "+bad.Msg)
	case wantObject && c != '{':
		return validationError(field, "type", "expected an object, found "+kindName(c))
	case notNull && c == 'n':
		return validationError(field, "not", "null is not allowed here")
	}
	return nil
}

// checkMembers checks that undeclared members of an open object do not
// shadow a declared one and carry well-formed JSON.
func checkMembers(ms []Member, declared func(string) bool) *Error {
	for _, m := range ms {
		if declared(m.Name) {
			return validationError(m.Name, "unevaluatedProperties", "an extra member may not repeat a declared member's name")
		}
		if err := checkRaw(m.Name, m.Value, false, false); err != nil {
			return err
		}
	}
	return nil
}

func checkMinimum(field string, v, min float64) *Error {
	if v < min {
		return validationError(field, "minimum", formatNumber(v)+" is less than the minimum "+formatNumber(min))
	}
	return nil
}

func checkMaximum(field string, v, max float64) *Error {
	if v > max {
		return validationError(field, "maximum", formatNumber(v)+" is greater than the maximum "+formatNumber(max))
	}
	return nil
}

func checkFinite(field string, v float64) *Error {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return validationError(field, "type", "NaN and infinities are not JSON numbers")
	}
	return nil
}

func checkMinItems(field string, n int, min int) *Error {
	if n < min {
		return validationError(field, "minItems", "has "+strconv.Itoa(n)+" items, fewer than the minimum "+strconv.Itoa(min))
	}
	return nil
}

func checkMaxItems(field string, n int, max int) *Error {
	if n > max {
		return validationError(field, "maxItems", "has "+strconv.Itoa(n)+" items, more than the maximum "+strconv.Itoa(max))
	}
	return nil
}

func formatNumber(f float64) string { return string(appendFloat(nil, f)) }

// enumError reports a value outside an enum.
func enumError(field, value string) *Error {
	return validationError(field, "enum", strconv.Quote(value)+" is not one of the allowed values")
}

// requiredError reports a required value that is not set.
func requiredError(field string) *Error {
	return validationError(field, "required", "required value is not set")
}
