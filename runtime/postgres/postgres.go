// Package postgres holds the plumbing of the PostgreSQL stores (the A2A
// task store and the AG-UI META store), through github.com/jackc/pgx/v5:
// bringing a schema up to date from a list of migrations, one replica at a
// time; a pipeline that sends the writes of a batch in one round trip and
// one commit; the notifications that wake the watchers of one replica when
// another writes; and which errors say that the database is unavailable.
package postgres

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"syscall"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/agui-gen/agui-gen/runtime/batch"
)

// Migrate brings the schema of the database up to date: it applies, in
// one transaction, the migrations the database has not applied yet, and
// records how many it has in table (one column, version), which it
// creates. Replicas migrate one at a time, under the advisory lock lock.
// The migrations are in order: append, never edit. A database whose
// schema is newer than the migrations is refused.
func Migrate(ctx context.Context, pool *pgxpool.Pool, lock int64, table string, migrations []string) error {
	return pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, lock); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `CREATE TABLE IF NOT EXISTS `+table+` (version integer NOT NULL)`); err != nil {
			return err
		}
		var version int
		if err := tx.QueryRow(ctx, `SELECT COALESCE(MAX(version), 0) FROM `+table).Scan(&version); err != nil {
			return err
		}
		if version > len(migrations) {
			return fmt.Errorf("the database has schema version %d, newer than this code's %d", version, len(migrations))
		}
		for i := version; i < len(migrations); i++ {
			if _, err := tx.Exec(ctx, migrations[i]); err != nil {
				return fmt.Errorf("migration %d: %w", i+1, err)
			}
		}
		if _, err := tx.Exec(ctx, `DELETE FROM `+table); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `INSERT INTO `+table+` (version) VALUES ($1)`, len(migrations))
		return err
	})
}

// A Write is one statement and what reads its row.
//
// A store's writes go through a batch.Batcher (NewWrites) that sends a
// batch as one pgx.Batch, pipelined: one round trip and, since PostgreSQL
// runs a batch as one implicit transaction, one commit and one WAL flush
// for all of its writes. Each statement sent this way must not fail at the
// server for a reason of its own (a conflict is a row not returned, not an
// error), since one failure rolls the whole batch back. If one fails all
// the same, each write of the batch is tried again on its own, so that only
// the faulty one sees its error.
type Write struct {
	SQL  string
	Args []any
	Scan func(pgx.Row) error
}

// NewWrites returns the batcher of the writes to pool, lanes batches at
// the server at once.
func NewWrites(pool *pgxpool.Pool, lanes int) *batch.Batcher[*Write] {
	return batch.NewBatcher(lanes, func(ctx context.Context, writes []*Write) []error {
		return SendBatch(ctx, pool, writes)
	})
}

// SendBatch sends writes to pool as one batch and returns each write's
// error.
func SendBatch(ctx context.Context, pool *pgxpool.Pool, writes []*Write) []error {
	errs := make([]error, len(writes))
	if len(writes) == 1 {
		w := writes[0]
		errs[0] = w.Scan(pool.QueryRow(ctx, w.SQL, w.Args...))
		return errs
	}
	var b pgx.Batch
	for _, w := range writes {
		b.Queue(w.SQL, w.Args...)
	}
	results := pool.SendBatch(ctx, &b)
	var failed bool
	for i, w := range writes {
		errs[i] = w.Scan(results.QueryRow())
		var pe *pgconn.PgError
		if errors.As(errs[i], &pe) {
			failed = true
		}
	}
	if err := results.Close(); err != nil {
		var pe *pgconn.PgError
		if errors.As(err, &pe) {
			failed = true
		} else {
			// The connection failed: whether the batch committed is not
			// known, as for any write whose answer is lost.
			for i := range errs {
				if errs[i] == nil || errors.Is(errs[i], pgx.ErrNoRows) {
					errs[i] = err
				}
			}
		}
	}
	if failed {
		// The server refused a statement and rolled the batch back: each
		// write on its own, so that only the faulty one fails.
		for i, w := range writes {
			errs[i] = w.Scan(pool.QueryRow(ctx, w.SQL, w.Args...))
		}
	}
	return errs
}

// Unavailable reports whether err says the database cannot be reached or
// is restarting (refused or lost connections, the server shutting down or
// starting up, no connection slot free), so that a store's caller may wait
// for the database instead of failing the work. A caller's cancelled
// context is the caller's doing, and is not.
func Unavailable(err error) bool {
	if err == nil || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return false
	}
	var pe *pgconn.PgError
	var ce *pgconn.ConnectError
	var ne net.Error
	switch {
	case errors.As(err, &pe):
		// Class 08 is connection exceptions; 57P01-57P03 a server shutting
		// down, crashed or starting up; 53300 too many connections.
		return strings.HasPrefix(pe.Code, "08") || pe.Code == "57P01" || pe.Code == "57P02" || pe.Code == "57P03" || pe.Code == "53300"
	case errors.As(err, &ce), errors.As(err, &ne), pgconn.SafeToRetry(err), errors.Is(err, pgconn.ErrConnClosed),
		errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.EPIPE):
		return true
	}
	return false
}
