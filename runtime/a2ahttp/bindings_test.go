// The tests of this package exercise it through gen/a2a, as users call it:
// regenerate (agui-gen generate --out gen) after changing the generator or templates/a2art.

package a2ahttp_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/agui-gen/agui-gen/examples/a2a-demo/echo"
	a2a "github.com/agui-gen/agui-gen/gen/a2a"
	"github.com/agui-gen/agui-gen/gen/a2a/a2av03"
)

// serveEcho serves the echo agent with NewHandler and returns its base URL.
func serveEcho(t *testing.T, opts ...a2a.ServerOption) (string, *echo.Agent) {
	t.Helper()
	agent := echo.New()
	var h http.Handler
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { h.ServeHTTP(w, r) }))
	t.Cleanup(srv.Close)
	card := echo.Card(srv.URL)
	agent.ExtendedCard = card
	var err error
	if h, err = a2a.NewHandler(a2a.BindA2AService(agent), card, opts...); err != nil {
		t.Fatal(err)
	}
	return srv.URL, agent
}

func userMessage(text string) *a2a.Message {
	return &a2a.Message{MessageID: "m-" + text, Role: a2a.RoleUser, Parts: []*a2a.Part{{Content: &a2a.PartText{Text: text}}}}
}

func TestClientsOverBothBindings(t *testing.T) {
	base, _ := serveEcho(t)
	ctx := context.Background()
	card, err := a2a.ResolveCard(ctx, base)
	if err != nil {
		t.Fatal(err)
	}
	for _, binding := range []string{a2a.BindingJSONRPC, a2a.BindingHTTPJSON} {
		t.Run(binding, func(t *testing.T) {
			tr, iface, err := a2a.NewTransportFromCard(card, a2a.WithPreferredBindings(binding))
			if err != nil {
				t.Fatal(err)
			}
			if iface.ProtocolBinding != binding {
				t.Fatalf("picked %s", iface.ProtocolBinding)
			}
			c := a2a.NewA2AServiceClient(tr)
			resp, err := c.SendMessage(ctx, &a2a.SendMessageRequest{Message: userMessage("hello")})
			if err != nil {
				t.Fatal(err)
			}
			task := resp.Payload.(*a2a.SendMessageResponseTask).Task
			if task.Status.State != a2a.TaskStateCompleted || task.Artifacts[0].Parts[0].Content.(*a2a.PartText).Text != "hello" {
				t.Fatalf("task: %s", task.AppendJSON(nil))
			}
			one := int32(1)
			got, err := c.GetTask(ctx, &a2a.GetTaskRequest{ID: task.ID, HistoryLength: &one})
			if err != nil {
				t.Fatal(err)
			}
			if got.ID != task.ID || len(got.History) != 1 {
				t.Fatalf("GetTask: %s", got.AppendJSON(nil))
			}
			yes, two := true, int32(2)
			list, err := c.ListTasks(ctx, &a2a.ListTasksRequest{PageSize: &two, IncludeArtifacts: &yes, Status: a2a.TaskStateCompleted})
			if err != nil {
				t.Fatal(err)
			}
			if len(list.Tasks) == 0 || list.Tasks[0].ID != task.ID || len(list.Tasks[0].Artifacts) != 1 {
				t.Fatalf("ListTasks: %s", list.AppendJSON(nil))
			}
			_, err = c.GetTask(ctx, &a2a.GetTaskRequest{ID: "no/such:task"})
			if !errors.Is(err, a2a.ErrTaskNotFound) || !strings.Contains(err.Error(), `"no/such:task"`) {
				t.Fatalf("GetTask of an unknown task: %v", err)
			}
			_, err = c.CancelTask(ctx, &a2a.CancelTaskRequest{ID: task.ID})
			if !errors.Is(err, a2a.ErrTaskNotCancelable) {
				t.Fatalf("CancelTask: %v", err)
			}
			for _, err := range c.SubscribeToTask(ctx, &a2a.SubscribeToTaskRequest{ID: task.ID}) {
				if !errors.Is(err, a2a.ErrUnsupportedOperation) {
					t.Fatalf("SubscribeToTask: %v", err)
				}
			}
			_, err = c.DeleteTaskPushNotificationConfig(ctx, &a2a.DeleteTaskPushNotificationConfigRequest{TaskID: task.ID, ID: "x"})
			if !errors.Is(err, a2a.ErrPushNotificationNotSupported) {
				t.Fatalf("DeleteTaskPushNotificationConfig: %v", err)
			}
			_, err = c.GetExtendedAgentCard(ctx, &a2a.GetExtendedAgentCardRequest{})
			if !errors.Is(err, a2a.ErrUnauthenticated) {
				t.Fatalf("GetExtendedAgentCard without a principal: %v", err)
			}
			var kinds []string
			for ev, err := range c.SendStreamingMessage(ctx, &a2a.SendMessageRequest{Message: userMessage("stream")}) {
				if err != nil {
					t.Fatal(err)
				}
				switch p := ev.Payload.(type) {
				case *a2a.StreamResponseTask:
					kinds = append(kinds, "task")
				case *a2a.StreamResponseStatusUpdate:
					kinds = append(kinds, p.StatusUpdate.Status.State.String())
				case *a2a.StreamResponseArtifactUpdate:
					kinds = append(kinds, "artifact:"+p.ArtifactUpdate.Artifact.Parts[0].Content.(*a2a.PartText).Text)
				}
			}
			want := "task TASK_STATE_WORKING artifact:stream TASK_STATE_COMPLETED"
			if strings.Join(kinds, " ") != want {
				t.Fatalf("stream: %v, want %s", kinds, want)
			}
		})
	}
}

