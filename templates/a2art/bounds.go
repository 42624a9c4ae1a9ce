package a2art

import (
	"net/http"
	"strconv"
	"sync/atomic"
	"time"

	a2a "github.com/agui-gen/agui-gen/gen/a2a"
)

// The bounds the handlers and NewServer put on what one client can hold,
// unless an option or a field says otherwise.
const (
	// DefaultWriteTimeout bounds each write of a stream: a client that
	// reads nothing for that long is cut off, and its call's context
	// cancelled.
	DefaultWriteTimeout = 30 * time.Second
	// DefaultMaxStreams bounds the streaming calls served at once.
	DefaultMaxStreams = 1000
	// DefaultMaxHeaderBytes bounds a request's header (Go's default is
	// 1 MiB, which 300 connections that never end their headers turn into
	// 300 MiB).
	DefaultMaxHeaderBytes = 32 << 10
	// DefaultReadHeaderTimeout, DefaultReadTimeout and DefaultIdleTimeout
	// bound reading a request's header, reading all of it (a body is at
	// most DefaultMaxBodyBytes), and a keep-alive connection's wait for
	// its next request.
	DefaultReadHeaderTimeout = 10 * time.Second
	DefaultReadTimeout       = 30 * time.Second
	DefaultIdleTimeout       = time.Minute
)

// NewServer returns an http.Server for handler bounded against clients
// that hold what they are given: headers of DefaultMaxHeaderBytes at most,
// read within DefaultReadHeaderTimeout, whole requests within
// DefaultReadTimeout, idle connections closed after DefaultIdleTimeout.
// It sets no WriteTimeout, which would cut every stream (and every
// blocking SendMessage) that outlives it; the handlers bound each write of
// a stream instead (WithWriteTimeout). Change a field of the result to
// change its bound.
func NewServer(handler http.Handler) *http.Server {
	return &http.Server{
		Handler:           handler,
		MaxHeaderBytes:    DefaultMaxHeaderBytes,
		ReadHeaderTimeout: DefaultReadHeaderTimeout,
		ReadTimeout:       DefaultReadTimeout,
		IdleTimeout:       DefaultIdleTimeout,
	}
}

// WithWriteTimeout bounds each write (and flush) of an SSE stream to d
// (default DefaultWriteTimeout): a client that stops reading is cut off
// once a write has waited d for it, and the context of its call is
// cancelled, so its handler stops. 0 or less removes the bound. A
// ResponseWriter that cannot take a write deadline (see
// http.ResponseController) is written without one.
func WithWriteTimeout(d time.Duration) ServerOption {
	return func(c *serverConfig) { c.writeTimeout = d }
}

// WithMaxStreams bounds the streaming calls served at once to n (default
// DefaultMaxStreams); one more is answered 503, with Retry-After, once its
// caller is authenticated (over HTTP+JSON, before its body is read). The
// handlers built with one WithMaxStreams share its bound, as the two of
// NewHandler share the default's. 0 or less removes the bound.
func WithMaxStreams(n int) ServerOption {
	slots := &streamSlots{max: n}
	return func(c *serverConfig) { c.streams = slots }
}

// retryAfter is what a call over the stream cap is told to wait, in
// seconds: long enough for some streams to end.
const retryAfter = 5

// streamSlots counts the streams in progress against a cap.
type streamSlots struct {
	max int
	n   atomic.Int64
}

// admitStream takes a slot for a streaming call and returns the function
// that gives it back; over the cap it answers 503 with Retry-After and
// the error refuse writes in the binding's shape, and ok is false.
func (c *serverConfig) admitStream(w http.ResponseWriter, refuse func(*a2a.RPCError)) (release func(), ok bool) {
	s := c.streams
	if s == nil {
		return func() {}, true
	}
	if s.n.Add(1) > int64(s.max) && s.max > 0 {
		s.n.Add(-1)
		w.Header().Set("Retry-After", strconv.Itoa(retryAfter))
		refuse(a2a.NewError(a2a.ErrInternal, "the server is serving as many streams as it can; retry later"))
		return nil, false
	}
	return func() { s.n.Add(-1) }, true
}
