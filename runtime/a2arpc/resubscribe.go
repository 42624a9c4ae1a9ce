package a2arpc

import (
	"context"
	"errors"
	"iter"
	"time"

	"github.com/agui-gen/agui-gen/runtime/backoff"
)

// ErrStreamEnded is the error a Resubscription yields for a stream that
// ended while more was to come, and could not be continued.
var ErrStreamEnded = errors.New("a2a: the stream ended before its task settled")

// Resubscription continues a stream that drops before its task settles:
// it subscribes again (SubscribeToTask), naming the id of the last event
// received (WithLastEventID), so that the server sends the events after
// it, none twice. A stream whose events have no ids (gRPC, or a server
// that names none) is not continued: a subscription without an id starts
// with the task as it is, which would show again what was shown.
type Resubscription[R any] struct {
	// Subscribe opens the stream that continues the task; ctx carries the
	// last event's id.
	Subscribe func(ctx context.Context) iter.Seq2[R, error]
	// More reports whether the task has more to send after its stream
	// ended (err nil) or failed with err: it has not settled.
	More func(err error) bool
	// Refused reports whether err is the server's answer that asking again
	// will not help (a 4xx-class error).
	Refused func(err error) bool
	// Resubscribed, when not nil, is told the first event of each
	// continuation, after event id after, before it is yielded; an error
	// (a server that answered with the whole task) ends the stream with it.
	Resubscribed func(first R, after string) error
	// Attempts bounds the resubscriptions in a row, with no event between
	// them (0: DefaultResubscribeAttempts; negative: none). Backoff is the
	// wait before the first of a series (0: DefaultResubscribeBackoff),
	// doubled for each next one up to MaxBackoff (0:
	// DefaultMaxResubscribeBackoff).
	Attempts            int
	Backoff, MaxBackoff time.Duration
}

// The defaults of a Resubscription: five resubscriptions in a row, the
// first after 100 ms, the waits doubling up to 2 s.
const (
	DefaultResubscribeAttempts   = 5
	DefaultResubscribeBackoff    = 100 * time.Millisecond
	DefaultMaxResubscribeBackoff = 2 * time.Second
)

// Stream yields the events of the stream open opens and, each time it
// drops while More, those of a resubscription, until a stream ends with
// nothing more to come. It yields an error, last, when a stream fails
// and is not continued (that error), ends early and is not continued
// (ErrStreamEnded), or ctx ends during a wait (its cause).
func (r *Resubscription[R]) Stream(ctx context.Context, open func(ctx context.Context) iter.Seq2[R, error]) iter.Seq2[R, error] {
	return func(yield func(R, error) bool) {
		var lastID, after string
		ctx := WithEventIDs(ctx, func(id string) { lastID = id })
		stream, attempts, resumed := open(ctx), 0, false
		var zero R
		limit, wait, maxWait := r.Attempts, r.Backoff, r.MaxBackoff
		if limit == 0 {
			limit = DefaultResubscribeAttempts
		}
		if wait <= 0 {
			wait = DefaultResubscribeBackoff
		}
		if maxWait <= 0 {
			maxWait = DefaultMaxResubscribeBackoff
		}
		for {
			var streamErr error
			for ev, err := range stream {
				if err != nil {
					streamErr = err
					break
				}
				if resumed && r.Resubscribed != nil {
					if err := r.Resubscribed(ev, after); err != nil {
						yield(zero, err)
						return
					}
				}
				resumed, attempts = false, 0
				if !yield(ev, nil) {
					return
				}
			}
			if ctx.Err() != nil || !r.More(streamErr) {
				if streamErr != nil {
					yield(zero, streamErr)
				}
				return
			}
			if lastID == "" || streamErr != nil && r.Refused(streamErr) || attempts >= limit {
				if streamErr == nil {
					streamErr = ErrStreamEnded
				}
				yield(zero, streamErr)
				return
			}
			if !backoff.Sleep(ctx, backoff.Delay(wait, maxWait, attempts)) {
				yield(zero, context.Cause(ctx))
				return
			}
			attempts, resumed, after = attempts+1, true, lastID
			stream = r.Subscribe(WithLastEventID(ctx, lastID))
		}
	}
}
