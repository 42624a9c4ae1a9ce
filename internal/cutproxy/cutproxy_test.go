package cutproxy

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
)

// TestCutsTheFirstStreams: the first event stream ends with an error after
// its byte budget, the client holding exactly those bytes; the next stream
// and any other response pass whole.
func TestCutsTheFirstStreams(t *testing.T) {
	stream := strings.Repeat("data: {}\n\n", 100)
	backend := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/page" {
			io.WriteString(w, "<p>page</p>")
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		for i := range 100 {
			io.WriteString(w, stream[i*10:(i+1)*10])
			w.(http.Flusher).Flush()
		}
	}))
	defer backend.Close()
	target, _ := url.Parse(backend.URL)
	p := New(target, 25)
	front := httptest.NewServer(p)
	defer front.Close()

	get := func(path string) (string, error) {
		res, err := http.Get(front.URL + path)
		if err != nil {
			return "", err
		}
		defer res.Body.Close()
		b, err := io.ReadAll(res.Body)
		return string(b), err
	}
	if got, err := get("/page"); err != nil || got != "<p>page</p>" {
		t.Errorf("a page: %q, %v", got, err)
	}
	got, err := get("/events")
	if err == nil || got != stream[:25] {
		t.Errorf("the first stream: %q, %v; want its first 25 bytes and an error", got, err)
	}
	if got, err := get("/events"); err != nil || got != stream {
		t.Errorf("the second stream: %d bytes, %v; want it whole", len(got), err)
	}
	select {
	case <-p.Cut(0):
	default:
		t.Error("Cut(0) is not closed after the cut")
	}
	if p.Cuts() != 1 {
		t.Errorf("%d cuts, want 1", p.Cuts())
	}
}

// TestCutAfterTheHeader: a stream cut after 0 bytes reaches its client
// with its status and header, then fails before any byte of its body,
// even when the server has sent its whole body at once.
func TestCutAfterTheHeader(t *testing.T) {
	backend := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.Header().Set("X-Start", "s0")
		io.WriteString(w, "data: {}\n\n")
	}))
	defer backend.Close()
	target, _ := url.Parse(backend.URL)
	p := New(target, 0)
	front := httptest.NewServer(p)
	defer front.Close()
	for range 20 { // the cut never beats the header
		res, err := http.Get(front.URL + "/events")
		if err != nil {
			t.Fatalf("the header did not come: %v", err)
		}
		b, err := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusOK || res.Header.Get("X-Start") != "s0" || len(b) != 0 || err == nil {
			t.Fatalf("a stream cut after its header: %d, X-Start %q, body %q, %v", res.StatusCode, res.Header.Get("X-Start"), b, err)
		}
		p.mu.Lock()
		p.cutAfter = []int{0}
		p.cut = append(p.cut, make(chan struct{}))
		p.mu.Unlock()
	}
}

// TestCutsBeforeTheHeader: a stream cut BeforeHeader reaches the server,
// and its client gets no response at all, not an error status.
func TestCutsBeforeTheHeader(t *testing.T) {
	reached := make(chan struct{}, 1)
	backend := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		reached <- struct{}{}
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, "data: {}\n\n")
	}))
	defer backend.Close()
	target, _ := url.Parse(backend.URL)
	p := New(target, BeforeHeader)
	front := httptest.NewServer(p)
	defer front.Close()
	res, err := http.Post(front.URL+"/run", "application/json", strings.NewReader("{}"))
	if err == nil {
		res.Body.Close()
		t.Fatalf("a stream cut before its header answered %s", res.Status)
	}
	select {
	case <-reached:
	default:
		t.Error("the request did not reach the server")
	}
	if p.Cuts() != 1 {
		t.Errorf("%d cuts, want 1", p.Cuts())
	}
}
