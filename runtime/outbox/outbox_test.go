package outbox

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"
)

// TestMemoryClaims: one holder at a time, until its claim runs out; a
// claim is released only when nothing more is owed, and a released key is
// forgotten.
func TestMemoryClaims(t *testing.T) {
	ctx := context.Background()
	var m Memory
	hour := time.Now().Add(time.Hour)
	if _, ok, _ := m.ClaimPushes(ctx, "k", "a", hour); ok {
		t.Fatal("claimed a key that owes nothing")
	}
	m.Owe("k", 3)
	m.Owe("k", 2) // late news
	if d, ok, _ := m.ClaimPushes(ctx, "k", "a", hour); !ok || d != 2 {
		t.Fatalf("claim: %d %v, want delivered 2", d, ok)
	}
	if _, ok, _ := m.ClaimPushes(ctx, "k", "b", hour); ok {
		t.Fatal("b claimed what a holds")
	}
	if ids, _ := m.OwedPushes(ctx, time.Now(), 10); len(ids) != 0 {
		t.Fatalf("owed and held listed: %v", ids)
	}
	if ok, _ := m.PushesDelivered(ctx, "k", "b", 3, hour); ok {
		t.Fatal("b recorded a delivery")
	}
	m.Owe("k", 4)
	if ok, _ := m.PushesDelivered(ctx, "k", "a", 3, time.Now().Add(-time.Second)); !ok {
		t.Fatal("a's delivery not recorded")
	}
	if ok, _ := m.ReleasePushes(ctx, "k", "a"); ok {
		t.Fatal("released with 4 owed")
	}
	if ids, _ := m.OwedPushes(ctx, time.Now(), 10); len(ids) != 1 || ids[0] != "k" {
		t.Fatalf("a claim run out: owed %v", ids)
	}
	if d, ok, _ := m.ClaimPushes(ctx, "k", "b", hour); !ok || d != 3 {
		t.Fatalf("b's claim after a's ran out: %d %v", d, ok)
	}
	m.PushesDelivered(ctx, "k", "b", 4, hour)
	if ok, _ := m.ReleasePushes(ctx, "k", "b"); !ok || m.Len() != 0 {
		t.Fatalf("released %v, %d keys left", ok, m.Len())
	}
}

// log is a source of events: generations 1… of each key, posted to one
// target that records them.
type log struct {
	mu     sync.Mutex
	events map[string]int64
	posted map[string][]int64
	slow   time.Duration
	hold   chan struct{} // when not nil, a post waits for it or its context
}

func (l *log) append(key string) int64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.events[key]++
	return l.events[key]
}

func (l *log) source(t *testing.T) Source[int64, string] {
	return Source[int64, string]{
		Events: func(_ context.Context, key string, after int64) ([]int64, error) {
			l.mu.Lock()
			defer l.mu.Unlock()
			var out []int64
			for g := after + 1; g <= l.events[key]; g++ {
				out = append(out, g)
			}
			return out, nil
		},
		Generation: func(e int64) int64 { return e },
		Targets:    func(context.Context, string) ([]string, error) { return []string{"hook"}, nil },
		Post: func(ctx context.Context, key, target string, e int64) error {
			if l.hold != nil {
				select {
				case <-l.hold:
				case <-ctx.Done():
					return ctx.Err()
				}
			}
			time.Sleep(l.slow)
			l.mu.Lock()
			defer l.mu.Unlock()
			l.posted[key] = append(l.posted[key], e)
			return nil
		},
		Failed: func(key string, err error) { t.Errorf("%s: %v", key, err) },
	}
}

func (l *log) count(key string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.posted[key])
}

func (l *log) waitPosted(t *testing.T, key string, n int) []int64 {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
		l.mu.Lock()
		got := append([]int64(nil), l.posted[key]...)
		l.mu.Unlock()
		if len(got) >= n {
			return got
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: %d of %d events posted", key, len(got), n)
		}
	}
}

// TestDelivererInOrder: events written faster than they are posted are
// each posted once, in order, per key; the deliverer then remembers no
// key.
func TestDelivererInOrder(t *testing.T) {
	l := &log{events: map[string]int64{}, posted: map[string][]int64{}, slow: 100 * time.Microsecond}
	ctx, cancel := context.WithCancel(context.Background())
	var running sync.WaitGroup
	defer func() { cancel(); running.Wait() }()
	d := NewDeliverer(ctx, &running, nil, time.Minute, time.Second, l.source(t))
	const n = 200
	var wg sync.WaitGroup
	for k := range 3 {
		key := fmt.Sprint("k", k)
		wg.Go(func() {
			for range n {
				d.Written(key, l.append(key))
			}
		})
	}
	wg.Wait()
	for k := range 3 {
		got := l.waitPosted(t, fmt.Sprint("k", k), n)
		for i, g := range got {
			if g != int64(i+1) {
				t.Fatalf("k%d: event %d posted as the %dth (%d posts)", k, g, i+1, len(got))
			}
		}
	}
	for deadline := time.Now().Add(5 * time.Second); d.Local().Len() > 0; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d keys remembered", d.Local().Len())
		}
	}
}

// TestDelivererTakesOver: a deliverer that stops while posting leaves the
// event owed in the shared claims; another's sweep, once the claim has run
// out, posts it and the rest, in order.
func TestDelivererTakesOver(t *testing.T) {
	l := &log{events: map[string]int64{}, posted: map[string][]int64{}, hold: make(chan struct{})}
	shared := new(Memory)
	var running sync.WaitGroup
	ctxA, stopA := context.WithCancel(context.Background())
	a := NewDeliverer(ctxA, &running, shared, 300*time.Millisecond, time.Second, l.source(t))
	for range 3 {
		gen := l.append("k")
		shared.Owe("k", gen) // a store owes in the write's transaction
		a.Written("k", gen)
	}
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(time.Millisecond) {
		if ids, _ := shared.OwedPushes(context.Background(), time.Now(), 10); len(ids) == 0 {
			break // a holds the claim, its post of event 1 waiting
		}
		if time.Now().After(deadline) {
			t.Fatal("a never claimed")
		}
	}
	stopA()
	running.Wait()
	close(l.hold)
	ctxB, stopB := context.WithCancel(context.Background())
	defer func() { stopB(); running.Wait() }()
	b := NewDeliverer(ctxB, &running, shared, time.Minute, time.Second, l.source(t))
	if err := b.Sweep(time.Now()); err != nil {
		t.Fatal(err)
	}
	if l.count("k") != 0 {
		t.Fatal("posted before a's claim ran out")
	}
	for deadline := time.Now().Add(5 * time.Second); l.count("k") < 3; time.Sleep(10 * time.Millisecond) {
		if err := b.Sweep(time.Now()); err != nil {
			t.Fatal(err)
		}
		if time.Now().After(deadline) {
			t.Fatalf("b's sweeps posted %d of 3", l.count("k"))
		}
	}
	if got := l.waitPosted(t, "k", 3); fmt.Sprint(got) != "[1 2 3]" {
		t.Fatalf("posted %v", got)
	}
}
