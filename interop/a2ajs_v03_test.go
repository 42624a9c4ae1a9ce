package interop_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agui-gen/agui-gen/gen/a2a"
)

// requireA2AJSV03 skips when @a2a-js/sdk 0.3.14 (installed as
// a2a-js-sdk-v03) is missing, and fails in CI, where .ci/run installs it.
func requireA2AJSV03(t *testing.T) {
	t.Helper()
	requireNode(t)
	if _, err := os.Stat(filepath.Join(nodeDir, "node_modules", "a2a-js-sdk-v03")); err != nil {
		msg := "a2a-js-sdk-v03 (@a2a-js/sdk 0.3.14) missing: run `npm ci` in interop/node"
		if os.Getenv("CI") != "" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
}

// TestA2AJSV03ClientAgainstOurServer: @a2a-js/sdk 0.3.14's client, which
// speaks A2A 0.3 only, resolves our card and makes every call it has over
// JSON-RPC and over HTTP+JSON (0.3's /v1/… paths, its proto's ProtoJSON)
// against the task runtime: send, get, cancel, resubscribe, the stream,
// and push configs set, get, list and delete.
func TestA2AJSV03ClientAgainstOurServer(t *testing.T) {
	requireA2AJSV03(t)
	s := serveRuntime(t, nil)
	theirBase, _ := serveNode(t, "a2a-server-legacy.mjs")
	for _, binding := range []string{a2a.BindingJSONRPC, a2a.BindingHTTPJSON} {
		t.Run(binding, func(t *testing.T) {
			var got map[string]any
			if err := json.Unmarshal(runNode(t, nil, "a2a-client-v03.mjs", s.base, binding), &got); err != nil {
				t.Fatal(err)
			}
			// The SDK's typed errors: our codes are 0.3's, in 0.3's error
			// object. Over JSON-RPC a refused subscription is an error event
			// of the stream, which the SDK reports as an Error caused by the
			// typed one; over HTTP+JSON it is the error response its REST
			// transport reads the typed error from.
			errs := map[string]any{
				"getUnknown":           "TaskNotFoundJSONRPCError",
				"cancelCompleted":      "TaskNotCancelableJSONRPCError",
				"resubscribeCompleted": "Error(cause=UnsupportedOperationJSONRPCError)",
			}
			if binding == a2a.BindingHTTPJSON {
				errs = map[string]any{
					"getUnknown":           "TaskNotFoundError",
					"cancelCompleted":      "TaskNotCancelableError",
					"resubscribeCompleted": "UnsupportedOperationError",
				}
			}
			want := map[string]any{
				"protocol": binding,
				"send":     map[string]any{"kind": "task", "state": "completed", "artifact": "hello 0.3"},
				"get":      map[string]any{"kind": "task", "id": true, "history": 1.0, "role": "user"},
				"errors":   errs,
				// The runtime's executor goes from submitted to its artifact;
				// the last status update is final, as 0.3 clients need.
				"stream":   []any{"task:submitted", "artifact:stream", "status:completed(final)"},
				"ask":      map[string]any{"state": "input-required", "question": "which colour?"},
				"push":     map[string]any{"set": true, "get": "http://127.0.0.1:9/hook", "list": []any{"hook-1"}, "afterDelete": 0.0},
				"cancel":   "canceled",
				"warnings": []any{},
			}
			if d := cmp.Diff(want, got); d != "" {
				t.Fatalf("@a2a-js/sdk 0.3.14 client against our server (-want +got):\n%s", d)
			}
			// The same calls against @a2a-js/sdk 1.3.0's own v0.3 layer
			// (legacyCompat): where it differs, the test says how (go test -v).
			var theirs map[string]any
			if err := json.Unmarshal(runNode(t, nil, "a2a-client-v03.mjs", theirBase, binding), &theirs); err != nil {
				t.Logf("@a2a-js/sdk 1.3.0's v0.3 layer over %s: %v", binding, err)
				return
			}
			if d := cmp.Diff(got, theirs); d != "" {
				t.Logf("@a2a-js/sdk 1.3.0's v0.3 layer differs from ours (-ours +theirs):\n%s", d)
			}
		})
	}
}

// TestOurClientAgainstA2AJSV03Server: our client against @a2a-js/sdk
// 0.3.14's server, which speaks 0.3 only, through every call.
func TestOurClientAgainstA2AJSV03Server(t *testing.T) {
	requireA2AJSV03(t)
	base, _ := serveNode(t, "a2a-server-v03.mjs")
	t.Run(a2a.BindingJSONRPC, func(t *testing.T) { exerciseV03Server(t, base, a2a.BindingJSONRPC, base+"/a2a/jsonrpc") })
	// Over HTTP+JSON, that server reads a push config create's body as the
	// whole CreateTaskPushNotificationConfigRequest, where the proto's rule
	// (body: "config") and the SDK's own 0.3 client send the config alone,
	// so neither client can create one there: the config is created over
	// JSON-RPC, and read, listed and deleted over HTTP+JSON.
	t.Run(a2a.BindingHTTPJSON, func(t *testing.T) {
		jsonrpc := a2a.NewA2AServiceClient(a2a.NewCompatJSONRPCTransport(base+"/a2a/jsonrpc", a2a.CompatVersions()[0]))
		exerciseV03ServerCreating(t, base, a2a.BindingHTTPJSON, base+"/a2a/rest", func(cfg *a2a.TaskPushNotificationConfig) (*a2a.TaskPushNotificationConfig, error) {
			return jsonrpc.CreateTaskPushNotificationConfig(context.Background(), cfg)
		})
	})
}
