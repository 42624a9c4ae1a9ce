// The tests of the store that need the spec's types take them from the
// generated packages, which import the runtime, not the other way round.
package pgtask_test

import (
	"context"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/agui-gen/agui-gen/gen/a2a"
	"github.com/agui-gen/agui-gen/gen/a2a/a2atask"
	"github.com/agui-gen/agui-gen/runtime/postgres/pgtest"
	"github.com/agui-gen/agui-gen/runtime/taskstore/pgtask"
)

type store = pgtask.Store[*a2a.Task, *a2a.StreamResponse, *a2a.TaskPushNotificationConfig, a2a.TaskState]

func open(t *testing.T, dsn string, opts ...pgtask.Option) *store {
	t.Helper()
	s, err := pgtask.Open(context.Background(), dsn, a2atask.StoreSpec(), opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// TestMigrateToSnapshots: a database written before tasks were kept as a
// snapshot and its events (schema 3) opens with each task whole at its
// generation, and takes events appended after; a task's push config opens
// its outbox, owing the events after the migration only.
func TestMigrateToSnapshots(t *testing.T) {
	ctx := context.Background()
	dsn := pgtest.Database(t)
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	tk := &a2a.Task{ID: "t", ContextID: "c", Status: &a2a.TaskStatus{State: a2a.TaskStateWorking, Timestamp: &at},
		Artifacts: []*a2a.Artifact{{ArtifactID: "a", Parts: []*a2a.Part{{Content: &a2a.PartText{Text: "kept"}}}}}}
	ev := &a2a.StreamResponse{Payload: &a2a.StreamResponseTask{Task: tk}}
	for _, q := range append(pgtask.Migrations[:3:3],
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
