package bounds

import (
	"sync"
	"testing"
)

func TestStreamsCap(t *testing.T) {
	s := NewStreams(2)
	if !s.Acquire() || !s.Acquire() {
		t.Fatal("two streams under a cap of two were refused")
	}
	if s.Acquire() {
		t.Fatal("a third stream passed a cap of two")
	}
	s.Release()
	if !s.Acquire() {
		t.Fatal("a slot given back was not taken again")
	}
	var unbounded *Streams
	if !unbounded.Acquire() || !NewStreams(0).Acquire() {
		t.Error("no cap refused a stream")
	}
	unbounded.Release()
}

// TestStreamsUnderContention: however callers race, no more than the cap
// hold a slot at once, and every slot comes back.
func TestStreamsUnderContention(t *testing.T) {
	const limit = 3
	s := NewStreams(limit)
	var mu sync.Mutex
	held, peak := 0, 0
	var wg sync.WaitGroup
	for range 50 {
		wg.Go(func() {
			for range 100 {
				if !s.Acquire() {
					continue
				}
				mu.Lock()
				held++
				peak = max(peak, held)
				held--
				mu.Unlock()
				s.Release()
			}
		})
	}
	wg.Wait()
	if peak > limit || s.n.Load() != 0 {
		t.Errorf("peak %d over a cap of %d, or %d slots not given back", peak, limit, s.n.Load())
	}
}
