package a2art

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"
)

// sseWriter writes Server-Sent Events: one data line per message. A line
// break in the JSON (raw Struct values keep a client's formatting) is white
// space, since JSON strings escape theirs, and is written as a space:
// readers such as a2a-go's take every data line as a message of its own.
//
// A stream's writer (run) writes from a goroutine of its own: an event is
// queued, and the goroutine writes whatever has queued in one write and
// flushes, so a producer faster than the connection costs one write a
// batch, not one an event, while an event that comes alone goes out at
// once. What may queue is bounded (maxQueued): past it, the producer waits.
// The goroutine also keeps an idle stream alive. A writer that is not run
// writes each event at once, from its caller.
type sseWriter struct {
	w  http.ResponseWriter
	rc *http.ResponseController
	// writeTimeout bounds each write and flush (0: no bound); onFail
	// learns the first error of one, when the stream is cut.
	writeTimeout time.Duration
	onFail       func(error)

	mu      sync.Mutex
	started bool // the header is written
	queued  []byte
	opening bool // the header is to be sent even with no event
	err     error
	last    time.Time

	// Set by run: the writer goroutine's signals.
	running bool
	room    *sync.Cond    // a producer waiting for the queue to drain
	wake    chan struct{} // something is queued
	stop    chan struct{}
	stopped chan struct{}
}

// maxQueued bounds what a stream holds for a client that reads slower than
// it is written to: past it, the producer waits for the writer.
const maxQueued = 64 << 10

// buffers holds the queues of streams that ended, for the next ones: a
// stream's queue grows to a batch's size, which would otherwise be paid
// again by every stream.
var buffers = sync.Pool{New: func() any { return new([]byte) }}

func newSSEWriter(w http.ResponseWriter) *sseWriter {
	return &sseWriter{w: w, rc: http.NewResponseController(w)}
}

// start sends the response header. A stream that never starts can still
// be answered with a plain error response.
func (s *sseWriter) start() {
	if s.started {
		return
	}
	s.started = true
	h := s.w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Accel-Buffering", "no")
	s.w.WriteHeader(http.StatusOK)
}

// open has the writer, running, send the response header if no event has,
// and flush it.
func (s *sseWriter) open() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.opening = true
	s.signal()
}

// event writes one event whose data is the JSON text data.
func (s *sseWriter) event(data []byte) error { return s.namedEvent("", "", data) }

