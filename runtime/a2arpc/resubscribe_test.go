package a2arpc

import (
	"context"
	"errors"
	"iter"
	"slices"
	"testing"
	"time"
)

// fakeStream yields events named by their ids, telling the caller each id
// as a transport does (WithEventIDs), then fails with err (nil: ends).
func fakeStream(ctx context.Context, ids []string, err error) iter.Seq2[string, error] {
	return func(yield func(string, error) bool) {
		for _, id := range ids {
			if f := EventIDs(ctx); f != nil {
				f(id)
			}
			if !yield("event "+id, nil) {
				return
			}
		}
		if err != nil {
			yield("", err)
		}
	}
}

// TestResubscription: a stream that drops while its task has more is
// continued after the last event's id, as often as it drops, its events
// yielded once each; one that cannot be continued yields why.
func TestResubscription(t *testing.T) {
	dropped := errors.New("connection reset")
	refusal := errors.New("task not found")
	run := func(r *Resubscription[string], first []string, firstErr error) (events []string, afters []string, err error) {
		sub := r.Subscribe
		r.Subscribe = func(ctx context.Context) iter.Seq2[string, error] {
			afters = append(afters, LastEventID(ctx))
			return sub(ctx)
		}
		r.Backoff = time.Millisecond
		for ev, e := range r.Stream(context.Background(), func(ctx context.Context) iter.Seq2[string, error] { return fakeStream(ctx, first, firstErr) }) {
			if e != nil {
				return events, afters, e
			}
			events = append(events, ev)
		}
		return events, afters, nil
	}
	more := func(err error) bool { return err != nil }
	never := func(error) bool { return false }

	// Two drops, each continued after the last id; the last stream ends.
	subs := [][]string{{"3", "4"}, {"5"}}
	r := &Resubscription[string]{More: more, Refused: never, Subscribe: func(ctx context.Context) iter.Seq2[string, error] {
		next := subs[0]
		subs = subs[1:]
		if len(subs) > 0 {
			return fakeStream(ctx, next, dropped)
		}
		return fakeStream(ctx, next, nil)
	}}
	events, afters, err := run(r, []string{"1", "2"}, dropped)
	if err != nil || !slices.Equal(events, []string{"event 1", "event 2", "event 3", "event 4", "event 5"}) || !slices.Equal(afters, []string{"2", "4"}) {
		t.Errorf("continued: %v after %v, %v", events, afters, err)
	}

	// A clean end while more is to come, with no id: not continued.
	r = &Resubscription[string]{More: func(error) bool { return true }, Refused: never,
		Subscribe: func(ctx context.Context) iter.Seq2[string, error] { return fakeStream(ctx, nil, nil) }}
	if _, afters, err := run(r, nil, nil); !errors.Is(err, ErrStreamEnded) || len(afters) != 0 {
		t.Errorf("an early end without ids: %v, resubscribed after %v", err, afters)
	}

	// A refusal ends it with the refusal; so do too many drops in a row.
	r = &Resubscription[string]{More: more, Refused: func(err error) bool { return err == refusal },
		Subscribe: func(ctx context.Context) iter.Seq2[string, error] { return fakeStream(ctx, nil, refusal) }}
	if _, afters, err := run(r, []string{"1"}, dropped); err != refusal || len(afters) != 1 {
		t.Errorf("a refused resubscription: %v after %v", err, afters)
	}
	r = &Resubscription[string]{More: more, Refused: never, Attempts: 3,
		Subscribe: func(ctx context.Context) iter.Seq2[string, error] { return fakeStream(ctx, nil, dropped) }}
	if _, afters, err := run(r, []string{"1"}, dropped); err != dropped || len(afters) != 3 {
		t.Errorf("drops in a row: %v after %d resubscriptions, want 3", err, len(afters))
	}

	// The first event of a continuation may be refused.
	whole := errors.New("the whole task again")
	r = &Resubscription[string]{More: more, Refused: never,
		Subscribe:    func(ctx context.Context) iter.Seq2[string, error] { return fakeStream(ctx, []string{"1"}, nil) },
		Resubscribed: func(first, after string) error { return whole }}
	if events, _, err := run(r, []string{"1"}, dropped); err != whole || len(events) != 1 {
		t.Errorf("a refused continuation: %v, %v", events, err)
	}

	// A context done during the wait ends it with the context's cause.
	ctx, cancel := context.WithCancelCause(context.Background())
	gone := errors.New("the run was cancelled")
	r = &Resubscription[string]{More: more, Refused: never, Backoff: time.Hour,
		Subscribe: func(ctx context.Context) iter.Seq2[string, error] { t.Error("resubscribed after a cancel"); return nil }}
	go func() { time.Sleep(10 * time.Millisecond); cancel(gone) }()
	var got error
	for _, e := range r.Stream(ctx, func(ctx context.Context) iter.Seq2[string, error] { return fakeStream(ctx, []string{"1"}, dropped) }) {
		got = e
	}
	if !errors.Is(got, gone) {
		t.Errorf("a cancel during the wait: %v", got)
	}
}
