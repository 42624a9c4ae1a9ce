package a2atask

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agui-gen/agui-gen/examples/a2a-demo/echo"
	a2a "github.com/agui-gen/agui-gen/gen/a2a"
)

// serve runs exec on a memory store behind the generated bindings and
// returns a JSON-RPC client for each named principal ("" for none).
func serve(t *testing.T, exec Executor, opts ...Option) (func(principal string) *a2a.A2AServiceClient, *Runtime) {
	t.Helper()
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	rt := New(exec, NewMemory(), append([]Option{WithLogger(quiet)}, opts...)...)
	t.Cleanup(func() { rt.Close() })
	var h http.Handler
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { h.ServeHTTP(w, r) }))
	t.Cleanup(srv.Close)
	var err error
	h, err = a2a.NewHandler(a2a.BindA2AService(rt), echo.Card(srv.URL), a2a.WithLogger(quiet),
		a2a.WithAuthenticator(func(r *http.Request) (any, error) {
			if u := r.Header.Get("X-User"); u != "" {
				return u, nil
			}
			return nil, nil
		}))
	if err != nil {
		t.Fatal(err)
	}
	return func(principal string) *a2a.A2AServiceClient {
		var opts []a2a.ClientOption
		if principal != "" {
			opts = append(opts, a2a.WithHeader("X-User", principal))
		}
		return a2a.NewA2AServiceClient(a2a.NewJSONRPCTransport(srv.URL, opts...))
	}, rt
}

func text(s string) *a2a.Part { return &a2a.Part{Content: &a2a.PartText{Text: s}} }

func userMessage(s string) *a2a.Message {
	return &a2a.Message{MessageID: "m-" + s, Role: a2a.RoleUser, Parts: []*a2a.Part{text(s)}}
}

func textOf(m *a2a.Message) string { return m.Parts[0].Content.(*a2a.PartText).Text }

// echoing answers with an artifact echoing the message, after a working
// update.
var echoing = ExecutorFunc(func(ctx context.Context, run *Run) error {
	if err := run.Working(nil); err != nil {
		return err
	}
	return run.Artifact(&a2a.Artifact{ArtifactID: "echo", Parts: []*a2a.Part{text(textOf(run.Message))}}, false, true)
})

func sendTask(t *testing.T, c *a2a.A2AServiceClient, req *a2a.SendMessageRequest) *a2a.Task {
	t.Helper()
	resp, err := c.SendMessage(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	return resp.Payload.(*a2a.SendMessageResponseTask).Task
}

func TestSendMessageBlocksUntilSettled(t *testing.T) {
	client, _ := serve(t, echoing)
	c := client("")
	task := sendTask(t, c, &a2a.SendMessageRequest{Message: userMessage("hello")})
	if task.Status.State != a2a.TaskStateCompleted || len(task.Artifacts) != 1 || textOf(&a2a.Message{Parts: task.Artifacts[0].Parts}) != "hello" {
		t.Fatalf("%s", task.AppendJSON(nil))
	}
	if task.ContextID == "" || len(task.History) != 1 || task.History[0].TaskID != task.ID {
		t.Fatalf("history %s", task.AppendJSON(nil))
	}
	zero := int32(0)
	got, err := c.GetTask(context.Background(), &a2a.GetTaskRequest{ID: task.ID, HistoryLength: &zero})
	if err != nil || len(got.History) != 0 || got.Status.State != a2a.TaskStateCompleted {
		t.Fatalf("GetTask: %v %s", err, got.AppendJSON(nil))
	}
}

func TestReturnImmediately(t *testing.T) {
	release := make(chan struct{})
	client, _ := serve(t, ExecutorFunc(func(ctx context.Context, run *Run) error {
		<-release
		return nil // returning with the task working completes it
	}))
	c := client("")
	task := sendTask(t, c, &a2a.SendMessageRequest{Message: userMessage("x"),
		Configuration: &a2a.SendMessageConfiguration{ReturnImmediately: true}})
	if task.Status.State != a2a.TaskStateSubmitted {
		t.Fatalf("state %s", task.Status.State)
	}
	close(release)
	waitState(t, c, task.ID, a2a.TaskStateCompleted)
}

func waitState(t *testing.T, c *a2a.A2AServiceClient, id string, want a2a.TaskState) *a2a.Task {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		got, err := c.GetTask(context.Background(), &a2a.GetTaskRequest{ID: id})
		if err != nil {
			t.Fatal(err)
		}
		if got.Status.State == want {
			return got
		}
	}
	t.Fatalf("task %s never reached %s", id, want)
	return nil
}

