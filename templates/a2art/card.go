package a2art

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"iter"
	"net/http"
	"slices"
	"strings"

	a2a "github.com/agui-gen/agui-gen/gen/a2a"
)

// WellKnownCardPath is where an agent publishes its card (A2A §8.2).
const WellKnownCardPath = "/.well-known/agent-card.json"

// NewAgentCardHandler serves card, validated and encoded once, to GET and
// HEAD: cacheable (Cache-Control and an ETag honoured by If-None-Match,
// A2A §8.6) and readable from any origin (CORS, preflight included), since
// a card is public. For the earlier versions the server serves (opts:
// WithEarlierVersions; by default all it was generated for), the card
// also carries what their clients read, beside what 1.0 clients read.
func NewAgentCardHandler(card *a2a.AgentCard, opts ...ServerOption) (http.Handler, error) {
	if err := card.Validate(); err != nil {
		return nil, fmt.Errorf("agent card: %w", err)
	}
	body := compatCard(card, newServerConfig(opts).compat)
	sum := sha256.Sum256(body)
	return &cardHandler{body: body, etag: `"` + hex.EncodeToString(sum[:12]) + `"`}, nil
}

type cardHandler struct {
	body []byte
	etag string
}

func (h *cardHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	hdr := w.Header()
	hdr.Set("Access-Control-Allow-Origin", "*")
	switch r.Method {
	case http.MethodGet, http.MethodHead:
	case http.MethodOptions:
		hdr.Set("Access-Control-Allow-Methods", "GET, HEAD, OPTIONS")
		if req := r.Header.Get("Access-Control-Request-Headers"); req != "" {
			hdr.Set("Access-Control-Allow-Headers", req)
		}
		hdr.Set("Access-Control-Max-Age", "86400")
		w.WriteHeader(http.StatusNoContent)
		return
	default:
		hdr.Set("Allow", "GET, HEAD, OPTIONS")
		writeStatus(w, http.StatusMethodNotAllowed, "UNIMPLEMENTED", a2a.NewError(a2a.ErrMethodNotFound, "the agent card is read with GET"))
		return
	}
	hdr.Set("Cache-Control", "public, max-age=300")
	hdr.Set("ETag", h.etag)
	if match := r.Header.Get("If-None-Match"); match != "" && etagMatches(match, h.etag) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	hdr.Set("Content-Type", "application/json")
	if r.Method == http.MethodHead {
		return
	}
	w.Write(h.body)
}

func etagMatches(header, etag string) bool {
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimPrefix(strings.TrimSpace(t), "W/")
		if t == etag || t == "*" {
			return true
		}
	}
	return false
}

// ResolveCard fetches the agent card published below baseURL. The card of
// an agent that speaks only an earlier version (0.3: no
// supportedInterfaces, protocolVersion 0.3.x) is read in that version's
// JSON, its url and additionalInterfaces becoming interfaces at that
// version.
func ResolveCard(ctx context.Context, baseURL string, opts ...ClientOption) (*a2a.AgentCard, error) {
	cfg := newClientConfig(opts)
	target := strings.TrimSuffix(baseURL, "/") + WellKnownCardPath
	req, err := cfg.newRequest(ctx, http.MethodGet, target, nil, "", "application/json")
	if err != nil {
		return nil, err
	}
	res, err := cfg.http.Do(req)
	if err != nil {
		return nil, fmt.Errorf("a2a: fetching the agent card: %w", err)
	}
	defer res.Body.Close()
	data, err := cfg.readAll(res)
	if err != nil {
		return nil, err
	}
	if res.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("a2a: fetching the agent card from %s: %w", target, httpError(res, data))
	}
	if v := earlierCard(data); v != nil {
		card, err := v.ReadCard(data)
		if err != nil {
			return nil, fmt.Errorf("a2a: A2A %s agent card from %s: %w", v.Version, target, err)
		}
		return card.(*a2a.AgentCard), nil
	}
	card := new(a2a.AgentCard)
	if err := card.UnmarshalJSON(data); err != nil {
		return nil, fmt.Errorf("a2a: agent card from %s: %w", target, err)
	}
	return card, nil
}

// earlierCard returns the earlier version whose card data is: one that
// lists no supportedInterfaces (1.0's) and names that version in
// protocolVersion; nil for any other card.
func earlierCard(data []byte) *a2a.CompatVersion {
	var top struct {
		ProtocolVersion     string          `json:"protocolVersion"`
		SupportedInterfaces json.RawMessage `json:"supportedInterfaces"`
	}
	if json.Unmarshal(data, &top) != nil || top.SupportedInterfaces != nil {
		return nil
	}
	mm, ok := ParseVersion(top.ProtocolVersion)
	if !ok {
		return nil
	}
	for _, v := range a2a.CompatVersions() {
		if v.Version == mm && v.ReadCard != nil {
			return v
		}
	}
	return nil
}

