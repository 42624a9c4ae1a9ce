package a2agrpc

import (
	"strings"
	"sync"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	"github.com/agui-gen/agui-gen/runtime/a2ahttp"
	"github.com/agui-gen/agui-gen/runtime/a2arpc"
)

// negotiate picks the protocol version of a call from its a2a-version
// metadata; absent, it is 0.3 (A2A §3.6.2) unless WithMissingVersionAs
// says otherwise.
func (b *binding[C, I]) negotiate(md metadata.MD) (string, *a2arpc.RPCError) {
	var requested string
	if v := md.Get("a2a-version"); len(v) > 0 {
		requested = v[0]
	}
	if b.earlier != nil {
		// An earlier version's service: its clients name that version, or
		// none (0.3 clients send no a2a-version).
		return a2arpc.NegotiateVersion(requested, []string{b.earlier.Version}, b.earlier.Version)
	}
	return a2arpc.NegotiateVersion(requested, b.versions, b.absentAs)
}

// UnknownServiceHandler answers the calls grpc-go finds no registered
// method for, when they are meant for a service of the same name as one
// this package has registered (another version's: a v0.3 client calls
// a2a.v1.A2AService, v1.0 is lf.a2a.v1.A2AService), the way the HTTP
// bindings answer such a request: VERSION_NOT_SUPPORTED when its
// a2a-version is absent (0.3) or not served, so that the client learns its
// version is the problem, and UNIMPLEMENTED otherwise, as grpc-go would.
// Calls to any other service get UNIMPLEMENTED. Pass it to grpc.NewServer
// with the options given to Register, whose versions it negotiates.
func UnknownServiceHandler[C a2ahttp.Card, I comparable](spec *Spec[C, I], opts ...ServerOption[C, I]) grpc.ServerOption {
	b := newBinding(spec, nil, opts)
	return grpc.UnknownServiceHandler(func(_ any, stream grpc.ServerStream) error {
		full, _ := grpc.MethodFromServerStream(stream)
		service, method := splitMethod(full)
		if served.has(service) {
			md, _ := metadata.FromIncomingContext(stream.Context())
			if _, rerr := b.negotiate(md); rerr != nil {
				return toStatus(rerr)
			}
		}
		return status.Errorf(codes.Unimplemented, "unknown method %s for service %s", method, service)
	})
}

// splitMethod splits "/package.Service/Method".
func splitMethod(full string) (service, method string) {
	full = strings.TrimPrefix(full, "/")
	if i := strings.LastIndex(full, "/"); i >= 0 {
		return full[:i], full[i+1:]
	}
	return full, ""
}

// served holds the short names (A2AService) of the services registered
// through this package, for UnknownServiceHandler to tell another version
// of one of them from an unrelated service.
var served serviceNames

type serviceNames struct {
	mu    sync.Mutex
	short map[string]bool
}

func shortName(full string) string { return full[strings.LastIndex(full, ".")+1:] }

func (s *serviceNames) add(full string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.short == nil {
		s.short = map[string]bool{}
	}
	s.short[shortName(full)] = true
}

func (s *serviceNames) has(full string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.short[shortName(full)]
}