// summary names the events of a stream.
func summary(t *testing.T, events func(func(*a2a.StreamResponse, error) bool)) string {
	t.Helper()
	var out []string
	for ev, err := range events {
		if err != nil {
			t.Fatal(err)
		}
		switch p := ev.Payload.(type) {
		case *a2a.StreamResponseTask:
			out = append(out, "task:"+short(p.Task.Status.State))
		case *a2a.StreamResponseStatusUpdate:
			out = append(out, short(p.StatusUpdate.Status.State))
		case *a2a.StreamResponseArtifactUpdate:
			out = append(out, "artifact:"+p.ArtifactUpdate.Artifact.ArtifactID)
		}
	}
	return strings.Join(out, " ")
}

func short(s a2a.TaskState) string {
	return strings.ToLower(strings.TrimPrefix(s.String(), "TASK_STATE_"))
}

func TestStreamingMessage(t *testing.T) {
	client, _ := serve(t, echoing)
	got := summary(t, client("").SendStreamingMessage(context.Background(), &a2a.SendMessageRequest{Message: userMessage("s")}))
	if got != "task:submitted working artifact:echo completed" {
		t.Fatal(got)
	}
}

// TestInputRequired: a task that stops for input stays subscribable and
// continues, with the same ID, when the client answers. A subscription to
// the waiting task stays open through the answer, and ends when the task
// stops for input again or completes.
func TestInputRequired(t *testing.T) {
	client, _ := serve(t, ExecutorFunc(func(ctx context.Context, run *Run) error {
		switch textOf(run.Message) {
		case "book a table":
			return run.RequireInput(run.AgentMessage(text("for how many?")))
		case "4":
			if err := run.Working(nil); err != nil {
				return err
			}
			return run.RequireInput(run.AgentMessage(text("at what time?")))
		}
		return run.Complete(run.AgentMessage(text("booked for 4 at " + textOf(run.Message))))
	}))
	c := client("")
	ctx := context.Background()
	task := sendTask(t, c, &a2a.SendMessageRequest{Message: userMessage("book a table")})
	if task.Status.State != a2a.TaskStateInputRequired || textOf(task.Status.Message) != "for how many?" {
		t.Fatalf("%s", task.AppendJSON(nil))
	}
	wrongCtx := userMessage("4")
	wrongCtx.TaskID, wrongCtx.ContextID = task.ID, "another-context"
	if _, err := c.SendMessage(ctx, &a2a.SendMessageRequest{Message: wrongCtx}); !errors.Is(err, a2a.ErrInvalidParams) {
		t.Fatalf("context mismatch: %v", err)
	}
	answer := func(s string) *a2a.Task {
		m := userMessage(s)
		m.TaskID = task.ID
		return sendTask(t, c, &a2a.SendMessageRequest{Message: m})
	}
	first := subscribed(t, c, task.ID)
	if again := answer("4"); again.Status.State != a2a.TaskStateInputRequired {
		t.Fatalf("%s", again.AppendJSON(nil))
	}
	if got := <-first; got != "task:input_required working working input_required" {
		t.Fatalf("subscribed while the task waited for its first answer: %s", got)
	}
	second := subscribed(t, c, task.ID)
	done := answer("8pm")
	if done.ID != task.ID || done.Status.State != a2a.TaskStateCompleted || textOf(done.Status.Message) != "booked for 4 at 8pm" || len(done.History) != 6 {
		t.Fatalf("%s", done.AppendJSON(nil))
	}
	if got := <-second; got != "task:input_required working completed" {
		t.Fatalf("subscribed while the task waited for its second answer: %s", got)
	}
	answerMsg := userMessage("4")
	answerMsg.TaskID = task.ID
	if _, err := c.SendMessage(ctx, &a2a.SendMessageRequest{Message: answerMsg}); !errors.Is(err, a2a.ErrUnsupportedOperation) {
		t.Fatalf("message to a completed task: %v", err)
	}
}

