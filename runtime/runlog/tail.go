package runlog

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// DefaultPageSize is how many entries Tail reads at a time unless
// TailConfig says otherwise. The pages a follower reads one after another
// are written together, in one write once it has caught up (or
// MaxQueuedBytes are queued), so a small page costs no write: it costs
// a run's follower the headers of 64 entries, not of every entry a batch
// appended (a tenth of what a resumable run allocated, at 512).
const DefaultPageSize = 64

// MaxQueuedBytes is how many bytes of entries Tail queues before it
// flushes them: what a reader that stops reading holds beyond the log.
const MaxQueuedBytes = 32 << 10

// TailConfig is how Tail hands over what it reads.
type TailConfig struct {
	// Emit queues one entry for the reader.
	Emit func(e Entry) error
	// Flush writes what Emit queued; Tail calls it once it has caught up
	// with the log or has queued MaxQueuedBytes, and (unless Starting)
	// before it first waits for entries, so a reader learns the stream is
	// open though none come.
	Flush func() error
	// KeepAlive, when not 0, calls OnIdle when nothing was sent for that
	// long, then Flush.
	KeepAlive time.Duration
	OnIdle    func()
	// PageSize is how many entries a Read returns at most (0:
	// DefaultPageSize).
	PageSize int
	// Starting says the run's first entries are on their way (a stream
	// that starts with the run): Tail then waits for them before its first
	// Flush, which sends them with whatever the reader's first write holds
	// (a response's header), rather than flushing before it first waits.
	Starting bool
	// Lost, when not nil and the log has Liveness, is the final entry
	// Tail ends a lost run's log with (an error event saying so), which
	// the reader then gets as the run's end.
	Lost func() []byte
}

// Tail hands over the entries of run key after position after, in
// order, as they are appended, and returns the position of the last it
// handed over, with nil once the log has ended and all of it was handed
// over; the cause of ctx once it is done; ErrNotFound when the log is not
// (or no longer) held; or the error of Emit or Flush.
func Tail(ctx context.Context, log Log, key string, after int64, cfg TailConfig) (int64, error) {
	size := cfg.PageSize
	if size <= 0 {
		size = DefaultPageSize
	}
	// Watched before the first read: an append between the read and the
	// wait still wakes it.
	signal, stop := log.Watch(key)
	defer stop()
	var idle <-chan time.Time
	if cfg.KeepAlive > 0 && cfg.OnIdle != nil {
		t := time.NewTicker(cfg.KeepAlive)
		defer t.Stop()
		idle = t.C
	}
	// A run whose writer died sends nothing more: a reader that waits
	// reads again every lapse to learn whether it was lost.
	liveness, _ := log.(Liveness)
	if cfg.Lost == nil {
		liveness = nil
	}
	var recheck <-chan time.Time
	if liveness != nil {
		t := time.NewTicker(liveness.Lapse())
		defer t.Stop()
		recheck = t.C
	}
	// Reused: a follower reads without allocating, and a later follower
	// takes its page over.
	pp := pages.Get().(*[]Entry)
	page := *pp
	defer func() {
		if cap(page) <= maxPooledPage {
			clear(page[:cap(page)]) // the entries' bytes are the log's
			*pp = page[:0]
			pages.Put(pp)
		}
	}()
	flushed := false
	queued, pending := 0, false // bytes emitted and not yet flushed, and whether any entry was
	for {
		if err := ctx.Err(); err != nil {
			return after, context.Cause(ctx)
		}
		p, err := log.Read(ctx, key, after, size, page)
		if err != nil {
			return after, err
		}
		page = p.Entries
		for _, e := range p.Entries {
			if e.Pos != after+1 {
				// A log that skips or repeats a position is broken: stop
				// rather than send a stream with a hole in it.
				return after, errGap(after, e.Pos)
			}
			if err := cfg.Emit(e); err != nil {
				return after, err
			}
			after, pending = e.Pos, true
			if queued += len(e.Data); queued >= MaxQueuedBytes {
				// Written before more is queued: a reader that stops
				// reading holds this much beyond the log, whatever the
				// page size.
				if err := cfg.Flush(); err != nil {
					return after, err
				}
				queued, pending = 0, false
			}
		}
		if len(p.Entries) > 0 && after < p.Last {
			continue // more to read now, and to write with this
		}
		if pending {
			if err := cfg.Flush(); err != nil {
				return after, err
			}
			queued, pending, flushed = 0, false, true
		}
		if after >= p.Last {
			if p.Ended {
				return after, nil
			}
			if p.Lapsed && liveness != nil {
				// Ended here or by another reader: the next read has the
				// end. Not ended: its writer renewed the mark meanwhile.
				ended, err := liveness.EndLost(ctx, key, cfg.Lost())
				if err != nil {
					return after, err
				}
				if ended {
					continue
				}
			}
		}
		if !flushed && !cfg.Starting {
			if err := cfg.Flush(); err != nil {
				return after, err
			}
			flushed = true
		}
		select {
		case <-recheck:
		case <-signal:
		case <-ctx.Done():
			return after, context.Cause(ctx)
		case <-idle:
			cfg.OnIdle()
			if err := cfg.Flush(); err != nil {
				return after, err
			}
		}
	}
}

// pages holds the pages of entries' headers that followers read into, up
// to maxPooledPage entries each.
var pages = sync.Pool{New: func() any { return new([]Entry) }}

const maxPooledPage = 4 * DefaultPageSize

type gapError struct{ after, got int64 }

func errGap(after, got int64) error { return &gapError{after, got} }

func (e *gapError) Error() string {
	return fmt.Sprintf("runlog: the log returned position %d after %d", e.got, e.after)
}
