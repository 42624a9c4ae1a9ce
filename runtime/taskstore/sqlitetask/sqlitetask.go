// Package sqlitetask keeps A2A tasks and their event logs in a SQLite
// database file, through the pure-Go driver modernc.org/sqlite: the
// embedded default store, which survives a crash of the process and needs
// no server. Several processes may share the file; each sees the others'
// events by polling.
//
// Tasks, events and push configs are kept as protobuf bytes; what the
// store needs to know of their types comes from a taskstore.Spec, which
// the generated a2atask package gives (its sqlitestore subpackage opens a
// Store with it).
package sqlitetask

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/agui-gen/agui-gen/runtime/batch"
	"github.com/agui-gen/agui-gen/runtime/sqlite"
	"github.com/agui-gen/agui-gen/runtime/taskstore"
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
	// complete it (Spec.Replay).
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

// Store is a task store in a SQLite file, for the spec types of its Spec:
// T the task, E the event, C the push config, S the task state. The
// generated a2atask/sqlitestore.Store is one.
type Store[T, E, C taskstore.Proto, S ~int32] struct {
	spec   *taskstore.Spec[T, E, C, S]
	db     *sql.DB
	writes *batch.Batcher[sqlite.Change]
	// Claims keeps the push outbox's claims (a2atask.PushOutbox) in
	// a2a_push_outbox.
	*sqlite.Claims
	running   string // the SQL list of the running states, for Orphans
	signals   batch.Signals
	poller    *sqlite.Poller
	closeOnce sync.Once
}

// config is what the options set.
type config struct{ poll time.Duration }

// Option configures a Store.
type Option func(*config)

// WithPollInterval sets how often the store looks for events other
// processes wrote to a watched task (default 200 ms). Events this process
// writes wake watchers at once.
func WithPollInterval(d time.Duration) Option { return func(c *config) { c.poll = d } }

// Open opens, or creates, the database at path, in WAL mode, and brings
// its schema up to date.
func Open[T, E, C taskstore.Proto, S ~int32](ctx context.Context, path string, spec taskstore.Spec[T, E, C, S], opts ...Option) (*Store[T, E, C, S], error) {
	db, err := sqlite.Open(path, sqlite.Config{Pragmas: []string{"journal_mode(WAL)", "busy_timeout(10000)", "foreign_keys(1)", "synchronous(NORMAL)"}})
	if err != nil {
		return nil, err
	}
	c := config{poll: 200 * time.Millisecond}
	for _, o := range opts {
		o(&c)
	}
	s := &Store[T, E, C, S]{spec: &spec, db: db, writes: sqlite.NewChanges(db), Claims: sqlite.NewClaims(db, "a2a_push_outbox")}
	var running []string
	for _, st := range spec.Running {
		running = append(running, fmt.Sprint(int32(st)))
	}
	s.running = strings.Join(running, ", ")
	if err := sqlite.Migrate(ctx, db, "a2a_schema", migrations); err != nil {
		db.Close()
		return nil, fmt.Errorf("sqlitestore: %s: %w", path, err)
	}
	s.poller = sqlite.StartPoller(db, &s.signals, c.poll, `SELECT generation FROM a2a_tasks WHERE id = ?`)
	return s, nil
}

// Close stops the store and closes the database; closing again does
// nothing.
func (s *Store[T, E, C, S]) Close() error {
	var err error
	s.closeOnce.Do(func() {
		s.poller.Close()
		err = s.db.Close()
	})
	return err
}

// Create stores a new task at generation 1 with its first event.
func (s *Store[T, E, C, S]) Create(ctx context.Context, owner string, task T, event E) error {
	return s.CreateLeased(ctx, owner, task, event, time.Time{})
}

// CreateLeased is Create with the task leased until the given time, in the
// same transaction.
func (s *Store[T, E, C, S]) CreateLeased(ctx context.Context, owner string, task T, event E, until time.Time) error {
	id, contextID, state, updated := s.spec.TaskColumns(task)
	err := s.writes.Do(ctx, func(ctx context.Context, tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO a2a_tasks (id, owner, context_id, state, updated, generation, snapshot, lease_until) VALUES (?, ?, ?, ?, ?, 1, 1, ?)`,
			id, owner, contextID, state, updated, taskstore.Nanos(until)); err != nil {
			if strings.Contains(err.Error(), "UNIQUE") {
				return taskstore.ErrConflict
			}
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO a2a_task_snapshots (task_id, task) VALUES (?, ?)`, id, task.AppendProto(nil)); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO a2a_task_events (task_id, generation, event) VALUES (?, 1, ?)`, id, event.AppendProto(nil))
		return err
	})
	if err != nil {
		return err
	}
	s.signals.Notify(id, 1)
	return nil
}

// Update replaces the task stored at generation prev, at prev+1, and
// appends event.
func (s *Store[T, E, C, S]) Update(ctx context.Context, task T, prev int64, event E) (int64, error) {
	id, contextID, state, updated := s.spec.TaskColumns(task)
	err := s.writes.Do(ctx, func(ctx context.Context, tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE a2a_tasks SET context_id = ?, state = ?, updated = ?, generation = ?, snapshot = ? WHERE id = ? AND generation = ?`,
			contextID, state, updated, prev+1, prev+1, id, prev)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil {
			return err
		} else if n == 0 {
			return missingOrMoved(ctx, tx, id)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE a2a_task_snapshots SET task = ? WHERE task_id = ?`, task.AppendProto(nil), id); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO a2a_task_events (task_id, generation, event) VALUES (?, ?, ?)`, id, prev+1, event.AppendProto(nil))
		return err
	})
	if err != nil {
		return 0, err
	}
	s.signals.Notify(id, prev+1)
	return prev + 1, nil
}

