package a2arpc

import (
	"context"
	"iter"

	"github.com/agui-gen/agui-gen/runtime/wire"
)

// ServiceDesc describes an RPC service as data, for servers and clients to route by.
type ServiceDesc struct {
	// Name is the service's full protobuf name.
	Name string
	// Methods are the service's RPCs in declaration order.
	Methods []MethodDesc
}

// MethodDesc describes one RPC.
type MethodDesc struct {
	// Name is the RPC's name, which is also its JSON-RPC method name.
	Name string
	// FullMethod is the gRPC method path, "/package.Service/Method".
	FullMethod string
	// ClientStreaming and ServerStreaming are the proto's stream markers.
	ClientStreaming bool
	ServerStreaming bool
	// HTTP lists the google.api.http bindings, the main rule first.
	HTTP []HTTPRule
	// NewRequest and NewResponse return empty request and response messages.
	NewRequest  func() ProtoValue
	NewResponse func() ProtoValue
	// Earlier is the earlier protocol version (Major.Minor, "0.3") whose RPC
	// this is, served by converting it to one of this version's; "" for this
	// version's own. Its requests are validated as this version's, once
	// converted: the earlier proto's REQUIRED marks are not what its
	// clients keep to.
	Earlier string
}

// HTTPRule is one HTTP+JSON binding of an RPC.
type HTTPRule struct {
	// Method is the HTTP method; Path the URL template ("/tasks/{id=*}:cancel").
	Method string
	Path   string
	// Body names the request field the body maps to: "*" for the whole request, "" for none.
	Body string
	// ResponseBody names the response field the body holds, or "" for the whole response.
	ResponseBody string
}

// ProtoValue is implemented by every message type of the package.
type ProtoValue interface {
	AppendJSON([]byte) []byte
	UnmarshalJSON([]byte) error
	AppendProto([]byte) []byte
	UnmarshalProto([]byte) error
	Validate() error
}

// FieldSetter is implemented by the request messages of RPCs that have
// HTTP bindings: SetField sets a top-level field, named by its proto or JSON
// name, from the text an HTTP+JSON path variable or query parameter carries.
type FieldSetter interface {
	SetField(name, text string) error
}

// Service is a service bound to an implementation: one MethodHandler per
// RPC, in the order of Desc.Methods. The generated Bind functions build one;
// every transport serves one.
type Service struct {
	Desc     *ServiceDesc
	Handlers []MethodHandler
}

// MethodHandler serves one RPC, whatever the binding. Exactly one of Unary
// and Stream is set, as Desc.ServerStreaming says.
type MethodHandler struct {
	Desc *MethodDesc
	// Unary answers a unary RPC. A nil response with a nil error is answered
	// with the empty response message.
	Unary func(ctx context.Context, req ProtoValue) (ProtoValue, error)
	// Stream answers a server-streaming RPC, calling send once per message;
	// an error from send means the caller has gone and the handler should
	// return it.
	Stream func(ctx context.Context, req ProtoValue, send func(ProtoValue) error) error
}

// Method returns the handler of the RPC named name, or nil.
func (s *Service) Method(name string) *MethodHandler {
	for i := range s.Handlers {
		if s.Handlers[i].Desc.Name == name {
			return &s.Handlers[i]
		}
	}
	return nil
}

// Transport carries RPCs from a client to a server over one binding. The
// generated typed clients are written against it.
type Transport interface {
	// Call sends req and decodes the answer into resp.
	Call(ctx context.Context, method *MethodDesc, req, resp ProtoValue) error
	// Stream sends req and yields the messages of the answer as they come.
	// Breaking out of the loop ends the call.
	Stream(ctx context.Context, method *MethodDesc, req ProtoValue) iter.Seq2[ProtoValue, error]
}

// ReusableValue is a message that can be decoded into again, reusing its
// memory: the generated answer of every streaming RPC.
type ReusableValue interface {
	ProtoValue
	// UnmarshalJSONReusing decodes data into the value as UnmarshalJSON
	// does, overwriting the messages and lists it points to.
	UnmarshalJSONReusing(data []byte) error
	// ReadJSONReusing is UnmarshalJSONReusing's step that reads the value
	// from r, for a caller that reads the document around it (a JSON-RPC
	// response's result).
	ReadJSONReusing(r *wire.Reader)
}

// ReusingStreamer is a Transport whose streams can decode every message
// into one value, so that a message costs no allocation but for what
// differs from the one before. The HTTP transports of a2ahttp are such.
type ReusingStreamer interface {
	// StreamReusing is Stream yielding resp, into which it decodes every
	// message over the one before.
	StreamReusing(ctx context.Context, method *MethodDesc, req ProtoValue, resp ReusableValue) iter.Seq2[ProtoValue, error]
}

// StreamReusing streams method over t, decoding every message into resp
// when t is a ReusingStreamer; other transports yield the messages Stream
// makes. Either way a message must not be used past the loop's iteration
// that yields it.
func StreamReusing(ctx context.Context, t Transport, method *MethodDesc, req ProtoValue, resp ReusableValue) iter.Seq2[ProtoValue, error] {
	if rs, ok := t.(ReusingStreamer); ok {
		return rs.StreamReusing(ctx, method, req, resp)
	}
	return t.Stream(ctx, method, req)
}
