package a2atask

import (
	"context"
	"sync"
	"time"

	a2a "github.com/agui-gen/agui-gen/gen/a2a"
)

// A PushOutbox is a PushConfigs that owes push notifications in its
// store: the write that appends an event to a task with push configs
// records, in the same transaction, that the event's notifications are
// owed, and a holder claims the delivery of a task's notifications before
// it posts them, one holder at a time. So any replica sharing the store
// delivers what is owed, each task's events in order, and a process killed
// before or while posting leaves its deliveries owed, for the next holder
// (at least once: the event being posted at the kill is posted again).
// The SQL stores implement it. For any other PushConfigs the runtime keeps
// what is owed in its own memory, which a killed process loses.
type PushOutbox interface {
	PushConfigs
	// ClaimPushes gives holder the delivery of a task's owed notifications
	// until the given time, unless nothing is owed or another holder's claim
	// has not run out; it returns the generation of the last event
	// delivered. A holder may claim again what it holds.
	ClaimPushes(ctx context.Context, taskID, holder string, until time.Time) (delivered int64, ok bool, err error)
	// PushesDelivered records that holder has delivered the task's
	// notifications up to generation gen, and extends its claim until the
	// given time; it reports false, recording nothing, when the claim is no
	// longer holder's.
	PushesDelivered(ctx context.Context, taskID, holder string, gen int64, until time.Time) (bool, error)
	// ReleasePushes ends holder's claim when nothing more is owed; it
	// reports false, releasing nothing, when more is owed or the claim is
	// not holder's.
	ReleasePushes(ctx context.Context, taskID, holder string) (bool, error)
	// OwedPushes lists up to limit tasks that are owed notifications and
	// that no claim holds at t.
	OwedPushes(ctx context.Context, t time.Time, limit int) ([]string, error)
}

// pusher delivers the notifications an outbox owes: a task's at a time in
// a goroutine of its own, started when this runtime writes an event and by
// the sweep for what other processes left owed.
type pusher struct {
	rt     *Runtime
	outbox PushOutbox
	local  *localOutbox // outbox, when the runtime keeps it
	holder string       // this runtime, in the outbox's claims
	hold   time.Duration

	mu     sync.Mutex
	active map[string]bool // tasks being delivered; true when written again since
}

func newPusher(rt *Runtime, configs PushConfigs, sender *PushSender) *pusher {
	p := &pusher{rt: rt, holder: newID(), active: map[string]bool{}}
	if o, ok := configs.(PushOutbox); ok {
		p.outbox = o
	} else {
		p.local = &localOutbox{configs: configs, tasks: map[string]*owed{}}
		p.outbox = p.local
	}
	// A claim outlasts one post that retries until it gives up, with a
	// lease's margin: it is renewed between posts.
	p.hold = rt.lease + sender.longest()
	return p
}

// written records that this runtime wrote a task's event at generation
// gen, and delivers its notifications.
func (p *pusher) written(taskID string, gen int64) {
	if p.local != nil {
		p.local.owe(taskID, gen)
	}
	p.kick(taskID)
}

// kick delivers a task's owed notifications, or, when a delivery of them
// is under way here, has it look again once it is done.
func (p *pusher) kick(taskID string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if _, busy := p.active[taskID]; busy {
		p.active[taskID] = true
		return
	}
	p.active[taskID] = false
	p.rt.running.Add(1)
	go p.deliver(taskID)
}

// again ends a delivery, unless the task was written while it ran.
func (p *pusher) again(taskID string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.active[taskID] {
		p.active[taskID] = false
		return true
	}
	delete(p.active, taskID)
	return false
}

func (p *pusher) deliver(taskID string) {
	defer p.rt.running.Done()
	for {
		if err := p.drain(taskID); err != nil && p.rt.ctx.Err() == nil {
			// The claim stays until it runs out; the sweep then tries again.
			p.rt.unavailable(err)
			p.rt.logger.Warn("a2atask: delivering push notifications", "task", taskID, "err", err)
		}
		if !p.again(taskID) {
			return
		}
	}
}

