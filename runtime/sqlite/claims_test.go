package sqlite

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/agui-gen/agui-gen/runtime/batch"
	"github.com/agui-gen/agui-gen/runtime/outbox/outboxtest"
)

// TestClaims runs the claims contract (outboxtest.RunClaims) on the
// claims kept in a table of a SQLite file.
func TestClaims(t *testing.T) {
	ctx := context.Background()
	db := open(t, filepath.Join(t.TempDir(), "claims.db"))
	if err := Migrate(ctx, db, "schema", []string{`CREATE TABLE outbox (
		task_id TEXT PRIMARY KEY, owed INTEGER NOT NULL, delivered INTEGER NOT NULL,
		holder TEXT NOT NULL DEFAULT '', held_until INTEGER NOT NULL DEFAULT 0)`}); err != nil {
		t.Fatal(err)
	}
	outboxtest.RunClaims(t, NewClaims(db, "outbox"), func(key string, owed, delivered int64) {
		if _, err := db.ExecContext(ctx, `INSERT INTO outbox (task_id, owed, delivered) VALUES (?, ?, ?)
			ON CONFLICT (task_id) DO UPDATE SET owed = excluded.owed`, key, owed, delivered); err != nil {
			t.Fatal(err)
		}
	})
}

// TestPoller: a write another process makes to a watched key wakes its
// watcher with the generation, within the poll interval.
func TestPoller(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "poll.db")
	db, other := open(t, path), open(t, path)
	if _, err := db.ExecContext(ctx, `CREATE TABLE gens (id TEXT PRIMARY KEY, generation INTEGER NOT NULL)`); err != nil {
		t.Fatal(err)
	}
	var signals batch.Signals
	p := StartPoller(db, &signals, 10*time.Millisecond, `SELECT generation FROM gens WHERE id = ?`)
	defer p.Close()
	w, stop := signals.Watch("k")
	defer stop()
	if _, err := other.ExecContext(ctx, `INSERT INTO gens (id, generation) VALUES ('k', 4)`); err != nil {
		t.Fatal(err)
	}
	select {
	case gen := <-w:
		if gen != 4 {
			t.Fatalf("woken with %d, want 4", gen)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the poll never found the write")
	}
}
