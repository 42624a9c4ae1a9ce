package a2agrpc

import (
	"context"
	"log/slog"
	"net/http"
	"net/textproto"

	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"

	a2a "github.com/agui-gen/agui-gen/gen/a2a"
	"github.com/agui-gen/agui-gen/runtime/bounds"
)

// ServerOption configures a service served over gRPC.
type ServerOption func(*binding)

// WithLogger logs handler failures (default slog.Default()).
func WithLogger(l *slog.Logger) ServerOption { return func(b *binding) { b.logger = l } }

// WithProtocolVersions sets the versions accepted in the a2a-version
// metadata; by default only a2a.ProtocolVersion.
func WithProtocolVersions(versions ...string) ServerOption {
	return func(b *binding) { b.versions = versions }
}

// WithMissingVersionAs serves a call without a2a-version as version v
// instead of the spec's 0.3 (which a 1.x server refuses).
func WithMissingVersionAs(v string) ServerOption { return func(b *binding) { b.absentAs = v } }

// WithAuthenticator runs authenticate on every call, with the call's
// metadata; its result becomes CallInfo.Principal, and an error refuses the
// call (UNAUTHENTICATED, or the *RPCError's own code).
func WithAuthenticator(authenticate func(ctx context.Context, md metadata.MD) (principal any, err error)) ServerOption {
	return func(b *binding) { b.authenticate = authenticate }
}

// WithAgentCard holds every call to what card declares, as the HTTP
// bindings do (a2a.WithAgentCard): streaming RPCs need
// capabilities.streaming, and the extensions it marks required must be
// named in a2a-extensions. Give it the card the agent publishes.
func WithAgentCard(card *a2a.AgentCard) ServerOption { return func(b *binding) { b.card = card } }

// WithTelemetry sends the calls' traces and metrics where t says (default:
// OpenTelemetry's global providers); a call is a span of kind SERVER, child
// of the trace context in its metadata (traceparent).
func WithTelemetry(t *a2a.Telemetry) ServerOption { return func(b *binding) { b.telemetry = t } }

// WithEarlierVersions names the earlier protocol versions (Major.Minor)
// served beside this one, of those the package was generated to serve with
// their proto (a2a.CompatVersions: 0.3's a2a.v1.A2AService): by default all
// of them; WithEarlierVersions() serves none, and their calls then get
// VERSION_NOT_SUPPORTED from UnknownServiceHandler.
func WithEarlierVersions(versions ...string) ServerOption {
	return func(b *binding) { b.compat = a2a.EarlierVersions(versions...) }
}

// binding is what grpc-go holds as the service's implementation.
type binding struct {
	svc          *a2a.Service
	logger       *slog.Logger
	versions     []string
	absentAs     string
	authenticate func(context.Context, metadata.MD) (any, error)
	card         *a2a.AgentCard
	streams      *bounds.Streams
	compat       []*a2a.CompatVersion // the earlier versions served
	telemetry    *a2a.Telemetry
	// earlier is the earlier version this binding serves, or nil for the
	// package's own.
	earlier *a2a.CompatVersion
	// sameName are the bindings of the earlier versions whose service has
	// this one's name (1.0's lf.a2a.v1.A2AService beside 1.1's): grpc-go
	// takes one service of a name, so their calls come here, and are told
	// apart by their a2a-version.
	sameName []*binding
}

func newBinding(svc *a2a.Service, opts []ServerOption) *binding {
	b := &binding{svc: svc, logger: slog.Default(), versions: []string{a2a.ProtocolVersion}, streams: bounds.NewStreams(DefaultMaxStreams),
		compat: a2a.CompatVersions()}
	for _, o := range opts {
		o(b)
	}
	return b
}

// register serves svc on s with desc, the generated grpc.ServiceDesc, and
// beside it the earlier versions' services (by their own names, such as
// 0.3's a2a.v1.A2AService) that the package was generated with the proto
// of, each call converted to svc's RPC that serves it.
func register(s grpc.ServiceRegistrar, desc *grpc.ServiceDesc, svc *a2a.Service, opts []ServerOption) {
	served.add(desc.ServiceName)
	b := newBinding(svc, opts)
	s.RegisterService(desc, b)
	for _, v := range b.compat {
		if v.Proto == nil {
			continue
		}
		earlier := *b
		earlier.svc, earlier.earlier, earlier.sameName = a2a.CompatService(v, svc), v, nil
		if v.Proto.Name == desc.ServiceName {
			b.sameName = append(b.sameName, &earlier)
			continue
		}
		s.RegisterService(serviceDesc(earlier.svc), &earlier)
	}
}

