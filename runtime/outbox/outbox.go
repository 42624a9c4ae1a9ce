// Package outbox delivers what a store owes: each key's (a task's) events
// to its targets (webhooks), in order, one holder at a time across the
// processes that share the store, at least once. A store that keeps Claims
// lets any replica deliver what another left owed; Memory keeps them in
// this process alone.
package outbox

import (
	"context"
	"crypto/rand"
	"sync"
	"time"
)

// Claims is what a store keeps of an outbox: the write that appends an
// event to a key with targets records, in the same transaction, that the
// event is owed, and a holder claims the delivery of a key's events before
// it posts them, one holder at a time. So any replica sharing the store
// delivers what is owed, each key's events in order, and a process killed
// before or while posting leaves its deliveries owed, for the next holder
// (at least once: the event being posted at the kill is posted again).
type Claims interface {
	// ClaimPushes gives holder the delivery of a key's owed events until
	// the given time, unless nothing is owed or another holder's claim has
	// not run out; it returns the generation of the last event delivered.
	// A holder may claim again what it holds.
	ClaimPushes(ctx context.Context, key, holder string, until time.Time) (delivered int64, ok bool, err error)
	// PushesDelivered records that holder has delivered the key's events
	// up to generation gen, and extends its claim until the given time; it
	// reports false, recording nothing, when the claim is no longer
	// holder's.
	PushesDelivered(ctx context.Context, key, holder string, gen int64, until time.Time) (bool, error)
	// ReleasePushes ends holder's claim when nothing more is owed; it
	// reports false, releasing nothing, when more is owed or the claim is
	// not holder's.
	ReleasePushes(ctx context.Context, key, holder string) (bool, error)
	// OwedPushes lists up to limit keys that are owed events and that no
	// claim holds at t.
	OwedPushes(ctx context.Context, t time.Time, limit int) ([]string, error)
}

// Memory is Claims kept in memory, learnt from this process's own writes
// (Owe), which a killed process loses. The zero value is ready.
type Memory struct {
	mu   sync.Mutex
	keys map[string]*owed // the keys owed events, or being delivered
}

type owed struct {
	owed, delivered int64
	holder          string
	until           time.Time
}

// Owe records that a key's events up to gen are owed.
func (m *Memory) Owe(key string, gen int64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.keys == nil {
		m.keys = map[string]*owed{}
	}
	k := m.keys[key]
	if k == nil {
		k = &owed{delivered: gen - 1}
		m.keys[key] = k
	}
	k.owed = max(k.owed, gen)
}

// Len is how many keys m remembers: owed events, or being delivered.
func (m *Memory) Len() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.keys)
}

// ClaimPushes implements Claims.
func (m *Memory) ClaimPushes(_ context.Context, key, holder string, until time.Time) (int64, bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	k := m.keys[key]
	if k == nil || k.delivered >= k.owed || (k.holder != holder && time.Now().Before(k.until)) {
		return 0, false, nil
	}
	k.holder, k.until = holder, until
	return k.delivered, true, nil
}

// PushesDelivered implements Claims.
func (m *Memory) PushesDelivered(_ context.Context, key, holder string, gen int64, until time.Time) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	k := m.keys[key]
	if k == nil || k.holder != holder {
		return false, nil
	}
	k.delivered, k.until = max(k.delivered, gen), until
	return true, nil
}

// ReleasePushes implements Claims. A key with nothing owed is forgotten.
func (m *Memory) ReleasePushes(_ context.Context, key, holder string) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	k := m.keys[key]
	if k == nil || k.holder != holder || k.delivered < k.owed {
		return false, nil
	}
	delete(m.keys, key)
	return true, nil
}

// OwedPushes implements Claims.
func (m *Memory) OwedPushes(_ context.Context, at time.Time, limit int) ([]string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var keys []string
	for key, k := range m.keys {
		if len(keys) < limit && k.delivered < k.owed && !at.Before(k.until) {
			keys = append(keys, key)
		}
	}
	return keys, nil
}

// Source is what a Deliverer delivers: the events E of a key, and the
// targets T each is posted to. Its functions are called with the
// Deliverer's context.
type Source[E, T any] struct {
	// Events returns a key's events after generation after, in order.
	Events func(ctx context.Context, key string, after int64) ([]E, error)
	// Generation is an event's generation.
	Generation func(E) int64
	// Targets returns the targets of a key, read again for each event.
	Targets func(ctx context.Context, key string) ([]T, error)
	// Post posts an event to a target. An error is logged by Post, and
	// the event counts as delivered all the same (Post retries what may
	// pass), unless the Deliverer's context has ended, which leaves it
	// owed.
	Post func(ctx context.Context, key string, target T, event E) error
	// Failed is told of a delivery that failed (a store error); the claim
	// stays until it runs out, and a Sweep then tries again.
	Failed func(key string, err error)
}

