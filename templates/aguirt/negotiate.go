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

// admitsProto reports whether an Accept header admits the protobuf
// transport: the most specific media range matching it (the exact type, then
// application/*, then */*) has a positive quality. Admission, not
// preference, is what opts in: "application/vnd.ag-ui.event+proto;q=0.1,
// text/event-stream" admits it, and so does a bare "*/*". A missing header
// admits nothing, so a client that says nothing gets SSE.
func admitsProto(accept string) bool {
	best, bestQ := -1, 0.0
	for _, part := range strings.Split(accept, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		mediaType, params, err := mime.ParseMediaType(part)
		if err != nil {
			continue
		}
		specificity := -1
		switch mediaType {
		case MediaTypeProto:
			specificity = 2
		case "application/*":
			specificity = 1
		case "*/*":
			specificity = 0
		}
		if specificity < 0 || specificity < best {
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
		if specificity > best || q > bestQ {
			best, bestQ = specificity, q
		}
	}
	return best >= 0 && bestQ > 0
}
