// Package sqlitelog is a runlog.Log in a SQLite database file (through
// runtime/sqlite): the logs of resumable runs outlive the process, and
// processes that share the file resume each other's runs, a Watch learning
// of another process's appends by polling.
//
// A run's writer keeps it alive (runlog.Liveness): a reader that finds a
// run not ended whose writer has stopped renewing it (killed, say) ends it,
// once, with the final entry the reader gives.
package sqlitelog

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/agui-gen/agui-gen/runtime/batch"
	"github.com/agui-gen/agui-gen/runtime/runlog"
	"github.com/agui-gen/agui-gen/runtime/runlog/internal/packed"
	"github.com/agui-gen/agui-gen/runtime/sqlite"
)

// Options bound a Log.
type Options struct {
	// Retention is how long a run's log is kept once it has ended (0: 10
	// minutes); ended logs past it are deleted as runs are created.
	Retention time.Duration
	// MaxRunBytes bounds the bytes of one run's entries (0: 16 MiB).
	MaxRunBytes int
	// PollInterval is how often a Watch looks for other processes' appends
	// (0: 250ms); this process's own wake it at once.
	PollInterval time.Duration
	// Lapse is how long a run's writer's mark lasts unrenewed (0: 10
	// seconds): a run not ended whose mark is older was lost with its
	// writer. Marks are renewed every third of it. The processes that
	// share the file share a clock: they are on one machine.
	Lapse time.Duration
}

