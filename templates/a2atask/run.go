package a2atask

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"go.opentelemetry.io/otel/trace"

	a2a "github.com/agui-gen/agui-gen/gen/a2a"
)

// Executor runs the agent. Execute is called once per message a task
// receives: for a new task, and again when a task that required input or
// authorization gets its answer. It reports progress through run, and
// ends the task with one of run's Complete, Fail, Reject, or stops it with
// RequireInput or RequireAuth. Returning nil with the task still working
// completes it; returning an error fails it, with the error's text. ctx is
// cancelled when the task is canceled, from this process or another one,
// and when the runtime closes: an error returned then fails the task,
// saying the server shut down.
type Executor interface {
	Execute(ctx context.Context, run *Run) error
}

// ExecutorFunc adapts a function to Executor.
type ExecutorFunc func(ctx context.Context, run *Run) error

// Execute calls f.
func (f ExecutorFunc) Execute(ctx context.Context, run *Run) error { return f(ctx, run) }

// ErrCanceled is returned by Run's methods once the task has been canceled.
var ErrCanceled = errors.New("a2atask: the task was canceled")

// Run is one execution of an Executor: the message it answers, the task as
// it stood, and the methods that change the task. Each change is one
// event, stored before the method returns. The methods may be called from
// several goroutines; once one has settled the task (ended it, or stopped
// it for input or authorization) the run writes no more.
type Run struct {
	// Message is the message being answered, as the client sent it.
	Message *a2a.Message
	// Principal is who sent it, as the bindings' authenticator found.
	Principal any

	rt   *Runtime
	mu   sync.Mutex
	task *a2a.Task
	gen  int64
	// artifacts indexes task's artifacts, so that one more costs no scan.
	artifacts artifactIndex
	// leased reports a task stored with the run's first lease.
	leased bool
	// writing is the generation of the run's last write, made or under
	// way: signals up to it are the run's own, which its watcher skips.
	// recheck has the watcher look at the task once a write of the run
	// lost to another writer's, whose signal it may have skipped.
	writing atomic.Int64
	recheck chan struct{}
	// signal is the store's watch of the task, from before the run's
	// first write, which stopWatch ends.
	signal    <-chan int64
	stopWatch func()
	// done is closed once the run has returned and written its last.
	done chan struct{}
	// parent is the call that started the run, whose span the executor's
	// span (span, set before the executor starts) is the child of.
	parent traceParent
	span   trace.Span
	// ended is set once the run has settled the task; broken, when a write
	// failed and the task could not be read back.
	ended  bool
	broken error
}

// Task returns a copy of the task as this run last saw it.
func (r *Run) Task() *a2a.Task {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.task.Clone()
}

// state is the task's state as this run last saw it.
func (r *Run) state() a2a.TaskState {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.task.Status.State
}

// settled returns the task as the run settled it, when it did: after done,
// when the run writes no more, a shallow copy is the caller's to reslice.
func (r *Run) settled() (*a2a.Task, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.ended {
		return nil, false
	}
	t := *r.task
	return &t, true
}

// TaskID and ContextID identify the task.
func (r *Run) TaskID() string    { return r.task.ID }
func (r *Run) ContextID() string { return r.task.ContextID }

// Owner is who the task belongs to, as WithOwner names the run's
// principal: "" when calls are not authenticated.
func (r *Run) Owner() string { return r.rt.owner(r.Principal) }

// Working reports progress, with an optional message from the agent.
func (r *Run) Working(msg *a2a.Message) error { return r.setStatus(a2a.TaskStateWorking, msg) }

// Complete ends the task successfully.
func (r *Run) Complete(msg *a2a.Message) error { return r.setStatus(a2a.TaskStateCompleted, msg) }

// Fail ends the task as failed.
func (r *Run) Fail(msg *a2a.Message) error { return r.setStatus(a2a.TaskStateFailed, msg) }

// Reject ends the task unstarted: the agent declines the request.
func (r *Run) Reject(msg *a2a.Message) error { return r.setStatus(a2a.TaskStateRejected, msg) }

// RequireInput stops the task until the client answers msg.
func (r *Run) RequireInput(msg *a2a.Message) error {
	return r.setStatus(a2a.TaskStateInputRequired, msg)
}

// RequireAuth stops the task until the client authorizes what msg asks.
func (r *Run) RequireAuth(msg *a2a.Message) error {
	return r.setStatus(a2a.TaskStateAuthRequired, msg)
}

// AgentMessage makes a message from the agent in this task, of the given
// parts.
func (r *Run) AgentMessage(parts ...*a2a.Part) *a2a.Message {
	return &a2a.Message{MessageID: newID(), ContextID: r.task.ContextID, TaskID: r.task.ID, Role: a2a.RoleAgent, Parts: parts}
}

// ArtifactOptions say how AddArtifact's artifact joins the task's, as the
// artifact update event's append and lastChunk say on the wire. The zero
// value adds (or replaces) an artifact that more chunks may extend.
type ArtifactOptions struct {
	// Append adds the artifact's parts to the task's artifact of the same
	// ID, as its next chunk, where without it the artifact is added, or
	// replaces the one of that ID.
	Append bool
	// LastChunk says that the artifact is whole: no chunk follows.
	LastChunk bool
}

