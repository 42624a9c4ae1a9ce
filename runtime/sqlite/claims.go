package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"time"
)

// Claims keeps the claims of a push outbox (runtime/outbox's Claims) in a
// table of db with the columns task_id (the key, its primary key), owed
// and delivered (generations), holder (text, ” for none) and held_until
// (Unix nanoseconds, 0 for none). The store's writes owe events, in the
// transactions that append them (a trigger, say).
type Claims struct {
	db                            *sql.DB
	claim, delivered, release, ls string
}

// NewClaims returns the claims kept in table of db.
func NewClaims(db *sql.DB, table string) *Claims {
	return &Claims{
		db: db,
		claim: `UPDATE ` + table + ` SET holder = ?2, held_until = ?3
		WHERE task_id = ?1 AND delivered < owed AND (holder = ?2 OR held_until < ?4) RETURNING delivered`,
		delivered: `UPDATE ` + table + ` SET delivered = MAX(delivered, ?3), held_until = ?4 WHERE task_id = ?1 AND holder = ?2`,
		release:   `UPDATE ` + table + ` SET holder = '', held_until = 0 WHERE task_id = ? AND holder = ? AND delivered >= owed`,
		ls:        `SELECT task_id FROM ` + table + ` WHERE delivered < owed AND held_until < ? ORDER BY held_until LIMIT ?`,
	}
}

// ClaimPushes implements outbox.Claims.
func (c *Claims) ClaimPushes(ctx context.Context, key, holder string, until time.Time) (int64, bool, error) {
	var delivered int64
	err := c.db.QueryRowContext(ctx, c.claim, key, holder, until.UnixNano(), time.Now().UnixNano()).Scan(&delivered)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, false, nil
	}
	return delivered, err == nil, err
}

// PushesDelivered implements outbox.Claims.
func (c *Claims) PushesDelivered(ctx context.Context, key, holder string, gen int64, until time.Time) (bool, error) {
	return Changed(c.db.ExecContext(ctx, c.delivered, key, holder, gen, until.UnixNano()))
}

// ReleasePushes implements outbox.Claims.
func (c *Claims) ReleasePushes(ctx context.Context, key, holder string) (bool, error) {
	return Changed(c.db.ExecContext(ctx, c.release, key, holder))
}

// OwedPushes implements outbox.Claims.
func (c *Claims) OwedPushes(ctx context.Context, t time.Time, limit int) ([]string, error) {
	rows, err := c.db.QueryContext(ctx, c.ls, t.UnixNano(), limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var keys []string
	for rows.Next() {
		var key string
		if err := rows.Scan(&key); err != nil {
			return nil, err
		}
		keys = append(keys, key)
	}
	return keys, rows.Err()
}
