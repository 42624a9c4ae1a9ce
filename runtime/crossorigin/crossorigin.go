// Package crossorigin lets the pages of other origins call the AG-UI and
// A2A handlers from a browser (CORS), on github.com/rs/cors: the policy a
// user gives (agui.CORS and a2a.CORS are this package's CORS) and the
// handler that answers preflights and marks the answers by it, with the
// headers each protocol's clients send and read.
package crossorigin

import (
	"context"
	"log/slog"
	"net/http"
	"slices"
	"time"

	"github.com/rs/cors"
)

// CORS lets pages of other origins call a handler from a browser: a front
// end on its own dev server (http://localhost:5173) or domain, in front of
// an agent served elsewhere. It is off unless it names at least one
// origin.
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
	// protocol uses (the handler's WithCORS lists them: Authorization,
	// Content-Type, Last-Event-ID, the W3C trace context, A2A-Version…),
	// such as an API key's header.
	AllowedHeaders []string
}

// Handler wraps h in c's rules, or returns h when c allows no origin.
// protocol names the caller in the log ("agui", "a2a"); methods are the
// ones the routes serve; headers and exposed, the request headers the
// protocol's clients send (besides c's AllowedHeaders) and the response
// headers its pages may read.
func (c *CORS) Handler(h http.Handler, logger *slog.Logger, protocol string, methods, headers, exposed []string) http.Handler {
	if c == nil || len(c.AllowedOrigins) == 0 {
		return h
	}
	credentials := c.AllowCredentials
	if credentials && slices.Contains(c.AllowedOrigins, "*") {
		logger.LogAttrs(context.Background(), slog.LevelWarn, protocol+": WithCORS: credentials are not allowed from every origin (\"*\"); name the origins to allow them")
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
