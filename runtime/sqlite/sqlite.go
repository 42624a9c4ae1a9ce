// Package sqlite holds the plumbing of the SQLite stores (the A2A task
// store and the AG-UI META store), through the pure-Go driver
// modernc.org/sqlite: opening a database file, bringing its schema up to
// date from a list of migrations, and committing the writes of a batch in
// one transaction.
package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"

	_ "modernc.org/sqlite" // the "sqlite" driver

	"github.com/agui-gen/agui-gen/runtime/batch"
)

// Config says how Open opens a database.
type Config struct {
	// Pragmas are run on every connection, as the driver's _pragma
	// parameters: "journal_mode(WAL)", "synchronous(FULL)"…
	Pragmas []string
	// Immediate has a transaction take the write lock when it begins: one
	// that read first and then wrote could not wait for another process's
	// writer (SQLite answers SQLITE_BUSY at once).
	Immediate bool
}

// Open opens, or creates, the database at path with c's settings, on one
// connection: SQLite has one writer at a time, and a pool of them would
// spin on the lock where one connection queues in Go.
func Open(path string, c Config) (*sql.DB, error) {
	q := url.Values{}
	for _, p := range c.Pragmas {
		q.Add("_pragma", p)
	}
	if c.Immediate {
		q.Set("_txlock", "immediate")
	}
	db, err := sql.Open("sqlite", "file:"+path+"?"+q.Encode())
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1)
	return db, nil
}

// Migrate brings the schema of db up to date: it applies, in one
// transaction, the migrations the database has not applied yet, and
// records how many it has in table (one column, version), which it
// creates. The migrations are in order: append, never edit. A database
// whose schema is newer than the migrations is refused.
func Migrate(ctx context.Context, db *sql.DB, table string, migrations []string) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS `+table+` (version INTEGER NOT NULL)`); err != nil {
		return err
	}
	var version int
	if err := tx.QueryRowContext(ctx, `SELECT COALESCE(MAX(version), 0) FROM `+table).Scan(&version); err != nil {
		return err
	}
	if version > len(migrations) {
		return fmt.Errorf("the database has schema version %d, newer than this code's %d", version, len(migrations))
	}
	for i := version; i < len(migrations); i++ {
		if _, err := tx.ExecContext(ctx, migrations[i]); err != nil {
			return fmt.Errorf("migration %d: %w", i+1, err)
		}
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM `+table+`; INSERT INTO `+table+` (version) VALUES (?)`, len(migrations)); err != nil {
		return err
	}
	return tx.Commit()
}

// A Change is one write: what it does in the transaction.
//
// The changes of a store go through a batch.Batcher (NewChanges) that
// commits the changes of a batch in one transaction: one BEGIN, one COMMIT
// and one WAL append for all of them. Each runs inside a savepoint, so one
// that fails is undone alone and the others commit.
type Change func(context.Context, *sql.Tx) error

// NewChanges returns the batcher of the changes to db, one transaction at
// a time: SQLite has one writer.
func NewChanges(db *sql.DB) *batch.Batcher[Change] {
	return batch.NewBatcher(1, func(ctx context.Context, changes []Change) []error { return Commit(ctx, db, changes) })
}

// Commit writes changes in one transaction: each change's error, or when
// the transaction fails, its error for all of them.
func Commit(ctx context.Context, db *sql.DB, changes []Change) []error {
	errs := make([]error, len(changes))
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
	if len(changes) == 1 {
		if errs[0] = changes[0](ctx, tx); errs[0] != nil {
			return errs
		}
	} else {
		for i, apply := range changes {
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

// Changed reports whether a statement changed a row.
func Changed(res sql.Result, err error) (bool, error) {
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n > 0, err
}
