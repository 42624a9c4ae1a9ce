package bridge_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/agui-gen/agui-gen/gen/a2a"
	"github.com/agui-gen/agui-gen/gen/agui"
	"github.com/agui-gen/agui-gen/gen/bridge"
	"github.com/agui-gen/agui-gen/runtime/runlog"
	"github.com/agui-gen/agui-gen/runtime/sse"
)

// TestResumedAGUIRunKeepsStepWithItsTask: one run served over both
// protocols. An AG-UI agent, served over A2A by the Executor, answers an
// AG-UI endpoint with resumable runs through A2AAgent. The AG-UI client's
// connection closes in the middle of the answer; its going does not cancel
// the task: the run goes on, the client resumes it (Last-Event-ID), and
// an A2A subscriber that joined the task midway (SubscribeToTask) ends
// with the same text as the client, the task completed. A run cancelled
// while its client is away ends cancelled, and so does its task.
func TestResumedAGUIRunKeepsStepWithItsTask(t *testing.T) {
	cut, subscribed, cancelled, stop := make(chan struct{}), make(chan struct{}), make(chan struct{}), make(chan struct{})
	defer close(stop) // a failed test does not leave the agent waiting
	wait := func(ctx context.Context, gate <-chan struct{}) error {
		select {
		case <-gate:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		case <-stop:
			return errors.New("the test is over")
		}
	}
	// Three parts of ten words: the second once the client has gone, the
	// third once the A2A subscriber is there. On thread-cancel, the second
	// once the AG-UI run is cancelled (the task's events then race the
	// run's end to A2AAgent), then it waits to be cancelled too.
	story := agui.AgentFunc(func(ctx context.Context, in *agui.RunAgentInput, s *agui.Stream) error {
		gates := []<-chan struct{}{nil, cut, subscribed}
		if in.ThreadID == "thread-cancel" {
			gates = []<-chan struct{}{nil, cancelled, make(chan struct{})}
		}
		for part, gate := range gates {
			if gate != nil {
				if err := wait(ctx, gate); err != nil {
					return err
				}
			}
			for word := range 10 {
				if err := s.Text(fmt.Sprintf("w%d.%d ", part, word)); err != nil {
					return err
				}
			}
		}
		return nil
	})
	_, client := a2aServer(t, &bridge.Executor{Agent: story})
	bridged := httptest.NewServer(agui.NewHandler(&bridge.A2AAgent{Client: client}, agui.WithResumableRuns(runlog.NewMemory(runlog.MemoryOptions{}))))
	defer bridged.Close()
	ctx := context.Background()

	// The run, until its first text; then the client goes.
	in := userInput("thread-story", "a story")
	first := readRun(t, post(t, bridged.URL, in), "TEXT_MESSAGE_CONTENT")
	if first.taskID == "" {
		t.Fatalf("no task id in the state before the first text: %s", first.types)
	}
	close(cut)
	subscriber := make(chan string, 1)
	go func() { subscriber <- subscribedText(ctx, client, first.taskID, subscribed) }()
	rest := readRun(t, resume(t, bridged.URL, first.lastID), "")
	text := first.text + rest.text
	if !strings.HasPrefix(text, "w0.0 ") || !strings.HasSuffix(text, "w2.9 ") || strings.Count(text, "w1.0 ") != 1 {
		t.Errorf("the AG-UI client's answer across the resume: %q", text)
	}
	if got := <-subscriber; got != "completed: "+text {
		t.Errorf("the A2A subscriber saw %q; the AG-UI client %q", got, text)
	}

	// Gone, then cancelled: the resume reads the run's end, cancelled,
	// and the task is cancelled.
	in = userInput("thread-cancel", "a story")
	first = readRun(t, post(t, bridged.URL, in), "TEXT_MESSAGE_CONTENT")
	if err := (&agui.Client{URL: bridged.URL}).Cancel(ctx, in.ThreadID, in.RunID); err != nil {
		t.Fatalf("cancel: %v", err)
	}
	close(cancelled)
	if rest = readRun(t, resume(t, bridged.URL, first.lastID), ""); rest.outcome != "cancelled" {
		t.Errorf("the cancelled run ended with %q: %s", rest.outcome, rest.types)
	}
	if state := settledState(ctx, t, client, first.taskID); state != a2a.TaskStateCanceled {
		t.Errorf("the cancelled run's task is %v", state)
	}
}

// runRead is what readRun saw of a stream.
type runRead struct {
	types          []string
	text           string
	taskID, lastID string
	outcome        string // the RUN_FINISHED outcome's type, or RUN_ERROR
	errMessage     string // the RUN_ERROR's message
}

