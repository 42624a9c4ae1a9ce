// Package sqlitestore keeps A2A tasks and their event logs in a SQLite
// database file, through the pure-Go driver modernc.org/sqlite: the
// embedded default store, which survives a crash of the process and needs
// no server. Several processes may share the file; each sees the others'
// events by polling.
package sqlitestore

// This file is written against the generated packages gen/a2a and
// gen/a2a/a2atask; the generator copies it into the a2atask/sqlitestore
// subpackage of its output with those import paths rewritten.

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	a2a "github.com/agui-gen/agui-gen/gen/a2a"
	"github.com/agui-gen/agui-gen/gen/a2a/a2atask"
	"github.com/agui-gen/agui-gen/runtime/batch"
	"github.com/agui-gen/agui-gen/runtime/sqlite"
)

// migrations create and evolve the schema, in order; the database records
// how many it has applied. Append, never edit.
var migrations = []string{
	`CREATE TABLE a2a_tasks (
		id         TEXT PRIMARY KEY,
		owner      TEXT NOT NULL,
		context_id TEXT NOT NULL,
		state      INTEGER NOT NULL,
		updated    INTEGER NOT NULL, -- the status time, Unix nanoseconds
		generation INTEGER NOT NULL,
		task       BLOB NOT NULL     -- the a2a.Task in protobuf binary
	);
	CREATE INDEX a2a_tasks_by_owner ON a2a_tasks (owner, updated DESC, id DESC);
	CREATE TABLE a2a_task_events (
		task_id    TEXT NOT NULL REFERENCES a2a_tasks (id),
		generation INTEGER NOT NULL,
		event      BLOB NOT NULL,    -- the a2a.StreamResponse in protobuf binary
		PRIMARY KEY (task_id, generation)
	) WITHOUT ROWID;`,
	`CREATE TABLE a2a_push_configs (
		task_id TEXT NOT NULL,
		id      TEXT NOT NULL,
		config  BLOB NOT NULL,       -- the a2a.TaskPushNotificationConfig in protobuf binary
		PRIMARY KEY (task_id, id)
	) WITHOUT ROWID;`,
	`ALTER TABLE a2a_tasks ADD COLUMN lease_until INTEGER NOT NULL DEFAULT 0; -- Unix nanoseconds
	CREATE INDEX a2a_tasks_by_lease ON a2a_tasks (state, lease_until);`,
	// task holds the task at generation snapshot; the events after it
	// complete it (a2atask.Replay).
	`ALTER TABLE a2a_tasks ADD COLUMN snapshot INTEGER NOT NULL DEFAULT 0;
	UPDATE a2a_tasks SET snapshot = generation;`,
	// The push outbox (a2atask.PushOutbox): a row for each task with push
	// configs, whose events up to owed are owed notifications, delivered up
	// to delivered, by holder while its claim lasts. The trigger owes each
	// event in the transaction that appends it, whichever statement does.
	`CREATE TABLE a2a_push_outbox (
		task_id    TEXT PRIMARY KEY,
		owed       INTEGER NOT NULL,
		delivered  INTEGER NOT NULL,
		holder     TEXT NOT NULL DEFAULT '',
		held_until INTEGER NOT NULL DEFAULT 0 -- Unix nanoseconds
	) WITHOUT ROWID;
	CREATE INDEX a2a_push_outbox_owed ON a2a_push_outbox (held_until) WHERE delivered < owed;
	INSERT INTO a2a_push_outbox (task_id, owed, delivered)
		SELECT t.id, t.generation, t.generation FROM a2a_tasks t WHERE EXISTS (SELECT 1 FROM a2a_push_configs c WHERE c.task_id = t.id);
	CREATE TRIGGER a2a_push_owed AFTER INSERT ON a2a_task_events BEGIN
		UPDATE a2a_push_outbox SET owed = NEW.generation WHERE task_id = NEW.task_id AND owed < NEW.generation;
	END;`,
	// The snapshot moves to a table of its own: SQLite writes a whole row
	// again when any column of it changes, and a task's row changes with
	// every event, while its snapshot, which grows with the task, changes
	// only every so often.
	`CREATE TABLE a2a_task_snapshots (
		task_id TEXT PRIMARY KEY REFERENCES a2a_tasks (id),
		task    BLOB NOT NULL -- the a2a.Task at a2a_tasks.snapshot, in protobuf binary
	);
	INSERT INTO a2a_task_snapshots (task_id, task) SELECT id, task FROM a2a_tasks;
	ALTER TABLE a2a_tasks DROP COLUMN task;`,
}

