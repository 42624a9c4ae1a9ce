package a2agrpc

import (
	"context"
	"log/slog"
	"net/http"
	"net/textproto"

	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"

	"github.com/agui-gen/agui-gen/runtime/a2acall"
	"github.com/agui-gen/agui-gen/runtime/a2ahttp"
	"github.com/agui-gen/agui-gen/runtime/a2arpc"
	"github.com/agui-gen/agui-gen/runtime/bounds"
	"github.com/agui-gen/agui-gen/runtime/telemetry"
)

// ServerOption configures a service served over gRPC.
type ServerOption[C a2ahttp.Card, I comparable] func(*binding[C, I])

// WithLogger logs handler failures (default slog.Default()).
func WithLogger[C a2ahttp.Card, I comparable](l *slog.Logger) ServerOption[C, I] {
	return func(b *binding[C, I]) { b.logger = l }
}

// WithProtocolVersions sets the versions accepted in the a2a-version
// metadata; by default only the package's Spec.ProtocolVersion.
func WithProtocolVersions[C a2ahttp.Card, I comparable](versions ...string) ServerOption[C, I] {
	return func(b *binding[C, I]) { b.versions = versions }
}

// WithMissingVersionAs serves a call without a2a-version as version v
// instead of the spec's 0.3 (which a 1.x server refuses).
func WithMissingVersionAs[C a2ahttp.Card, I comparable](v string) ServerOption[C, I] {
	return func(b *binding[C, I]) { b.absentAs = v }
}

// WithAuthenticator runs authenticate on every call, with the call's
// metadata; its result becomes CallInfo.Principal, and an error refuses the
// call (UNAUTHENTICATED, or the *RPCError's own code).
func WithAuthenticator[C a2ahttp.Card, I comparable](authenticate func(ctx context.Context, md metadata.MD) (principal any, err error)) ServerOption[C, I] {
	return func(b *binding[C, I]) { b.authenticate = authenticate }
}

// WithAgentCard holds every call to what card declares, as the HTTP
// bindings do (a2ahttp.WithAgentCard): streaming RPCs need
// capabilities.streaming, and the extensions it marks required must be
// named in a2a-extensions. Give it the card the agent publishes.
func WithAgentCard[C a2ahttp.Card, I comparable](card C) ServerOption[C, I] {
	return func(b *binding[C, I]) { b.card = card }
}

// WithTelemetry sends the calls' traces and metrics where t says (default:
// OpenTelemetry's global providers); a call is a span of kind SERVER, child
// of the trace context in its metadata (traceparent).
func WithTelemetry[C a2ahttp.Card, I comparable](t *telemetry.Telemetry) ServerOption[C, I] {
	return func(b *binding[C, I]) { b.telemetry = t }
}

// WithEarlierVersions names the earlier protocol versions (Major.Minor)
// served beside this one, of those the package was generated to serve with
// their proto (Spec.CompatVersions: 0.3's a2a.v1.A2AService): by default all
// of them; WithEarlierVersions() serves none, and their calls then get
// VERSION_NOT_SUPPORTED from UnknownServiceHandler.
func WithEarlierVersions[C a2ahttp.Card, I comparable](versions ...string) ServerOption[C, I] {
	return func(b *binding[C, I]) { b.compat = a2ahttp.EarlierVersions(b.spec.CompatVersions(), versions...) }
}

// binding is what grpc-go holds as the service's implementation.
type binding[C a2ahttp.Card, I comparable] struct {
	spec         *Spec[C, I]
	svc          *a2arpc.Service
	logger       *slog.Logger
	versions     []string
	absentAs     string
	authenticate func(context.Context, metadata.MD) (any, error)
	card         C
	streams      *bounds.Streams
	compat       []*a2arpc.CompatVersion // the earlier versions served
	telemetry    *telemetry.Telemetry
	// earlier is the earlier version this binding serves, or nil for the
	// package's own.
	earlier *a2arpc.CompatVersion
	// sameName are the bindings of the earlier versions whose service has
	// this one's name (1.0's lf.a2a.v1.A2AService beside 1.1's): grpc-go
	// takes one service of a name, so their calls come here, and are told
	// apart by their a2a-version.
	sameName []*binding[C, I]
}

func newBinding[C a2ahttp.Card, I comparable](spec *Spec[C, I], svc *a2arpc.Service, opts []ServerOption[C, I]) *binding[C, I] {
	b := &binding[C, I]{spec: spec, svc: svc, logger: slog.Default(), versions: []string{spec.ProtocolVersion},
		streams: bounds.NewStreams(DefaultMaxStreams), compat: spec.CompatVersions()}
	for _, o := range opts {
		o(b)
	}
	return b
}

