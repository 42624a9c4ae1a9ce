package a2atask

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"syscall"
	"time"

	a2a "github.com/agui-gen/agui-gen/gen/a2a"
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
	NotificationTokenHeader       = "A2A-Notification-Token"
	LegacyNotificationTokenHeader = "X-A2A-Notification-Token"
)

// errBlockedTarget is behind a notification refused for where it goes.
var errBlockedTarget = errors.New("a2atask: push notifications to loopback, private and link-local addresses are refused")

// PushSender posts task events to the webhooks of push notification
// configs: the event as a StreamResponse in JSON, the config's token in
// A2A-Notification-Token and X-A2A-Notification-Token, its authentication
// in Authorization. A failed
// post is retried with exponential backoff when the failure may pass (a
// network error, 5xx, 429), never for another 4xx.
type PushSender struct {
	client   *http.Client
	attempts int
	backoff  time.Duration
	private  bool
	logger   *slog.Logger
	tel      *a2a.Telemetry
}

// PushOption configures a PushSender.
type PushOption func(*PushSender)

// WithPushTelemetry writes the trace context of each notification's
// span (the task's run, when this process runs it) on its request
// (traceparent) with t's propagator (default: the global one).
func WithPushTelemetry(t *a2a.Telemetry) PushOption { return func(s *PushSender) { s.tel = t } }

// WithAttempts sets how many times a notification is tried (default 5)
// and the pause before the second try, doubled for each after (default
// 500 ms).
func WithAttempts(n int, backoff time.Duration) PushOption {
	return func(s *PushSender) { s.attempts, s.backoff = n, backoff }
}

// WithPrivateNetworks allows webhooks on loopback, private and link-local
// addresses, which are refused by default so that a client cannot make the
// agent call into its own network (SSRF). For tests and closed networks.
func WithPrivateNetworks() PushOption { return func(s *PushSender) { s.private = true } }

// WithPushTimeout bounds each post (default 10 s).
func WithPushTimeout(d time.Duration) PushOption { return func(s *PushSender) { s.client.Timeout = d } }

// NewPushSender returns a sender.
func NewPushSender(opts ...PushOption) *PushSender {
	s := &PushSender{client: &http.Client{Timeout: 10 * time.Second}, attempts: 5, backoff: 500 * time.Millisecond, logger: slog.Default()}
	for _, o := range opts {
		o(s)
	}
	if !s.private {
		// The check is made on the address dialled, after resolution, so a
		// name that resolves to a private address is refused too.
		dialer := &net.Dialer{Timeout: 10 * time.Second, Control: func(_, address string, _ syscall.RawConn) error {
			host, _, err := net.SplitHostPort(address)
			if ip := net.ParseIP(host); err != nil || ip == nil || blocked(ip) {
				return fmt.Errorf("%w: %s", errBlockedTarget, address)
			}
			return nil
		}}
		s.client.Transport = &http.Transport{DialContext: dialer.DialContext, TLSHandshakeTimeout: 10 * time.Second, ForceAttemptHTTP2: true}
	}
	s.client.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if len(via) >= 3 {
			return errors.New("a2atask: too many redirects")
		}
		if req.URL.Host != via[0].URL.Host || req.URL.Scheme != via[0].URL.Scheme {
			// The credentials are for the host, and the scheme, they were given for.
			req.Header.Del(NotificationTokenHeader)
			req.Header.Del(LegacyNotificationTokenHeader)
			req.Header.Del("Authorization")
		}
		return nil
	}
	return s
}

func blocked(ip net.IP) bool {
	if ip.IsLoopback() || ip.IsPrivate() || ip.IsLinkLocalUnicast() || ip.IsLinkLocalMulticast() ||
		ip.IsInterfaceLocalMulticast() || ip.IsUnspecified() || ip.IsMulticast() {
		return true
	}
	addr, ok := netip.AddrFromSlice(ip)
	if !ok {
		return true
	}
	addr = addr.Unmap()
	for _, p := range specialPurpose {
		if p.Contains(addr) {
			return true
		}
	}
	return false
}

