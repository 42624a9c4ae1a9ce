package wire

import (
	"errors"
	"strconv"
	"strings"
)

// Error is a decoding or validation failure at one place in a JSON document.
type Error struct {
	// Path is the JSON pointer of the offending value: "" for the document
	// itself, "/messages/2/toolCalls/0/function/name" for a nested one.
	Path string
	// Rule is the JSON Schema keyword the value breaks: "type", "required",
	// "const", "enum", "oneOf", "minimum", "maximum", "minItems", "pattern",
	// "not", "unevaluatedProperties"; or "syntax" for malformed JSON.
	Rule string
	// Msg says what is wrong, for a person.
	Msg string
	// Offset is the byte offset in the input where decoding stopped, or -1
	// for an error found by Validate.
	Offset int
	// Err is the sentinel behind the failure, when there is one (such as an
	// unknown union tag), for errors.Is.
	Err error
}

func (e *Error) Error() string {
	var b strings.Builder
	if e.Path == "" {
		b.WriteString("(root)")
	} else {
		b.WriteString(e.Path)
	}
	b.WriteString(": ")
	b.WriteString(e.Msg)
	if e.Offset >= 0 {
		b.WriteString(" (at byte ")
		b.WriteString(strconv.Itoa(e.Offset))
		b.WriteString(")")
	}
	return b.String()
}

func (e *Error) Unwrap() error { return e.Err }

// ValidationError returns an Error found by Validate at a field of the value
// being validated; callers prepend the path of the value as the error
// travels up.
func ValidationError(field, rule, msg string) *Error {
	e := &Error{Rule: rule, Msg: msg, Offset: -1}
	if field != "" {
		e.Path = "/" + escapeToken(field)
	}
	return e
}

// Under prepends an object member name to the error's path.
func (e *Error) Under(field string) *Error {
	e.Path = "/" + escapeToken(field) + e.Path
	return e
}

// At prepends an array index to the error's path.
func (e *Error) At(i int) *Error {
	e.Path = "/" + strconv.Itoa(i) + e.Path
	return e
}

// AsError returns e as an error, keeping a nil *Error a nil error.
func AsError(e *Error) error {
	if e == nil {
		return nil
	}
	return e
}

func escapeToken(s string) string {
	if !strings.ContainsAny(s, "~/") {
		return s
	}
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

// ErrSyntax is behind every error about malformed JSON text.
var ErrSyntax = errors.New("malformed JSON")

// ErrNoTag is behind the error for a union value that lacks the member
// saying which of the union's types it is.
var ErrNoTag = errors.New("union tag missing")
