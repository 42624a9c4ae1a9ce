package a2ahttp_test

import (
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	a2a "github.com/agui-gen/agui-gen/gen/a2a"
)

const pageOrigin = "http://localhost:5173"

func corsPreflight(t *testing.T, url, origin, method, headers string) *http.Response {
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

func corsOf(h http.Header) map[string]string {
	out := map[string]string{}
	for k, v := range h {
		if strings.HasPrefix(k, "Access-Control-") {
			out[k] = strings.Join(v, ", ")
		}
	}
	return out
}

var pathVariable = regexp.MustCompile(`\{[^}]*\}`)

// The preflight of JSON-RPC and of every HTTP+JSON route the proto binds
// (tenant bindings and v0.3's paths included) is answered for an allowed
// origin, with the headers an A2A client sends.
func TestCORSPreflightEveryRoute(t *testing.T) {
	base, _ := serveEcho(t, a2a.WithCORS(a2a.CORS{AllowedOrigins: []string{pageOrigin}, MaxAge: 90 * time.Second}))
	const asked = "a2a-extensions,a2a-version,authorization,content-type,last-event-id,traceparent"
	routes := []struct{ method, path string }{{http.MethodPost, "/"}, {http.MethodPost, "/v1/message:send"}, {http.MethodGet, "/v1/tasks/t1"}}
	for _, m := range a2a.A2AService.Methods {
		for _, rule := range m.HTTP {
			routes = append(routes, struct{ method, path string }{rule.Method, pathVariable.ReplaceAllString(rule.Path, "t1")})
		}
	}
	if len(routes) < 20 {
		t.Fatalf("only %d routes", len(routes))
	}
	for _, c := range routes {
		resp := corsPreflight(t, base+c.path, pageOrigin, c.method, asked)
		got := corsOf(resp.Header)
		want := map[string]string{"Access-Control-Allow-Origin": pageOrigin, "Access-Control-Allow-Methods": c.method,
			"Access-Control-Allow-Headers": asked, "Access-Control-Max-Age": "90"}
		if resp.StatusCode != http.StatusNoContent || len(got) != len(want) {
			t.Errorf("%s %s: preflight answered %d %v", c.method, c.path, resp.StatusCode, got)
			continue
		}
		for k, v := range want {
			if got[k] != v {
				t.Errorf("%s %s: %s is %q, want %q", c.method, c.path, k, got[k], v)
			}
		}
	}
	// JSON-RPC is POST only.
	if resp := corsPreflight(t, base+"/", pageOrigin, http.MethodDelete, ""); len(corsOf(resp.Header)) != 0 {
		t.Errorf("a preflight for DELETE /: %v", corsOf(resp.Header))
	}
}

// Calls from an allowed origin are answered whole, streams included, and
// the page may read the headers it needs; another origin gets no CORS
// header; a call without an Origin is served as before.
func TestCORSCalls(t *testing.T) {
	base, _ := serveEcho(t, a2a.WithCORS(a2a.CORS{AllowedOrigins: []string{pageOrigin}, AllowCredentials: true}))
	stream := `{"jsonrpc":"2.0","id":1,"method":"SendStreamingMessage","params":{"message":{"messageId":"m1","role":"ROLE_USER","parts":[{"text":"hello"}]}}}`
	call := func(path, origin, body string) (*http.Response, string) {
		req, _ := http.NewRequest(http.MethodPost, base+path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("A2A-Version", "1.0")
		if origin != "" {
			req.Header.Set("Origin", origin)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		data, _ := io.ReadAll(resp.Body)
		return resp, string(data)
	}
	resp, body := call("/", pageOrigin, stream)
	got := corsOf(resp.Header)
	if resp.StatusCode != http.StatusOK || got["Access-Control-Allow-Origin"] != pageOrigin || got["Access-Control-Allow-Credentials"] != "true" ||
		!strings.Contains(body, "TASK_STATE_COMPLETED") {
		t.Fatalf("a stream from an allowed origin: %d %v\n%s", resp.StatusCode, got, body)
	}
	if want := "A2a-Version, A2a-Extensions, Retry-After, Www-Authenticate, Allow"; got["Access-Control-Expose-Headers"] != want {
		t.Errorf("exposed: %q, want %q", got["Access-Control-Expose-Headers"], want)
	}
	send := `{"message":{"messageId":"m2","role":"ROLE_USER","parts":[{"text":"hi"}]}}`
	if resp, body := call("/message:send", pageOrigin, send); resp.StatusCode != http.StatusOK || resp.Header.Get("Access-Control-Allow-Origin") != pageOrigin {
		t.Errorf("HTTP+JSON from an allowed origin: %d %v %s", resp.StatusCode, corsOf(resp.Header), body)
	}
	for _, origin := range []string{"https://evil.example", ""} {
		if resp, body := call("/", origin, stream); resp.StatusCode != http.StatusOK || len(corsOf(resp.Header)) != 0 || !strings.Contains(body, "TASK_STATE_COMPLETED") {
			t.Errorf("a stream from origin %q: %d %v", origin, resp.StatusCode, corsOf(resp.Header))
		}
	}
	if resp := corsPreflight(t, base+"/", "https://evil.example", http.MethodPost, "content-type"); len(corsOf(resp.Header)) != 0 {
		t.Errorf("a preflight from another origin: %v", corsOf(resp.Header))
	}
}

// Without WithCORS a preflight is refused as a method the route does not
// serve, on both bindings; the card stays readable from any origin.
func TestCORSOffByDefault(t *testing.T) {
	base, _ := serveEcho(t)
	for _, path := range []string{"/", "/message:send"} {
		resp := corsPreflight(t, base+path, pageOrigin, http.MethodPost, "content-type,a2a-version")
		if resp.StatusCode == http.StatusNoContent || resp.StatusCode == http.StatusOK || len(corsOf(resp.Header)) != 0 {
			t.Errorf("OPTIONS %s: %d %v", path, resp.StatusCode, corsOf(resp.Header))
		}
	}
	resp := corsPreflight(t, base+a2a.WellKnownCardPath, pageOrigin, http.MethodGet, "a2a-version")
	if resp.Header.Get("Access-Control-Allow-Origin") != "*" {
		t.Errorf("the card's preflight: %v", corsOf(resp.Header))
	}
}
