package aguihttp

import (
	"mime"
	"strconv"
	"strings"
)

// Media types of the two AG-UI event transports.
const (
	MediaTypeSSE   = "text/event-stream"
	MediaTypeProto = "application/vnd.ag-ui.event+proto"
)

// Accept headers a client sends for a run: SSE alone, or protobuf with SSE
// as the fallback of a server without it.
const (
	AcceptSSE   = MediaTypeSSE
	AcceptProto = MediaTypeProto + ", " + MediaTypeSSE + ";q=0.5"
)

// ResumeIDHeader is the response header with which a server with
// resumable runs answers the request that starts a run over SSE: the id
// that stands before the run's first event (position 0 of its log). A
// client whose stream is cut before it has read an event with an id sends
// it as Last-Event-ID, and reads the run from its first event.
const ResumeIDHeader = "AG-UI-Resume-ID"

// PrefersProto reports whether an Accept header asks for the protobuf
// transport: it names application/vnd.ag-ui.event+proto itself, with a
// positive quality no lower than the one SSE gets from the header (from
// text/event-stream, text/* or */*, the most specific that matches). A
// wildcard alone never chooses protobuf, so curl's and fetch's "*/*", and
// a browser's, get SSE, which they can read; a missing header gets SSE too.
func PrefersProto(accept string) bool {
	proto, sse := -1.0, 0.0
	sseSpecificity := -1
	for part := range strings.SplitSeq(accept, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		mediaType, params, err := mime.ParseMediaType(part)
		if err != nil {
			continue
		}
		q := 1.0
		if s, ok := params["q"]; ok {
			v, err := strconv.ParseFloat(s, 64)
			if err != nil || v < 0 || v > 1 {
				continue
			}
			q = v
		}
		specificity := -1
		switch mediaType {
		case MediaTypeProto:
			proto = max(proto, q)
			continue
		case MediaTypeSSE:
			specificity = 2
		case "text/*":
			specificity = 1
		case "*/*":
			specificity = 0
		}
		if specificity > sseSpecificity || (specificity == sseSpecificity && specificity >= 0 && q > sse) {
			sseSpecificity, sse = specificity, q
		}
	}
	return proto > 0 && proto >= sse
}

// IsProto reports whether a response's Content-Type is the protobuf
// transport (parameters and case aside); anything else is read as SSE.
func IsProto(contentType string) bool {
	mt, _, err := mime.ParseMediaType(contentType)
	return err == nil && mt == MediaTypeProto
}

// CORS: the request headers an AG-UI client may send (the body's and the
// answer's types, a bearer token, the event a resume starts after, and the
// trace context), and the response headers a page may read besides the
// ones every page may (why a call was refused, when to try again, and the
// id a resumable run's stream starts from).
var (
	CORSHeaders = []string{"Accept", "Authorization", "Content-Type", "Last-Event-ID", "traceparent", "tracestate", "baggage"}
	CORSExposed = []string{"Retry-After", "WWW-Authenticate", ResumeIDHeader}
)
