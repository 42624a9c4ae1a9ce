package a2atask

import (
	"context"
	"time"

	a2a "github.com/agui-gen/agui-gen/gen/a2a"
	"github.com/agui-gen/agui-gen/runtime/webhook"
)

// PushConfigs keeps the push notification configs of tasks (A2A §4.3).
type PushConfigs interface {
	// SavePushConfig stores a config, replacing one of the same task and ID.
	SavePushConfig(ctx context.Context, cfg *a2a.TaskPushNotificationConfig) error
	// PushConfigs returns the configs of a task, ordered by ID.
	PushConfigs(ctx context.Context, taskID string) ([]*a2a.TaskPushNotificationConfig, error)
	// DeletePushConfig removes a config; it reports whether there was one.
	DeletePushConfig(ctx context.Context, taskID, id string) (bool, error)
}

// NotificationTokenHeader carries a config's token on every notification,
// for the receiver to check that it comes from the agent. The spec names no
// header: a2a-go sends this one, and LegacyNotificationTokenHeader is the one
// @a2a-js/sdk, a2a-python and Koog send and their receivers read, so every
// notification carries both.
const (
	NotificationTokenHeader       = webhook.TokenHeader
	LegacyNotificationTokenHeader = webhook.LegacyTokenHeader
)

// errBlockedTarget is behind a notification refused for where it goes.
var errBlockedTarget = webhook.ErrBlockedTarget

// PushSender posts task events to the webhooks of push notification
// configs: the event as a StreamResponse in JSON, the config's token in
// A2A-Notification-Token and X-A2A-Notification-Token, its authentication
// in Authorization, through runtime/webhook's Sender. A failed post is
// retried with exponential backoff when the failure may pass (a network
// error, 5xx, 429), never for another 4xx.
type PushSender struct{ *webhook.Sender }

// PushOption configures a PushSender.
type PushOption = webhook.Option

// WithPushTelemetry writes the trace context of each notification's
// span (the task's run, when this process runs it) on its request
// (traceparent) with t's propagator (default: the global one).
func WithPushTelemetry(t *a2a.Telemetry) PushOption { return webhook.WithTelemetry(t) }

// WithAttempts sets how many times a notification is tried (default 5)
// and the pause before the second try, doubled for each after (default
// 500 ms).
func WithAttempts(n int, backoff time.Duration) PushOption { return webhook.WithAttempts(n, backoff) }

// WithPrivateNetworks allows webhooks on loopback, private and link-local
// addresses, which are refused by default so that a client cannot make the
// agent call into its own network (SSRF). For tests and closed networks.
func WithPrivateNetworks() PushOption { return webhook.WithPrivateNetworks() }

// WithPushTimeout bounds each post (default 10 s).
func WithPushTimeout(d time.Duration) PushOption { return webhook.WithTimeout(d) }

// NewPushSender returns a sender.
func NewPushSender(opts ...PushOption) *PushSender {
	return &PushSender{webhook.NewSender(opts...)}
}

// Send posts one event to one webhook, retrying as the type says.
func (s *PushSender) Send(ctx context.Context, cfg *a2a.TaskPushNotificationConfig, event *a2a.StreamResponse) error {
	t := webhook.Target{URL: cfg.URL, Token: cfg.Token}
	if a := cfg.Authentication; a != nil && a.Credentials != "" {
		t.Authorization = a.Scheme + " " + a.Credentials
	}
	return s.Sender.Send(ctx, t, event.AppendJSON(nil))
}

// redact keeps a webhook URL's scheme, host and path for a log, not the
// credentials its user information or query may hold.
func redact(raw string) string { return webhook.Redact(raw) }

// maxConfigsPerTask bounds the push notification configs of one task.
const maxConfigsPerTask = 10
