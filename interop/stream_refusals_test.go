package interop_test

import (
	"encoding/json"
	"io"
	"mime"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/agui-gen/agui-gen/gen/a2a"
)

// TestStreamRefusalsAsA2AJS: the A2A TCK's JSON-RPC checks of a streaming
// call refused before its first event (test_streaming_not_supported_jsonrpc
// and test_unsupported_operation_error: SendStreamingMessage on a card
// without streaming; test_subscribe_rejects_terminal_task[jsonrpc]:
// SubscribeToTask on a completed task), made of @a2a-js/sdk 1.3.0's server
// and of ours: both answer each with one application/json JSON-RPC response
// carrying UNSUPPORTED_OPERATION (-32004), whether the client asks for SSE or
// not.
func TestStreamRefusalsAsA2AJS(t *testing.T) {
	requireA2AJS(t)
	jsStreaming, _ := serveNode(t, "a2a-server.mjs")
	jsFlat, _ := serveNode(t, "a2a-server.mjs", "--no-streaming")
	ours := serveRuntime(t, nil)
	oursFlat := serveRuntime(t, func(c *a2a.AgentCard) { c.Capabilities.Streaming = nil })
	servers := []struct{ name, streaming, flat string }{
		{"@a2a-js/sdk", jsStreaming + "/a2a/jsonrpc", jsFlat + "/a2a/jsonrpc"},
		{"ours", ours.base, oursFlat.base},
	}
	call := func(url, method, params, accept string) (string, string) {
		t.Helper()
		req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"`+method+`","params":`+params+`}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("A2A-Version", "1.0")
		if accept != "" {
			req.Header.Set("Accept", accept)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		body, _ := io.ReadAll(res.Body)
		mt, _, _ := mime.ParseMediaType(res.Header.Get("Content-Type"))
		return mt, string(body)
	}
	const msg = `{"message":{"role":"ROLE_USER","parts":[{"text":"stream test"}],"messageId":"tck-1"}}`
	for _, s := range servers {
		// A completed task to subscribe to.
		_, body := call(s.streaming, "SendMessage", `{"message":{"role":"ROLE_USER","parts":[{"text":"done"}],"messageId":"tck-2"}}`, "")
		var sent struct {
			Result struct {
				Task struct {
					ID     string `json:"id"`
					Status struct {
						State string `json:"state"`
					} `json:"status"`
				} `json:"task"`
			} `json:"result"`
		}
		if err := json.Unmarshal([]byte(body), &sent); err != nil || sent.Result.Task.ID == "" {
			t.Fatalf("%s: SendMessage: %v %s", s.name, err, body)
		}
		id := sent.Result.Task.ID
		for deadline := time.Now().Add(5 * time.Second); sent.Result.Task.Status.State != "TASK_STATE_COMPLETED" && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
			_, body = call(s.streaming, "GetTask", `{"id":"`+id+`"}`, "")
			var got struct {
				Result struct {
					Status struct {
						State string `json:"state"`
					} `json:"status"`
				} `json:"result"`
			}
			json.Unmarshal([]byte(body), &got)
			sent.Result.Task.Status.State = got.Result.Status.State
		}
		for _, accept := range []string{"", "text/event-stream"} {
			for _, c := range []struct{ what, url, method, params string }{
				{"SendStreamingMessage on a card without streaming", s.flat, "SendStreamingMessage", msg},
				{"SubscribeToTask on a completed task", s.streaming, "SubscribeToTask", `{"id":"` + id + `"}`},
			} {
				mt, body := call(c.url, c.method, c.params, accept)
				var resp struct {
					Error *struct {
						Code int `json:"code"`
					} `json:"error"`
				}
				if mt != "application/json" || json.Unmarshal([]byte(body), &resp) != nil || resp.Error == nil || resp.Error.Code != a2a.ErrUnsupportedOperation.Code {
					t.Errorf("%s, %s (Accept %q): %s %s, want one application/json response with error -32004", s.name, c.what, accept, mt, body)
				}
			}
		}
	}
}
