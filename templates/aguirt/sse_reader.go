package aguirt

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
)

// MaxFrameBytes is the most a client reads of one event before failing the
// stream: the data of one SSE event, or one protobuf frame.
const MaxFrameBytes = 10 << 20

// sseReader reads Server-Sent Events (the WHATWG event stream format) and
// returns the data of each event: the values of its data fields joined
// with "\n". Lines end in LF or CRLF; comment lines and fields other than
// data (event, id, retry, and unknown ones) are ignored; a leading byte
// order mark is skipped; an event with no data field is skipped, and so is
// one the stream ends in the middle of.
type sseReader struct {
	r       *bufio.Reader
	max     int
	started bool
	line    []byte
	data    []byte
	hasData bool
}

func newSSEReader(r io.Reader, max int) *sseReader {
	return &sseReader{r: bufio.NewReaderSize(r, 64<<10), max: max}
}

var errSSEFrameTooLarge = fmt.Errorf("agui: an SSE event exceeds %d bytes", MaxFrameBytes)

// next returns the data of the next event, valid until the following call,
// or io.EOF at the end of the stream.
func (s *sseReader) next() ([]byte, error) {
	s.data, s.hasData = s.data[:0], false
	for {
		line, err := s.readLine()
		if err != nil {
			return nil, err
		}
		if len(line) == 0 {
			if s.hasData {
				return s.data, nil
			}
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
		if string(name) != "data" {
			continue
		}
		if s.hasData {
			s.data = append(s.data, '\n')
		}
		s.data = append(s.data, value...)
		s.hasData = true
		if len(s.data) > s.max {
			return nil, errSSEFrameTooLarge
		}
	}
}

// readLine returns the next line without its terminator. A last line with
// no terminator is not a line: the stream ended in the middle of it.
func (s *sseReader) readLine() ([]byte, error) {
	s.line = s.line[:0]
	for {
		chunk, err := s.r.ReadSlice('\n')
		s.line = append(s.line, chunk...)
		if len(s.line) > s.max+16 { // room for "data: " and the line end
			return nil, errSSEFrameTooLarge
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				return nil, io.EOF
			}
			return nil, err
		}
		break
	}
	line := s.line[:len(s.line)-1]
	if n := len(line); n > 0 && line[n-1] == '\r' {
		line = line[:n-1]
	}
	if !s.started {
		s.started = true
		line = bytes.TrimPrefix(line, []byte("\xEF\xBB\xBF"))
	}
	return line, nil
}
