// Package pglog is a runlog.Log in PostgreSQL (through runtime/postgres
// and pgx): the logs of resumable runs are shared by the replicas of a
// server, so that any replica resumes a run another runs, a Watch learning
// of another replica's appends by its notifications (a poll catches what a
// lost connection missed), and they outlive every process.
//
// A run's writer keeps it alive (runlog.Liveness): a reader that finds a
// run not ended whose writer has stopped renewing it (killed, say) ends it,
// once, with the final entry the reader gives.
package pglog

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/agui-gen/agui-gen/runtime/batch"
	"github.com/agui-gen/agui-gen/runtime/postgres"
	"github.com/agui-gen/agui-gen/runtime/runlog"
	"github.com/agui-gen/agui-gen/runtime/runlog/internal/packed"
)

// Options bound a Log.
type Options struct {
	// Retention is how long a run's log is kept once it has ended (0: 10
	// minutes); ended logs past it are deleted as runs are created.
	Retention time.Duration
	// MaxRunBytes bounds the bytes of one run's entries (0: 16 MiB).
	MaxRunBytes int
	// Lapse is how long a run's writer's mark lasts unrenewed (0: 10
	// seconds): a run not ended whose mark is older was lost with its
	// writer. Marks are renewed every third of it.
	Lapse time.Duration
	// PollInterval is how often a Watch reads the positions of the watched
	// runs, in case a notification was lost (0: 1 s).
	PollInterval time.Duration
	// AnnounceDelay is how long a replica gathers its appends before it
	// notifies the others (0: 2 ms; less than 0: at once).
	AnnounceDelay time.Duration
	// WriteLanes is how many batches of writes may be at the database at
	// once (0: a quarter of the pool, at least one).
	WriteLanes int
}

// channel is the NOTIFY channel appends are announced on
// (postgres.Notifier), as "generation key": the generation is twice the
// run's last position, plus one once it has ended.
const channel = "agui_runlog"

// migrations create and evolve the schema, in order; the database
// records how many it has applied. Append, never edit.
var migrations = []string{
	`CREATE TABLE agui_runlog_runs (
		key         text PRIMARY KEY,
		thread_id   text NOT NULL,
		run_id      text NOT NULL,
		owner       text NOT NULL,
		input       bytea NOT NULL,
		last        bigint NOT NULL DEFAULT 0,
		size        bigint NOT NULL DEFAULT 0,
		ended       boolean NOT NULL DEFAULT false,
		started     bigint NOT NULL,         -- Unix nanoseconds
		ended_at    bigint,                  -- Unix nanoseconds
		alive_until timestamptz NOT NULL,    -- the writer's mark, by the database's clock
		read_until  timestamptz              -- the latest reader's mark
	);
	CREATE INDEX agui_runlog_runs_ids ON agui_runlog_runs (thread_id, run_id, started DESC);
	CREATE INDEX agui_runlog_runs_ended ON agui_runlog_runs (ended_at) WHERE ended_at IS NOT NULL;
	-- Entries packed into rows (runlog/internal/packed), keyed by the
	-- position of a row's last: an entry of its own is a row of one.
	CREATE TABLE agui_runlog_rows (
		key  text NOT NULL,
		last bigint NOT NULL,
		n    integer NOT NULL,
		data bytea NOT NULL,
		PRIMARY KEY (key, last)
	);`,
}

// migrationLock is the advisory lock replicas take to migrate one at a
// time.
const migrationLock = 0x616775695f726c67 // "agui_rlg"

// Log is a runlog.Log in PostgreSQL.
type Log struct {
	pool     *pgxpool.Pool
	opts     Options
	writes   *batch.Batcher[*postgres.Write]
	signals  batch.Signals
	notifier *postgres.Notifier

	mu        sync.Mutex
	mine      map[string]struct{} // the runs this Log created and has not ended: the ones it keeps alive
	lastSweep time.Time
	// lastLostSweep is when lost runs were last swept: they have no index,
	// which every append would update.
	lastLostSweep time.Time

	stop      chan struct{}
	done      chan struct{}
	closeOnce sync.Once
}

