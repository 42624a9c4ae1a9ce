package aguirt

import (
	"context"
	"errors"
	"io"
	"net/http"
	"sync"
	"time"

	agui "github.com/agui-gen/agui-gen/gen/agui"
)

// eventSink takes the events of a stream.
type eventSink interface {
	// WriteEvent queues one event; it reaches the wire, flushed, as soon as
	// the writer catches up. While too much is queued it waits, until ctx
	// is done at the latest. An error from an earlier write is returned.
	WriteEvent(ctx context.Context, ev agui.Event) error
}

// eventWriter frames events onto a response. WriteEvent is safe for
// concurrent use; the rest belongs to the goroutine that writes the
// response (the handler's).
type eventWriter interface {
	eventSink
	// ContentType is the exact response Content-Type of the transport.
	ContentType() string
	// KeepAlive queues something a consumer ignores, to hold an idle
	// connection open through proxies, unless an event went out within idle.
	KeepAlive(idle time.Duration)
	// Queued signals when something is queued for Flush.
	Queued() <-chan struct{}
	// Flush writes what is queued and flushes it; it returns the error of
	// this write or an earlier one, after which nothing more is written.
	Flush() error
	// Drain turns the queue unbounded, for the writer's own last events:
	// the writer goroutine must never wait for room it alone makes. Callers
	// waiting for room go on at once.
	Drain()
	// Close writes what is queued and stops; the response must not be
	// written after it returns.
	Close() error
}

// maxQueued bounds the bytes waiting for a slow client; a writer beyond it
// waits, so a fast agent cannot buffer without limit.
const maxQueued = 256 << 10

// sinkConfig is how a frameSink treats a client that stops reading.
type sinkConfig struct {
	// writeTimeout bounds each write and flush (0: no bound).
	writeTimeout time.Duration
	// onFail learns the first error of a write, once: the stream is cut.
	onFail func(error)
}

// frameSink queues framed events for the goroutine that writes the
// response, which writes everything queued and then flushes once: a burst
// of events costs one write and one flush instead of one per event, and
// an event is never held back waiting for more. That goroutine is the
// handler's own, so that a stream holds no goroutine of its own for
// writing.
type frameSink struct {
	mu       sync.Mutex
	room     *sync.Cond // signalled when the writer has caught up, failed or closed
	queued   []byte     // frames waiting to be written
	spare    []byte     // the buffer being written, reused
	closed   bool
	draining bool // the queue is unbounded (Drain)
	err      error
	last     time.Time     // when the sink last caught up with an event
	wake     chan struct{} // holds a token while something waits in queued
	w        io.Writer
	rc       *http.ResponseController // nil when w is not a response
	cfg      sinkConfig
}

func newFrameSink(w io.Writer, cfg sinkConfig) *frameSink {
	s := &frameSink{w: w, cfg: cfg, wake: make(chan struct{}, 1), last: time.Now()}
	s.room = sync.NewCond(&s.mu)
	if rw, ok := w.(http.ResponseWriter); ok {
		s.rc = http.NewResponseController(rw)
	}
	return s
}

// enqueue appends a frame built by frame, waiting while too much is
// queued, until the writer catches up, fails or is closed, or ctx is done.
// A frame whose wait ctx ends is queued all the same, one past the bound,
// and the cause returned: the event is past the sequence verifier, so what
// the run's end closes must follow what went out, and the caller's later
// calls stop before queuing anything.
func (s *frameSink) enqueue(ctx context.Context, frame func(b []byte) []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.full() {
		// A cancel or a client gone must not leave the caller waiting on a
		// reader that has stopped: ctx wakes it too.
		stop := context.AfterFunc(ctx, func() {
			s.mu.Lock()
			s.room.Broadcast()
			s.mu.Unlock()
		})
		defer stop()
		for s.full() && ctx.Err() == nil {
			s.room.Wait()
		}
	}
	if s.err != nil {
		return s.err
	}
	if s.closed {
		return io.ErrClosedPipe
	}
	halted := s.full()
	s.queued = frame(s.queued)
	s.signal()
	if halted {
		return context.Cause(ctx)
	}
	return nil
}

