package aguirt

import (
	"io"
	"net/http"
	"sync"
	"time"

	agui "github.com/agui-gen/agui-gen/gen/agui"
)

// eventWriter frames events onto a response and flushes each one as it is
// written. It is safe for concurrent use (the keep-alive ticker writes too).
type eventWriter interface {
	// ContentType is the exact response Content-Type of the transport.
	ContentType() string
	// WriteEvent writes one event and flushes it.
	WriteEvent(ev agui.Event) error
	// KeepAlive writes something a consumer ignores, to hold an idle
	// connection open through proxies, unless an event went out within idle.
	KeepAlive(idle time.Duration) error
}

// sseWriter writes Server-Sent Events: one "data: <json>" line and a blank
// line per event, LF only, no other fields.
type sseWriter struct {
	mu    sync.Mutex
	w     io.Writer
	flush func()
	buf   []byte
	last  time.Time // when the last event was written
}

func newSSEWriter(w io.Writer) *sseWriter {
	s := &sseWriter{w: w, flush: func() {}}
	if f, ok := w.(http.Flusher); ok {
		s.flush = f.Flush
	}
	return s
}

func (s *sseWriter) ContentType() string { return MediaTypeSSE }

func (s *sseWriter) WriteEvent(ev agui.Event) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.buf = append(s.buf[:0], "data: "...)
	s.buf = ev.AppendJSON(s.buf)
	s.buf = append(s.buf, '\n', '\n')
	if _, err := s.w.Write(s.buf); err != nil {
		return err
	}
	s.flush()
	s.last = time.Now()
	return nil
}

func (s *sseWriter) KeepAlive(idle time.Duration) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if time.Since(s.last) < idle {
		return nil
	}
	if _, err := io.WriteString(s.w, ": keep-alive\n\n"); err != nil {
		return err
	}
	s.flush()
	return nil
}
