package aguirt

import (
	"context"
	"io"
	"time"

	agui "github.com/agui-gen/agui-gen/gen/agui"
	"github.com/agui-gen/agui-gen/runtime/aguihttp"
	"github.com/agui-gen/agui-gen/runtime/sse"
)

// eventSink takes the events of a stream.
type eventSink interface {
	// WriteEvent queues one event; it reaches the wire, flushed, as soon as
	// the writer catches up. While too much is queued it waits, until ctx
	// is done at the latest. An error from an earlier write is returned.
	WriteEvent(ctx context.Context, ev agui.Event) error
}

// eventWriter frames events onto a response, through the frame queue of
// runtime/sse. WriteEvent is safe for concurrent use; the rest belongs to
// the goroutine that writes the response (the handler's), which waits on
// Queued and calls Flush: a stream holds no goroutine of its own for
// writing.
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

// newQueue returns the frame queue of a response: cfg's write timeout and
// failure, with the handler's bound.
func newQueue(w io.Writer, cfg sse.QueueConfig) *sse.Queue {
	cfg.MaxQueued = maxQueued
	return sse.NewQueue(w, cfg)
}

// sseWriter writes Server-Sent Events: one "data: <json>" line and a blank
// line per event, LF only, no other fields.
type sseWriter struct{ *sse.Queue }

func newSSEWriter(w io.Writer, cfg sse.QueueConfig) *sseWriter {
	cfg.KeepAlive = sse.KeepAliveComment
	return &sseWriter{newQueue(w, cfg)}
}

func (s *sseWriter) ContentType() string { return aguihttp.MediaTypeSSE }

func (s *sseWriter) WriteEvent(ctx context.Context, ev agui.Event) error {
	return s.Append(ctx, func(b []byte) []byte { return sse.AppendEventFunc(b, "", "", ev.AppendJSON) })
}
