// Package sse reads and writes Server-Sent Events (the WHATWG event stream
// format), the framing of AG-UI's default transport and of A2A's streaming
// calls on JSON-RPC and HTTP+JSON. The clients of both protocols read their
// streams with its Reader. The servers of both write theirs through its
// Queue, the batched, bounded frame queue of one streamed response, which
// carries AG-UI's length-prefixed protobuf frames as well as events
// (AppendEvent frames one).
package sse

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"strconv"
	"sync"
)

// Event is one dispatched event of a stream.
type Event struct {
	// Name is the event field ("" for the default type, "message").
	Name string
	// ID is the id field of the event, "" when it had none.
	ID string
	// Data is the values of the event's data fields joined with "\n". It
	// is valid until the next call of Next.
	Data []byte
}

// TooLargeError is the error for an event whose data exceeds the reader's
// limit; the stream cannot be read past it.
type TooLargeError struct {
	Max int // the limit, in bytes
}

func (e *TooLargeError) Error() string {
	return "an SSE event exceeds " + strconv.Itoa(e.Max) + " bytes"
}

// Reader reads the events of a stream. Lines end in LF or CRLF; comment
// lines and the fields other than data, event and id (retry, unknown ones)
// are skipped; a leading byte order mark is skipped; an event with no data
// field is not dispatched, and neither is one the stream ends in the middle
// of, as the standard says.
type Reader struct {
	r       *bufio.Reader
	max     int
	started bool
	line    []byte
	data    []byte
	hasData bool
}

// bufferSize is the size of a Reader's read buffer: a line that fits is
// read where the buffer holds it, without a copy.
const bufferSize = 64 << 10

// readBuffers holds the read buffers of closed Readers, so that a client that
// opens one stream after another does not allocate one for each.
var readBuffers = sync.Pool{New: func() any { return bufio.NewReaderSize(nil, bufferSize) }}

// NewReader returns a Reader of r that fails on an event with more than
// max bytes of data.
func NewReader(r io.Reader, max int) *Reader {
	br := readBuffers.Get().(*bufio.Reader)
	br.Reset(r)
	return &Reader{r: br, max: max}
}

// Close gives the Reader's read buffer back for another Reader to use; the
// Reader must not be used after it. It does not close the stream. A Reader
// that is not closed holds its buffer until it is collected.
func (s *Reader) Close() {
	if s.r != nil {
		s.r.Reset(nil)
		readBuffers.Put(s.r)
		s.r = nil
	}
}

// Next returns the next event, or io.EOF at the end of the stream.
func (s *Reader) Next() (Event, error) {
	s.data, s.hasData = s.data[:0], false
	var ev Event
	for {
		line, err := s.readLine()
		if err != nil {
			return Event{}, err
		}
		if len(line) == 0 {
			if s.hasData {
				ev.Data = s.data
				return ev, nil
			}
			ev = Event{}
			continue
		}
		if line[0] == ':' {
			continue
		}
		name, value := line, []byte(nil)
		if i := bytes.IndexByte(line, ':'); i >= 0 {
			name, value = line[:i], line[i+1:]
			if len(value) > 0 && value[0] == ' ' {
				value = value[1:]
			}
		}
		switch string(name) {
		case "data":
			if s.hasData {
				s.data = append(s.data, '\n')
			}
			s.data = append(s.data, value...)
			s.hasData = true
			if len(s.data) > s.max {
				return Event{}, &TooLargeError{Max: s.max}
			}
		case "event":
			ev.Name = string(value)
		case "id":
			if bytes.IndexByte(value, 0) < 0 { // the standard ignores an id with a NUL
				ev.ID = string(value)
			}
		}
	}
}

// readLine returns the next line without its terminator, valid until the
// next read. A last line with no terminator is not a line: the stream
// ended in the middle of it.
func (s *Reader) readLine() ([]byte, error) {
	line, err := s.r.ReadSlice('\n')
	if errors.Is(err, bufio.ErrBufferFull) {
		// A line longer than the buffer is gathered in s.line; one that fits
		// is read where bufio holds it, without a copy.
		s.line = append(s.line[:0], line...)
		for errors.Is(err, bufio.ErrBufferFull) {
			line, err = s.r.ReadSlice('\n')
			s.line = append(s.line, line...)
			if len(s.line) > s.max+16 { // room for "data: " and the line end
				return nil, &TooLargeError{Max: s.max}
			}
		}
		line = s.line
	}
	if len(line) > s.max+16 {
		return nil, &TooLargeError{Max: s.max}
	}
	if err != nil {
		return nil, err
	}
	line = line[:len(line)-1]
	if n := len(line); n > 0 && line[n-1] == '\r' {
		line = line[:n-1]
	}
	if !s.started {
		s.started = true
		line = bytes.TrimPrefix(line, []byte("\xEF\xBB\xBF"))
	}
	return line, nil
}