// subscribed subscribes to a task and returns, once the subscription has
// received the task, the summary of the whole stream when it ends.
func subscribed(t *testing.T, c *a2a.A2AServiceClient, id string) <-chan string {
	t.Helper()
	first, out := make(chan struct{}), make(chan string, 1)
	go func() {
		var got []string
		for ev, err := range c.SubscribeToTask(context.Background(), &a2a.SubscribeToTaskRequest{ID: id}) {
			if err != nil {
				got = append(got, "error:"+err.Error())
				break
			}
			if len(got) == 0 {
				close(first)
			}
			got = append(got, summary(t, func(yield func(*a2a.StreamResponse, error) bool) { yield(ev, nil) }))
		}
		if len(got) == 0 {
			close(first)
		}
		out <- strings.Join(got, " ")
	}()
	select {
	case <-first:
	case <-time.After(5 * time.Second):
		t.Fatal("the subscription got nothing")
	}
	return out
}

// TestCancel: cancel stops the executor and ends the task; a terminal task
// can be neither canceled nor subscribed to.
func TestCancel(t *testing.T) {
	stopped := make(chan error, 1)
	client, _ := serve(t, ExecutorFunc(func(ctx context.Context, run *Run) error {
		run.Working(nil)
		<-ctx.Done()
		err := run.Artifact(&a2a.Artifact{ArtifactID: "late", Parts: []*a2a.Part{text("x")}}, false, true)
		stopped <- err
		return err
	}))
	c := client("")
	ctx := context.Background()
	task := sendTask(t, c, &a2a.SendMessageRequest{Message: userMessage("forever"), Configuration: &a2a.SendMessageConfiguration{ReturnImmediately: true}})
	waitState(t, c, task.ID, a2a.TaskStateWorking)
	canceled, err := c.CancelTask(ctx, &a2a.CancelTaskRequest{ID: task.ID})
	if err != nil || canceled.Status.State != a2a.TaskStateCanceled {
		t.Fatalf("CancelTask: %v", err)
	}
	select {
	case err := <-stopped:
		if !errors.Is(err, ErrCanceled) {
			t.Fatalf("a write after the cancel: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the executor's context was not cancelled")
	}
	if got := waitState(t, c, task.ID, a2a.TaskStateCanceled); len(got.Artifacts) != 0 {
		t.Fatal("an artifact was written after the cancel")
	}
	if _, err := c.CancelTask(ctx, &a2a.CancelTaskRequest{ID: task.ID}); !errors.Is(err, a2a.ErrTaskNotCancelable) {
		t.Fatalf("second cancel: %v", err)
	}
	for _, err := range c.SubscribeToTask(ctx, &a2a.SubscribeToTaskRequest{ID: task.ID}) {
		if !errors.Is(err, a2a.ErrUnsupportedOperation) {
			t.Fatalf("subscribe to a canceled task: %v", err)
		}
	}
}

// steppedArtifacts is an executor that adds n artifacts and then completes,
// taking one step for each on a receive from steps.
func steppedArtifacts(steps <-chan struct{}, n int) Executor {
	return ExecutorFunc(func(ctx context.Context, run *Run) error {
		for i := range n {
			<-steps
			if err := run.Artifact(&a2a.Artifact{ArtifactID: "a" + strconv.Itoa(i), Parts: []*a2a.Part{text("x")}}, false, true); err != nil {
				return err
			}
		}
		<-steps
		return run.Complete(nil)
	})
}

// TestSubscribeMidway: a subscriber that joins a running task gets the
// task as it is, then every later event, none twice.
func TestSubscribeMidway(t *testing.T) {
	steps := make(chan struct{})
	client, _ := serve(t, steppedArtifacts(steps, 4))
	c := client("")
	ctx := context.Background()
	var first []string
	var wg sync.WaitGroup
	wg.Add(1)
	taskID := make(chan string, 1)
	go func() {
		defer wg.Done()
		for ev, err := range c.SendStreamingMessage(ctx, &a2a.SendMessageRequest{Message: userMessage("go")}) {
			if err != nil {
				t.Error(err)
				return
			}
			if p, ok := ev.Payload.(*a2a.StreamResponseTask); ok {
				taskID <- p.Task.ID
			}
			first = append(first, "e")
		}
	}()
	id := <-taskID
	steps <- struct{}{}
	steps <- struct{}{}
	waitArtifacts(t, c, id, 2)
	sub := make(chan string, 1)
	go func() {
		sub <- summary(t, c.SubscribeToTask(ctx, &a2a.SubscribeToTaskRequest{ID: id}))
	}()
	time.Sleep(50 * time.Millisecond) // let the subscription take its snapshot
	steps <- struct{}{}
	steps <- struct{}{}
	steps <- struct{}{}
	if got := <-sub; got != "task:submitted artifact:a2 artifact:a3 completed" {
		t.Fatalf("subscriber saw %s", got)
	}
	wg.Wait()
	if len(first) != 6 {
		t.Fatalf("the first stream saw %d events", len(first))
	}
}

func waitArtifacts(t *testing.T, c *a2a.A2AServiceClient, id string, n int) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		got, _ := c.GetTask(context.Background(), &a2a.GetTaskRequest{ID: id})
		if got != nil && len(got.Artifacts) >= n {
			return
		}
	}
	t.Fatalf("task %s never had %d artifacts", id, n)
}

