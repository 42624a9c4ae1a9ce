// Package pgtask keeps A2A tasks and their event logs in PostgreSQL,
// through github.com/jackc/pgx/v5, so that several replicas of a server
// share them: any replica serves any request, a subscriber on one replica
// follows a task another runs, and a cancel written anywhere reaches the
// executor wherever it runs. Writes send a NOTIFY that wakes the
// replicas' watchers at once; polling catches what a lost connection
// missed.
//
// Tasks, events and push configs are kept as protobuf bytes; what the
// store needs to know of their types comes from a taskstore.Spec, which
// the generated a2atask package gives (its pgstore subpackage opens a Store
// with it).
package pgtask

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/agui-gen/agui-gen/runtime/batch"
	"github.com/agui-gen/agui-gen/runtime/postgres"
	"github.com/agui-gen/agui-gen/runtime/taskstore"
)

// channel is the NOTIFY channel writes announce a task on
// (postgres.Notifier): its generation and ID, "17 id", a line each. A
// replica announces its writes after they commit, in batches, one
// statement for all the writes of a few milliseconds (WithAnnounceDelay).
const channel = "a2a_tasks"

// migrations create and evolve the schema, in order; the database records
// how many it has applied. Append, never edit.
var migrations = []string{
	`CREATE TABLE a2a_tasks (
		id         text PRIMARY KEY,
		owner      text NOT NULL,
		context_id text NOT NULL,
		state      integer NOT NULL,
		updated    bigint NOT NULL, -- the status time, Unix nanoseconds
		generation bigint NOT NULL,
		task       bytea NOT NULL   -- the a2a.Task in protobuf binary
	);
	CREATE INDEX a2a_tasks_by_owner ON a2a_tasks (owner, updated DESC, id DESC);
	CREATE TABLE a2a_task_events (
		task_id    text NOT NULL REFERENCES a2a_tasks (id),
		generation bigint NOT NULL,
		event      bytea NOT NULL,  -- the a2a.StreamResponse in protobuf binary
		PRIMARY KEY (task_id, generation)
	);`,
	`CREATE TABLE a2a_push_configs (
		task_id text NOT NULL,
		id      text NOT NULL,
		config  bytea NOT NULL,     -- the a2a.TaskPushNotificationConfig in protobuf binary
		PRIMARY KEY (task_id, id)
	);`,
	`ALTER TABLE a2a_tasks ADD COLUMN lease_until bigint NOT NULL DEFAULT 0; -- Unix nanoseconds
	CREATE INDEX a2a_tasks_by_lease ON a2a_tasks (state, lease_until);`,
	// task holds the task at generation snapshot; the events after it
	// complete it (Spec.Replay).
	`ALTER TABLE a2a_tasks ADD COLUMN snapshot bigint NOT NULL DEFAULT 0;
	UPDATE a2a_tasks SET snapshot = generation;`,
	// The push outbox (a2atask.PushOutbox): a row for each task with push
	// configs, whose events up to owed are owed notifications, delivered up
	// to delivered, by holder while its claim lasts. The trigger owes each
	// event in the transaction that appends it, whichever statement does.
	`CREATE TABLE a2a_push_outbox (
		task_id    text PRIMARY KEY,
		owed       bigint NOT NULL,
		delivered  bigint NOT NULL,
		holder     text NOT NULL DEFAULT '',
		held_until bigint NOT NULL DEFAULT 0 -- Unix nanoseconds
	);
	CREATE INDEX a2a_push_outbox_owed ON a2a_push_outbox (held_until) WHERE delivered < owed;
	INSERT INTO a2a_push_outbox (task_id, owed, delivered)
		SELECT t.id, t.generation, t.generation FROM a2a_tasks t WHERE EXISTS (SELECT 1 FROM a2a_push_configs c WHERE c.task_id = t.id);
	CREATE FUNCTION a2a_push_owed() RETURNS trigger LANGUAGE plpgsql AS $$
	BEGIN
		UPDATE a2a_push_outbox SET owed = NEW.generation WHERE task_id = NEW.task_id AND owed < NEW.generation;
		RETURN NULL;
	END $$;
	CREATE TRIGGER a2a_push_owed AFTER INSERT ON a2a_task_events FOR EACH ROW EXECUTE FUNCTION a2a_push_owed();`,
}

// migrationLock is the advisory lock replicas take to migrate one at a time.
const migrationLock = 0x6132615f73746f72 // "a2a_stor"

