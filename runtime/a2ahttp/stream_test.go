package a2ahttp_test

import (
	"bufio"
	"context"
	"net/http"
	"net/http/httptest"
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
