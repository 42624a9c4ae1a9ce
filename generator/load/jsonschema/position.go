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

// positions is where each value of a document starts, by JSON pointer
// ("#/$defs/A/allOf/0"), and where its lines start: found in one pass over
// the document, so that locating a value is a lookup.
type positions struct {
	file  string
	at    map[string]int // the offset of the value at each pointer
	lines []int          // the offset of each line's first byte
}

// newPositions indexes data, the document of file. A document that does
// not decode is indexed as far as it does: its error is reported where it
// is decoded.
func newPositions(file string, data []byte) *positions {
	p := &positions{file: file, at: map[string]int{}, lines: []int{0}}
	for i, b := range data {
		if b == '\n' {
			p.lines = append(p.lines, i+1)
		}
	}
	p.index(json.NewDecoder(bytes.NewReader(data)), data, "#")
	return p
}

// index records the value dec is about to read, at ptr, and the values in
// it. Of two members of one name, the first is the one recorded.
func (p *positions) index(dec *json.Decoder, data []byte, ptr string) error {
	if _, seen := p.at[ptr]; !seen {
		p.at[ptr] = valueStart(data, int(dec.InputOffset()))
	}
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	switch tok {
	case json.Delim('{'):
		for dec.More() {
			key, err := dec.Token()
			if err != nil {
				return err
			}
			name, _ := key.(string)
			if err := p.index(dec, data, ptr+"/"+strings.ReplaceAll(strings.ReplaceAll(name, "~", "~0"), "/", "~1")); err != nil {
				return err
			}
		}
	case json.Delim('['):
		for i := 0; dec.More(); i++ {
			if err := p.index(dec, data, ptr+"/"+strconv.Itoa(i)); err != nil {
				return err
			}
		}
	default:
		return nil
	}
	_, err = dec.Token() // the closing delimiter
	return err
}

// valueStart is where the next value starts at or after offset: past white
// space and the ':' or ',' before it.
func valueStart(data []byte, offset int) int {
	for offset < len(data) && strings.IndexByte(" \t\r\n:,", data[offset]) >= 0 {
		offset++
	}
	return offset
}

// pos locates ptr: no line when the document has no value there.
func (p *positions) pos(ptr string) ir.Pos {
	pos := ir.Pos{File: p.file, Pointer: ptr}
	if off, ok := p.at[ptr]; ok {
		line, _ := slices.BinarySearch(p.lines, off+1) // the lines starting at or before off
		pos.Line, pos.Col = line, off-p.lines[line-1]+1
	}
	return pos
}

// foreignRef finds the first $ref in data that names neither a place in
// the document itself ("#…") nor one in a document given beside it (by its
// $id, one of ids), and says where it is: a reference to a file agui-gen
// was not given, which it would otherwise report without a place.
func foreignRef(file string, data []byte, ids []string) error {
	var first *Error
	var at *positions // indexed once a $ref is to be placed
	var walk func(v any, ptr string)
	walk = func(v any, ptr string) {
		switch v := v.(type) {
		case map[string]any:
			if ref, ok := v["$ref"].(string); ok && !strings.HasPrefix(ref, "#") &&
				!slices.ContainsFunc(ids, func(id string) bool { return strings.HasPrefix(ref, id+"#") || ref == id }) {
				if at == nil {
					at = newPositions(file, data)
				}
				e := &Error{Pos: at.pos(ptr + "/$ref"), Msg: fmt.Sprintf(
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