func TestFailures(t *testing.T) {
	client, _ := serve(t, ExecutorFunc(func(ctx context.Context, run *Run) error {
		switch textOf(run.Message) {
		case "error":
			return errors.New("database password is hunter2")
		case "panic":
			panic("boom")
		case "twice":
			if err := run.Complete(nil); err != nil {
				return err
			}
			return run.Working(nil)
		}
		return run.Reject(run.AgentMessage(text("not my job")))
	}))
	c := client("")
	for msg, want := range map[string]a2a.TaskState{"error": a2a.TaskStateFailed, "panic": a2a.TaskStateFailed,
		"twice": a2a.TaskStateCompleted, "other": a2a.TaskStateRejected} {
		task := sendTask(t, c, &a2a.SendMessageRequest{Message: userMessage(msg)})
		if task.Status.State != want {
			t.Errorf("%s: %s, want %s", msg, task.Status.State, want)
		}
		if strings.Contains(string(task.AppendJSON(nil)), "hunter2") {
			t.Errorf("%s: an internal error reached the client", msg)
		}
	}
}

func TestListTasksAndOwners(t *testing.T) {
	client, _ := serve(t, echoing)
	alice, bob := client("alice"), client("bob")
	ctx := context.Background()
	var ids []string
	for i := range 7 {
		ids = append(ids, sendTask(t, alice, &a2a.SendMessageRequest{Message: userMessage("t" + strconv.Itoa(i))}).ID)
		time.Sleep(2 * time.Millisecond) // distinct status times
	}
	// Bob's task is not alice's to list (TestCallersAreIsolated tries every
	// method across callers).
	sendTask(t, bob, &a2a.SendMessageRequest{Message: userMessage("bob's")})
	three, yes := int32(3), true
	var seen []string
	token := ""
	for page := 0; ; page++ {
		resp, err := alice.ListTasks(ctx, &a2a.ListTasksRequest{PageSize: &three, PageToken: token, IncludeArtifacts: &yes})
		if err != nil {
			t.Fatal(err)
		}
		if resp.TotalSize != 7 || resp.PageSize != 3 {
			t.Fatalf("page %d: %d tasks, page size %d", page, resp.TotalSize, resp.PageSize)
		}
		for _, task := range resp.Tasks {
			if len(task.Artifacts) != 1 {
				t.Fatal("includeArtifacts")
			}
			seen = append(seen, task.ID)
		}
		if resp.NextPageToken == "" {
			break
		}
		token = resp.NextPageToken
	}
	for i, id := range seen {
		if id != ids[len(ids)-1-i] {
			t.Fatalf("order %v, want newest first of %v", seen, ids)
		}
	}
	if len(seen) != 7 {
		t.Fatalf("saw %d tasks", len(seen))
	}
	resp, err := alice.ListTasks(ctx, &a2a.ListTasksRequest{})
	if err != nil || len(resp.Tasks) != 7 || len(resp.Tasks[0].Artifacts) != 0 {
		t.Fatalf("default page: %v", err)
	}
	big := int32(101)
	if _, err := alice.ListTasks(ctx, &a2a.ListTasksRequest{PageSize: &big}); !errors.Is(err, a2a.ErrInvalidParams) {
		t.Fatalf("pageSize 101: %v", err)
	}
	if _, err := alice.ListTasks(ctx, &a2a.ListTasksRequest{PageToken: "not-a-token"}); !errors.Is(err, a2a.ErrInvalidParams) {
		t.Fatalf("bad token: %v", err)
	}
}