// Store is an a2atask.Store in a SQLite file.
type Store struct {
	db     *sql.DB
	poll   time.Duration
	writes *batch.Batcher[sqlite.Change]
	// Claims keeps the push outbox's claims (a2atask.PushOutbox) in
	// a2a_push_outbox.
	*sqlite.Claims

	signals   a2atask.Signals
	poller    *sqlite.Poller
	closeOnce sync.Once
}

// Option configures a Store.
type Option func(*Store)

// WithPollInterval sets how often the store looks for events other
// processes wrote to a watched task (default 200 ms). Events this process
// writes wake watchers at once.
func WithPollInterval(d time.Duration) Option { return func(s *Store) { s.poll = d } }

// Open opens, or creates, the database at path, in WAL mode, and brings
// its schema up to date.
func Open(ctx context.Context, path string, opts ...Option) (*Store, error) {
	db, err := sqlite.Open(path, sqlite.Config{Pragmas: []string{"journal_mode(WAL)", "busy_timeout(10000)", "foreign_keys(1)", "synchronous(NORMAL)"}})
	if err != nil {
		return nil, err
	}
	s := &Store{db: db, poll: 200 * time.Millisecond, writes: sqlite.NewChanges(db), Claims: sqlite.NewClaims(db, "a2a_push_outbox")}
	for _, o := range opts {
		o(s)
	}
	if err := sqlite.Migrate(ctx, db, "a2a_schema", migrations); err != nil {
		db.Close()
		return nil, fmt.Errorf("sqlitestore: %s: %w", path, err)
	}
	s.poller = sqlite.StartPoller(db, &s.signals, s.poll, `SELECT generation FROM a2a_tasks WHERE id = ?`)
	return s, nil
}

// Close stops the store and closes the database; closing again does
// nothing.
func (s *Store) Close() error {
	var err error
	s.closeOnce.Do(func() {
		s.poller.Close()
		err = s.db.Close()
	})
	return err
}

func statusTime(t *a2a.Task) int64 {
	if t.Status != nil && t.Status.Timestamp != nil {
		return t.Status.Timestamp.UnixNano()
	}
	return 0
}

func state(t *a2a.Task) a2a.TaskState {
	if t.Status == nil {
		return a2a.TaskStateUnspecified
	}
	return t.Status.State
}

func (s *Store) Create(ctx context.Context, owner string, task *a2a.Task, event *a2a.StreamResponse) error {
	return s.CreateLeased(ctx, owner, task, event, time.Time{})
}

// CreateLeased implements a2atask.LeasedCreator.
func (s *Store) CreateLeased(ctx context.Context, owner string, task *a2a.Task, event *a2a.StreamResponse, until time.Time) error {
	err := s.writes.Do(ctx, func(ctx context.Context, tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO a2a_tasks (id, owner, context_id, state, updated, generation, snapshot, lease_until) VALUES (?, ?, ?, ?, ?, 1, 1, ?)`,
			task.ID, owner, task.ContextID, int32(state(task)), statusTime(task), leaseNanos(until)); err != nil {
			if strings.Contains(err.Error(), "UNIQUE") {
				return a2atask.ErrConflict
			}
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO a2a_task_snapshots (task_id, task) VALUES (?, ?)`, task.ID, task.AppendProto(nil)); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO a2a_task_events (task_id, generation, event) VALUES (?, 1, ?)`, task.ID, event.AppendProto(nil))
		return err
	})
	if err != nil {
		return err
	}
	s.signals.Notify(task.ID, 1)
	return nil
}

func (s *Store) Update(ctx context.Context, task *a2a.Task, prev int64, event *a2a.StreamResponse) (int64, error) {
	err := s.writes.Do(ctx, func(ctx context.Context, tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE a2a_tasks SET context_id = ?, state = ?, updated = ?, generation = ?, snapshot = ? WHERE id = ? AND generation = ?`,
			task.ContextID, int32(state(task)), statusTime(task), prev+1, prev+1, task.ID, prev)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil {
			return err
		} else if n == 0 {
			return missingOrMoved(ctx, tx, task.ID)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE a2a_task_snapshots SET task = ? WHERE task_id = ?`, task.AppendProto(nil), task.ID); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO a2a_task_events (task_id, generation, event) VALUES (?, ?, ?)`, task.ID, prev+1, event.AppendProto(nil))
		return err
	})
	if err != nil {
		return 0, err
	}
	s.signals.Notify(task.ID, prev+1)
	return prev + 1, nil
}