// Log is a runlog.Log in a SQLite database.
type Log struct {
	db      *sql.DB
	opts    Options
	changes *batch.Batcher[sqlite.Change]
	signals batch.Signals
	poller  *sqlite.Poller
	// stmts are prepared once: parsing a statement cost more than running
	// it, a third of a resumable run's CPU.
	stmts statements

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

var migrations = []string{
	`CREATE TABLE runlog_runs (
		key TEXT PRIMARY KEY,
		thread_id TEXT NOT NULL,
		run_id TEXT NOT NULL,
		owner TEXT NOT NULL,
		input BLOB,
		last INTEGER NOT NULL DEFAULT 0,
		size INTEGER NOT NULL DEFAULT 0,
		ended INTEGER NOT NULL DEFAULT 0,
		started INTEGER NOT NULL,
		ended_at INTEGER
	);
	CREATE INDEX runlog_runs_ids ON runlog_runs (thread_id, run_id);
	CREATE INDEX runlog_runs_ended ON runlog_runs (ended_at) WHERE ended_at IS NOT NULL;
	CREATE TABLE runlog_entries (
		key TEXT NOT NULL,
		pos INTEGER NOT NULL,
		data BLOB NOT NULL,
		PRIMARY KEY (key, pos)
	) WITHOUT ROWID;`,
	// The writer's mark (runlog.Liveness), Unix nanoseconds; a run from
	// before it is not found lost until it is appended to.
	`ALTER TABLE runlog_runs ADD COLUMN alive_until INTEGER NOT NULL DEFAULT 9223372036854775807;`,
	// Entries packed into rows (runlog/internal/packed), keyed by the
	// position of a row's last: an entry of its own is a row of one.
	`CREATE TABLE runlog_rows (
		key TEXT NOT NULL,
		last INTEGER NOT NULL,
		n INTEGER NOT NULL,
		data BLOB NOT NULL,
		PRIMARY KEY (key, last)
	) WITHOUT ROWID;
	INSERT INTO runlog_rows (key, last, n, data) SELECT key, pos, 1, data FROM runlog_entries;
	DROP TABLE runlog_entries;`,
	// The latest reader's mark (runlog.Readers), Unix nanoseconds.
	`ALTER TABLE runlog_runs ADD COLUMN read_until INTEGER NOT NULL DEFAULT 0;`,
	// The rows in a table with rowids, appended at its end, and found by
	// an index of their keys: in a table without rowids each row is its
	// key's index entry, which SQLite reads whole, overflow pages and all,
	// to compare it as it inserts beside it (a third of an append's CPU).
	`CREATE TABLE runlog_rows_by_rowid (
		key TEXT NOT NULL,
		last INTEGER NOT NULL,
		n INTEGER NOT NULL,
		data BLOB NOT NULL
	);
	INSERT INTO runlog_rows_by_rowid (key, last, n, data) SELECT key, last, n, data FROM runlog_rows;
	DROP TABLE runlog_rows;
	ALTER TABLE runlog_rows_by_rowid RENAME TO runlog_rows;
	CREATE UNIQUE INDEX runlog_rows_key ON runlog_rows (key, last);`,
}

// statements are the log's prepared statements.
type statements struct {
	create, appendRun, insertRow, appended, endRun, ended, read *sql.Stmt
}

// prepare prepares the statements of a log.
func (st *statements) prepare(ctx context.Context, db *sql.DB) error {
	for _, p := range []struct {
		stmt **sql.Stmt
		sql  string
	}{
		{&st.create, `INSERT INTO runlog_runs (key, thread_id, run_id, owner, input, started, alive_until, last, size, ended, ended_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (key) DO NOTHING`},
		{&st.appendRun, `SELECT last, size, ended FROM runlog_runs WHERE key = ?`},
		{&st.endRun, `SELECT last, ended, alive_until FROM runlog_runs WHERE key = ?`},
		{&st.ended, `UPDATE runlog_runs SET last = ?, size = size + ?, ended = 1, ended_at = ? WHERE key = ?`},
		{&st.insertRow, `INSERT INTO runlog_rows (key, last, n, data) VALUES (?, ?, ?, ?)`},
		{&st.appended, `UPDATE runlog_runs SET last = ?, size = ?, alive_until = ?, ended = ?, ended_at = ? WHERE key = ?`},
		// One statement reads a page's rows and the run's end, in one
		// snapshot.
		{&st.read, `SELECT r.last, r.ended, NOT r.ended AND r.alive_until < ?, e.last, e.n, e.data
			FROM runlog_runs r LEFT JOIN runlog_rows e ON e.key = r.key AND e.last > ?
			WHERE r.key = ? AND ` + live + ` ORDER BY e.last LIMIT ?`},
	} {
		var err error
		if *p.stmt, err = db.PrepareContext(ctx, p.sql); err != nil {
			return err
		}
	}
	return nil
}

// Open opens, or creates, the run log in the database file at path. A
// file it creates has pages of 16 KiB (one it did not keeps its own): a
// run's batch is a few pages, each written to the WAL with two calls to
// the system, and again at the checkpoint (with 4 KiB pages, a run of 200
// small events cost a quarter more CPU).
func Open(ctx context.Context, path string, opts Options) (*Log, error) {
	db, err := sqlite.Open(path, sqlite.Config{Pragmas: []string{"page_size(16384)", "journal_mode(WAL)", "busy_timeout(5000)", "synchronous(NORMAL)"}, Immediate: true})
	if err != nil {
		return nil, err
	}
	if err := sqlite.Migrate(ctx, db, "runlog_schema", migrations); err != nil {
		db.Close()
		return nil, fmt.Errorf("sqlitelog: migrating %s: %w", path, err)
	}
	if opts.Retention <= 0 {
		opts.Retention = 10 * time.Minute
	}
	if opts.MaxRunBytes <= 0 {
		opts.MaxRunBytes = 16 << 20
	}
	if opts.PollInterval <= 0 {
		opts.PollInterval = 250 * time.Millisecond
	}
	if opts.Lapse <= 0 {
		opts.Lapse = 10 * time.Second
	}
	l := &Log{db: db, opts: opts, changes: sqlite.NewChanges(db), mine: map[string]struct{}{},
		stop: make(chan struct{}), done: make(chan struct{})}
	if err := l.stmts.prepare(ctx, db); err != nil {
		db.Close()
		return nil, fmt.Errorf("sqlitelog: %w", err)
	}
	// The generation: twice the last position, plus one once ended.
	l.poller = sqlite.StartPoller(db, &l.signals, opts.PollInterval, `SELECT last * 2 + ended FROM runlog_runs WHERE key = ?`)
	go l.renew()
	return l, nil
}

// Close stops renewing this process's runs (a reader then finds those not
// ended lost), stops the log's polling and closes its database; closing
// again does nothing.
func (l *Log) Close() error {
	var err error
	l.closeOnce.Do(func() {
		close(l.stop)
		<-l.done
		l.poller.Close()
		err = l.db.Close()
	})
	return err
}

// aliveUntil is the mark of a run written at now.
func (l *Log) aliveUntil(now time.Time) int64 { return now.Add(l.opts.Lapse).UnixNano() }

// renew renews the marks of the runs this process writes, every third of
// the lapse, in one transaction, until Close.
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
		until := l.aliveUntil(time.Now())
		ctx, cancel := context.WithTimeout(context.Background(), l.opts.Lapse/3)
		// A renewal that fails is tried again at the next tick; until the
		// mark lapses, nothing is lost.
		l.changes.Do(ctx, func(ctx context.Context, tx *sql.Tx) error {
			for _, k := range keys {
				if _, err := tx.ExecContext(ctx, `UPDATE runlog_runs SET alive_until = ? WHERE key = ? AND NOT ended`, until, k); err != nil {
					return err
				}
			}
			return nil
		})
		cancel()
	}
}

