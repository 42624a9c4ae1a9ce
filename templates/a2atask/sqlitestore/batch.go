package sqlitestore

// This file is written against the generated packages gen/a2a and
// gen/a2a/a2atask; the generator copies it into the a2atask/sqlitestore
// subpackage of its output with those import paths rewritten.

import (
	"context"
	"database/sql"
	"errors"
	"sync"
)

// A batcher commits the writes that queue up while a transaction is being
// written in the next transaction, all together: one BEGIN, one COMMIT and
// one WAL append for all of them. Alone, a write goes at once.
//
// Each write runs inside a savepoint, so one that fails is undone alone
// and the others commit.
type batcher struct {
	db *sql.DB

	mu      sync.Mutex
	queue   []*change
	writing bool
}

// A change is one write: what it does in the transaction.
type change struct {
	apply func(context.Context, *sql.Tx) error
	done  chan error
}

// maxBatch bounds a transaction, so that a burst does not hold the
// database's one connection for long.
const maxBatch = 64

// write runs apply in the next transaction and returns its error, or the
// transaction's. It waits for the transaction even when ctx ends first,
// since the write may commit all the same.
func (b *batcher) write(ctx context.Context, apply func(context.Context, *sql.Tx) error) error {
	c := &change{apply: apply, done: make(chan error, 1)}
	b.mu.Lock()
	b.queue = append(b.queue, c)
	lead := !b.writing
	b.writing = true
	b.mu.Unlock()
	if lead {
		b.commit(context.WithoutCancel(ctx))
	}
	return <-c.done
}

// commit writes what is queued, then hands on to a new goroutine what
// queued meanwhile, so that the caller, whose write is in, need not wait.
func (b *batcher) commit(ctx context.Context) {
	b.mu.Lock()
	n := min(len(b.queue), maxBatch)
	batch := b.queue[:n:n]
	b.queue = b.queue[n:]
	b.mu.Unlock()

	errs := b.run(ctx, batch)
	for i, c := range batch {
		c.done <- errs[i]
	}

	b.mu.Lock()
	more := len(b.queue) > 0
	b.writing = more
	b.mu.Unlock()
	if more {
		go b.commit(ctx)
	}
}

// run writes batch in one transaction: each change's error, or when the
// transaction fails, its error for all of them.
func (b *batcher) run(ctx context.Context, batch []*change) []error {
	errs := make([]error, len(batch))
	fail := func(err error) []error {
		for i := range errs {
			errs[i] = err
		}
		return errs
	}
	tx, err := b.db.BeginTx(ctx, nil)
	if err != nil {
		return fail(err)
	}
	defer tx.Rollback()
	if len(batch) == 1 {
		if errs[0] = batch[0].apply(ctx, tx); errs[0] != nil {
			return errs
		}
	} else {
		for i, c := range batch {
			if _, err := tx.ExecContext(ctx, `SAVEPOINT change`); err != nil {
				return fail(err)
			}
			if errs[i] = c.apply(ctx, tx); errs[i] != nil {
				if _, err := tx.ExecContext(ctx, `ROLLBACK TO change`); err != nil {
					return fail(errors.Join(errs[i], err))
				}
			}
			if _, err := tx.ExecContext(ctx, `RELEASE change`); err != nil {
				return fail(err)
			}
		}
	}
	if err := tx.Commit(); err != nil {
		return fail(err)
	}
	return errs
}
