package a2atask

import (
	"time"

	a2a "github.com/agui-gen/agui-gen/gen/a2a"
)

// The SQL stores keep a task as a snapshot, the task at some generation,
// and its events after it: appending an event (Appender) writes the event
// and the task's small columns (generation, state, time), and a reader
// applies the events after the snapshot to it. A new snapshot is written
// when the events since the last one are as many as the snapshot's own
// generation, or SnapshotEvery when that is more, so that writing them
// costs the same per event at any task length, and a read applies fewer
// events than the task has; and when the task settles (ends or stops for
// input), so that a settled task is read whole.
const SnapshotEvery = 64

// SnapshotDue reports whether appending the event that brings a task to
// generation gen, its snapshot at generation snapshot, writes a new
// snapshot.
func SnapshotDue(snapshot, gen int64, event *a2a.StreamResponse) bool {
	if state, _, ok := EventStatus(event); ok && settled(state) {
		return true
	}
	return gen-snapshot >= max(SnapshotEvery, snapshot)
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
	st, at, ok := EventStatus(event)
	if !ok {
		return nil, nil
	}
	v := int32(st)
	state = &v
	if !at.IsZero() {
		u := at.UnixNano()
		updated = &u
	}
	return state, updated
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
