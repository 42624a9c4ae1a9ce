package sqlitelog

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/agui-gen/agui-gen/runtime/runlog"
	"github.com/agui-gen/agui-gen/runtime/runlog/runlogtest"
	"github.com/agui-gen/agui-gen/runtime/sqlite"
)

// TestContract: the SQLite log, on a real database file, keeps the
// contract of runlog.Log that Memory keeps.
func TestContract(t *testing.T) {
	runlogtest.Run(t, func(t *testing.T) runlog.Log {
		l, err := Open(context.Background(), filepath.Join(t.TempDir(), "runs.db"), Options{MaxRunBytes: 1 << 10})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { l.Close() })
		return l
	}, 1<<10)
}

// TestTwoProcesses: a log opened on the same file by another process (a
// second Log here) follows the first's appends, by polling, to the end.
func TestTwoProcesses(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "runs.db")
	a, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := Open(ctx, path, Options{PollInterval: 5 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	key := runlog.NewKey()
	if err := a.Create(ctx, runlog.Run{Key: key, ThreadID: "t", RunID: "r"}); err != nil {
		t.Fatal(err)
	}
	done := make(chan int64, 1)
	go func() {
		last, _ := runlog.Tail(ctx, b, key, 0, runlog.TailConfig{Emit: func(runlog.Entry) error { return nil }, Flush: func() error { return nil }})
		done <- last
	}()
	for i := range 5 {
		time.Sleep(3 * time.Millisecond)
		a.Append(ctx, key, []byte{byte('0' + i)})
	}
	a.End(ctx, key, []byte("end"))
	select {
	case last := <-done:
		if last != 6 {
			t.Errorf("the other process followed to %d, want 6", last)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the other process did not see the run end")
	}
}

// TestLiveness: a run whose process stops renewing it is found lost and
// ended once, whichever processes race to.
func TestLiveness(t *testing.T) {
	path := filepath.Join(t.TempDir(), "runs.db")
	runlogtest.Liveness(t, func(t *testing.T) runlogtest.Replica {
		l, err := Open(context.Background(), path, Options{Lapse: time.Second})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { l.Close() })
		return l
	})
}

// TestMigrateToRows: a log written with an entry a row (schema 2) opens
// with its entries where they were, and takes appends after them.
func TestMigrateToRows(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "runs.db")
	db, err := sqlite.Open(path, sqlite.Config{})
	if err != nil {
		t.Fatal(err)
	}
	if err := sqlite.Migrate(ctx, db, "runlog_schema", Migrations[:2]); err != nil {
		t.Fatal(err)
	}
	key := runlog.NewKey()
	for _, q := range []string{
		`INSERT INTO runlog_runs (key, thread_id, run_id, owner, input, last, size, started) VALUES ('` + key + `', 't', 'r', '', x'', 2, 2, 1)`,
		`INSERT INTO runlog_entries (key, pos, data) VALUES ('` + key + `', 1, 'a'), ('` + key + `', 2, 'b')`,
	} {
		if _, err := db.ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	l, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if _, err := l.Append(ctx, key, []byte("c"), []byte("d")); err != nil {
		t.Fatal(err)
	}
	p, err := l.Read(ctx, key, 1, 10, nil)
	if err != nil || len(p.Entries) != 3 || string(p.Entries[0].Data) != "b" || string(p.Entries[2].Data) != "d" || p.Entries[2].Pos != 4 {
		t.Fatalf("the migrated log: %+v, %v", p, err)
	}
}

// TestExpiry: ended runs and runs lost with their process are dropped past
// the retention.
func TestExpiry(t *testing.T) {
	path := filepath.Join(t.TempDir(), "runs.db")
	runlogtest.Expiry(t, func(t *testing.T) runlogtest.Replica {
		l, err := Open(context.Background(), path, Options{Retention: 200 * time.Millisecond, Lapse: 150 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { l.Close() })
		return l
	})
}

// BenchmarkWriter: the CPU a resumable run's log costs on SQLite, with
// one run at a time and with 16 at once (their batches sharing commits).
//
//	go test ./runtime/runlog/sqlitelog -run XXX -bench Writer -count 6
func BenchmarkWriter(b *testing.B) {
	runlogtest.Benchmark(b, func(b *testing.B) runlog.Log {
		l, err := Open(context.Background(), filepath.Join(b.TempDir(), "runs.db"), Options{})
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { l.Close() })
		return l
	})
}