// Create implements runlog.Log. Once a second at most it deletes the logs
// past their retention first, and once a minute those of runs lost with
// their process longer ago than the retention, which no reader ended.
func (l *Log) Create(ctx context.Context, run runlog.Run) error {
	_, err := l.AppendBatch(ctx, run.Key, runlog.Batch{Create: &run})
	return err
}

// sweepDue reports whether a creation at now sweeps the logs past their
// retention, and the lost ones.
func (l *Log) sweepDue(now time.Time) (sweep, sweepLost bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	sweep = now.Sub(l.lastSweep) >= time.Second
	sweepLost = sweep && now.Sub(l.lastLostSweep) >= time.Minute
	if sweep {
		l.lastSweep = now
	}
	if sweepLost {
		l.lastLostSweep = now
	}
	return sweep, sweepLost
}

// sweep deletes, in tx, the logs ended before the retention, and with
// lost those of runs lost before it.
func (l *Log) sweep(ctx context.Context, tx *sql.Tx, now time.Time, lost bool) error {
	cutoff := now.Add(-l.opts.Retention).UnixNano()
	gone := `SELECT key FROM runlog_runs WHERE ended_at < ? OR (? AND NOT ended AND alive_until < ?)`
	if _, err := tx.ExecContext(ctx, `DELETE FROM runlog_rows WHERE key IN (`+gone+`)`, cutoff, lost, cutoff); err != nil {
		return err
	}
	_, err := tx.ExecContext(ctx, `DELETE FROM runlog_runs WHERE key IN (`+gone+`)`, cutoff, lost, cutoff)
	return err
}