// NewTransportFromCard returns a transport to the first of the card's
// interfaces that this client speaks, in the card's order (the agent's
// preference) or WithPreferredBindings': one whose protocolVersion is the
// client's (WithVersion), over JSON-RPC, HTTP+JSON, or a binding added with
// WithTransport. Every request gets the interface's tenant (A2A §8.3.2).
// A card that offers none at this version but an interface at an earlier
// one the package was generated for (a 0.3 agent's card, as ResolveCard
// reads it) gets NewCompatJSONRPCTransport for JSON-RPC, and
// NewCompatTransport over gRPC or HTTP+JSON.
func NewTransportFromCard(card *a2a.AgentCard, opts ...ClientOption) (a2a.Transport, *a2a.AgentInterface, error) {
	cfg := newClientConfig(opts)
	ifaces := slices.Clone(card.SupportedInterfaces)
	if len(cfg.bindings) > 0 {
		rank := func(b string) int {
			if i := slices.Index(cfg.bindings, b); i >= 0 {
				return i
			}
			return len(cfg.bindings)
		}
		slices.SortStableFunc(ifaces, func(a, b *a2a.AgentInterface) int { return rank(a.ProtocolBinding) - rank(b.ProtocolBinding) })
	}
	var seen []string
	for _, iface := range ifaces {
		if iface == nil {
			continue
		}
		seen = append(seen, iface.ProtocolBinding+"@"+iface.ProtocolVersion)
		if v, ok := ParseVersion(iface.ProtocolVersion); !ok || v != cfg.version {
			continue
		}
		t, err := dial(cfg, iface, opts)
		if err != nil {
			return nil, nil, err
		}
		if t == nil {
			continue
		}
		if iface.Tenant != "" {
			t = &tenantTransport{Transport: t, tenant: iface.Tenant}
		}
		return t, iface, nil
	}
	// Nothing at this version: an earlier version's interface (a 0.3
	// agent's) is spoken through its conversion: JSON-RPC by its JSON, the
	// other bindings by its proto when the package has it. (The tenant is
	// 1.0's; an earlier interface has none.)
	for _, iface := range ifaces {
		if iface == nil {
			continue
		}
		v, _ := ParseVersion(iface.ProtocolVersion)
		for _, c := range a2a.CompatVersions() {
			if c.Version != v {
				continue
			}
			switch {
			case iface.ProtocolBinding == BindingJSONRPC:
				return NewCompatJSONRPCTransport(iface.URL, c, opts...), iface, nil
			case c.Proto != nil:
				t, err := dial(cfg, iface, append(slices.Clone(opts), WithVersion(c.Version)))
				if err != nil {
					return nil, nil, err
				}
				if t != nil {
					return NewCompatTransport(t, c), iface, nil
				}
			}
		}
	}
	return nil, nil, fmt.Errorf("a2a: the agent card offers no interface this client speaks (version %s; offered: %s)", cfg.version, strings.Join(seen, ", "))
}

// dial makes a transport to iface: its binding's factory when the options
// give one, else the built-in JSON-RPC or HTTP+JSON one; nil for another
// binding.
func dial(cfg *clientConfig, iface *a2a.AgentInterface, opts []ClientOption) (a2a.Transport, error) {
	switch f := cfg.factories[iface.ProtocolBinding]; {
	case f != nil:
		return f(iface, opts...)
	case iface.ProtocolBinding == BindingJSONRPC:
		return NewJSONRPCTransport(iface.URL, opts...), nil
	case iface.ProtocolBinding == BindingHTTPJSON:
		return NewRESTTransport(iface.URL, opts...), nil
	}
	return nil, nil
}

// tenantTransport sets the interface's tenant on every request.
type tenantTransport struct {
	a2a.Transport
	tenant string
}

// withTenant is a copy of req with the tenant set: the caller's request
// is left as it was, for it may be in use elsewhere.
func (t *tenantTransport) withTenant(m *a2a.MethodDesc, req a2a.ProtoValue) a2a.ProtoValue {
	cp := m.NewRequest()
	s, ok := cp.(a2a.FieldSetter)
	if !ok || cp.UnmarshalProto(req.AppendProto(nil)) != nil {
		return req
	}
	_ = s.SetField("tenant", t.tenant)
	return cp
}

func (t *tenantTransport) Call(ctx context.Context, m *a2a.MethodDesc, req, resp a2a.ProtoValue) error {
	return t.Transport.Call(ctx, m, t.withTenant(m, req), resp)
}

func (t *tenantTransport) Stream(ctx context.Context, m *a2a.MethodDesc, req a2a.ProtoValue) iter.Seq2[a2a.ProtoValue, error] {
	return t.Transport.Stream(ctx, m, t.withTenant(m, req))
}
