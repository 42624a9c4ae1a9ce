package a2acall

import (
	"context"
	"errors"
	"log/slog"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/agui-gen/agui-gen/runtime/a2arpc"
	"github.com/agui-gen/agui-gen/runtime/wire"
)

// AuthError is what an authenticator's error becomes: an *RPCError keeps
// its code (ErrPermissionDenied), anything else is ErrUnauthenticated.
func AuthError(err error) *a2arpc.RPCError {
	var re *a2arpc.RPCError
	if errors.As(err, &re) {
		return a2arpc.AsRPCError(err)
	}
	return a2arpc.NewError(a2arpc.ErrUnauthenticated, err.Error())
}

func validateRequest(req a2arpc.ProtoValue) *a2arpc.RPCError {
	if err := req.Validate(); err != nil {
		return InvalidParams(err)
	}
	return nil
}

// InvalidParams turns an error from decoding or validating a request into
// ErrInvalidParams (ErrParse for malformed JSON) with a field violation
// naming where it happened.
func InvalidParams(err error) *a2arpc.RPCError {
	var re *a2arpc.RPCError
	if errors.As(err, &re) {
		return re
	}
	e := a2arpc.NewError(a2arpc.ErrInvalidParams, "invalid params: "+err.Error())
	var de *wire.Error
	if errors.As(err, &de) {
		if de.Rule == "syntax" {
			e = a2arpc.NewError(a2arpc.ErrParse, "parse error: "+err.Error())
		}
		e.Violations = []a2arpc.FieldViolation{{Field: fieldPath(de.Path), Description: de.Msg}}
	}
	return e
}

// fieldPath turns a JSON pointer into the field path google.rpc.BadRequest
// uses: "/message/parts/0/text" is "message.parts[0].text".
func fieldPath(pointer string) string {
	var b strings.Builder
	for _, tok := range strings.Split(strings.TrimPrefix(pointer, "/"), "/") {
		if tok == "" {
			continue
		}
		if _, err := strconv.Atoi(tok); err == nil && b.Len() > 0 {
			b.WriteString("[" + tok + "]")
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~"))
	}
	return b.String()
}

// InvokeUnary runs a unary handler the way every binding does: the call
// held to the card of its CallInfo (WithAgentCard), the request validated
// (ErrInvalidParams naming the field), a panic caught and
// logged (ErrInternal), a nil response made the empty response message, and
// an error outside the A2A table logged and answered as ErrInternal without
// its text, which may hold details the caller should not see.
func InvokeUnary[C comparable](ctx context.Context, spec *Spec[C], logger *slog.Logger, h *a2arpc.MethodHandler, req a2arpc.ProtoValue) (resp a2arpc.ProtoValue, rerr *a2arpc.RPCError) {
	call := startServed(ctx, spec, h, req)
	defer func() { endCall(&call, spec, resp, rpcError(rerr)) }()
	rerr = invoke(call.ctx, spec, logger, h, req, func(ctx context.Context) (err error) {
		resp, err = h.Unary(ctx, req)
		return err
	})
	if rerr != nil {
		return nil, rerr
	}
	if resp == nil {
		resp = h.Desc.NewResponse()
	}
	return resp, nil
}

// InvokeStream runs a streaming handler as InvokeUnary runs a unary one;
// send writes one message to the caller.
func InvokeStream[C comparable](ctx context.Context, spec *Spec[C], logger *slog.Logger, h *a2arpc.MethodHandler, req a2arpc.ProtoValue, send func(a2arpc.ProtoValue) error) (rerr *a2arpc.RPCError) {
	call := startServed(ctx, spec, h, req)
	defer func() { endCall(&call, spec, nil, rpcError(rerr)) }()
	send = observeSend(&call, spec, send)
	defer call.endStream()
	return invoke(call.ctx, spec, logger, h, req, func(ctx context.Context) error { return h.Stream(ctx, req, send) })
}

// startServed starts the telemetry of a call served (WithTelemetry): its span, in
// the context the handler gets.
func startServed[C comparable](ctx context.Context, spec *Spec[C], h *a2arpc.MethodHandler, req a2arpc.ProtoValue) call {
	info := From[C](ctx)
	if info == nil {
		info = &CallInfo[C]{}
	}
	return startServer(observerOf(info.Telemetry), ctx, spec, info, h.Desc, req)
}

// rpcError is rerr as an error: nil when it is nil.
func rpcError(rerr *a2arpc.RPCError) error {
	if rerr == nil {
		return nil
	}
	return rerr
}

// invoke holds the call to the card it is served under, validates req and
// runs call, the handler's work on it, catching a panic and turning its
// error into the A2A error the caller gets.
func invoke[C comparable](ctx context.Context, spec *Spec[C], logger *slog.Logger, h *a2arpc.MethodHandler, req a2arpc.ProtoValue, call func(context.Context) error) (rerr *a2arpc.RPCError) {
	if rerr := checkCard(spec, From[C](ctx)); rerr != nil {
		return rerr
	}
	if h.Desc.Earlier == "" { // an earlier version's request is validated once converted (compatService)
		if rerr := validateRequest(req); rerr != nil {
			return rerr
		}
	}
	defer func() {
		if p := recover(); p != nil {
			logger.ErrorContext(ctx, "a2a: handler panicked", "method", h.Desc.Name, "panic", p, "stack", string(debug.Stack()))
			rerr = a2arpc.NewError(a2arpc.ErrInternal, "internal error")
		}
	}()
	if err := call(ctx); err != nil {
		return handlerError(ctx, logger, h, err)
	}
	return nil
}

func handlerError(ctx context.Context, logger *slog.Logger, h *a2arpc.MethodHandler, err error) *a2arpc.RPCError {
	var re *a2arpc.RPCError
	if errors.As(err, &re) {
		return a2arpc.AsRPCError(err)
	}
	if ctx.Err() == nil {
		logger.ErrorContext(ctx, "a2a: handler failed", "method", h.Desc.Name, "err", err)
	}
	return a2arpc.NewError(a2arpc.ErrInternal, "internal error")
}

// Unavailable, as the cause of an error (RPCError.Err), says that the call
// failed because the service, or something it depends on such as its task
// store, cannot serve it now, and that the same call may succeed after
// RetryAfter. HTTP+JSON answers such an error with 503 Service Unavailable,
// google.rpc.Code UNAVAILABLE and a Retry-After header (RFC 9110 §10.2.3),
// which clients and proxies know to retry; JSON-RPC keeps its error's
// code, in the body of a 200.
type Unavailable struct {
	// RetryAfter is how long to wait before trying again; it is sent in
	// whole seconds, at least one.
	RetryAfter time.Duration
}

func (u *Unavailable) Error() string {
	return "unavailable: try again in " + u.RetryAfter.String()
}
