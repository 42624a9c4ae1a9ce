package inflight

import (
	"context"
	"errors"
	"testing"
)

// stopRecorder is a run's stream that records the state of the run's
// context when it is stopped.
type stopRecorder struct {
	ctx     context.Context
	stopped error // the error Stop was given
	ctxErr  error // ctx.Err() then
}

func (s *stopRecorder) Stop(err error) { s.stopped, s.ctxErr = err, s.ctx.Err() }

// TestCancelCancelsTheContextFirst: a cancel cancels the run's context
// before it stops the stream, whether the stream was attached before the
// cancel or after it: an agent whose call the stopped stream refuses finds
// its context cancelled, with ErrCancelled as the cause.
func TestCancelCancelsTheContextFirst(t *testing.T) {
	for _, attachFirst := range []bool{true, false} {
		ctx, cancel := context.WithCancelCause(context.Background())
		var rs Registry
		run := NewRun(Key{"t", "r"}, "caller", cancel)
		if ok, _ := rs.Add(run); !ok {
			t.Fatal("not added")
		}
		stream := &stopRecorder{ctx: ctx}
		if attachFirst && !rs.Attach(run.Key, stream) {
			t.Fatal("not attached")
		}
		if !rs.Cancel(run.Key, "caller") {
			t.Fatal("the caller's cancel was refused")
		}
		if !attachFirst && !rs.Attach(run.Key, stream) {
			t.Fatal("not attached")
		}
		if !errors.Is(stream.stopped, ErrCancelled) || stream.ctxErr == nil {
			t.Errorf("attached first %v: the stream was stopped with %v while the context's error was %v", attachFirst, stream.stopped, stream.ctxErr)
		}
		if !errors.Is(context.Cause(ctx), ErrCancelled) {
			t.Errorf("the context's cause: %v", context.Cause(ctx))
		}
		select {
		case <-run.Stopped():
		default:
			t.Error("Stopped is not closed after the cancel")
		}
	}
}

// TestCancelIsTheCallersOwn: another caller's cancel, or one of a run
// not in progress, is refused and stops nothing.
func TestCancelIsTheCallersOwn(t *testing.T) {
	ctx, cancel := context.WithCancelCause(context.Background())
	var rs Registry
	run := NewRun(Key{"t", "r"}, "caller", cancel)
	rs.Add(run)
	if rs.Cancel(run.Key, "someone else") || rs.Cancel(Key{"t", "other"}, "caller") {
		t.Fatal("a cancel that is not the caller's own was accepted")
	}
	if ctx.Err() != nil {
		t.Fatal("a refused cancel cancelled the run")
	}
	rs.End(run.Key)
	if rs.Cancel(run.Key, "caller") {
		t.Error("a cancel after the agent returned was accepted")
	}
}
