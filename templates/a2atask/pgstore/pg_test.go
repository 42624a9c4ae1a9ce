package pgstore

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/agui-gen/agui-gen/gen/a2a"
	"github.com/agui-gen/agui-gen/gen/a2a/a2atask"
	"github.com/agui-gen/agui-gen/templates/a2atask/storetest"
)

func freshDatabase(t *testing.T) string { return storetest.PostgresDatabase(t) }

// The runtime uses what a store implements of these through type
// assertions: a method that drifted from them would be skipped, not fail.
var (
	_ a2atask.Store         = (*Store)(nil)
	_ a2atask.Appender      = (*Store)(nil)
	_ a2atask.LeasedCreator = (*Store)(nil)
	_ a2atask.Peeker        = (*Store)(nil)
	_ a2atask.PushOutbox    = (*Store)(nil)
)

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

func TestOutboxContract(t *testing.T) {
	storetest.RunOutbox(t, func(t *testing.T) storetest.OutboxStore { return open(t, freshDatabase(t)) })
}
