package runlog

import (
	"context"
	"errors"
	"slices"
	"sync"
	"time"

	"github.com/agui-gen/agui-gen/runtime/internal/workers"
)

// Writer appends the entries of one run in batches: Add queues an entry
// and returns without waiting for the log, and the entries queued while a
// batch is being appended go together in the next, one Append (one
// transaction, one round trip on SQL) for all of them. A run's readers
// read its log, so they get an entry once its batch is in.
//
// On a BatchLog (the SQL logs) a Writer made by CreateWriter creates the
// run's log with its first batch, and End ends it with its last, each in
// the batch's one step: a run of one batch is one transaction. Its Log
// then serves the run's readers in this process what the writer wrote
// last from memory rather than from the database.
//
// A batch is appended by a goroutine of its own, which exits once nothing
// is queued: a run that waits holds neither a goroutine nor a buffer
// (beyond, on a BatchLog, its last batch when it was small: see Log).
// Add waits while MaxQueued bytes are queued, so a log slower than its run
// holds the run back rather than memory.
type Writer struct {
	log   Log
	batch BatchLog // log's, when it writes batches in one step and this writer created the run's log
	key   string
	ctx   context.Context

	mu      sync.Mutex
	room    *sync.Cond // signalled when a batch is in, or failed
	queue   *batchBuf  // what Add queues; nil when nothing is
	writing bool       // a goroutine is appending
	err     error      // the first Append's error, which every later Add returns

	create    *Run          // the run whose log the next batch creates; nil once it exists
	created   chan struct{} // closed (settled) once the log exists, or its creation failed
	settled   bool
	createErr error

	ending  bool   // End was called: the next batch ends the log
	endLast []byte // End's final entry, the writer's copy
	done    bool   // the end was written, or failed (endErr)
	endErr  error

	// What the log holds, as this writer wrote it, kept on a BatchLog for
	// Log's reads until a write fails (stale).
	stale       bool
	last        int64   // the position of the log's last entry
	ended       bool    // the log has ended; endLast, when not nil, is at last
	recent      []byte  // a copy of the last batch's entries, when small: positions recentFirst…
	recentEnds  []int32 // where each of recent's entries ends
	recentFirst int64
	hint        int // the bytes of the last batch, up to keptBuffer
}

// MaxQueued is how many bytes of entries a Writer queues before Add waits
// for the batch being appended.
const MaxQueued = 256 << 10

// keptBuffer is the largest batch buffer kept for another batch, and the
// largest batch a Writer keeps for its Log's readers.
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

// NewWriter returns the writer of run key's log, which exists; its
// appends use ctx (without its cancellation: what was queued is
// appended).
func NewWriter(ctx context.Context, log Log, key string) *Writer {
	w := &Writer{log: log, key: key, ctx: context.WithoutCancel(ctx), created: make(chan struct{}), settled: true, stale: true}
	w.room = sync.NewCond(&w.mu)
	close(w.created)
	return w
}

// CreateWriter returns the writer of a new run's log, run.Key. On a
// BatchLog the log is created with the writer's first batch (Created
// waits for it): until then Get and Find do not find the run. On another
// log it is created now (Log.Create), and its error returned.
func CreateWriter(ctx context.Context, log Log, run Run) (*Writer, error) {
	bl, ok := log.(BatchLog)
	if !ok {
		if err := log.Create(ctx, run); err != nil {
			return nil, err
		}
		return NewWriter(ctx, log, run.Key), nil
	}
	w := &Writer{log: log, batch: bl, key: run.Key, ctx: context.WithoutCancel(ctx), create: &run, created: make(chan struct{})}
	w.room = sync.NewCond(&w.mu)
	return w, nil
}

// Created waits until the run's log exists, and returns the error of its
// creation, or the cause of ctx once it is done.
func (w *Writer) Created(ctx context.Context) error {
	select {
	case <-w.created:
	case <-ctx.Done():
		return context.Cause(ctx)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.createErr
}

// Add queues the entry appendData appends to the bytes it is given. It
// returns the error of an Append of an earlier batch (one wrapping
// ErrFull, say), after which nothing more is appended; entries of the
// batch that failed and after it are not in the log. After End it returns
// ErrEnded.
func (w *Writer) Add(appendData func([]byte) []byte) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	for w.err == nil && !w.ending && w.queue != nil && len(w.queue.data) >= MaxQueued {
		w.room.Wait()
	}
	if w.err != nil {
		return w.err
	}
	if w.ending {
		return ErrEnded
	}
	if w.queue == nil {
		w.queue = batchBufs.Get().(*batchBuf)
		if cap(w.queue.data) < w.hint {
			// Sized as the last batch was: a buffer grown entry by entry
			// is copied as often.
			w.queue.data = make([]byte, 0, w.hint)
		}
	}
	q := w.queue
	q.data = appendData(q.data)
	q.ends = append(q.ends, len(q.data))
	w.startLocked()
	return nil
}

