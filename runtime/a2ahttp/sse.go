package a2ahttp

import (
	"context"
	"fmt"
	"net/http"

	"github.com/agui-gen/agui-gen/runtime/a2acall"
	"github.com/agui-gen/agui-gen/runtime/sse"
)

// maxQueued bounds what a stream holds for a client that reads slower than
// it is written to: past it, the producer waits for the writer.
const maxQueued = 64 << 10

// newEventStream returns the frame queue of an SSE answer on w. Its header
// is written with its first event (or by Open), so a stream that never
// starts can still be answered with a plain error response.
func newEventStream(w http.ResponseWriter, cfg sse.QueueConfig) *sse.Queue {
	cfg.MaxQueued = maxQueued
	cfg.KeepAlive = sse.KeepAliveComment
	cfg.Header = func() {
		sse.SetHeader(w.Header(), sse.ContentType)
		w.WriteHeader(http.StatusOK)
	}
	return sse.NewQueue(w, cfg)
}

// openStream prepares the SSE answer to a streaming call made with ctx.
// It returns the context to serve the call with, which a failed write
// (a client that stops reading, after the write timeout) cancels, so the
// call's handler stops; the stream's queue, which a goroutine of its own
// writes: the call's handler produces on the request's goroutine, and a
// producer faster than the connection costs one write a batch, not one an
// event; and end, which writes what is queued, stops the writer and must
// run before the handler returns.
func (c *serverConfig[C, I]) openStream(ctx context.Context, w http.ResponseWriter) (context.Context, *sse.Queue, func()) {
	ctx, cancel := context.WithCancelCause(ctx)
	stream := newEventStream(w, sse.QueueConfig{WriteTimeout: c.writeTimeout, OnFail: func(err error) {
		cancel(fmt.Errorf("a2a: the stream to the client failed: %w", err))
	}})
	stream.Run(c.keepAlive)
	return ctx, stream, func() {
		stream.Close()
		cancel(nil)
	}
}

// eventIDs lets the handler of a stream name its events: it sets the
// call's EventID, and the returned function takes the id named for the
// event being written, if any.
func eventIDs[C Card](ctx context.Context) func() string {
	var pending string
	if info := a2acall.From[C](ctx); info != nil {
		info.EventID = func(id string) { pending = id }
	}
	return func() string {
		id := pending
		pending = ""
		return id
	}
}
