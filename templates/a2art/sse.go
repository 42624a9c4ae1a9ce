package a2art

import (
	"bytes"
	"context"
	"errors"
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
		_ = s.rc.Flush()
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

func (s *sseWriter) flush() error {
	if _, err := s.w.Write(s.buf); err != nil {
		s.err = err
		return err
	}
	// A writer that cannot flush (a middleware that hides it) still
	// delivers, when the handler returns: that is no reason to fail.
	if err := s.rc.Flush(); err != nil && !errors.Is(err, http.ErrNotSupported) {
		s.err = err
		return err
	}
	s.last = time.Now()
	return nil
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