// AppendBatch implements runlog.BatchLog: b in one transaction, which the
// changes of other runs made meanwhile share. A batch that creates a run
// sweeps as Create does.
func (l *Log) AppendBatch(ctx context.Context, key string, b runlog.Batch) (int64, error) {
	now := time.Now()
	var sweep, sweepLost bool
	if b.Create != nil {
		sweep, sweepLost = l.sweepDue(now)
	}
	var last int64
	err := l.changes.Do(ctx, func(ctx context.Context, tx *sql.Tx) error {
		var size int64
		if b.Create != nil {
			if sweep {
				if err := l.sweep(ctx, tx, now, sweepLost); err != nil {
					return err
				}
			}
			last = 0
		} else {
			var ended bool
			if err := tx.StmtContext(ctx, l.stmts.appendRun).QueryRowContext(ctx, key).Scan(&last, &size, &ended); err != nil {
				if errors.Is(err, sql.ErrNoRows) {
					return runlog.ErrNotFound
				}
				return err
			}
			if ended {
				return runlog.ErrEnded
			}
		}
		n := int64(0)
		for _, d := range b.Entries {
			n += int64(len(d))
		}
		if size+n > int64(l.opts.MaxRunBytes) {
			return fmt.Errorf("%w: it holds %d bytes, at most %d", runlog.ErrFull, size, l.opts.MaxRunBytes)
		}
		from := last
		last += int64(len(b.Entries))
		size += n
		if b.End && b.Last != nil {
			last++
			size += int64(len(b.Last))
		}
		var endedAt sql.NullInt64
		if b.End {
			endedAt = sql.NullInt64{Int64: now.UnixNano(), Valid: true}
		}
		if run := b.Create; run != nil {
			input := run.Input
			if input == nil {
				input = []byte{}
			}
			// The run's row is inserted first: a key in use adds nothing.
			res, err := tx.StmtContext(ctx, l.stmts.create).ExecContext(ctx, key, run.ThreadID, run.RunID, run.Owner, input,
				now.UnixNano(), l.aliveUntil(now), last, size, b.End, endedAt)
			if ok, err := sqlite.Changed(res, err); err != nil {
				return err
			} else if !ok {
				return runlog.ErrExists
			}
		}
		var final []byte
		if b.End {
			final = b.Last // packed with the last entries
		}
		if len(b.Entries) > 0 || final != nil {
			insert := tx.StmtContext(ctx, l.stmts.insertRow)
			bufs := packed.Pool.Get().(*packed.Buffers)
			defer bufs.Release()
			for _, r := range bufs.Split(b.Entries, final, from) {
				if _, err := insert.ExecContext(ctx, key, r.Last, r.N, r.Data); err != nil {
					return err
				}
			}
		}
		if b.Create == nil {
			_, err := tx.StmtContext(ctx, l.stmts.appended).ExecContext(ctx, last, size, l.aliveUntil(now), b.End, endedAt, key)
			return err
		}
		return nil
	})
	if err != nil {
		return 0, err
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
		l.signals.Notify(key, 0)
	} else {
		l.signals.Notify(key, last*2)
	}
	return last, nil
}

