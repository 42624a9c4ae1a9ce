// Package pgstore keeps in PostgreSQL what an AG-UI handler keeps beyond
// a run, shared by its replicas: META events, each thread's owner and open
// interrupts, as JSON (see runtime/metastore). META is one table, each
// thread's ids unique, and the order events were stored in as the cursor.
package pgstore

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/agui-gen/agui-gen/runtime/metastore"
	"github.com/agui-gen/agui-gen/runtime/postgres"
)

// migrations create and evolve the schema, in order; the database records
// how many it has applied. Append, never edit. The first creates the
// table only if it is missing, as stores before the record made it.
var migrations = []string{
	`CREATE TABLE IF NOT EXISTS agui_meta (
		seq        BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
		thread_id  TEXT NOT NULL,
		id         TEXT NOT NULL,
		run_id     TEXT NOT NULL,
		meta_type  TEXT NOT NULL,
		message_id TEXT NOT NULL,
		received   BIGINT NOT NULL, -- Unix milliseconds
		event      BYTEA NOT NULL,  -- the META event's JSON, as sent
		UNIQUE (thread_id, id)
	);
	CREATE INDEX IF NOT EXISTS agui_meta_by_thread ON agui_meta (thread_id, seq);`,
	`CREATE TABLE agui_threads (
		thread_id  TEXT PRIMARY KEY,
		owner      TEXT, -- NULL until a caller claims the thread
		interrupts BYTEA -- the open interrupts as a JSON array; NULL when none
	);`,
}

// writeLock serializes writers, so that seq grows in commit order and a
// reader paging by it never passes over an event committed late.
const writeLock = 0x61677569 // "agui"

// migrationLock is the advisory lock replicas take to migrate one at a
// time.
const migrationLock = 0x616775695f6d6967 // "agui_mig"

// Store is a metastore.Backend in PostgreSQL.
type Store struct{ pool *pgxpool.Pool }

var _ metastore.Backend = (*Store)(nil)

// Open connects to the database at dsn (a postgres:// URL or key=value
// string) and brings its schema up to date.
func Open(ctx context.Context, dsn string) (*Store, error) {
	pool, err := pgxpool.New(ctx, dsn)
	if err != nil {
		return nil, fmt.Errorf("metapg: %w", err)
	}
	if err := postgres.Migrate(ctx, pool, migrationLock, "agui_meta_schema", migrations); err != nil {
		pool.Close()
		return nil, fmt.Errorf("metapg: %w", err)
	}
	return &Store{pool: pool}, nil
}

// Close closes the connections.
func (s *Store) Close() error { s.pool.Close(); return nil }

