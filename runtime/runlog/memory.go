package runlog

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sync"
	"time"
)

// MemoryOptions bound a Memory log.
type MemoryOptions struct {
	// Retention is how long a run's log is kept once it has ended, for
	// the resumes of clients that were away at the end (0: 10 minutes).
	Retention time.Duration
	// MaxRunBytes bounds the bytes of one run's entries (0: 16 MiB; at
	// most 4 GiB); an Append past it fails with ErrFull, and the run ends
	// with an error.
	MaxRunBytes int
	// MaxEndedRuns bounds how many ended runs are kept, the oldest
	// dropped first, whatever their retention (0: 10,000).
	MaxEndedRuns int
	// Now is the clock (nil: time.Now), for tests.
	Now func() time.Time
}

// Memory is a Log in this process's memory: the logs of the runs this
// process serves, gone when it stops. It holds at most the logs of the
// runs in progress and of the runs that ended within the retention (no
// more than MaxEndedRuns), each at most MaxRunBytes.
type Memory struct {
	opts  MemoryOptions
	mu    sync.Mutex
	runs  map[string]*memRun
	byIDs map[[2]string]string // thread and run ids → the newest key
	ended []endedRun           // in the order they ended
	// watchers are the channels of each key's watchers. Signalling one
	// is a send that does not wait: one whose signal is pending (a
	// follower busy writing what it read) costs the writer a look.
	watchers map[string][]chan int64
}

type memRun struct {
	run    Run
	blocks [][]byte // the blocks that hold the entries' bytes, never rewritten
	// refs are where each entry is, entry i being position i+1: offsets,
	// not slices, so that the collector has no pointer to trace per entry
	// and appending one takes no write barrier (together a fifth of
	// BenchmarkMemoryWriter's CPU).
	refs []entryRef
	fill int // the index of the block small entries are copied into; -1 when none
	size int
}

// entryRef is where an entry's bytes are: blocks[block][start:end].
type entryRef struct{ block, start, end uint32 }

// entry returns entry i's bytes.
func (r *memRun) entry(i int64) []byte {
	ref := r.refs[i]
	return r.blocks[ref.block][ref.start:ref.end:ref.end]
}

// chunk is the block small entries are copied into, nil when there is
// none.
func (r *memRun) chunk() []byte {
	if r.fill < 0 {
		return nil
	}
	return r.blocks[r.fill]
}

// newChunk makes a block of size bytes the one small entries are copied
// into.
func (r *memRun) newChunk(size int) {
	r.fill = len(r.blocks)
	r.blocks = append(r.blocks, make([]byte, 0, size))
}

type endedRun struct {
	key string
	at  time.Time
}

// chunkSize is the size of the blocks a run's small entries are copied
// into: one allocation for many small events. A run's first blocks are
// smaller, from firstChunk, each twice the last: a run that has logged a
// few events (one that waits, detached) holds a block the size of what it
// logged, not chunkSize. Larger entries (up to maxChunk/4) go in blocks
// that double from bigChunk up to maxChunk, so that a run of events of a
// few KiB each is packed too: a block of its own for each would be rounded
// up to the allocator's next size class, up to a sixth more, and each
// block leaves up to an entry unused at its end, so the fewer the better.
// A block's unused rest is given back when the run pauses or ends (trim).
// Entries larger still get a block of their own.
const (
	firstChunk = 1 << 10
	chunkSize  = 16 << 10
	bigChunk   = 64 << 10
	maxChunk   = 256 << 10
	smallSize  = 1 << 10
)

