package aguirt

import (
	"encoding/binary"
	"io"
	"net/http"
	"sync"
	"time"

	agui "github.com/agui-gen/agui-gen/gen/agui"
)

// protoWriter writes the protobuf transport: each event is a 4-byte
// big-endian length followed by that many bytes of one Event envelope.
type protoWriter struct {
	mu    sync.Mutex
	w     io.Writer
	flush func()
	buf   []byte
}

func newProtoWriter(w io.Writer) *protoWriter {
	p := &protoWriter{w: w, flush: func() {}}
	if f, ok := w.(http.Flusher); ok {
		p.flush = f.Flush
	}
	return p
}

func (p *protoWriter) ContentType() string { return MediaTypeProto }

// WriteEvent writes one frame. An event with no protobuf form (META) is
// skipped: the binary transport cannot carry it.
func (p *protoWriter) WriteEvent(ev agui.Event) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	buf, ok := agui.AppendEventProto(append(p.buf[:0], 0, 0, 0, 0), ev)
	p.buf = buf
	if !ok {
		return nil
	}
	binary.BigEndian.PutUint32(buf[:4], uint32(len(buf)-4))
	if _, err := p.w.Write(buf); err != nil {
		return err
	}
	p.flush()
	return nil
}

// KeepAlive does nothing: the binary transport has no comment frame, and an
// empty frame would be an event.
func (p *protoWriter) KeepAlive(time.Duration) error { return nil }