// Append implements runlog.Log. The appends of runs that come while one
// is written go together in the next transaction.
func (l *Log) Append(ctx context.Context, key string, data ...[]byte) (int64, error) {
	return l.AppendBatch(ctx, key, runlog.Batch{Entries: data})
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

// EndLost implements runlog.Liveness: the mark is read in the transaction
// that ends the run, which SQLite runs alone, so of the processes that
// find the run lost, one ends it.
func (l *Log) EndLost(ctx context.Context, key string, data []byte) (bool, error) {
	return l.end(ctx, key, data, true)
}

// Lapse implements runlog.Liveness.
func (l *Log) Lapse() time.Duration { return l.opts.Lapse }

// MarkReader implements runlog.Readers.
func (l *Log) MarkReader(ctx context.Context, key string, d time.Duration) error {
	until := time.Now().Add(d).UnixNano()
	return l.changes.Do(ctx, func(ctx context.Context, tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE runlog_runs SET read_until = max(read_until, ?) WHERE key = ? AND NOT ended`, until, key)
		return err
	})
}

// HasReader implements runlog.Readers.
func (l *Log) HasReader(ctx context.Context, key string) (bool, error) {
	var yes bool
	err := l.db.QueryRowContext(ctx, `SELECT read_until > ? FROM runlog_runs WHERE key = ?`, time.Now().UnixNano(), key).Scan(&yes)
	if errors.Is(err, sql.ErrNoRows) {
		return false, runlog.ErrNotFound
	}
	return yes, err
}

// end ends run key's log with data as its final entry, when not nil, if
// it has not ended (and, when lost, if its mark has lapsed), and reports
// whether the run has ended, by this call or before.
func (l *Log) end(ctx context.Context, key string, data []byte, lost bool) (bool, error) {
	var ended, changed bool
	err := l.changes.Do(ctx, func(ctx context.Context, tx *sql.Tx) error {
		var last, aliveUntil int64
		ended, changed = false, false
		if err := tx.StmtContext(ctx, l.stmts.endRun).QueryRowContext(ctx, key).Scan(&last, &ended, &aliveUntil); err != nil {
			if errors.Is(err, sql.ErrNoRows) {
				return runlog.ErrNotFound
			}
			return err
		}
		now := time.Now()
		if ended || lost && aliveUntil >= now.UnixNano() {
			return nil
		}
		if data != nil {
			last++
			if _, err := tx.StmtContext(ctx, l.stmts.insertRow).ExecContext(ctx, key, last, 1, data); err != nil {
				return err
			}
		}
		_, err := tx.StmtContext(ctx, l.stmts.ended).ExecContext(ctx, last, len(data), now.UnixNano(), key)
		ended, changed = err == nil, err == nil
		return err
	})
	if err != nil {
		return false, err
	}
	if changed {
		l.signals.Notify(key, 0)
	}
	return ended, nil
}

const runColumns = `key, thread_id, run_id, owner, input, last, ended, started`

func scanRun(row *sql.Row) (runlog.Run, error) {
	var r runlog.Run
	var started int64
	if err := row.Scan(&r.Key, &r.ThreadID, &r.RunID, &r.Owner, &r.Input, &r.Last, &r.Ended, &started); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return runlog.Run{}, runlog.ErrNotFound
		}
		return runlog.Run{}, err
	}
	r.Started = time.Unix(0, started)
	return r, nil
}

// live is the condition of a run still held: in progress, or ended within
// the retention.
const live = `(ended_at IS NULL OR ended_at >= ?)`

// Get implements runlog.Log.
func (l *Log) Get(ctx context.Context, key string) (runlog.Run, error) {
	return scanRun(l.db.QueryRowContext(ctx, `SELECT `+runColumns+` FROM runlog_runs WHERE key = ? AND `+live, key, l.cutoff()))
}

// Find implements runlog.Log.
func (l *Log) Find(ctx context.Context, threadID, runID string) (runlog.Run, error) {
	return scanRun(l.db.QueryRowContext(ctx, `SELECT `+runColumns+` FROM runlog_runs WHERE thread_id = ? AND run_id = ? AND `+live+
		` ORDER BY started DESC, rowid DESC LIMIT 1`, threadID, runID, l.cutoff()))
}

func (l *Log) cutoff() int64 { return time.Now().Add(-l.opts.Retention).UnixNano() }

// readRows is how many rows a Read reads at most: a page of up to
// readRows*packed.MaxRowBytes (and the odd larger entry).
const readRows = 8

// Read implements runlog.Log. The entries are read before the run's last
// position and end: a page never claims an end its entries do not reach.
// It says whether the run was lost (Page.Lapsed).
func (l *Log) Read(ctx context.Context, key string, after int64, limit int, into []runlog.Entry) (runlog.Page, error) {
	after = max(after, 0)
	rows, err := l.stmts.read.QueryContext(ctx, time.Now().UnixNano(), after, key, l.cutoff(), readRows)
	if err != nil {
		return runlog.Page{}, err
	}
	defer rows.Close()
	p := runlog.Page{Entries: into[:0]}
	found := false
	for rows.Next() {
		var last, n sql.NullInt64
		var data []byte
		if err := rows.Scan(&p.Last, &p.Ended, &p.Lapsed, &last, &n, &data); err != nil {
			return runlog.Page{}, err
		}
		found = true
		if last.Valid && limit > 0 {
			if p.Entries, err = packed.Decode(p.Entries, last.Int64, int(n.Int64), data, after, limit); err != nil {
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
