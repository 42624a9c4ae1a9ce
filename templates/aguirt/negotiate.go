package aguirt

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

// prefersProto reports whether an Accept header asks for the protobuf
// transport: it names application/vnd.ag-ui.event+proto itself, with a
// positive quality no lower than the one SSE gets from the header (from
// text/event-stream, text/* or */*, the most specific that matches). A
// wildcard alone never chooses protobuf, so curl's and fetch's "*/*", and
// a browser's, get SSE, which they can read; a missing header gets SSE too.
func prefersProto(accept string) bool {
	proto, sse := -1.0, 0.0
	sseSpecificity := -1
	for _, part := range strings.Split(accept, ",") {
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