// Store is a task store in PostgreSQL, for the spec types of its Spec:
// T the task, E the event, C the push config, S the task state. The
// generated a2atask/pgstore.Store is one.
type Store[T, E, C taskstore.Proto, S ~int32] struct {
	spec   *taskstore.Spec[T, E, C, S]
	pool   *pgxpool.Pool
	writes *batch.Batcher[*postgres.Write]
	// Claims keeps the push outbox's claims (a2atask.PushOutbox) in
	// a2a_push_outbox.
	*postgres.Claims
	running   string // the SQL list of the running states, for Orphans
	signals   batch.Signals
	notifier  *postgres.Notifier
	closeOnce sync.Once
}

// config is what the options set.
type config struct {
	poll, gather time.Duration
	lanes        int
}

// Option configures a Store.
type Option func(*config)

// DefaultAnnounceDelay is how long a replica gathers its writes before it
// announces them to the others, unless WithAnnounceDelay says otherwise.
const DefaultAnnounceDelay = 5 * time.Millisecond

// WithAnnounceDelay sets how long a replica gathers its writes before it
// announces them to the other replicas (default DefaultAnnounceDelay): a
// notification, and the round trip that sends it, then stands for all the
// writes of that while, and every replica reads fewer. It delays what the
// other replicas' watchers see by as much; this replica's own see a write
// at once. In the benchmark (BenchmarkA2ATaskRuntime) 5 ms took a
// replica's CPU per request from 185-193 to 138-155 µs; 0 announces at once.
func WithAnnounceDelay(d time.Duration) Option { return func(c *config) { c.gather = max(d, 0) } }

// WithWriteLanes sets how many batches of writes may be at the database
// at once (default a quarter of the pool, at least one). The writes that
// queue while the lanes are busy go out together, one round trip and one
// commit for the lot; more lanes make smaller batches. On two cores one
// lane did 2,900 blocking SendMessage requests a second, two 2,500 and
// four 2,300 (BenchmarkA2ATaskRuntime).
func WithWriteLanes(n int) Option { return func(c *config) { c.lanes = n } }

// WithPollInterval sets how often the store reads the generation of the
// watched tasks, in case a notification was lost (default 1 s).
func WithPollInterval(d time.Duration) Option { return func(c *config) { c.poll = d } }

// Open connects to the database at dsn (a postgres:// URL or key=value
// string), brings its schema up to date, and listens for other replicas'
// writes.
//
// The connection settings are the DSN's, sslmode among them. pgx's
// default, prefer, negotiates TLS with every server that offers it, as
// Debian's does on loopback, at a cost: on one machine (loopback, a Unix
// socket) give sslmode=disable; across a network, sslmode=verify-full
// with the server's CA (sslrootcert). The pool is pgx's (pool_max_conns,
// default the larger of 4 and the CPUs), which the task runtime keeps
// busy enough: more connections than cores contend on the database's
// locks rather than add throughput. The writes of requests made at once
// share round trips and commits (WithWriteLanes).
func Open[T, E, C taskstore.Proto, S ~int32](ctx context.Context, dsn string, spec taskstore.Spec[T, E, C, S], opts ...Option) (*Store[T, E, C, S], error) {
	pool, err := pgxpool.New(ctx, dsn)
	if err != nil {
		return nil, fmt.Errorf("pgstore: %w", err)
	}
	c := config{poll: time.Second, lanes: max(1, int(pool.Config().MaxConns)/4), gather: DefaultAnnounceDelay}
	for _, o := range opts {
		o(&c)
	}
	s := &Store[T, E, C, S]{spec: &spec, pool: pool, writes: postgres.NewWrites(pool, c.lanes)}
	s.Claims = postgres.NewClaims(pool, "a2a_push_outbox", unavailable)
	var running []string
	for _, st := range spec.Running {
		running = append(running, strconv.Itoa(int(int32(st))))
	}
	s.running = strings.Join(running, ", ")
	if err := postgres.Migrate(ctx, pool, migrationLock, "a2a_schema", migrations); err != nil {
		pool.Close()
		return nil, fmt.Errorf("pgstore: %w", err)
	}
	s.notifier = postgres.StartNotifier(pool, &s.signals, postgres.NotifierConfig{
		Channel: channel, Gather: c.gather, Poll: c.poll,
		Generations: `SELECT id, generation FROM a2a_tasks WHERE id = ANY($1)`,
	})
	return s, nil
}

// Close stops listening and closes the connections; closing again does
// nothing.
func (s *Store[T, E, C, S]) Close() error {
	s.closeOnce.Do(func() {
		s.notifier.Close()
		s.pool.Close()
	})
	return nil
}