// Register serves svc (the generated package's Bind…(srv)) on s with desc,
// the generated grpc.ServiceDesc, whose handlers are UnaryHandler and
// StreamHandler by the index of the RPC in svc, and beside it the earlier
// versions' services (by their own names, such as 0.3's a2a.v1.A2AService)
// that the package was generated with the proto of, each call converted to
// svc's RPC that serves it.
func Register[C a2ahttp.Card, I comparable](spec *Spec[C, I], s grpc.ServiceRegistrar, desc *grpc.ServiceDesc, svc *a2arpc.Service, opts ...ServerOption[C, I]) {
	served.add(desc.ServiceName)
	b := newBinding(spec, svc, opts)
	s.RegisterService(desc, b)
	for _, v := range b.compat {
		if v.Proto == nil {
			continue
		}
		earlier := *b
		earlier.svc, earlier.earlier, earlier.sameName = a2acall.CompatService(v, svc), v, nil
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
func (b *binding[C, I]) forCall(ctx context.Context, h *a2arpc.MethodHandler) (*binding[C, I], *a2arpc.MethodHandler) {
	if len(b.sameName) == 0 {
		return b, h
	}
	md, _ := metadata.FromIncomingContext(ctx)
	v := md.Get("a2a-version")
	if len(v) == 0 {
		return b, h
	}
	mm, ok := a2arpc.ParseVersion(v[0])
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
func serviceDesc(svc *a2arpc.Service) *grpc.ServiceDesc {
	d := &grpc.ServiceDesc{ServiceName: svc.Desc.Name, HandlerType: (*any)(nil)}
	for i, m := range svc.Desc.Methods {
		if m.ServerStreaming {
			d.Streams = append(d.Streams, grpc.StreamDesc{StreamName: m.Name, Handler: StreamHandler(i), ServerStreams: true})
		} else {
			d.Methods = append(d.Methods, grpc.MethodDesc{MethodName: m.Name, Handler: UnaryHandler(i)})
		}
	}
	return d
}

// call prepares the context of a call: version negotiated, principal
// authenticated, CallInfo attached.
func (b *binding[C, I]) call(ctx context.Context, h *a2arpc.MethodHandler) (context.Context, error) {
	md, _ := metadata.FromIncomingContext(ctx)
	header := http.Header{}
	for k, v := range md {
		header[textproto.CanonicalMIMEHeaderKey(k)] = v
	}
	info := &a2acall.CallInfo[C]{Binding: a2arpc.BindingGRPC, Method: h.Desc, Header: header, Card: b.card, Telemetry: b.telemetry}
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
			return nil, b.status(a2acall.AuthError(err))
		}
		info.Principal = p
	}
	return a2acall.WithCallInfo(ctx, info), nil
}

// server is a registered binding, whatever the types it is bound to, so
// that the handlers in the generated descriptors need no type arguments.
type server interface {
	unary(i int, ctx context.Context, dec func(any) error, interceptor grpc.UnaryServerInterceptor) (any, error)
	stream(i int, stream grpc.ServerStream) error
}

// UnaryHandler serves the i-th method of the service Register bound, a
// unary one: the Handler of its grpc.MethodDesc.
func UnaryHandler(i int) grpc.MethodHandler {
	return func(srv any, ctx context.Context, dec func(any) error, interceptor grpc.UnaryServerInterceptor) (any, error) {
		return srv.(server).unary(i, ctx, dec, interceptor)
	}
}

// StreamHandler serves the i-th method of the service Register bound, a
// server-streaming one: the Handler of its grpc.StreamDesc.
func StreamHandler(i int) grpc.StreamHandler {
	return func(srv any, stream grpc.ServerStream) error { return srv.(server).stream(i, stream) }
}

func (registered *binding[C, I]) unary(i int, ctx context.Context, dec func(any) error, interceptor grpc.UnaryServerInterceptor) (any, error) {
	b, h := registered.forCall(ctx, &registered.svc.Handlers[i])
	// The call is admitted (its version, its caller) before its message is
	// decoded, as the HTTP bindings admit it before reading the body.
	ctx, err := b.call(ctx, h)
	if err != nil {
		return nil, err
	}
	req, err := decodeRequest(h, dec)
	if err != nil {
		return nil, b.status(a2acall.InvalidParams(err))
	}
	run := func(ctx context.Context, req any) (any, error) {
		resp, rerr := b.spec.InvokeUnary(ctx, b.logger, h, req.(a2arpc.ProtoValue))
		if rerr != nil {
			return nil, b.status(rerr)
		}
		return resp, nil
	}
	if interceptor == nil {
		return run(ctx, req)
	}
	return interceptor(ctx, req, &grpc.UnaryServerInfo{Server: registered, FullMethod: h.Desc.FullMethod}, run)
}

// decodeRequest reads the request of a call to h with recv, and decodes it.
func decodeRequest(h *a2arpc.MethodHandler, recv func(any) error) (a2arpc.ProtoValue, error) {
	var raw rawRequest
	if err := recv(&raw); err != nil {
		return nil, err
	}
	req := h.Desc.NewRequest()
	return req, req.UnmarshalProto(raw.data)
}

func (registered *binding[C, I]) stream(i int, stream grpc.ServerStream) error {
	b, h := registered.forCall(stream.Context(), &registered.svc.Handlers[i])
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
		return b.status(a2acall.InvalidParams(err))
	}
	if rerr := b.spec.InvokeStream(ctx, b.logger, h, req, func(m a2arpc.ProtoValue) error { return stream.SendMsg(m) }); rerr != nil {
		return b.status(rerr)
	}
	return nil
}