// Open connects to the database at dsn (a postgres:// URL or key=value
// string; see pgtask.Open on sslmode and the pool), brings its schema up
// to date, and listens for other replicas' appends.
func Open(ctx context.Context, dsn string, opts Options) (*Log, error) {
	pool, err := pgxpool.New(ctx, dsn)
	if err != nil {
		return nil, fmt.Errorf("pglog: %w", err)
	}
	if err := postgres.Migrate(ctx, pool, migrationLock, "agui_runlog_schema", migrations); err != nil {
		pool.Close()
		return nil, fmt.Errorf("pglog: %w", err)
	}
	if opts.Retention <= 0 {
		opts.Retention = 10 * time.Minute
	}
	if opts.MaxRunBytes <= 0 {
		opts.MaxRunBytes = 16 << 20
	}
	if opts.Lapse <= 0 {
		opts.Lapse = 10 * time.Second
	}
	if opts.PollInterval <= 0 {
		opts.PollInterval = time.Second
	}
	if opts.AnnounceDelay == 0 {
		opts.AnnounceDelay = 2 * time.Millisecond
	}
	if opts.WriteLanes <= 0 {
		opts.WriteLanes = max(1, int(pool.Config().MaxConns)/4)
	}
	l := &Log{pool: pool, opts: opts, writes: postgres.NewWrites(pool, opts.WriteLanes),
		mine: map[string]struct{}{}, stop: make(chan struct{}), done: make(chan struct{})}
	l.notifier = postgres.StartNotifier(pool, &l.signals, postgres.NotifierConfig{
		Channel: channel, Gather: max(opts.AnnounceDelay, 0), Poll: opts.PollInterval,
		Generations: `SELECT key, last * 2 + ended::int FROM agui_runlog_runs WHERE key = ANY($1)`,
	})
	go l.renew()
	return l, nil
}

// Close stops renewing this process's runs (a reader then finds those not
// ended lost), stops listening and closes the connections; closing again
// does nothing.
func (l *Log) Close() error {
	l.closeOnce.Do(func() {
		close(l.stop)
		<-l.done
		l.notifier.Close()
		l.pool.Close()
	})
	return nil
}

// lapse is the mark's duration as an SQL interval argument.
func (l *Log) lapse() float64 { return l.opts.Lapse.Seconds() }

// renew renews the marks of the runs this process writes, every third of
// the lapse, in one statement, until Close.
func (l *Log) renew() {
	defer close(l.done)
	t := time.NewTicker(l.opts.Lapse / 3)
	defer t.Stop()
	for {
		select {
		case <-l.stop:
			return
		case <-t.C:
		}
		l.mu.Lock()
		keys := make([]string, 0, len(l.mine))
		for k := range l.mine {
			keys = append(keys, k)
		}
		l.mu.Unlock()
		if len(keys) == 0 {
			continue
		}
		ctx, cancel := context.WithTimeout(context.Background(), l.opts.Lapse/3)
		// A renewal that fails is tried again at the next tick; until the
		// mark lapses, nothing is lost.
		l.pool.Exec(ctx, `UPDATE agui_runlog_runs SET alive_until = now() + make_interval(secs => $2)
			WHERE key = ANY($1) AND NOT ended`, keys, l.lapse())
		cancel()
	}
}

// write runs sql in the next batch of writes and scans its one row.
func (l *Log) write(ctx context.Context, scan func(pgx.Row) error, sql string, args ...any) error {
	return l.writes.Do(ctx, &postgres.Write{SQL: sql, Args: args, Scan: scan})
}

// Create implements runlog.Log. Once a second at most it deletes the logs
// past their retention first, and once a minute those of runs lost with
// their process longer ago than the retention, which no reader ended.
func (l *Log) Create(ctx context.Context, run runlog.Run) error {
	_, err := l.AppendBatch(ctx, run.Key, runlog.Batch{Create: &run})
	return err
}

// Append implements runlog.Log: the entries, packed into rows, the run's
// position and its mark in one statement, in the next batch of writes,
// which the appends of other runs made meanwhile share.
func (l *Log) Append(ctx context.Context, key string, data ...[]byte) (int64, error) {
	return l.AppendBatch(ctx, key, runlog.Batch{Entries: data})
}

