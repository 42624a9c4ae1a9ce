package aguirt

import (
	"errors"
	"fmt"

	agui "github.com/agui-gen/agui-gen/gen/agui"
	"github.com/agui-gen/agui-gen/runtime/aguihttp"
)

// protoSource is the protobuf transport: each frame of runtime/aguihttp's
// reader is one Event envelope.
type protoSource struct {
	r    *aguihttp.FrameReader
	warn func(string)
}

func (p *protoSource) release() {}

func (p *protoSource) next() (agui.Event, error) {
	frame, n, err := p.r.Next()
	if err != nil {
		return nil, err // io.EOF at a frame boundary is the clean end
	}
	ev, err := agui.UnmarshalEventProto(frame)
	if errors.Is(err, agui.ErrUnknownEvent) {
		p.warn(fmt.Sprintf("dropped protobuf frame %d: %v", n, err))
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("agui: protobuf frame %d is malformed: %w", n, err)
	}
	return ev, nil
}
