package a2acall

import (
	"context"

	"github.com/agui-gen/agui-gen/runtime/a2arpc"
)

// CompatService serves the RPCs of v's proto (v.Proto) with svc: one
// handler per RPC, in their order, each calling the handler of the RPC that
// serves it (v.RPCs). A request the conversion refuses (a value this version
// cannot hold) is invalid params; the converted request is validated as
// this version's. An RPC whose counterpart svc does not implement is left
// unimplemented. The gRPC and HTTP+JSON bindings serve earlier versions
// with it; nil when v has no proto.
func CompatService(v *a2arpc.CompatVersion, svc *a2arpc.Service) *a2arpc.Service {
	if v.Proto == nil {
		return nil
	}
	out := &a2arpc.Service{Desc: v.Proto, Handlers: make([]a2arpc.MethodHandler, len(v.RPCs))}
	for i := range v.RPCs {
		rpc := &v.RPCs[i]
		out.Handlers[i].Desc = &v.Proto.Methods[i]
		h := svc.Method(rpc.Serves)
		if h == nil {
			continue
		}
		switch {
		case h.Unary != nil:
			out.Handlers[i].Unary = func(ctx context.Context, req a2arpc.ProtoValue) (a2arpc.ProtoValue, error) {
				in, rerr := compatUp(rpc, req)
				if rerr != nil {
					return nil, rerr
				}
				resp, err := h.Unary(ctx, in)
				if err != nil || resp == nil {
					return nil, err
				}
				return rpc.Down(resp), nil
			}
		case h.Stream != nil:
			out.Handlers[i].Stream = func(ctx context.Context, req a2arpc.ProtoValue, send func(a2arpc.ProtoValue) error) error {
				in, rerr := compatUp(rpc, req)
				if rerr != nil {
					return rerr
				}
				return h.Stream(ctx, in, func(m a2arpc.ProtoValue) error { return send(rpc.Down(m)) })
			}
		}
	}
	return out
}

// compatUp converts an earlier version's request to this version's and
// validates it as this version's.
func compatUp(rpc *a2arpc.CompatRPC, req a2arpc.ProtoValue) (a2arpc.ProtoValue, *a2arpc.RPCError) {
	in, err := rpc.Up(req)
	if err != nil {
		return nil, InvalidParams(err)
	}
	if rerr := validateRequest(in); rerr != nil {
		return nil, rerr
	}
	return in, nil
}
