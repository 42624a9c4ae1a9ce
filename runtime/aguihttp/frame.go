package aguihttp

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// MaxFrameBytes is the most a client reads of one event before failing the
// stream: the data of one SSE event, or one protobuf frame.
const MaxFrameBytes = 10 << 20

// FrameReader reads the protobuf transport: frames of a 4-byte big-endian
// length and one Event envelope, which the caller decodes.
type FrameReader struct {
	r   io.Reader
	buf []byte
	n   int // frames read
}

// NewFrameReader reads frames from r.
func NewFrameReader(r io.Reader) *FrameReader { return &FrameReader{r: r} }

// Next returns the next frame's body, valid until the next call; io.EOF at
// a frame boundary is the clean end. It returns the number of the frame,
// from 0, for messages about it.
func (p *FrameReader) Next() (frame []byte, n int, err error) {
	var head [4]byte
	if _, err := io.ReadFull(p.r, head[:]); err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) {
			return nil, p.n, fmt.Errorf("agui: the binary stream ended mid-frame (frame %d)", p.n)
		}
		return nil, p.n, err
	}
	size := binary.BigEndian.Uint32(head[:])
	if size > MaxFrameBytes {
		return nil, p.n, fmt.Errorf("agui: protobuf frame %d is %d bytes, more than the %d allowed", p.n, size, MaxFrameBytes)
	}
	if cap(p.buf) < int(size) {
		p.buf = make([]byte, size)
	}
	p.buf = p.buf[:size]
	if _, err := io.ReadFull(p.r, p.buf); err != nil {
		return nil, p.n, fmt.Errorf("agui: the binary stream ended mid-frame (frame %d): %w", p.n, err)
	}
	p.n++
	return p.buf, p.n - 1, nil
}

// AppendFrame appends one frame whose body body appends, and reports
// whether it did: nothing is appended when body reports false (an event
// with no protobuf form).
func AppendFrame(b []byte, body func([]byte) ([]byte, bool)) []byte {
	at := len(b)
	b, ok := body(append(b, 0, 0, 0, 0))
	if !ok {
		return b[:at]
	}
	binary.BigEndian.PutUint32(b[at:at+4], uint32(len(b)-at-4))
	return b
}
