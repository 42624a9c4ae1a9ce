package a2atask

import (
	"context"
	"sync/atomic"
	"testing"

	a2a "github.com/agui-gen/agui-gen/gen/a2a"
)

func pending(ch <-chan int64) (int64, bool) {
	select {
	case gen := <-ch:
		return gen, true
	default:
		return 0, false
	}
}

// peekCounter counts the reads made of its tasks.
type peekCounter struct {
	*Memory
	peeks, reads atomic.Int64 // Peek; Get and Events
}

func (p *peekCounter) Peek(ctx context.Context, id string) (int64, a2a.TaskState, error) {
	p.peeks.Add(1)
	return p.Memory.Peek(ctx, id)
}

func (p *peekCounter) Get(ctx context.Context, id string) (*Record, error) {
	p.reads.Add(1)
	return p.Memory.Get(ctx, id)
}

func (p *peekCounter) Events(ctx context.Context, id string, after int64) ([]Event, error) {
	p.reads.Add(1)
	return p.Memory.Events(ctx, id, after)
}

// TestBlockingSendReadsNothing: a blocking SendMessage answers with the
// task its run settled, reading nothing back; one whose task another
// writer ended answers from the store.
func TestBlockingSendReadsNothing(t *testing.T) {
	store := &peekCounter{Memory: NewMemory()}
	canceled := make(chan string, 1)
	rt := New(ExecutorFunc(func(ctx context.Context, run *Run) error {
		if textOf(run.Message) == "wait" {
			canceled <- run.TaskID()
			<-ctx.Done()
			return ctx.Err()
		}
		return run.Artifact(&a2a.Artifact{ArtifactID: "a", Parts: []*a2a.Part{text("answer")}}, false, true)
	}), store, WithLogger(quietLogger()))
	defer rt.Close()
	ctx := context.Background()
	res, err := rt.SendMessage(ctx, &a2a.SendMessageRequest{Message: userMessage("go")})
	if err != nil {
		t.Fatal(err)
	}
	task := res.Payload.(*a2a.SendMessageResponseTask).Task
	if task.Status.State != a2a.TaskStateCompleted || len(task.Artifacts) != 1 || len(task.History) != 1 {
		t.Fatalf("answer: %s", task.AppendJSON(nil))
	}
	if stored, _ := store.Memory.Get(ctx, task.ID); string(stored.Task.AppendJSON(nil)) != string(task.AppendJSON(nil)) {
		t.Fatalf("answered\n%s\nstored\n%s", task.AppendJSON(nil), stored.Task.AppendJSON(nil))
	}
	if n := store.reads.Load(); n != 0 {
		t.Fatalf("a blocking send read its task %d times", n)
	}
	go func() {
		rt.CancelTask(ctx, &a2a.CancelTaskRequest{ID: <-canceled})
	}()
	res, err = rt.SendMessage(ctx, &a2a.SendMessageRequest{Message: userMessage("wait")})
	if err != nil {
		t.Fatal(err)
	}
	if task := res.Payload.(*a2a.SendMessageResponseTask).Task; task.Status.State != a2a.TaskStateCanceled {
		t.Fatalf("a task canceled while the send waited: %s", task.Status.State)
	}
}

// TestRunIgnoresItsOwnWrites: a run that writes 200 events reads nothing
// of its task for its own writes: its watch began before the first.
func TestRunIgnoresItsOwnWrites(t *testing.T) {
	store := &peekCounter{Memory: NewMemory()}
	rt := New(ExecutorFunc(func(ctx context.Context, run *Run) error {
		for i := range 200 {
			if err := run.Artifact(&a2a.Artifact{ArtifactID: "a", Parts: []*a2a.Part{text("x")}}, i > 0, false); err != nil {
				return err
			}
		}
		return nil
	}), store, WithLogger(quietLogger()))
	defer rt.Close()
	// Returned at once, and waited for with GetTask: a blocking send's
	// follower peeks too.
	res, err := rt.SendMessage(context.Background(), &a2a.SendMessageRequest{Message: userMessage("go"),
		Configuration: &a2a.SendMessageConfiguration{ReturnImmediately: true}})
	if err != nil {
		t.Fatal(err)
	}
	id := res.Payload.(*a2a.SendMessageResponseTask).Task.ID
	waitStored(t, store.Memory, id, a2a.TaskStateCompleted)
	if n := store.peeks.Load(); n != 0 {
		t.Fatalf("the run read its task %d times for 202 writes of its own", n)
	}
}
