package a2agrpc_test

import (
	"context"
	"io"
	"log/slog"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/encoding"
	"google.golang.org/grpc/mem"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	"github.com/agui-gen/agui-gen/examples/a2a-demo/echo"
	a2a "github.com/agui-gen/agui-gen/gen/a2a"
	"github.com/agui-gen/agui-gen/gen/a2a/a2agrpc"
)

// capture is a grpc.ServiceRegistrar that keeps what is registered, so a
// test can call the method handlers the way grpc-go does, without a
// network.
type capture struct {
	desc *grpc.ServiceDesc
	impl any
}

func (c *capture) RegisterService(desc *grpc.ServiceDesc, impl any) { c.desc, c.impl = desc, impl }

// recvStream is a server stream whose one request is a frame of bytes.
type recvStream struct {
	grpc.ServerStream
	ctx   context.Context
	frame []byte
}

func (s *recvStream) Context() context.Context { return s.ctx }
func (s *recvStream) RecvMsg(m any) error {
	return encoding.GetCodecV2("proto").Unmarshal(mem.BufferSlice{mem.SliceBuffer(s.frame)}, m)
}
func (s *recvStream) SendMsg(m any) error          { return nil }
func (s *recvStream) SetHeader(metadata.MD) error  { return nil }
func (s *recvStream) SendHeader(metadata.MD) error { return nil }
func (s *recvStream) SetTrailer(metadata.MD)       {}

// FuzzGRPCFrames hands arbitrary request frames to every method handler:
// each call ends in a response or a status error, never a crash.
func FuzzGRPCFrames(f *testing.F) {
	msg := &a2a.Message{MessageID: "m", Role: a2a.RoleUser, Parts: []*a2a.Part{{Content: &a2a.PartText{Text: "hi"}}}}
	f.Add(uint8(0), (&a2a.SendMessageRequest{Message: msg}).AppendProto(nil))
	f.Add(uint8(1), (&a2a.SendMessageRequest{Message: msg}).AppendProto(nil))
	f.Add(uint8(2), (&a2a.GetTaskRequest{ID: "x"}).AppendProto(nil))
	f.Add(uint8(3), []byte{0x08, 0xff, 0xff, 0xff, 0xff, 0x0f})
	f.Add(uint8(5), []byte{0x12, 0x80})
	reg := &capture{}
	a2agrpc.RegisterA2AServiceServer(reg, echo.New(), a2agrpc.WithLogger(slog.New(slog.NewTextHandler(io.Discard, nil))))
	ctx := metadata.NewIncomingContext(context.Background(), metadata.Pairs("a2a-version", "1.0"))
	f.Fuzz(func(t *testing.T, method uint8, frame []byte) {
		codec := encoding.GetCodecV2("proto")
		dec := func(m any) error { return codec.Unmarshal(mem.BufferSlice{mem.SliceBuffer(frame)}, m) }
		var err error
		if n := len(reg.desc.Methods); int(method)%(n+len(reg.desc.Streams)) < n {
			_, err = reg.desc.Methods[int(method)%n].Handler(reg.impl, ctx, dec, nil)
		} else {
			s := reg.desc.Streams[int(method)%(n+len(reg.desc.Streams))-n]
			err = s.Handler(reg.impl, &recvStream{ctx: ctx, frame: frame})
		}
		if err != nil {
			if _, ok := status.FromError(err); !ok {
				t.Fatalf("not a status: %v", err)
			}
		}
	})
}
