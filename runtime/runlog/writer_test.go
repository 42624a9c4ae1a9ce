package runlog

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"testing"
)

// slowLog is a Memory whose Appends wait for a turn, and are counted.
type slowLog struct {
	*Memory
	mu      sync.Mutex
	appends int
	turn    chan struct{}
}

func (l *slowLog) Append(ctx context.Context, key string, data ...[]byte) (int64, error) {
	<-l.turn
	l.mu.Lock()
	l.appends++
	l.mu.Unlock()
	return l.Memory.Append(ctx, key, data...)
}

// TestWriterBatches: the entries added while a batch is appended go
// together in the next one, in order; End waits for them and ends the log
// with its entry last.
func TestWriterBatches(t *testing.T) {
	ctx := context.Background()
	l := &slowLog{Memory: NewMemory(MemoryOptions{}), turn: make(chan struct{})}
	key := NewKey()
	if err := l.Create(ctx, Run{Key: key}); err != nil {
		t.Fatal(err)
	}
	w := NewWriter(ctx, l, key)
	for i := range 100 {
		if err := w.Add(func(b []byte) []byte { return fmt.Append(b, i) }); err != nil {
			t.Fatal(err)
		}
	}
	go func() {
		for range 2 { // the first batch, whatever it holds, and the rest
			l.turn <- struct{}{}
		}
	}()
	if err := w.End([]byte("end")); err != nil {
		t.Fatal(err)
	}
	p, err := l.Read(ctx, key, 0, 1000, nil)
	if err != nil || !p.Ended || len(p.Entries) != 101 {
		t.Fatalf("%d entries, ended %v, %v", len(p.Entries), p.Ended, err)
	}
	for i, e := range p.Entries[:100] {
		if string(e.Data) != fmt.Sprint(i) {
			t.Fatalf("entry %d is %q", i+1, e.Data)
		}
	}
	if l.appends > 2 {
		t.Errorf("%d Appends for 100 entries added while the first was held", l.appends)
	}
}

// TestWriterError: once an Append fails, Add returns its error and
// nothing more is appended; End still ends the log with its entry.
func TestWriterError(t *testing.T) {
	ctx := context.Background()
	m := NewMemory(MemoryOptions{MaxRunBytes: 10})
	key := NewKey()
	if err := m.Create(ctx, Run{Key: key}); err != nil {
		t.Fatal(err)
	}
	w := NewWriter(ctx, m, key)
	if err := w.Add(func(b []byte) []byte { return append(b, "more than ten bytes"...) }); err != nil {
		t.Fatal(err) // the error comes with the batch, later
	}
	var err error
	for range 1_000_000 {
		if err = w.Add(func(b []byte) []byte { return append(b, 'x') }); err != nil {
			break
		}
		runtime.Gosched()
	}
	if !errors.Is(err, ErrFull) {
		t.Fatalf("Add after a batch the log refused: %v, want ErrFull", err)
	}
	if err := w.End([]byte("end")); err != nil {
		t.Fatal(err)
	}
	if p, _ := m.Read(ctx, key, 0, 10, nil); !p.Ended || len(p.Entries) != 1 || string(p.Entries[0].Data) != "end" {
		t.Errorf("the log: %+v, want the end alone", p)
	}
}