// namedEvent writes one event of the given type ("" for the default,
// message) and id ("" for none): queues it, when the writer runs, or else
// writes it at once.
func (s *sseWriter) namedEvent(name, id string, data []byte) error {
	if strings.ContainsAny(name+id, "\r\n") {
		return errors.New("a2a: an SSE event name or id holds a line break")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err != nil {
		return s.err
	}
	if !s.running {
		s.start()
		return s.write(appendEvent(nil, name, id, data))
	}
	s.queued = appendEvent(s.queued, name, id, data)
	s.signal()
	for len(s.queued) > maxQueued && s.err == nil {
		s.room.Wait()
	}
	return s.err
}

// appendEvent appends one event to b.
func appendEvent(b []byte, name, id string, data []byte) []byte {
	if name != "" {
		b = append(append(append(b, "event: "...), name...), '\n')
	}
	if id != "" {
		b = append(append(append(b, "id: "...), id...), '\n')
	}
	b = append(b, "data: "...)
	start := len(b)
	b = append(b, data...)
	if bytes.IndexByte(data, '\n') >= 0 || bytes.IndexByte(data, '\r') >= 0 {
		for i := start; i < len(b); i++ {
			if b[i] == '\n' || b[i] == '\r' {
				b[i] = ' '
			}
		}
	}
	return append(b, '\n', '\n')
}

// signal wakes the writer goroutine; s.mu is held.
func (s *sseWriter) signal() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// run starts the writer goroutine, which writes what queues and, every
// keepAlive (0: never), a comment on a stream idle that long, until close.
func (s *sseWriter) run(keepAlive time.Duration) {
	s.running = true
	s.room = sync.NewCond(&s.mu)
	s.wake, s.stop, s.stopped = make(chan struct{}, 1), make(chan struct{}), make(chan struct{})
	queue, next := buffers.Get().(*[]byte), buffers.Get().(*[]byte)
	s.queued = (*queue)[:0]
	go func() {
		defer close(s.stopped)
		var tick <-chan time.Time
		if keepAlive > 0 {
			t := time.NewTicker(keepAlive)
			defer t.Stop()
			tick = t.C
		}
		batch := (*next)[:0]
		defer func() {
			s.mu.Lock()
			*queue, *next = s.queued[:0], batch[:0]
			s.queued = nil
			s.mu.Unlock()
			buffers.Put(queue)
			buffers.Put(next)
		}()
		for {
			stopping := false
			select {
			case <-s.wake:
			case <-s.stop:
				stopping = true // what is queued still goes out
			case now := <-tick:
				s.mu.Lock()
				if s.started && s.err == nil && len(s.queued) == 0 && now.Sub(s.last) >= keepAlive {
					s.queued = append(s.queued, ": keep-alive\n\n"...)
				}
				s.mu.Unlock()
			}
			s.mu.Lock()
			if s.err == nil && (len(s.queued) > 0 || s.opening) {
				batch, s.queued = s.queued, batch[:0]
				s.opening = false
				s.start()
				s.mu.Unlock()
				err := s.write(batch) // unlocked: producers queue the next batch meanwhile
				s.mu.Lock()
				if err != nil {
					s.fail(err)
				}
				s.room.Broadcast()
			}
			s.mu.Unlock()
			if stopping {
				return
			}
		}
	}()
}

// write writes b and flushes it, within the write timeout: a client that
// reads nothing for that long gets the write failed, and its connection
// with it, instead of holding the call forever. The deadline is cleared
// afterwards, so that an idle stream, and what the server writes once the
// handler returns, are not cut. The caller records a failure (fail).
func (s *sseWriter) write(b []byte) error {
	// A writer that cannot take a deadline (a middleware that hides it) is
	// written without one.
	timed := s.writeTimeout > 0 && s.rc.SetWriteDeadline(time.Now().Add(s.writeTimeout)) == nil
	if len(b) > 0 {
		if _, err := s.w.Write(b); err != nil {
			return s.failed(err)
		}
	}
	// A writer that cannot flush still delivers, when the handler returns:
	// that is no reason to fail.
	if err := s.rc.Flush(); err != nil && !errors.Is(err, http.ErrNotSupported) {
		return s.failed(err)
	}
	if timed {
		if err := s.rc.SetWriteDeadline(time.Time{}); err != nil {
			return s.failed(err)
		}
	}
	s.last = time.Now()
	return nil
}

// failed records err when the writer is not run, whose caller holds s.mu;
// the writer goroutine records its own.
func (s *sseWriter) failed(err error) error {
	if !s.running {
		s.fail(err)
	}
	return err
}

// fail records the first failed write, which cuts the stream; s.mu is
// held.
func (s *sseWriter) fail(err error) {
	if s.err == nil {
		s.err = err
		if s.onFail != nil {
			s.onFail(err)
		}
	}
}

// openStream prepares the SSE answer to a streaming call made with ctx.
// It returns the context to serve the call with, which a failed write
// (a client that stops reading, after the write timeout) cancels, so the
// call's handler stops; the writer, running; and end, which writes what
// is queued, stops the writer and must run before the handler returns.
func (c *serverConfig) openStream(ctx context.Context, w http.ResponseWriter) (context.Context, *sseWriter, func()) {
	ctx, cancel := context.WithCancelCause(ctx)
	sse := newSSEWriter(w)
	sse.writeTimeout = c.writeTimeout
	sse.onFail = func(err error) { cancel(fmt.Errorf("a2a: the stream to the client failed: %w", err)) }
	sse.run(c.keepAlive)
	return ctx, sse, func() {
		sse.close()
		cancel(nil)
	}
}

// eventIDs lets the handler of a stream name its events: it sets the
// call's EventID, and the returned function takes the id named for the
// event being written, if any.
func eventIDs(ctx context.Context) func() string {
	var pending string
	if info := CallInfoFrom(ctx); info != nil {
		info.EventID = func(id string) { pending = id }
	}
	return func() string {
		id := pending
		pending = ""
		return id
	}
}

// close writes what is queued, stops the writer goroutine and waits for
// it, so nothing is written after the handler returns.
func (s *sseWriter) close() {
	if s.stop != nil {
		close(s.stop)
		<-s.stopped
		s.stop = nil
		s.mu.Lock()
		s.running = false
		s.mu.Unlock()
	}
}