// specialPurpose are the ranges (RFC 6890 and later) that are neither
// private nor loopback but still reach inside a network: shared address
// space (cloud metadata services live there), NAT64, benchmarking, IETF
// protocol assignments, "this network" and the reserved block.
var specialPurpose = []netip.Prefix{
	netip.MustParsePrefix("0.0.0.0/8"), netip.MustParsePrefix("100.64.0.0/10"), netip.MustParsePrefix("192.0.0.0/24"),
	netip.MustParsePrefix("198.18.0.0/15"), netip.MustParsePrefix("240.0.0.0/4"), netip.MustParsePrefix("64:ff9b::/96"),
	netip.MustParsePrefix("64:ff9b:1::/48"), netip.MustParsePrefix("2001:db8::/32"),
}

// check refuses a webhook URL a config may not name: not http(s), or a
// literal address the sender would refuse.
func (s *PushSender) check(raw string) error {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return fmt.Errorf("push notification url %q is not an http(s) URL", raw)
	}
	if ip := net.ParseIP(u.Hostname()); !s.private && (u.Hostname() == "localhost" || (ip != nil && blocked(ip))) {
		return fmt.Errorf("push notification url %q: %w", raw, errBlockedTarget)
	}
	return nil
}

// Send posts one event to one webhook, retrying as the type says.
func (s *PushSender) Send(ctx context.Context, cfg *a2a.TaskPushNotificationConfig, event *a2a.StreamResponse) error {
	body := event.AppendJSON(nil)
	pause := s.backoff
	var err error
	for attempt := 1; attempt <= max(s.attempts, 1); attempt++ {
		var retry bool
		if retry, err = s.post(ctx, cfg, body); err == nil || !retry || attempt == s.attempts {
			break
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(pause):
		}
		pause *= 2
	}
	return err
}

func (s *PushSender) post(ctx context.Context, cfg *a2a.TaskPushNotificationConfig, body []byte) (retry bool, err error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, cfg.URL, bytes.NewReader(body))
	if err != nil {
		return false, err
	}
	req.Header.Set("Content-Type", "application/json")
	s.tel.Inject(ctx, req.Header)
	if cfg.Token != "" {
		req.Header.Set(NotificationTokenHeader, cfg.Token)
		req.Header.Set(LegacyNotificationTokenHeader, cfg.Token)
	}
	if a := cfg.Authentication; a != nil && a.Credentials != "" {
		req.Header.Set("Authorization", a.Scheme+" "+a.Credentials)
	}
	res, err := s.client.Do(req)
	if err != nil {
		return !errors.Is(err, errBlockedTarget), err
	}
	io.Copy(io.Discard, io.LimitReader(res.Body, 64<<10))
	res.Body.Close()
	if res.StatusCode/100 == 2 {
		return false, nil
	}
	return res.StatusCode >= 500 || res.StatusCode == http.StatusTooManyRequests,
		fmt.Errorf("a2atask: push notification to %s: %s", redact(cfg.URL), res.Status)
}

// redact keeps a webhook URL's scheme, host and path for a log, not the
// credentials its user information or query may hold.
func redact(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "(an unreadable URL)"
	}
	return u.Scheme + "://" + u.Host + u.Path
}

// maxConfigsPerTask bounds the push notification configs of one task.
const maxConfigsPerTask = 10

// longest is how long one Send may take before it gives up: every attempt
// timed out, with every pause between them.
func (s *PushSender) longest() time.Duration {
	total, pause := time.Duration(0), s.backoff
	for attempt := 1; attempt <= max(s.attempts, 1); attempt++ {
		total += s.client.Timeout
		if attempt > 1 {
			total += pause
			pause *= 2
		}
	}
	return total
}
