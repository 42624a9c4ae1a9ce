// Package lenient decodes a JSON document the way an AG-UI receiver must:
// forgiving where the protocol says so (material from a newer version is
// stripped, with a warning) and strict everywhere else (a malformed known
// field is fatal). The generated package gives it the decoder and the
// errors of its unions; what is stripped is cut out of the JSON text, so
// the decoders stay strict and fast for the common case.
package lenient

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/agui-gen/agui-gen/runtime/wire"
)

// Decode decodes data with decode and validates the result, stripping what
// an AG-UI receiver tolerates and retrying until it decodes: members the
// schema does not declare (reported by the decoder's OnUnknown); an
// unrecognised union member, whose error wraps one of unknown, in an
// optional position or a list; an unrecognised value of a closed string
// set in an optional position. What was stripped and was required drops
// the list element holding it, or, outside a list, fails the decode with
// the error that caused the strip. Each strip is reported to warn, once
// the value decodes, with the JSON pointer of what went.
func Decode[T interface{ Validate() error }](data []byte, decode func(wire.Decoder, []byte) (T, error), unknown []error, warn func(string)) (T, error) {
	var (
		zero     T
		members  []string // undeclared members the decoder reported
		stripped []string
	)
	d := wire.Decoder{OnUnknown: func(p string) { members = append(members, p) }}
	var cause error // the error behind the last strip
	last := ""      // the pointer last stripped
	for attempt := 0; attempt < 64; attempt++ {
		members = members[:0]
		v, err := decode(d, data)
		if err == nil {
			if err = v.Validate(); err == nil {
				for _, s := range stripped {
					warn(s)
				}
				for _, p := range members {
					warn("stripped unrecognised member " + p)
				}
				return v, nil
			}
		}
		var e *wire.Error
		if !errors.As(err, &e) {
			return zero, err
		}
		target, what := "", ""
		switch {
		case e.Rule == "required" && last != "" && e.Path == last:
			// What was stripped was required: drop the list element
			// holding it, if it is in a list.
			parent := parentPointer(last)
			if _, inArray, ok := jsonCut(data, parent); !ok || !inArray || parent == "" {
				return zero, cause
			}
			target, what = parent, "dropped "+parent+", which needs the "+strconv.Quote(lastToken(last))+" that was stripped"
		case e.Rule == "oneOf" && isUnknownMember(err, unknown):
			target = parentPointer(e.Path)
			if target == "" {
				return zero, err
			}
			what = "stripped unrecognised value at " + target + " (" + e.Msg + ")"
		case e.Rule == "enum" && e.Offset < 0 && e.Path != "":
			target = e.Path
			what = "stripped unrecognised value at " + target + " (" + e.Msg + ")"
		default:
			if cause != nil && e.Rule == "required" {
				return zero, cause
			}
			return zero, err
		}
		cut, _, ok := jsonCut(data, target)
		if !ok {
			return zero, err
		}
		if e.Rule != "required" {
			cause = err
		}
		data, last = cut, target
		stripped = append(stripped, what)
	}
	return zero, fmt.Errorf("agui: too many unrecognised values to strip: %w", cause)
}

func isUnknownMember(err error, unknown []error) bool {
	for _, s := range unknown {
		if errors.Is(err, s) {
			return true
		}
	}
	return false
}

// parentPointer returns the JSON pointer of the value holding the one ptr
// names.
func parentPointer(ptr string) string {
	if i := strings.LastIndexByte(ptr, '/'); i >= 0 {
		return ptr[:i]
	}
	return ""
}

func lastToken(ptr string) string {
	return unescapeToken(ptr[strings.LastIndexByte(ptr, '/')+1:])
}

func unescapeToken(t string) string {
	return strings.ReplaceAll(strings.ReplaceAll(t, "~1", "/"), "~0", "~")
}

// jsonCut removes the value at the JSON pointer ptr from the JSON text
// data: the member (key and value) from an object, the element from an
// array, with one adjoining comma, and everything else byte for byte. It
// reports whether the value was an array element, and false if ptr names
// nothing in data or names the document itself.
func jsonCut(data []byte, ptr string) (out []byte, inArray, ok bool) {
	if ptr == "" || ptr[0] != '/' {
		return nil, false, false
	}
	tokens := strings.Split(ptr[1:], "/")
	for i := range tokens {
		tokens[i] = unescapeToken(tokens[i])
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	start, end, inArray, ok := cutWalk(dec, data, tokens)
	if !ok {
		return nil, false, false
	}
	out = make([]byte, 0, len(data)-(end-start))
	out = append(out, data[:start]...)
	out = append(out, data[end:]...)
	return out, inArray, true
}

// cutWalk reads the container ahead and finds the span to cut for the path
// tokens under it.
func cutWalk(dec *json.Decoder, data []byte, tokens []string) (start, end int, inArray, ok bool) {
	tok, err := dec.Token()
	if err != nil {
		return 0, 0, false, false
	}
	delim, isDelim := tok.(json.Delim)
	if !isDelim || (delim != '{' && delim != '[') {
		return 0, 0, false, false
	}
	want := tokens[0]
	for i := 0; dec.More(); i++ {
		before := int(dec.InputOffset()) // at the comma, or at the first member
		match := false
		if delim == '{' {
			key, err := dec.Token()
			if err != nil {
				return 0, 0, false, false
			}
			k, _ := key.(string)
			match = k == want
		} else {
			match = strconv.Itoa(i) == want
		}
		if match && len(tokens) > 1 {
			return cutWalk(dec, data, tokens[1:])
		}
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return 0, 0, false, false
		}
		if !match {
			continue
		}
		after := int(dec.InputOffset())
		if i == 0 {
			// The first member: take the comma after it, if any.
			j := after
			for j < len(data) && isJSONSpace(data[j]) {
				j++
			}
			if j < len(data) && data[j] == ',' {
				after = j + 1
			}
		}
		return before, after, delim == '[', true
	}
	return 0, 0, false, false
}

func isJSONSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }
