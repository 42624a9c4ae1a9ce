package runlog

import (
	"context"
	"sync"
)

// Writer appends the entries of one run in batches: Add queues an entry
// and returns without waiting for the log, and the entries queued while a
// batch is being appended go together in the next, one Append (one
// transaction, one round trip on SQL) for all of them. A run's readers
// read its log, so they get an entry once its batch is in.
//
// A batch is appended by a goroutine of its own, which exits once nothing
// is queued: a run that waits holds neither a goroutine nor a buffer.
// Add waits while MaxQueued bytes are queued, so a log slower than its run
// holds the run back rather than memory.
type Writer struct {
	log Log
	key string
	ctx context.Context

	mu      sync.Mutex
	room    *sync.Cond // signalled when a batch is in
	queue   *batchBuf  // what Add queues; nil when nothing is
	writing bool       // a goroutine is appending
	err     error      // the first Append's error, which every later Add returns
}

// MaxQueued is how many bytes of entries a Writer queues before Add waits
// for the batch being appended.
const MaxQueued = 256 << 10

// keptBuffer is the largest batch buffer kept for another batch.
const keptBuffer = 32 << 10

// batchBuf is a batch of entries: their bytes, one after the other, and
// where each ends.
type batchBuf struct {
	data    []byte
	ends    []int
	entries [][]byte
}

// batchBufs holds the buffers of batches between them.
var batchBufs = sync.Pool{New: func() any { return new(batchBuf) }}

// NewWriter returns the writer of run key's log; its appends use ctx
// (without its cancellation: what was queued is appended).
func NewWriter(ctx context.Context, log Log, key string) *Writer {
	w := &Writer{log: log, key: key, ctx: context.WithoutCancel(ctx)}
	w.room = sync.NewCond(&w.mu)
	return w
}

// Add queues the entry appendData appends to the bytes it is given. It
// returns the error of an Append of an earlier batch (one wrapping
// ErrFull, say), after which nothing more is appended; entries of the
// batch that failed and after it are not in the log.
func (w *Writer) Add(appendData func([]byte) []byte) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	for w.err == nil && w.queue != nil && len(w.queue.data) >= MaxQueued {
		w.room.Wait()
	}
	if w.err != nil {
		return w.err
	}
	if w.queue == nil {
		w.queue = batchBufs.Get().(*batchBuf)
	}
	q := w.queue
	q.data = appendData(q.data)
	q.ends = append(q.ends, len(q.data))
	if !w.writing {
		w.writing = true
		go w.drain()
	}
	return nil
}

// drain appends what is queued, batch after batch, until nothing is.
func (w *Writer) drain() {
	for {
		w.mu.Lock()
		q := w.queue
		w.queue = nil
		if q == nil {
			w.writing = false
			w.room.Broadcast()
			w.mu.Unlock()
			return
		}
		failed := w.err != nil
		w.mu.Unlock()
		if !failed {
			start := 0
			for _, end := range q.ends {
				q.entries = append(q.entries, q.data[start:end:end])
				start = end
			}
			_, err := w.log.Append(w.ctx, w.key, q.entries...)
			w.mu.Lock()
			if err != nil && w.err == nil {
				w.err = err
			}
			w.room.Broadcast()
			w.mu.Unlock()
		}
		clear(q.entries)
		q.data, q.ends, q.entries = q.data[:0], q.ends[:0], q.entries[:0]
		// Only small buffers are kept: the pool's buffers outlive the runs
		// that filled them, until the next collections.
		if cap(q.data) <= keptBuffer {
			batchBufs.Put(q)
		}
	}
}

// End waits for what is queued to be appended, then ends the log with
// last as its final entry (Log.End), whatever an earlier Append returned:
// a run's end is never lost.
func (w *Writer) End(ctx context.Context, last []byte) error {
	w.mu.Lock()
	for w.writing {
		w.room.Wait()
	}
	w.mu.Unlock()
	return w.log.End(ctx, w.key, last)
}
