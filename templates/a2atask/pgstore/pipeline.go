package pgstore

// This file is written against the generated packages gen/a2a and
// gen/a2a/a2atask; the generator copies it into the a2atask/pgstore
// subpackage of its output with those import paths rewritten.

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/agui-gen/agui-gen/gen/a2a/a2atask"
)

// A write is one statement and what reads its row.
//
// The store's writes go through an a2atask.Batcher (newWrites) that sends a
// batch as one pgx.Batch, pipelined: one round trip and, since PostgreSQL
// runs a batch as one implicit transaction, one commit and one WAL flush
// for all of its writes. Each statement sent this way must not fail at the
// server for a reason of its own (a conflict is a row not returned, not an
// error), since one failure rolls the whole batch back. If one fails all
// the same, each write of the batch is tried again on its own, so that only
// the faulty one sees its error.
type write struct {
	sql  string
	args []any
	scan func(pgx.Row) error
}

// newWrites returns the batcher of the writes to pool, lanes batches at the
// server at once.
func newWrites(pool *pgxpool.Pool, lanes int) *a2atask.Batcher[*write] {
	return a2atask.NewBatcher(lanes, func(ctx context.Context, batch []*write) []error {
		return sendBatch(ctx, pool, batch)
	})
}

// queryRow runs sql with args in the next batch of writes and scans its one
// row with scan.
func (s *Store) queryRow(ctx context.Context, scan func(pgx.Row) error, sql string, args ...any) error {
	return s.writes.Do(ctx, &write{sql: sql, args: args, scan: scan})
}

// sendBatch sends batch to pool and returns each write's error.
func sendBatch(ctx context.Context, pool *pgxpool.Pool, batch []*write) []error {
	errs := make([]error, len(batch))
	if len(batch) == 1 {
		w := batch[0]
		errs[0] = w.scan(pool.QueryRow(ctx, w.sql, w.args...))
		return errs
	}
	var b pgx.Batch
	for _, w := range batch {
		b.Queue(w.sql, w.args...)
	}
	results := pool.SendBatch(ctx, &b)
	var failed bool
	for i, w := range batch {
		errs[i] = w.scan(results.QueryRow())
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
		for i, w := range batch {
			errs[i] = w.scan(pool.QueryRow(ctx, w.sql, w.args...))
		}
	}
	return errs
}