// TestPrincipalAndAppend: the caller's principal reaches the executor, and
// artifact chunks appended under one ID make one artifact.
func TestPrincipalAndAppend(t *testing.T) {
	client, _ := serve(t, ExecutorFunc(func(ctx context.Context, run *Run) error {
		for i, word := range []string{"hello", " ", run.Principal.(string)} {
			if err := run.Artifact(&a2a.Artifact{ArtifactID: "greeting", Parts: []*a2a.Part{text(word)}}, i > 0, i == 2); err != nil {
				return err
			}
		}
		return nil
	}))
	var appends []string
	for ev, err := range client("gina").SendStreamingMessage(context.Background(), &a2a.SendMessageRequest{Message: userMessage("hi")}) {
		if err != nil {
			t.Fatal(err)
		}
		if u, ok := ev.Payload.(*a2a.StreamResponseArtifactUpdate); ok {
			appends = append(appends, strconv.FormatBool(u.ArtifactUpdate.Append)+"/"+strconv.FormatBool(u.ArtifactUpdate.LastChunk))
		}
	}
	if strings.Join(appends, " ") != "false/false true/false true/true" {
		t.Fatalf("chunks %v", appends)
	}
	list, err := client("gina").ListTasks(context.Background(), &a2a.ListTasksRequest{IncludeArtifacts: ptr(true)})
	if err != nil || len(list.Tasks) != 1 {
		t.Fatal(err)
	}
	arts := list.Tasks[0].Artifacts
	// The streamed words are stored as one text part.
	if len(arts) != 1 || len(arts[0].Parts) != 1 || textOf(&a2a.Message{Parts: arts[0].Parts}) != "hello gina" {
		t.Fatalf("artifacts %s", list.Tasks[0].AppendJSON(nil))
	}
}

func ptr[T any](v T) *T { return &v }

