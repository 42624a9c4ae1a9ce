// Package runlog keeps the event logs of resumable runs: each run's
// events, in order, as the bytes a stream sends, under a key the server
// chose, so that a client whose connection dropped gets exactly what it
// missed (Tail, after the position its last event id names) and the run
// goes on while no one is connected (Lease). It knows nothing of a
// protocol: AG-UI's handler (templates/aguirt, WithResumableRuns) writes
// its events' JSON here, and reads them back for a resume or a late
// joiner.
//
// Memory is the log of one process. A log on SQL (SQLite, PostgreSQL)
// implements the same Log interface; Watch then learns of other replicas'
// appends through the database's notifications.
package runlog

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"time"
)

// Run is what a log knows of one run.
type Run struct {
	// Key is the server's name of the run's log (NewKey): random, so an id
	// that names it cannot be guessed, and unique across runs that share
	// a client's thread and run ids.
	Key string
	// ThreadID and RunID are the client's ids of the run.
	ThreadID, RunID string
	// Owner is the caller who started the run, "" when callers are not
	// told apart: the only caller who may read it back.
	Owner string
	// Input is what the run was started with (for AG-UI, the
	// RunAgentInput's JSON): where a late joiner's conversation begins.
	Input []byte
	// Last is the position of the run's last entry, 0 when it has none.
	Last int64
	// Ended is set once the run's log is complete: no entry follows Last.
	Ended bool
	// Started is when the run was created.
	Started time.Time
}

// Entry is one entry of a run's log: an event, as its stream sends it.
type Entry struct {
	// Pos is the entry's position: 1 for a run's first, then 2, 3, …
	Pos int64
	// Data is the event's bytes. They belong to the log: a reader must
	// not change them.
	Data []byte
}

// Page is a stretch of a run's log, as Read returns it.
type Page struct {
	Entries []Entry
	// Last is the position of the run's last entry when it was read.
	Last int64
	// Ended is set when the log was complete when read: once a reader has
	// every entry up to Last, there is nothing more to wait for.
	Ended bool
	// Lapsed is set when the run had not ended and its writer's mark had
	// lapsed (Liveness): the run was lost with its process, and a reader
	// ends it (EndLost). A log in one process's memory never sets it.
	Lapsed bool
}

// Log keeps the logs of runs. Implementations are safe for concurrent
// use, and for use by several processes when they share a database.
type Log interface {
	// Create starts the log of a run; run.Key must be new (ErrExists
	// otherwise). Last, Ended and Started are the log's to set.
	Create(ctx context.Context, run Run) error
	// Append adds entries to a run's log, at the positions after its last,
	// and returns the position of the last one added. A log that is full
	// returns an error wrapping ErrFull, and adds nothing; one that has
	// ended returns ErrEnded.
	Append(ctx context.Context, key string, data ...[]byte) (last int64, err error)
	// End completes a run's log, with last, when not nil, as its final
	// entry, which a full log takes still: a run's end is never lost to
	// its log's bound. Ending a log that has ended changes nothing.
	End(ctx context.Context, key string, last []byte) error
	// Get returns what the log knows of a run, ErrNotFound when it has no
	// log under key (never had, or has dropped it: see Memory's
	// retention).
	Get(ctx context.Context, key string) (Run, error)
	// Find returns the newest run with the client's thread and run ids,
	// ErrNotFound when there is none.
	Find(ctx context.Context, threadID, runID string) (Run, error)
	// Read returns up to max entries of a run's log after position after,
	// in order, ErrNotFound for a run the log does not hold. The page's
	// entries are appended to into[:0], whose array a reader that reads
	// again and again reuses (nil: a new one).
	Read(ctx context.Context, key string, after int64, max int, into []Entry) (Page, error)
	// Watch signals, without blocking the writer, after entries are
	// appended to the run's log or it ends: a hint to Read, which the
	// signals of several appends may share (a watcher that has not taken
	// its signal yet gets no other: its next Read sees them all). stop
	// ends the watch.
	Watch(key string) (signal <-chan int64, stop func())
}

// Batch is what a BatchLog writes in one step: a run's log's creation,
// entries and end, each when asked for.
type Batch struct {
	// Create, when not nil, is the run whose log the batch creates before
	// its entries, as Create does (ErrExists for a key in use).
	Create *Run
	// Entries are appended as Append appends them.
	Entries [][]byte
	// End ends the log after the entries, with Last, when not nil, as its
	// final entry, as End does.
	End  bool
	Last []byte
	// Landed, when not nil, is called with the log's last position once
	// the batch is in the log, before the log's watchers are signalled.
	Landed func(last int64)
}