// drain claims a task's owed notifications and posts them, in order,
// until nothing more is owed or the claim is lost.
func (p *pusher) drain(taskID string) error {
	ctx, o := p.rt.ctx, p.outbox
	delivered, ok, err := o.ClaimPushes(ctx, taskID, p.holder, time.Now().Add(p.hold))
	renewed := time.Now()
	for err == nil && ok {
		events, err := p.rt.store.Events(ctx, taskID, delivered)
		if err != nil {
			return err
		}
		for _, e := range events {
			cfgs, err := o.PushConfigs(ctx, taskID)
			if err != nil {
				return err
			}
			for i, cfg := range cfgs {
				if i > 0 && time.Since(renewed) > p.rt.lease/3 {
					// A claim lasts one post that gives up: renewed before the next.
					if ok, err := o.PushesDelivered(ctx, taskID, p.holder, delivered, time.Now().Add(p.hold)); err != nil || !ok {
						return err
					}
					renewed = time.Now()
				}
				pctx, span := p.rt.obs.startPush(ctx, p.rt.runTrace(taskID), taskID, cfg)
				err := p.rt.pushSender.Send(pctx, cfg, e.Payload)
				p.rt.obs.endPush(span, err)
				if err != nil {
					if ctx.Err() != nil {
						return nil // closing: the event stays owed
					}
					p.rt.logger.Warn("a2atask: push notification failed", "task", taskID, "config", cfg.ID, "url", redact(cfg.URL), "err", err)
				}
			}
			if ok, err := o.PushesDelivered(ctx, taskID, p.holder, e.Generation, time.Now().Add(p.hold)); err != nil || !ok {
				return err // the claim ran out and another holder took it
			}
			delivered, renewed = e.Generation, time.Now()
		}
		released, err := o.ReleasePushes(ctx, taskID, p.holder)
		if err != nil || released {
			return err
		}
		// More was owed meanwhile, written here or by another process: the
		// claim goes on, if it is still this runtime's.
		delivered, ok, err = o.ClaimPushes(ctx, taskID, p.holder, time.Now().Add(p.hold))
		renewed = time.Now()
	}
	return err
}

// sweep delivers what is owed and held by no claim: left by a process that
// stopped, or by a delivery that met an unavailable store.
func (p *pusher) sweep(now time.Time) {
	ids, err := p.outbox.OwedPushes(p.rt.ctx, now, 100)
	if err != nil {
		p.rt.unavailable(err)
		return
	}
	for _, id := range ids {
		p.kick(id)
	}
}

// localOutbox is the PushOutbox of a PushConfigs that is not one: what is
// owed is kept in memory, learnt from this runtime's own writes.
type localOutbox struct {
	configs PushConfigs
	mu      sync.Mutex
	tasks   map[string]*owed // the tasks owed notifications, or being delivered
}

type owed struct {
	owed, delivered int64
	holder          string
	until           time.Time
}

// owe records that a task's events up to gen are owed notifications.
func (o *localOutbox) owe(taskID string, gen int64) {
	o.mu.Lock()
	defer o.mu.Unlock()
	t := o.tasks[taskID]
	if t == nil {
		t = &owed{delivered: gen - 1}
		o.tasks[taskID] = t
	}
	t.owed = max(t.owed, gen)
}

// SavePushConfig, PushConfigs and DeletePushConfig are the configs'.
func (o *localOutbox) SavePushConfig(ctx context.Context, cfg *a2a.TaskPushNotificationConfig) error {
	return o.configs.SavePushConfig(ctx, cfg)
}

func (o *localOutbox) PushConfigs(ctx context.Context, taskID string) ([]*a2a.TaskPushNotificationConfig, error) {
	return o.configs.PushConfigs(ctx, taskID)
}

func (o *localOutbox) DeletePushConfig(ctx context.Context, taskID, id string) (bool, error) {
	return o.configs.DeletePushConfig(ctx, taskID, id)
}

// ClaimPushes implements PushOutbox.
func (o *localOutbox) ClaimPushes(_ context.Context, taskID, holder string, until time.Time) (int64, bool, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	t := o.tasks[taskID]
	if t == nil || t.delivered >= t.owed || (t.holder != holder && time.Now().Before(t.until)) {
		return 0, false, nil
	}
	t.holder, t.until = holder, until
	return t.delivered, true, nil
}

// PushesDelivered implements PushOutbox.
func (o *localOutbox) PushesDelivered(_ context.Context, taskID, holder string, gen int64, until time.Time) (bool, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	t := o.tasks[taskID]
	if t == nil || t.holder != holder {
		return false, nil
	}
	t.delivered, t.until = max(t.delivered, gen), until
	return true, nil
}

// ReleasePushes implements PushOutbox. A task with nothing owed is
// forgotten.
func (o *localOutbox) ReleasePushes(_ context.Context, taskID, holder string) (bool, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	t := o.tasks[taskID]
	if t == nil || t.holder != holder || t.delivered < t.owed {
		return false, nil
	}
	delete(o.tasks, taskID)
	return true, nil
}

// OwedPushes implements PushOutbox.
func (o *localOutbox) OwedPushes(_ context.Context, at time.Time, limit int) ([]string, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	var ids []string
	for id, t := range o.tasks {
		if len(ids) < limit && t.delivered < t.owed && !at.Before(t.until) {
			ids = append(ids, id)
		}
	}
	return ids, nil
}
