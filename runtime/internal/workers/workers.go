// Package workers runs functions on goroutines that outlive them for a
// while, waiting for the next: a goroutine that writes to a SQL database
// grows its stack to the driver's depth, which a new goroutine for every
// write would grow again (a tenth of a resumable run's CPU on SQLite).
package workers

import (
	"sync/atomic"
	"time"
)

// Pool runs functions on its idle goroutines, or new ones. The zero value
// is not usable: make one with New.
type Pool struct {
	idle    chan func()
	linger  time.Duration
	started atomic.Int64 // goroutines started, for tests
}

// New returns a pool whose goroutines wait linger for the next function
// before they exit: long enough for the next write of a busy server,
// short enough that a burst's goroutines do not outlast it for long.
func New(linger time.Duration) *Pool {
	return &Pool{idle: make(chan func()), linger: linger}
}

// Run runs f on an idle goroutine of the pool, or a new one, and returns
// without waiting for it.
func (p *Pool) Run(f func()) {
	select {
	case p.idle <- f:
	default:
		p.started.Add(1)
		go p.work(f)
	}
}

func (p *Pool) work(f func()) {
	t := time.NewTimer(p.linger)
	defer t.Stop()
	for {
		f()
		t.Reset(p.linger)
		select {
		case f = <-p.idle:
		case <-t.C:
			return
		}
	}
}