// BatchLog is implemented by the logs that write a run's batch of entries
// with its log's creation and its end in one step (one transaction on
// SQL): a Writer made by CreateWriter creates a run's log with its first
// batch and ends it with its last.
type BatchLog interface {
	// AppendBatch writes b to run key's log, all of it or nothing: an
	// error wrapping ErrFull when the entries pass the log's bound (the
	// writer then ends the log without them), ErrExists when it creates a
	// log whose key is in use, ErrNotFound or ErrEnded as Append. It
	// returns the position of the log's last entry.
	AppendBatch(ctx context.Context, key string, b Batch) (last int64, err error)
}

// Liveness is implemented by the logs that outlive the processes that
// write them (on SQL). The process that runs a run keeps a mark on its log
// alive, renewed with each Append and every so often while the run goes
// on (the log does it for the runs it created and has not ended); a run
// not ended whose mark has lapsed was lost with its process, killed say,
// and a reader that finds it so (Page.Lapsed) ends it, so that every
// reader gets an end rather than waiting for one that never comes.
type Liveness interface {
	// Lapse is how long a mark lasts unrenewed: a reader waiting for more
	// of a run that sends nothing reads it again after that long, to learn
	// whether it was lost.
	Lapse() time.Duration
	// EndLost ends run key's log with last as its final entry if the run
	// has not ended and its mark has lapsed, in one step, so that of the
	// readers that find it lost, on any replica, only one ends it. It
	// reports whether the run has ended, by this call or another.
	EndLost(ctx context.Context, key string, last []byte) (ended bool, err error)
}

// Readers is implemented by the logs shared by processes (on SQL): a
// reader that follows a run in one process marks it, for a while, renewing
// the mark as long as it follows, so that the process that runs the run
// counts the reader as attached (Lease.AttachedElsewhere) though it reads
// elsewhere. The marks are by the log's clock (the database's).
type Readers interface {
	// MarkReader records that a reader follows run key for the next d.
	MarkReader(ctx context.Context, key string, d time.Duration) error
	// HasReader reports whether a reader's mark on run key still runs.
	HasReader(ctx context.Context, key string) (bool, error)
}

var (
	// ErrNotFound is the error for a run a log does not hold.
	ErrNotFound = errors.New("runlog: no such run log (unknown, or dropped after its retention)")
	// ErrExists is the error of Create for a key already in use.
	ErrExists = errors.New("runlog: a run log with this key exists")
	// ErrFull is wrapped by the error of an Append past a log's bound.
	ErrFull = errors.New("runlog: the run's log is full")
	// ErrEnded is the error of an Append to a log that has ended.
	ErrEnded = errors.New("runlog: the run's log has ended")
)

// KeyLen is the length of a key NewKey makes: 16 random bytes, base64url
// without padding.
const KeyLen = 22

// NewKey returns a fresh run key: the time in milliseconds, in
// keyTimeLen characters that sort as the times do, then 80 random bits,
// which no one guesses. Keys made one after another sort together, so the
// SQL logs' indexes of keys take a new run's rows at their end, in pages
// a commit writes anyway, where random keys wrote a page of each index
// for each run (a fifth of a resumable run's CPU on SQLite went to
// writing and checkpointing pages).
func NewKey() string {
	return newKey(time.Now())
}

// keyTimeLen is how many characters of a key hold its time: 62^8
// milliseconds is about 6,900 years.
const keyTimeLen = 8

// sortedDigits are the key characters in the order of their bytes, the
// digits of a key's time (base64url's own order is not the bytes').
const sortedDigits = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

func newKey(now time.Time) string {
	var k [KeyLen]byte
	ms := uint64(max(now.UnixMilli(), 0))
	for i := keyTimeLen - 1; i >= 0; i-- {
		k[i] = sortedDigits[ms%uint64(len(sortedDigits))]
		ms /= uint64(len(sortedDigits))
	}
	var r [(KeyLen - keyTimeLen) * 6 / 8]byte // the rest's 14 characters
	_, _ = rand.Read(r[:])
	base64.RawURLEncoding.Encode(k[keyTimeLen:], r[:])
	return string(k[:])
}
