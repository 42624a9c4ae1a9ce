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

// TestSignals: a watcher is signalled each generation once, the latest
// when several come before it looks, and an unknown generation stays
// unknown.
func TestSignals(t *testing.T) {
	var s Signals
	a, stopA := s.Watch("t")
	defer stopA()
	s.Notify("t", 3)
	s.Notify("t", 3) // the write's own signal, then its echo from the database
	if gen, ok := pending(a); !ok || gen != 3 {
		t.Fatalf("first signal: %d %v", gen, ok)
	}
	if gen, ok := pending(a); ok {
		t.Fatalf("signalled twice: %d", gen)
	}
	s.Notify("t", 2) // late news
	if gen, ok := pending(a); ok {
		t.Fatalf("signalled an older generation: %d", gen)
	}
	s.Notify("t", 4)
	s.Notify("t", 5)
	if gen, _ := pending(a); gen != 5 {
		t.Fatalf("coalesced: %d, want 5", gen)
	}
	s.Notify("t", 6)
	s.Notify("t", 0) // a replica that does not tell
	if gen, _ := pending(a); gen != 0 {
		t.Fatalf("an unknown generation coalesced into %d", gen)
	}
	b, stopB := s.Watch("t") // a new watcher has seen nothing
	s.Notify("t", 6)
	if gen, ok := pending(b); !ok || gen != 6 {
		t.Fatalf("new watcher: %d %v", gen, ok)
	}
	stopB()
	if got := s.Watched(); len(got) != 1 || got[0] != "t" {
		t.Fatalf("watched: %v", got)
	}
}

// peekCounter counts the reads a run's watcher makes of its task.
type peekCounter struct {
	*Memory
	peeks atomic.Int64
}

func (p *peekCounter) Peek(ctx context.Context, id string) (int64, a2a.TaskState, error) {
	p.peeks.Add(1)
	return p.Memory.Peek(ctx, id)
}

// TestRunIgnoresItsOwnWrites: a run that writes 200 events reads its task
// once, the first look, and not for any of its own writes.
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
	if n := store.peeks.Load(); n > 1 {
		t.Fatalf("the run read its task %d times for 202 writes of its own", n)
	}
}
