package pgstore

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/agui-gen/agui-gen/gen/a2a"
	"github.com/agui-gen/agui-gen/gen/a2a/a2atask"
	"github.com/agui-gen/agui-gen/templates/a2atask/storetest"
)

func freshDatabase(t *testing.T) string { return storetest.PostgresDatabase(t) }

func open(t *testing.T, dsn string, opts ...Option) *Store {
	t.Helper()
	s, err := Open(context.Background(), dsn, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestContract(t *testing.T) {
	storetest.Run(t, func(t *testing.T) a2atask.Store { return open(t, freshDatabase(t)) })
}

// TestNotifyAcrossReplicas: a write on one replica wakes a watcher on
// another through NOTIFY, well before the poll would, with the generation
// written; a watcher on the writing replica wakes once, not again when the
// NOTIFY comes back.
func TestNotifyAcrossReplicas(t *testing.T) {
	dsn := freshDatabase(t)
	a := open(t, dsn, WithPollInterval(time.Hour))
	b := open(t, dsn, WithPollInterval(time.Hour))
	ctx := context.Background()
	at := time.Now().UTC()
	tk := &a2a.Task{ID: "t", ContextID: "c", Status: &a2a.TaskStatus{State: a2a.TaskStateSubmitted, Timestamp: &at}}
	if err := a.Create(ctx, "", tk, &a2a.StreamResponse{Payload: &a2a.StreamResponseTask{Task: tk}}); err != nil {
		t.Fatal(err)
	}
	signal, stop := b.Watch("t")
	defer stop()
	own, stopOwn := a.Watch("t")
	defer stopOwn()
	time.Sleep(100 * time.Millisecond) // b's LISTEN is in place
	tk.Status.State = a2a.TaskStateWorking
	if _, err := a.Update(ctx, tk, 1, &a2a.StreamResponse{Payload: &a2a.StreamResponseStatusUpdate{StatusUpdate: &a2a.TaskStatusUpdateEvent{TaskID: "t", ContextID: "c", Status: tk.Status}}}); err != nil {
		t.Fatal(err)
	}
	// The create's announcement may come after the watch began: generation
	// 1, then 2.
	for gen := int64(0); gen != 2; {
		select {
		case gen = <-signal:
			if gen != 1 && gen != 2 {
				t.Fatalf("the other replica was told generation %d, want 2", gen)
			}
		case <-time.After(5 * time.Second):
			t.Fatal("no notification reached the other replica")
		}
	}
	// An appended event, one statement, notifies too.
	art := &a2a.StreamResponse{Payload: &a2a.StreamResponseArtifactUpdate{ArtifactUpdate: &a2a.TaskArtifactUpdateEvent{
		TaskID: "t", ContextID: "c", Artifact: &a2a.Artifact{ArtifactID: "a", Parts: []*a2a.Part{{Content: &a2a.PartText{Text: "x"}}}}}}}
	if _, err := a.Append(ctx, "t", 2, art, nil); err != nil {
		t.Fatal(err)
	}
	select {
	case gen := <-signal:
		if gen != 3 {
			t.Fatalf("the other replica was told generation %d, want 3", gen)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no notification of the append reached the other replica")
	}
	if gen := <-own; gen != 3 {
		t.Fatalf("the writing replica's watcher: generation %d, want 3 (its two signals coalesced)", gen)
	}
	select {
	case gen := <-own:
		t.Fatalf("the writing replica's watcher woke again, for generation %d: its NOTIFY came back", gen)
	case <-time.After(300 * time.Millisecond):
	}
}

// TestCancelAcrossReplicas: a task runs on replica A; replica B follows it
// and cancels it; A's executor sees its context cancelled.
func TestCancelAcrossReplicas(t *testing.T) {
	dsn := freshDatabase(t)
	ctx := context.Background()
	started, stopped := make(chan string, 1), make(chan error, 1)
	a := a2atask.New(a2atask.ExecutorFunc(func(ctx context.Context, run *a2atask.Run) error {
		if err := run.Working(nil); err != nil {
			return err
		}
		started <- run.TaskID()
		<-ctx.Done()
		stopped <- ctx.Err()
		return ctx.Err()
	}), open(t, dsn))
	defer a.Close()
	b := a2atask.New(a2atask.ExecutorFunc(func(context.Context, *a2atask.Run) error {
		return errors.New("replica B runs nothing in this test")
	}), open(t, dsn))
	defer b.Close()
	resp, err := a.SendMessage(ctx, &a2a.SendMessageRequest{Message: &a2a.Message{MessageID: "m", Role: a2a.RoleUser,
		Parts: []*a2a.Part{{Content: &a2a.PartText{Text: "long job"}}}}, Configuration: &a2a.SendMessageConfiguration{ReturnImmediately: true}})
	if err != nil {
		t.Fatal(err)
	}
	id := resp.Payload.(*a2a.SendMessageResponseTask).Task.ID
	<-started
	followed := make(chan []string, 1)
	go func() {
		var states []string
		b.SubscribeToTask(ctx, &a2a.SubscribeToTaskRequest{ID: id}, func(ev *a2a.StreamResponse) error {
			switch p := ev.Payload.(type) {
			case *a2a.StreamResponseTask:
				states = append(states, "task:"+p.Task.Status.State.String())
			case *a2a.StreamResponseStatusUpdate:
				states = append(states, p.StatusUpdate.Status.State.String())
			}
			return nil
		})
		followed <- states
	}()
	time.Sleep(100 * time.Millisecond)
	if _, err := b.CancelTask(ctx, &a2a.CancelTaskRequest{ID: id}); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-stopped:
		if !errors.Is(err, context.Canceled) {
			t.Fatal(err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the executor on replica A was not cancelled")
	}
	select {
	case states := <-followed:
		if len(states) != 2 || states[0] != "task:TASK_STATE_WORKING" || states[1] != "TASK_STATE_CANCELED" {
			t.Fatalf("replica B followed %v", states)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the subscription on replica B did not end")
	}
}

// TestMigrateToSnapshots: a database written before tasks were kept as a
// snapshot and its events (schema 3) opens with each task whole at its
// generation, and takes events appended after; a task's push config opens
// its outbox, owing the events after the migration only.
func TestMigrateToSnapshots(t *testing.T) {
	ctx := context.Background()
	dsn := freshDatabase(t)
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	tk := &a2a.Task{ID: "t", ContextID: "c", Status: &a2a.TaskStatus{State: a2a.TaskStateWorking, Timestamp: &at},
		Artifacts: []*a2a.Artifact{{ArtifactID: "a", Parts: []*a2a.Part{{Content: &a2a.PartText{Text: "kept"}}}}}}
	ev := &a2a.StreamResponse{Payload: &a2a.StreamResponseTask{Task: tk}}
	for _, q := range append(migrations[:3:3],
		`CREATE TABLE a2a_schema (version integer NOT NULL)`, `INSERT INTO a2a_schema (version) VALUES (3)`) {
		if _, err := conn.Exec(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := conn.Exec(ctx, `INSERT INTO a2a_tasks (id, owner, context_id, state, updated, generation, task) VALUES ('t', 'o', 'c', $1, $2, 2, $3)`,
		int32(a2a.TaskStateWorking), at.UnixNano(), tk.AppendProto(nil)); err != nil {
		t.Fatal(err)
	}
	cfg := &a2a.TaskPushNotificationConfig{TaskID: "t", ID: "hook", URL: "https://example.com/hook"}
	if _, err := conn.Exec(ctx, `INSERT INTO a2a_push_configs (task_id, id, config) VALUES ('t', 'hook', $1)`, cfg.AppendProto(nil)); err != nil {
		t.Fatal(err)
	}
	for g := 1; g <= 2; g++ {
		if _, err := conn.Exec(ctx, `INSERT INTO a2a_task_events (task_id, generation, event) VALUES ('t', $1, $2)`, g, ev.AppendProto(nil)); err != nil {
			t.Fatal(err)
		}
	}
	conn.Close(ctx)

	s := open(t, dsn)
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
	storetest.RunOutbox(t, func(t *testing.T) storetest.OutboxStore { return open(t, freshDatabase(t)) })
}