// signal tells the writer something is queued. The caller holds s.mu.
func (s *frameSink) signal() {
	select {
	case s.wake <- struct{}{}:
	default: // a token is there already
	}
}

// full reports whether a frame must wait for the writer. The caller holds
// s.mu.
func (s *frameSink) full() bool {
	return len(s.queued) > maxQueued && s.err == nil && !s.closed && !s.draining
}

// Drain implements eventWriter.
func (s *frameSink) Drain() {
	s.mu.Lock()
	s.draining = true
	s.room.Broadcast()
	s.mu.Unlock()
}

// Queued implements eventWriter.
func (s *frameSink) Queued() <-chan struct{} { return s.wake }

// Flush implements eventWriter.
func (s *frameSink) Flush() error {
	s.mu.Lock()
	if s.err != nil || len(s.queued) == 0 {
		err := s.err
		s.mu.Unlock()
		return err
	}
	batch := s.queued
	s.queued, s.spare = s.spare[:0], nil
	s.mu.Unlock()

	err := s.write(batch)

	s.mu.Lock()
	s.spare = batch[:0]
	s.last = time.Now()
	first := err != nil && s.err == nil
	if first {
		s.err = err
	}
	err = s.err
	s.room.Broadcast()
	s.mu.Unlock()
	if first && s.cfg.onFail != nil {
		s.cfg.onFail(err)
	}
	return err
}

// write writes and flushes one batch within the write timeout. A client
// that reads nothing for that long gets the write failed, and its
// connection with it, instead of holding the run forever. The deadline is
// cleared afterwards, so that an idle stream, and what the server writes
// once the handler returns, are not cut.
func (s *frameSink) write(batch []byte) error {
	if s.rc == nil {
		_, err := s.w.Write(batch)
		return err
	}
	// A writer that cannot take a deadline (a middleware that hides it) is
	// written without one.
	timed := s.cfg.writeTimeout > 0 && s.rc.SetWriteDeadline(time.Now().Add(s.cfg.writeTimeout)) == nil
	_, err := s.w.Write(batch)
	if err == nil {
		if ferr := s.rc.Flush(); ferr != nil && !errors.Is(ferr, http.ErrNotSupported) {
			err = ferr
		}
	}
	if timed && err == nil {
		err = s.rc.SetWriteDeadline(time.Time{})
	}
	return err
}

// queueIfIdle queues frame, without waiting for room, when nothing has
// been queued or written within d.
func (s *frameSink) queueIfIdle(d time.Duration, frame []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.queued) == 0 && s.err == nil && !s.closed && time.Since(s.last) >= d {
		s.queued = append(s.queued, frame...)
		s.signal()
	}
}

// Close implements eventWriter.
func (s *frameSink) Close() error {
	err := s.Flush()
	s.mu.Lock()
	s.closed = true
	s.room.Broadcast()
	s.mu.Unlock()
	return err
}

// sseWriter writes Server-Sent Events: one "data: <json>" line and a blank
// line per event, LF only, no other fields.
type sseWriter struct{ *frameSink }

func newSSEWriter(w io.Writer, cfg sinkConfig) *sseWriter { return &sseWriter{newFrameSink(w, cfg)} }

func (s *sseWriter) ContentType() string { return MediaTypeSSE }

func (s *sseWriter) WriteEvent(ctx context.Context, ev agui.Event) error {
	return s.enqueue(ctx, func(b []byte) []byte {
		b = append(b, "data: "...)
		b = ev.AppendJSON(b)
		return append(b, '\n', '\n')
	})
}

func (s *sseWriter) KeepAlive(idle time.Duration) { s.queueIfIdle(idle, keepAliveComment) }

var keepAliveComment = []byte(": keep-alive\n\n")
