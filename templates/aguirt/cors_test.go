package aguirt

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	agui "github.com/agui-gen/agui-gen/gen/agui"
)

const pageOrigin = "http://localhost:5173"

// corsServer serves a handler with opts at /agent and /agent/, as the docs
// mount it.
func corsServer(t *testing.T, opts ...Option) *httptest.Server {
	t.Helper()
	agent := AgentFunc(func(ctx context.Context, in *agui.RunAgentInput, s *Stream) error { return s.Text("hello") })
	yes := true
	h := NewHandler(agent, append([]Option{WithLogger(quietLogger()), WithMetaStore(NewMemoryMeta()),
		WithCapabilities(&agui.AgentCapabilities{Transport: &agui.TransportCapabilities{Streaming: &yes}})}, opts...)...)
	mux := http.NewServeMux()
	mux.Handle("/agent", h)
	mux.Handle("/agent/", h)
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

// preflight sends the OPTIONS request a browser sends before method on
// path with the given request headers.
func preflight(t *testing.T, url, origin, method, headers string) *http.Response {
	t.Helper()
	req, _ := http.NewRequest(http.MethodOptions, url, nil)
	req.Header.Set("Origin", origin)
	req.Header.Set("Access-Control-Request-Method", method)
	if headers != "" {
		req.Header.Set("Access-Control-Request-Headers", headers)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp
}

// corsHeadersOf are the Access-Control-* headers of a response.
func corsHeadersOf(h http.Header) map[string]string {
	out := map[string]string{}
	for k, v := range h {
		if strings.HasPrefix(k, "Access-Control-") {
			out[k] = strings.Join(v, ", ")
		}
	}
	return out
}

// The preflight of every route is answered for an allowed origin, with the
// headers a resuming, authenticated, traced client sends.
func TestCORSPreflightEveryRoute(t *testing.T) {
	srv := corsServer(t, WithCORS(CORS{AllowedOrigins: []string{pageOrigin}, AllowCredentials: true, MaxAge: 10 * time.Minute}))
	const asked = "authorization,content-type,last-event-id,traceparent"
	for _, c := range []struct{ method, path string }{
		{http.MethodPost, "/agent"},
		{http.MethodGet, "/agent" + agui.CapabilitiesPath},
		{http.MethodPost, "/agent" + agui.CancelPath},
		{http.MethodPost, "/agent" + MetaPath},
		{http.MethodGet, "/agent" + MetaPath},
	} {
		resp := preflight(t, srv.URL+c.path, pageOrigin, c.method, asked)
		want := map[string]string{
			"Access-Control-Allow-Origin":      pageOrigin,
			"Access-Control-Allow-Methods":     c.method,
			"Access-Control-Allow-Headers":     asked,
			"Access-Control-Allow-Credentials": "true",
			"Access-Control-Max-Age":           "600",
		}
		got := corsHeadersOf(resp.Header)
		if resp.StatusCode != http.StatusNoContent || len(got) != len(want) {
			t.Errorf("%s %s: preflight answered %d %v", c.method, c.path, resp.StatusCode, got)
			continue
		}
		for k, v := range want {
			if got[k] != v {
				t.Errorf("%s %s: %s is %q, want %q", c.method, c.path, k, got[k], v)
			}
		}
		if !strings.Contains(resp.Header.Get("Vary"), "Origin") {
			t.Errorf("%s %s: Vary is %q", c.method, c.path, resp.Header.Get("Vary"))
		}
	}
}

// A run from an allowed origin streams whole, with the origin allowed and
// the refusal headers and a resumable run's start id exposed; a
// capabilities read too.
func TestCORSActualRequests(t *testing.T) {
	srv := corsServer(t, WithCORS(CORS{AllowedOrigins: []string{"https://*.example.com", pageOrigin}}))
	req, _ := http.NewRequest(http.MethodPost, srv.URL+"/agent", strings.NewReader(runInput))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Origin", "https://app.example.com")
	resp, body := do(t, req)
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Access-Control-Allow-Origin") != "https://app.example.com" ||
		!strings.Contains(body, `"type":"RUN_FINISHED"`) || !strings.Contains(body, `"delta":"hello"`) {
		t.Fatalf("a run from an allowed origin: %d %v\n%s", resp.StatusCode, corsHeadersOf(resp.Header), body)
	}
	if got := resp.Header.Get("Access-Control-Expose-Headers"); got != "Retry-After, Www-Authenticate, Ag-Ui-Resume-Id" {
		t.Errorf("exposed: %q", got)
	}
	if resp.Header.Get("Access-Control-Allow-Credentials") != "" {
		t.Error("credentials allowed without AllowCredentials")
	}
	req, _ = http.NewRequest(http.MethodGet, srv.URL+"/agent"+agui.CapabilitiesPath, nil)
	req.Header.Set("Origin", pageOrigin)
	resp, body = do(t, req)
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Access-Control-Allow-Origin") != pageOrigin || !strings.Contains(body, "streaming") {
		t.Errorf("capabilities from an allowed origin: %d %v %s", resp.StatusCode, corsHeadersOf(resp.Header), body)
	}
}

// An origin not on the list, or a header not allowed, gets no CORS header,
// and the browser keeps the answer from the page; a request without an
// Origin is served as before.
func TestCORSRefusals(t *testing.T) {
	srv := corsServer(t, WithCORS(CORS{AllowedOrigins: []string{pageOrigin}, AllowedHeaders: []string{"X-API-Key"}}))
	if resp := preflight(t, srv.URL+"/agent", "https://evil.example", http.MethodPost, "content-type"); len(corsHeadersOf(resp.Header)) != 0 {
		t.Errorf("a preflight from another origin: %v", corsHeadersOf(resp.Header))
	}
	if resp := preflight(t, srv.URL+"/agent", pageOrigin, http.MethodPost, "content-type,x-other"); len(corsHeadersOf(resp.Header)) != 0 {
		t.Errorf("a preflight asking for a header not allowed: %v", corsHeadersOf(resp.Header))
	}
	if resp := preflight(t, srv.URL+"/agent", pageOrigin, http.MethodPost, "content-type,x-api-key"); resp.Header.Get("Access-Control-Allow-Origin") != pageOrigin {
		t.Errorf("a preflight asking for a header of AllowedHeaders: %v", corsHeadersOf(resp.Header))
	}
	if resp := preflight(t, srv.URL+"/agent", pageOrigin, http.MethodDelete, ""); len(corsHeadersOf(resp.Header)) != 0 {
		t.Errorf("a preflight for a method no route serves: %v", corsHeadersOf(resp.Header))
	}
	for _, origin := range []string{"https://evil.example", ""} {
		req, _ := http.NewRequest(http.MethodPost, srv.URL+"/agent", strings.NewReader(runInput))
		req.Header.Set("Content-Type", "application/json")
		if origin != "" {
			req.Header.Set("Origin", origin)
		}
		resp, body := do(t, req)
		if resp.StatusCode != http.StatusOK || len(corsHeadersOf(resp.Header)) != 0 || !strings.Contains(body, "RUN_FINISHED") {
			t.Errorf("a run from origin %q: %d %v", origin, resp.StatusCode, corsHeadersOf(resp.Header))
		}
	}
}

// Without WithCORS, or with no origins, nothing changes: a preflight is a
// method the routes do not serve.
func TestCORSOffByDefault(t *testing.T) {
	for name, opts := range map[string][]Option{"no option": nil, "no origins": {WithCORS(CORS{MaxAge: time.Hour})}} {
		srv := corsServer(t, opts...)
		resp := preflight(t, srv.URL+"/agent", pageOrigin, http.MethodPost, "content-type")
		if resp.StatusCode != http.StatusMethodNotAllowed || resp.Header.Get("Allow") != "POST" || len(corsHeadersOf(resp.Header)) != 0 {
			t.Errorf("%s: a preflight got %d %v", name, resp.StatusCode, resp.Header)
		}
		req, _ := http.NewRequest(http.MethodPost, srv.URL+"/agent", strings.NewReader(runInput))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Origin", pageOrigin)
		resp, body := do(t, req)
		if resp.StatusCode != http.StatusOK || len(corsHeadersOf(resp.Header)) != 0 || !strings.Contains(body, "RUN_FINISHED") {
			t.Errorf("%s: a run with an Origin: %d %v", name, resp.StatusCode, corsHeadersOf(resp.Header))
		}
	}
}

// Every origin ("*") is allowed without credentials, which the Fetch
// standard refuses with it.
func TestCORSAnyOrigin(t *testing.T) {
	srv := corsServer(t, WithCORS(CORS{AllowedOrigins: []string{"*"}, AllowCredentials: true}))
	resp := preflight(t, srv.URL+"/agent", "https://anywhere.example", http.MethodPost, "authorization,content-type")
	if got := corsHeadersOf(resp.Header); got["Access-Control-Allow-Origin"] != "*" || got["Access-Control-Allow-Credentials"] != "" {
		t.Errorf("preflight with *: %v", got)
	}
}

func do(t *testing.T, req *http.Request) (*http.Response, string) {
	t.Helper()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var b strings.Builder
	buf := make([]byte, 4096)
	for {
		n, err := resp.Body.Read(buf)
		b.Write(buf[:n])
		if err != nil {
			break
		}
	}
	return resp, b.String()
}
