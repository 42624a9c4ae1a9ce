package jsonschema

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/agui-gen/agui-gen/generator/ir"
)

// Positions in a document are found in its own bytes, by JSON pointer, so
// that an error names the line and column of what it is about whatever the
// library that resolved the document kept.

// lineCol is the 1-based line and column of byte offset in data.
func lineCol(data []byte, offset int) (line, col int) {
	offset = min(max(offset, 0), len(data))
	before := data[:offset]
	line = bytes.Count(before, []byte("\n")) + 1
	col = offset - (bytes.LastIndexByte(before, '\n') + 1) + 1
	return line, col
}

// syntaxError locates a JSON syntax error in data.
func syntaxError(file string, data []byte, err error) *Error {
	pos := ir.Pos{File: file}
	var se *json.SyntaxError
	if errors.As(err, &se) {
		pos.Line, pos.Col = lineCol(data, int(se.Offset)-1)
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		pos.Line, pos.Col = lineCol(data, int(te.Offset)-1)
	}
	return &Error{Pos: pos, Msg: "not a JSON Schema document: " + err.Error()}
}

// pointerOffset is the byte offset in data of the value the JSON pointer
// ptr ("#/$defs/A/allOf/0") names, and whether there is one.
func pointerOffset(data []byte, ptr string) (int, bool) {
	rest, ok := strings.CutPrefix(ptr, "#")
	if !ok {
		return 0, false
	}
	var segs []string
	if rest != "" {
		if !strings.HasPrefix(rest, "/") {
			return 0, false
		}
		for _, s := range strings.Split(rest[1:], "/") {
			segs = append(segs, strings.ReplaceAll(strings.ReplaceAll(s, "~1", "/"), "~0", "~"))
		}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	return descend(dec, data, segs)
}

// descend finds the value segs names in the value dec is about to read.
func descend(dec *json.Decoder, data []byte, segs []string) (int, bool) {
	start := valueStart(data, int(dec.InputOffset()))
	if len(segs) == 0 {
		return start, true
	}
	tok, err := dec.Token()
	if err != nil {
		return 0, false
	}
	switch tok {
	case json.Delim('{'):
		for dec.More() {
			key, err := dec.Token()
			if err != nil {
				return 0, false
			}
			if key == segs[0] {
				return descend(dec, data, segs[1:])
			}
			if err := skip(dec); err != nil {
				return 0, false
			}
		}
	case json.Delim('['):
		want, err := strconv.Atoi(segs[0])
		if err != nil {
			return 0, false
		}
		for i := 0; dec.More(); i++ {
			if i == want {
				return descend(dec, data, segs[1:])
			}
			if err := skip(dec); err != nil {
				return 0, false
			}
		}
	}
	return 0, false
}

// valueStart is where the next value starts at or after offset: past white
// space and the ':' or ',' before it.
func valueStart(data []byte, offset int) int {
	for offset < len(data) && strings.IndexByte(" \t\r\n:,", data[offset]) >= 0 {
		offset++
	}
	return offset
}

func skip(dec *json.Decoder) error {
	var v json.RawMessage
	return dec.Decode(&v)
}

// pointerPos locates ptr in the document data of file.
func pointerPos(file string, data []byte, ptr string) ir.Pos {
	pos := ir.Pos{File: file, Pointer: ptr}
	if off, ok := pointerOffset(data, ptr); ok {
		pos.Line, pos.Col = lineCol(data, off)
	}
	return pos
}

// foreignRef finds the first $ref in data that names neither a place in
// the document itself ("#…") nor one in a document given beside it (by its
// $id, one of ids), and says where it is: a reference to a file agui-gen
// was not given, which it would otherwise report without a place.
func foreignRef(file string, data []byte, ids []string) error {
	var first *Error
	var walk func(v any, ptr string)
	walk = func(v any, ptr string) {
		switch v := v.(type) {
		case map[string]any:
			if ref, ok := v["$ref"].(string); ok && !strings.HasPrefix(ref, "#") &&
				!slices.ContainsFunc(ids, func(id string) bool { return strings.HasPrefix(ref, id+"#") || ref == id }) {
				e := &Error{Pos: pointerPos(file, data, ptr+"/$ref"), Msg: fmt.Sprintf(
					"$ref %q names a document agui-gen was not given: refer within the file (#/$defs/Name), or to a document given beside it by its $id", ref)}
				// The first in the file, whatever order the map walks in.
				if first == nil || e.Pos.Line < first.Pos.Line || e.Pos.Line == first.Pos.Line && e.Pos.Col < first.Pos.Col {
					first = e
				}
			}
			for k, e := range v {
				walk(e, ptr+"/"+strings.ReplaceAll(strings.ReplaceAll(k, "~", "~0"), "/", "~1"))
			}
		case []any:
			for i, e := range v {
				walk(e, ptr+"/"+strconv.Itoa(i))
			}
		}
	}
	var doc any
	if err := json.NewDecoder(bytes.NewReader(data)).Decode(&doc); err != nil && err != io.EOF {
		return syntaxError(file, data, err)
	}
	walk(doc, "#")
	if first != nil {
		return first
	}
	return nil
}
