// Package batch holds what a task store writes and wakes through: a
// Batcher, which gathers the writes that queue up while one batch is being
// written into the next, so that a store commits them in one transaction
// and one round trip, and Signals, the registry of the watchers of a key
// (a task), each woken with the latest generation once.
package batch

import (
	"context"
	"sync"
	"time"

	"github.com/agui-gen/agui-gen/runtime/internal/workers"
)

// A Batcher writes in batches: the writes that queue up while a batch is
// being written go together in the next one, so that a store commits them
// in one transaction and one round trip (the SQLite and PostgreSQL stores
// write through one); a write alone goes at once. Up to lanes batches are
// written at the same time.
type Batcher[W any] struct {
	write func(ctx context.Context, batch []W) []error
	lanes int

	mu      sync.Mutex
	queue   []queued[W]
	writing int
}

// queued is a write waiting for its batch, and where its error goes.
type queued[W any] struct {
	w    W
	done chan error
}

// maxBatch bounds a batch, so that a burst does not make one transaction of
// thousands of writes, nor hold a connection for long.
const maxBatch = 64

// NewBatcher returns a Batcher that writes each batch with write, which
// returns the error of each of its writes, in order; at most lanes (at
// least one) batches are written at once.
func NewBatcher[W any](lanes int, write func(ctx context.Context, batch []W) []error) *Batcher[W] {
	return &Batcher[W]{write: write, lanes: max(lanes, 1)}
}

// Do writes w in the next batch and returns its error. It waits for the
// batch even when ctx ends first, since the write may commit all the same;
// ctx, without its cancellation, is that of a batch Do writes itself.
func (b *Batcher[W]) Do(ctx context.Context, w W) error {
	q := queued[W]{w: w, done: make(chan error, 1)}
	b.mu.Lock()
	b.queue = append(b.queue, q)
	lead := b.writing < b.lanes
	if lead {
		b.writing++
	}
	b.mu.Unlock()
	if lead {
		b.drain(context.WithoutCancel(ctx))
	}
	return <-q.done
}

// Pending reports how many writes wait for a batch, and how many batches
// are being written.
func (b *Batcher[W]) Pending() (queued, writing int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.queue), b.writing
}

// drain writes what is queued, on a lane the caller holds, and hands the
// lane on to another goroutine for what queued meanwhile, so that the
// caller, whose write was in this batch, need not wait for the next. It
// gives the lane back when nothing is queued: another lane may have taken
// what was.
func (b *Batcher[W]) drain(ctx context.Context) {
	b.mu.Lock()
	n := min(len(b.queue), maxBatch)
	if n == 0 {
		b.writing--
		b.mu.Unlock()
		return
	}
	batch := b.queue[:n:n]
	b.queue = b.queue[n:]
	b.mu.Unlock()

	writes := make([]W, n)
	for i, q := range batch {
		writes[i] = q.w
	}
	errs := b.write(ctx, writes)
	for i, q := range batch {
		q.done <- errs[i]
	}

	b.mu.Lock()
	more := len(b.queue) > 0
	if !more {
		b.writing--
	}
	b.mu.Unlock()
	if more {
		lanes.Run(func() { b.drain(ctx) })
	}
}

// lanes are the goroutines a lane is handed on to, kept a while between
// batches (see workers): under load a lane is handed on after every batch.
var lanes = workers.New(100 * time.Millisecond)
