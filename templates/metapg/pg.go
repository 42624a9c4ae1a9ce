// Package metapg keeps AG-UI META events in PostgreSQL, for the META
// intake of an AG-UI handler (agui.WithMetaStore) on several replicas: one
// table, the events as JSON, each thread's ids unique, and the order they
// were stored in as the cursor.
package metapg

// This file is written against the generated package gen/agui; the
// generator copies it into the metapg package of its output with that
// import path rewritten.

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

	agui "github.com/agui-gen/agui-gen/gen/agui"
)

const schema = `CREATE TABLE IF NOT EXISTS agui_meta (
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
CREATE INDEX IF NOT EXISTS agui_meta_by_thread ON agui_meta (thread_id, seq);`

// writeLock serializes writers, so that seq grows in commit order and a
// reader paging by it never passes over an event committed late.
const writeLock = 0x61677569 // "agui"

// Store is a MetaStore in PostgreSQL.
type Store struct{ pool *pgxpool.Pool }

// Open connects to the database at dsn and creates the table if need be.
func Open(ctx context.Context, dsn string) (*Store, error) {
	pool, err := pgxpool.New(ctx, dsn)
	if err != nil {
		return nil, err
	}
	if _, err := pool.Exec(ctx, `SELECT pg_advisory_lock($1)`, writeLock); err == nil {
		_, err = pool.Exec(ctx, schema)
		pool.Exec(ctx, `SELECT pg_advisory_unlock($1)`, writeLock)
	}
	if err != nil {
		pool.Close()
		return nil, fmt.Errorf("metapg: %w", err)
	}
	return &Store{pool: pool}, nil
}

// Close closes the connections.
func (s *Store) Close() error { s.pool.Close(); return nil }

// PutMeta implements agui.MetaStore: the batch in one transaction.
func (s *Store) PutMeta(ctx context.Context, threadID, runID string, events []*agui.MetaEvent) ([]agui.StoredMeta, error) {
	out := make([]agui.StoredMeta, len(events))
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, writeLock); err != nil {
			return err
		}
		now := time.Now().UTC().Truncate(time.Millisecond)
		for i, ev := range events {
			data := ev.AppendJSON(nil)
			var seq, received int64
			var stored []byte
			var storedRun string
			err := tx.QueryRow(ctx, `SELECT seq, run_id, received, event FROM agui_meta WHERE thread_id = $1 AND id = $2`, threadID, *ev.ID).
				Scan(&seq, &storedRun, &received, &stored)
			switch {
			case err == nil:
				if !bytes.Equal(stored, data) {
					return fmt.Errorf("%w: %s", agui.ErrMetaConflict, *ev.ID)
				}
				out[i] = agui.StoredMeta{Seq: seq, ThreadID: threadID, RunID: storedRun, Received: time.UnixMilli(received).UTC(), Event: ev}
				continue
			case !errors.Is(err, pgx.ErrNoRows):
				return err
			}
			err = tx.QueryRow(ctx, `INSERT INTO agui_meta (thread_id, id, run_id, meta_type, message_id, received, event)
				VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING seq`,
				threadID, *ev.ID, runID, ev.Payload.MetaType(), ev.MessageID(), now.UnixMilli(), data).Scan(&seq)
			if err != nil {
				return err
			}
			out[i] = agui.StoredMeta{Seq: seq, ThreadID: threadID, RunID: runID, Received: now, Event: ev}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// Meta implements agui.MetaStore.
func (s *Store) Meta(ctx context.Context, q agui.MetaQuery) ([]agui.StoredMeta, error) {
	where, args := []string{"thread_id = $1", "seq > $2"}, []any{q.ThreadID, q.After}
	for _, f := range []struct{ col, v string }{{"meta_type", q.MetaType}, {"message_id", q.MessageID}, {"run_id", q.RunID}} {
		if f.v != "" {
			args = append(args, f.v)
			where = append(where, f.col+" = $"+strconv.Itoa(len(args)))
		}
	}
	limit := q.Limit
	if limit <= 0 {
		limit = agui.DefaultMetaPage
	}
	args = append(args, limit)
	rows, err := s.pool.Query(ctx, `SELECT seq, run_id, received, event FROM agui_meta WHERE `+
		strings.Join(where, " AND ")+` ORDER BY seq LIMIT $`+strconv.Itoa(len(args)), args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	return agui.ScanMeta(rows, q.ThreadID)
}
