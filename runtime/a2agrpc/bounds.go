package a2agrpc

import (
	"context"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/keepalive"
	"google.golang.org/grpc/status"
	"google.golang.org/grpc/tap"

	"github.com/agui-gen/agui-gen/runtime/a2acall"
	"github.com/agui-gen/agui-gen/runtime/a2ahttp"
	"github.com/agui-gen/agui-gen/runtime/bounds"
)

// The bounds ServerOptions and the binding put on a gRPC server.
const (
	// DefaultMaxRecvMsgSize bounds a request message: the body limit of
	// the HTTP bindings (gRPC's own default is 4 MiB).
	DefaultMaxRecvMsgSize = a2ahttp.DefaultMaxBodyBytes
	// DefaultMaxHeaderListSize bounds a call's metadata (gRPC's own
	// default is 16 MiB), as a2ahttp.DefaultMaxHeaderBytes bounds an HTTP
	// request's header.
	DefaultMaxHeaderListSize = a2ahttp.DefaultMaxHeaderBytes
	// DefaultMaxConcurrentStreams bounds the calls in progress on one
	// connection, as Go's HTTP/2 server does.
	DefaultMaxConcurrentStreams = 250
	// DefaultMaxStreams bounds the streaming calls a binding serves at
	// once, over all connections.
	DefaultMaxStreams = 1000
	// DefaultConnectionTimeout bounds a new connection's handshake.
	DefaultConnectionTimeout = 10 * time.Second
	// DefaultMaxConnectionIdle closes a connection without calls for that
	// long; its client reconnects when it next calls.
	DefaultMaxConnectionIdle = 5 * time.Minute
	// DefaultKeepaliveTime and DefaultKeepaliveTimeout: a connection with
	// calls in progress that has been quiet for DefaultKeepaliveTime is
	// pinged, and closed when the ping is not answered within
	// DefaultKeepaliveTimeout, so a peer that vanished holds nothing.
	DefaultKeepaliveTime    = 2 * time.Minute
	DefaultKeepaliveTimeout = 20 * time.Second
	// DefaultMinPingInterval is the shortest interval between a client's
	// keepalive pings: a client that pings more often, or at all while it
	// has no call in progress, is disconnected.
	DefaultMinPingInterval = 30 * time.Second
)

// ServerOptions returns the options of a gRPC server for the A2A service
// that no client can exhaust. opts are the options given to
// Register; with WithAuthenticator among them, a call is
// authenticated when its headers arrive, before its message is read
// (grpc.InTapHandle), so a caller without credentials makes the server
// buffer nothing, and the binding takes the principal found then instead
// of authenticating the call again. The authenticator runs on every call
// the server receives, whatever its service, and on the connection's
// reading goroutine: it must not block (a service open to anyone, such as
// a health check, belongs on a server of its own). The other bounds:
//
//   - request messages of DefaultMaxRecvMsgSize at most, and metadata of
//     DefaultMaxHeaderListSize;
//   - DefaultMaxConcurrentStreams calls at once per connection;
//   - a handshake within DefaultConnectionTimeout;
//   - idle connections closed after DefaultMaxConnectionIdle, quiet ones
//     pinged (DefaultKeepaliveTime, DefaultKeepaliveTimeout), and clients
//     that ping more often than DefaultMinPingInterval disconnected.
//
// Each is a grpc.ServerOption: one given after these replaces it.
//
//	s := grpc.NewServer(append(a2agrpc.ServerOptions(opts...), grpc.Creds(creds))...)
//	a2agrpc.RegisterA2AServiceServer(s, agent, opts...)
func ServerOptions[C a2ahttp.Card, I comparable](spec *Spec[C, I], opts ...ServerOption[C, I]) []grpc.ServerOption {
	out := []grpc.ServerOption{
		grpc.MaxRecvMsgSize(DefaultMaxRecvMsgSize),
		grpc.MaxHeaderListSize(DefaultMaxHeaderListSize),
		grpc.MaxConcurrentStreams(DefaultMaxConcurrentStreams),
		grpc.ConnectionTimeout(DefaultConnectionTimeout),
		grpc.KeepaliveParams(keepalive.ServerParameters{
			MaxConnectionIdle: DefaultMaxConnectionIdle,
			Time:              DefaultKeepaliveTime,
			Timeout:           DefaultKeepaliveTimeout,
		}),
		grpc.KeepaliveEnforcementPolicy(keepalive.EnforcementPolicy{MinTime: DefaultMinPingInterval}),
	}
	if b := newBinding(spec, nil, opts); b.authenticate != nil {
		out = append(out, grpc.InTapHandle(func(ctx context.Context, info *tap.Info) (context.Context, error) {
			p, err := b.authenticate(ctx, info.Header)
			if err != nil {
				return ctx, toStatus(a2acall.AuthError(err))
			}
			return context.WithValue(ctx, tappedKey{}, tapped{p}), nil
		}))
	}
	return out
}

// tapped is the principal ServerOptions' authenticator found for a call.
type tapped struct{ principal any }

type tappedKey struct{}

// tappedPrincipal returns the principal found for the call of ctx before
// its message was read, if ServerOptions' authenticator admitted it.
func tappedPrincipal(ctx context.Context) (any, bool) {
	t, ok := ctx.Value(tappedKey{}).(tapped)
	return t.principal, ok
}

// WithMaxStreams bounds the streaming calls the binding serves at once to
// n (default DefaultMaxStreams); one more is refused with UNAVAILABLE once
// its caller is authenticated and before its message is read. The
// bindings registered with one WithMaxStreams share its bound. 0 or less
// removes the bound.
func WithMaxStreams[C a2ahttp.Card, I comparable](n int) ServerOption[C, I] {
	slots := bounds.NewStreams(n)
	return func(b *binding[C, I]) { b.streams = slots }
}

// admitStream takes a slot for a streaming call and returns the function
// that gives it back, or the error that refuses the call.
func (b *binding[C, I]) admitStream() (release func(), err error) {
	if !b.streams.Acquire() {
		return nil, status.Error(codes.Unavailable, "the server is serving as many streams as it can; retry later")
	}
	return b.streams.Release, nil
}
