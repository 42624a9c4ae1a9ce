package a2arpc

import "context"

type (
	lastEventIDKey struct{}
	eventIDsKey    struct{}
)

// WithLastEventID returns ctx for a streaming call that continues a stream
// the client lost: the call names id, the id of the last event the client
// received, and a server that keeps its streams' events (SubscribeToTask
// on the task runtime) sends the events after it, none twice. The HTTP
// bindings send it as the Last-Event-ID header, gRPC as last-event-id
// metadata; unary calls made with ctx do not send it. An empty id returns
// ctx as it is.
func WithLastEventID(ctx context.Context, id string) context.Context {
	if id == "" {
		return ctx
	}
	return context.WithValue(ctx, lastEventIDKey{}, id)
}

// LastEventID returns the id WithLastEventID put in ctx, or "".
func LastEventID(ctx context.Context) string {
	id, _ := ctx.Value(lastEventIDKey{}).(string)
	return id
}

// WithEventIDs returns ctx for a streaming call that tells f the id of
// each event it receives (the id field of a Server-Sent Event), just
// before the event is yielded, "" for an event without one; the id of the
// last event a caller took is what it resumes from (WithLastEventID). f
// is called on the goroutine that ranges over the stream. gRPC streams
// carry no ids: a gRPC transport never calls f. A stream made without it
// costs nothing more.
func WithEventIDs(ctx context.Context, f func(id string)) context.Context {
	if f == nil {
		return ctx
	}
	return context.WithValue(ctx, eventIDsKey{}, f)
}

// EventIDs returns the function WithEventIDs put in ctx, or nil; the
// transports call it for each event they yield.
func EventIDs(ctx context.Context) func(id string) {
	f, _ := ctx.Value(eventIDsKey{}).(func(id string))
	return f
}