// A Deliverer delivers the events an outbox owes: a key's at a time in a
// goroutine of its own, started when this process writes an event
// (Written) and by Sweep for what other processes left owed.
type Deliverer[E, T any] struct {
	ctx     context.Context
	running *sync.WaitGroup
	claims  Claims
	local   *Memory // claims, when the Deliverer keeps them
	src     Source[E, T]
	holder  string // this process, in the claims
	hold    time.Duration
	renew   time.Duration

	mu     sync.Mutex
	active map[string]bool // keys being delivered; true when written again since
}

// NewDeliverer returns a Deliverer of src's events under claims, or, when
// claims is nil, under a Memory of its own. A claim lasts hold, and is
// renewed between posts once renew has passed since it last was: hold must
// outlast one Post that gives up, by renew's margin. Deliveries run in
// goroutines that running counts, until ctx ends.
func NewDeliverer[E, T any](ctx context.Context, running *sync.WaitGroup, claims Claims, hold, renew time.Duration, src Source[E, T]) *Deliverer[E, T] {
	d := &Deliverer[E, T]{ctx: ctx, running: running, claims: claims, src: src, holder: rand.Text(), hold: hold, renew: renew, active: map[string]bool{}}
	if claims == nil {
		d.local = new(Memory)
		d.claims = d.local
	}
	return d
}

// Local is the Memory the Deliverer keeps its claims in, or nil when a
// store keeps them.
func (d *Deliverer[E, T]) Local() *Memory { return d.local }

// Written records that this process wrote a key's event at generation gen,
// and delivers what is owed.
func (d *Deliverer[E, T]) Written(key string, gen int64) {
	if d.local != nil {
		d.local.Owe(key, gen)
	}
	d.kick(key)
}

// kick delivers a key's owed events, or, when a delivery of them is under
// way here, has it look again once it is done.
func (d *Deliverer[E, T]) kick(key string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if _, busy := d.active[key]; busy {
		d.active[key] = true
		return
	}
	d.active[key] = false
	d.running.Add(1)
	go d.deliver(key)
}

// again ends a delivery, unless the key was written while it ran.
func (d *Deliverer[E, T]) again(key string) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.active[key] {
		d.active[key] = false
		return true
	}
	delete(d.active, key)
	return false
}

func (d *Deliverer[E, T]) deliver(key string) {
	defer d.running.Done()
	for {
		if err := d.drain(key); err != nil && d.ctx.Err() == nil {
			d.src.Failed(key, err)
		}
		if !d.again(key) {
			return
		}
	}
}

// drain claims a key's owed events and posts them, in order, until
// nothing more is owed or the claim is lost.
func (d *Deliverer[E, T]) drain(key string) error {
	ctx, c := d.ctx, d.claims
	delivered, ok, err := c.ClaimPushes(ctx, key, d.holder, time.Now().Add(d.hold))
	renewed := time.Now()
	for err == nil && ok {
		events, err := d.src.Events(ctx, key, delivered)
		if err != nil {
			return err
		}
		for _, e := range events {
			targets, err := d.src.Targets(ctx, key)
			if err != nil {
				return err
			}
			for i, target := range targets {
				if i > 0 && time.Since(renewed) > d.renew {
					// A claim lasts one post that gives up: renewed before the next.
					if ok, err := c.PushesDelivered(ctx, key, d.holder, delivered, time.Now().Add(d.hold)); err != nil || !ok {
						return err
					}
					renewed = time.Now()
				}
				if err := d.src.Post(ctx, key, target, e); err != nil && ctx.Err() != nil {
					return nil // closing: the event stays owed
				}
			}
			gen := d.src.Generation(e)
			if ok, err := c.PushesDelivered(ctx, key, d.holder, gen, time.Now().Add(d.hold)); err != nil || !ok {
				return err // the claim ran out and another holder took it
			}
			delivered, renewed = gen, time.Now()
		}
		released, err := c.ReleasePushes(ctx, key, d.holder)
		if err != nil || released {
			return err
		}
		// More was owed meanwhile, written here or by another process: the
		// claim goes on, if it is still this process's.
		delivered, ok, err = c.ClaimPushes(ctx, key, d.holder, time.Now().Add(d.hold))
		renewed = time.Now()
	}
	return err
}

// Sweep delivers what is owed and held by no claim at now: left by a
// process that stopped, or by a delivery that met an unavailable store. It
// returns the error of the store that lists what is owed.
func (d *Deliverer[E, T]) Sweep(now time.Time) error {
	keys, err := d.claims.OwedPushes(d.ctx, now, 100)
	if err != nil {
		return err
	}
	for _, key := range keys {
		d.kick(key)
	}
	return nil
}
