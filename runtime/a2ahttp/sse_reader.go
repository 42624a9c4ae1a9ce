package a2ahttp

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/agui-gen/agui-gen/runtime/a2arpc"
	"github.com/agui-gen/agui-gen/runtime/sse"
)

// readEvents yields the messages of an event stream, each event decoded by
// decode, until the stream ends, decode fails, an event exceeds max bytes,
// or the caller stops. The function a2arpc.WithEventIDs put in ctx, if
// any, is told each event's id before the event is yielded.
func readEvents(ctx context.Context, method *a2arpc.MethodDesc, body io.Reader, max int64, yield func(a2arpc.ProtoValue, error) bool,
	decode func(sse.Event) (a2arpc.ProtoValue, error)) {
	ids := a2arpc.EventIDs(ctx)
	events := sse.NewReader(body, int(max))
	defer events.Close()
	for {
		ev, err := events.Next()
		if err != nil {
			if !errors.Is(err, io.EOF) && ctx.Err() == nil {
				yield(nil, fmt.Errorf("a2a: %s: reading the stream: %w", method.Name, err))
			}
			return
		}
		msg, err := decode(ev)
		if err != nil {
			yield(nil, err)
			return
		}
		if ids != nil {
			ids(ev.ID)
		}
		if !yield(msg, nil) {
			return
		}
	}
}