// readRun reads an AG-UI stream until an event of type until (then closes
// it, as a client that goes away) or its end.
func readRun(t *testing.T, res *http.Response, until string) runRead {
	t.Helper()
	defer res.Body.Close()
	var r runRead
	events := sse.NewReader(res.Body, 1<<20)
	for {
		raw, err := events.Next()
		if err == io.EOF {
			return r
		} else if err != nil {
			t.Fatalf("after %s: %v", r.types, err)
		}
		ev, err := agui.UnmarshalEvent(raw.Data)
		if err != nil {
			t.Fatal(err)
		}
		r.types, r.lastID = append(r.types, string(ev.Type())), raw.ID
		switch e := ev.(type) {
		case *agui.StateSnapshotEvent:
			var state struct {
				A2A struct {
					TaskID string `json:"taskId"`
				} `json:"a2a"`
			}
			if json.Unmarshal(e.Snapshot, &state) == nil && r.taskID == "" {
				r.taskID = state.A2A.TaskID
			}
		case *agui.TextMessageContentEvent:
			r.text += e.Delta
		case *agui.RunFinishedEvent:
			r.outcome = "success"
			if e.Outcome != nil {
				r.outcome = e.Outcome.Type()
			}
		case *agui.RunErrorEvent:
			r.outcome, r.errMessage = "RUN_ERROR", e.Message
		}
		if string(ev.Type()) == until {
			return r
		}
	}
}

func post(t *testing.T, url string, in *agui.RunAgentInput) *http.Response {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, url, bytes.NewReader(in.AppendJSON(nil)))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "text/event-stream")
	return do(t, req)
}

func resume(t *testing.T, url, lastID string) *http.Response {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Last-Event-ID", lastID)
	return do(t, req)
}

func do(t *testing.T, req *http.Request) *http.Response {
	t.Helper()
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if res.StatusCode != http.StatusOK {
		body, _ := io.ReadAll(res.Body)
		t.Fatalf("%s %s: %d %s", req.Method, req.URL, res.StatusCode, body)
	}
	return res
}

// settledState is the state task settles in: a subscription ends with it,
// or is refused once the task has settled (the runtime settles a
// cancelled task once its executor has returned). A task that never
// settles fails the test after a minute rather than hanging it.
func settledState(ctx context.Context, t *testing.T, client *a2a.A2AServiceClient, task string) a2a.TaskState {
	t.Helper()
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	state := a2a.TaskStateUnspecified
	for resp, err := range client.SubscribeToTask(ctx, &a2a.SubscribeToTaskRequest{ID: task}) {
		if err != nil && ctx.Err() != nil {
			t.Fatalf("task %s did not settle: %v", task, err)
		}
		if err != nil {
			got, err := client.GetTask(ctx, &a2a.GetTaskRequest{ID: task})
			if err != nil {
				t.Fatal(err)
			}
			return got.GetStatus().GetState()
		}
		switch p := resp.Payload.(type) {
		case *a2a.StreamResponseTask:
			state = p.Task.GetStatus().GetState()
		case *a2a.StreamResponseStatusUpdate:
			state = p.StatusUpdate.GetStatus().GetState()
		}
	}
	return state
}

// subscribedText subscribes to task, closes subscribed once the task's
// snapshot has come, and returns the task's last state and the text of its
// answer as the subscription built it: the snapshot's artifacts, then
// their updates.
func subscribedText(ctx context.Context, client *a2a.A2AServiceClient, task string, subscribed chan<- struct{}) string {
	var order []string
	texts := map[string]string{}
	add := func(art *a2a.Artifact, appendParts bool) {
		if art.ArtifactID == bridge.StateArtifactID || art.ArtifactID == bridge.ConversationArtifactID {
			return
		}
		if _, ok := texts[art.ArtifactID]; !ok {
			order = append(order, art.ArtifactID)
		}
		if !appendParts {
			texts[art.ArtifactID] = ""
		}
		for _, p := range art.Parts {
			if tp, ok := p.Content.(*a2a.PartText); ok {
				texts[art.ArtifactID] += tp.Text
			}
		}
	}
	state := a2a.TaskStateUnspecified
	for resp, err := range client.SubscribeToTask(ctx, &a2a.SubscribeToTaskRequest{ID: task}) {
		if err != nil {
			return "subscription failed: " + err.Error()
		}
		switch p := resp.Payload.(type) {
		case *a2a.StreamResponseTask:
			for _, art := range p.Task.Artifacts {
				add(art, false)
			}
			state = p.Task.GetStatus().GetState()
			close(subscribed)
		case *a2a.StreamResponseArtifactUpdate:
			add(p.ArtifactUpdate.Artifact, p.ArtifactUpdate.Append)
		case *a2a.StreamResponseStatusUpdate:
			state = p.StatusUpdate.GetStatus().GetState()
		}
	}
	var text strings.Builder
	for _, id := range order {
		text.WriteString(texts[id])
	}
	return strings.ToLower(strings.TrimPrefix(state.String(), "TASK_STATE_")) + ": " + text.String()
}
