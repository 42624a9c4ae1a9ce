package aguirt

import (
	"io"
	"net/http"
	"sync"
	"time"

	agui "github.com/agui-gen/agui-gen/gen/agui"
)

// eventWriter frames events onto a response. It is safe for concurrent use
// (the keep-alive ticker writes too).
type eventWriter interface {
	// ContentType is the exact response Content-Type of the transport.
	ContentType() string
	// WriteEvent queues one event; it reaches the wire, flushed, as soon as
	// the writer catches up. An error from an earlier write is returned.
	WriteEvent(ev agui.Event) error
	// KeepAlive writes something a consumer ignores, to hold an idle
	// connection open through proxies, unless an event went out within idle.
	KeepAlive(idle time.Duration) error
	// Close writes what is queued and stops; the response must not be
	// written after it returns.
	Close() error
}

// maxQueued bounds the bytes waiting for a slow client; a writer beyond it
// waits, so a fast agent cannot buffer without limit.
const maxQueued = 256 << 10

// frameSink hands framed events to one goroutine that writes everything
// queued and then flushes once. An event is never held back waiting for
// more: the sink flushes whenever it has caught up. A burst of events costs
// one write and one flush instead of one per event.
type frameSink struct {
	mu     sync.Mutex
	cond   *sync.Cond
	queued []byte // frames waiting to be written
	spare  []byte // the buffer being written, reused
	closed bool
	err    error
	last   time.Time // when the sink last caught up with an event
	w      io.Writer
	flush  func()
	done   chan struct{}
}

func newFrameSink(w io.Writer) *frameSink {
	s := &frameSink{w: w, flush: func() {}, done: make(chan struct{})}
	s.cond = sync.NewCond(&s.mu)
	if f, ok := w.(http.Flusher); ok {
		s.flush = f.Flush
	}
	go s.run()
	return s
}

// enqueue appends a frame built by frame, waiting while too much is queued.
func (s *frameSink) enqueue(frame func(b []byte) []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for len(s.queued) > maxQueued && s.err == nil && !s.closed {
		s.cond.Wait()
	}
	if s.err != nil {
		return s.err
	}
	if s.closed {
		return io.ErrClosedPipe
	}
	s.queued = frame(s.queued)
	s.cond.Broadcast()
	return nil
}

func (s *frameSink) run() {
	defer close(s.done)
	for {
		s.mu.Lock()
		for len(s.queued) == 0 && !s.closed {
			s.cond.Wait()
		}
		if len(s.queued) == 0 {
			s.mu.Unlock()
			return
		}
		batch := s.queued
		s.queued, s.spare = s.spare[:0], nil
		s.mu.Unlock()

		_, err := s.w.Write(batch)
		if err == nil {
			s.flush()
		}

		s.mu.Lock()
		s.spare = batch[:0]
		s.last = time.Now()
		if err != nil && s.err == nil {
			s.err = err
		}
		failed := s.err != nil
		s.cond.Broadcast()
		s.mu.Unlock()
		if failed {
			return
		}
	}
}

// idleFor reports whether nothing has been queued or written within d.
func (s *frameSink) idleFor(d time.Duration) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.queued) == 0 && time.Since(s.last) >= d
}

func (s *frameSink) Close() error {
	s.mu.Lock()
	s.closed = true
	s.cond.Broadcast()
	s.mu.Unlock()
	<-s.done
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}

// sseWriter writes Server-Sent Events: one "data: <json>" line and a blank
// line per event, LF only, no other fields.
type sseWriter struct{ *frameSink }

func newSSEWriter(w io.Writer) *sseWriter { return &sseWriter{newFrameSink(w)} }

func (s *sseWriter) ContentType() string { return MediaTypeSSE }

func (s *sseWriter) WriteEvent(ev agui.Event) error {
	return s.enqueue(func(b []byte) []byte {
		b = append(b, "data: "...)
		b = ev.AppendJSON(b)
		return append(b, '\n', '\n')
	})
}

func (s *sseWriter) KeepAlive(idle time.Duration) error {
	if !s.idleFor(idle) {
		return nil
	}
	return s.enqueue(func(b []byte) []byte { return append(b, ": keep-alive\n\n"...) })
}