// AddArtifact adds an artifact to the task as one event, as o says: a
// whole one with ArtifactOptions{LastChunk: true}, or one that streams in
// chunks, the first with ArtifactOptions{}, the next ones with
// ArtifactOptions{Append: true}, the last with both.
func (r *Run) AddArtifact(art *a2a.Artifact, o ArtifactOptions) error {
	return r.Artifact(art, o.Append, o.LastChunk)
}

// Artifact adds an artifact, or with appendParts adds parts to the
// artifact of the same ID; lastChunk says that the artifact is whole.
// Appended plain text continues the artifact's last plain text part: text
// streamed as deltas is stored as one part, and the stream carries each
// delta. It is AddArtifact(art, ArtifactOptions{Append: appendParts,
// LastChunk: lastChunk}), which reads better at the call site.
func (r *Run) Artifact(art *a2a.Artifact, appendParts, lastChunk bool) error {
	if art == nil || art.ArtifactID == "" {
		return errors.New("a2atask: an artifact needs an ID")
	}
	return r.mutate(func(t *a2a.Task) (*a2a.StreamResponse, error) {
		if Terminal(t.Status.State) {
			return nil, r.endedError(t)
		}
		ev := &a2a.StreamResponse{Payload: &a2a.StreamResponseArtifactUpdate{ArtifactUpdate: &a2a.TaskArtifactUpdateEvent{
			TaskID: t.ID, ContextID: t.ContextID, Artifact: art.Clone(), Append: appendParts, LastChunk: lastChunk}}}
		if r.artifacts == nil {
			r.artifacts = indexArtifacts(t)
		}
		applyEvent(t, ev, r.artifacts)
		return ev, nil
	})
}

// setStatus moves the task to state, as one event.
func (r *Run) setStatus(state a2a.TaskState, msg *a2a.Message) error {
	if msg != nil {
		msg = msg.Clone()
		msg.TaskID, msg.ContextID = r.task.ID, r.task.ContextID
		if msg.MessageID == "" {
			msg.MessageID = newID()
		}
		if msg.Role == a2a.RoleUnspecified {
			msg.Role = a2a.RoleAgent
		}
	}
	err := r.mutate(func(t *a2a.Task) (*a2a.StreamResponse, error) {
		if !legal(t.Status.State, state) {
			if Terminal(t.Status.State) {
				return nil, r.endedError(t)
			}
			return nil, fmt.Errorf("a2atask: a task cannot go from %s to %s", t.Status.State, state)
		}
		now := r.rt.now()
		ev := &a2a.StreamResponse{Payload: &a2a.StreamResponseStatusUpdate{StatusUpdate: &a2a.TaskStatusUpdateEvent{
			TaskID: t.ID, ContextID: t.ContextID, Status: &a2a.TaskStatus{State: state, Message: msg, Timestamp: &now}}}}
		ApplyEvent(t, ev)
		return ev, nil
	})
	if err == nil {
		r.stateEvent(state)
	}
	if err == nil && settled(state) {
		r.mu.Lock()
		r.ended = true
		r.mu.Unlock()
	}
	return err
}

func (r *Run) endedError(t *a2a.Task) error {
	if t.Status.State == a2a.TaskStateCanceled {
		return ErrCanceled
	}
	return fmt.Errorf("a2atask: the task has ended (%s)", t.Status.State)
}

// mutate applies change to the task and stores it with its event. The
// change is made in place, since copying a large task on every event
// costs; when the store does not take it, the task is read back, which
// also catches up with another writer (a cancel) that got there first.
func (r *Run) mutate(change func(*a2a.Task) (*a2a.StreamResponse, error)) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.ended {
		return errors.New("a2atask: the run has settled its task and writes no more")
	}
	if r.broken != nil {
		return r.broken
	}
	ctx := context.WithoutCancel(r.rt.ctx)
	for {
		ev, err := change(r.task)
		if err != nil {
			return err
		}
		r.writing.Store(r.gen + 1)
		gen, err := r.rt.update(r.task, r.gen, ev)
		if err != nil {
			r.writing.Store(r.gen)
			select {
			case r.recheck <- struct{}{}:
			default:
			}
			// While a run holds a task, only a cancel or the orphan sweep write
			// it, and both end it; reading it back lets the change see that.
			var rec *Record
			rerr := r.rt.outlast(r.rt.ctx, func() (err error) {
				rec, err = r.rt.store.Get(ctx, r.task.ID)
				return err
			})
			if rerr != nil {
				r.broken = fmt.Errorf("a2atask: a write failed (%v) and the task cannot be read back: %w", err, rerr)
				return r.broken
			}
			r.task, r.gen, r.artifacts = rec.Task, rec.Generation, nil
			if errors.Is(err, ErrConflict) {
				continue
			}
			return err
		}
		r.gen = gen
		r.rt.written(r.task.ID, gen, ev)
		return nil
	}
}

func (rt *Runtime) now() time.Time { return time.Now().UTC().Truncate(time.Millisecond) }
