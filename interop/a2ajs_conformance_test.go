package interop_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agui-gen/agui-gen/gen/a2a"
	"github.com/agui-gen/agui-gen/gen/a2a/a2atask"
)

// hookRecorder is a webhook that keeps the headers of what it is sent.
type hookRecorder struct {
	mu      sync.Mutex
	headers []http.Header
}

func (h *hookRecorder) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.headers = append(h.headers, r.Header.Clone())
}

// tokenHeaders names the headers of the last notification that carry token.
func (h *hookRecorder) tokenHeaders(token string) []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.headers) == 0 {
		return nil
	}
	var names []string
	for name, values := range h.headers[len(h.headers)-1] {
		if len(values) == 1 && values[0] == token {
			names = append(names, name)
		}
	}
	return names
}

// TestA2AJSConformance runs @a2a-js/sdk 1.3.0's client through the MUSTs of
// a2a_conformance_test.go over both HTTP bindings (its gRPC transport needs
// @grpc/grpc-js, which is not installed), and checks that our push
// notifications carry the token in the header @a2a-js/sdk's own sender
// uses, which is where its users' receivers read it.
func TestA2AJSConformance(t *testing.T) {
	requireA2AJS(t)
	s := serveRuntime(t, nil)
	flat := serveRuntime(t, func(c *a2a.AgentCard) { c.Capabilities.Streaming = nil })
	strict := serveRuntime(t, func(c *a2a.AgentCard) {
		c.Capabilities.Extensions = []*a2a.AgentExtension{{URI: requiredExtension, Description: "Asks for consent.", Required: true}}
	})
	hook := &hookRecorder{}
	hookSrv := httptest.NewServer(hook)
	defer hookSrv.Close()
	for _, binding := range []string{a2a.BindingJSONRPC, a2a.BindingHTTPJSON} {
		t.Run(binding, func(t *testing.T) {
			var got map[string]any
			out := runNode(t, nil, "a2a-conformance.mjs", binding, s.base, flat.base, strict.base, requiredExtension, hookSrv.URL)
			if err := json.Unmarshal(out, &got); err != nil {
				t.Fatalf("%v: %s", err, out)
			}
			prefix := map[string]string{a2a.BindingJSONRPC: "JsonRpc", a2a.BindingHTTPJSON: "Rest"}[binding]
			// A refused stream is one plain response, whose error the SDK
			// types directly (see a2ajs_bindings_test.go).
			// Its v0.3 REST transport reads only v0.3 error bodies, so the v1.0
			// google.rpc.Status it is answered with reaches its caller as an
			// Error whose message holds the refusal.
			// Its legacy (0.3) transports are served as 0.3, so an unknown task
			// is not found, in each transport's own error.
			unsupported, legacy := "JsonRpcUnsupportedOperationError", "JsonRpcTaskNotFoundError"
			if binding == a2a.BindingHTTPJSON {
				unsupported, legacy = "RestUnsupportedOperationError", "TaskNotFoundError"
			}
			want := map[string]any{
				"deletePush": []any{"ok", "ok", "ok", prefix + "TaskNotFoundError"},
				"subscribeInputRequired": map[string]any{"answered": "TASK_STATE_COMPLETED",
					"events": []any{"task:TASK_STATE_INPUT_REQUIRED", "status:TASK_STATE_WORKING", "artifact:blue", "status:TASK_STATE_COMPLETED"}},
				"subscribeWithoutStreaming": unsupported,
				"withoutExtension":          prefix + "ExtensionSupportRequiredError",
				"withExtension":             "ok",
				"legacyGetTask":             legacy,
				"legacyToldVersion":         false,
				"pushSent":                  true,
				"warnings":                  []any{},
			}
			if d := cmp.Diff(want, got); d != "" {
				t.Fatalf("@a2a-js/sdk against our server (-want +got):\n%s", d)
			}
		})
	}

	theirs := hook.tokenHeaders("token-from-a2a-js")
	if len(theirs) == 0 {
		t.Fatal("@a2a-js/sdk's sender put the token in no header")
	}
	event := &a2a.StreamResponse{Payload: &a2a.StreamResponseTask{Task: &a2a.Task{ID: "t1", ContextID: "c1",
		Status: &a2a.TaskStatus{State: a2a.TaskStateWorking}}}}
	sender := a2atask.NewPushSender(a2atask.WithPrivateNetworks(), a2atask.WithAttempts(1, 0))
	if err := sender.Send(context.Background(), &a2a.TaskPushNotificationConfig{TaskID: "t1", URL: hookSrv.URL, Token: "token-from-go"}, event); err != nil {
		t.Fatal(err)
	}
	ours := hook.tokenHeaders("token-from-go")
	for _, name := range append(theirs, a2atask.NotificationTokenHeader) {
		if !contains(ours, http.CanonicalHeaderKey(name)) {
			t.Errorf("our notification carries its token in %v, not in %s", ours, name)
		}
	}
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
