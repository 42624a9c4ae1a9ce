package a2atask

import (
	"context"
	"time"

	a2a "github.com/agui-gen/agui-gen/gen/a2a"
	"github.com/agui-gen/agui-gen/runtime/taskstore"
)

// Store keeps tasks and their event logs. Each write of a task appends its
// event in the same step, so that a reader sees a task at generation g
// together with exactly the events up to g. Implementations must be safe
// for concurrent use, and for use by several processes when they share the
// store.
type Store interface {
	// Create stores a new task, at generation 1, with event as its first
	// event. The owner scopes who may see the task.
	Create(ctx context.Context, owner string, task *a2a.Task, event *a2a.StreamResponse) error
	// Update replaces a task whose stored generation is prev with task, at
	// generation prev+1, and appends event. When the stored generation is not
	// prev it changes nothing and returns ErrConflict.
	Update(ctx context.Context, task *a2a.Task, prev int64, event *a2a.StreamResponse) (int64, error)
	// Get returns a task, or ErrNotFound.
	Get(ctx context.Context, id string) (*Record, error)
	// List returns a page of the tasks that match q, newest status first,
	// and the total number that match.
	List(ctx context.Context, q Query) (page []*Record, total int, err error)
	// Events returns the events of a task after generation after, in order.
	Events(ctx context.Context, id string, after int64) ([]Event, error)
	// Watch signals on the returned channel, without blocking the writer,
	// after events are appended to the task; stop ends the watch. A signal
	// is the generation the task was written at, the latest when signals
	// coalesce, or 0 when the store cannot tell: a hint to read Events, not
	// a promise of one new event. Signals (the type) keeps this contract.
	Watch(id string) (signal <-chan int64, stop func())
	// Lease records that an executor is running the task until the given
	// time; the runtime renews it while the executor runs.
	Lease(ctx context.Context, id string, until time.Time) error
	// Orphans returns up to limit tasks, submitted or working, whose lease
	// ended before t: their executor's process has stopped.
	Orphans(ctx context.Context, t time.Time, limit int) ([]string, error)
}

// An Appender is a Store that takes a change that is its event alone: the
// stored task changes as ApplyEvent says, so the store need not take, copy
// or write the whole task, and a change costs what its event does however
// long the task has grown. The runtime appends the changes of a run's
// executor (artifacts, status) this way when its store is an Appender.
type Appender interface {
	// Append applies event to the task whose stored generation is prev, at
	// generation prev+1, and appends event. When the stored generation is
	// not prev it changes nothing and returns ErrConflict. task, when not
	// nil, is the task as event leaves it, which a store that keeps
	// snapshots may write as one instead of reading the task back; it is
	// the caller's, not to be kept.
	Append(ctx context.Context, id string, prev int64, event *a2a.StreamResponse, task *a2a.Task) (int64, error)
}

// A LeasedCreator is a Store that stores a new task with its first lease,
// in the same write: a task's executor then starts without a write of its
// own.
type LeasedCreator interface {
	// CreateLeased is Create with the task leased until the given time.
	CreateLeased(ctx context.Context, owner string, task *a2a.Task, event *a2a.StreamResponse, until time.Time) error
}

// A Peeker is a Store that tells a task's generation and state without
// reading the task: what a stream that found no new event checks before it
// waits again.
type Peeker interface {
	Peek(ctx context.Context, id string) (generation int64, state a2a.TaskState, err error)
}

// ApplyEvent changes t as event says, the one way a task's events change
// it: an artifact update adds the artifact, or replaces the one of its ID,
// or with append adds its parts to that one, plain text joined to the plain
// text part it follows (appendPart); a status update sets the
// status and adds its message, if any, to the history; a task replaces t.
// The event's values are copied, so t shares no memory with it.
func ApplyEvent(t *a2a.Task, event *a2a.StreamResponse) { applyEvent(t, event, nil) }

// artifactIndex finds a task's artifacts by ID without a scan of them all:
// the index of each ID's last artifact. Built on first use; nil when the
// task it indexes was replaced.
type artifactIndex map[string]int

func indexArtifacts(t *a2a.Task) artifactIndex {
	x := make(artifactIndex, len(t.Artifacts))
	for i, a := range t.Artifacts {
		x[a.ArtifactID] = i
	}
	return x
}

