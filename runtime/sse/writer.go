package sse

import (
	"bytes"
	"errors"
	"net/http"
	"strings"
)

// ContentType is the media type of an event stream.
const ContentType = "text/event-stream"

// KeepAliveComment is the comment line a stream writes to hold an idle
// connection open through proxies; readers skip it.
const KeepAliveComment = ": keep-alive\n\n"

// ErrLineBreak is the error for an event name or id that holds a line
// break, which would end its field early.
var ErrLineBreak = errors.New("sse: an event name or id holds a line break")

// SetHeader sets the header fields of a streamed response: its
// Content-Type, Cache-Control: no-cache, and X-Accel-Buffering: no, which
// keeps a proxy such as nginx from holding the stream back.
func SetHeader(h http.Header, contentType string) {
	h.Set("Content-Type", contentType)
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Accel-Buffering", "no")
}

// AppendEvent appends one event to b: an event line when name is not ""
// (the default type, message, otherwise), an id line when id is not "",
// one data line holding data, and the blank line that ends the event; LF
// only. A line break in data is written as a space: in JSON, whose strings
// escape theirs, a line break is white space, and readers such as
// a2a-go's take every data line as a message of its own. Line breaks in
// name and id are written as spaces too (Queue.Event refuses them).
func AppendEvent(b []byte, name, id string, data []byte) []byte {
	b, at := appendEventStart(b, name, id)
	b = append(b, data...)
	return appendEventEnd(b, at)
}

// AppendEventFunc is AppendEvent with the event's data appended by data,
// in place, where AppendEvent copies it: for an encoder that appends, as
// the generated AppendJSON methods do.
func AppendEventFunc(b []byte, name, id string, data func(b []byte) []byte) []byte {
	b, at := appendEventStart(b, name, id)
	b = data(b)
	return appendEventEnd(b, at)
}

// appendEventStart appends the fields of an event up to its data, and
// returns where the data begins.
func appendEventStart(b []byte, name, id string) ([]byte, int) {
	if name != "" {
		b = append(appendField(append(b, "event: "...), name), '\n')
	}
	if id != "" {
		b = append(appendField(append(b, "id: "...), id), '\n')
	}
	b = append(b, "data: "...)
	return b, len(b)
}

// appendField appends the value of a field, its line breaks as spaces.
func appendField(b []byte, v string) []byte {
	at := len(b)
	b = append(b, v...)
	if hasLineBreak(v) {
		spaceLineBreaks(b[at:])
	}
	return b
}

// appendEventEnd writes the line breaks of the data that begins at at as
// spaces, and ends the event.
func appendEventEnd(b []byte, at int) []byte {
	if data := b[at:]; bytes.IndexByte(data, '\n') >= 0 || bytes.IndexByte(data, '\r') >= 0 {
		spaceLineBreaks(data)
	}
	return append(b, '\n', '\n')
}

func spaceLineBreaks(b []byte) {
	for i, c := range b {
		if c == '\n' || c == '\r' {
			b[i] = ' '
		}
	}
}

func hasLineBreak(s string) bool { return strings.ContainsAny(s, "\r\n") }
