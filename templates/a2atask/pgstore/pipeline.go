package pgstore

// This file is written against the generated packages gen/a2a and
// gen/a2a/a2atask; the generator copies it into the a2atask/pgstore
// subpackage of its output with those import paths rewritten.

import (
	"context"
	"errors"
	"sync"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// A pipeline sends the writes that queue up while earlier ones are at the
// server as one batch: one round trip and, since PostgreSQL runs a batch
// as one implicit transaction, one commit and one WAL flush for all of
// them. Under load, the writes of many tasks share a commit; alone, a
// write goes at once and waits for nothing.
//
// Each statement sent this way must not fail at the server for a reason
// of its own (a conflict is a row not returned, not an error), since one
// failure rolls the whole batch back. If one fails all the same, each
// write of the batch is tried again on its own, so that only the faulty
// one sees its error.
type pipeline struct {
	pool *pgxpool.Pool
	// lanes is how many batches may be at the server at once.
	lanes int

	mu      sync.Mutex
	queue   []*write
	sending int
}

// A write is one statement and what reads its row.
type write struct {
	sql  string
	args []any
	scan func(pgx.Row) error
	done chan error
}

// maxBatch bounds a batch, so that a burst does not make one transaction
// of thousands of writes.
const maxBatch = 64

func newPipeline(pool *pgxpool.Pool, lanes int) *pipeline {
	return &pipeline{pool: pool, lanes: max(lanes, 1)}
}

// queryRow runs sql with args in the next batch and scans its one row with
// scan. It waits for the batch even when ctx ends first, since the write
// may commit all the same; ctx bounds the batch it sends itself.
func (p *pipeline) queryRow(ctx context.Context, scan func(pgx.Row) error, sql string, args ...any) error {
	w := &write{sql: sql, args: args, scan: scan, done: make(chan error, 1)}
	p.mu.Lock()
	p.queue = append(p.queue, w)
	lead := p.sending < p.lanes
	if lead {
		p.sending++
	}
	p.mu.Unlock()
	if lead {
		p.send(context.WithoutCancel(ctx))
	}
	return <-w.done
}

// send sends what is queued, and again while more is queued and no other
// lane is free to; the caller holds a lane, which send gives back. The
// writes that queued during a batch go out in the next one, from a new
// goroutine, so that the caller, whose write was in this batch, need not
// wait for the next.
func (p *pipeline) send(ctx context.Context) {
	p.mu.Lock()
	n := min(len(p.queue), maxBatch)
	batch := p.queue[:n:n]
	p.queue = p.queue[n:]
	p.mu.Unlock()

	p.run(ctx, batch)

	p.mu.Lock()
	if len(p.queue) == 0 {
		p.sending--
		p.mu.Unlock()
		return
	}
	p.mu.Unlock()
	go p.send(ctx)
}

// run sends batch and hands each write its result.
func (p *pipeline) run(ctx context.Context, batch []*write) {
	if len(batch) == 1 {
		w := batch[0]
		w.done <- w.scan(p.pool.QueryRow(ctx, w.sql, w.args...))
		return
	}
	var b pgx.Batch
	for _, w := range batch {
		b.Queue(w.sql, w.args...)
	}
	results := p.pool.SendBatch(ctx, &b)
	errs := make([]error, len(batch))
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
		for _, w := range batch {
			w.done <- w.scan(p.pool.QueryRow(ctx, w.sql, w.args...))
		}
		return
	}
	for i, w := range batch {
		w.done <- errs[i]
	}
}
