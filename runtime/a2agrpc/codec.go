package a2agrpc

import (
	"fmt"

	"google.golang.org/grpc/encoding"
	_ "google.golang.org/grpc/encoding/proto" // registered first, so that init below wraps it
	"google.golang.org/grpc/mem"
)

// wireMessage is a message of the generated package: it encodes itself.
type wireMessage interface {
	AppendProto([]byte) []byte
	UnmarshalProto([]byte) error
}

// codec is gRPC's "proto" codec for the generated messages, and the codec
// it replaces for every other message, so that registering it changes
// nothing for protoc-generated services in the same process.
type codec struct{ fallback encoding.CodecV2 }

func init() {
	encoding.RegisterCodecV2(&codec{fallback: encoding.GetCodecV2("proto")})
}

func (c *codec) Name() string { return "proto" }

func (c *codec) Marshal(v any) (mem.BufferSlice, error) {
	m, ok := v.(wireMessage)
	if !ok {
		if c.fallback == nil {
			return nil, fmt.Errorf("a2agrpc: cannot marshal %T", v)
		}
		return c.fallback.Marshal(v)
	}
	return mem.BufferSlice{mem.SliceBuffer(m.AppendProto(nil))}, nil
}

// rawRequest is a request's bytes, which the handlers decode themselves, so
// that a message that does not decode is the caller's error
// (InvalidArgument, naming the field), whatever gRPC makes of a codec's
// error.
type rawRequest struct{ data []byte }

func (c *codec) Unmarshal(data mem.BufferSlice, v any) error {
	if raw, ok := v.(*rawRequest); ok {
		raw.data = data.Materialize()
		return nil
	}
	m, ok := v.(wireMessage)
	if !ok {
		if c.fallback == nil {
			return fmt.Errorf("a2agrpc: cannot unmarshal into %T", v)
		}
		return c.fallback.Unmarshal(data, v)
	}
	buf := data.MaterializeToBuffer(mem.DefaultBufferPool())
	defer buf.Free()
	return m.UnmarshalProto(buf.ReadOnlyData())
}
