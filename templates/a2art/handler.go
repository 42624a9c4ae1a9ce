package a2art

import (
	"net/http"

	a2a "github.com/agui-gen/agui-gen/gen/a2a"
)

// NewHandler serves an agent over HTTP at one base URL: its card at
// /.well-known/agent-card.json, JSON-RPC at POST /, and HTTP+JSON at the
// paths of its google.api.http rules. Give the card one interface per
// binding, both with the base URL (Interfaces builds them). Options apply
// to both bindings, and every call is held to what the card declares
// (WithAgentCard).
func NewHandler(svc *a2a.Service, card *a2a.AgentCard, opts ...ServerOption) (http.Handler, error) {
	cardHandler, err := NewAgentCardHandler(card, opts...)
	if err != nil {
		return nil, err
	}
	// One stream cap for both bindings, unless opts name another.
	opts = append([]ServerOption{WithAgentCard(card), WithMaxStreams(DefaultMaxStreams)}, opts...)
	rest, err := NewRESTHandler(svc, opts...)
	if err != nil {
		return nil, err
	}
	jsonrpc := NewJSONRPCHandler(svc, opts...)
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
func Interfaces(baseURL string) []*a2a.AgentInterface {
	return []*a2a.AgentInterface{
		{URL: baseURL, ProtocolBinding: BindingJSONRPC, ProtocolVersion: a2a.ProtocolVersion},
		{URL: baseURL, ProtocolBinding: BindingHTTPJSON, ProtocolVersion: a2a.ProtocolVersion},
	}
}