// post sends a raw request and returns the status, a header and the body.
func post(t *testing.T, method, url, contentType, body string, header ...string) (int, http.Header, string) {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	req.Header.Set("A2A-Version", "1.0")
	for i := 0; i+1 < len(header); i += 2 {
		if header[i+1] == "" {
			req.Header.Del(header[i])
			continue
		}
		req.Header.Set(header[i], header[i+1])
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	data, _ := io.ReadAll(res.Body)
	return res.StatusCode, res.Header, string(data)
}

func TestJSONRPCErrors(t *testing.T) {
	base, _ := serveEcho(t, a2a.WithMaxBodyBytes(4096))
	const msg = `{"message":{"messageId":"m1","role":"ROLE_USER","parts":[{"text":"hi"}]}}`
	cases := []struct {
		name, body string
		header     []string
		status     int
		want       string
	}{
		{"parse error", `{"jsonrpc":"2.0","id":1,`, nil, 200, `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,`},
		{"not an object", `"hello"`, nil, 200, `"id":null,"error":{"code":-32600,`},
		{"wrong version", `{"jsonrpc":"1.0","id":7,"method":"GetTask","params":{"id":"x"}}`, nil, 200, `"id":7,"error":{"code":-32600,`},
		{"bad id", `{"jsonrpc":"2.0","id":{},"method":"GetTask","params":{"id":"x"}}`, nil, 200, `"id":null,"error":{"code":-32600,`},
		{"unknown method", `{"jsonrpc":"2.0","id":"a","method":"tasks/get","params":{"id":"x"}}`, nil, 200, `"id":"a","error":{"code":-32601,`},
		// A 0.3 method is served as 0.3: its errors are 0.3's, an object
		// without 1.0's details, and its params are 0.3's JSON.
		{"v0.3 method without a version", `{"jsonrpc":"2.0","id":"b","method":"tasks/get","params":{"id":"x"}}`, []string{"A2A-Version", ""}, 200,
			`{"jsonrpc":"2.0","id":"b","error":{"code":-32001,"message":"task \"x\" not found"}}`},
		{"v0.3 stream with 1.0 params", `{"jsonrpc":"2.0","id":"c","method":"message/stream","params":` + msg + `}`, []string{"A2A-Version", ""}, 200,
			`"id":"c","error":{"code":-32602,"message":"invalid params: /message/parts/0: the \"kind\" member that says which kind of value this is is missing`},
		{"v0.3 method named 1.0", `{"jsonrpc":"2.0","id":"d","method":"tasks/get","params":{"id":"x"}}`, []string{"A2A-Version", "1.0"}, 200, `"id":"d","error":{"code":-32601,`},
		{"positional params", `{"jsonrpc":"2.0","id":2,"method":"GetTask","params":["x"]}`, nil, 200, `"id":2,"error":{"code":-32602,`},
		{"missing required field", `{"jsonrpc":"2.0","id":3,"method":"SendMessage","params":{"message":{"messageId":"m","role":"ROLE_USER"}}}`, nil, 200,
			`"code":-32602,"message":"invalid params: /message/parts: required value is not set","data":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"INVALID_PARAMS","domain":"a2a-protocol.org"},{"@type":"type.googleapis.com/google.rpc.BadRequest","fieldViolations":[{"field":"message.parts","description":"required value is not set"}]}]`},
		{"wrong type", `{"jsonrpc":"2.0","id":4,"method":"GetTask","params":{"id":"x","historyLength":"many"}}`, nil, 200, `"id":4,"error":{"code":-32602,`},
		{"unknown task", `{"jsonrpc":"2.0","id":5,"method":"GetTask","params":{"id":"nope"}}`, nil, 200,
			`{"jsonrpc":"2.0","id":5,"error":{"code":-32001,"message":"task \"nope\" not found","data":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"TASK_NOT_FOUND","domain":"a2a-protocol.org"}]}}`},
		{"no version header", `{"jsonrpc":"2.0","id":6,"method":"GetTask","params":{"id":"x"}}`, []string{"A2A-Version", ""}, 200,
			`"id":6,"error":{"code":-32009,"message":"GetTask is an A2A 1.0 method, but this request names no A2A-Version, which A2A reads as version 0.3 (A2A §3.6.2): send the header A2A-Version: 1.0"`},
		{"no version header, unknown method", `{"jsonrpc":"2.0","id":6,"method":"NoSuchMethod"}`, []string{"A2A-Version", ""}, 200,
			`"id":6,"error":{"code":-32009,"message":"this request names no A2A-Version, which A2A reads as version 0.3 (A2A §3.6.2), and this agent speaks 1.0 here: send the header A2A-Version: 1.0"`},
		{"unsupported version", `{"jsonrpc":"2.0","id":6,"method":"GetTask","params":{"id":"x"}}`, []string{"A2A-Version", "2.0"}, 200, `"code":-32009,"message":"the requested A2A protocol version '2.0' is not supported`},
		{"patch ignored", `{"jsonrpc":"2.0","id":6,"method":"GetTask","params":{"id":"x"}}`, []string{"A2A-Version", "1.0.7"}, 200, `"code":-32001`},
		{"empty batch", `[]`, nil, 200, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,`},
		{"batch", `[{"jsonrpc":"2.0","id":1,"method":"GetTask","params":{"id":"a"}},{"jsonrpc":"2.0","method":"GetTask","params":{"id":"b"}},1,{"jsonrpc":"2.0","id":2,"method":"SendStreamingMessage","params":` + msg + `}]`, nil, 200,
			`[{"jsonrpc":"2.0","id":1,"error":{"code":-32001,`},
		{"stream refused for its version", `{"jsonrpc":"2.0","id":8,"method":"SendStreamingMessage","params":` + msg + `}`, []string{"A2A-Version", "2.0"}, 200,
			`{"jsonrpc":"2.0","id":8,"error":{"code":-32009,"message":"the requested A2A protocol version '2.0' is not supported; this agent speaks 1.0: send the header A2A-Version: 1.0"`},
		{"stream without a version", `{"jsonrpc":"2.0","id":9,"method":"SendStreamingMessage","params":` + msg + `}`, []string{"A2A-Version", ""}, 200,
			`{"jsonrpc":"2.0","id":9,"error":{"code":-32009,"message":"SendStreamingMessage is an A2A 1.0 method, but this request names no A2A-Version, which A2A reads as version 0.3 (A2A §3.6.2): send the header A2A-Version: 1.0"`},
		{"batch too long", "[" + strings.Repeat(`{"jsonrpc":"2.0","method":"x"},`, 64) + "1]", nil, 200,
			`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"a batch holds at most 64 requests; this one has 65"`},
		{"too large", `{"jsonrpc":"2.0","id":1,"method":"GetTask","params":{"id":"` + strings.Repeat("x", 5000) + `"}}`, nil, 413, `"code":-32600,"message":"request body of 5062 bytes exceeds the limit of 4096"`},
		{"invalid UTF-8", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"GetTask\",\"params\":{\"id\":\"\xff\"}}", nil, 400, `"code":-32700,"message":"the request body is not valid UTF-8"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			status, _, body := post(t, http.MethodPost, base, "application/json", c.body, c.header...)
			if status != c.status || !strings.Contains(body, c.want) {
				t.Fatalf("got %d %s\nwant %d containing %s", status, body, c.status, c.want)
			}
		})
	}
	t.Run("batch answers each request but the notification", func(t *testing.T) {
		i := slices.IndexFunc(cases, func(c struct {
			name, body string
			header     []string
			status     int
			want       string
		}) bool {
			return c.name == "batch"
		})
		_, _, body := post(t, http.MethodPost, base, "application/json", cases[i].body)
		if strings.Count(body, `"jsonrpc"`) != 3 || !strings.Contains(body, `"id":null,"error":{"code":-32600`) ||
			!strings.Contains(body, `"id":2,"error":{"code":-32600,"message":"SendStreamingMessage streams its answer`) {
			t.Fatalf("batch: %s", body)
		}
	})
	t.Run("notification", func(t *testing.T) {
		for _, method := range []string{"SendMessage", "SendStreamingMessage", "NoSuchMethod"} {
			status, _, body := post(t, http.MethodPost, base, "application/json", `{"jsonrpc":"2.0","method":"`+method+`","params":`+msg+`}`)
			if status != http.StatusNoContent || body != "" {
				t.Fatalf("notification %s: %d %q", method, status, body)
			}
		}
	})
	t.Run("GET", func(t *testing.T) {
		status, h, _ := post(t, http.MethodGet, base, "", "")
		if status != http.StatusMethodNotAllowed || h.Get("Allow") != "POST" {
			t.Fatalf("GET: %d Allow %q", status, h.Get("Allow"))
		}
	})
	t.Run("not JSON", func(t *testing.T) {
		status, _, _ := post(t, http.MethodPost, base, "text/plain", `{}`)
		if status != http.StatusUnsupportedMediaType {
			t.Fatalf("text/plain: %d", status)
		}
	})
}

// TestCardIsEnforced: the card NewHandler serves is what every call is
// held to (A2A §3.3.4), on both bindings, streamed or batched.
func TestCardIsEnforced(t *testing.T) {
	const ext = "https://example.com/ext/consent/v1"
	serve := func(edit func(*a2a.AgentCard)) string {
		card := echo.Card("http://placeholder")
		edit(card)
		h, err := a2a.NewHandler(a2a.BindA2AService(echo.New()), card)
		if err != nil {
			t.Fatal(err)
		}
		srv := httptest.NewServer(h)
		t.Cleanup(srv.Close)
		return srv.URL
	}
	const msg = `{"message":{"messageId":"m1","role":"ROLE_USER","parts":[{"text":"hi"}]}}`
	flat := serve(func(c *a2a.AgentCard) { c.Capabilities.Streaming = nil })
	strict := serve(func(c *a2a.AgentCard) {
		c.Capabilities.Extensions = []*a2a.AgentExtension{{URI: "https://example.com/ext/optional/v1"}, {URI: ext, Required: true}}
	})
	cases := []struct {
		name, method, url, body string
		header                  []string
		status                  int
		want                    string
	}{
		{"JSON-RPC stream without streaming", http.MethodPost, flat, `{"jsonrpc":"2.0","id":1,"method":"SendStreamingMessage","params":` + msg + `}`, nil, 200,
			"{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32004,\"message\":\"SendStreamingMessage streams, and this agent's card does not declare streaming\""},
		{"JSON-RPC subscription without streaming", http.MethodPost, flat, `{"jsonrpc":"2.0","id":2,"method":"SubscribeToTask","params":{"id":"t"}}`, nil, 200, `"code":-32004`},
		{"JSON-RPC unary without streaming", http.MethodPost, flat, `{"jsonrpc":"2.0","id":3,"method":"GetTask","params":{"id":"t"}}`, nil, 200, `"code":-32001`},
		{"REST stream without streaming", http.MethodPost, flat + "/message:stream", msg, nil, 400, `"status":"FAILED_PRECONDITION","message":"SendStreamingMessage streams`},
		{"REST subscription without streaming", http.MethodGet, flat + "/tasks/t:subscribe", "", nil, 400, `"reason":"UNSUPPORTED_OPERATION"`},
		{"JSON-RPC without the required extension", http.MethodPost, strict, `{"jsonrpc":"2.0","id":4,"method":"GetTask","params":{"id":"t"}}`, nil, 200,
			`"code":-32008,"message":"this agent requires the extension \"` + ext + `\": name it in A2A-Extensions"`},
		{"JSON-RPC with it", http.MethodPost, strict, `{"jsonrpc":"2.0","id":5,"method":"GetTask","params":{"id":"t"}}`, []string{"A2A-Extensions", "urn:other, " + ext}, 200, `"code":-32001`},
		{"JSON-RPC batch without it", http.MethodPost, strict, `[{"jsonrpc":"2.0","id":6,"method":"GetTask","params":{"id":"t"}}]`, nil, 200, `[{"jsonrpc":"2.0","id":6,"error":{"code":-32008`},
		{"REST without it", http.MethodGet, strict + "/tasks/t", "", nil, 400, `"reason":"EXTENSION_SUPPORT_REQUIRED"`},
		{"REST with it", http.MethodGet, strict + "/tasks/t", "", []string{"A2A-Extensions", ext}, 404, `"reason":"TASK_NOT_FOUND"`},
		{"the card is not behind it", http.MethodGet, strict + a2a.WellKnownCardPath, "", nil, 200, ext},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ct := ""
			if c.body != "" {
				ct = "application/json"
			}
			status, _, body := post(t, c.method, c.url, ct, c.body, c.header...)
			if status != c.status || !strings.Contains(body, c.want) {
				t.Fatalf("got %d %s\nwant %d containing %s", status, body, c.status, c.want)
			}
		})
	}
}

func TestMissingVersionServedAsOption(t *testing.T) {
	base, _ := serveEcho(t, a2a.WithMissingVersionAs("1.0"))
	_, _, body := post(t, http.MethodPost, base, "application/json", `{"jsonrpc":"2.0","id":1,"method":"GetTask","params":{"id":"x"}}`, "A2A-Version", "")
	if !strings.Contains(body, `"code":-32001`) {
		t.Fatalf("served as 1.0: %s", body)
	}
}

func TestRESTRouting(t *testing.T) {
	base, agent := serveEcho(t)
	resp, err := agent.SendMessage(context.Background(), &a2a.SendMessageRequest{Message: userMessage("x")})
	if err != nil {
		t.Fatal(err)
	}
	id := resp.Payload.(*a2a.SendMessageResponseTask).Task.ID
	cases := []struct {
		name, method, path, ctype, body string
		status                          int
		want                            string
	}{
		{"get task", "GET", "/tasks/" + id + "?historyLength=1", "", "", 200, `"id":"` + id + `"`},
		{"tenant prefix", "GET", "/acme/tasks/" + id, "", "", 200, `"id":"` + id + `"`},
		{"encoded slash is data", "GET", "/tasks/a%2Fb", "", "", 404, `"message":"task \"a/b\" not found"`},
		{"int32 range", "GET", "/tasks/" + id + "?historyLength=3000000000", "", "", 400, `"field":"historyLength","description":"\"3000000000\" is not an int32"`},
		{"bool is not coerced", "GET", "/tasks?includeArtifacts=yes", "", "", 400, `"status":"INVALID_ARGUMENT"`},
		{"enum by name", "GET", "/tasks?status=TASK_STATE_COMPLETED&pageSize=1", "", "", 200, `"tasks":[{"id":"` + id + `"`},
		{"enum by number", "GET", "/tasks?status=3", "", "", 200, `"tasks":[{"id":"` + id + `"`},
		{"unknown query parameter ignored", "GET", "/tasks?colour=blue", "", "", 200, `"tasks"`},
		{"a2a-go's name for statusTimestampAfter", "GET", "/tasks?lastUpdatedAfter=yesterday", "", "", 400, `"field":"statusTimestampAfter"`},
		{"cancel", "POST", "/tasks/" + id + ":cancel", "application/a2a+json", `{}`, 400,
			`{"error":{"code":400,"status":"FAILED_PRECONDITION","message":"task ` + id + ` is TASK_STATE_COMPLETED","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"TASK_NOT_CANCELABLE","domain":"a2a-protocol.org"}]}}`},
		{"cancel without a body", "POST", "/tasks/" + id + ":cancel", "", "", 400, `"TASK_NOT_CANCELABLE"`},
		{"subscribe with POST", "POST", "/tasks/" + id + ":subscribe", "", "", 400, `"UNSUPPORTED_OPERATION"`},
		{"send", "POST", "/message:send", "application/json", `{"message":{"messageId":"m","role":"ROLE_USER","parts":[{"text":"yo"}]}}`, 200, `{"task":{"id":"task-`},
		{"send invalid", "POST", "/message:send", "application/a2a+json", `{"message":{"messageId":"m","parts":[{"text":"x"}]}}`, 400, `"fieldViolations":[{"field":"message.role","description":"required value is not set"}]`},
		{"send not JSON", "POST", "/message:send", "text/xml", `<message/>`, 415, `"INVALID_REQUEST"`},
		{"wrong verb", "DELETE", "/tasks/" + id, "", "", 405, `"status":"UNIMPLEMENTED"`},
		{"unknown path", "GET", "/nothing/here/at/all", "", "", 404, `{"error":{"code":404,"status":"NOT_FOUND"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			status, h, body := post(t, c.method, base+c.path, c.ctype, c.body)
			if status != c.status || !strings.Contains(body, c.want) {
				t.Fatalf("%s %s: got %d %s\nwant %d containing %s", c.method, c.path, status, body, c.status, c.want)
			}
			if ct := h.Get("Content-Type"); !strings.Contains(ct, "json") {
				t.Fatalf("Content-Type %q", ct)
			}
			if c.status == 405 && h.Get("Allow") != "GET" {
				t.Fatalf("Allow %q", h.Get("Allow"))
			}
		})
	}
	// Without A2A-Version the client speaks 0.3: on a path that is not
	// 0.3's it is told so before its path is looked for, whether this
	// version has the path or not.
	for path, message := range map[string]string{
		"/nothing/here/at/all": "this request names no A2A-Version, which A2A reads as version 0.3 (A2A §3.6.2), and this agent speaks 1.0 here: send the header A2A-Version: 1.0",
		"/tasks/" + id:         "GetTask (GET /tasks/" + id + ") is an A2A 1.0 method, but this request names no A2A-Version, which A2A reads as version 0.3 (A2A §3.6.2): send the header A2A-Version: 1.0",
	} {
		status, _, body := post(t, "GET", base+path, "", "", "A2A-Version", "")
		if status != 400 || !strings.Contains(body, `"reason":"VERSION_NOT_SUPPORTED"`) || !strings.Contains(body, `"message":"`+message+`"`) {
			t.Errorf("GET %s without a version: %d %s", path, status, body)
		}
	}
}

// With the earlier versions turned off, a 0.3 client is told that its
// version is not served, never that its method does not exist.
func TestEarlierVersionsOff(t *testing.T) {
	base, _ := serveEcho(t, a2a.WithEarlierVersions())
	for _, body := range []string{
		`{"jsonrpc":"2.0","id":"b","method":"tasks/get","params":{"id":"x"}}`,
		`{"jsonrpc":"2.0","id":"b","method":"message/send","params":{"message":{"kind":"message","messageId":"m","role":"user","parts":[{"kind":"text","text":"hi"}]}}}`,
	} {
		status, _, got := post(t, http.MethodPost, base, "application/json", body, "A2A-Version", "")
		if status != 200 || !strings.Contains(got, `"id":"b","error":{"code":-32009,`) {
			t.Errorf("%s: %d %s", body, status, got)
		}
	}
	for _, path := range []string{"/v1/card", "/v1/tasks/x"} {
		status, _, body := post(t, "GET", base+path, "", "", "A2A-Version", "")
		if status != 400 || !strings.Contains(body, `"reason":"VERSION_NOT_SUPPORTED"`) {
			t.Errorf("GET %s without a version: %d %s", path, status, body)
		}
	}
	// The card is v1.0's alone, as a check against v1.0's card schema
	// wants it: none of v0.3's top-level members, no interface listed again
	// for 0.3.
	_, _, card := post(t, http.MethodGet, base+a2a.WellKnownCardPath, "", "")
	var members map[string]json.RawMessage
	if err := json.Unmarshal([]byte(card), &members); err != nil {
		t.Fatal(err)
	}
	for _, v03 := range []string{"url", "preferredTransport", "protocolVersion", "additionalInterfaces", "security"} {
		if _, ok := members[v03]; ok {
			t.Errorf("the card has v0.3's %q with v0.3 off:\n%s", v03, card)
		}
	}
	if strings.Contains(card, `"protocolVersion":"0.3"`) {
		t.Errorf("the card lists an interface for 0.3 with v0.3 off:\n%s", card)
	}
}

// 0.3's HTTP+JSON paths are served beside 1.0's, with the same service:
// bodies are 0.3's ProtoJSON, tasks are named "tasks/{id}", errors are the
// JSON-RPC error object 0.3's clients read, and a request that names 1.0
// on a 0.3 path is 1.0's (its tenant "v1").
func TestRESTEarlierVersion(t *testing.T) {
	base, _ := serveEcho(t)
	v03 := func(method, path, body string) (int, http.Header, string) { // 0.3 clients send no A2A-Version
		t.Helper()
		ct := ""
		if body != "" {
			ct = "application/json"
		}
		return post(t, method, base+path, ct, body, "A2A-Version", "")
	}
	status, h, body := v03(http.MethodPost, "/v1/message:send", `{"message":{"messageId":"m-1","role":"ROLE_USER","content":[{"text":"hello"}]}}`)
	if status != 200 || h.Get("Content-Type") != "application/json" || !strings.Contains(body, `"state":"TASK_STATE_COMPLETED"`) ||
		!strings.Contains(body, `"parts":[{"text":"hello"}]`) {
		t.Fatalf("POST /v1/message:send: %d %v %s", status, h, body)
	}
	var sent struct {
		Task struct{ ID string } `json:"task"`
	}
	if err := json.Unmarshal([]byte(body), &sent); err != nil || sent.Task.ID == "" {
		t.Fatalf("the task: %v %s", err, body)
	}
	status, _, body = v03(http.MethodGet, "/v1/tasks/"+sent.Task.ID+"?historyLength=1", "")
	if status != 200 || !strings.Contains(body, `"id":"`+sent.Task.ID+`"`) || !strings.Contains(body, `"role":"ROLE_AGENT","content":[{"text":"done"}]`) {
		t.Fatalf("GET /v1/tasks/{id}: %d %s", status, body)
	}
	status, _, body = v03(http.MethodGet, "/v1/tasks/no-such-task", "")
	if status != 404 || body != `{"code":-32001,"message":"task \"no-such-task\" not found"}` {
		t.Errorf("an unknown task: %d %s", status, body)
	}
	status, _, body = v03(http.MethodPost, "/v1/tasks/"+sent.Task.ID+":cancel", "")
	if status != 400 || !strings.Contains(body, `{"code":-32002,`) {
		t.Errorf("cancelling a completed task: %d %s", status, body)
	}
	status, _, body = v03(http.MethodPost, "/v1/message:send", `{"message":{"messageId":"m","role":"ROLE_USER","content":[{}]}}`)
	if status != 400 || !strings.Contains(body, `{"code":-32602,`) || !strings.Contains(body, "/content/0") {
		t.Errorf("a part with no content: %d %s", status, body)
	}
	status, h, body = v03(http.MethodPost, "/v1/message:stream", `{"message":{"messageId":"m-2","role":"ROLE_USER","content":[{"text":"streamed"}]}}`)
	if status != 200 || h.Get("Content-Type") != "text/event-stream" || !strings.Contains(body, `"statusUpdate":`) || !strings.Contains(body, `"final":true`) {
		t.Errorf("POST /v1/message:stream: %d %v %s", status, h, body)
	}
	// Naming 1.0, the same path is 1.0's tenant route, tenant "v1" (which
	// the echo agent does not tell from others), answered in 1.0's JSON.
	status, _, body = post(t, http.MethodGet, base+"/v1/tasks/"+sent.Task.ID, "", "", "A2A-Version", "1.0")
	if status != 200 || !strings.Contains(body, `"role":"ROLE_USER","parts":[{"text":"hello"}]`) {
		t.Errorf("a 0.3 path at 1.0: %d %s", status, body)
	}
}

func TestAgentCard(t *testing.T) {
	base, _ := serveEcho(t)
	status, h, body := post(t, http.MethodGet, base+"/.well-known/agent-card.json", "", "")
	if status != 200 || h.Get("Access-Control-Allow-Origin") != "*" || h.Get("ETag") == "" || !strings.Contains(body, `"name":"echo"`) {
		t.Fatalf("card: %d %v %s", status, h, body)
	}
	status, _, _ = post(t, http.MethodGet, base+"/.well-known/agent-card.json", "", "", "If-None-Match", h.Get("ETag"))
	if status != http.StatusNotModified {
		t.Fatalf("If-None-Match: %d", status)
	}
	status, h, _ = post(t, http.MethodOptions, base+"/.well-known/agent-card.json", "", "", "Access-Control-Request-Headers", "a2a-version")
	if status != http.StatusNoContent || h.Get("Access-Control-Allow-Headers") != "a2a-version" {
		t.Fatalf("preflight: %d %v", status, h)
	}
}

func TestExtendedCardBehindAuth(t *testing.T) {
	base, _ := serveEcho(t, a2a.WithAuthenticator(func(r *http.Request) (any, error) {
		switch r.Header.Get("Authorization") {
		case "Bearer good":
			return "alice", nil
		case "":
			return nil, nil
		}
		return nil, errors.New("bad token")
	}))
	ctx := context.Background()
	for _, binding := range []string{a2a.BindingJSONRPC, a2a.BindingHTTPJSON} {
		card, err := a2a.ResolveCard(ctx, base)
		if err != nil {
			t.Fatal(err)
		}
		tr, _, err := a2a.NewTransportFromCard(card, a2a.WithPreferredBindings(binding), a2a.WithHeader("Authorization", "Bearer good"))
		if err != nil {
			t.Fatal(err)
		}
		ext, err := a2a.NewA2AServiceClient(tr).GetExtendedAgentCard(ctx, &a2a.GetExtendedAgentCardRequest{})
		if err != nil || ext.Name != "echo" {
			t.Fatalf("%s: extended card: %v", binding, err)
		}
		tr, _, _ = a2a.NewTransportFromCard(card, a2a.WithPreferredBindings(binding), a2a.WithHeader("Authorization", "Bearer bad"))
		_, err = a2a.NewA2AServiceClient(tr).GetExtendedAgentCard(ctx, &a2a.GetExtendedAgentCardRequest{})
		if !errors.Is(err, a2a.ErrUnauthenticated) {
			t.Fatalf("%s: bad token: %v", binding, err)
		}
		for _, err := range a2a.NewA2AServiceClient(tr).SendStreamingMessage(ctx, &a2a.SendMessageRequest{Message: userMessage("hi")}) {
			if !errors.Is(err, a2a.ErrUnauthenticated) {
				t.Fatalf("%s: bad token on a stream: %v", binding, err)
			}
		}
	}
	// JSON-RPC answers a refused caller in the body of a 200, as one
	// JSON-RPC response whatever the client accepts: the call has no
	// stream; a client that names no version (0.3's) and reads a stream
	// gets it as the stream's only event, which 0.3's SDKs need.
	for _, c := range []struct{ accept, version, ctype, want string }{
		{"application/json", "1.0", "application/json", `{"jsonrpc":"2.0","id":null,"error":{"code":-31401,`},
		{"text/event-stream", "1.0", "application/json", `{"jsonrpc":"2.0","id":null,"error":{"code":-31401,`},
		{"text/event-stream", "", "text/event-stream", `data: {"jsonrpc":"2.0","id":null,"error":{"code":-31401,`},
	} {
		status, h, body := post(t, http.MethodPost, base, "application/json", `{"jsonrpc":"2.0","id":1,"method":"GetTask","params":{"id":"x"}}`,
			"Authorization", "Bearer bad", "Accept", c.accept, "A2A-Version", c.version)
		if status != 200 || !strings.HasPrefix(body, c.want) || !strings.HasPrefix(h.Get("Content-Type"), c.ctype) {
			t.Errorf("refused with Accept %s, A2A-Version %q: %d %s %s", c.accept, c.version, status, h.Get("Content-Type"), body)
		}
	}
}

// prettyAgent streams a task whose metadata keeps a client's line breaks.
type prettyAgent struct {
	a2a.UnimplementedA2AServiceServer
}

func (prettyAgent) SendStreamingMessage(ctx context.Context, req *a2a.SendMessageRequest, send func(*a2a.StreamResponse) error) error {
	return send(&a2a.StreamResponse{Payload: &a2a.StreamResponseTask{Task: &a2a.Task{ID: "t",
		Status: &a2a.TaskStatus{State: a2a.TaskStateWorking}, Metadata: req.Metadata}}})
}

func TestSSEEventIsOneDataLine(t *testing.T) {
	h, err := a2a.NewRESTHandler(a2a.BindA2AService(prettyAgent{}))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	body := "{\"message\":{\"messageId\":\"m\",\"role\":\"ROLE_USER\",\"parts\":[{\"text\":\"x\"}]},\r\n\"metadata\":{\n  \"note\": \"a\\nb\"\n}}"
	status, _, out := post(t, http.MethodPost, srv.URL+"/message:stream", "application/json", body)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if status != 200 || len(lines) != 1 || !strings.HasPrefix(lines[0], "data: ") {
		t.Fatalf("%d %q", status, out)
	}
	var ev a2a.StreamResponse
	if err := ev.UnmarshalJSON([]byte(strings.TrimPrefix(lines[0], "data: "))); err != nil {
		t.Fatal(err)
	}
	if md := ev.Payload.(*a2a.StreamResponseTask).Task.Metadata; !strings.Contains(string(md), `"a\nb"`) {
		t.Fatalf("metadata %s", md)
	}
}

// TestJSONRPCClientNeedsAResult: an answer without a result is an answer
// only for a response that has nothing to carry (google.protobuf.Empty).
func TestJSONRPCClientNeedsAResult(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct{ ID json.RawMessage }
		_ = json.NewDecoder(r.Body).Decode(&req)
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s}`, req.ID)
	}))
	defer srv.Close()
	c := a2a.NewA2AServiceClient(a2a.NewJSONRPCTransport(srv.URL))
	ctx := context.Background()
	if _, err := c.GetTask(ctx, &a2a.GetTaskRequest{ID: "t"}); !errors.Is(err, a2a.ErrInvalidAgentResponse) {
		t.Errorf("GetTask without a result: %v", err)
	}
	if _, err := c.DeleteTaskPushNotificationConfig(ctx, &a2a.DeleteTaskPushNotificationConfigRequest{TaskID: "t", ID: "p"}); err != nil {
		t.Errorf("Delete without a result: %v", err)
	}
}

// TestStreamEventLimit: a stream event larger than the client's limit ends
// the stream with an error instead of growing without bound.
func TestStreamEventLimit(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprintf(w, "data: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"task\":{\"id\":\"%s\"}}}\n\n", strings.Repeat("x", 200<<10))
	}))
	defer srv.Close()
	c := a2a.NewA2AServiceClient(a2a.NewJSONRPCTransport(srv.URL, a2a.WithMaxResponseBytes(100<<10)))
	for _, err := range c.SendStreamingMessage(context.Background(), &a2a.SendMessageRequest{Message: userMessage("hi")}) {
		if err == nil || !strings.Contains(err.Error(), "exceeds 102400 bytes") {
			t.Fatalf("an oversized event: %v", err)
		}
	}
}

// TestRESTClientEscapesVerbs: an id with a colon stays an id, not a verb.
func TestRESTClientEscapesVerbs(t *testing.T) {
	base, _ := serveEcho(t)
	c := a2a.NewA2AServiceClient(a2a.NewRESTTransport(base))
	_, err := c.GetTask(context.Background(), &a2a.GetTaskRequest{ID: "x:subscribe"})
	if !errors.Is(err, a2a.ErrTaskNotFound) || !strings.Contains(err.Error(), `"x:subscribe"`) {
		t.Fatalf("GetTask of x:subscribe: %v", err)
	}
}

// TestTenantFromCard: the interface's tenant goes on every request, on a
// copy: the caller's request is left as it was.
func TestTenantFromCard(t *testing.T) {
	base, _ := serveEcho(t)
	ctx := context.Background()
	card, err := a2a.ResolveCard(ctx, base)
	if err != nil {
		t.Fatal(err)
	}
	for _, iface := range card.SupportedInterfaces {
		iface.Tenant = "acme"
	}
	seen := ""
	tr, _, err := a2a.NewTransportFromCard(card, a2a.WithPreferredBindings(a2a.BindingHTTPJSON), a2a.WithHTTPClient(&http.Client{
		Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
			seen = r.URL.Path
			return http.DefaultTransport.RoundTrip(r)
		})}))
	if err != nil {
		t.Fatal(err)
	}
	req := &a2a.SendMessageRequest{Message: userMessage("hi")}
	if _, err := a2a.NewA2AServiceClient(tr).SendMessage(ctx, req); err != nil {
		t.Fatal(err)
	}
	if seen != "/acme/message:send" || req.Tenant != "" {
		t.Errorf("path %s, the caller's tenant %q", seen, req.Tenant)
	}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// The card served for both generations: 1.0's members as they were, its
// JSON-RPC and HTTP+JSON interfaces again at 0.3, and
// 0.3's members beside them; a 0.3 reader and a 1.0 reader each find what
// they read.
func TestCardForBothVersions(t *testing.T) {
	base, _ := serveEcho(t)
	_, _, body := post(t, http.MethodGet, base+"/.well-known/agent-card.json", "", "")
	var v1 a2a.AgentCard
	if err := v1.UnmarshalJSON([]byte(body)); err != nil {
		t.Fatal(err)
	}
	if err := v1.Validate(); err != nil {
		t.Fatalf("a 1.0 reader: %v", err)
	}
	var at03 []string
	for _, i := range v1.SupportedInterfaces {
		if i.ProtocolVersion == "0.3" {
			at03 = append(at03, i.ProtocolBinding+" "+i.URL)
		}
	}
	if !slices.Equal(at03, []string{"JSONRPC " + base, "HTTP+JSON " + base}) {
		t.Errorf("interfaces at 0.3: %v", at03)
	}
	var v03 a2av03.AgentCard
	if err := v03.UnmarshalJSON([]byte(body)); err != nil {
		t.Fatal(err)
	}
	if err := v03.Validate(); err != nil {
		t.Fatalf("a 0.3 reader: %v", err)
	}
	if v03.URL != base || v03.ProtocolVersion != "0.3.0" || v03.PreferredTransport == nil || *v03.PreferredTransport != "JSONRPC" {
		t.Errorf("0.3's members: url %q, protocolVersion %q", v03.URL, v03.ProtocolVersion)
	}
}
