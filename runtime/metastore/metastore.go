// Package metastore is what the SQL stores of an AG-UI handler's META
// events, thread owners and interrupts have in common, with no spec type
// in it: events and interrupts go in and come out as their JSON, and the
// generated package encodes and decodes them (agui.SQLStore). The stores
// themselves, and their database drivers, are in the packages below this
// one, which only the generated metasqlite and metapg packages import.
package metastore

import (
	"context"
	"errors"
	"time"
)

// ErrConflict is returned by PutMeta when an event's id is already the
// thread's for a different event.
var ErrConflict = errors.New("agui: a META event id is taken by a different event")

// Put is one META event to store.
type Put struct {
	ID, MetaType, MessageID string
	// Event is the event's JSON: what Row.Event returns, and what decides
	// whether a second event of the same id is the same event.
	Event []byte
}

// Row is a stored META event of a thread.
type Row struct {
	Seq      int64
	RunID    string
	Received time.Time
	Event    []byte // the event's JSON; nil in PutMeta's answer
}

// Query selects a thread's stored events, in Seq order: those after After,
// of MetaType, MessageID and RunID where they are not "", at most Limit
// (which must be positive).
type Query struct {
	ThreadID, MetaType, MessageID, RunID string
	After                                int64
	Limit                                int
}

// Backend is a SQL store.
type Backend interface {
	// PutMeta stores a batch of a thread's events whole or not at all: an
	// event whose id the thread holds is the same event again, unless it
	// differs (ErrConflict). It returns the row of each event.
	PutMeta(ctx context.Context, threadID, runID string, events []Put) ([]Row, error)
	Meta(ctx context.Context, q Query) ([]Row, error)
	// ClaimThread and ThreadOwner keep each thread's owner (see
	// runtime/threads.Owners).
	ClaimThread(ctx context.Context, threadID, caller string) (string, error)
	ThreadOwner(ctx context.Context, threadID string) (string, bool, error)
	// Interrupts returns the thread's open interrupts as SetInterrupts
	// was given them, nil for none.
	Interrupts(ctx context.Context, threadID string) ([]byte, error)
	SetInterrupts(ctx context.Context, threadID string, data []byte) error
	Close() error
}
