// Package openaitest is a replay server for Chat Completions streams: an
// httptest server that answers each request with the next recorded SSE
// stream and keeps what it was sent, so an agent on runtime/model/openai
// is tested on the SDK's own code paths without the network.
package openaitest

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"sync"
	"testing"

	oai "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
)

// Reply is one answer of the server.
type Reply struct {
	// Status is the HTTP status (200 when zero); any other answers Body as
	// a JSON error body.
	Status int
	// Body is the SSE stream (data: <chunk> lines), or the error body.
	Body []byte
	// Hold keeps the response open after Body until the client goes away,
	// as a model still generating does; Server.Gone is closed then.
	Hold bool
}

// Server replays Replies, one a request, in order.
type Server struct {
	*httptest.Server
	// Gone is closed when a client left a held reply (its request's context
	// ended: the connection closed).
	Gone chan struct{}

	mu       sync.Mutex
	replies  []Reply
	requests [][]byte
	goneOnce sync.Once
}

// NewServer starts a replay server, closed at the test's end.
func NewServer(t testing.TB, replies ...Reply) *Server {
	s := &Server{replies: replies, Gone: make(chan struct{})}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Close)
	return s
}

// Fixture reads an SSE stream from a file, failing the test if it cannot.
func Fixture(t testing.TB, path string) Reply {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("openaitest: reading the fixture: %v", err)
	}
	return Reply{Body: b}
}

// Client is an SDK client of the server: no retries, a dummy key.
func (s *Server) Client(opts ...option.RequestOption) oai.Client {
	return oai.NewClient(append([]option.RequestOption{option.WithBaseURL(s.URL + "/v1/"),
		option.WithAPIKey("test-key"), option.WithMaxRetries(0)}, opts...)...)
}

// Requests are the bodies of the requests served so far, in order.
func (s *Server) Requests() [][]byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([][]byte(nil), s.requests...)
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	s.mu.Lock()
	n := len(s.requests)
	s.requests = append(s.requests, body)
	s.mu.Unlock()
	if r.Method != http.MethodPost || r.URL.Path != "/v1/chat/completions" {
		http.Error(w, `{"error":{"message":"openaitest serves POST /v1/chat/completions only","type":"invalid_request_error"}}`, http.StatusNotFound)
		return
	}
	if n >= len(s.replies) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusInternalServerError)
		_, _ = io.WriteString(w, `{"error":{"message":"openaitest: no reply left for this request","type":"server_error"}}`)
		return
	}
	reply := s.replies[n]
	if reply.Status != 0 && reply.Status != http.StatusOK {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(reply.Status)
		_, _ = w.Write(reply.Body)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	_, _ = w.Write(reply.Body)
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
	if reply.Hold {
		<-r.Context().Done()
		s.goneOnce.Do(func() { close(s.Gone) })
	}
}
