package a2arpc

import (
	"encoding/base64"
	"errors"
	"fmt"
	"strconv"
	"time"
)

// ErrUnknownField is behind the error SetField returns for a name the
// message has no top-level field for.
var ErrUnknownField = errors.New("no such field")

// The helpers below parse the text form of a field, as HTTP+JSON path
// variables and query parameters carry it: the ProtoJSON form of the value
// without JSON quoting. A value that does not parse is never coerced. The
// generated SetField methods call them; name is the field's, for errors.

// UnknownField is the error SetField returns for a name the message has no
// top-level field for.
func UnknownField(name string) error {
	return fmt.Errorf("%q: %w", name, ErrUnknownField)
}

// BadFieldText is the INVALID_PARAMS error for text that is not want.
func BadFieldText(name, text, want string) error {
	return &RPCError{Code: -32602, Reason: "INVALID_PARAMS",
		Message:    fmt.Sprintf("%s: %q is not %s", name, text, want),
		Violations: []FieldViolation{{Field: name, Description: fmt.Sprintf("%q is not %s", text, want)}}}
}

// NotSettable is the INVALID_PARAMS error for a field that text cannot set:
// a message, a map, a oneof of messages.
func NotSettable(name string) error {
	return &RPCError{Code: -32602, Reason: "INVALID_PARAMS",
		Message:    name + ": a message field cannot be set from text",
		Violations: []FieldViolation{{Field: name, Description: "a message field cannot be set from text"}}}
}

// TextInt parses a signed integer of bits bits.
func TextInt(name, text string, bits int) (int64, error) {
	v, err := strconv.ParseInt(text, 10, bits)
	if err != nil {
		return 0, BadFieldText(name, text, fmt.Sprintf("an int%d", bits))
	}
	return v, nil
}

// TextUint parses an unsigned integer of bits bits.
func TextUint(name, text string, bits int) (uint64, error) {
	v, err := strconv.ParseUint(text, 10, bits)
	if err != nil {
		return 0, BadFieldText(name, text, fmt.Sprintf("a uint%d", bits))
	}
	return v, nil
}

// TextFloat parses a float of bits bits.
func TextFloat(name, text string, bits int) (float64, error) {
	v, err := strconv.ParseFloat(text, bits)
	if err != nil {
		return 0, BadFieldText(name, text, "a number")
	}
	return v, nil
}

// TextBool parses "true" or "false".
func TextBool(name, text string) (bool, error) {
	switch text {
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	return false, BadFieldText(name, text, `"true" or "false"`)
}

// TextBytes parses base64, standard or URL-safe, padded or not.
func TextBytes(name, text string) ([]byte, error) {
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding, base64.RawStdEncoding, base64.RawURLEncoding} {
		if b, err := enc.DecodeString(text); err == nil {
			return b, nil
		}
	}
	return nil, BadFieldText(name, text, "base64")
}

// TextTimestamp parses an RFC 3339 timestamp.
func TextTimestamp(name, text string) (*time.Time, error) {
	t, err := time.Parse(time.RFC3339Nano, text)
	if err != nil {
		return nil, BadFieldText(name, text, "an RFC 3339 timestamp")
	}
	return &t, nil
}

// TextEnum parses an enum value given by name or by number.
func TextEnum[E ~int32](name, text string, parse func([]byte) (E, bool)) (E, error) {
	if v, ok := parse([]byte(text)); ok {
		return v, nil
	}
	if n, err := strconv.ParseInt(text, 10, 32); err == nil {
		return E(n), nil
	}
	return 0, BadFieldText(name, text, "a value of the enum")
}
