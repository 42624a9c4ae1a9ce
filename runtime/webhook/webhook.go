// Package webhook posts JSON to webhooks that callers name, as push
// notifications do: guarded against requests into the agent's own network
// (SSRF: loopback, private, link-local and special-purpose addresses are
// refused, checked on the address dialled), with credentials dropped on a
// redirect to another host, and retried with exponential backoff when a
// failure may pass.
package webhook

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"syscall"
	"time"

	"github.com/agui-gen/agui-gen/runtime/telemetry"
)

// TokenHeader carries a target's token on every post, for the receiver to
// check that it comes from the agent. The A2A spec names no header: a2a-go
// sends this one, and LegacyTokenHeader is the one @a2a-js/sdk, a2a-python
// and Koog send and their receivers read, so every post carries both.
const (
	TokenHeader       = "A2A-Notification-Token"
	LegacyTokenHeader = "X-A2A-Notification-Token"
)

// ErrBlockedTarget is behind a post refused for where it goes.
var ErrBlockedTarget = errors.New("push notifications to loopback, private and link-local addresses are refused")

// A Sender posts to webhooks. A failed post is retried with exponential
// backoff when the failure may pass (a network error, 5xx, 429), never for
// another 4xx.
type Sender struct {
	client   *http.Client
	attempts int
	backoff  time.Duration
	private  bool
	tel      *telemetry.Telemetry
}

// An Option configures a Sender.
type Option func(*Sender)

// WithTelemetry writes the trace context of ctx on each request
// (traceparent) with t's propagator (default: the global one).
func WithTelemetry(t *telemetry.Telemetry) Option { return func(s *Sender) { s.tel = t } }

// WithAttempts sets how many times a post is tried (default 5) and the
// pause before the second try, doubled for each after (default 500 ms).
func WithAttempts(n int, backoff time.Duration) Option {
	return func(s *Sender) { s.attempts, s.backoff = n, backoff }
}

// WithPrivateNetworks allows webhooks on loopback, private and link-local
// addresses, which are refused by default so that a client cannot make the
// agent call into its own network (SSRF). For tests and closed networks.
func WithPrivateNetworks() Option { return func(s *Sender) { s.private = true } }

// WithTimeout bounds each post (default 10 s).
func WithTimeout(d time.Duration) Option { return func(s *Sender) { s.client.Timeout = d } }

// NewSender returns a sender.
func NewSender(opts ...Option) *Sender {
	s := &Sender{client: &http.Client{Timeout: 10 * time.Second}, attempts: 5, backoff: 500 * time.Millisecond}
	for _, o := range opts {
		o(s)
	}
	if !s.private {
		// The check is made on the address dialled, after resolution, so a
		// name that resolves to a private address is refused too.
		dialer := &net.Dialer{Timeout: 10 * time.Second, Control: func(_, address string, _ syscall.RawConn) error {
			host, _, err := net.SplitHostPort(address)
			if ip := net.ParseIP(host); err != nil || ip == nil || blocked(ip) {
				return fmt.Errorf("%w: %s", ErrBlockedTarget, address)
			}
			return nil
		}}
		s.client.Transport = &http.Transport{DialContext: dialer.DialContext, TLSHandshakeTimeout: 10 * time.Second, ForceAttemptHTTP2: true}
	}
	s.client.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if len(via) >= 3 {
			return errors.New("webhook: too many redirects")
		}
		if req.URL.Host != via[0].URL.Host || req.URL.Scheme != via[0].URL.Scheme {
			// The credentials are for the host, and the scheme, they were given for.
			req.Header.Del(TokenHeader)
			req.Header.Del(LegacyTokenHeader)
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

// Check refuses a webhook URL a caller may not name: not http(s), or a
// literal address the sender would refuse.
func (s *Sender) Check(raw string) error {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return fmt.Errorf("push notification url %q is not an http(s) URL", raw)
	}
	if ip := net.ParseIP(u.Hostname()); !s.private && (u.Hostname() == "localhost" || (ip != nil && blocked(ip))) {
		return fmt.Errorf("push notification url %q: %w", raw, ErrBlockedTarget)
	}
	return nil
}

// A Target is where a post goes and the credentials it carries.
type Target struct {
	URL string
	// Token goes in TokenHeader and LegacyTokenHeader, when it is not
	// empty.
	Token string
	// Authorization is the Authorization header ("Bearer xyz"), when it is
	// not empty.
	Authorization string
}

// Send posts body, JSON, to t, retrying as the type says.
func (s *Sender) Send(ctx context.Context, t Target, body []byte) error {
	pause := s.backoff
	var err error
	for attempt := 1; attempt <= max(s.attempts, 1); attempt++ {
		var retry bool
		if retry, err = s.post(ctx, t, body); err == nil || !retry || attempt == s.attempts {
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

func (s *Sender) post(ctx context.Context, t Target, body []byte) (retry bool, err error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, t.URL, bytes.NewReader(body))
	if err != nil {
		return false, err
	}
	req.Header.Set("Content-Type", "application/json")
	s.tel.Inject(ctx, req.Header)
	if t.Token != "" {
		req.Header.Set(TokenHeader, t.Token)
		req.Header.Set(LegacyTokenHeader, t.Token)
	}
	if t.Authorization != "" {
		req.Header.Set("Authorization", t.Authorization)
	}
	res, err := s.client.Do(req)
	if err != nil {
		return !errors.Is(err, ErrBlockedTarget), err
	}
	io.Copy(io.Discard, io.LimitReader(res.Body, 64<<10))
	res.Body.Close()
	if res.StatusCode/100 == 2 {
		return false, nil
	}
	return res.StatusCode >= 500 || res.StatusCode == http.StatusTooManyRequests,
		fmt.Errorf("webhook: push notification to %s: %s", Redact(t.URL), res.Status)
}

// Redact keeps a webhook URL's scheme, host and path for a log, not the
// credentials its user information or query may hold.
func Redact(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "(an unreadable URL)"
	}
	return u.Scheme + "://" + u.Host + u.Path
}

// Longest is how long one Send may take before it gives up: every attempt
// timed out, with every pause between them.
func (s *Sender) Longest() time.Duration {
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
