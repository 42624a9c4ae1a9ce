package a2ahttp_test

import (
	"bufio"
	"context"
	"io"
	"iter"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	a2a "github.com/agui-gen/agui-gen/gen/a2a"
)

// quietAgent streams one status update, then waits, quiet, until release.
type quietAgent struct {
	a2a.UnimplementedA2AServiceServer
	release chan struct{}
}

func (a *quietAgent) SendStreamingMessage(ctx context.Context, _ *a2a.SendMessageRequest, send func(*a2a.StreamResponse) error) error {
	if err := send(&a2a.StreamResponse{Payload: &a2a.StreamResponseStatusUpdate{StatusUpdate: &a2a.TaskStatusUpdateEvent{
		TaskID: "t", ContextID: "c", Status: &a2a.TaskStatus{State: a2a.TaskStateWorking}}}}); err != nil {
		return err
	}
	select {
	case <-a.release:
	case <-ctx.Done():
	}
	return nil
}

// TestStreamKeepAlive: WithKeepAlive writes an SSE comment on a stream
// that has been idle that long, on both bindings, after the stream's
// events and with its header.
func TestStreamKeepAlive(t *testing.T) {
	for binding, call := range streamRequests {
		t.Run(binding, func(t *testing.T) {
			agent := &quietAgent{release: make(chan struct{})}
			defer close(agent.release)
			srv := httptest.NewServer(bindingHandler(t, binding, a2a.BindA2AService(agent), a2a.WithKeepAlive(5*time.Millisecond)))
			defer srv.Close()
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			req, _ := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL+call[0], strings.NewReader(call[1]))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "text/event-stream")
			req.Header.Set("A2A-Version", "1.0")
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer res.Body.Close()
			if res.Header.Get("Content-Type") != "text/event-stream" || res.Header.Get("Cache-Control") != "no-cache" {
				t.Fatalf("header %v", res.Header)
			}
			r := bufio.NewReader(res.Body)
			var lines []string
			for {
				line, err := r.ReadString('\n')
				if err != nil {
					t.Fatalf("%v after %q", err, lines)
				}
				lines = append(lines, line)
				if line == ": keep-alive\n" {
					break
				}
			}
			if len(lines) < 3 || !strings.HasPrefix(lines[0], "data: ") || !strings.Contains(lines[0], "TASK_STATE_WORKING") {
				t.Errorf("the keep-alive before the event: %q", lines)
			}
		})
	}
}

// variedAgent streams responses of every payload kind, whose parts grow
// and shrink, so that a value decoded over the one before changes shape.
type variedAgent struct {
	a2a.UnimplementedA2AServiceServer
}

func variedResponses() []*a2a.StreamResponse {
	text := func(s string) *a2a.Part { return &a2a.Part{Content: &a2a.PartText{Text: s}} }
	update := func(parts ...*a2a.Part) *a2a.StreamResponse {
		return &a2a.StreamResponse{Payload: &a2a.StreamResponseArtifactUpdate{ArtifactUpdate: &a2a.TaskArtifactUpdateEvent{
			TaskID: "t", ContextID: "c", Append: true, Artifact: &a2a.Artifact{ArtifactID: "a", Parts: parts}}}}
	}
	return []*a2a.StreamResponse{
		{Payload: &a2a.StreamResponseTask{Task: &a2a.Task{ID: "t", ContextID: "c", Status: &a2a.TaskStatus{State: a2a.TaskStateWorking}}}},
		update(text("one "), text("two "), &a2a.Part{Content: &a2a.PartData{Data: []byte(`{"k":1}`)}, MediaType: "application/json"}),
		update(text("three")),
		update(),
		{Payload: &a2a.StreamResponseMessage{Message: &a2a.Message{MessageID: "m", Role: a2a.RoleAgent, Parts: []*a2a.Part{text("aside")}}}},
		{Payload: &a2a.StreamResponseStatusUpdate{StatusUpdate: &a2a.TaskStatusUpdateEvent{TaskID: "t", ContextID: "c",
			Status: &a2a.TaskStatus{State: a2a.TaskStateCompleted, Message: &a2a.Message{MessageID: "done", Role: a2a.RoleAgent, Parts: []*a2a.Part{text("done")}}}}}},
	}
}

func (variedAgent) SendStreamingMessage(ctx context.Context, _ *a2a.SendMessageRequest, send func(*a2a.StreamResponse) error) error {
	for _, r := range variedResponses() {
		if err := send(r); err != nil {
			return err
		}
	}
	return nil
}