// NewMemory returns an empty log in memory.
func NewMemory(opts MemoryOptions) *Memory {
	if opts.Retention <= 0 {
		opts.Retention = 10 * time.Minute
	}
	if opts.MaxRunBytes <= 0 {
		opts.MaxRunBytes = 16 << 20
	}
	// An entry's offsets are 32 bits.
	opts.MaxRunBytes = min(opts.MaxRunBytes, math.MaxUint32)
	if opts.MaxEndedRuns <= 0 {
		opts.MaxEndedRuns = 10000
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	return &Memory{opts: opts, runs: map[string]*memRun{}, byIDs: map[[2]string]string{}, watchers: map[string][]chan int64{}}
}

// Create implements Log.
func (m *Memory) Create(ctx context.Context, run Run) error {
	now := m.opts.Now()
	m.mu.Lock()
	defer m.mu.Unlock()
	m.sweep(now)
	if _, ok := m.runs[run.Key]; ok {
		return ErrExists
	}
	run.Last, run.Ended, run.Started = 0, false, now
	run.Input = append([]byte(nil), run.Input...)
	m.runs[run.Key] = &memRun{run: run, fill: -1}
	m.byIDs[[2]string{run.ThreadID, run.RunID}] = run.Key
	return nil
}

// add copies data into r's blocks, as its next entry.
func (r *memRun) add(data []byte) {
	if len(data) > maxChunk/4 {
		r.refs = append(r.refs, entryRef{block: uint32(len(r.blocks)), end: uint32(len(data))})
		r.blocks = append(r.blocks, slices.Clip(append([]byte(nil), data...)))
	} else {
		chunk := r.chunk()
		if len(data) > cap(chunk)-len(chunk) {
			size := min(max(2*cap(chunk), firstChunk), chunkSize)
			if len(data) > smallSize {
				// Each block of larger entries twice the last: what the
				// run's last block leaves unused stays a fraction of the run.
				size = min(max(2*cap(chunk), bigChunk), maxChunk)
			}
			r.newChunk(max(size, len(data)))
			chunk = r.chunk()
		}
		at := len(chunk)
		r.blocks[r.fill] = append(chunk, data...)
		r.refs = append(r.refs, entryRef{block: uint32(r.fill), start: uint32(at), end: uint32(at + len(data))})
	}
	r.size += len(data)
	r.run.Last++
}

// reserve makes room for a batch of entries before they are added, the
// refs grown once and the small entries in one block their size when
// they are more than a block holds (a run's 200 small events, in one
// batch, had filled five blocks of twice their bytes) or are the run's
// last (a block that grows for them would be trimmed at once).
func (r *memRun) reserve(data [][]byte, last bool) {
	r.refs = slices.Grow(r.refs, len(data))
	n := 0
	for _, d := range data {
		if len(d) <= maxChunk/4 {
			n += len(d)
		}
	}
	chunk := r.chunk()
	if n > cap(chunk)-len(chunk) && (n > chunkSize || last) && n <= maxChunk {
		r.newChunk(n)
	}
}

// trimSlack is the room a run's block may leave unused once its writer
// has paused (Writer: nothing queued) or the run has ended: past it, the
// block's entries move to one their size.
const trimSlack = 4 << 10

// trim moves the entries of r's block to a block their size when it leaves
// more than trimSlack unused: a run that waits, or has ended, holds what it
// logged and not the rest of a block of up to maxChunk. Readers that hold
// the old block's entries keep them; they are the same bytes.
func (r *memRun) trim() {
	if chunk := r.chunk(); cap(chunk)-len(chunk) > trimSlack {
		r.blocks[r.fill] = slices.Clip(slices.Clone(chunk))
	}
}

// settle is told by a Writer that it has nothing queued for run key: the
// run's block is trimmed when it is one of larger entries (a block of
// small ones leaves less than chunkSize unused, and a run that pauses
// often would copy it at every pause).
func (m *Memory) settle(key string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if r := m.runs[key]; r != nil && cap(r.chunk()) > chunkSize {
		r.trim()
	}
}

// Append implements Log.
func (m *Memory) Append(ctx context.Context, key string, data ...[]byte) (int64, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	r := m.runs[key]
	if r == nil {
		return 0, ErrNotFound
	}
	if r.run.Ended {
		return 0, ErrEnded
	}
	n := 0
	for _, d := range data {
		n += len(d)
	}
	if r.size+n > m.opts.MaxRunBytes {
		return 0, fmt.Errorf("%w: it holds %d bytes, at most %d", ErrFull, r.size, m.opts.MaxRunBytes)
	}
	r.reserve(data, false)
	for _, d := range data {
		r.add(d)
	}
	m.notify(key, r.run.Last)
	return r.run.Last, nil
}

// appendPacked appends a Writer's batch: entries whose bytes are data, one
// after the other, entry i ending at ends[i]. A batch is copied in one
// piece, into the run's block when it has room, or, when it is a few KiB
// or more, into a new block the copy makes (a block made empty and then
// filled was cleared first); other batches are added entry by entry, as
// Append adds them.
func (m *Memory) appendPacked(key string, data []byte, ends []int) (int64, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	r := m.runs[key]
	switch {
	case r == nil:
		return 0, ErrNotFound
	case r.run.Ended:
		return 0, ErrEnded
	case r.size+len(data) > m.opts.MaxRunBytes:
		return 0, fmt.Errorf("%w: it holds %d bytes, at most %d", ErrFull, r.size, m.opts.MaxRunBytes)
	}
	chunk := r.chunk()
	room := cap(chunk) - len(chunk)
	if len(data) > maxChunk || len(data) > room && len(data) < chunkSize/4 {
		// Too large for a block, or small enough for the blocks that grow
		// with the run: a run that logs an entry at a time would make a
		// block of each.
		start := 0
		for _, end := range ends {
			r.add(data[start:end:end])
			start = end
		}
	} else {
		at := len(chunk)
		if len(data) <= room {
			r.blocks[r.fill] = append(chunk, data...)
		} else {
			r.fill, at = len(r.blocks), 0
			r.blocks = append(r.blocks, append([]byte(nil), data...))
		}
		r.refs = slices.Grow(r.refs, len(ends))
		start := 0
		for _, end := range ends {
			r.refs = append(r.refs, entryRef{block: uint32(r.fill), start: uint32(at + start), end: uint32(at + end)})
			start = end
		}
		r.size += len(data)
		r.run.Last += int64(len(ends))
	}
	m.notify(key, r.run.Last)
	return r.run.Last, nil
}

// End implements Log.
func (m *Memory) End(ctx context.Context, key string, last []byte) error {
	now := m.opts.Now()
	m.mu.Lock()
	defer m.mu.Unlock()
	r := m.runs[key]
	if r == nil {
		return ErrNotFound
	}
	if r.run.Ended {
		return nil
	}
	if last != nil {
		r.reserve([][]byte{last}, true)
		r.add(last)
	}
	r.trim()
	r.run.Ended = true
	m.ended = append(m.ended, endedRun{key, now})
	m.sweep(now)
	// 0: every watcher looks, though an end may add no entry.
	m.notify(key, 0)
	return nil
}

// sweep drops the logs past their retention, and the oldest ended ones
// past MaxEndedRuns. The caller holds m.mu.
func (m *Memory) sweep(now time.Time) {
	drop := 0
	for drop < len(m.ended) && (len(m.ended)-drop > m.opts.MaxEndedRuns || now.Sub(m.ended[drop].at) > m.opts.Retention) {
		key := m.ended[drop].key
		if r := m.runs[key]; r != nil {
			ids := [2]string{r.run.ThreadID, r.run.RunID}
			if m.byIDs[ids] == key {
				delete(m.byIDs, ids)
			}
			delete(m.runs, key)
		}
		m.ended[drop] = endedRun{}
		drop++
	}
	if drop > 0 {
		// A follower of a dropped log finds it gone at its next Read.
		m.ended = m.ended[drop:]
	}
}

// Get implements Log.
func (m *Memory) Get(ctx context.Context, key string) (Run, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.sweep(m.opts.Now())
	r := m.runs[key]
	if r == nil {
		return Run{}, ErrNotFound
	}
	return r.run, nil
}

// Find implements Log.
func (m *Memory) Find(ctx context.Context, threadID, runID string) (Run, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.sweep(m.opts.Now())
	r := m.runs[m.byIDs[[2]string{threadID, runID}]]
	if r == nil {
		return Run{}, ErrNotFound
	}
	return r.run, nil
}

// Read implements Log. The entries' bytes are the log's own, shared, not
// copied: reading costs what the entries' headers do.
func (m *Memory) Read(ctx context.Context, key string, after int64, max int, into []Entry) (Page, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	r := m.runs[key]
	if r == nil {
		return Page{}, ErrNotFound
	}
	p := Page{Last: r.run.Last, Ended: r.run.Ended}
	if after < 0 {
		after = 0
	}
	if after >= r.run.Last || max <= 0 {
		return p, nil
	}
	n := min(int64(max), r.run.Last-after)
	p.Entries = slices.Grow(into[:0], int(n))
	for pos := after + 1; pos <= after+n; pos++ {
		p.Entries = append(p.Entries, Entry{Pos: pos, Data: r.entry(pos - 1)})
	}
	return p, nil
}

// Watch implements Log.
func (m *Memory) Watch(key string) (<-chan int64, func()) {
	ch := make(chan int64, 1)
	m.mu.Lock()
	m.watchers[key] = append(m.watchers[key], ch)
	m.mu.Unlock()
	return ch, func() {
		m.mu.Lock()
		defer m.mu.Unlock()
		ws := m.watchers[key]
		if i := slices.Index(ws, ch); i >= 0 {
			ws = slices.Delete(ws, i, i+1)
		}
		if len(ws) == 0 {
			delete(m.watchers, key)
		} else {
			m.watchers[key] = ws
		}
	}
}

// notify signals key's watchers that the log is at position last (0:
// it has ended). A watcher whose signal is pending keeps it: it reads
// what followed too. The caller holds m.mu.
func (m *Memory) notify(key string, last int64) {
	for _, ch := range m.watchers[key] {
		select {
		case ch <- last:
		default:
		}
	}
}

// Len reports how many runs' logs m holds, in progress and ended.
func (m *Memory) Len() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.runs)
}
