package runlog

import (
	"sync"
	"time"
)

// Lease counts the readers attached to a run in progress, and stops the
// run once no one has been attached for a while: a run that outlives its
// connection does not outlive every client for long.
type Lease struct {
	mu      sync.Mutex
	n       int
	timer   *time.Timer
	timeout time.Duration
	expire  func()
	closed  bool
	// elsewhere reports whether a reader is attached to the run in
	// another process (see Readers); nil: none can be.
	elsewhere func() bool
}

// NewLease returns the lease of a run that calls expire once no reader
// has been attached for timeout (never, when timeout is 0 or less). It
// starts detached: the first Attach stops its clock.
func NewLease(timeout time.Duration, expire func()) *Lease {
	l := &Lease{timeout: timeout, expire: expire}
	l.arm()
	return l
}

// arm starts the clock of a lease no one is attached to. The caller holds
// l.mu, or owns l.
func (l *Lease) arm() {
	if l.timeout <= 0 || l.closed {
		return
	}
	l.timer = time.AfterFunc(l.timeout, func() {
		l.mu.Lock()
		elsewhere := l.elsewhere
		l.mu.Unlock()
		// Asked without the lock: it may read a database.
		remote := elsewhere != nil && elsewhere()
		l.mu.Lock()
		fire := l.n == 0 && !l.closed && !remote
		l.closed = l.closed || fire
		if remote && l.n == 0 && !l.closed {
			l.arm() // attached in another process: the clock starts again
		}
		l.mu.Unlock()
		if fire {
			l.expire()
		}
	})
}

// AttachedElsewhere has the lease ask f, when its time is up, whether a
// reader follows the run in another process (Readers.HasReader), and if
// so start its clock again rather than expire: a client that resumed on
// another replica keeps the run going.
func (l *Lease) AttachedElsewhere(f func() bool) {
	l.mu.Lock()
	l.elsewhere = f
	l.mu.Unlock()
}

// Attach counts a reader until detach is called (more than once is
// once).
func (l *Lease) Attach() (detach func()) {
	l.mu.Lock()
	l.n++
	if l.n == 1 && l.timer != nil {
		l.timer.Stop()
		l.timer = nil
	}
	l.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			l.mu.Lock()
			if l.n--; l.n == 0 {
				l.arm()
			}
			l.mu.Unlock()
		})
	}
}

// Attached reports how many readers are attached.
func (l *Lease) Attached() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.n
}

// Close stops the lease of a run that has ended: expire is not called
// after it returns, unless it had already begun.
func (l *Lease) Close() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.closed = true
	if l.timer != nil {
		l.timer.Stop()
		l.timer = nil
	}
}
