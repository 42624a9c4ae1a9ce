package webhook

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestCheck: http(s) URLs to public hosts pass; other schemes, loopback,
// private, link-local and special-purpose literals are refused, unless
// private networks are allowed.
func TestCheck(t *testing.T) {
	s := NewSender()
	for _, ok := range []string{"https://example.com/hook", "http://93.184.216.34:8080/x"} {
		if err := s.Check(ok); err != nil {
			t.Errorf("%s: %v", ok, err)
		}
	}
	for _, bad := range []string{"ftp://example.com/", "/relative", "http://127.0.0.1:9/hook", "http://localhost/hook", "http://[::1]/hook",
		"http://10.1.2.3/hook", "http://169.254.169.254/latest", "http://100.64.0.1/", "http://[::ffff:127.0.0.1]/"} {
		if err := s.Check(bad); err == nil {
			t.Errorf("%s passed", bad)
		}
	}
	if err := NewSender(WithPrivateNetworks()).Check("http://127.0.0.1:9/hook"); err != nil {
		t.Errorf("private networks allowed: %v", err)
	}
}

// TestSendRefusesAPrivateAddressWhenDialled: a name that resolves to
// loopback is refused when dialled, and not tried again.
func TestSendRefusesAPrivateAddressWhenDialled(t *testing.T) {
	var posts atomic.Int32
	hook := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { posts.Add(1) }))
	defer hook.Close()
	named := strings.Replace(hook.URL, "127.0.0.1", "localhost", 1)
	start := time.Now()
	err := NewSender(WithAttempts(3, time.Second)).Send(context.Background(), Target{URL: named}, []byte(`{}`))
	if !errors.Is(err, ErrBlockedTarget) {
		t.Fatalf("a name for loopback: %v", err)
	}
	if posts.Load() != 0 || time.Since(start) > 900*time.Millisecond {
		t.Fatalf("%d posts in %s: a refused target was tried again", posts.Load(), time.Since(start))
	}
}

// TestSendRetries: a post that fails with 503 is tried again until it
// passes, one that fails with 400 is not; the body and the credentials go
// on each.
func TestSendRetries(t *testing.T) {
	var posts atomic.Int32
	status := http.StatusServiceUnavailable
	hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := posts.Add(1)
		body, _ := io.ReadAll(r.Body)
		if string(body) != `{"a":1}` || r.Header.Get(TokenHeader) != "tok" || r.Header.Get(LegacyTokenHeader) != "tok" ||
			r.Header.Get("Authorization") != "Bearer xyz" || r.Header.Get("Content-Type") != "application/json" {
			t.Errorf("post %d: %s %v", n, body, r.Header)
		}
		if n < 3 {
			w.WriteHeader(status)
		}
	}))
	defer hook.Close()
	s := NewSender(WithPrivateNetworks(), WithAttempts(5, time.Millisecond))
	target := Target{URL: hook.URL, Token: "tok", Authorization: "Bearer xyz"}
	if err := s.Send(context.Background(), target, []byte(`{"a":1}`)); err != nil {
		t.Fatal(err)
	}
	if n := posts.Load(); n != 3 {
		t.Fatalf("%d posts, want 3", n)
	}
	posts.Store(0)
	status = http.StatusBadRequest
	if err := s.Send(context.Background(), target, []byte(`{"a":1}`)); err == nil || posts.Load() != 1 {
		t.Fatalf("a 400: %v after %d posts", err, posts.Load())
	}
}

// TestRedirectDropsCredentials: a redirect to another host does not carry
// the token nor the authorization.
func TestRedirectDropsCredentials(t *testing.T) {
	var got http.Header
	other := httptest.NewServer(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) { got = r.Header.Clone() }))
	defer other.Close()
	elsewhere := strings.Replace(other.URL, "127.0.0.1", "localhost", 1)
	hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, elsewhere, http.StatusTemporaryRedirect)
	}))
	defer hook.Close()
	err := NewSender(WithPrivateNetworks()).Send(context.Background(), Target{URL: hook.URL, Token: "tok", Authorization: "Bearer xyz"}, []byte(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	if got == nil || got.Get(TokenHeader) != "" || got.Get(LegacyTokenHeader) != "" || got.Get("Authorization") != "" {
		t.Fatalf("the redirected post: %v", got)
	}
}

func TestRedactAndLongest(t *testing.T) {
	if got := Redact("https://user:pw@example.com/hook?key=secret"); got != "https://example.com/hook" {
		t.Errorf("redacted: %s", got)
	}
	s := NewSender(WithAttempts(3, time.Second), WithTimeout(10*time.Second))
	if got := s.Longest(); got != 30*time.Second+time.Second+2*time.Second {
		t.Errorf("longest: %s", got)
	}
}
