package crossorigin

import (
	"bytes"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

var served = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Retry-After", "5")
	w.WriteHeader(http.StatusTeapot)
})

// call sends method to h from origin, as a browser would, and returns the
// response.
func call(h http.Handler, method, origin string, header ...string) *http.Response {
	req := httptest.NewRequest(method, "/agent", nil)
	if origin != "" {
		req.Header.Set("Origin", origin)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec.Result()
}

func TestPreflightAndCall(t *testing.T) {
	c := &CORS{AllowedOrigins: []string{"http://localhost:5173", "https://*.example.com"}, MaxAge: 10 * time.Minute,
		AllowedHeaders: []string{"X-Api-Key"}}
	h := c.Handler(served, slog.Default(), "test", []string{http.MethodPost}, []string{"Content-Type", "Authorization"}, []string{"Retry-After", "AG-UI-Resume-ID"})
	pre := call(h, http.MethodOptions, "https://app.example.com", "Access-Control-Request-Method", "POST",
		"Access-Control-Request-Headers", "content-type,x-api-key")
	if pre.StatusCode/100 != 2 || pre.Header.Get("Access-Control-Allow-Origin") != "https://app.example.com" ||
		pre.Header.Get("Access-Control-Max-Age") != "600" || !strings.Contains(strings.ToLower(pre.Header.Get("Access-Control-Allow-Headers")), "x-api-key") {
		t.Errorf("preflight: %d %v", pre.StatusCode, pre.Header)
	}
	got := call(h, http.MethodPost, "http://localhost:5173")
	if got.StatusCode != http.StatusTeapot || got.Header.Get("Access-Control-Allow-Origin") != "http://localhost:5173" ||
		got.Header.Get("Access-Control-Expose-Headers") != "Retry-After, Ag-Ui-Resume-Id" { // names are case-insensitive
		t.Errorf("call: %d %v", got.StatusCode, got.Header)
	}
	// Another origin is served, but with no CORS header, so the browser
	// keeps the answer from its page; so is a request with no Origin.
	for _, origin := range []string{"http://evil.test", ""} {
		if r := call(h, http.MethodPost, origin); r.StatusCode != http.StatusTeapot || r.Header.Get("Access-Control-Allow-Origin") != "" {
			t.Errorf("from %q: %d %v", origin, r.StatusCode, r.Header)
		}
	}
}

// TestOffAndCredentials: no origins leaves the handler as it is, and
// credentials are never allowed from every origin.
func TestOffAndCredentials(t *testing.T) {
	var nothing *CORS
	if h := nothing.Handler(served, slog.Default(), "test", nil, nil, nil); call(h, http.MethodOptions, "http://a.test").StatusCode != http.StatusTeapot {
		t.Error("a nil CORS answered a preflight")
	}
	var log bytes.Buffer
	c := &CORS{AllowedOrigins: []string{"*"}, AllowCredentials: true}
	h := c.Handler(served, slog.New(slog.NewTextHandler(&log, nil)), "test", []string{http.MethodPost}, nil, nil)
	r := call(h, http.MethodPost, "http://a.test")
	if r.Header.Get("Access-Control-Allow-Credentials") != "" || !strings.Contains(log.String(), "credentials are not allowed from every origin") {
		t.Errorf("credentials with *: %v; log %q", r.Header, log.String())
	}
}
