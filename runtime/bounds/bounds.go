// Package bounds holds what the AG-UI and A2A servers put on what one
// client can hold: an http.Server whose header, read and idle limits are
// set, the defaults of the handlers' write timeout and stream cap, and the
// count of streams in progress against that cap. agui.NewServer and
// a2a.NewServer are its NewServer, and their Default… constants its.
package bounds

import (
	"net/http"
	"sync/atomic"
	"time"
)

// The bounds the handlers and NewServer put on what one client can hold,
// unless an option or a field says otherwise.
const (
	// DefaultWriteTimeout bounds each write of a stream: a client that
	// reads nothing for that long is cut off, and the context of its run
	// or call cancelled.
	DefaultWriteTimeout = 30 * time.Second
	// DefaultMaxStreams bounds the streams a handler serves at once.
	DefaultMaxStreams = 1000
	// DefaultMaxHeaderBytes bounds a request's header (Go's default is
	// 1 MiB, which 300 connections that never end their headers turn into
	// 300 MiB).
	DefaultMaxHeaderBytes = 32 << 10
	// DefaultReadHeaderTimeout, DefaultReadTimeout and DefaultIdleTimeout
	// bound reading a request's header, reading all of it (a body is at
	// most the handler's limit), and a keep-alive connection's wait for
	// its next request.
	DefaultReadHeaderTimeout = 10 * time.Second
	DefaultReadTimeout       = 30 * time.Second
	DefaultIdleTimeout       = time.Minute
)

// RetryAfter is what a request over the stream cap is told to wait, in
// seconds (the Retry-After header): long enough for some streams to end.
const RetryAfter = "5"

// NewServer returns an http.Server for handler bounded against clients
// that hold what they are given: headers of DefaultMaxHeaderBytes at most,
// read within DefaultReadHeaderTimeout, whole requests within
// DefaultReadTimeout, idle connections closed after DefaultIdleTimeout.
// It sets no WriteTimeout, which would cut every stream (and every
// blocking call) that outlives it; the handlers bound each write of a
// stream instead. Change a field of the result to change its bound.
func NewServer(handler http.Handler) *http.Server {
	return &http.Server{
		Handler:           handler,
		MaxHeaderBytes:    DefaultMaxHeaderBytes,
		ReadHeaderTimeout: DefaultReadHeaderTimeout,
		ReadTimeout:       DefaultReadTimeout,
		IdleTimeout:       DefaultIdleTimeout,
	}
}

// Streams counts the streams in progress against a cap, which the
// handlers given one Streams share.
type Streams struct {
	max int
	n   atomic.Int64
}

// NewStreams returns a count capped at max; 0 or less caps nothing.
func NewStreams(max int) *Streams { return &Streams{max: max} }

// Acquire takes a slot for a stream, unless the cap is reached; Release
// gives it back. A nil Streams admits every stream.
func (s *Streams) Acquire() bool {
	if s == nil {
		return true
	}
	if s.n.Add(1) > int64(s.max) && s.max > 0 {
		s.n.Add(-1)
		return false
	}
	return true
}

// Release gives back a slot Acquire took.
func (s *Streams) Release() {
	if s != nil {
		s.n.Add(-1)
	}
}
