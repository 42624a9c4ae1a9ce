package postgres

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/agui-gen/agui-gen/runtime/batch"
)

// TestMigrate: replicas migrating at once apply each migration once; a
// migration that fails leaves the schema as it was, and a schema newer
// than the code's is refused.
func TestMigrate(t *testing.T) {
	db := pool(t)
	ctx := context.Background()
	migrations := []string{`CREATE TABLE a (n integer)`, `INSERT INTO a (n) VALUES (1)`}
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i := range errs {
		wg.Go(func() { errs[i] = Migrate(ctx, db, 0x7465737473, "m_schema", migrations) })
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	count := func() (n int) {
		if err := db.QueryRow(ctx, `SELECT count(*) FROM a`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	if n := count(); n != 1 {
		t.Fatalf("%d rows: a migration ran %d times", n, n)
	}
	migrations = append(migrations, `INSERT INTO a (n) VALUES (2)`, `INSERT INTO nowhere (n) VALUES (3)`)
	if err := Migrate(ctx, db, 1, "m_schema", migrations); err == nil {
		t.Fatal("a failing migration passed")
	}
	if n := count(); n != 1 {
		t.Fatalf("%d rows after a failed migration", n)
	}
	if err := Migrate(ctx, db, 1, "m_schema", migrations[:3]); err != nil {
		t.Fatal(err)
	}
	if err := Migrate(ctx, db, 1, "m_schema", migrations[:2]); err == nil || !strings.Contains(err.Error(), "newer") {
		t.Fatalf("a database with a newer schema: %v", err)
	}
}

// TestUnavailable: a server that cannot be reached, or that says it is
// shutting down, is unavailable; a statement's own error, a cancelled
// caller and no error are not.
func TestUnavailable(t *testing.T) {
	ctx := context.Background()
	closed, err := pgxpool.New(ctx, "postgres://a2a:a2a@127.0.0.1:1/postgres?sslmode=disable&connect_timeout=2")
	if err != nil {
		t.Fatal(err)
	}
	defer closed.Close()
	_, refused := closed.Exec(ctx, `SELECT 1`)
	_, divided := pool(t).Exec(ctx, `SELECT 1 / 0`)
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	_, gone := closed.Exec(cancelled, `SELECT 1`)
	for _, c := range []struct {
		err  error
		want bool
	}{
		{refused, true},
		{&pgconn.PgError{Code: "57P01"}, true},
		{&pgconn.PgError{Code: "08006"}, true},
		{divided, false},
		{gone, false},
		{nil, false},
	} {
		if got := Unavailable(c.err); got != c.want {
			t.Errorf("Unavailable(%v) = %v, want %v", c.err, got, c.want)
		}
	}
}

// TestNotifier: a write on one replica wakes its own watcher at once and
// a watcher on another through NOTIFY, with the generation written, well
// before the poll would; a key written without a notification is found by
// the poll.
func TestNotifier(t *testing.T) {
	db := pool(t)
	ctx := context.Background()
	if _, err := db.Exec(ctx, `CREATE TABLE gens (id text PRIMARY KEY, generation bigint NOT NULL)`); err != nil {
		t.Fatal(err)
	}
	start := func(poll time.Duration) (*batch.Signals, *Notifier) {
		var s batch.Signals
		n := StartNotifier(db, &s, NotifierConfig{Channel: "test_notes", Gather: time.Millisecond, Poll: poll,
			Generations: `SELECT id, generation FROM gens WHERE id = ANY($1)`})
		t.Cleanup(n.Close)
		return &s, n
	}
	sa, a := start(time.Hour)
	sb, _ := start(time.Hour)
	wa, stopA := sa.Watch("k")
	defer stopA()
	wb, stopB := sb.Watch("k")
	defer stopB()
	time.Sleep(200 * time.Millisecond) // the listeners are listening
	a.Wrote("k", 7)
	for name, w := range map[string]<-chan int64{"writer": wa, "other": wb} {
		select {
		case gen := <-w:
			if gen != 7 {
				t.Errorf("%s's watcher woken with %d, want 7", name, gen)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s's watcher never woken", name)
		}
	}
	select {
	case gen := <-wa:
		t.Errorf("the writer's watcher woken again, with %d", gen)
	case <-time.After(200 * time.Millisecond):
	}

	sc, _ := start(50 * time.Millisecond)
	wc, stopC := sc.Watch("p")
	defer stopC()
	if _, err := db.Exec(ctx, `INSERT INTO gens (id, generation) VALUES ('p', 3)`); err != nil {
		t.Fatal(err)
	}
	select {
	case gen := <-wc:
		if gen != 3 {
			t.Errorf("polled %d, want 3", gen)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the poll never found the write")
	}
}
