package a2art

import (
	"context"
	"log/slog"
	"net/http"
	"slices"
	"time"

	"github.com/rs/cors"
)

// CORS lets pages of other origins call the A2A bindings from a browser:
// a web client on its own dev server (http://localhost:5173) or domain. It
// is off unless WithCORS names at least one origin. (The agent card is
// public, and readable from any origin in any case.)
type CORS struct {
	// AllowedOrigins are the origins whose pages may call the agent, as
	// the browser sends them: scheme, host and port, such as
	// "https://app.example.com" or "http://localhost:5173". One "*" in a
	// name stands for any run of characters ("https://*.example.com");
	// "*" alone admits every origin.
	AllowedOrigins []string
	// AllowCredentials lets pages send cookies and TLS client certificates
	// with their calls (fetch's credentials: "include"). A bearer token in
	// an Authorization header needs no credentials. Ignored with the origin
	// "*", which the Fetch standard does not allow with credentials.
	AllowCredentials bool
	// MaxAge is how long a browser may keep a preflight's answer before it
	// asks again (browsers cap it: Chromium at 2 hours); 0 leaves it to the
	// browser (5 s), and a negative one asks it to keep none.
	MaxAge time.Duration
	// AllowedHeaders are request headers to allow besides those the
	// protocol uses (Accept, Authorization, Content-Type, A2A-Version,
	// A2A-Extensions, Last-Event-ID and the W3C trace context: traceparent,
	// tracestate, baggage), such as the header of an API key the card's
	// security schemes name.
	AllowedHeaders []string
}

// corsHeaders are the request headers an A2A client may send: the body's
// and the answer's types, credentials, the protocol version and
// extensions, the event a resubscription starts after, and the trace
// context.
var corsHeaders = []string{"Accept", "Authorization", "Content-Type", VersionHeader, ExtensionsHeader, "Last-Event-ID",
	"traceparent", "tracestate", "baggage"}

// corsExposed are the response headers a page may read besides the ones
// every page may (Content-Type among them): the version and extensions of
// the answer, why a call was refused, when to try again, and the methods a
// path allows.
var corsExposed = []string{VersionHeader, ExtensionsHeader, "Retry-After", "WWW-Authenticate", "Allow"}

// WithCORS answers the CORS preflights of the JSON-RPC endpoint and of
// every HTTP+JSON route, and lets the pages of c's origins read the
// answers, streams included. A request from another origin gets no CORS
// header, so the browser keeps its answer from the page; requests without
// an Origin (curl, servers) are served as before. Without this option, or
// with no origins, a preflight (OPTIONS) is refused as any other method
// the route does not serve.
func WithCORS(c CORS) ServerOption {
	return func(cfg *serverConfig) { cfg.cors = &c }
}

// wrap wraps h in c's rules, or returns h when c allows no origin.
// methods are the ones the routes serve; headers and exposed, the request
// headers allowed besides c's and the response headers a page may read.
func (c *CORS) wrap(h http.Handler, logger *slog.Logger, methods, headers, exposed []string) http.Handler {
	if c == nil || len(c.AllowedOrigins) == 0 {
		return h
	}
	credentials := c.AllowCredentials
	if credentials && slices.Contains(c.AllowedOrigins, "*") {
		logger.LogAttrs(context.Background(), slog.LevelWarn, "a2a: WithCORS: credentials are not allowed from every origin (\"*\"); name the origins to allow them")
		credentials = false
	}
	maxAge := int(c.MaxAge / time.Second)
	if c.MaxAge > 0 && maxAge == 0 {
		maxAge = 1
	}
	return cors.New(cors.Options{
		AllowedOrigins:   c.AllowedOrigins,
		AllowedMethods:   methods,
		AllowedHeaders:   append(slices.Clip(headers), c.AllowedHeaders...),
		ExposedHeaders:   exposed,
		AllowCredentials: credentials,
		MaxAge:           maxAge,
	}).Handler(h)
}
