package a2ahttp

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

	"github.com/agui-gen/agui-gen/runtime/a2arpc"
)

// WellKnownCardPath is where an agent publishes its card (A2A §8.2).
const WellKnownCardPath = "/.well-known/agent-card.json"

// NewAgentCardHandler serves card, validated and encoded once, to GET and
// HEAD: cacheable (Cache-Control and an ETag honoured by If-None-Match,
// A2A §8.6) and readable from any origin (CORS, preflight included), since
// a card is public. For the earlier versions the server serves (opts:
// WithEarlierVersions; by default all it was generated for), the card
// also carries what their clients read, beside what 1.0 clients read.
func NewAgentCardHandler[C Card, I comparable](spec *Spec[C, I], card C, opts ...ServerOption[C, I]) (http.Handler, error) {
	if err := card.Validate(); err != nil {
		return nil, fmt.Errorf("agent card: %w", err)
	}
	body := compatCard(spec, card, newServerConfig(spec, opts).compat)
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
		writeStatus(w, http.StatusMethodNotAllowed, "UNIMPLEMENTED", a2arpc.NewError(a2arpc.ErrMethodNotFound, "the agent card is read with GET"))
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
func ResolveCard[C Card, I comparable](ctx context.Context, spec *Spec[C, I], baseURL string, opts ...ClientOption[C, I]) (C, error) {
	var none C
	cfg := newClientConfig(spec, opts)
	target := strings.TrimSuffix(baseURL, "/") + WellKnownCardPath
	req, err := cfg.newRequest(ctx, http.MethodGet, target, nil, "", "application/json")
	if err != nil {
		return none, err
	}
	res, err := cfg.http.Do(req)
	if err != nil {
		return none, fmt.Errorf("a2a: fetching the agent card: %w", err)
	}
	defer res.Body.Close()
	data, err := cfg.readAll(res)
	if err != nil {
		return none, err
	}
	if res.StatusCode != http.StatusOK {
		return none, fmt.Errorf("a2a: fetching the agent card from %s: %w", target, httpError(res, data))
	}
	if v := earlierCard(spec, data); v != nil {
		card, err := v.ReadCard(data)
		if err != nil {
			return none, fmt.Errorf("a2a: A2A %s agent card from %s: %w", v.Version, target, err)
		}
		c, ok := card.(C)
		if !ok {
			return none, fmt.Errorf("a2a: A2A %s agent card from %s: read as %T", v.Version, target, card)
		}
		return c, nil
	}
	card := spec.NewCard()
	if err := card.UnmarshalJSON(data); err != nil {
		return none, fmt.Errorf("a2a: agent card from %s: %w", target, err)
	}
	return card, nil
}

// earlierCard returns the earlier version whose card data is: one that
// lists no supportedInterfaces (1.0's) and names that version in
// protocolVersion; nil for any other card.
func earlierCard[C Card, I comparable](spec *Spec[C, I], data []byte) *a2arpc.CompatVersion {
	var top struct {
		ProtocolVersion     string          `json:"protocolVersion"`
		SupportedInterfaces json.RawMessage `json:"supportedInterfaces"`
	}
	if json.Unmarshal(data, &top) != nil || top.SupportedInterfaces != nil {
		return nil
	}
	mm, ok := a2arpc.ParseVersion(top.ProtocolVersion)
	if !ok {
		return nil
	}
	for _, v := range spec.CompatVersions() {
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
func NewTransportFromCard[C Card, I comparable](spec *Spec[C, I], card C, opts ...ClientOption[C, I]) (a2arpc.Transport, I, error) {
	cfg := newClientConfig(spec, opts)
	ifaces := slices.Clone(spec.Interfaces(card))
	if len(cfg.bindings) > 0 {
		rank := func(b string) int {
			if i := slices.Index(cfg.bindings, b); i >= 0 {
				return i
			}
			return len(cfg.bindings)
		}
		slices.SortStableFunc(ifaces, func(a, b I) int {
			return rank(spec.Interface(a).ProtocolBinding) - rank(spec.Interface(b).ProtocolBinding)
		})
	}
	var none I
	var seen []string
	for _, i := range ifaces {
		if i == none {
			continue
		}
		iface := spec.Interface(i)
		seen = append(seen, iface.ProtocolBinding+"@"+iface.ProtocolVersion)
		if v, ok := a2arpc.ParseVersion(iface.ProtocolVersion); !ok || v != cfg.version {
			continue
		}
		t, err := dial(cfg, i, iface.ProtocolBinding, iface.URL, opts)
		if err != nil {
			return nil, none, err
		}
		if t == nil {
			continue
		}
		if iface.Tenant != "" {
			t = &tenantTransport{Transport: t, tenant: iface.Tenant}
		}
		return t, i, nil
	}
	// Nothing at this version: an earlier version's interface (a 0.3
	// agent's) is spoken through its conversion: JSON-RPC by its JSON, the
	// other bindings by its proto when the package has it. (The tenant is
	// 1.0's; an earlier interface has none.)
	for _, i := range ifaces {
		if i == none {
			continue
		}
		iface := spec.Interface(i)
		v, _ := a2arpc.ParseVersion(iface.ProtocolVersion)
		for _, c := range spec.CompatVersions() {
			if c.Version != v {
				continue
			}
			switch {
			case iface.ProtocolBinding == a2arpc.BindingJSONRPC:
				return NewCompatJSONRPCTransport(spec, iface.URL, c, opts...), i, nil
			case c.Proto != nil:
				t, err := dial(cfg, i, iface.ProtocolBinding, iface.URL, append(slices.Clone(opts), WithVersion[C, I](c.Version)))
				if err != nil {
					return nil, none, err
				}
				if t != nil {
					return NewCompatTransport(t, c), i, nil
				}
			}
		}
	}
	return nil, none, fmt.Errorf("a2a: the agent card offers no interface this client speaks (version %s; offered: %s)", cfg.version, strings.Join(seen, ", "))
}

// dial makes a transport to iface: its binding's factory when the options
// give one, else the built-in JSON-RPC or HTTP+JSON one; nil for another
// binding.
func dial[C Card, I comparable](cfg *clientConfig[C, I], iface I, binding, url string, opts []ClientOption[C, I]) (a2arpc.Transport, error) {
	switch f := cfg.factories[binding]; {
	case f != nil:
		return f(iface, opts...)
	case binding == a2arpc.BindingJSONRPC:
		return NewJSONRPCTransport(cfg.spec, url, opts...), nil
	case binding == a2arpc.BindingHTTPJSON:
		return NewRESTTransport(cfg.spec, url, opts...), nil
	}
	return nil, nil
}

// tenantTransport sets the interface's tenant on every request.
type tenantTransport struct {
	a2arpc.Transport
	tenant string
}

// withTenant is a copy of req with the tenant set: the caller's request
// is left as it was, for it may be in use elsewhere.
func (t *tenantTransport) withTenant(m *a2arpc.MethodDesc, req a2arpc.ProtoValue) a2arpc.ProtoValue {
	cp := m.NewRequest()
	s, ok := cp.(a2arpc.FieldSetter)
	if !ok || cp.UnmarshalProto(req.AppendProto(nil)) != nil {
		return req
	}
	_ = s.SetField("tenant", t.tenant)
	return cp
}

func (t *tenantTransport) Call(ctx context.Context, m *a2arpc.MethodDesc, req, resp a2arpc.ProtoValue) error {
	return t.Transport.Call(ctx, m, t.withTenant(m, req), resp)
}

func (t *tenantTransport) Stream(ctx context.Context, m *a2arpc.MethodDesc, req a2arpc.ProtoValue) iter.Seq2[a2arpc.ProtoValue, error] {
	return t.Transport.Stream(ctx, m, t.withTenant(m, req))
}

func (t *tenantTransport) StreamReusing(ctx context.Context, m *a2arpc.MethodDesc, req a2arpc.ProtoValue, resp a2arpc.ReusableValue) iter.Seq2[a2arpc.ProtoValue, error] {
	return a2arpc.StreamReusing(ctx, t.Transport, m, t.withTenant(m, req), resp)
}