// Create stores a new task at generation 1 with its first event.
func (s *Store[T, E, C, S]) Create(ctx context.Context, owner string, task T, event E) error {
	return s.CreateLeased(ctx, owner, task, event, time.Time{})
}

// CreateLeased is Create with the task leased until the given time: the
// task and its first event in one statement, in the next batch of writes
// (postgres.NewWrites).
func (s *Store[T, E, C, S]) CreateLeased(ctx context.Context, owner string, task T, event E, until time.Time) error {
	id, contextID, state, updated := s.spec.TaskColumns(task)
	// A task of that ID already there is a row not inserted, not an error,
	// so that the statement can share a batch (write).
	var added int64
	err := s.queryRow(ctx, func(row pgx.Row) error { return row.Scan(&added) }, `WITH created AS (
			INSERT INTO a2a_tasks (id, owner, context_id, state, updated, generation, snapshot, task, lease_until) VALUES ($1, $2, $3, $4, $5, 1, 1, $6, $8)
			ON CONFLICT (id) DO NOTHING
			RETURNING id
		), added AS (
			INSERT INTO a2a_task_events (task_id, generation, event) SELECT id, 1, $7 FROM created RETURNING 1
		)
		SELECT count(*) FROM added`,
		id, owner, contextID, state, updated, task.AppendProto(nil), event.AppendProto(nil), taskstore.Nanos(until))
	if err != nil {
		return unavailable(err)
	}
	if added == 0 {
		return taskstore.ErrConflict
	}
	s.wrote(id, 1)
	return nil
}

// Update replaces the task stored at generation prev, at prev+1, and
// appends event.
func (s *Store[T, E, C, S]) Update(ctx context.Context, task T, prev int64, event E) (int64, error) {
	id, contextID, state, updated := s.spec.TaskColumns(task)
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `UPDATE a2a_tasks SET context_id = $1, state = $2, updated = $3, generation = $4, snapshot = $4, task = $5 WHERE id = $6 AND generation = $7`,
			contextID, state, updated, prev+1, task.AppendProto(nil), id, prev)
		if err != nil {
			return err
		}
		if tag.RowsAffected() == 0 {
			var one int
			if err := tx.QueryRow(ctx, `SELECT 1 FROM a2a_tasks WHERE id = $1`, id).Scan(&one); errors.Is(err, pgx.ErrNoRows) {
				return taskstore.ErrNotFound
			}
			return taskstore.ErrConflict
		}
		_, err = tx.Exec(ctx, `INSERT INTO a2a_task_events (task_id, generation, event) VALUES ($1, $2, $3)`, id, prev+1, event.AppendProto(nil))
		return err
	})
	if err != nil {
		return 0, unavailable(err)
	}
	s.wrote(id, prev+1)
	return prev + 1, nil
}

// Append applies event to the task stored at generation prev, at prev+1.
// The event and the task's generation, state and time go in one
// statement, in the next batch of writes (postgres.NewWrites); when a new
// snapshot is due (Spec.SnapshotDue) a second statement writes it, unless
// a later writer's snapshot is there already. A snapshot is the task at
// its generation, so one that a crash leaves unwritten costs only the
// events a reader replays. task, when not the zero value, is the task as
// event leaves it.
func (s *Store[T, E, C, S]) Append(ctx context.Context, id string, prev int64, event E, task T) (int64, error) {
	gen := prev + 1
	st, updated := s.spec.StatusColumns(event)
	var none T
	has := task != none
	// An event that settles the task takes its snapshot along, in the same
	// statement, when the caller has the task: what a settled task's
	// readers read whole.
	var settledTask []byte
	if has && s.spec.Settles(event) {
		settledTask = task.AppendProto(nil)
	}
	var snapshot int64
	err := s.queryRow(ctx, func(row pgx.Row) error { return row.Scan(&snapshot, new(int64)) }, `WITH moved AS (
			UPDATE a2a_tasks SET generation = $1, state = COALESCE($2, state), updated = COALESCE($3, updated),
				snapshot = CASE WHEN $7::bytea IS NULL THEN snapshot ELSE $1 END, task = COALESCE($7, task)
			WHERE id = $4 AND generation = $5 RETURNING snapshot
		), added AS (
			INSERT INTO a2a_task_events (task_id, generation, event) SELECT $4, $1, $6 FROM moved RETURNING 1
		)
		SELECT snapshot, (SELECT count(*) FROM added) FROM moved`,
		gen, st, updated, id, prev, event.AppendProto(nil), settledTask)
	if errors.Is(err, pgx.ErrNoRows) {
		var one int
		if err := s.pool.QueryRow(ctx, `SELECT 1 FROM a2a_tasks WHERE id = $1`, id).Scan(&one); errors.Is(err, pgx.ErrNoRows) {
			return 0, taskstore.ErrNotFound
		} else if err != nil {
			return 0, unavailable(err)
		}
		return 0, taskstore.ErrConflict
	}
	if err != nil {
		return 0, unavailable(err)
	}
	s.wrote(id, gen)
	if snapshot < gen && s.spec.SnapshotDue(snapshot, gen, event) {
		if err := s.snapshot(ctx, id, gen, task, has); err != nil {
			return 0, unavailable(err)
		}
	}
	return gen, nil
}

