package aguirt

import (
	"context"
	"io"

	agui "github.com/agui-gen/agui-gen/gen/agui"
	"github.com/agui-gen/agui-gen/runtime/aguihttp"
	"github.com/agui-gen/agui-gen/runtime/sse"
)

// protoWriter writes the protobuf transport: each event is a 4-byte
// big-endian length followed by that many bytes of one Event envelope. Its
// queue has no keep-alive frame: the binary transport has no comment, and
// an empty frame would be an event.
type protoWriter struct{ *sse.Queue }

func newProtoWriter(w io.Writer, cfg sse.QueueConfig) *protoWriter {
	cfg.KeepAlive = ""
	return &protoWriter{newQueue(w, cfg)}
}

func (p *protoWriter) ContentType() string { return aguihttp.MediaTypeProto }

// WriteEvent queues one frame. META has no protobuf form: it goes as the
// CUSTOM event that carries it. Any other event without one is skipped.
func (p *protoWriter) WriteEvent(ctx context.Context, ev agui.Event) error {
	if m, ok := ev.(*agui.MetaEvent); ok {
		ev = MetaAsCustom(m)
	}
	return p.Append(ctx, func(b []byte) []byte {
		return aguihttp.AppendFrame(b, func(b []byte) ([]byte, bool) { return agui.AppendEventProto(b, ev) })
	})
}
