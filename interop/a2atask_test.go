package interop_test

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agui-gen/agui-gen/gen/a2a"
	"github.com/agui-gen/agui-gen/templates/a2atask/storetest"
)

var (
	replicaOnce sync.Once
	replicaBin  string
	replicaErr  error
)

func buildReplica(t *testing.T) string {
	replicaOnce.Do(func() {
		dir, err := os.MkdirTemp("", "a2areplica")
		if err != nil {
			replicaErr = err
			return
		}
		replicaBin = filepath.Join(dir, "a2areplica")
		if out, err := exec.Command("go", "build", "-o", replicaBin, "./a2areplica").CombinedOutput(); err != nil {
			replicaErr = fmt.Errorf("building a2areplica: %v\n%s", err, out)
		}
	})
	if replicaErr != nil {
		t.Fatal(replicaErr)
	}
	return replicaBin
}

// replica is one server process of the task runtime.
type replica struct {
	url string
	cmd *exec.Cmd
}

func startReplica(t *testing.T, store string, args ...string) *replica {
	t.Helper()
	cmd := exec.Command(buildReplica(t), append([]string{"-store", store}, args...)...)
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		stdin.Close()
		cmd.Process.Kill()
		cmd.Wait()
	})
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatalf("a replica did not start: %v", err)
	}
	return &replica{url: strings.TrimSpace(line), cmd: cmd}
}

// sseEvent is one event as a client received it.
type sseEvent struct {
	id   int64
	data string
}

func parseSSE(r io.Reader) []sseEvent {
	var out []sseEvent
	var id int64
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if v, ok := strings.CutPrefix(line, "id: "); ok {
			id, _ = strconv.ParseInt(v, 10, 64)
		} else if v, ok := strings.CutPrefix(line, "data: "); ok {
			out = append(out, sseEvent{id: id, data: v})
			id = 0
		}
	}
	return out
}

// subscribe follows a task over HTTP+JSON, from lastEventID when not
// empty, and returns its events once the stream ends.
func subscribe(t *testing.T, base, id, lastEventID string) <-chan []sseEvent {
	out := make(chan []sseEvent, 1)
	req, _ := http.NewRequest(http.MethodGet, base+"/tasks/"+id+":subscribe", nil)
	req.Header.Set("A2A-Version", "1.0")
	if lastEventID != "" {
		req.Header.Set("Last-Event-ID", lastEventID)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if res.StatusCode != 200 {
		t.Fatalf("subscribe: %s", res.Status)
	}
	go func() {
		defer res.Body.Close()
		out <- parseSSE(res.Body)
	}()
	return out
}

func contiguous(events []sseEvent, from int64) error {
	for i, e := range events {
		if e.id != from+int64(i) {
			return fmt.Errorf("event %d has id %d, want %d", i, e.id, from+int64(i))
		}
	}
	return nil
}

// TestReplicasOnPostgres is the scale-out scenario: three server processes
// on one Postgres. A streaming task starts on A; B subscribes; A's client
// is killed with SIGKILL mid-stream and resumes on C with Last-Event-ID;
// B cancels. Every event reaches the client exactly once, in order, and
// the executor on A stops.
func TestReplicasOnPostgres(t *testing.T) {
	dsn := storetest.PostgresDatabase(t)
	if _, err := exec.LookPath("curl"); err != nil {
		t.Skip("no curl to play the client that gets killed")
	}
	a := startReplica(t, dsn, "-steps", "200", "-every", "40ms")
	b := startReplica(t, dsn)
	c := startReplica(t, dsn)

	out := filepath.Join(t.TempDir(), "stream.txt")
	f, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	client := exec.Command("curl", "-sN", "-H", "A2A-Version: 1.0", "-H", "Content-Type: application/json",
		"-d", `{"message":{"messageId":"m1","role":"ROLE_USER","parts":[{"text":"run long"}]}}`, a.url+"/message:stream")
	client.Stdout = f
	if err := client.Start(); err != nil {
		t.Fatal(err)
	}
	var before []sseEvent
	for deadline := time.Now().Add(10 * time.Second); len(before) < 6; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the stream on A gave %d events", len(before))
		}
		data, _ := os.ReadFile(out)
		before = parseSSE(bytes.NewReader(data))
	}
	var first a2a.StreamResponse
	if err := first.UnmarshalJSON([]byte(before[0].data)); err != nil {
		t.Fatal(err)
	}
	task := first.Payload.(*a2a.StreamResponseTask).Task
	followB := subscribe(t, b.url, task.ID, "")
	client.Process.Kill() // SIGKILL: the client dies mid-stream
	client.Wait()
	f.Close()
	data, _ := os.ReadFile(out)
	before = parseSSE(bytes.NewReader(data))
	// A partial last line from the killed client is dropped by parseSSE only
	// if it is incomplete JSON; keep the events that parse.
	for len(before) > 0 && !jsonOK(before[len(before)-1].data) {
		before = before[:len(before)-1]
	}
	if err := contiguous(before, 1); err != nil {
		t.Fatalf("before the kill: %v", err)
	}
	last := before[len(before)-1].id
	time.Sleep(300 * time.Millisecond) // the task runs on while nobody reads it
	resumed := subscribe(t, c.url, task.ID, strconv.FormatInt(last, 10))
	time.Sleep(200 * time.Millisecond)
	cancelReq, _ := http.NewRequest(http.MethodPost, b.url+"/tasks/"+task.ID+":cancel", strings.NewReader("{}"))
	cancelReq.Header.Set("A2A-Version", "1.0")
	cancelReq.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(cancelReq)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 200 {
		t.Fatalf("cancel on B: %s", res.Status)
	}
	var after, onB []sseEvent
	select {
	case after = <-resumed:
	case <-time.After(10 * time.Second):
		t.Fatal("the resumed stream on C did not end")
	}
	select {
	case onB = <-followB:
	case <-time.After(10 * time.Second):
		t.Fatal("the subscription on B did not end")
	}
	if err := contiguous(after, last+1); err != nil {
		t.Fatalf("after resuming on C: %v", err)
	}
	if len(after) == 0 || !strings.Contains(after[len(after)-1].data, "TASK_STATE_CANCELED") {
		t.Fatalf("the resumed stream did not end with the cancel: %v", after)
	}
	if len(onB) < 2 || !strings.HasPrefix(onB[0].data, `{"task":`) || contiguous(onB[1:], onB[0].id+1) != nil ||
		onB[len(onB)-1].id != after[len(after)-1].id {
		t.Fatalf("B's subscription: %v", ids(onB))
	}
	// The executor on A has stopped: the task gains no artifact after the cancel.
	got := getTask(t, a.url, task.ID)
	time.Sleep(300 * time.Millisecond)
	if again := getTask(t, a.url, task.ID); again.Status.State != a2a.TaskStateCanceled || len(again.Artifacts) != len(got.Artifacts) {
		t.Fatalf("after the cancel: %s with %d then %d artifacts", again.Status.State, len(got.Artifacts), len(again.Artifacts))
	}
	t.Logf("client saw events 1–%d on A, %d–%d on C after SIGKILL; B saw %d", last, last+1, after[len(after)-1].id, len(onB))
}

