package sqlitestore

import (
	"context"
	"database/sql"
	"errors"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/agui-gen/agui-gen/gen/a2a/a2atask"
)

// TestBatcherSharesATransaction: the writes queued while a transaction is
// being written commit together in the next one; a write that fails is
// undone alone, the others commit.
func TestBatcherSharesATransaction(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "tasks.db"))
	ctx := context.Background()
	if _, err := s.db.ExecContext(ctx, `CREATE TABLE written (n INTEGER PRIMARY KEY)`); err != nil {
		t.Fatal(err)
	}
	release := make(chan struct{})
	first := make(chan error, 1)
	go func() {
		first <- s.writes.Do(ctx, func(context.Context, *sql.Tx) error { <-release; return nil })
	}()
	waitWriting(t, s.writes, 0)

	const n, bad = 6, 2
	txs := make([]*sql.Tx, n)
	errs := make([]error, n)
	failure := errors.New("refused")
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			errs[i] = s.writes.Do(ctx, func(ctx context.Context, tx *sql.Tx) error {
				txs[i] = tx
				if _, err := tx.ExecContext(ctx, `INSERT INTO written (n) VALUES (?)`, i); err != nil {
					return err
				}
				if i == bad {
					return failure
				}
				return nil
			})
		})
	}
	waitWriting(t, s.writes, n)
	close(release)
	wg.Wait()
	if err := <-first; err != nil {
		t.Fatal(err)
	}
	for i := range n {
		switch {
		case i == bad && !errors.Is(errs[i], failure):
			t.Errorf("write %d: %v, want %v", i, errs[i], failure)
		case i != bad && errs[i] != nil:
			t.Errorf("write %d: %v", i, errs[i])
		}
		if txs[i] != txs[0] {
			t.Errorf("write %d had a transaction of its own", i)
		}
	}
	var rows string
	if err := s.db.QueryRowContext(ctx, `SELECT group_concat(n, ',') FROM (SELECT n FROM written ORDER BY n)`).Scan(&rows); err != nil {
		t.Fatal(err)
	}
	if want := "0,1,3,4,5"; rows != want {
		t.Errorf("written %s, want %s", rows, want)
	}
}

// waitWriting waits until a transaction is being written and queued
// writes wait behind it.
func waitWriting(t *testing.T, b *a2atask.Batcher[change], queued int) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
		q, w := b.Pending()
		if w == 1 && q == queued {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("batcher: %d writing with %d queued, want 1 with %d queued", w, q, queued)
		}
	}
}
