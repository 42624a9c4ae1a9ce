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

// sseWriter writes Server-Sent Events: one data line per message, each
// event flushed at once. A line break in the JSON (raw Struct values keep a
// client's formatting) is white space, since JSON strings escape theirs, and
// is written as a space: readers such as a2a-go's take every data line as a
// message of its own.
type sseWriter struct {
	w  http.ResponseWriter
	rc *http.ResponseController
	// writeTimeout bounds each write and flush (0: no bound); onFail
	// learns the first error of one, when the stream is cut.
	writeTimeout time.Duration
	onFail       func(error)

	mu      sync.Mutex
	started bool
	buf     []byte
	last    time.Time
	err     error
	stop    chan struct{}
	stopped chan struct{}
}

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

// open sends the response header if no event has, and flushes it.
func (s *sseWriter) open() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.started {
		s.start()
		s.buf = s.buf[:0]
		_ = s.flush()
	}
}

// event writes one event whose data is the JSON text data.
func (s *sseWriter) event(data []byte) error { return s.namedEvent("", "", data) }

// namedEvent writes one event of the given type ("" for the default,
// message) and id ("" for none).
func (s *sseWriter) namedEvent(name, id string, data []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err != nil {
		return s.err
	}
	s.start()
	if strings.ContainsAny(name+id, "\r\n") {
		return errors.New("a2a: an SSE event name or id holds a line break")
	}
	s.buf = s.buf[:0]
	if name != "" {
		s.buf = append(append(append(s.buf, "event: "...), name...), '\n')
	}
	if id != "" {
		s.buf = append(append(append(s.buf, "id: "...), id...), '\n')
	}
	s.buf = append(s.buf, "data: "...)
	start := len(s.buf)
	s.buf = append(s.buf, data...)
	if bytes.IndexByte(data, '\n') >= 0 || bytes.IndexByte(data, '\r') >= 0 {
		for i := start; i < len(s.buf); i++ {
			if s.buf[i] == '\n' || s.buf[i] == '\r' {
				s.buf[i] = ' '
			}
		}
	}
	s.buf = append(s.buf, '\n', '\n')
	return s.flush()
}

// flush writes s.buf and flushes it, within the write timeout: a client
// that reads nothing for that long gets the write failed, and its
// connection with it, instead of holding the call forever. The deadline
// is cleared afterwards, so that an idle stream, and what the server
// writes once the handler returns, are not cut.
func (s *sseWriter) flush() error {
	// A writer that cannot take a deadline (a middleware that hides it) is
	// written without one.
	timed := s.writeTimeout > 0 && s.rc.SetWriteDeadline(time.Now().Add(s.writeTimeout)) == nil
	if len(s.buf) > 0 {
		if _, err := s.w.Write(s.buf); err != nil {
			return s.fail(err)
		}
	}
	// A writer that cannot flush still delivers, when the handler returns:
	// that is no reason to fail.
	if err := s.rc.Flush(); err != nil && !errors.Is(err, http.ErrNotSupported) {
		return s.fail(err)
	}
	if timed {
		if err := s.rc.SetWriteDeadline(time.Time{}); err != nil {
			return s.fail(err)
		}
	}
	s.last = time.Now()
	return nil
}

// fail records the first failed write, which cuts the stream.
func (s *sseWriter) fail(err error) error {
	if s.err == nil {
		s.err = err
		if s.onFail != nil {
			s.onFail(err)
		}
	}
	return err
}

// openStream prepares the SSE answer to a streaming call made with ctx.
// It returns the context to serve the call with, which a failed write
// (a client that stops reading, after the write timeout) cancels, so the
// call's handler stops; the writer, its keep-alive started; and end,
// which stops the keep-alive and must run before the handler returns.
func (c *serverConfig) openStream(ctx context.Context, w http.ResponseWriter) (context.Context, *sseWriter, func()) {
	ctx, cancel := context.WithCancelCause(ctx)
	sse := newSSEWriter(w)
	sse.writeTimeout = c.writeTimeout
	sse.onFail = func(err error) { cancel(fmt.Errorf("a2a: the stream to the client failed: %w", err)) }
	sse.keepAlive(c.keepAlive)
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

// keepAlive writes a comment whenever the stream has been idle for
// interval, until close is called.
func (s *sseWriter) keepAlive(interval time.Duration) {
	if interval <= 0 {
		return
	}
	s.stop, s.stopped = make(chan struct{}), make(chan struct{})
	go func() {
		defer close(s.stopped)
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			select {
			case <-s.stop:
				return
			case now := <-t.C:
				s.mu.Lock()
				if s.started && s.err == nil && now.Sub(s.last) >= interval {
					s.buf = append(s.buf[:0], ": keep-alive\n\n"...)
					_ = s.flush()
				}
				s.mu.Unlock()
			}
		}
	}()
}

// close stops the keep-alive goroutine and waits for it, so nothing is
// written after the handler returns.
func (s *sseWriter) close() {
	if s.stop != nil {
		close(s.stop)
		<-s.stopped
		s.stop = nil
	}
}