// applyEvent is ApplyEvent with the task's artifacts found through index,
// when not nil, which it keeps up to date; without one they are scanned.
func applyEvent(t *a2a.Task, event *a2a.StreamResponse, index artifactIndex) {
	switch p := event.Payload.(type) {
	case *a2a.StreamResponseArtifactUpdate:
		art := p.ArtifactUpdate.Artifact
		if art == nil {
			return
		}
		i, found := -1, false
		if index != nil {
			i, found = index[art.ArtifactID]
		} else {
			for j, a := range t.Artifacts {
				if a.ArtifactID == art.ArtifactID {
					i, found = j, true
				}
			}
		}
		switch {
		case p.ArtifactUpdate.Append && found:
			for _, part := range art.Parts {
				t.Artifacts[i].Parts = appendPart(t.Artifacts[i].Parts, part)
			}
		case found:
			t.Artifacts[i] = art.Clone()
		default:
			t.Artifacts = append(t.Artifacts, art.Clone())
			if index != nil {
				index[art.ArtifactID] = len(t.Artifacts) - 1
			}
		}
	case *a2a.StreamResponseStatusUpdate:
		status := p.StatusUpdate.Status.Clone()
		t.Status = status
		if status != nil && status.Message != nil {
			t.History = append(t.History, status.Message)
		}
	case *a2a.StreamResponseTask:
		*t = *p.Task.Clone()
		if index != nil {
			clear(index)
			for i, a := range t.Artifacts {
				index[a.ArtifactID] = i
			}
		}
	}
}

// appendPart appends a copy of part to parts, the parts of an artifact an
// update appends to. Text continues text: a plain text part (no metadata,
// filename or media type) appended after another is joined to it, so that
// an artifact streamed as text deltas (a model's reply, word by word) is
// stored as one text part, which a client reading the task finds whole in
// parts[0], while the stream still carries each delta. The joined part is a
// new one in a new slice: a reader of the task as it was keeps what it read.
func appendPart(parts []*a2a.Part, part *a2a.Part) []*a2a.Part {
	if n := len(parts); n > 0 && plainText(parts[n-1]) && plainText(part) {
		joined := &a2a.Part{Content: &a2a.PartText{Text: parts[n-1].Content.(*a2a.PartText).Text + part.Content.(*a2a.PartText).Text}}
		return append(parts[:n-1:n-1], joined)
	}
	return append(parts, part.Clone())
}

// plainText reports whether p is text and nothing else.
func plainText(p *a2a.Part) bool {
	_, ok := p.Content.(*a2a.PartText)
	return ok && len(p.Metadata) == 0 && p.Filename == "" && p.MediaType == ""
}

// Record is a stored task: Task, Owner and Generation.
type Record = taskstore.Record[*a2a.Task]

// Event is one entry of a task's event log: Generation and Payload.
type Event = taskstore.Event[*a2a.StreamResponse]

// Query selects tasks for List: Owner, ContextID ("" for any), State (0
// for any), UpdatedAfter (when not zero, the tasks whose status changed
// after it), After (the cursor of the previous page) and Limit.
type Query = taskstore.Query[a2a.TaskState]

// Cursor is a position in the order List returns tasks in.
type Cursor = taskstore.Cursor

var (
	// ErrNotFound is returned for a task the store does not hold.
	ErrNotFound = taskstore.ErrNotFound
	// ErrConflict is returned by Update when the task changed since the
	// generation the writer read.
	ErrConflict = taskstore.ErrConflict
	// ErrUnavailable is wrapped by the errors a store returns while its
	// database cannot be reached or is restarting: errors that pass. The
	// runtime tries a run's writes again until the store is back (an Update
	// whose answer was lost may have been stored; it checks), does not take
	// the leases that ran out meanwhile for dead processes, and tells
	// callers that the store is unavailable rather than that something
	// failed inside.
	ErrUnavailable = taskstore.ErrUnavailable
)

// updated is when a task's status last changed.
func updated(t *a2a.Task) time.Time {
	if t.Status != nil && t.Status.Timestamp != nil {
		return *t.Status.Timestamp
	}
	return time.Time{}
}

// before orders tasks for List: newest status first, then by ID.
func before(a, b Cursor) bool {
	if !a.Updated.Equal(b.Updated) {
		return a.Updated.After(b.Updated)
	}
	return a.ID > b.ID
}
