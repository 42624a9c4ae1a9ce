package aguirt

import "github.com/agui-gen/agui-gen/runtime/crossorigin"

// CORS lets pages of other origins call the handler from a browser; see
// WithCORS. It is crossorigin.CORS, one type for both protocols.
type CORS = crossorigin.CORS

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
