package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/agui-gen/agui-gen/runtime/batch"
)

func open(t *testing.T, path string) *sql.DB {
	t.Helper()
	db, err := Open(path, Config{Pragmas: []string{"journal_mode(WAL)", "busy_timeout(10000)"}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// TestMigrate: the migrations not applied yet are applied, once, and a
// schema newer than the code's is refused; a migration that fails leaves
// the schema as it was.
func TestMigrate(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "m.db")
	db := open(t, path)
	migrations := []string{`CREATE TABLE a (n INTEGER)`, `INSERT INTO a (n) VALUES (1)`}
	for range 2 {
		if err := Migrate(ctx, db, "m_schema", migrations); err != nil {
			t.Fatal(err)
		}
	}
	count := func() (n int) {
		if err := db.QueryRowContext(ctx, `SELECT COUNT(*) FROM a`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	if n := count(); n != 1 {
		t.Fatalf("%d rows: a migration ran %d times", n, n)
	}
	migrations = append(migrations, `INSERT INTO a (n) VALUES (2)`, `INSERT INTO nowhere (n) VALUES (3)`)
	if err := Migrate(ctx, db, "m_schema", migrations); err == nil {
		t.Fatal("a failing migration passed")
	}
	if n := count(); n != 1 {
		t.Fatalf("%d rows after a failed migration", n)
	}
	if err := Migrate(ctx, db, "m_schema", migrations[:3]); err != nil {
		t.Fatal(err)
	}
	var version int
	if err := db.QueryRowContext(ctx, `SELECT version FROM m_schema`).Scan(&version); err != nil || version != 3 {
		t.Fatalf("version %d, %v", version, err)
	}
	if err := Migrate(ctx, db, "m_schema", migrations[:2]); err == nil {
		t.Fatal("a database with a newer schema was taken")
	}
}

// TestChangesShareATransaction: the changes queued while a transaction is
// being written commit together in the next one; a change that fails is
// undone alone, the others commit.
func TestChangesShareATransaction(t *testing.T) {
	db := open(t, filepath.Join(t.TempDir(), "tasks.db"))
	writes := NewChanges(db)
	ctx := context.Background()
	if _, err := db.ExecContext(ctx, `CREATE TABLE written (n INTEGER PRIMARY KEY)`); err != nil {
		t.Fatal(err)
	}
	release := make(chan struct{})
	first := make(chan error, 1)
	go func() {
		first <- writes.Do(ctx, func(context.Context, *sql.Tx) error { <-release; return nil })
	}()
	waitWriting(t, writes, 0)

	const n, bad = 6, 2
	txs := make([]*sql.Tx, n)
	errs := make([]error, n)
	failure := errors.New("refused")
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			errs[i] = writes.Do(ctx, func(ctx context.Context, tx *sql.Tx) error {
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
	waitWriting(t, writes, n)
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
	if err := db.QueryRowContext(ctx, `SELECT group_concat(n, ',') FROM (SELECT n FROM written ORDER BY n)`).Scan(&rows); err != nil {
		t.Fatal(err)
	}
	if want := "0,1,3,4,5"; rows != want {
		t.Errorf("written %s, want %s", rows, want)
	}
	if ok, err := Changed(db.ExecContext(ctx, `DELETE FROM written WHERE n = 1`)); !ok || err != nil {
		t.Errorf("a delete of a row: %v %v", ok, err)
	}
	if ok, err := Changed(db.ExecContext(ctx, `DELETE FROM written WHERE n = 1`)); ok || err != nil {
		t.Errorf("a delete of no row: %v %v", ok, err)
	}
}

// waitWriting waits until a transaction is being written and queued
// writes wait behind it.
func waitWriting(t *testing.T, b *batch.Batcher[Change], queued int) {
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