// PutMeta implements metastore.Backend: the batch in one transaction, read
// and written in one statement each, whatever its size.
func (s *Store) PutMeta(ctx context.Context, threadID, runID string, events []metastore.Put) ([]metastore.Row, error) {
	out := make([]metastore.Row, len(events))
	data := make([][]byte, len(events))
	ids := make([]string, len(events))
	for i, ev := range events {
		data[i], ids[i] = ev.Event, ev.ID
	}
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, writeLock); err != nil {
			return err
		}
		rows, err := tx.Query(ctx, `SELECT id, seq, run_id, received, event FROM agui_meta WHERE thread_id = $1 AND id = ANY($2)`, threadID, ids)
		if err != nil {
			return err
		}
		type row struct {
			seq, received int64
			run           string
			event         []byte
		}
		stored := map[string]row{}
		for rows.Next() {
			var id string
			var r row
			if err := rows.Scan(&id, &r.seq, &r.run, &r.received, &r.event); err != nil {
				rows.Close()
				return err
			}
			stored[id] = r
		}
		if rows.Close(); rows.Err() != nil {
			return rows.Err()
		}
		// The events to insert, each id once; a repeat in the batch takes
		// the place of its first.
		var newIDs, types, messages []string
		var newData [][]byte
		first := map[string]int{}
		for i, ev := range events {
			if r, ok := stored[ids[i]]; ok {
				if !bytes.Equal(r.event, data[i]) {
					return fmt.Errorf("%w: %s", metastore.ErrConflict, ids[i])
				}
				out[i] = metastore.Row{Seq: r.seq, RunID: r.run, Received: time.UnixMilli(r.received).UTC()}
				continue
			}
			if j, ok := first[ids[i]]; ok {
				if !bytes.Equal(data[j], data[i]) {
					return fmt.Errorf("%w: %s", metastore.ErrConflict, ids[i])
				}
				continue
			}
			first[ids[i]] = i
			newIDs, types, messages = append(newIDs, ids[i]), append(types, ev.MetaType), append(messages, ev.MessageID)
			newData = append(newData, data[i])
		}
		if len(newIDs) == 0 {
			return nil
		}
		now := time.Now().UTC().Truncate(time.Millisecond)
		// Rows are inserted, and numbered, in the order of the batch.
		rows, err = tx.Query(ctx, `INSERT INTO agui_meta (thread_id, id, run_id, meta_type, message_id, received, event)
			SELECT $1, id, $2, meta_type, message_id, $3, event
			FROM unnest($4::text[], $5::text[], $6::text[], $7::bytea[]) WITH ORDINALITY AS u(id, meta_type, message_id, event, n)
			ORDER BY n RETURNING id, seq`, threadID, runID, now.UnixMilli(), newIDs, types, messages, newData)
		if err != nil {
			return err
		}
		seqs := make(map[string]int64, len(newIDs))
		for rows.Next() {
			var id string
			var seq int64
			if err := rows.Scan(&id, &seq); err != nil {
				rows.Close()
				return err
			}
			seqs[id] = seq
		}
		if rows.Close(); rows.Err() != nil {
			return rows.Err()
		}
		for i := range events {
			if seq, ok := seqs[ids[i]]; ok {
				out[i] = metastore.Row{Seq: seq, RunID: runID, Received: now}
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// Meta implements metastore.Backend.
func (s *Store) Meta(ctx context.Context, q metastore.Query) ([]metastore.Row, error) {
	where, args := []string{"thread_id = $1", "seq > $2"}, []any{q.ThreadID, q.After}
	for _, f := range []struct{ col, v string }{{"meta_type", q.MetaType}, {"message_id", q.MessageID}, {"run_id", q.RunID}} {
		if f.v != "" {
			args = append(args, f.v)
			where = append(where, f.col+" = $"+strconv.Itoa(len(args)))
		}
	}
	args = append(args, q.Limit)
	rows, err := s.pool.Query(ctx, `SELECT seq, run_id, received, event FROM agui_meta WHERE `+
		strings.Join(where, " AND ")+` ORDER BY seq LIMIT $`+strconv.Itoa(len(args)), args...)
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
	// Of concurrent claims, one inserts; the others wait for it and keep
	// its owner, which the update returns.
	err = s.pool.QueryRow(ctx, `INSERT INTO agui_threads (thread_id, owner) VALUES ($1, $2)
		ON CONFLICT (thread_id) DO UPDATE SET owner = COALESCE(agui_threads.owner, excluded.owner)
		RETURNING owner`, threadID, caller).Scan(&owner)
	return owner, err
}

// ThreadOwner implements metastore.Backend.
func (s *Store) ThreadOwner(ctx context.Context, threadID string) (string, bool, error) {
	var owner *string
	err := s.pool.QueryRow(ctx, `SELECT owner FROM agui_threads WHERE thread_id = $1`, threadID).Scan(&owner)
	if errors.Is(err, pgx.ErrNoRows) || (err == nil && owner == nil) {
		return "", false, nil
	}
	if err != nil {
		return "", false, err
	}
	return *owner, true, nil
}

// Interrupts implements metastore.Backend.
func (s *Store) Interrupts(ctx context.Context, threadID string) ([]byte, error) {
	var data []byte
	err := s.pool.QueryRow(ctx, `SELECT interrupts FROM agui_threads WHERE thread_id = $1`, threadID).Scan(&data)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return data, nil
}

// SetInterrupts implements metastore.Backend.
func (s *Store) SetInterrupts(ctx context.Context, threadID string, data []byte) error {
	_, err := s.pool.Exec(ctx, `INSERT INTO agui_threads (thread_id, interrupts) VALUES ($1, $2)
		ON CONFLICT (thread_id) DO UPDATE SET interrupts = excluded.interrupts`, threadID, data)
	return err
}

// scanRows reads rows of (seq, run id, received in Unix milliseconds, the
// event's JSON).
func scanRows(rows pgx.Rows) ([]metastore.Row, error) {
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
