// Package inflight is the registry of the AG-UI runs a handler is serving:
// one run per thread and run id at a time, how many runs each thread has
// in progress (a resume must not race another run of its thread), and the
// cancel of a run by the caller who started it.
package inflight

import (
	"context"
	"errors"
	"sync"
)

// ErrCancelled is the cause of a run's context when a cancel request
// stopped it; the agent's stream calls return it from then on.
var ErrCancelled = errors.New("agui: the run was cancelled")

// Key names a run: run ids are chosen by clients, so they are unique
// within a thread at most.
type Key struct{ ThreadID, RunID string }

// Run is a run in progress.
type Run struct {
	Key Key
	// Caller is who started the run: the only caller who may cancel it.
	Caller string
	// Resumes is set when the run answers its thread's open interrupts;
	// the handler's, before the run streams.
	Resumes bool

	stopped chan struct{} // closed once a cancel has stopped the run
	cancel  context.CancelCauseFunc

	// Guarded by Registry.mu.
	stream    Stopper // nil until the run streams
	cancelled bool    // a cancel was accepted
	returned  bool    // the agent has returned: too late to cancel
	left      bool    // no longer counted in its thread's runs
}

// NewRun is a run of key that caller started, whose context cancel
// cancels.
func NewRun(key Key, caller string, cancel context.CancelCauseFunc) *Run {
	return &Run{Key: key, Caller: caller, stopped: make(chan struct{}), cancel: cancel}
}

// Stopped is closed once a cancel has stopped the run's stream and
// context.
func (r *Run) Stopped() <-chan struct{} { return r.stopped }

// Registry holds the runs in progress; the zero value is empty and ready.
type Registry struct {
	mu      sync.Mutex
	active  map[Key]*Run
	threads map[string]int // runs in progress per thread
}

// Add registers a run; ok is false when a run with its key is in progress.
// threadBusy reports whether another run of its thread was: a resume
// decided after Add is then safe from a concurrent resume of the same
// interrupts, since one of the two sees the other.
func (rs *Registry) Add(run *Run) (ok, threadBusy bool) {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	if rs.active == nil {
		rs.active, rs.threads = map[Key]*Run{}, map[string]int{}
	}
	if rs.active[run.Key] != nil {
		return false, false
	}
	rs.active[run.Key] = run
	rs.threads[run.Key.ThreadID]++
	return true, rs.threads[run.Key.ThreadID] > 1
}

// Remove forgets a run.
func (rs *Registry) Remove(key Key) {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	rs.leaveThread(rs.active[key])
	delete(rs.active, key)
}

// Leave stops counting a run among its thread's runs in progress: once
// its end is settled, a resume sent on its terminal event must not find
// the thread busy.
func (rs *Registry) Leave(key Key) {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	rs.leaveThread(rs.active[key])
}

// leaveThread is Leave for a caller holding rs.mu.
func (rs *Registry) leaveThread(run *Run) {
	if run == nil || run.left {
		return
	}
	run.left = true
	if rs.threads[run.Key.ThreadID]--; rs.threads[run.Key.ThreadID] == 0 {
		delete(rs.threads, run.Key.ThreadID)
	}
}

// Stopper is a run's stream, which a cancel stops: from then on nothing
// the agent emits goes out, and its calls return err.
type Stopper interface{ Stop(err error) }

// Attach gives a cancel the run's stream to stop; a cancel accepted before
// the run streamed stops it now.
//
// It reports whether the run is still in progress: a handler that gave up
// on its client before the run streamed has ended it, and its agent must
// not start.
func (rs *Registry) Attach(key Key, stream Stopper) bool {
	rs.mu.Lock()
	run := rs.active[key]
	if run == nil || run.returned {
		rs.mu.Unlock()
		return false
	}
	run.stream = stream
	cancelled := run.cancelled
	rs.mu.Unlock()
	if cancelled {
		stream.Stop(ErrCancelled)
	}
	return true
}

// End closes the run to cancels, once its agent has returned or been
// stopped, and reports whether a cancel was accepted first.
func (rs *Registry) End(key Key) (cancelled bool) {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	run := rs.active[key]
	run.returned = true
	return run.cancelled
}

// Cancel stops a run of caller's whose agent is still running: once it
// returns true, nothing the agent emits from then on goes out (a call
// already writing, held up by a slow client, may finish), and the agent's
// context is cancelled. It is false when caller has no such run.
func (rs *Registry) Cancel(key Key, caller string) bool {
	rs.mu.Lock()
	run := rs.active[key]
	if run == nil || run.returned || run.Caller != caller {
		rs.mu.Unlock()
		return false
	}
	first := !run.cancelled
	run.cancelled = true
	stream := run.stream
	rs.mu.Unlock()
	if first {
		// The context first: an agent whose stream call fails on the
		// stop finds its context cancelled (ctx.Err() and the cause
		// ErrCancelled), never a refused event and a live context.
		run.cancel(ErrCancelled)
		if stream != nil {
			stream.Stop(ErrCancelled)
		}
		close(run.stopped)
	}
	<-run.stopped
	return true
}
