package pglog

import (
	"context"
	"testing"
	"time"

	"github.com/agui-gen/agui-gen/runtime/postgres/pgtest"
	"github.com/agui-gen/agui-gen/runtime/runlog"
	"github.com/agui-gen/agui-gen/runtime/runlog/runlogtest"
)

func open(t *testing.T, dsn string, opts Options) *Log {
	t.Helper()
	l, err := Open(context.Background(), dsn, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return l
}

// TestContract: the PostgreSQL log, on a real server, keeps the contract
// of runlog.Log that Memory keeps, and that of runlog.Liveness.
func TestContract(t *testing.T) {
	runlogtest.Run(t, func(t *testing.T) runlog.Log {
		return open(t, pgtest.Database(t), Options{MaxRunBytes: 1 << 10, Lapse: time.Second})
	}, 1<<10)
}

// TestTwoReplicas: a second replica on the same database follows the
// first's appends, woken by its notifications (its poll is an hour), to
// the end.
func TestTwoReplicas(t *testing.T) {
	ctx := context.Background()
	dsn := pgtest.Database(t)
	a := open(t, dsn, Options{})
	b := open(t, dsn, Options{PollInterval: time.Hour})
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
		if _, err := a.Append(ctx, key, []byte{byte('0' + i)}); err != nil {
			t.Fatal(err)
		}
	}
	if err := a.End(ctx, key, []byte("end")); err != nil {
		t.Fatal(err)
	}
	select {
	case last := <-done:
		if last != 6 {
			t.Errorf("the other replica followed to %d, want 6", last)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the other replica did not see the run end")
	}
}

// TestLiveness: a run whose replica stops renewing it is found lost and
// ended once, whichever replicas race to.
func TestLiveness(t *testing.T) {
	dsn := pgtest.Database(t)
	runlogtest.Liveness(t, func(t *testing.T) runlogtest.Replica {
		return open(t, dsn, Options{Lapse: time.Second})
	})
}

// TestExpiry: ended runs and runs lost with their replica are dropped past
// the retention.
func TestExpiry(t *testing.T) {
	dsn := pgtest.Database(t)
	runlogtest.Expiry(t, func(t *testing.T) runlogtest.Replica {
		return open(t, dsn, Options{Retention: 200 * time.Millisecond, Lapse: 150 * time.Millisecond})
	})
}

// BenchmarkWriter: the CPU of this process (not the server's) a
// resumable run's log costs on PostgreSQL, with one run at a time and with
// 16 at once.
func BenchmarkWriter(b *testing.B) {
	runlogtest.Benchmark(b, func(b *testing.B) runlog.Log {
		l, err := Open(context.Background(), pgtest.Database(b), Options{})
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { l.Close() })
		return l
	})
}