// snapshot writes task, or when the caller has none the task read back,
// as the snapshot at generation gen, unless one at gen or later is there.
func (s *Store[T, E, C, S]) snapshot(ctx context.Context, id string, gen int64, task T, has bool) error {
	if !has {
		rec, _, err := s.spec.ScanSnapshot(s.pool.QueryRow(ctx, `SELECT owner, generation, snapshot, task FROM a2a_tasks WHERE id = $1`, id))
		if err != nil {
			return err
		}
		if rec.Generation >= gen {
			return nil // a later writer's snapshot
		}
		if err := s.replay(ctx, s.pool, id, rec, gen); err != nil {
			return err
		}
		task = rec.Task
	}
	_, err := s.pool.Exec(ctx, `UPDATE a2a_tasks SET snapshot = $1, task = $2 WHERE id = $3 AND snapshot < $1`, gen, task.AppendProto(nil), id)
	return err
}

// Peek tells a task's generation and state without reading the task.
func (s *Store[T, E, C, S]) Peek(ctx context.Context, id string) (int64, S, error) {
	var gen int64
	var st int32
	err := s.pool.QueryRow(ctx, `SELECT generation, state FROM a2a_tasks WHERE id = $1`, id).Scan(&gen, &st)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, 0, taskstore.ErrNotFound
	}
	return gen, S(st), unavailable(err)
}

// Get reads a task: its snapshot, and the events after it applied.
func (s *Store[T, E, C, S]) Get(ctx context.Context, id string) (*taskstore.Record[T], error) {
	rec, gen, err := s.spec.ScanSnapshot(s.pool.QueryRow(ctx, `SELECT owner, generation, snapshot, task FROM a2a_tasks WHERE id = $1`, id))
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, taskstore.ErrNotFound
	}
	if err != nil {
		return nil, unavailable(err)
	}
	return rec, unavailable(s.replay(ctx, s.pool, id, rec, gen))
}

// querier is what replay reads through: the pool, or a transaction.
type querier interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
}