// startLocked starts the goroutine that appends, unless it runs. The
// caller holds w.mu.
func (w *Writer) startLocked() {
	if !w.writing {
		w.writing = true
		appenders.Run(w.drain)
	}
}

// appenders are the goroutines that append the writers' batches, kept a
// while between batches (see workers): long enough for a server's next
// run, short enough that a burst's appenders do not outlast it for long.
var appenders = workers.New(100 * time.Millisecond)

// drain appends what is queued, batch after batch, and the end once End
// asks for it, until nothing is left.
func (w *Writer) drain() {
	for {
		w.mu.Lock()
		q := w.queue
		w.queue = nil
		end := w.ending && !w.done
		if q == nil && !end {
			w.writing = false
			w.room.Broadcast()
			w.mu.Unlock()
			if s, ok := w.log.(settler); ok {
				s.settle(w.key)
			}
			return
		}
		b := Batch{Create: w.create, End: end, Last: w.endLast}
		if q != nil {
			w.hint = min(len(q.data), keptBuffer)
		}
		failed := w.err != nil
		w.mu.Unlock()
		if q != nil && !failed {
			q.entries = slices.Grow(q.entries, len(q.ends))
			start := 0
			for _, end := range q.ends {
				q.entries = append(q.entries, q.data[start:end:end])
				start = end
			}
			b.Entries = q.entries
		}
		var appendErr, endErr error
		if len(b.Entries) > 0 || b.End {
			appendErr, endErr = w.write(b, q)
		}
		w.mu.Lock()
		if appendErr != nil || endErr != nil {
			w.stale, w.recent, w.recentEnds = true, nil, nil
		}
		if appendErr != nil && w.err == nil {
			w.err = appendErr
		}
		if b.Create != nil && w.create != nil && !w.settled {
			// Not created: the next batch (End's, at least) tries again.
			w.createErr = errors.Join(appendErr, endErr)
			w.settled = true
			close(w.created)
		}
		if end {
			w.done, w.endErr = true, endErr
		}
		w.room.Broadcast()
		w.mu.Unlock()
		if q == nil {
			continue
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

// settler is a log told when a run's writer has nothing queued: Memory
// trims the run's block.
type settler interface{ settle(key string) }

// packedAppender is a log that takes a batch as its buffer, the entries'
// bytes one after the other (Memory): one copy for the batch rather than
// one per entry.
type packedAppender interface {
	appendPacked(key string, data []byte, ends []int) (last int64, err error)
}

// write writes batch b, whose entries are q's: the error of its entries
// and of its end.
func (w *Writer) write(b Batch, q *batchBuf) (appendErr, endErr error) {
	if w.batch == nil {
		if pa, ok := w.log.(packedAppender); ok && q != nil && len(b.Entries) > 0 {
			_, appendErr = pa.appendPacked(w.key, q.data, q.ends)
		} else if len(b.Entries) > 0 {
			_, appendErr = w.log.Append(w.ctx, w.key, b.Entries...)
		}
		if b.End {
			endErr = w.log.End(w.ctx, w.key, b.Last)
		}
		return appendErr, endErr
	}
	b.Landed = func(last int64) { w.landed(b, q, last) }
	_, err := w.batch.AppendBatch(w.ctx, w.key, b)
	if err != nil {
		// What the log holds is read from it from now on.
		w.mu.Lock()
		w.stale, w.recent, w.recentEnds = true, nil, nil
		w.mu.Unlock()
	}
	if err != nil && b.End && len(b.Entries) > 0 && errors.Is(err, ErrFull) {
		// A run's end is never lost to its log's bound.
		b.Entries = nil
		b.Landed = func(last int64) { w.landed(b, nil, last) }
		_, endErr = w.batch.AppendBatch(w.ctx, w.key, b)
		return err, endErr
	}
	if b.End && !errors.Is(err, ErrEnded) {
		// Ended already (lost, by a reader): ending it changes nothing.
		endErr = err
	}
	if len(b.Entries) == 0 {
		err = nil
	}
	return err, endErr
}

// landed records batch b, whose entries are q's, as written: the log's
// last position is last.
func (w *Writer) landed(b Batch, q *batchBuf, last int64) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if b.Create != nil && w.create != nil {
		w.create = nil
		if !w.settled {
			w.settled = true
			close(w.created)
		}
	}
	if w.stale {
		return
	}
	if len(b.Entries) > 0 {
		w.recent, w.recentEnds = nil, nil
		if q != nil && len(q.data) <= keptBuffer {
			// A copy, in one block: the batch's buffer goes back to the
			// pool, and the copy is its readers' until it is replaced.
			w.recent = slices.Clone(q.data)
			w.recentEnds = make([]int32, len(q.ends))
			for i, end := range q.ends {
				w.recentEnds[i] = int32(end)
			}
			w.recentFirst = last - int64(len(b.Entries)) + 1
			if b.End && b.Last != nil {
				w.recentFirst--
			}
		}
	}
	w.last, w.ended = last, b.End
}

// End waits for what is queued to be appended, then ends the log with
// last as its final entry (Log.End), whatever an earlier Append returned:
// a run's end is never lost. On a BatchLog the end goes with the last
// entries, in one step. Ending again waits for the first end, and changes
// nothing.
func (w *Writer) End(last []byte) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.ending {
		w.ending = true
		if last != nil {
			w.endLast = slices.Clone(last)
		}
		w.startLocked()
	}
	for !w.done {
		w.room.Wait()
	}
	return w.endErr
}

// Log returns the writer's log as its run's readers in this process read
// it: on a BatchLog, what the writer wrote last (the run's progress, and
// its last batch when it was small) is read from the writer's memory, the
// rest from the log, so a follower that keeps up with the run reads the
// database no more. The log's watchers are signalled after the writer
// knows of a batch. Other runs, and the other methods, are the log's.
func (w *Writer) Log() Log {
	v := &writerLog{Log: w.log, w: w}
	if lv, ok := w.log.(Liveness); ok {
		return &liveWriterLog{writerLog: v, live: lv}
	}
	return v
}

type writerLog struct {
	Log
	w *Writer
}

type liveWriterLog struct {
	*writerLog
	live Liveness
}

func (v *liveWriterLog) Lapse() time.Duration { return v.live.Lapse() }

func (v *liveWriterLog) EndLost(ctx context.Context, key string, last []byte) (bool, error) {
	return v.live.EndLost(ctx, key, last)
}

// Read implements Log.
func (v *writerLog) Read(ctx context.Context, key string, after int64, max int, into []Entry) (Page, error) {
	if key == v.w.key {
		if p, ok := v.w.read(after, max, into); ok {
			return p, nil
		}
	}
	return v.Log.Read(ctx, key, after, max, into)
}

// read reads the log as Log.Read does from what the writer wrote, when it
// knows it: ok is false when the log is to be read.
func (w *Writer) read(after int64, max int, into []Entry) (p Page, ok bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.batch == nil || w.stale {
		return Page{}, false
	}
	after = maxPos(after, 0)
	if w.create != nil {
		// Not created yet: nothing to read, or a position never sent.
		return Page{Entries: into[:0]}, after == 0
	}
	p = Page{Entries: into[:0], Last: w.last, Ended: w.ended}
	if after >= w.last || max <= 0 {
		return p, true
	}
	endPos, first, n := int64(-1), int64(0), int64(0)
	if w.ended && w.endLast != nil {
		endPos = w.last
	}
	if w.recentEnds != nil {
		first, n = w.recentFirst, int64(len(w.recentEnds))
	}
	if after+1 != endPos && (n == 0 || after+1 < first) {
		return Page{}, false
	}
	p.Entries = slices.Grow(p.Entries, int(min(int64(max), w.last-after)))
	for pos := after + 1; pos <= w.last && len(p.Entries) < max; pos++ {
		switch {
		case pos == endPos:
			p.Entries = append(p.Entries, Entry{Pos: pos, Data: w.endLast})
		case pos >= first && pos < first+n:
			i, start := pos-first, int32(0)
			if i > 0 {
				start = w.recentEnds[i-1]
			}
			end := w.recentEnds[i]
			p.Entries = append(p.Entries, Entry{Pos: pos, Data: w.recent[start:end:end]})
		default:
			return Page{}, false
		}
	}
	return p, true
}

func maxPos(a, b int64) int64 {
	if a > b {
		return a
	}
	return b
}
