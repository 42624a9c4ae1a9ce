// Package outage holds how a runtime outlasts a store that is unavailable
// for a while (a database restarting, a lost connection): it tries again,
// with pauses that double up to LastPause, and remembers when the store was
// last found down, so that what depends on the store having been up (a
// sweep of leases that no process could renew meanwhile) can wait.
package outage

import (
	"context"
	"sync/atomic"
	"time"
)

// The pauses between tries of a call that failed because the store is
// unavailable: doubling from the first to the last, which is kept until
// the store is back, so that a caller notices the store's return within
// that time.
const (
	FirstPause = 50 * time.Millisecond
	LastPause  = time.Second
)

// Health remembers when a store was last found unavailable. The zero value
// is ready.
type Health struct{ lastDown atomic.Int64 } // Unix nanoseconds

// Down records that the store was found unavailable at at.
func (h *Health) Down(at time.Time) { h.lastDown.Store(at.UnixNano()) }

// Since reports how long before now the store was last found unavailable,
// or false when it never was.
func (h *Health) Since(now time.Time) (time.Duration, bool) {
	last := h.lastDown.Load()
	if last == 0 {
		return 0, false
	}
	return now.Sub(time.Unix(0, last)), true
}

// A Watch is what Outlast tells of the errors it meets.
type Watch interface {
	// Unavailable reports whether err says that the store is unavailable
	// (and may record it: Health.Down).
	Unavailable(err error) bool
	// Waiting is told of the first unavailable error of an Outlast, to log
	// it.
	Waiting(err error)
}

// Outlast calls op until it succeeds, fails with an error that w does not
// report as the store's being unavailable, or ctx ends, pausing between
// tries. It returns op's last error.
func Outlast(ctx context.Context, w Watch, op func() error) error {
	pause := FirstPause
	told := false
	for {
		err := op()
		if err == nil || !w.Unavailable(err) {
			return err
		}
		if !told {
			w.Waiting(err)
			told = true
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(pause):
		}
		pause = min(2*pause, LastPause)
	}
}
