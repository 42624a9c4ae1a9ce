package aguirt

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	agui "github.com/agui-gen/agui-gen/gen/agui"
)

// protoSource is the protobuf transport: frames of a 4-byte big-endian
// length and one Event envelope.
type protoSource struct {
	r    io.Reader
	warn func(string)
	buf  []byte
	n    int // frames read
}

func (p *protoSource) next() (agui.Event, error) {
	var head [4]byte
	if _, err := io.ReadFull(p.r, head[:]); err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) {
			return nil, fmt.Errorf("agui: the binary stream ended mid-frame (frame %d)", p.n)
		}
		return nil, err // io.EOF at a frame boundary is the clean end
	}
	size := binary.BigEndian.Uint32(head[:])
	if size > MaxFrameBytes {
		return nil, fmt.Errorf("agui: protobuf frame %d is %d bytes, more than the %d allowed", p.n, size, MaxFrameBytes)
	}
	if cap(p.buf) < int(size) {
		p.buf = make([]byte, size)
	}
	p.buf = p.buf[:size]
	if _, err := io.ReadFull(p.r, p.buf); err != nil {
		return nil, fmt.Errorf("agui: the binary stream ended mid-frame (frame %d): %w", p.n, err)
	}
	p.n++
	ev, err := agui.UnmarshalEventProto(p.buf)
	if errors.Is(err, agui.ErrUnknownEvent) {
		p.warn(fmt.Sprintf("dropped protobuf frame %d: %v", p.n-1, err))
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("agui: protobuf frame %d is malformed: %w", p.n-1, err)
	}
	return ev, nil
}
