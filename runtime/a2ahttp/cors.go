package a2ahttp

import (
	"github.com/agui-gen/agui-gen/runtime/a2arpc"
	"github.com/agui-gen/agui-gen/runtime/crossorigin"
)

// CORS lets pages of other origins call the handler from a browser; see
// WithCORS. It is crossorigin.CORS, one type for both protocols.
type CORS = crossorigin.CORS

// corsHeaders are the request headers an A2A client may send: the body's
// and the answer's types, credentials, the protocol version and
// extensions, the event a resubscription starts after, and the trace
// context.
var corsHeaders = []string{"Accept", "Authorization", "Content-Type", a2arpc.VersionHeader, a2arpc.ExtensionsHeader, "Last-Event-ID",
	"traceparent", "tracestate", "baggage"}

// corsExposed are the response headers a page may read besides the ones
// every page may (Content-Type among them): the version and extensions of
// the answer, why a call was refused, when to try again, and the methods a
// path allows.
var corsExposed = []string{a2arpc.VersionHeader, a2arpc.ExtensionsHeader, "Retry-After", "WWW-Authenticate", "Allow"}

// WithCORS answers the CORS preflights of the JSON-RPC endpoint and of
// every HTTP+JSON route, and lets the pages of c's origins read the
// answers, streams included. A request from another origin gets no CORS
// header, so the browser keeps its answer from the page; requests without
// an Origin (curl, servers) are served as before. Without this option, or
// with no origins, a preflight (OPTIONS) is refused as any other method
// the route does not serve.
func WithCORS[C Card, I comparable](c CORS) ServerOption[C, I] {
	return func(cfg *serverConfig[C, I]) { cfg.cors = &c }
}
