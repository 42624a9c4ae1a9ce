package a2ahttp

import (
	"net/http"

	"github.com/agui-gen/agui-gen/runtime/a2arpc"
)

// NewHandler serves an agent over HTTP at one base URL: its card at
// /.well-known/agent-card.json, JSON-RPC at POST /, and HTTP+JSON at the
// paths of its google.api.http rules. Give the card one interface per
// binding, both with the base URL (Interfaces builds them). Options apply
// to both bindings, and every call is held to what the card declares
// (WithAgentCard).
func NewHandler[C Card, I comparable](spec *Spec[C, I], svc *a2arpc.Service, card C, opts ...ServerOption[C, I]) (http.Handler, error) {
	cardHandler, err := NewAgentCardHandler(spec, card, opts...)
	if err != nil {
		return nil, err
	}
	// One stream cap for both bindings, unless opts name another.
	opts = append([]ServerOption[C, I]{WithAgentCard[C, I](card), WithMaxStreams[C, I](DefaultMaxStreams)}, opts...)
	rest, err := NewRESTHandler(spec, svc, opts...)
	if err != nil {
		return nil, err
	}
	jsonrpc := NewJSONRPCHandler(spec, svc, opts...)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == WellKnownCardPath:
			cardHandler.ServeHTTP(w, r)
		case r.URL.Path == "/" || r.URL.Path == "":
			jsonrpc.ServeHTTP(w, r)
		default:
			rest.ServeHTTP(w, r)
		}
	}), nil
}

// Interfaces returns the card entries of the bindings NewHandler serves at
// baseURL, JSON-RPC first, at ProtocolVersion.
func Interfaces[C Card, I comparable](spec *Spec[C, I], baseURL string) []I {
	return []I{
		spec.NewInterface(Interface{URL: baseURL, ProtocolBinding: a2arpc.BindingJSONRPC, ProtocolVersion: spec.ProtocolVersion}),
		spec.NewInterface(Interface{URL: baseURL, ProtocolBinding: a2arpc.BindingHTTPJSON, ProtocolVersion: spec.ProtocolVersion}),
	}
}
