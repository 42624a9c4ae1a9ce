// Package sqlitestore keeps in a SQLite file what an AG-UI handler keeps
// beyond a run: META events, each thread's owner and open interrupts, as
// JSON (see runtime/metastore). META is one table, each thread's ids
// unique, and the order events were stored in as the cursor. Writes are
// synchronous (synchronous=FULL): an event the intake acknowledged, or a
// thread's owner, survives a crash and a power loss.
package sqlitestore

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/agui-gen/agui-gen/runtime/metastore"
	"github.com/agui-gen/agui-gen/runtime/sqlite"
)

// migrations create and evolve the schema, in order; the database records
// how many it has applied. Append, never edit. The first creates the
// table only if it is missing, as stores before the record made it.
var migrations = []string{
	`CREATE TABLE IF NOT EXISTS agui_meta (
		seq        INTEGER PRIMARY KEY AUTOINCREMENT,
		thread_id  TEXT NOT NULL,
		id         TEXT NOT NULL,
		run_id     TEXT NOT NULL,
		meta_type  TEXT NOT NULL,
		message_id TEXT NOT NULL,
		received   INTEGER NOT NULL, -- Unix milliseconds
		event      BLOB NOT NULL,    -- the META event's JSON
		UNIQUE (thread_id, id)
	);
	CREATE INDEX IF NOT EXISTS agui_meta_by_thread ON agui_meta (thread_id, seq);`,
	`CREATE TABLE agui_threads (
		thread_id  TEXT PRIMARY KEY,
		owner      TEXT, -- NULL until a caller claims the thread
		interrupts BLOB  -- the open interrupts as a JSON array; NULL when none
	);`,
}

// Store is a metastore.Backend in a SQLite file.
type Store struct{ db *sql.DB }

var _ metastore.Backend = (*Store)(nil)

// Open opens (creating if need be) the store in the file at path, and
// brings its schema up to date. Several processes may open one file.
func Open(ctx context.Context, path string) (*Store, error) {
	// A transaction takes the write lock when it begins: one that read
	// first and then wrote could not wait for another process's writer.
	db, err := sqlite.Open(path, sqlite.Config{Pragmas: []string{"journal_mode(WAL)", "busy_timeout(10000)", "synchronous(FULL)"}, Immediate: true})
	if err != nil {
		return nil, err
	}
	if err := sqlite.Migrate(ctx, db, "agui_meta_schema", migrations); err != nil {
		db.Close()
		return nil, fmt.Errorf("metasqlite: %s: %w", path, err)
	}
	return &Store{db: db}, nil
}

// Close closes the file.
func (s *Store) Close() error { return s.db.Close() }

// PutMeta implements metastore.Backend: the batch in one transaction.
func (s *Store) PutMeta(ctx context.Context, threadID, runID string, events []metastore.Put) ([]metastore.Row, error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	// Prepared once for the batch: most of a statement's cost in SQLite
	// is compiling it.
	find, err := tx.PrepareContext(ctx, `SELECT seq, run_id, received, event FROM agui_meta WHERE thread_id = ? AND id = ?`)
	if err != nil {
		return nil, err
	}
	defer find.Close()
	insert, err := tx.PrepareContext(ctx, `INSERT INTO agui_meta (thread_id, id, run_id, meta_type, message_id, received, event)
		VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING seq`)
	if err != nil {
		return nil, err
	}
	defer insert.Close()
	out := make([]metastore.Row, len(events))
	now := time.Now().UTC().Truncate(time.Millisecond)
	for i, ev := range events {
		data := ev.Event
		var seq, received int64
		var stored []byte
		var storedRun string
		err := find.QueryRowContext(ctx, threadID, ev.ID).Scan(&seq, &storedRun, &received, &stored)
		switch {
		case err == nil:
			if !bytes.Equal(stored, data) {
				return nil, fmt.Errorf("%w: %s", metastore.ErrConflict, ev.ID)
			}
			out[i] = metastore.Row{Seq: seq, RunID: storedRun, Received: time.UnixMilli(received).UTC()}
			continue
		case !errors.Is(err, sql.ErrNoRows):
			return nil, err
		}
		err = insert.QueryRowContext(ctx, threadID, ev.ID, runID, ev.MetaType, ev.MessageID, now.UnixMilli(), data).Scan(&seq)
		if err != nil {
			return nil, err
		}
		out[i] = metastore.Row{Seq: seq, RunID: runID, Received: now}
	}
	if err := tx.Commit(); err != nil {
		return nil, err
	}
	return out, nil
}

// Meta implements metastore.Backend.
func (s *Store) Meta(ctx context.Context, q metastore.Query) ([]metastore.Row, error) {
	where, args := []string{"thread_id = ?", "seq > ?"}, []any{q.ThreadID, q.After}
	for _, f := range []struct{ col, v string }{{"meta_type", q.MetaType}, {"message_id", q.MessageID}, {"run_id", q.RunID}} {
		if f.v != "" {
			where, args = append(where, f.col+" = ?"), append(args, f.v)
		}
	}
	rows, err := s.db.QueryContext(ctx, `SELECT seq, run_id, received, event FROM agui_meta WHERE `+
		strings.Join(where, " AND ")+` ORDER BY seq LIMIT ?`, append(args, q.Limit)...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	return scanRows(rows)
}

// ClaimThread implements metastore.Backend.
func (s *Store) ClaimThread(ctx context.Context, threadID, caller string) (string, error) {
	// Most claims are of a thread its owner runs on again: read first, so
	// those write nothing.
	owner, ok, err := s.ThreadOwner(ctx, threadID)
	if err != nil || ok {
		return owner, err
	}
	err = s.db.QueryRowContext(ctx, `INSERT INTO agui_threads (thread_id, owner) VALUES (?, ?)
		ON CONFLICT (thread_id) DO UPDATE SET owner = COALESCE(agui_threads.owner, excluded.owner)
		RETURNING owner`, threadID, caller).Scan(&owner)
	return owner, err
}

// ThreadOwner implements metastore.Backend.
func (s *Store) ThreadOwner(ctx context.Context, threadID string) (string, bool, error) {
	var owner sql.NullString
	err := s.db.QueryRowContext(ctx, `SELECT owner FROM agui_threads WHERE thread_id = ?`, threadID).Scan(&owner)
	if errors.Is(err, sql.ErrNoRows) {
		return "", false, nil
	}
	return owner.String, owner.Valid, err
}

// Interrupts implements metastore.Backend.
func (s *Store) Interrupts(ctx context.Context, threadID string) ([]byte, error) {
	var data []byte
	err := s.db.QueryRowContext(ctx, `SELECT interrupts FROM agui_threads WHERE thread_id = ?`, threadID).Scan(&data)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return data, nil
}

// SetInterrupts implements metastore.Backend.
func (s *Store) SetInterrupts(ctx context.Context, threadID string, data []byte) error {
	_, err := s.db.ExecContext(ctx, `INSERT INTO agui_threads (thread_id, interrupts) VALUES (?, ?)
		ON CONFLICT (thread_id) DO UPDATE SET interrupts = excluded.interrupts`, threadID, data)
	return err
}

// scanRows reads rows of (seq, run id, received in Unix milliseconds, the
// event's JSON).
func scanRows(rows *sql.Rows) ([]metastore.Row, error) {
	var out []metastore.Row
	for rows.Next() {
		var r metastore.Row
		var received int64
		if err := rows.Scan(&r.Seq, &r.RunID, &received, &r.Event); err != nil {
			return nil, err
		}
		r.Received = time.UnixMilli(received).UTC()
		out = append(out, r)
	}
	return out, rows.Err()
}
