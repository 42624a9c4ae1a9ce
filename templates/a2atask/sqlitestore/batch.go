package sqlitestore

// This file is written against the generated packages gen/a2a and
// gen/a2a/a2atask; the generator copies it into the a2atask/sqlitestore
// subpackage of its output with those import paths rewritten.

import (
	"context"
	"database/sql"
	"errors"

	"github.com/agui-gen/agui-gen/gen/a2a/a2atask"
)

// A change is one write: what it does in the transaction.
//
// The store's changes go through an a2atask.Batcher (newChanges) that
// commits the changes of a batch in one transaction: one BEGIN, one COMMIT
// and one WAL append for all of them. Each runs inside a savepoint, so one
// that fails is undone alone and the others commit.
type change func(context.Context, *sql.Tx) error

// newChanges returns the batcher of the changes to db, one transaction at
// a time: SQLite has one writer.
func newChanges(db *sql.DB) *a2atask.Batcher[change] {
	return a2atask.NewBatcher(1, func(ctx context.Context, batch []change) []error { return commit(ctx, db, batch) })
}

// commit writes batch in one transaction: each change's error, or when the
// transaction fails, its error for all of them.
func commit(ctx context.Context, db *sql.DB, batch []change) []error {
	errs := make([]error, len(batch))
	fail := func(err error) []error {
		for i := range errs {
			errs[i] = err
		}
		return errs
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return fail(err)
	}
	defer tx.Rollback()
	if len(batch) == 1 {
		if errs[0] = batch[0](ctx, tx); errs[0] != nil {
			return errs
		}
	} else {
		for i, apply := range batch {
			if _, err := tx.ExecContext(ctx, `SAVEPOINT change`); err != nil {
				return fail(err)
			}
			if errs[i] = apply(ctx, tx); errs[i] != nil {
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