// AppendBatch implements runlog.BatchLog: b in one statement, in the next
// batch of writes. A batch that creates a run sweeps as Create does.
func (l *Log) AppendBatch(ctx context.Context, key string, b runlog.Batch) (int64, error) {
	now := time.Now()
	if b.Create != nil {
		if err := l.sweep(ctx, now); err != nil {
			return 0, err
		}
	}
	n := int64(0)
	for _, d := range b.Entries {
		n += int64(len(d))
	}
	var final []byte
	count, endBytes := len(b.Entries), int64(0)
	if b.End && b.Last != nil {
		final, endBytes = b.Last, int64(len(b.Last))
		count++
	}
	bufs := packed.Pool.Get().(*packed.Buffers)
	defer bufs.Release()
	rows := bufs.Split(b.Entries, final, 0)
	ends, counts, blobs := make([]int64, len(rows)), make([]int32, len(rows)), make([][]byte, len(rows))
	for i, r := range rows {
		ends[i], counts[i], blobs[i] = r.Last, int32(r.N), r.Data
	}
	var endedAt *int64
	if b.End {
		t := now.UnixNano()
		endedAt = &t
	}
	var last int64
	scan := func(row pgx.Row) error { return row.Scan(&last, new(int64)) }
	if run := b.Create; run != nil {
		if n > int64(l.opts.MaxRunBytes) {
			return 0, fmt.Errorf("%w: it holds 0 bytes, at most %d", runlog.ErrFull, l.opts.MaxRunBytes)
		}
		input := run.Input
		if input == nil {
			input = []byte{}
		}
		// A key in use is a row not inserted, not an error, so that the
		// statement can share a batch.
		err := l.write(ctx, scan, `WITH created AS (
				INSERT INTO agui_runlog_runs (key, thread_id, run_id, owner, input, started, alive_until, last, size, ended, ended_at)
				VALUES ($1, $2, $3, $4, $5, $6, now() + make_interval(secs => $7), $8, $9, $10, $11)
				ON CONFLICT (key) DO NOTHING RETURNING last
			), added AS (
				INSERT INTO agui_runlog_rows (key, last, n, data)
				SELECT $1, u.upto, u.n, u.data FROM created, unnest($12::bigint[], $13::integer[], $14::bytea[]) AS u(upto, n, data) RETURNING 1
			)
			SELECT last, (SELECT count(*) FROM added) FROM created`,
			key, run.ThreadID, run.RunID, run.Owner, input, now.UnixNano(), l.lapse(), int64(count), n+endBytes, b.End, endedAt, ends, counts, blobs)
		if errors.Is(err, pgx.ErrNoRows) {
			return 0, runlog.ErrExists
		}
		if err != nil {
			return 0, err
		}
	} else {
		err := l.write(ctx, scan, `WITH moved AS (
				UPDATE agui_runlog_runs SET last = last + $2, size = size + $3 + $9, alive_until = now() + make_interval(secs => $5),
					ended = $10, ended_at = $11
				WHERE key = $1 AND NOT ended AND size + $3 <= $4 RETURNING last
			), added AS (
				INSERT INTO agui_runlog_rows (key, last, n, data)
				SELECT $1, moved.last - $2 + u.upto, u.n, u.data FROM moved, unnest($6::bigint[], $7::integer[], $8::bytea[]) AS u(upto, n, data) RETURNING 1
			)
			SELECT last, (SELECT count(*) FROM added) FROM moved`,
			key, count, n, l.opts.MaxRunBytes, l.lapse(), ends, counts, blobs, endBytes, b.End, endedAt)
		if errors.Is(err, pgx.ErrNoRows) {
			// Why not: no such run, an ended one, or a full one.
			var size int64
			var ended bool
			err := l.pool.QueryRow(ctx, `SELECT size, ended FROM agui_runlog_runs WHERE key = $1`, key).Scan(&size, &ended)
			switch {
			case errors.Is(err, pgx.ErrNoRows):
				return 0, runlog.ErrNotFound
			case err != nil:
				return 0, err
			case ended:
				return 0, runlog.ErrEnded
			}
			return 0, fmt.Errorf("%w: it holds %d bytes, at most %d", runlog.ErrFull, size, l.opts.MaxRunBytes)
		}
		if err != nil {
			return 0, err
		}
	}
	l.mu.Lock()
	if b.End {
		delete(l.mine, key)
	} else if b.Create != nil {
		l.mine[key] = struct{}{}
	}
	l.mu.Unlock()
	if b.Landed != nil {
		b.Landed(last)
	}
	if b.End {
		l.notifier.Wrote(key, last*2+1)
	} else {
		l.notifier.Wrote(key, last*2)
	}
	return last, nil
}

