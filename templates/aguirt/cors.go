package aguirt

import (
	"context"
	"log/slog"
	"net/http"
	"slices"
	"time"

	"github.com/rs/cors"
)

// CORS lets pages of other origins call the handler from a browser: a
// front end on its own dev server (http://localhost:5173) or domain, in
// front of an agent served elsewhere. It is off unless WithCORS names at
// least one origin.
type CORS struct {
	// AllowedOrigins are the origins whose pages may call the handler, as
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
	// protocol uses (Accept, Authorization, Content-Type, Last-Event-ID and
	// the W3C trace context: traceparent, tracestate, baggage), such as an
	// API key's header.
	AllowedHeaders []string
}

// corsHeaders are the request headers an AG-UI client may send: the body's
// and the answer's types, a bearer token, the event a resume starts after,
// and the trace context.
var corsHeaders = []string{"Accept", "Authorization", "Content-Type", "Last-Event-ID", "traceparent", "tracestate", "baggage"}

// corsExposed are the response headers a page may read besides the ones
// every page may (Content-Type among them): why a call was refused, and
// when to try again.
var corsExposed = []string{"Retry-After", "WWW-Authenticate"}

// WithCORS answers the CORS preflights of every route of the handler (a
// run, …/capabilities, …/cancel, …/meta) and lets the pages of c's origins
// read the answers, streams included. A request from another origin gets
// no CORS header, so the browser keeps its answer from the page; requests
// without an Origin (curl, servers) are served as before. Without this
// option, or with no origins, a preflight (OPTIONS) gets 405 as any other
// method the route does not serve.
func WithCORS(c CORS) Option {
	return func(cfg *handlerConfig) { cfg.cors = &c }
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
		logger.LogAttrs(context.Background(), slog.LevelWarn, "agui: WithCORS: credentials are not allowed from every origin (\"*\"); name the origins to allow them")
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