// replay brings rec, a snapshot, to generation gen with the events after
// it.
func (s *Store[T, E, C, S]) replay(ctx context.Context, q querier, id string, rec *taskstore.Record[T], gen int64) error {
	if rec.Generation >= gen {
		return nil
	}
	rows, err := q.Query(ctx, `SELECT generation, event FROM a2a_task_events WHERE task_id = $1 AND generation > $2 AND generation <= $3 ORDER BY generation`,
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
	count, countArgs, where, args := taskstore.ListFilter(q, func(n int) string { return "$" + strconv.Itoa(n) })
	var total int
	if err := s.pool.QueryRow(ctx, `SELECT COUNT(*) FROM a2a_tasks WHERE `+count, countArgs...).Scan(&total); err != nil {
		return nil, 0, unavailable(err)
	}
	args = append(args, q.Limit)
	rows, err := s.pool.Query(ctx, `SELECT owner, generation, snapshot, task FROM a2a_tasks WHERE `+where+
		` ORDER BY updated DESC, id DESC LIMIT $`+strconv.Itoa(len(args)), args...)
	if err != nil {
		return nil, 0, unavailable(err)
	}
	page, err := s.spec.ScanSnapshots(rows)
	rows.Close()
	if err != nil {
		return nil, 0, unavailable(err)
	}
	out := make([]*taskstore.Record[T], len(page))
	for i, st := range page {
		id, _, _, _ := s.spec.Columns(st.Record.Task)
		if err := s.replay(ctx, s.pool, id, st.Record, st.Generation); err != nil {
			return nil, 0, unavailable(err)
		}
		out[i] = st.Record
	}
	return out, total, nil
}

// Events returns the events of a task after generation after, in order.
func (s *Store[T, E, C, S]) Events(ctx context.Context, id string, after int64) ([]taskstore.Event[E], error) {
	rows, err := s.pool.Query(ctx, `SELECT generation, event FROM a2a_task_events WHERE task_id = $1 AND generation > $2 ORDER BY generation`, id, after)
	if err != nil {
		return nil, unavailable(err)
	}
	defer rows.Close()
	out, err := s.spec.ScanEvents(rows)
	if err != nil {
		return nil, unavailable(err)
	}
	if len(out) == 0 {
		// None: is there a task at all? Without reading it.
		if _, _, err := s.Peek(ctx, id); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// Watch signals on the returned channel after events are appended to the
// task, here or on another replica.
func (s *Store[T, E, C, S]) Watch(id string) (<-chan int64, func()) { return s.signals.Watch(id) }

// wrote wakes this replica's watchers of a task written at generation gen
// and has the notifier tell the other replicas.
func (s *Store[T, E, C, S]) wrote(id string, gen int64) { s.notifier.Wrote(id, gen) }

// SavePushConfig stores a push config, replacing the one of its task and
// ID. A task's first config opens its outbox: the events from then on owe
// notifications.
func (s *Store[T, E, C, S]) SavePushConfig(ctx context.Context, cfg C) error {
	taskID, id := s.spec.ConfigKey(cfg)
	_, err := s.pool.Exec(ctx, `WITH saved AS (
			INSERT INTO a2a_push_configs (task_id, id, config) VALUES ($1, $2, $3)
			ON CONFLICT (task_id, id) DO UPDATE SET config = excluded.config
		)
		INSERT INTO a2a_push_outbox (task_id, owed, delivered)
		SELECT $1, g, g FROM (SELECT COALESCE((SELECT generation FROM a2a_tasks WHERE id = $1), 0) AS g) AS now
		ON CONFLICT (task_id) DO NOTHING`, taskID, id, cfg.AppendProto(nil))
	return unavailable(err)
}

// PushConfigs returns a task's push configs, by ID.
func (s *Store[T, E, C, S]) PushConfigs(ctx context.Context, taskID string) ([]C, error) {
	rows, err := s.pool.Query(ctx, `SELECT config FROM a2a_push_configs WHERE task_id = $1 ORDER BY id`, taskID)
	if err != nil {
		return nil, unavailable(err)
	}
	defer rows.Close()
	cfgs, err := s.spec.ScanConfigs(rows)
	return cfgs, unavailable(err)
}

// DeletePushConfig deletes a push config, reporting whether there was one.
func (s *Store[T, E, C, S]) DeletePushConfig(ctx context.Context, taskID, id string) (bool, error) {
	tag, err := s.pool.Exec(ctx, `DELETE FROM a2a_push_configs WHERE task_id = $1 AND id = $2`, taskID, id)
	return tag.RowsAffected() > 0, unavailable(err)
}

// Lease records that an executor is running the task until the given
// time.
func (s *Store[T, E, C, S]) Lease(ctx context.Context, id string, until time.Time) error {
	tag, err := s.pool.Exec(ctx, `UPDATE a2a_tasks SET lease_until = $1 WHERE id = $2`, until.UnixNano(), id)
	if err != nil {
		return unavailable(err)
	}
	if tag.RowsAffected() == 0 {
		return taskstore.ErrNotFound
	}
	return nil
}

// Orphans returns up to limit tasks in a running state (Spec.Running)
// whose lease ended before t.
func (s *Store[T, E, C, S]) Orphans(ctx context.Context, t time.Time, limit int) ([]string, error) {
	rows, err := s.pool.Query(ctx, `SELECT id FROM a2a_tasks WHERE state IN (`+s.running+`) AND lease_until < $1 ORDER BY id LIMIT $2`,
		t.UnixNano(), limit)
	if err != nil {
		return nil, unavailable(err)
	}
	defer rows.Close()
	ids, err := taskstore.ScanStrings(rows)
	return ids, unavailable(err)
}

// queryRow runs sql with args in the next batch of writes and scans its one
// row with scan.
func (s *Store[T, E, C, S]) queryRow(ctx context.Context, scan func(pgx.Row) error, sql string, args ...any) error {
	return s.writes.Do(ctx, &postgres.Write{SQL: sql, Args: args, Scan: scan})
}

// unavailable marks an error that says the database cannot be reached or
// is restarting (refused or lost connections, the server shutting down or
// starting up, no connection slot free) with taskstore.ErrUnavailable, so
// that the task runtime waits for the database instead of failing the
// work. A caller's cancelled context is the caller's doing, and stays as
// it is.
func unavailable(err error) error {
	if !postgres.Unavailable(err) {
		return err
	}
	return fmt.Errorf("%w: %w", taskstore.ErrUnavailable, err)
}
