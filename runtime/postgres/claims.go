package postgres

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// Claims keeps the claims of a push outbox (runtime/outbox's Claims) in a
// table with the columns task_id (the key, its primary key), owed and
// delivered (generations), holder (text, ” for none) and held_until (Unix
// nanoseconds, 0 for none). The store's writes owe events, in the
// transactions that append them (a trigger, say). An event appended while
// a claim is released holds its row until it commits, and the release
// reads its owed then.
type Claims struct {
	pool                          *pgxpool.Pool
	mark                          func(error) error
	claim, delivered, release, ls string
}

// NewClaims returns the claims kept in table; every error the database
// returns goes through mark (a store's, which marks an unavailable
// database, say).
func NewClaims(pool *pgxpool.Pool, table string, mark func(error) error) *Claims {
	return &Claims{
		pool: pool, mark: mark,
		claim: `UPDATE ` + table + ` SET holder = $2, held_until = $3
		WHERE task_id = $1 AND delivered < owed AND (holder = $2 OR held_until < $4) RETURNING delivered`,
		delivered: `UPDATE ` + table + ` SET delivered = GREATEST(delivered, $3), held_until = $4 WHERE task_id = $1 AND holder = $2`,
		release:   `UPDATE ` + table + ` SET holder = '', held_until = 0 WHERE task_id = $1 AND holder = $2 AND delivered >= owed`,
		ls:        `SELECT task_id FROM ` + table + ` WHERE delivered < owed AND held_until < $1 ORDER BY held_until LIMIT $2`,
	}
}

// ClaimPushes implements outbox.Claims.
func (c *Claims) ClaimPushes(ctx context.Context, key, holder string, until time.Time) (int64, bool, error) {
	var delivered int64
	err := c.pool.QueryRow(ctx, c.claim, key, holder, until.UnixNano(), time.Now().UnixNano()).Scan(&delivered)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, false, nil
	}
	return delivered, err == nil, c.mark(err)
}

// PushesDelivered implements outbox.Claims.
func (c *Claims) PushesDelivered(ctx context.Context, key, holder string, gen int64, until time.Time) (bool, error) {
	tag, err := c.pool.Exec(ctx, c.delivered, key, holder, gen, until.UnixNano())
	return tag.RowsAffected() > 0, c.mark(err)
}

// ReleasePushes implements outbox.Claims.
func (c *Claims) ReleasePushes(ctx context.Context, key, holder string) (bool, error) {
	tag, err := c.pool.Exec(ctx, c.release, key, holder)
	return tag.RowsAffected() > 0, c.mark(err)
}

// OwedPushes implements outbox.Claims.
func (c *Claims) OwedPushes(ctx context.Context, t time.Time, limit int) ([]string, error) {
	rows, err := c.pool.Query(ctx, c.ls, t.UnixNano(), limit)
	if err != nil {
		return nil, c.mark(err)
	}
	keys, err := pgx.CollectRows(rows, pgx.RowTo[string])
	return keys, c.mark(err)
}
