package aguirt

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	agui "github.com/agui-gen/agui-gen/gen/agui"
)

// Receiving is forgiving where the protocol says so and strict everywhere
// else: material from a newer version is stripped with a warning, and a
// malformed known field is fatal.

// DecodeEventLenient decodes one event the way an AG-UI receiver must. An
// event of a type this package does not know is dropped: it returns a nil
// event and a nil error. Members the schema does not declare are stripped;
// so is an unrecognised member of a union in an optional position or a
// list (an outcome, a content part, a patch operation, a message), and an
// unrecognised value of a closed string set in an optional position (a
// role). If what was stripped was required, the list element holding it is
// dropped instead, or, outside a list, the event is malformed. Each of
// these is reported to warn (which may be nil) with the JSON pointer of
// what went. Any other failure to decode or validate is returned, as an
// *agui.Error.
func DecodeEventLenient(data []byte, warn func(msg string)) (agui.Event, error) {
	if warn == nil {
		warn = func(string) {}
	}
	// The common case, an event with nothing to strip, decodes strictly in
	// one pass; anything else takes the tolerant path below.
	if ev, err := (agui.Decoder{Strict: true}).DecodeEvent(data); err == nil && ev.Validate() == nil {
		return ev, nil
	}
	ev, err := decodeLenient(data, func(d agui.Decoder, b []byte) (agui.Event, error) { return d.DecodeEvent(b) }, warn)
	if err != nil {
		var e *agui.Error
		if errors.As(err, &e) && e.Path == "/type" && errors.Is(err, agui.ErrUnknownEvent) {
			warn("dropped an event of unrecognised type " + strings.TrimPrefix(e.Msg, "unknown type "))
			return nil, nil
		}
		return nil, err
	}
	return ev, nil
}

// unknownSentinels are the errors behind an unrecognised member of a
// nested union.
var unknownSentinels = []error{
	agui.ErrUnknownMessage,
	agui.ErrUnknownContentPart,
	agui.ErrUnknownPartSource,
	agui.ErrUnknownRunFinishedOutcome,
	agui.ErrUnknownSubagentFinishedOutcome,
	agui.ErrUnknownJSONPatchOperation,
}

// decodeLenient decodes and validates data, stripping what a receiver
// tolerates (see DecodeEventLenient) and retrying until it decodes.
func decodeLenient[T interface{ Validate() error }](data []byte, decode func(agui.Decoder, []byte) (T, error), warn func(string)) (T, error) {
	var (
		zero     T
		unknown  []string
		stripped []string
	)
	d := agui.Decoder{OnUnknown: func(p string) { unknown = append(unknown, p) }}
	var cause error // the error behind the last strip
	last := ""      // the pointer last stripped
	for attempt := 0; attempt < 64; attempt++ {
		unknown = unknown[:0]
		v, err := decode(d, data)
		if err == nil {
			if err = v.Validate(); err == nil {
				for _, s := range stripped {
					warn(s)
				}
				for _, p := range unknown {
					warn("stripped unrecognised member " + p)
				}
				return v, nil
			}
		}
		var e *agui.Error
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
		case e.Rule == "oneOf" && isUnknownMember(err):
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

func isUnknownMember(err error) bool {
	for _, s := range unknownSentinels {
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
