package aguirt

import (
	"net/http"
	"time"

	"github.com/agui-gen/agui-gen/runtime/bounds"
)

// The bounds NewHandler and NewServer put on what one client can hold,
// unless an option or a field says otherwise: runtime/bounds', shared with
// the A2A handlers.
const (
	// DefaultWriteTimeout bounds each write of a stream: a client that
	// reads nothing for that long is cut off, and its run's context
	// cancelled.
	DefaultWriteTimeout = bounds.DefaultWriteTimeout
	// DefaultMaxStreams bounds the runs a handler streams at once.
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
// It sets no WriteTimeout, which would cut every stream that outlives it;
// NewHandler bounds each write of a stream instead (WithWriteTimeout).
// Change a field of the result to change its bound.
func NewServer(handler http.Handler) *http.Server { return bounds.NewServer(handler) }

// WithWriteTimeout bounds each write (and flush) of a stream to d
// (default DefaultWriteTimeout): a client that stops reading, whose
// stream waits on a full send queue, is cut off once one write has waited
// d, and the run's context is cancelled, so its agent stops. A write is
// whatever has queued meanwhile, up to about 256 KiB (or one larger
// event), so a client must read at least that much in d. 0 or less
// removes the bound. A ResponseWriter that cannot take a write
// deadline (see http.ResponseController) is written without one.
func WithWriteTimeout(d time.Duration) Option {
	return func(c *handlerConfig) { c.writeTimeout = d }
}

// WithMaxStreams bounds the runs the handler streams at once to n
// (default DefaultMaxStreams); one more is answered 503, with Retry-After,
// once its caller is authenticated and before its body is read. 0 or less
// removes the bound.
func WithMaxStreams(n int) Option { return func(c *handlerConfig) { c.maxStreams = n } }

// rejectBusy answers a run over the stream cap.
func (h *handler) rejectBusy(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Retry-After", bounds.RetryAfter)
	h.reject(w, r, http.StatusServiceUnavailable, "the server is streaming as many runs as it can; retry later", nil)
}
