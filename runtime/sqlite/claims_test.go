package sqlite

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/agui-gen/agui-gen/runtime/batch"
)

// TestClaims: one holder at a time until its claim runs out; a delivery
// recorded only for the holder; a release only when nothing more is owed;
// the owed and unheld listed.
func TestClaims(t *testing.T) {
	ctx := context.Background()
	db := open(t, filepath.Join(t.TempDir(), "claims.db"))
	if err := Migrate(ctx, db, "schema", []string{`CREATE TABLE outbox (
		task_id TEXT PRIMARY KEY, owed INTEGER NOT NULL, delivered INTEGER NOT NULL,
		holder TEXT NOT NULL DEFAULT '', held_until INTEGER NOT NULL DEFAULT 0)`}); err != nil {
		t.Fatal(err)
	}
	owe := func(key string, owed, delivered int64) {
		if _, err := db.ExecContext(ctx, `INSERT INTO outbox (task_id, owed, delivered) VALUES (?, ?, ?)
			ON CONFLICT (task_id) DO UPDATE SET owed = excluded.owed`, key, owed, delivered); err != nil {
			t.Fatal(err)
		}
	}
	c := NewClaims(db, "outbox")
	hour := time.Now().Add(time.Hour)
	owe("done", 2, 2)
	if _, ok, err := c.ClaimPushes(ctx, "done", "a", hour); ok || err != nil {
		t.Fatalf("claimed a key that owes nothing: %v %v", ok, err)
	}
	owe("k", 3, 1)
	if d, ok, err := c.ClaimPushes(ctx, "k", "a", hour); !ok || d != 1 || err != nil {
		t.Fatalf("claim: %d %v %v", d, ok, err)
	}
	if _, ok, _ := c.ClaimPushes(ctx, "k", "b", hour); ok {
		t.Fatal("b claimed what a holds")
	}
	if ok, _ := c.PushesDelivered(ctx, "k", "b", 3, hour); ok {
		t.Fatal("b recorded a delivery")
	}
	if ids, err := c.OwedPushes(ctx, time.Now(), 10); len(ids) != 0 || err != nil {
		t.Fatalf("owed and held listed: %v %v", ids, err)
	}
	if ok, err := c.PushesDelivered(ctx, "k", "a", 2, time.Now().Add(-time.Second)); !ok || err != nil {
		t.Fatalf("a's delivery: %v %v", ok, err)
	}
	if ok, _ := c.ReleasePushes(ctx, "k", "a"); ok {
		t.Fatal("released with 3 owed")
	}
	if ids, _ := c.OwedPushes(ctx, time.Now(), 10); len(ids) != 1 || ids[0] != "k" {
		t.Fatalf("a claim run out: owed %v", ids)
	}
	if d, ok, _ := c.ClaimPushes(ctx, "k", "b", hour); !ok || d != 2 {
		t.Fatalf("b's claim after a's ran out: %d %v", d, ok)
	}
	c.PushesDelivered(ctx, "k", "b", 3, hour)
	if ok, err := c.ReleasePushes(ctx, "k", "b"); !ok || err != nil {
		t.Fatalf("release: %v %v", ok, err)
	}
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
