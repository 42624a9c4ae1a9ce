package a2atask

import (
	"context"
	"time"

	a2a "github.com/agui-gen/agui-gen/gen/a2a"
	"github.com/agui-gen/agui-gen/runtime/outbox"
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
//
// Its methods other than PushConfigs' are runtime/outbox's Claims, keyed by
// task ID: ClaimPushes, PushesDelivered, ReleasePushes and OwedPushes.
type PushOutbox interface {
	PushConfigs
	outbox.Claims
}

// pusher delivers the notifications an outbox owes (runtime/outbox): a
// task's at a time in a goroutine of its own, started when this runtime
// writes an event and by the sweep for what other processes left owed.
type pusher = outbox.Deliverer[Event, *a2a.TaskPushNotificationConfig]

func newPusher(rt *Runtime, configs PushConfigs, sender *PushSender) *pusher {
	var claims outbox.Claims // nil: the deliverer keeps them in memory
	if o, ok := configs.(PushOutbox); ok {
		claims = o
	}
	// A claim outlasts one post that retries until it gives up, with a
	// lease's margin: it is renewed between posts.
	return outbox.NewDeliverer(rt.ctx, &rt.running, claims, rt.lease+sender.Longest(), rt.lease/3, outbox.Source[Event, *a2a.TaskPushNotificationConfig]{
		Events:     rt.store.Events,
		Generation: func(e Event) int64 { return e.Generation },
		Targets:    configs.PushConfigs,
		Post: func(ctx context.Context, taskID string, cfg *a2a.TaskPushNotificationConfig, e Event) error {
			pctx, span := rt.obs.startPush(ctx, rt.runTrace(taskID), taskID, cfg)
			err := sender.Send(pctx, cfg, e.Payload)
			rt.obs.endPush(span, err)
			if err != nil && ctx.Err() == nil {
				rt.logger.Warn("a2atask: push notification failed", "task", taskID, "config", cfg.ID, "url", redact(cfg.URL), "err", err)
			}
			return err
		},
		Failed: func(taskID string, err error) {
			rt.unavailable(err)
			rt.logger.Warn("a2atask: delivering push notifications", "task", taskID, "err", err)
		},
	})
}

// sweepPushes delivers what is owed and held by no claim.
func (rt *Runtime) sweepPushes(now time.Time) {
	if err := rt.pushes.Sweep(now); err != nil {
		rt.unavailable(err)
	}
}