// TestStreamReusing: SendStreamingMessageReusing yields one value over
// each HTTP binding, holding in turn what SendStreamingMessage yields.
func TestStreamReusing(t *testing.T) {
	want := variedResponses()
	for binding := range streamRequests {
		t.Run(binding, func(t *testing.T) {
			srv := httptest.NewServer(bindingHandler(t, binding, a2a.BindA2AService(variedAgent{})))
			defer srv.Close()
			tr := a2a.NewJSONRPCTransport(srv.URL)
			if binding == a2a.BindingHTTPJSON {
				tr = a2a.NewRESTTransport(srv.URL)
			}
			c := a2a.NewA2AServiceClient(tr)
			req := &a2a.SendMessageRequest{Message: userMessage("hi")}
			var got []string
			var value *a2a.StreamResponse
			for r, err := range c.SendStreamingMessageReusing(context.Background(), req) {
				if err != nil {
					t.Fatal(err)
				}
				if value != nil && r != value {
					t.Fatalf("response %d is another value", len(got))
				}
				value = r
				got = append(got, string(r.AppendJSON(nil)))
			}
			if len(got) != len(want) {
				t.Fatalf("%d responses, want %d", len(got), len(want))
			}
			for i, w := range want {
				if got[i] != string(w.AppendJSON(nil)) {
					t.Errorf("response %d: %s, want %s", i, got[i], w.AppendJSON(nil))
				}
			}
		})
	}
}

// TestStreamReusingReadsEnvelopesAlike: over JSON-RPC, the reusing stream
// reads a response's envelope and result in one pass; whatever an event
// holds (results in any member order, other ids, errors, null, malformed
// envelopes and results), it yields what SendStreamingMessage yields.
func TestStreamReusingReadsEnvelopesAlike(t *testing.T) {
	for _, tc := range []struct {
		data string
		ok   bool // a response, not an error
	}{
		{`{"jsonrpc":"2.0","id":1,"result":{"task":{"id":"t","contextId":"c"}}}`, true},
		{`{"result":{"task":{"id":"t"}},"extra":[1,{"a":null}],"id":1,"jsonrpc":"2.0"}`, true},
		{`{"jsonrpc":"2.0","id":1,"result":{"task":{"id":"t"}},"result":{"message":{"messageId":"m"}}}`, true},
		{`{"jsonrpc":"2.0","id":1,"result":null}`, true}, // an empty response, which StreamResponse allows
		{`{"jsonrpc":"2.0","id":2,"result":{"task":{"id":"t"}}}`, false},
		{`{"jsonrpc":"2.0","id":"1","result":{"task":{"id":"t"}}}`, false},
		{`{"jsonrpc":"2.0","id":1,"error":{"code":-32001,"message":"no such task"}}`, false},
		{`{"jsonrpc":"2.0","id":1,"result":{"task":{"id":"t"}},"error":null}`, true},
		{`{"jsonrpc":"1.0","id":1,"result":{"task":{"id":"t"}}}`, false},
		{`{"id":1,"result":{"task":{"id":"t"}}}`, false},
		{`{"jsonrpc":"2.0","id":1,"result":{"task":{"id":1}}}`, false},
		{`{"jsonrpc":"2.0","id":1,"result":{"task":{"id":"t"}}} trailing`, false},
		{`[]`, false},
	} {
		data := tc.data
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/event-stream")
			_, _ = io.WriteString(w, "data: "+data+"\n\n")
		}))
		outcome := func(stream func(*a2a.A2AServiceClient) iter.Seq2[*a2a.StreamResponse, error]) []string {
			var out []string
			for r, err := range stream(a2a.NewA2AServiceClient(a2a.NewJSONRPCTransport(srv.URL))) {
				if err != nil {
					out = append(out, "error: "+err.Error())
					continue
				}
				out = append(out, string(r.AppendJSON(nil)))
			}
			return out
		}
		req := &a2a.SendMessageRequest{Message: userMessage("hi")}
		want := outcome(func(c *a2a.A2AServiceClient) iter.Seq2[*a2a.StreamResponse, error] {
			return c.SendStreamingMessage(context.Background(), req)
		})
		got := outcome(func(c *a2a.A2AServiceClient) iter.Seq2[*a2a.StreamResponse, error] {
			return c.SendStreamingMessageReusing(context.Background(), req)
		})
		srv.Close()
		if !slices.Equal(got, want) {
			t.Errorf("%s:\nreusing %q\nwant    %q", data, got, want)
		}
		if len(want) != 1 || tc.ok == strings.HasPrefix(want[0], "error") {
			t.Errorf("%s: %q, want one %s", data, want, map[bool]string{true: "response", false: "error"}[tc.ok])
		}
	}
}
