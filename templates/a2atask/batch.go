package a2atask

import (
	"context"

	"github.com/agui-gen/agui-gen/runtime/batch"
)

// A Batcher writes in batches: the writes that queue up while a batch is
// being written go together in the next one, so that a store commits them
// in one transaction and one round trip (the SQLite and PostgreSQL stores
// write through one); a write alone goes at once. It is runtime/batch's.
type Batcher[W any] = batch.Batcher[W]

// NewBatcher returns a Batcher that writes each batch with write, which
// returns the error of each of its writes, in order; at most lanes (at
// least one) batches are written at once.
func NewBatcher[W any](lanes int, write func(ctx context.Context, batch []W) []error) *Batcher[W] {
	return batch.NewBatcher(lanes, write)
}

// Signals is the registry of watchers a Store needs for Watch: each watcher
// is signalled a generation once, and wake-ups that find it signalled
// already coalesce into its pending one. The zero value is ready. It is
// runtime/batch's.
type Signals = batch.Signals
