// Package taskstore is the spec-independent part of the A2A task stores:
// the records a store keeps, the rules of its snapshots, and the row
// scanning of the SQL stores (runtime/taskstore/sqlitetask and
// runtime/taskstore/pgtask), which keep the spec's messages as opaque
// protobuf bytes beside a few indexed columns (ID, owner, context, state,
// status time).
//
// What a store needs to know of the spec's types it is told by a Spec, a
// value the generated a2atask package gives (a2atask.StoreSpec). The
// package imports no database driver.
package taskstore

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

// Proto is a spec message a store keeps, a pointer to a generated message:
// it encodes itself to protobuf binary and decodes itself from it. It is
// comparable so that a store can tell a nil one (its zero value).
type Proto interface {
	comparable
	AppendProto(b []byte) []byte
	UnmarshalProto(b []byte) error
}

// Record is a stored task.
type Record[T any] struct {
	Task       T
	Owner      string
	Generation int64
}

// Event is one entry of a task's event log.
type Event[E any] struct {
	Generation int64
	Payload    E
}

// Query selects tasks for a store's List.
type Query[S ~int32] struct {
	Owner     string
	ContextID string // "" for any
	State     S      // 0 for any
	// UpdatedAfter, when not zero, keeps the tasks whose status changed
	// after it.
	UpdatedAfter time.Time
	// After is the cursor of the previous page: the last task it held.
	After *Cursor
	Limit int
}

// Cursor is a position in the order List returns tasks in: newest status
// first, then by ID, descending.
type Cursor struct {
	Updated time.Time
	ID      string
}

// The errors of a store. They keep the messages of the a2atask package,
// whose errors they are (a2atask.ErrNotFound is ErrNotFound), so that logs
// and checks of them read as before the stores moved here.
var (
	// ErrNotFound is returned for a task the store does not hold.
	ErrNotFound = errors.New("a2atask: no such task")
	// ErrConflict is returned by a write when the task changed since the
	// generation the writer read.
	ErrConflict = errors.New("a2atask: the task changed concurrently")
	// ErrUnavailable is wrapped by the errors a store returns while its
	// database cannot be reached or is restarting: errors that pass.
	ErrUnavailable = errors.New("a2atask: the task store is unavailable")
)

// Spec is what a store needs to know of the spec's task, event and push
// config types (T, E, C) and task states (S). The generated a2atask package
// fills one in from its own semantics; the store never looks inside a
// message except through it.
type Spec[T, E, C Proto, S ~int32] struct {
	NewTask   func() T
	NewEvent  func() E
	NewConfig func() C
	// Columns are the indexed columns of a task: its ID, context ID, state
	// and status time (zero for none).
	Columns func(T) (id, contextID string, state S, updated time.Time)
	// Status is the state and time a status update event gives its task;
	// ok is false for any other event, which leaves them as they are.
	Status func(E) (state S, at time.Time, ok bool)
	// Settled reports whether a task in a state has answered its client
	// (ended, or waits for it): such a task gets a snapshot, and is read
	// whole.
	Settled func(S) bool
	// Replay applies events, the ones after rec's snapshot, to rec's task,
	// in order, and sets rec's generation to the last one's.
	Replay func(rec *Record[T], events []Event[E])
	// ConfigKey is a push config's task ID and its own ID.
	ConfigKey func(C) (taskID, id string)
	// Running are the states in which an executor runs a task: a task in
	// one whose lease has run out is an orphan.
	Running []S
}

// SnapshotEvery is the least number of events between two snapshots.
//
// The SQL stores keep a task as a snapshot, the task at some generation,
// and its events after it: appending an event writes the event and the
// task's small columns (generation, state, time), and a reader applies the
// events after the snapshot to it. A new snapshot is written when the
// events since the last one are as many as the snapshot's own generation,
// or SnapshotEvery when that is more, so that writing them costs the same
// per event at any task length, and a read applies fewer events than the
// task has; and when the task settles, so that a settled task is read
// whole.
const SnapshotEvery = 64

// Settles reports whether event settles its task (Spec.Settled).
func (sp *Spec[T, E, C, S]) Settles(event E) bool {
	st, _, ok := sp.Status(event)
	return ok && sp.Settled(st)
}

// SnapshotDue reports whether appending the event that brings a task to
// generation gen, its snapshot at generation snapshot, writes a new
// snapshot.
func (sp *Spec[T, E, C, S]) SnapshotDue(snapshot, gen int64, event E) bool {
	return sp.Settles(event) || gen-snapshot >= max(SnapshotEvery, snapshot)
}

