package batch

import (
	"context"
	"errors"
	"strconv"
	"sync"
	"testing"
	"time"
)

// TestBatcher: the writes that queue while the lanes are busy go out
// together in the next batch, each getting its own error, and no more
// batches are written at once than there are lanes.
func TestBatcher(t *testing.T) {
	release := make(chan struct{})
	var mu sync.Mutex
	var batches [][]int
	writing, most := 0, 0
	b := NewBatcher(2, func(_ context.Context, batch []int) []error {
		mu.Lock()
		batches = append(batches, batch)
		writing++
		most = max(most, writing)
		mu.Unlock()
		if batch[0] < 0 {
			<-release // the first batches hold the lanes
		}
		mu.Lock()
		writing--
		mu.Unlock()
		errs := make([]error, len(batch))
		for i, w := range batch {
			if w == 5 {
				errs[i] = errors.New("refused " + strconv.Itoa(w))
			}
		}
		return errs
	})
	ctx := context.Background()
	var wg sync.WaitGroup
	for _, w := range []int{-1, -2} {
		wg.Go(func() { b.Do(ctx, w) })
	}
	waitPending(t, b, 0, 2)
	errs := make([]error, 8)
	for i := range errs {
		wg.Go(func() { errs[i] = b.Do(ctx, i) })
	}
	waitPending(t, b, len(errs), 2)
	close(release)
	wg.Wait()
	for i, err := range errs {
		if (err != nil) != (i == 5) {
			t.Errorf("write %d: %v", i, err)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if most > 2 {
		t.Errorf("%d batches written at once on 2 lanes", most)
	}
	if len(batches) > 4 {
		t.Errorf("the queued writes went out in %d batches: %v", len(batches)-2, batches[2:])
	}
	waitPending(t, b, 0, 0)
}

func waitPending(t *testing.T, b *Batcher[int], queued, writing int) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
		q, w := b.Pending()
		if q == queued && w == writing {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d queued and %d writing, want %d and %d", q, w, queued, writing)
		}
	}
}