// missingOrMoved is the error of a write to task id that found it at
// another generation, or not at all.
func missingOrMoved(ctx context.Context, tx *sql.Tx, id string) error {
	var one int
	if err := tx.QueryRowContext(ctx, `SELECT 1 FROM a2a_tasks WHERE id = ?`, id).Scan(&one); errors.Is(err, sql.ErrNoRows) {
		return taskstore.ErrNotFound
	} else if err != nil {
		return err
	}
	return taskstore.ErrConflict
}

// Append applies event to the task stored at generation prev, at prev+1:
// the event and the task's generation, state and time, and a new snapshot
// of the task only when one is due (Spec.SnapshotDue), in the next
// transaction of writes (sqlite.NewChanges). task, when not the zero
// value, is the task as event leaves it.
func (s *Store[T, E, C, S]) Append(ctx context.Context, id string, prev int64, event E, task T) (int64, error) {
	gen := prev + 1
	st, updated := s.spec.StatusColumns(event)
	var none T
	// An event that settles the task always brings a snapshot (SnapshotDue):
	// when the caller has the task, its generation goes in the same
	// statement as the event's.
	settles := task != none && s.spec.Settles(event)
	err := s.writes.Do(ctx, func(ctx context.Context, tx *sql.Tx) error {
		snapshot, err := moveTask(ctx, tx, id, prev, st, updated, settles)
		if errors.Is(err, sql.ErrNoRows) {
			return missingOrMoved(ctx, tx, id)
		}
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO a2a_task_events (task_id, generation, event) VALUES (?, ?, ?)`, id, gen, event.AppendProto(nil)); err != nil {
			return err
		}
		if !settles && !s.spec.SnapshotDue(snapshot, gen, event) {
			return nil
		}
		snap := task
		if snap == none {
			rec, err := s.get(ctx, tx, id)
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

// moveTask brings the row of task id from generation prev to prev+1 with
// the state and time of its event (nil leaves them), and its snapshot
// generation along when settles, and returns the snapshot generation; the
// error is sql.ErrNoRows when the task is not at prev. Like countTasks and
// peek, it is not generic so that the compiler inlines QueryRowContext,
// and the Row stays off the heap.
func moveTask(ctx context.Context, tx *sql.Tx, id string, prev int64, state *int32, updated *int64, settles bool) (int64, error) {
	var snapshot int64
	err := tx.QueryRowContext(ctx, `UPDATE a2a_tasks SET generation = ?, state = COALESCE(?, state), updated = COALESCE(?, updated),
			snapshot = CASE WHEN ? THEN ? ELSE snapshot END
			WHERE id = ? AND generation = ? RETURNING snapshot`, prev+1, state, updated, settles, prev+1, id, prev).Scan(&snapshot)
	return snapshot, err
}

// Get reads a task: its snapshot, and the events after it applied.
func (s *Store[T, E, C, S]) Get(ctx context.Context, id string) (*taskstore.Record[T], error) {
	return s.get(ctx, s.db, id)
}

// querier is what get reads through: the database, or a transaction.
type querier interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

func (s *Store[T, E, C, S]) get(ctx context.Context, q querier, id string) (*taskstore.Record[T], error) {
	rec, gen, err := s.spec.ScanSnapshot(q.QueryRowContext(ctx, `SELECT t.owner, t.generation, t.snapshot, s.task FROM a2a_tasks t JOIN a2a_task_snapshots s ON s.task_id = t.id WHERE t.id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, taskstore.ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	return rec, s.replay(ctx, q, id, rec, gen)
}

// replay brings rec, a snapshot, to generation gen with the events after
// it.
func (s *Store[T, E, C, S]) replay(ctx context.Context, q querier, id string, rec *taskstore.Record[T], gen int64) error {
	if rec.Generation >= gen {
		return nil
	}
	rows, err := q.QueryContext(ctx, `SELECT generation, event FROM a2a_task_events WHERE task_id = ? AND generation > ? AND generation <= ? ORDER BY generation`,
		id, rec.Generation, gen)
	if err != nil {
		return err
	}
	defer rows.Close()
	events, err := s.spec.ScanEvents(rows)
	if err != nil {
		return err
	}
	s.spec.Replay(rec, events)
	return nil
}

// List returns a page of the tasks that match q, newest status first,
// and the total number that match.
func (s *Store[T, E, C, S]) List(ctx context.Context, q taskstore.Query[S]) ([]*taskstore.Record[T], int, error) {
	count, countArgs, where, args := taskstore.ListFilter(q, func(int) string { return "?" })
	total, err := countTasks(ctx, s.db, count, countArgs)
	if err != nil {
		return nil, 0, err
	}
	rows, err := s.db.QueryContext(ctx, `SELECT t.owner, t.generation, t.snapshot, s.task FROM a2a_tasks t JOIN a2a_task_snapshots s ON s.task_id = t.id WHERE `+
		where+` ORDER BY updated DESC, id DESC LIMIT ?`, append(args, q.Limit)...)
	if err != nil {
		return nil, 0, err
	}
	// Read whole before the events are: the store has one connection.
	page, err := s.spec.ScanSnapshots(rows)
	if cerr := rows.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, 0, err
	}
	out := make([]*taskstore.Record[T], len(page))
	for i, st := range page {
		id, _, _, _ := s.spec.Columns(st.Record.Task)
		if err := s.replay(ctx, s.db, id, st.Record, st.Generation); err != nil {
			return nil, 0, err
		}
		out[i] = st.Record
	}
	return out, total, nil
}

// countTasks counts the tasks that match where (see moveTask).
func countTasks(ctx context.Context, db *sql.DB, where string, args []any) (int, error) {
	var total int
	err := db.QueryRowContext(ctx, `SELECT COUNT(*) FROM a2a_tasks WHERE `+where, args...).Scan(&total)
	return total, err
}

// Events returns the events of a task after generation after, in order.
func (s *Store[T, E, C, S]) Events(ctx context.Context, id string, after int64) ([]taskstore.Event[E], error) {
	rows, err := s.db.QueryContext(ctx, `SELECT generation, event FROM a2a_task_events WHERE task_id = ? AND generation > ? ORDER BY generation`, id, after)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out, err := s.spec.ScanEvents(rows)
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

// Peek tells a task's generation and state without reading the task.
func (s *Store[T, E, C, S]) Peek(ctx context.Context, id string) (int64, S, error) {
	gen, st, err := peek(ctx, s.db, id)
	return gen, S(st), err
}

// peek is Peek, not generic (see moveTask).
func peek(ctx context.Context, db *sql.DB, id string) (gen int64, state int32, err error) {
	err = db.QueryRowContext(ctx, `SELECT generation, state FROM a2a_tasks WHERE id = ?`, id).Scan(&gen, &state)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, 0, taskstore.ErrNotFound
	}
	return gen, state, err
}

// Watch signals on the returned channel after events are appended to the
// task, by this process at once or by another at the next poll.
func (s *Store[T, E, C, S]) Watch(id string) (<-chan int64, func()) { return s.signals.Watch(id) }

// SavePushConfig stores a push config, replacing the one of its task and
// ID. A task's first config opens its outbox: the events from then on owe
// notifications.
func (s *Store[T, E, C, S]) SavePushConfig(ctx context.Context, cfg C) error {
	taskID, id := s.spec.ConfigKey(cfg)
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `INSERT INTO a2a_push_configs (task_id, id, config) VALUES (?, ?, ?)
		ON CONFLICT (task_id, id) DO UPDATE SET config = excluded.config`, taskID, id, cfg.AppendProto(nil)); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO a2a_push_outbox (task_id, owed, delivered)
		SELECT ?1, g, g FROM (SELECT COALESCE((SELECT generation FROM a2a_tasks WHERE id = ?1), 0) AS g) WHERE true
		ON CONFLICT (task_id) DO NOTHING`, taskID); err != nil {
		return err
	}
	return tx.Commit()
}

// PushConfigs returns a task's push configs, by ID.
func (s *Store[T, E, C, S]) PushConfigs(ctx context.Context, taskID string) ([]C, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT config FROM a2a_push_configs WHERE task_id = ? ORDER BY id`, taskID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	return s.spec.ScanConfigs(rows)
}

// DeletePushConfig deletes a push config, reporting whether there was one.
func (s *Store[T, E, C, S]) DeletePushConfig(ctx context.Context, taskID, id string) (bool, error) {
	return sqlite.Changed(s.db.ExecContext(ctx, `DELETE FROM a2a_push_configs WHERE task_id = ? AND id = ?`, taskID, id))
}

// Lease records that an executor is running the task until the given
// time.
func (s *Store[T, E, C, S]) Lease(ctx context.Context, id string, until time.Time) error {
	res, err := s.db.ExecContext(ctx, `UPDATE a2a_tasks SET lease_until = ? WHERE id = ?`, until.UnixNano(), id)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return taskstore.ErrNotFound
	}
	return nil
}

// Orphans returns up to limit tasks in a running state (Spec.Running)
// whose lease ended before t.
func (s *Store[T, E, C, S]) Orphans(ctx context.Context, t time.Time, limit int) ([]string, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT id FROM a2a_tasks WHERE state IN (`+s.running+`) AND lease_until < ? ORDER BY id LIMIT ?`,
		t.UnixNano(), limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	return taskstore.ScanStrings(rows)
}
