package sqlitestore

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/agui-gen/agui-gen/gen/a2a"
	"github.com/agui-gen/agui-gen/gen/a2a/a2atask"
	"github.com/agui-gen/agui-gen/templates/a2atask/storetest"
)

// The runtime uses what a store implements of these through type
// assertions: a method that drifted from them would be skipped, not fail.
var (
	_ a2atask.Store         = (*Store)(nil)
	_ a2atask.Appender      = (*Store)(nil)
	_ a2atask.LeasedCreator = (*Store)(nil)
	_ a2atask.Peeker        = (*Store)(nil)
	_ a2atask.PushOutbox    = (*Store)(nil)
)

func open(t *testing.T, path string, opts ...Option) *Store {
	t.Helper()
	s, err := Open(context.Background(), path, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestContract(t *testing.T) {
	t.Run("memory", func(t *testing.T) {
		storetest.Run(t, func(t *testing.T) a2atask.Store { return a2atask.NewMemory() })
	})
	t.Run("sqlite", func(t *testing.T) {
		storetest.Run(t, func(t *testing.T) a2atask.Store { return open(t, filepath.Join(t.TempDir(), "tasks.db")) })
	})
}

// TestReopenAndShare: tasks outlive the store that wrote them, and a second
// store on the same file sees the first one's writes.
func TestReopenAndShare(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "tasks.db")
	at := time.Now().UTC()
	tk := &a2a.Task{ID: "t", ContextID: "c", Status: &a2a.TaskStatus{State: a2a.TaskStateSubmitted, Timestamp: &at}}
	first, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	if err := first.Create(ctx, "o", tk, &a2a.StreamResponse{Payload: &a2a.StreamResponseTask{Task: tk}}); err != nil {
		t.Fatal(err)
	}
	first.Close()
	a := open(t, path, WithPollInterval(10*time.Millisecond))
	b := open(t, path, WithPollInterval(10*time.Millisecond))
	rec, err := a.Get(ctx, "t")
	if err != nil || rec.Generation != 1 || rec.Task.ContextID != "c" {
		t.Fatalf("reopened: %v %+v", err, rec)
	}
	signal, stop := b.Watch("t")
	defer stop()
	tk.Status.State = a2a.TaskStateWorking
	if _, err := a.Update(ctx, tk, 1, &a2a.StreamResponse{Payload: &a2a.StreamResponseStatusUpdate{StatusUpdate: &a2a.TaskStatusUpdateEvent{TaskID: "t", ContextID: "c", Status: tk.Status}}}); err != nil {
		t.Fatal(err)
	}
	deadline := time.After(5 * time.Second)
	for {
		select {
		case <-signal:
			if rec, _ := b.Get(ctx, "t"); rec.Generation == 2 {
				return
			}
		case <-deadline:
			t.Fatal("the second store never saw the first one's write")
		}
	}
}

// TestRuntimeOnSQLite: the task runtime on a SQLite file, through a
// restart: a task a first runtime ran is there, events and all, for the
// next one.
func TestRuntimeOnSQLite(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "tasks.db")
	exec := a2atask.ExecutorFunc(func(ctx context.Context, run *a2atask.Run) error {
		return run.Artifact(&a2a.Artifact{ArtifactID: "echo", Parts: run.Message.Parts}, false, true)
	})
	store := open(t, path)
	rt := a2atask.New(exec, store)
	var got []string
	err := rt.SendStreamingMessage(ctx, &a2a.SendMessageRequest{Message: &a2a.Message{MessageID: "m", Role: a2a.RoleUser,
		Parts: []*a2a.Part{{Content: &a2a.PartText{Text: "persist me"}}}}}, func(ev *a2a.StreamResponse) error {
		switch p := ev.Payload.(type) {
		case *a2a.StreamResponseTask:
			got = append(got, "task:"+p.Task.ID)
		case *a2a.StreamResponseArtifactUpdate:
			got = append(got, "artifact")
		case *a2a.StreamResponseStatusUpdate:
			got = append(got, p.StatusUpdate.Status.State.String())
		}
		return nil
	})
	if err != nil || len(got) != 3 || got[2] != "TASK_STATE_COMPLETED" {
		t.Fatalf("%v %v", err, got)
	}
	rt.Close()
	store.Close()

	again := a2atask.New(exec, open(t, path))
	defer again.Close()
	task, err := again.GetTask(ctx, &a2a.GetTaskRequest{ID: got[0][len("task:"):]})
	if err != nil || task.Status.State != a2a.TaskStateCompleted || task.Artifacts[0].Parts[0].Content.(*a2a.PartText).Text != "persist me" {
		t.Fatalf("after a restart: %v", err)
	}
}

func TestOutboxContract(t *testing.T) {
	storetest.RunOutbox(t, func(t *testing.T) storetest.OutboxStore { return open(t, filepath.Join(t.TempDir(), "tasks.db")) })
}
