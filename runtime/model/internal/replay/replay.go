// Package replay is the replay server the adapters' test packages
// (openaitest, anthropictest, geminitest) share: an httptest server that
// answers each POST to one path with the next recorded reply and keeps
// what it was sent.
// Each test package adds its provider's path, error body and SDK client.
package replay

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
)

// Reply is one answer of the server.
type Reply struct {
	// Status is the HTTP status (200 when zero); any other answers Body as
	// a JSON error body.
	Status int
	// Body is the SSE stream, or the error body.
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

	path      string
	errorBody func(kind, message string) string
	mu        sync.Mutex
	replies   []Reply
	requests  [][]byte
	goneOnce  sync.Once
}

// NewServer starts a server answering POST path (every path under it when
// it ends with "/"), closed at the test's end.
// errorBody is the provider's JSON error body for an error of its kind
// ("not_found", "server_error") the server itself answers.
func NewServer(t testing.TB, path string, errorBody func(kind, message string) string, replies ...Reply) *Server {
	s := Start(path, errorBody, replies...)
	t.Cleanup(s.Close)
	return s
}

// Start is NewServer for code without a testing.TB (Example functions,
// programs): the caller closes the server.
func Start(path string, errorBody func(kind, message string) string, replies ...Reply) *Server {
	s := &Server{replies: replies, Gone: make(chan struct{}), path: path, errorBody: errorBody}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	return s
}

// Fixture reads an SSE stream from a file, failing the test if it cannot.
func Fixture(t testing.TB, path string) Reply {
	t.Helper()
	r, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// Load reads an SSE stream from a file.
func Load(path string) (Reply, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return Reply{}, fmt.Errorf("replay: reading the fixture: %w", err)
	}
	return Reply{Body: b}, nil
}

// Requests are the bodies of the requests served so far, in order.
func (s *Server) Requests() [][]byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([][]byte(nil), s.requests...)
}

func (s *Server) serves(path string) bool {
	if strings.HasSuffix(s.path, "/") {
		return strings.HasPrefix(path, s.path)
	}
	return path == s.path
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	s.mu.Lock()
	n := len(s.requests)
	s.requests = append(s.requests, body)
	s.mu.Unlock()
	if r.Method != http.MethodPost || !s.serves(r.URL.Path) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusNotFound)
		_, _ = io.WriteString(w, s.errorBody("not_found", "the replay server serves POST "+s.path+" only"))
		return
	}
	if n >= len(s.replies) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusInternalServerError)
		_, _ = io.WriteString(w, s.errorBody("server_error", "no reply left for this request"))
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
