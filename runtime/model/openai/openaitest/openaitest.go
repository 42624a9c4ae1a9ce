// Package openaitest is a replay server for Chat Completions streams: an
// httptest server that answers each request with the next recorded SSE
// stream and keeps what it was sent, so an agent on runtime/model/openai
// is tested on the SDK's own code paths without the network.
package openaitest

import (
	"testing"

	oai "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/agui-gen/agui-gen/runtime/model/internal/replay"
)

// Reply is one answer of the server: an SSE stream (data: <chunk> lines),
// or with a Status other than 200 a JSON error body; Hold keeps the
// response open after it until the client goes away (Server.Gone).
type Reply = replay.Reply

// Server replays Replies, one a request, in order; Requests are the bodies
// it was sent, and Gone is closed when a client left a held reply.
type Server struct {
	*replay.Server
}

// NewServer starts a replay server, closed at the test's end.
func NewServer(t testing.TB, replies ...Reply) *Server {
	return &Server{replay.NewServer(t, "/v1/chat/completions", errorBody, replies...)}
}

// Start is NewServer for code without a testing.TB, such as an Example
// function or a demo program: the caller closes the server.
func Start(replies ...Reply) *Server {
	return &Server{replay.Start("/v1/chat/completions", errorBody, replies...)}
}

func errorBody(kind, message string) string {
	typ := map[string]string{"not_found": "invalid_request_error"}[kind]
	if typ == "" {
		typ = kind
	}
	return `{"error":{"message":"openaitest: ` + message + `","type":"` + typ + `"}}`
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
func (s *Server) Client(opts ...option.RequestOption) oai.Client {
	return oai.NewClient(append([]option.RequestOption{option.WithBaseURL(s.URL + "/v1/"),
		option.WithAPIKey("test-key"), option.WithMaxRetries(0)}, opts...)...)
}
