package a2ahttp_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	a2a "github.com/agui-gen/agui-gen/gen/a2a"
	"github.com/agui-gen/agui-gen/gen/a2a/a2atask"
)

// gatedText streams the text "a0 " … "a5 " as chunks of one artifact,
// waiting for gate after the third, then completes.
func gatedText(gate <-chan struct{}) a2atask.Executor {
	return a2atask.ExecutorFunc(func(ctx context.Context, run *a2atask.Run) error {
		for i := range 6 {
			if i == 3 {
				select {
				case <-gate:
				case <-ctx.Done():
					return ctx.Err()
				}
			}
			art := &a2a.Artifact{ArtifactID: "answer", Parts: []*a2a.Part{{Content: &a2a.PartText{Text: fmt.Sprintf("a%d ", i)}}}}
			if err := run.Artifact(art, i > 0, i == 5); err != nil {
				return err
			}
		}
		return run.Complete(nil)
	})
}

// streamText is what a stream shows: the text its artifact updates carry,
// the task's last state, and the event ids it received.
type streamText struct {
	text  string
	state a2a.TaskState
	ids   []string
}

func (s *streamText) add(resp *a2a.StreamResponse) {
	switch p := resp.Payload.(type) {
	case *a2a.StreamResponseTask:
		s.state = p.Task.GetStatus().GetState()
	case *a2a.StreamResponseStatusUpdate:
		s.state = p.StatusUpdate.GetStatus().GetState()
	case *a2a.StreamResponseArtifactUpdate:
		for _, part := range p.ArtifactUpdate.Artifact.Parts {
			if tp, ok := part.Content.(*a2a.PartText); ok {
				s.text += tp.Text
			}
		}
	}
}

// TestResubscribeAfterLastEventID: over JSON-RPC and HTTP+JSON, a client
// that names each event's id (WithEventIDs) and is cut in the middle of
// a task's stream resubscribes with the last id it received
// (WithLastEventID) and gets exactly the rest: no event twice, none
// missing, the task completed.
func TestResubscribeAfterLastEventID(t *testing.T) {
	for _, binding := range []string{a2a.BindingJSONRPC, a2a.BindingHTTPJSON} {
		t.Run(binding, func(t *testing.T) {
			gate := make(chan struct{})
			rt := a2atask.New(gatedText(gate), a2atask.NewMemory())
			defer rt.Close()
			srv := httptest.NewServer(bindingHandler(t, binding, a2a.BindA2AService(rt)))
			defer srv.Close()
			transport := a2a.NewJSONRPCTransport(srv.URL)
			if binding == a2a.BindingHTTPJSON {
				transport = a2a.NewRESTTransport(srv.URL)
			}
			client := a2a.NewA2AServiceClient(transport)
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()

			var first streamText
			var taskID, lastID string
			idCtx := a2a.WithEventIDs(ctx, func(id string) { lastID = id; first.ids = append(first.ids, id) })
			req := &a2a.SendMessageRequest{Message: &a2a.Message{MessageID: "m", Role: a2a.RoleUser, Parts: []*a2a.Part{{Content: &a2a.PartText{Text: "hi"}}}}}
			for resp, err := range client.SendStreamingMessage(idCtx, req) {
				if err != nil {
					t.Fatal(err)
				}
				if task, ok := resp.Payload.(*a2a.StreamResponseTask); ok {
					taskID = task.Task.ID
				}
				first.add(resp)
				if strings.HasSuffix(first.text, "a2 ") {
					break // the client is cut here
				}
			}
			close(gate)
			if taskID == "" || lastID == "" {
				t.Fatalf("task %q, last event id %q: ids %q", taskID, lastID, first.ids)
			}

			var rest streamText
			restCtx := a2a.WithEventIDs(a2a.WithLastEventID(ctx, lastID), func(id string) { rest.ids = append(rest.ids, id) })
			for resp, err := range client.SubscribeToTask(restCtx, &a2a.SubscribeToTaskRequest{ID: taskID}) {
				if err != nil {
					t.Fatal(err)
				}
				if _, ok := resp.Payload.(*a2a.StreamResponseTask); ok {
					t.Error("a resubscription with Last-Event-ID got the task's snapshot")
				}
				rest.add(resp)
			}
			if got := first.text + rest.text; got != "a0 a1 a2 a3 a4 a5 " {
				t.Errorf("text across the cut %q + %q", first.text, rest.text)
			}
			if rest.state != a2a.TaskStateCompleted {
				t.Errorf("the task ended %v", rest.state)
			}
			// The ids run on, one by one, across the cut.
			ids := append(first.ids, rest.ids...)
			for i, id := range ids {
				if n, err := strconv.Atoi(id); err != nil || (i > 0 && n != mustAtoi(ids[i-1])+1) {
					t.Fatalf("event ids %q + %q", first.ids, rest.ids)
				}
			}
		})
	}
}

func mustAtoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}
