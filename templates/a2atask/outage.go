package a2atask

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	a2a "github.com/agui-gen/agui-gen/gen/a2a"
	"github.com/agui-gen/agui-gen/runtime/outage"
)

// lastPause is the longest pause between tries of a store call that
// failed with ErrUnavailable (runtime/outage).
const lastPause = outage.LastPause

// errStoreUnavailable is what a caller is told when the store is
// unavailable and the request cannot wait for it: what happened, which
// passes, rather than an internal error. The A2A error table has no code
// for it (A2A §3.3.2 lists it among internal errors); its cause,
// a2a.Unavailable, has HTTP+JSON answer 503 with Retry-After.
var errStoreUnavailable = func() *a2a.RPCError {
	e := a2a.NewError(a2a.ErrInternal, "the task store is unavailable: try again shortly")
	e.Err = &a2a.Unavailable{RetryAfter: lastPause}
	return e
}()

// unavailable reports whether err says the store is unavailable, and
// records it.
func (rt *Runtime) unavailable(err error) bool {
	if !errors.Is(err, ErrUnavailable) {
		return false
	}
	rt.health.Down(time.Now())
	return true
}

// outlast calls op until it succeeds, fails with an error other than
// ErrUnavailable, or ctx ends, pausing between tries. It returns op's last
// error.
func (rt *Runtime) outlast(ctx context.Context, op func() error) error {
	return outage.Outlast(ctx, (*storeWatch)(rt), op)
}

// storeWatch is the runtime as outage.Outlast's Watch.
type storeWatch Runtime

func (w *storeWatch) Unavailable(err error) bool { return (*Runtime)(w).unavailable(err) }

func (w *storeWatch) Waiting(err error) {
	w.logger.Warn("a2atask: the task store is unavailable; trying again until it is back", "err", err)
}

// read makes a read for a caller who waits on it (a stream, a blocking
// SendMessage), tried again while the store is unavailable, for as long as
// the caller waits and WithStorePatience allows.
func (rt *Runtime) read(ctx context.Context, op func(context.Context) error) error {
	patient, cancel := context.WithTimeout(ctx, rt.patience)
	defer cancel()
	err := rt.outlast(patient, func() error { return op(patient) })
	if err != nil && patient.Err() != nil && ctx.Err() == nil {
		// The store has not answered in time: as unavailable as one that
		// refuses, for the caller.
		return fmt.Errorf("%w: no answer within %s: %w", ErrUnavailable, rt.patience, err)
	}
	return err
}

// update stores a run's change of its task, which the run read at
// generation prev, with its event: as the event alone when the store is an
// Appender (a run's changes are their events, ApplyEvent). A store that is unavailable is tried
// again until it is back or the runtime closes, so that an outage delays
// the run's work rather than losing it. A write whose answer the outage
// cut off may have been stored all the same: the conflict that the next
// try then meets is checked against the event the store holds at prev+1,
// which is this one, byte for byte, if the write was stored.
func (rt *Runtime) update(task *a2a.Task, prev int64, event *a2a.StreamResponse) (int64, error) {
	// Not the runtime's context, which Close cancels before the runs write
	// their last event; Close ends the tries.
	ctx := context.WithoutCancel(rt.ctx)
	var gen int64
	uncertain := false
	stamp(task, event, prev+1)
	appender, appends := rt.store.(Appender)
	err := rt.outlast(rt.ctx, func() error {
		var err error
		if appends {
			gen, err = appender.Append(ctx, task.ID, prev, event, task)
		} else {
			gen, err = rt.store.Update(ctx, task, prev, event)
		}
		if errors.Is(err, ErrConflict) && uncertain {
			var stored bool
			if stored, err = rt.stored(ctx, task.ID, prev+1, event); err == nil {
				if !stored {
					return ErrConflict
				}
				gen = prev + 1
			}
		}
		if errors.Is(err, ErrUnavailable) {
			uncertain = true
		}
		return err
	})
	return gen, err
}

// stored reports whether event is the one the store holds at generation
// gen of a task.
func (rt *Runtime) stored(ctx context.Context, id string, gen int64, event *a2a.StreamResponse) (bool, error) {
	events, err := rt.store.Events(ctx, id, gen-1)
	if err != nil || len(events) == 0 || events[0].Generation != gen {
		return false, err
	}
	return bytes.Equal(events[0].Payload.AppendProto(nil), event.AppendProto(nil)), nil
}

// explain turns a store that stayed unavailable into what the caller is
// told; other errors pass as they are.
func (rt *Runtime) explain(err *error) {
	if *err != nil && rt.unavailable(*err) {
		rt.logger.Warn("a2atask: a request failed: the task store is unavailable", "err", *err)
		*err = errStoreUnavailable
	}
}

// local is the set of tasks this runtime's executors are running.
type local struct {
	mu  sync.Mutex
	ids map[string]int
}

func (l *local) add(id string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.ids == nil {
		l.ids = map[string]int{}
	}
	l.ids[id]++
}

func (l *local) remove(id string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.ids[id]--; l.ids[id] <= 0 {
		delete(l.ids, id)
	}
}

func (l *local) has(id string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.ids[id] > 0
}
