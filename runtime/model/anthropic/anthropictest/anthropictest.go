// Package anthropictest is a replay server for Messages API streams: an
// httptest server that answers each request with the next recorded SSE
// stream and keeps what it was sent, so an agent on
// runtime/model/anthropic is tested on the SDK's own code paths without
// the network.
package anthropictest

import (
	"testing"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"

	"github.com/agui-gen/agui-gen/runtime/model/internal/replay"
)

// Reply is one answer of the server: an SSE stream (event: and data:
// lines), or with a Status other than 200 a JSON error body; Hold keeps
// the response open after it until the client goes away (Server.Gone).
type Reply = replay.Reply

// Server replays Replies, one a request, in order; Requests are the bodies
// it was sent, and Gone is closed when a client left a held reply.
type Server struct {
	*replay.Server
}

// NewServer starts a replay server, closed at the test's end.
func NewServer(t testing.TB, replies ...Reply) *Server {
	return &Server{replay.NewServer(t, "/v1/messages", errorBody, replies...)}
}

// Start is NewServer for code without a testing.TB, such as an Example
// function or a demo program: the caller closes the server.
func Start(replies ...Reply) *Server {
	return &Server{replay.Start("/v1/messages", errorBody, replies...)}
}

func errorBody(kind, message string) string {
	typ := map[string]string{"not_found": "not_found_error", "server_error": "api_error"}[kind]
	return `{"type":"error","error":{"type":"` + typ + `","message":"anthropictest: ` + message + `"}}`
}

// Fixture reads an SSE stream from a file, failing the test if it cannot.
func Fixture(t testing.TB, path string) Reply {
	t.Helper()
	return replay.Fixture(t, path)
}

// Load reads an SSE stream from a file, for code without a testing.TB.
func Load(path string) (Reply, error) {
	return replay.Load(path)
}

// Client is an SDK client of the server: no retries, a dummy key.
func (s *Server) Client(opts ...option.RequestOption) sdk.Client {
	return sdk.NewClient(append([]option.RequestOption{option.WithBaseURL(s.URL + "/"),
		option.WithAPIKey("test-key"), option.WithMaxRetries(0)}, opts...)...)
}
