package a2art

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"

	a2a "github.com/agui-gen/agui-gen/gen/a2a"
)

// readEvents yields the messages of an event stream, each event decoded by
// decode, until the stream ends, decode fails, an event exceeds max bytes,
// or the caller stops.
func readEvents(ctx context.Context, method *a2a.MethodDesc, body io.Reader, max int64, yield func(a2a.ProtoValue, error) bool,
	decode func(sseEvent) (a2a.ProtoValue, error)) {
	events := newSSEReader(body, max)
	for {
		ev, err := events.next()
		if err != nil {
			if !errors.Is(err, io.EOF) && ctx.Err() == nil {
				yield(nil, fmt.Errorf("a2a: %s: reading the stream: %w", method.Name, err))
			}
			return
		}
		msg, err := decode(ev)
		if err != nil {
			yield(nil, err)
			return
		}
		if !yield(msg, nil) {
			return
		}
	}
}

// sseEvent is one event of a Server-Sent Events stream.
type sseEvent struct {
	name string // the event field; "" for the default type
	data []byte // the data lines joined by "\n"
}

// sseReader reads events as the HTML Living Standard's event stream
// interpretation says: fields data and event are kept, id, retry and
// comments are skipped, and a blank line dispatches.
type sseReader struct {
	r    *bufio.Reader
	max  int64 // bytes one event may take, its lines included
	data []byte
	name string
}

func newSSEReader(r io.Reader, max int64) *sseReader {
	return &sseReader{r: bufio.NewReaderSize(r, 64<<10), max: max}
}

// next returns the next event with data, or io.EOF at the end.
func (s *sseReader) next() (sseEvent, error) {
	s.data, s.name = s.data[:0], ""
	hasData := false
	var size int64
	for {
		line, err := s.r.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			// A long line: gather it whole, within the event's limit.
			long := append([]byte(nil), line...)
			for err == bufio.ErrBufferFull && size+int64(len(long)) <= s.max {
				line, err = s.r.ReadSlice('\n')
				long = append(long, line...)
			}
			line = long
		}
		if size += int64(len(line)); size > s.max {
			return sseEvent{}, fmt.Errorf("an event exceeds %d bytes", s.max)
		}
		if err != nil && (err != io.EOF || len(line) == 0) {
			if hasData && err == io.EOF {
				return sseEvent{name: s.name, data: s.data}, nil
			}
			return sseEvent{}, err
		}
		line = bytes.TrimRight(line, "\r\n")
		if len(line) == 0 {
			if hasData {
				return sseEvent{name: s.name, data: s.data}, nil
			}
			s.name = ""
			continue
		}
		if line[0] == ':' {
			continue
		}
		field, value, _ := bytes.Cut(line, []byte(":"))
		value = bytes.TrimPrefix(value, []byte(" "))
		switch string(field) {
		case "data":
			if hasData {
				s.data = append(s.data, '\n')
			}
			s.data = append(s.data, value...)
			hasData = true
		case "event":
			s.name = string(value)
		}
	}
}
