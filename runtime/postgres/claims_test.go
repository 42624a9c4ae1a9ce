package postgres

import (
	"context"
	"testing"

	"github.com/agui-gen/agui-gen/runtime/outbox/outboxtest"
)

// TestClaims runs the claims contract (outboxtest.RunClaims) on the claims
// kept in a table of a PostgreSQL database.
func TestClaims(t *testing.T) {
	ctx := context.Background()
	db := pool(t)
	if err := Migrate(ctx, db, 1, "schema", []string{`CREATE TABLE outbox (
		task_id text PRIMARY KEY, owed bigint NOT NULL, delivered bigint NOT NULL,
		holder text NOT NULL DEFAULT '', held_until bigint NOT NULL DEFAULT 0)`}); err != nil {
		t.Fatal(err)
	}
	outboxtest.RunClaims(t, NewClaims(db, "outbox", func(err error) error { return err }), func(key string, owed, delivered int64) {
		if _, err := db.Exec(ctx, `INSERT INTO outbox (task_id, owed, delivered) VALUES ($1, $2, $3)
			ON CONFLICT (task_id) DO UPDATE SET owed = excluded.owed`, key, owed, delivered); err != nil {
			t.Fatal(err)
		}
	})
}