// StatusColumns are the values of a SQL store's state and time columns
// that appending event sets: nil (NULL, which leaves them) for an event
// that is not a status update, and for a time a status update lacks.
func (sp *Spec[T, E, C, S]) StatusColumns(event E) (state *int32, updated *int64) {
	st, at, ok := sp.Status(event)
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

// TaskColumns are a task's columns as a SQL store writes them: the state
// as an integer, the status time in Unix nanoseconds (0 for none).
func (sp *Spec[T, E, C, S]) TaskColumns(task T) (id, contextID string, state int32, updated int64) {
	id, contextID, st, at := sp.Columns(task)
	return id, contextID, int32(st), Nanos(at)
}

// Nanos is a time as the stores' columns keep it: Unix nanoseconds, 0 for
// the zero time.
func Nanos(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixNano()
}

// Row is one row of a query's result.
type Row interface {
	Scan(dest ...any) error
}

// Rows is the result of a query as database drivers give it (database/sql's
// *Rows and pgx's Rows both are one).
type Rows interface {
	Row
	Next() bool
	Err() error
}

// Stored is a task as a SQL store reads it: the record at its snapshot's
// generation, and the generation the task has.
type Stored[T any] struct {
	Record     *Record[T]
	Generation int64
}

// ScanSnapshot reads a row of (owner, generation, snapshot generation,
// task): the record, at its snapshot's generation, and the generation the
// task has, whose events after the snapshot Replay applies.
func (sp *Spec[T, E, C, S]) ScanSnapshot(row Row) (rec *Record[T], generation int64, err error) {
	var snapshot int64
	var owner string
	var blob []byte
	if err := row.Scan(&owner, &generation, &snapshot, &blob); err != nil {
		return nil, 0, err
	}
	rec = &Record[T]{Owner: owner, Generation: snapshot, Task: sp.NewTask()}
	if err := rec.Task.UnmarshalProto(blob); err != nil {
		return nil, 0, fmt.Errorf("a2atask: a stored task does not decode: %w", err)
	}
	return rec, generation, nil
}

// ScanSnapshots reads rows of (owner, generation, snapshot generation,
// task), as ScanSnapshot does.
func (sp *Spec[T, E, C, S]) ScanSnapshots(rows Rows) ([]Stored[T], error) {
	return collect(rows, func() (Stored[T], error) {
		rec, gen, err := sp.ScanSnapshot(rows)
		return Stored[T]{Record: rec, Generation: gen}, err
	})
}

// ScanEvents reads rows of (generation, event).
func (sp *Spec[T, E, C, S]) ScanEvents(rows Rows) ([]Event[E], error) {
	return collect(rows, func() (Event[E], error) {
		var e Event[E]
		var blob []byte
		if err := rows.Scan(&e.Generation, &blob); err != nil {
			return e, err
		}
		e.Payload = sp.NewEvent()
		if err := e.Payload.UnmarshalProto(blob); err != nil {
			return e, fmt.Errorf("a2atask: a stored event does not decode: %w", err)
		}
		return e, nil
	})
}

// ScanConfigs reads rows of (push config).
func (sp *Spec[T, E, C, S]) ScanConfigs(rows Rows) ([]C, error) {
	return collect(rows, func() (C, error) {
		var blob []byte
		cfg := sp.NewConfig()
		if err := rows.Scan(&blob); err != nil {
			return cfg, err
		}
		if err := cfg.UnmarshalProto(blob); err != nil {
			return cfg, fmt.Errorf("a2atask: a stored push config does not decode: %w", err)
		}
		return cfg, nil
	})
}

// ScanStrings reads rows of one text column.
func ScanStrings(rows Rows) ([]string, error) {
	return collect(rows, func() (string, error) {
		var s string
		err := rows.Scan(&s)
		return s, err
	})
}

func collect[T any](rows Rows, scan func() (T, error)) ([]T, error) {
	var out []T
	for rows.Next() {
		v, err := scan()
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// ListFilter is the WHERE clause of a List query (without the keyword)
// and its arguments, with placeholder(n) the n-th placeholder of the
// driver ("?" or "$n"): count is what the query's total counts, and page,
// with its arguments, adds the cursor.
func ListFilter[S ~int32](q Query[S], placeholder func(n int) string) (count string, countArgs []any, page string, pageArgs []any) {
	var conds [5]string // on the stack: a List allocates what it did before the stores moved here
	n := 0
	args := make([]any, 0, 2) // the owner and the limit, the common query
	add := func(cond string, values ...any) {
		for _, v := range values {
			args = append(args, v)
			if p := placeholder(len(args)); p != "?" {
				cond = strings.Replace(cond, "?", p, 1)
			}
		}
		conds[n] = cond
		n++
	}
	add("owner = ?", q.Owner)
	if q.ContextID != "" {
		add("context_id = ?", q.ContextID)
	}
	if q.State != 0 {
		add("state = ?", int32(q.State))
	}
	if !q.UpdatedAfter.IsZero() {
		add("updated > ?", q.UpdatedAfter.UnixNano())
	}
	count, countArgs = strings.Join(conds[:n], " AND "), args
	if q.After == nil {
		return count, countArgs, count, args
	}
	u := q.After.Updated.UnixNano()
	add("(updated < ? OR (updated = ? AND id < ?))", u, u, q.After.ID)
	return count, countArgs, strings.Join(conds[:n], " AND "), args
}