// sweep deletes, once a second at most, the logs past their retention,
// and once a minute those of runs lost with their process longer ago than
// the retention, which no reader ended.
func (l *Log) sweep(ctx context.Context, now time.Time) error {
	l.mu.Lock()
	sweep := now.Sub(l.lastSweep) >= time.Second
	sweepLost := sweep && now.Sub(l.lastLostSweep) >= time.Minute
	if sweep {
		l.lastSweep = now
	}
	if sweepLost {
		l.lastLostSweep = now
	}
	l.mu.Unlock()
	if !sweep {
		return nil
	}
	_, err := l.pool.Exec(ctx, `WITH gone AS (
			DELETE FROM agui_runlog_runs WHERE ended_at < $1 OR ($2 AND NOT ended AND alive_until < now() - make_interval(secs => $3))
			RETURNING key
		) DELETE FROM agui_runlog_rows WHERE key IN (SELECT key FROM gone)`, l.cutoff(now), sweepLost, l.opts.Retention.Seconds())
	return err
}

// End implements runlog.Log.
func (l *Log) End(ctx context.Context, key string, data []byte) error {
	_, err := l.end(ctx, key, data, false)
	if err == nil {
		l.mu.Lock()
		delete(l.mine, key)
		l.mu.Unlock()
	}
	return err
}

// EndLost implements runlog.Liveness: the condition that the mark has
// lapsed is the update's, so of the replicas that find the run lost, one
// ends it.
func (l *Log) EndLost(ctx context.Context, key string, data []byte) (bool, error) {
	return l.end(ctx, key, data, true)
}

// Lapse implements runlog.Liveness.
func (l *Log) Lapse() time.Duration { return l.opts.Lapse }

// MarkReader implements runlog.Readers.
func (l *Log) MarkReader(ctx context.Context, key string, d time.Duration) error {
	_, err := l.pool.Exec(ctx, `UPDATE agui_runlog_runs SET read_until = GREATEST(read_until, now() + make_interval(secs => $2))
		WHERE key = $1 AND NOT ended`, key, d.Seconds())
	return err
}

// HasReader implements runlog.Readers.
func (l *Log) HasReader(ctx context.Context, key string) (bool, error) {
	var yes bool
	err := l.pool.QueryRow(ctx, `SELECT COALESCE(read_until > now(), false) FROM agui_runlog_runs WHERE key = $1`, key).Scan(&yes)
	if errors.Is(err, pgx.ErrNoRows) {
		return false, runlog.ErrNotFound
	}
	return yes, err
}

// end ends run key's log with data as its final entry, when not nil, if
// it has not ended (and, when lost, if its mark has lapsed), and reports
// whether the run has ended, by this call or before.
func (l *Log) end(ctx context.Context, key string, data []byte, lost bool) (bool, error) {
	cond := ``
	if lost {
		cond = ` AND alive_until < now()`
	}
	add := int64(0)
	if data != nil {
		add = 1
	}
	var last int64
	err := l.write(ctx, func(row pgx.Row) error { return row.Scan(&last, new(int64)) }, `WITH moved AS (
			UPDATE agui_runlog_runs SET last = last + $2, size = size + $3, ended = true, ended_at = $4
			WHERE key = $1 AND NOT ended`+cond+` RETURNING last
		), added AS (
			INSERT INTO agui_runlog_rows (key, last, n, data) SELECT $1, last, 1, $5 FROM moved WHERE $2 = 1 RETURNING 1
		)
		SELECT last, (SELECT count(*) FROM added) FROM moved`,
		key, add, len(data), time.Now().UnixNano(), data)
	if errors.Is(err, pgx.ErrNoRows) {
		var ended bool
		err := l.pool.QueryRow(ctx, `SELECT ended FROM agui_runlog_runs WHERE key = $1`, key).Scan(&ended)
		if errors.Is(err, pgx.ErrNoRows) {
			return false, runlog.ErrNotFound
		}
		return ended, err
	}
	if err != nil {
		return false, err
	}
	l.notifier.Wrote(key, last*2+1)
	return true, nil
}