// missingOrMoved is the error of a write to task id that found it at
// another generation, or not at all.
func missingOrMoved(ctx context.Context, tx *sql.Tx, id string) error {
	var one int
	if err := tx.QueryRowContext(ctx, `SELECT 1 FROM a2a_tasks WHERE id = ?`, id).Scan(&one); errors.Is(err, sql.ErrNoRows) {
		return a2atask.ErrNotFound
	} else if err != nil {
		return err
	}
	return a2atask.ErrConflict
}

// leaseNanos is a lease's column value: Unix nanoseconds, 0 for none.
func leaseNanos(until time.Time) int64 {
	if until.IsZero() {
		return 0
	}
	return until.UnixNano()
}

// Append implements a2atask.Appender: the event and the task's generation,
// state and time, and a new snapshot of the task only when one is due
// (a2atask.SnapshotDue), in the next transaction of writes (sqlite.NewChanges).
func (s *Store) Append(ctx context.Context, id string, prev int64, event *a2a.StreamResponse, task *a2a.Task) (int64, error) {
	gen := prev + 1
	st, updated := a2atask.StatusColumns(event)
	// An event that settles the task always brings a snapshot (SnapshotDue):
	// when the caller has the task, its generation goes in the same
	// statement as the event's.
	settles := task != nil && a2atask.SnapshotDue(gen, gen, event)
	err := s.writes.Do(ctx, func(ctx context.Context, tx *sql.Tx) error {
		var snapshot int64
		err := tx.QueryRowContext(ctx, `UPDATE a2a_tasks SET generation = ?, state = COALESCE(?, state), updated = COALESCE(?, updated),
			snapshot = CASE WHEN ? THEN ? ELSE snapshot END
			WHERE id = ? AND generation = ? RETURNING snapshot`, gen, st, updated, settles, gen, id, prev).Scan(&snapshot)
		if errors.Is(err, sql.ErrNoRows) {
			return missingOrMoved(ctx, tx, id)
		}
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO a2a_task_events (task_id, generation, event) VALUES (?, ?, ?)`, id, gen, event.AppendProto(nil)); err != nil {
			return err
		}
		if !settles && !a2atask.SnapshotDue(snapshot, gen, event) {
			return nil
		}
		snap := task
		if snap == nil {
			rec, err := get(ctx, tx, id)
			if err != nil {
				return err
			}
			snap = rec.Task
		}
		if !settles {
			if _, err := tx.ExecContext(ctx, `UPDATE a2a_tasks SET snapshot = ? WHERE id = ?`, gen, id); err != nil {
				return err
			}
		}
		_, err = tx.ExecContext(ctx, `UPDATE a2a_task_snapshots SET task = ? WHERE task_id = ?`, snap.AppendProto(nil), id)
		return err
	})
	if err != nil {
		return 0, err
	}
	s.signals.Notify(id, gen)
	return gen, nil
}

func (s *Store) Get(ctx context.Context, id string) (*a2atask.Record, error) {
	return get(ctx, s.db, id)
}

// querier is what Get reads through: the database, or a transaction.
type querier interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// get reads a task: its snapshot, and the events after it applied.
func get(ctx context.Context, q querier, id string) (*a2atask.Record, error) {
	rec, gen, err := a2atask.ScanSnapshot(q.QueryRowContext(ctx, `SELECT t.owner, t.generation, t.snapshot, s.task FROM a2a_tasks t JOIN a2a_task_snapshots s ON s.task_id = t.id WHERE t.id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, a2atask.ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	return rec, replay(ctx, q, id, rec, gen)
}

// replay brings rec, a snapshot, to generation gen with the events after
// it.
func replay(ctx context.Context, q querier, id string, rec *a2atask.Record, gen int64) error {
	if rec.Generation >= gen {
		return nil
	}
	rows, err := q.QueryContext(ctx, `SELECT generation, event FROM a2a_task_events WHERE task_id = ? AND generation > ? AND generation <= ? ORDER BY generation`,
		id, rec.Generation, gen)
	if err != nil {
		return err
	}
	defer rows.Close()
	events, err := a2atask.ScanEvents(rows)
	if err != nil {
		return err
	}
	a2atask.Replay(rec, events)
	return nil
}

func (s *Store) List(ctx context.Context, q a2atask.Query) ([]*a2atask.Record, int, error) {
	where, args := []string{"owner = ?"}, []any{q.Owner}
	if q.ContextID != "" {
		where, args = append(where, "context_id = ?"), append(args, q.ContextID)
	}
	if q.State != 0 {
		where, args = append(where, "state = ?"), append(args, int32(q.State))
	}
	if !q.UpdatedAfter.IsZero() {
		where, args = append(where, "updated > ?"), append(args, q.UpdatedAfter.UnixNano())
	}
	var total int
	if err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM a2a_tasks WHERE `+strings.Join(where, " AND "), args...).Scan(&total); err != nil {
		return nil, 0, err
	}
	if q.After != nil {
		u := q.After.Updated.UnixNano()
		where, args = append(where, "(updated < ? OR (updated = ? AND id < ?))"), append(args, u, u, q.After.ID)
	}
	rows, err := s.db.QueryContext(ctx, `SELECT t.owner, t.generation, t.snapshot, s.task FROM a2a_tasks t JOIN a2a_task_snapshots s ON s.task_id = t.id WHERE `+
		strings.Join(where, " AND ")+` ORDER BY updated DESC, id DESC LIMIT ?`, append(args, q.Limit)...)
	if err != nil {
		return nil, 0, err
	}
	// Read whole before the events are: the store has one connection.
	page, err := a2atask.ScanSnapshots(rows)
	if cerr := rows.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, 0, err
	}
	out := make([]*a2atask.Record, len(page))
	for i, st := range page {
		if err := replay(ctx, s.db, st.Record.Task.ID, st.Record, st.Generation); err != nil {
			return nil, 0, err
		}
		out[i] = st.Record
	}
	return out, total, nil
}

func (s *Store) Events(ctx context.Context, id string, after int64) ([]a2atask.Event, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT generation, event FROM a2a_task_events WHERE task_id = ? AND generation > ? ORDER BY generation`, id, after)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out, err := a2atask.ScanEvents(rows)
	if err != nil {
		return nil, err
	}
	if len(out) == 0 {
		// None: is there a task at all? Without reading it.
		if _, _, err := s.Peek(ctx, id); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// Peek implements a2atask.Peeker.
func (s *Store) Peek(ctx context.Context, id string) (int64, a2a.TaskState, error) {
	var gen int64
	var st int32
	err := s.db.QueryRowContext(ctx, `SELECT generation, state FROM a2a_tasks WHERE id = ?`, id).Scan(&gen, &st)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, 0, a2atask.ErrNotFound
	}
	return gen, a2a.TaskState(st), err
}

func (s *Store) Watch(id string) (<-chan int64, func()) { return s.signals.Watch(id) }

// SavePushConfig implements a2atask.PushConfigs. A task's first config
// opens its outbox: the events from then on owe notifications.
func (s *Store) SavePushConfig(ctx context.Context, cfg *a2a.TaskPushNotificationConfig) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `INSERT INTO a2a_push_configs (task_id, id, config) VALUES (?, ?, ?)
		ON CONFLICT (task_id, id) DO UPDATE SET config = excluded.config`, cfg.TaskID, cfg.ID, cfg.AppendProto(nil)); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO a2a_push_outbox (task_id, owed, delivered)
		SELECT ?1, g, g FROM (SELECT COALESCE((SELECT generation FROM a2a_tasks WHERE id = ?1), 0) AS g) WHERE true
		ON CONFLICT (task_id) DO NOTHING`, cfg.TaskID); err != nil {
		return err
	}
	return tx.Commit()
}

// PushConfigs implements a2atask.PushConfigs.
func (s *Store) PushConfigs(ctx context.Context, taskID string) ([]*a2a.TaskPushNotificationConfig, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT config FROM a2a_push_configs WHERE task_id = ? ORDER BY id`, taskID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	return a2atask.ScanPushConfigs(rows)
}

// DeletePushConfig implements a2atask.PushConfigs.
func (s *Store) DeletePushConfig(ctx context.Context, taskID, id string) (bool, error) {
	res, err := s.db.ExecContext(ctx, `DELETE FROM a2a_push_configs WHERE task_id = ? AND id = ?`, taskID, id)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n > 0, err
}

// Lease implements a2atask.Store.
func (s *Store) Lease(ctx context.Context, id string, until time.Time) error {
	res, err := s.db.ExecContext(ctx, `UPDATE a2a_tasks SET lease_until = ? WHERE id = ?`, until.UnixNano(), id)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return a2atask.ErrNotFound
	}
	return nil
}

// Orphans implements a2atask.Store.
func (s *Store) Orphans(ctx context.Context, t time.Time, limit int) ([]string, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT id FROM a2a_tasks WHERE state IN (?, ?) AND lease_until < ? ORDER BY id LIMIT ?`,
		int32(a2a.TaskStateSubmitted), int32(a2a.TaskStateWorking), t.UnixNano(), limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	return a2atask.ScanStrings(rows)
}