// forCall returns the binding that serves a call of method (its name) made
// to b's service: that of the earlier version of the same service name
// that the call's a2a-version names, with its handler of method, or b and
// its own handler h.
func (b *binding) forCall(ctx context.Context, h *a2a.MethodHandler) (*binding, *a2a.MethodHandler) {
	if len(b.sameName) == 0 {
		return b, h
	}
	md, _ := metadata.FromIncomingContext(ctx)
	v := md.Get("a2a-version")
	if len(v) == 0 {
		return b, h
	}
	mm, ok := a2a.ParseVersion(v[0])
	if !ok {
		return b, h
	}
	for _, eb := range b.sameName {
		if eb.earlier.Version == mm {
			if eh := eb.svc.Method(h.Desc.Name); eh != nil {
				return eb, eh
			}
		}
	}
	return b, h
}

// serviceDesc describes svc to grpc-go, its RPCs served by index as the
// generated descriptors serve them.
func serviceDesc(svc *a2a.Service) *grpc.ServiceDesc {
	d := &grpc.ServiceDesc{ServiceName: svc.Desc.Name, HandlerType: (*any)(nil)}
	for i, m := range svc.Desc.Methods {
		if m.ServerStreaming {
			d.Streams = append(d.Streams, grpc.StreamDesc{StreamName: m.Name, Handler: streamHandler(i), ServerStreams: true})
		} else {
			d.Methods = append(d.Methods, grpc.MethodDesc{MethodName: m.Name, Handler: unaryHandler(i)})
		}
	}
	return d
}

// call prepares the context of a call: version negotiated, principal
// authenticated, CallInfo attached.
func (b *binding) call(ctx context.Context, h *a2a.MethodHandler) (context.Context, error) {
	md, _ := metadata.FromIncomingContext(ctx)
	header := http.Header{}
	for k, v := range md {
		header[textproto.CanonicalMIMEHeaderKey(k)] = v
	}
	info := &a2a.CallInfo{Binding: a2a.BindingGRPC, Method: h.Desc, Header: header, Card: b.card, Telemetry: b.telemetry}
	if v := md.Get("last-event-id"); len(v) > 0 {
		info.LastEventID = v[0]
	}
	version, rerr := b.negotiate(md)
	if rerr != nil {
		return nil, b.status(rerr)
	}
	info.Version = version
	for _, v := range md.Get("a2a-extensions") {
		info.Extensions = append(info.Extensions, splitComma(v)...)
	}
	if p, ok := tappedPrincipal(ctx); ok {
		info.Principal = p // authenticated before the message was read (ServerOptions)
	} else if b.authenticate != nil {
		p, err := b.authenticate(ctx, md)
		if err != nil {
			return nil, b.status(a2a.AuthError(err))
		}
		info.Principal = p
	}
	return a2a.WithCallInfo(ctx, info), nil
}

// unaryHandler serves the i-th method of the bound service.
func unaryHandler(i int) grpc.MethodHandler {
	return func(srv any, ctx context.Context, dec func(any) error, interceptor grpc.UnaryServerInterceptor) (any, error) {
		b, h := srv.(*binding).forCall(ctx, &srv.(*binding).svc.Handlers[i])
		// The call is admitted (its version, its caller) before its message is
		// decoded, as the HTTP bindings admit it before reading the body.
		ctx, err := b.call(ctx, h)
		if err != nil {
			return nil, err
		}
		req, err := decodeRequest(h, dec)
		if err != nil {
			return nil, b.status(a2a.InvalidParams(err))
		}
		run := func(ctx context.Context, req any) (any, error) {
			resp, rerr := a2a.InvokeUnary(ctx, b.logger, h, req.(a2a.ProtoValue))
			if rerr != nil {
				return nil, b.status(rerr)
			}
			return resp, nil
		}
		if interceptor == nil {
			return run(ctx, req)
		}
		return interceptor(ctx, req, &grpc.UnaryServerInfo{Server: srv, FullMethod: h.Desc.FullMethod}, run)
	}
}

// decodeRequest reads the request of a call to h with recv, and decodes it.
func decodeRequest(h *a2a.MethodHandler, recv func(any) error) (a2a.ProtoValue, error) {
	var raw rawRequest
	if err := recv(&raw); err != nil {
		return nil, err
	}
	req := h.Desc.NewRequest()
	return req, req.UnmarshalProto(raw.data)
}

// streamHandler serves the i-th method, a server-streaming one.
func streamHandler(i int) grpc.StreamHandler {
	return func(srv any, stream grpc.ServerStream) error {
		b, h := srv.(*binding).forCall(stream.Context(), &srv.(*binding).svc.Handlers[i])
		ctx, err := b.call(stream.Context(), h)
		if err != nil {
			return err
		}
		release, err := b.admitStream()
		if err != nil {
			return err
		}
		defer release()
		req, err := decodeRequest(h, stream.RecvMsg)
		if err != nil {
			return b.status(a2a.InvalidParams(err))
		}
		if rerr := a2a.InvokeStream(ctx, b.logger, h, req, func(m a2a.ProtoValue) error { return stream.SendMsg(m) }); rerr != nil {
			return b.status(rerr)
		}
		return nil
	}
}