func ids(events []sseEvent) []int64 {
	var out []int64
	for _, e := range events {
		out = append(out, e.id)
	}
	return out
}

func jsonOK(s string) bool {
	var m a2a.StreamResponse
	return m.UnmarshalJSON([]byte(s)) == nil
}

func getTask(t *testing.T, base, id string) *a2a.Task {
	t.Helper()
	task, err := a2a.NewA2AServiceClient(a2a.NewRESTTransport(base)).GetTask(context.Background(), &a2a.GetTaskRequest{ID: id})
	if err != nil {
		t.Fatal(err)
	}
	return task
}

// TestSQLiteSurvivesKill9: a server on a SQLite file is killed with
// SIGKILL mid-task; a new one on the same file has the task and every event
// written before the kill, and fails the task once its lease has run out,
// since its executor died with the first process.
func TestSQLiteSurvivesKill9(t *testing.T) {
	store := "sqlite:" + filepath.Join(t.TempDir(), "tasks.db")
	first := startReplica(t, store, "-steps", "200", "-every", "20ms", "-lease", "600ms")
	c := a2a.NewA2AServiceClient(a2a.NewRESTTransport(first.url))
	resp, err := c.SendMessage(context.Background(), &a2a.SendMessageRequest{Message: &a2a.Message{MessageID: "m", Role: a2a.RoleUser,
		Parts: []*a2a.Part{{Content: &a2a.PartText{Text: "x"}}}}, Configuration: &a2a.SendMessageConfiguration{ReturnImmediately: true}})
	if err != nil {
		t.Fatal(err)
	}
	id := resp.Payload.(*a2a.SendMessageResponseTask).Task.ID
	for deadline := time.Now().Add(10 * time.Second); len(getTask(t, first.url, id).Artifacts) < 5; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the task made no progress")
		}
	}
	seen := len(getTask(t, first.url, id).Artifacts)
	first.cmd.Process.Kill() // SIGKILL
	first.cmd.Wait()
	second := startReplica(t, store, "-lease", "600ms")
	task := getTask(t, second.url, id)
	if len(task.Artifacts) < seen || (task.Status.State != a2a.TaskStateWorking && task.Status.State != a2a.TaskStateFailed) {
		t.Fatalf("after SIGKILL and a restart: %s, %d artifacts (had seen %d)", task.Status.State, len(task.Artifacts), seen)
	}
	// Its event log is whole: after the task, its working status and one
	// event per artifact, none missing.
	req, _ := http.NewRequest(http.MethodGet, second.url+"/tasks/"+id+":subscribe", nil)
	req.Header.Set("A2A-Version", "1.0")
	req.Header.Set("Last-Event-ID", "1")
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	res, err := http.DefaultClient.Do(req.WithContext(ctx))
	if err != nil {
		t.Fatal(err)
	}
	events := parseSSE(res.Body) // ends when ctx does: the task is still working
	res.Body.Close()
	if err := contiguous(events, 2); err != nil || len(events) < len(task.Artifacts)+1 {
		t.Fatalf("events after a restart: %v (%d for %d artifacts)", err, len(events), len(task.Artifacts))
	}
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		task = getTask(t, second.url, id)
		if task.Status.State == a2a.TaskStateFailed && strings.Contains(string(task.Status.Message.AppendJSON(nil)), "process ended") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the orphaned task is still %s", task.Status.State)
		}
	}
}
