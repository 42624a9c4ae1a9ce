package sqlitelog

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/agui-gen/agui-gen/runtime/runlog"
	"github.com/agui-gen/agui-gen/runtime/runlog/runlogtest"
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
		l, err := Open(context.Background(), path, Options{Lapse: 300 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { l.Close() })
		return l
	})
}