const runColumns = `key, thread_id, run_id, owner, input, last, ended, started`

func scanRun(row pgx.Row) (runlog.Run, error) {
	var r runlog.Run
	var started int64
	if err := row.Scan(&r.Key, &r.ThreadID, &r.RunID, &r.Owner, &r.Input, &r.Last, &r.Ended, &started); err != nil {
		if errors.Is(err, pgx.ErrNoRows) {
			return runlog.Run{}, runlog.ErrNotFound
		}
		return runlog.Run{}, err
	}
	r.Started = time.Unix(0, started)
	return r, nil
}

// live is the condition of a run still held: in progress, or ended within
// the retention.
const live = `(ended_at IS NULL OR ended_at >= $2)`

func (l *Log) cutoff(now time.Time) int64 { return now.Add(-l.opts.Retention).UnixNano() }

// Get implements runlog.Log.
func (l *Log) Get(ctx context.Context, key string) (runlog.Run, error) {
	return scanRun(l.pool.QueryRow(ctx, `SELECT `+runColumns+` FROM agui_runlog_runs WHERE key = $1 AND `+live, key, l.cutoff(time.Now())))
}

// Find implements runlog.Log.
func (l *Log) Find(ctx context.Context, threadID, runID string) (runlog.Run, error) {
	return scanRun(l.pool.QueryRow(ctx, `SELECT `+runColumns+` FROM agui_runlog_runs
		WHERE thread_id = $3 AND run_id = $1 AND `+live+` ORDER BY started DESC, key DESC LIMIT 1`,
		runID, l.cutoff(time.Now()), threadID))
}

// readRows is how many rows a Read reads at most: a page of up to
// readRows*packed.MaxRowBytes (and the odd larger entry).
const readRows = 8

// Read implements runlog.Log: the run's position and end and the page's
// entries in one statement, so one snapshot: a page never claims an end
// its entries do not reach. It says whether the run was lost
// (Page.Lapsed) by the database's clock.
func (l *Log) Read(ctx context.Context, key string, after int64, limit int, into []runlog.Entry) (runlog.Page, error) {
	rows, err := l.pool.Query(ctx, `SELECT r.last, r.ended, NOT r.ended AND r.alive_until < now(), e.last, e.n, e.data
		FROM agui_runlog_runs r LEFT JOIN LATERAL (
			SELECT last, n, data FROM agui_runlog_rows WHERE key = r.key AND last > $3 ORDER BY last LIMIT $4
		) e ON true
		WHERE r.key = $1 AND `+live+` ORDER BY e.last`, key, l.cutoff(time.Now()), after, readRows)
	if err != nil {
		return runlog.Page{}, err
	}
	defer rows.Close()
	p := runlog.Page{Entries: into[:0]}
	found := false
	for rows.Next() {
		var last *int64
		var n *int32
		var data []byte
		if err := rows.Scan(&p.Last, &p.Ended, &p.Lapsed, &last, &n, &data); err != nil {
			return runlog.Page{}, err
		}
		found = true
		if last != nil && limit > 0 {
			if p.Entries, err = packed.Decode(p.Entries, *last, int(*n), data, after, limit); err != nil {
				return runlog.Page{}, err
			}
		}
	}
	if err := rows.Err(); err != nil {
		return runlog.Page{}, err
	}
	if !found {
		return runlog.Page{}, runlog.ErrNotFound
	}
	return p, nil
}

// Watch implements runlog.Log.
func (l *Log) Watch(key string) (<-chan int64, func()) { return l.signals.Watch(key) }

var (
	_ runlog.Log      = (*Log)(nil)
	_ runlog.Liveness = (*Log)(nil)
	_ runlog.Readers  = (*Log)(nil)
	_ runlog.BatchLog = (*Log)(nil)
)
