package a2ahttp_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/agui-gen/agui-gen/examples/a2a-demo/echo"
	a2a "github.com/agui-gen/agui-gen/gen/a2a"
)

// rawJSONRPC posts one JSON-RPC request as the A2A TCK's raw calls do
// (A2A-Version 1.0, Content-Type application/json, and Accept as given) and
// returns the response's media type and body.
func rawJSONRPC(t *testing.T, url, method, params, accept string) (string, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"`+method+`","params":`+params+`}`))
	if err != nil {
		t.Fatal(err)
	}
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
	if res.StatusCode != http.StatusOK {
		t.Fatalf("%s: HTTP %d %s", method, res.StatusCode, body)
	}
	mt, _, _ := mime.ParseMediaType(res.Header.Get("Content-Type"))
	return mt, string(body)
}

// errorCode reads a plain JSON-RPC error response (the TCK's response.json()
// and "error" in body) and returns its code, failing when the body is not one.
func errorCode(t *testing.T, body string) int {
	t.Helper()
	var resp struct {
		ID    json.RawMessage `json:"id"`
		Error *struct {
			Code int `json:"code"`
		} `json:"error"`
	}
	if err := json.Unmarshal([]byte(body), &resp); err != nil || resp.Error == nil {
		t.Fatalf("not a JSON-RPC error response: %v: %s", err, body)
	}
	if string(resp.ID) != "1" {
		t.Errorf("id %s, want 1", resp.ID)
	}
	return resp.Error.Code
}

// midStream is the echo agent whose subscriptions fail after their first
// event, for an error that happens mid-stream.
type midStream struct{ *echo.Agent }

func (m midStream) SubscribeToTask(ctx context.Context, req *a2a.SubscribeToTaskRequest, send func(*a2a.StreamResponse) error) error {
	if err := send(&a2a.StreamResponse{Payload: &a2a.StreamResponseTask{Task: &a2a.Task{ID: req.ID, ContextID: "c",
		Status: &a2a.TaskStatus{State: a2a.TaskStateWorking}}}}); err != nil {
		return err
	}
	return a2a.NewError(a2a.ErrTaskNotFound, "task "+req.ID+" went away")
}

// TestStreamingRefusalsAreJSON does what the A2A TCK's JSON-RPC tests
// test_streaming_not_supported_jsonrpc, test_unsupported_operation_error and
// test_subscribe_rejects_terminal_task[jsonrpc] do (a2aproject/a2a-tck,
// 1.0-dev): a streaming call refused before its first event is answered
// with one application/json JSON-RPC response, whatever Accept says, and
// only an error after the first event travels in the stream.
func TestStreamingRefusalsAreJSON(t *testing.T) {
	const msg = `{"message":{"messageId":"m1","role":"ROLE_USER","parts":[{"text":"stream test"}]}}`
	serve := func(svc *a2a.Service, edit func(*a2a.AgentCard)) string {
		var h http.Handler
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { h.ServeHTTP(w, r) }))
		t.Cleanup(srv.Close)
		card := echo.Card(srv.URL)
		edit(card)
		var err error
		if h, err = a2a.NewHandler(svc, card); err != nil {
			t.Fatal(err)
		}
		return srv.URL
	}
	flat := serve(a2a.BindA2AService(echo.New()), func(c *a2a.AgentCard) { c.Capabilities.Streaming = nil })
	agent := echo.New()
	streaming := serve(a2a.BindA2AService(agent), func(c *a2a.AgentCard) {})
	failing := serve(a2a.BindA2AService(midStream{echo.New()}), func(c *a2a.AgentCard) {})

	resp, err := agent.SendMessage(context.Background(), &a2a.SendMessageRequest{Message: userMessage("done")})
	if err != nil {
		t.Fatal(err)
	}
	task := resp.Payload.(*a2a.SendMessageResponseTask).Task
	if task.Status.State != a2a.TaskStateCompleted {
		t.Fatalf("the task is %s", task.Status.State)
	}

	for _, accept := range []string{"", "text/event-stream", "application/json, text/event-stream"} {
		for _, c := range []struct {
			name, url, method, params string
			code                      int
		}{
			{"SendStreamingMessage on a card without streaming", flat, "SendStreamingMessage", msg, a2a.ErrUnsupportedOperation.Code},
			{"SubscribeToTask on a card without streaming", flat, "SubscribeToTask", `{"id":"t"}`, a2a.ErrUnsupportedOperation.Code},
			{"SubscribeToTask on a terminal task", streaming, "SubscribeToTask", `{"id":"` + task.ID + `"}`, a2a.ErrUnsupportedOperation.Code},
			{"SubscribeToTask on no task", streaming, "SubscribeToTask", `{"id":"nope"}`, a2a.ErrTaskNotFound.Code},
			{"SendStreamingMessage with invalid params", streaming, "SendStreamingMessage", `{"message":{"messageId":"m"}}`, a2a.ErrInvalidParams.Code},
		} {
			mt, body := rawJSONRPC(t, c.url, c.method, c.params, accept)
			if mt != "application/json" {
				t.Errorf("%s (Accept %q): %s %s, want one application/json response", c.name, accept, mt, body)
				continue
			}
			if code := errorCode(t, body); code != c.code {
				t.Errorf("%s (Accept %q): code %d, want %d: %s", c.name, accept, code, c.code, body)
			}
		}
	}

	// An error after the first event is the stream's last event.
	mt, body := rawJSONRPC(t, failing, "SubscribeToTask", `{"id":"t"}`, "text/event-stream")
	events := strings.Split(strings.TrimSpace(body), "\n\n")
	if mt != "text/event-stream" || len(events) != 2 || !strings.Contains(events[0], `"result":{"task":`) ||
		!strings.Contains(events[1], `"error":{"code":-32001,"message":"task t went away"`) {
		t.Fatalf("an error mid-stream: %s\n%s", mt, body)
	}

	// The client reads a refusal as the call's error, either way.
	card, err := a2a.ResolveCard(context.Background(), flat)
	if err != nil {
		t.Fatal(err)
	}
	tr, _, err := a2a.NewTransportFromCard(card, a2a.WithPreferredBindings(a2a.BindingJSONRPC))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, err := range a2a.NewA2AServiceClient(tr).SubscribeToTask(context.Background(), &a2a.SubscribeToTaskRequest{ID: "t"}) {
		n++
		if !errors.Is(err, a2a.ErrUnsupportedOperation) {
			t.Errorf("our client: %v", err)
		}
	}
	if n != 1 {
		t.Errorf("our client read %d items, want the error alone", n)
	}
}
