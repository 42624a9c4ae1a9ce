// Package geminitest is a replay server for Gemini API streams
// (streamGenerateContent with alt=sse): an httptest server that answers
// each request with the next recorded SSE stream and keeps what it was
// sent, so an agent on runtime/model/gemini is tested on the SDK's own code
// paths without the network.
package geminitest

import (
	"bytes"
	"context"
	"testing"

	"google.golang.org/genai"

	"github.com/agui-gen/agui-gen/runtime/model/internal/replay"
)

// Reply is one answer of the server: an SSE stream (data: lines), or with
// a Status other than 200 a JSON error body; Hold keeps the response open
// after it until the client goes away (Server.Gone).
type Reply = replay.Reply

// Server replays Replies, one a request, in order; Requests are the bodies
// it was sent, and Gone is closed when a client left a held reply.
type Server struct {
	*replay.Server
}

// NewServer starts a replay server, closed at the test's end. It answers
// every model's stream (POST /v1beta/models/…).
func NewServer(t testing.TB, replies ...Reply) *Server {
	return &Server{replay.NewServer(t, "/v1beta/models/", errorBody, replies...)}
}

// Start is NewServer for code without a testing.TB, such as an Example
// function or a demo program: the caller closes the server.
func Start(replies ...Reply) *Server {
	return &Server{replay.Start("/v1beta/models/", errorBody, replies...)}
}

func errorBody(kind, message string) string {
	code, status := "404", "NOT_FOUND"
	if kind == "server_error" {
		code, status = "500", "INTERNAL"
	}
	return `{"error":{"code":` + code + `,"message":"geminitest: ` + message + `","status":"` + status + `"}}`
}

// Fixture reads an SSE stream from a file, failing the test if it cannot.
// Lines starting with ":" (SSE comments, where a fixture names its source)
// are left out, and the blank line after them: genai's stream reader,
// unlike the SSE standard, refuses both.
func Fixture(t testing.TB, path string) Reply {
	t.Helper()
	r, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// Load reads an SSE stream from a file, as Fixture does, for code without
// a testing.TB.
func Load(path string) (Reply, error) {
	r, err := replay.Load(path)
	if err != nil {
		return r, err
	}
	var out []byte
	for line := range bytes.Lines(r.Body) {
		if !bytes.HasPrefix(line, []byte(":")) {
			out = append(out, line...)
		}
	}
	r.Body = bytes.TrimLeft(out, "\r\n")
	return r, nil
}

// Client is an SDK client of the server (the Gemini API backend, a dummy
// key, no retries).
func (s *Server) Client(t testing.TB) *genai.Client {
	t.Helper()
	c, err := genai.NewClient(context.Background(), &genai.ClientConfig{APIKey: "test-key", Backend: genai.BackendGeminiAPI,
		HTTPOptions: genai.HTTPOptions{BaseURL: s.URL + "/"}})
	if err != nil {
		t.Fatalf("geminitest: %v", err)
	}
	return c
}