// TestOrphansFail: a working task nobody holds a lease on fails once the
// lease time has passed; a task whose executor runs longer than the lease
// keeps it.
func TestOrphansFail(t *testing.T) {
	store := NewMemory()
	lease := 150 * time.Millisecond
	rt := New(ExecutorFunc(func(ctx context.Context, run *Run) error {
		select {
		case <-time.After(4 * lease):
		case <-ctx.Done():
		}
		return run.Complete(nil)
	}), store, WithLease(lease), WithLogger(slog.New(slog.NewTextHandler(io.Discard, nil))))
	defer rt.Close()
	ctx := context.Background()
	old := time.Now().Add(-time.Hour)
	orphan := &a2a.Task{ID: "orphan", ContextID: "c", Status: &a2a.TaskStatus{State: a2a.TaskStateWorking, Timestamp: &old}}
	if err := store.Create(ctx, "", orphan, &a2a.StreamResponse{Payload: &a2a.StreamResponseTask{Task: orphan}}); err != nil {
		t.Fatal(err)
	}
	resp, err := rt.SendMessage(ctx, &a2a.SendMessageRequest{Message: userMessage("slow"), Configuration: &a2a.SendMessageConfiguration{ReturnImmediately: true}})
	if err != nil {
		t.Fatal(err)
	}
	slow := resp.Payload.(*a2a.SendMessageResponseTask).Task.ID
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		rec, _ := store.Get(ctx, "orphan")
		if rec.Task.Status.State == a2a.TaskStateFailed {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the orphaned task did not fail")
		}
	}
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		rec, _ := store.Get(ctx, slow)
		if rec.Task.Status.State == a2a.TaskStateCompleted {
			break
		}
		if rec.Task.Status.State == a2a.TaskStateFailed || time.Now().After(deadline) {
			t.Fatalf("the leased task ended %s", rec.Task.Status.State)
		}
	}
}

// lockedBuffer is a log sink for tests that read it while the runtime
// writes.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestCancelAndCloseEndRunsQuietly: an executor that stops because its
// task was canceled is not an error, and one that Close stops fails its
// task with the reason, neither logged as an error.
func TestCancelAndCloseEndRunsQuietly(t *testing.T) {
	var log lockedBuffer
	returned := make(chan struct{}, 2)
	client, rt := serve(t, ExecutorFunc(func(ctx context.Context, run *Run) error {
		defer func() { returned <- struct{}{} }()
		run.Working(nil)
		<-ctx.Done()
		return ctx.Err()
	}), WithLogger(slog.New(slog.NewTextHandler(&log, nil))))
	c := client("")
	ctx := context.Background()
	immediately := &a2a.SendMessageConfiguration{ReturnImmediately: true}
	canceled := sendTask(t, c, &a2a.SendMessageRequest{Message: userMessage("to cancel"), Configuration: immediately})
	closed := sendTask(t, c, &a2a.SendMessageRequest{Message: userMessage("to close"), Configuration: immediately})
	waitState(t, c, canceled.ID, a2a.TaskStateWorking)
	waitState(t, c, closed.ID, a2a.TaskStateWorking)
	if _, err := c.CancelTask(ctx, &a2a.CancelTaskRequest{ID: canceled.ID}); err != nil {
		t.Fatal(err)
	}
	<-returned
	rt.Close()
	<-returned
	got := waitState(t, c, closed.ID, a2a.TaskStateFailed)
	if msg := textOf(got.Status.Message); !strings.Contains(msg, "shut down") {
		t.Errorf("the closed task failed with %q", msg)
	}
	waitState(t, c, canceled.ID, a2a.TaskStateCanceled)
	if _, err := c.SendMessage(ctx, &a2a.SendMessageRequest{Message: userMessage("too late"), Configuration: immediately}); err == nil ||
		!strings.Contains(err.Error(), "shutting down") {
		t.Errorf("a message after Close: %v", err)
	}
	if strings.Contains(log.String(), "level=ERROR") {
		t.Errorf("logged as errors:\n%s", log.String())
	}
}
