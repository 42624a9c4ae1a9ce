package a2ahttp

import (
	"net/http"
	"time"

	"github.com/agui-gen/agui-gen/runtime/a2arpc"
	"github.com/agui-gen/agui-gen/runtime/bounds"
)

// The bounds the handlers and NewServer put on what one client can hold,
// unless an option or a field says otherwise: runtime/bounds', shared with
// the AG-UI handler.
const (
	// DefaultWriteTimeout bounds each write of a stream: a client that
	// reads nothing for that long is cut off, and its call's context
	// cancelled.
	DefaultWriteTimeout = bounds.DefaultWriteTimeout
	// DefaultMaxStreams bounds the streaming calls served at once.
	DefaultMaxStreams = bounds.DefaultMaxStreams
	// DefaultMaxHeaderBytes bounds a request's header.
	DefaultMaxHeaderBytes = bounds.DefaultMaxHeaderBytes
	// DefaultReadHeaderTimeout, DefaultReadTimeout and DefaultIdleTimeout
	// bound reading a request's header, reading all of it (a body is at
	// most DefaultMaxBodyBytes), and a keep-alive connection's wait for
	// its next request.
	DefaultReadHeaderTimeout = bounds.DefaultReadHeaderTimeout
	DefaultReadTimeout       = bounds.DefaultReadTimeout
	DefaultIdleTimeout       = bounds.DefaultIdleTimeout
)

// NewServer returns an http.Server for handler bounded against clients
// that hold what they are given: headers of DefaultMaxHeaderBytes at most,
// read within DefaultReadHeaderTimeout, whole requests within
// DefaultReadTimeout, idle connections closed after DefaultIdleTimeout.
// It sets no WriteTimeout, which would cut every stream (and every
// blocking SendMessage) that outlives it; the handlers bound each write of
// a stream instead (WithWriteTimeout). Change a field of the result to
// change its bound.
func NewServer(handler http.Handler) *http.Server { return bounds.NewServer(handler) }

// WithWriteTimeout bounds each write (and flush) of an SSE stream to d
// (default DefaultWriteTimeout): a client that stops reading is cut off
// once a write has waited d for it, and the context of its call is
// cancelled, so its handler stops. 0 or less removes the bound. A
// ResponseWriter that cannot take a write deadline (see
// http.ResponseController) is written without one.
func WithWriteTimeout[C Card, I comparable](d time.Duration) ServerOption[C, I] {
	return func(c *serverConfig[C, I]) { c.writeTimeout = d }
}

// WithMaxStreams bounds the streaming calls served at once to n (default
// DefaultMaxStreams); one more is answered 503, with Retry-After, once its
// caller is authenticated (over HTTP+JSON, before its body is read). The
// handlers built with one WithMaxStreams share its bound, as the two of
// NewHandler share the default's. 0 or less removes the bound.
func WithMaxStreams[C Card, I comparable](n int) ServerOption[C, I] {
	slots := bounds.NewStreams(n)
	return func(c *serverConfig[C, I]) { c.streams = slots }
}

// admitStream takes a slot for a streaming call and returns the function
// that gives it back; over the cap it answers 503 with Retry-After and
// the error refuse writes in the binding's shape, and ok is false.
func (c *serverConfig[C, I]) admitStream(w http.ResponseWriter, refuse func(*a2arpc.RPCError)) (release func(), ok bool) {
	if !c.streams.Acquire() {
		w.Header().Set("Retry-After", bounds.RetryAfter)
		refuse(a2arpc.NewError(a2arpc.ErrInternal, "the server is serving as many streams as it can; retry later"))
		return nil, false
	}
	return c.streams.Release, true
}
