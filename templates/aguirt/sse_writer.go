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

// eventWriter frames events onto a response. It is safe for concurrent use
// (the keep-alive ticker writes too).
type eventWriter interface {
	// ContentType is the exact response Content-Type of the transport.
	ContentType() string
	// WriteEvent queues one event; it reaches the wire, flushed, as soon as
	// the writer catches up. While too much is queued it waits, until ctx
	// is done at the latest. An error from an earlier write is returned.
	WriteEvent(ctx context.Context, ev agui.Event) error
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

// sinkConfig is how a frameSink treats a client that stops reading.
type sinkConfig struct {
	// writeTimeout bounds each write and flush (0: no bound).
	writeTimeout time.Duration
	// onFail learns the first error of a write, once: the stream is cut.
	onFail func(error)
}

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
	rc     *http.ResponseController // nil when w is not a response
	cfg    sinkConfig
	done   chan struct{}
}

func newFrameSink(w io.Writer, cfg sinkConfig) *frameSink {
	s := &frameSink{w: w, cfg: cfg, done: make(chan struct{})}
	s.cond = sync.NewCond(&s.mu)
	if rw, ok := w.(http.ResponseWriter); ok {
		s.rc = http.NewResponseController(rw)
	}
	go s.run()
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
			s.cond.Broadcast()
			s.mu.Unlock()
		})
		defer stop()
		for s.full() && ctx.Err() == nil {
			s.cond.Wait()
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
	s.cond.Broadcast()
	if halted {
		return context.Cause(ctx)
	}
	return nil
}

// full reports whether a frame must wait for the writer. The caller holds
// s.mu.
func (s *frameSink) full() bool { return len(s.queued) > maxQueued && s.err == nil && !s.closed }

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

		err := s.write(batch)

		s.mu.Lock()
		s.spare = batch[:0]
		s.last = time.Now()
		first := err != nil && s.err == nil
		if first {
			s.err = err
		}
		failed := s.err != nil
		s.cond.Broadcast()
		s.mu.Unlock()
		if first && s.cfg.onFail != nil {
			s.cfg.onFail(err)
		}
		if failed {
			return
		}
	}
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

func newSSEWriter(w io.Writer, cfg sinkConfig) *sseWriter { return &sseWriter{newFrameSink(w, cfg)} }

func (s *sseWriter) ContentType() string { return MediaTypeSSE }

func (s *sseWriter) WriteEvent(ctx context.Context, ev agui.Event) error {
	return s.enqueue(ctx, func(b []byte) []byte {
		b = append(b, "data: "...)
		b = ev.AppendJSON(b)
		return append(b, '\n', '\n')
	})
}

func (s *sseWriter) KeepAlive(idle time.Duration) error {
	if !s.idleFor(idle) {
		return nil
	}
	// Due only when nothing is queued, it waits for the writer at most
	// rarely, and the write timeout bounds that.
	return s.enqueue(context.Background(), func(b []byte) []byte { return append(b, ": keep-alive\n\n"...) })
}
