package a2ahttp_test

import (
	"bytes"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/agui-gen/agui-gen/examples/a2a-demo/echo"
	a2a "github.com/agui-gen/agui-gen/gen/a2a"
)

func fuzzHandler(t testing.TB) http.Handler {
	agent := echo.New()
	card := echo.Card("http://127.0.0.1:1")
	agent.ExtendedCard = card
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	h, err := a2a.NewHandler(a2a.BindA2AService(agent), card, a2a.WithLogger(quiet), a2a.WithMaxBodyBytes(64<<10))
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// FuzzJSONRPC sends arbitrary bodies to the JSON-RPC binding: every answer
// is a JSON-RPC response (or 204 for notifications), never a crash.
func FuzzJSONRPC(f *testing.F) {
	for _, seed := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"messageId":"m","role":"ROLE_USER","parts":[{"text":"hi"}]}}}`,
		`{"jsonrpc":"2.0","id":"x","method":"SendStreamingMessage","params":{"message":{"messageId":"m","role":"ROLE_USER","parts":[{"text":"hi"}]}}}`,
		`{"jsonrpc":"2.0","id":2,"method":"ListTasks","params":{"pageSize":5,"status":"TASK_STATE_COMPLETED"}}`,
		`[{"jsonrpc":"2.0","id":1,"method":"GetTask","params":{"id":"a"}},{"jsonrpc":"2.0","method":"GetTask"}]`,
		`{"jsonrpc":"2.0","method":"GetExtendedAgentCard"}`,
		`{"jsonrpc":"2.0","id":null,"method":"GetTask","params":{"id":"\ud800"}}`,
		`[]`, `{`, `null`, `[1,2]`,
		// A2A 0.3's methods, served beside 1.0's when no version is named.
		`{"jsonrpc":"2.0","id":3,"method":"message/send","params":{"message":{"kind":"message","messageId":"m","role":"user","parts":[{"kind":"file","file":{"bytes":"AAE=","name":"a"}},{"kind":"data","data":{}}]},"configuration":{"blocking":false,"historyLength":2,"pushNotificationConfig":{"url":"http://x","authentication":{"schemes":["Bearer"]}}}}}`,
		`{"jsonrpc":"2.0","id":4,"method":"message/stream","params":{"message":{"kind":"message","messageId":"m","role":"agent","parts":[{"kind":"text","text":"hi"}]}}}`,
		`{"jsonrpc":"2.0","id":5,"method":"tasks/pushNotificationConfig/get","params":{"id":"t","pushNotificationConfigId":"c"}}`,
		`{"jsonrpc":"2.0","id":6,"method":"tasks/get","params":{"id":"t","historyLength":99999999999}}`,
	} {
		f.Add([]byte(seed))
	}
	h := fuzzHandler(f)
	f.Fuzz(func(t *testing.T, body []byte) {
		req := httptest.NewRequest(http.MethodPost, "/", bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		if !bytes.Contains(body, []byte("/")) { // a 0.3 method names no version
			req.Header.Set("A2A-Version", "1.0")
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		out := rec.Body.Bytes()
		switch {
		case rec.Code == http.StatusNoContent:
			if len(out) != 0 {
				t.Fatalf("204 with a body: %s", out)
			}
		case strings.HasPrefix(rec.Header().Get("Content-Type"), "text/event-stream"):
			for _, line := range strings.Split(string(out), "\n") {
				if data, ok := strings.CutPrefix(line, "data: "); ok && !json.Valid([]byte(data)) {
					t.Fatalf("event is not JSON: %s", data)
				}
			}
		default:
			if !json.Valid(out) || !bytes.Contains(out, []byte(`"jsonrpc":"2.0"`)) {
				t.Fatalf("%d: not a JSON-RPC answer: %s", rec.Code, out)
			}
		}
	})
}

// FuzzREST sends arbitrary methods, paths, queries and bodies to the
// HTTP+JSON binding: every answer is JSON or an event stream.
func FuzzREST(f *testing.F) {
	f.Add("GET", "/tasks/abc", "historyLength=2", []byte(nil))
	f.Add("GET", "/acme/tasks", "status=TASK_STATE_WORKING&pageSize=1&includeArtifacts=true&statusTimestampAfter=2026-01-01T00:00:00Z", []byte(nil))
	f.Add("POST", "/message:send", "", []byte(`{"message":{"messageId":"m","role":"ROLE_USER","parts":[{"text":"hi"}]}}`))
	f.Add("POST", "/message:stream", "", []byte(`{"message":{"messageId":"m","role":2,"parts":[{"data":{"a":[1]}}]}}`))
	f.Add("POST", "/tasks/a%2Fb:cancel", "", []byte(`{}`))
	f.Add("GET", "/tasks/x:subscribe", "", []byte(nil))
	f.Add("DELETE", "/t/tasks/x/pushNotificationConfigs/y", "", []byte(nil))
	f.Add("PATCH", "/tasks/%zz", "a=%", []byte("{"))
	// A2A 0.3's paths, served as 0.3 when no version is named.
	f.Add("POST", "/v1/message:send", "", []byte(`{"message":{"messageId":"m","role":"ROLE_USER","content":[{"file":{"fileWithBytes":"AAE=","mimeType":"a/b"}},{"data":{"data":{}}}]},"configuration":{"blocking":true,"historyLength":2}}`))
	f.Add("GET", "/v1/tasks/abc", "historyLength=2", []byte(nil))
	f.Add("POST", "/v1/tasks/abc/pushNotificationConfigs", "", []byte(`{"name":"tasks/abc/pushNotificationConfigs/c","pushNotificationConfig":{"url":"http://x","authentication":{"schemes":["Bearer"]}}}`))
	f.Add("DELETE", "/v1/tasks/abc/pushNotificationConfigs/c", "", []byte(nil))
	f.Add("POST", "/v1/tasks/abc:subscribe", "", []byte(nil))
	f.Add("GET", "/v1/card", "", []byte(nil))
	h := fuzzHandler(f)
	f.Fuzz(func(t *testing.T, method, path, query string, body []byte) {
		u := &url.URL{Path: "/", RawQuery: query}
		if p, err := url.PathUnescape(path); err == nil && strings.HasPrefix(path, "/") {
			u.Path, u.RawPath = p, path
		}
		if !validMethod(method) {
			method = http.MethodGet
		}
		req := httptest.NewRequest(http.MethodGet, "/", bytes.NewReader(body))
		req.Method, req.URL = method, u
		req.Header.Set("Content-Type", "application/json")
		if !strings.HasPrefix(u.Path, "/v1/") { // a 0.3 client names no version
			req.Header.Set("A2A-Version", "1.0")
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		ct := rec.Header().Get("Content-Type")
		switch {
		case rec.Code == http.StatusNoContent || rec.Code == http.StatusNotModified:
		case strings.HasPrefix(ct, "text/event-stream"):
		case strings.Contains(ct, "json"):
			if !json.Valid(rec.Body.Bytes()) {
				t.Fatalf("%s %s: not JSON: %s", method, path, rec.Body.Bytes())
			}
		default:
			t.Fatalf("%s %s: %d with Content-Type %q", method, path, rec.Code, ct)
		}
	})
}

func validMethod(m string) bool {
	if m == "" || len(m) > 10 {
		return false
	}
	for _, r := range m {
		if r < 'A' || r > 'Z' {
			return false
		}
	}
	return true
}
