package a2arpc

import "context"

// UnaryMethod is the handler of a unary RPC served by call, a method of a
// generated server interface: the request is asserted to Req, the type the
// descriptor's NewRequest makes, and a nil Res is answered as the empty
// response, not as a non-nil ProtoValue holding a nil pointer. Generated
// Bind functions make one per unary RPC, as connect-go's generated code
// makes a NewUnaryHandler per method.
func UnaryMethod[Req ProtoValue, Res interface {
	comparable
	ProtoValue
}](desc *MethodDesc, call func(context.Context, Req) (Res, error)) MethodHandler {
	return MethodHandler{Desc: desc, Unary: func(ctx context.Context, req ProtoValue) (ProtoValue, error) {
		resp, err := call(ctx, req.(Req))
		var none Res
		if resp == none {
			return nil, err
		}
		return resp, err
	}}
}

// StreamMethod is the handler of a server-streaming RPC served by call, a
// method of a generated server interface, which sends its messages typed.
func StreamMethod[Req, Res ProtoValue](desc *MethodDesc, call func(context.Context, Req, func(Res) error) error) MethodHandler {
	return MethodHandler{Desc: desc, Stream: func(ctx context.Context, req ProtoValue, send func(ProtoValue) error) error {
		return call(ctx, req.(Req), func(m Res) error { return send(m) })
	}}
}
