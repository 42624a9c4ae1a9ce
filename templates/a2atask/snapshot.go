package a2atask

import (
	"time"

	a2a "github.com/agui-gen/agui-gen/gen/a2a"
	"github.com/agui-gen/agui-gen/runtime/taskstore"
)

// SnapshotEvery is the least number of events between two snapshots of
// a task in a SQL store (runtime/taskstore), which also writes one when
// the task settles (ends or stops for input).
const SnapshotEvery = taskstore.SnapshotEvery

// SnapshotDue reports whether appending the event that brings a task to
// generation gen, its snapshot at generation snapshot, writes a new
// snapshot.
func SnapshotDue(snapshot, gen int64, event *a2a.StreamResponse) bool {
	return storeSpec.SnapshotDue(snapshot, gen, event)
}

// StoreSpec tells the SQL stores of runtime/taskstore what they need to
// know of this package's types and rules: how a task's columns, a status
// update, a settled state and the replay of events are had here. The
// pgstore and sqlitestore subpackages open their stores with it.
func StoreSpec() taskstore.Spec[*a2a.Task, *a2a.StreamResponse, *a2a.TaskPushNotificationConfig, a2a.TaskState] {
	return storeSpec
}

var storeSpec = taskstore.Spec[*a2a.Task, *a2a.StreamResponse, *a2a.TaskPushNotificationConfig, a2a.TaskState]{
	NewTask:   func() *a2a.Task { return new(a2a.Task) },
	NewEvent:  func() *a2a.StreamResponse { return new(a2a.StreamResponse) },
	NewConfig: func() *a2a.TaskPushNotificationConfig { return new(a2a.TaskPushNotificationConfig) },
	Columns: func(t *a2a.Task) (string, string, a2a.TaskState, time.Time) {
		var st a2a.TaskState
		if t.Status != nil {
			st = t.Status.State
		}
		return t.ID, t.ContextID, st, updated(t)
	},
	Status:    EventStatus,
	Settled:   settled,
	Replay:    Replay,
	ConfigKey: func(c *a2a.TaskPushNotificationConfig) (string, string) { return c.TaskID, c.ID },
	Running:   []a2a.TaskState{a2a.TaskStateSubmitted, a2a.TaskStateWorking},
}

// EventStatus is the state and time a status update event gives its task;
// ok is false for any other event, which leaves them as they are.
func EventStatus(event *a2a.StreamResponse) (state a2a.TaskState, at time.Time, ok bool) {
	u, isStatus := event.Payload.(*a2a.StreamResponseStatusUpdate)
	if !isStatus || u.StatusUpdate.Status == nil {
		return 0, time.Time{}, false
	}
	st := u.StatusUpdate.Status
	if st.Timestamp != nil {
		at = *st.Timestamp
	}
	return st.State, at, true
}

// StatusColumns are the values of a SQL store's state and time columns
// that appending event sets: nil (NULL, which leaves them) for an event
// that is not a status update.
func StatusColumns(event *a2a.StreamResponse) (state *int32, updated *int64) {
	return storeSpec.StatusColumns(event)
}

// Replay applies events, the ones after rec's snapshot, to rec's task, in
// order, and sets the record's generation to the last one's.
func Replay(rec *Record, events []Event) {
	index := indexArtifacts(rec.Task)
	for _, e := range events {
		applyEvent(rec.Task, e.Payload, index)
		rec.Generation = e.Generation
	}
	stampTask(rec.Task, rec.Generation)
}
