package sqlitestore

import (
	"context"
	"database/sql"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/agui-gen/agui-gen/gen/a2a"
	"github.com/agui-gen/agui-gen/gen/a2a/a2atask"
	"github.com/agui-gen/agui-gen/templates/a2atask/storetest"
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

func TestNewerSchemaRefused(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "tasks.db")
	s := open(t, path)
	if _, err := s.db.Exec(`UPDATE a2a_schema SET version = 99`); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(ctx, path); err == nil {
		t.Fatal("opened a database from a newer version")
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

// TestMigrateToSnapshots: a database written before tasks were kept as a
// snapshot and its events (schema 3) opens with each task whole at its
// generation, and takes events appended after; a task's push config opens
// its outbox, owing the events after the migration only.
func TestMigrateToSnapshots(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "old.db")
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	tk := &a2a.Task{ID: "t", ContextID: "c", Status: &a2a.TaskStatus{State: a2a.TaskStateWorking, Timestamp: &at},
		Artifacts: []*a2a.Artifact{{ArtifactID: "a", Parts: []*a2a.Part{{Content: &a2a.PartText{Text: "kept"}}}}}}
	ev := &a2a.StreamResponse{Payload: &a2a.StreamResponseTask{Task: tk}}
	for _, q := range append(slices.Clone(migrations[:3]),
		`CREATE TABLE a2a_schema (version INTEGER NOT NULL); INSERT INTO a2a_schema (version) VALUES (3)`) {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := db.Exec(`INSERT INTO a2a_tasks (id, owner, context_id, state, updated, generation, task) VALUES ('t', 'o', 'c', ?, ?, 2, ?)`,
		int32(a2a.TaskStateWorking), at.UnixNano(), tk.AppendProto(nil)); err != nil {
		t.Fatal(err)
	}
	cfg := &a2a.TaskPushNotificationConfig{TaskID: "t", ID: "hook", URL: "https://example.com/hook"}
	if _, err := db.Exec(`INSERT INTO a2a_push_configs (task_id, id, config) VALUES ('t', 'hook', ?)`, cfg.AppendProto(nil)); err != nil {
		t.Fatal(err)
	}
	for g := 1; g <= 2; g++ {
		if _, err := db.Exec(`INSERT INTO a2a_task_events (task_id, generation, event) VALUES ('t', ?, ?)`, g, ev.AppendProto(nil)); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()

	s := open(t, path)
	rec, err := s.Get(ctx, "t")
	if err != nil || rec.Generation != 2 || len(rec.Task.Artifacts) != 1 {
		t.Fatalf("the migrated task: %v %+v", err, rec)
	}
	if owed, err := s.OwedPushes(ctx, time.Now(), 10); err != nil || len(owed) != 0 {
		t.Fatalf("owed after the migration: %v %v", owed, err)
	}
	more := &a2a.StreamResponse{Payload: &a2a.StreamResponseArtifactUpdate{ArtifactUpdate: &a2a.TaskArtifactUpdateEvent{
		TaskID: "t", ContextID: "c", Append: true, Artifact: &a2a.Artifact{ArtifactID: "a", Parts: []*a2a.Part{{Content: &a2a.PartText{Text: " and more"}}}}}}}
	if gen, err := s.Append(ctx, "t", 2, more, nil); err != nil || gen != 3 {
		t.Fatalf("append: %d %v", gen, err)
	}
	if rec, err := s.Get(ctx, "t"); err != nil || len(rec.Task.Artifacts[0].Parts) != 1 || rec.Task.Artifacts[0].Parts[0].Content.(*a2a.PartText).Text != "kept and more" {
		t.Fatalf("after the append: %v %+v", err, rec)
	}
	if delivered, ok, err := s.ClaimPushes(ctx, "t", "h", time.Now().Add(time.Minute)); err != nil || !ok || delivered != 2 {
		t.Fatalf("the event after the migration is not owed: %v %v %d", err, ok, delivered)
	}
}

func TestOutboxContract(t *testing.T) {
	storetest.RunOutbox(t, func(t *testing.T) storetest.OutboxStore { return open(t, filepath.Join(t.TempDir(), "tasks.db")) })
}
