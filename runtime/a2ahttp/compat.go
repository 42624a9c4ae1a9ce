package a2ahttp

import (
	"bytes"
	"context"
	"encoding/json"
	"iter"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/agui-gen/agui-gen/runtime/a2acall"
	"github.com/agui-gen/agui-gen/runtime/a2arpc"
)

// WithEarlierVersions names the earlier protocol versions (Major.Minor) the
// server serves beside its own, of those it was generated for
// (a2a.CompatVersions: 0.3 unless generated without it). By default all of
// them; WithEarlierVersions() serves none, and a request of such a version
// is then refused with VERSION_NOT_SUPPORTED.
func WithEarlierVersions[C Card, I comparable](versions ...string) ServerOption[C, I] {
	return func(c *serverConfig[C, I]) { c.compat = EarlierVersions(c.spec.CompatVersions(), versions...) }
}

// EarlierVersions returns those of all, the earlier versions the package
// was generated to serve (CompatVersions), that versions names
// (Major.Minor), for the bindings' WithEarlierVersions options.
func EarlierVersions(all []*a2arpc.CompatVersion, versions ...string) []*a2arpc.CompatVersion {
	var out []*a2arpc.CompatVersion
	for _, v := range all {
		if slices.Contains(versions, v.Version) {
			out = append(out, v)
		}
	}
	return out
}

// compatMethod finds the earlier version of another major that has a
// JSON-RPC method named name, and the method: a client that names no
// version speaks 0.3 (whose method names are its own), and one of this
// major's versions names its version (namedEarlier).
func (c *serverConfig[C, I]) compatMethod(name string) (*a2arpc.CompatVersion, *a2arpc.CompatMethod) {
	for _, v := range c.compat {
		if c.ownBindings(v) {
			continue
		}
		if m := v.Method(name); m != nil {
			return v, m
		}
	}
	return nil, nil
}

// compatVersion negotiates the version of a call made with an earlier
// version's method: the client sent no A2A-Version (0.3 clients send none)
// or named that version. A client that names another version called a
// method its version does not have.
func compatVersion[C Card](r *http.Request, v *a2arpc.CompatVersion, method string, info *a2acall.CallInfo[C]) *a2arpc.RPCError {
	if requested := requestedVersion(r); requested != "" {
		if mm, ok := a2arpc.ParseVersion(requested); !ok || mm != v.Version {
			return a2arpc.NewError(a2arpc.ErrMethodNotFound, "method not found: "+strconv.Quote(method)+" is an A2A "+v.Version+" method")
		}
	}
	info.Version = v.Version
	return nil
}

// namedEarlier returns the earlier version the server serves that r names
// in A2A-Version, or nil.
func (c *serverConfig[C, I]) namedEarlier(r *http.Request) *a2arpc.CompatVersion {
	requested := requestedVersion(r)
	if requested == "" {
		return nil
	}
	mm, ok := a2arpc.ParseVersion(requested)
	if !ok {
		return nil
	}
	for _, v := range c.compat {
		if v.Version == mm {
			return v
		}
	}
	return nil
}

// ownBindings reports whether v is of this version's major: A2A keeps its
// bindings within a major version, so v's clients call this version's
// methods and paths, by the same names, and read its errors; they are told
// apart by their A2A-Version alone. An earlier major's (0.3) bindings are
// its own: method names, paths, error shapes.
func ownBindings(v *a2arpc.CompatVersion, version string) bool {
	major, _, _ := strings.Cut(v.Version, ".")
	ours, _, _ := strings.Cut(version, ".")
	return major == ours
}

// ownBindings is ownBindings at the version served.
func (c *serverConfig[C, I]) ownBindings(v *a2arpc.CompatVersion) bool {
	return ownBindings(v, c.spec.ProtocolVersion)
}

// mayBeEarlier reports whether r may come from a client of an earlier
// major version the server serves, whose errors have shapes of their own.
func (c *serverConfig[C, I]) mayBeEarlier(r *http.Request) bool {
	clientOf := c.clientOf(r)
	return slices.ContainsFunc(c.compat, func(v *a2arpc.CompatVersion) bool { return !c.ownBindings(v) && clientOf(v) })
}

// clientOf reports, for r, whether it may come from a client of an earlier
// version v: it names v, or, where v's bindings are its own (0.3 clients
// send no A2A-Version), none. The request is read once, not per version.
func (c *serverConfig[C, I]) clientOf(r *http.Request) func(v *a2arpc.CompatVersion) bool {
	if requestedVersion(r) == "" {
		return func(v *a2arpc.CompatVersion) bool { return !c.ownBindings(v) }
	}
	named := c.namedEarlier(r)
	return func(v *a2arpc.CompatVersion) bool { return v == named }
}

// appendCompatResponse appends a JSON-RPC response in an earlier version's
// JSON: its result, or an error object without 1.0's details, which 0.3
// clients read as an object, not a list (m is nil for an error written
// before the method was known).
func appendCompatResponse(b []byte, id json.RawMessage, m *a2arpc.CompatMethod, result a2arpc.ProtoValue, rerr *a2arpc.RPCError) []byte {
	b = append(b, `{"jsonrpc":"2.0","id":`...)
	b = append(b, id...)
	if rerr != nil {
		b = append(b, `,"error":{"code":`...)
		b = strconv.AppendInt(b, int64(rerr.Code), 10)
		b = append(b, `,"message":`...)
		b = appendJSONString(b, rerr.Error())
		return append(b, '}', '}')
	}
	b = append(b, `,"result":`...)
	b = m.Result(b, result)
	return append(b, '}')
}

// compatCard is the card's JSON for clients of every version served: the
// card as it is, each interface listed again at every earlier version it
// serves (JSON-RPC serves them all, HTTP+JSON and gRPC those generated with
// their proto), and the members the
// earlier versions' clients read (0.3's url, preferredTransport,
// protocolVersion, additionalInterfaces, and its shapes of securitySchemes
// and security) merged in beside 1.0's. Where both versions name a member
// the same, objects are merged member by member and 1.0's value wins
// otherwise, so a 1.0 client reads the card it always read.
//
// A signed card is served as it was signed: its signatures cover its
// members, and members added here would break them.
func compatCard[C Card, I comparable](spec *Spec[C, I], card C, versions []*a2arpc.CompatVersion) []byte {
	if len(versions) == 0 || spec.Signed(card) {
		return card.AppendJSON(nil)
	}
	served := spec.NewCard()
	_ = served.UnmarshalProto(card.AppendProto(nil)) // a copy, so the caller's card is left as it is
	listed := func(url, binding, version string) bool {
		return slices.ContainsFunc(spec.Interfaces(served), func(i I) bool {
			v := spec.Interface(i)
			return v.URL == url && v.ProtocolBinding == binding && v.ProtocolVersion == version
		})
	}
	for _, v := range versions {
		for _, iface := range spec.Interfaces(card) {
			i := spec.Interface(iface)
			// JSON-RPC serves every earlier version; HTTP+JSON and gRPC those
			// generated with their proto.
			serves := i.ProtocolBinding == a2arpc.BindingJSONRPC || v.Proto != nil
			if serves && i.ProtocolVersion == spec.ProtocolVersion && !listed(i.URL, i.ProtocolBinding, v.Version) {
				spec.AddInterface(served, Interface{URL: i.URL, ProtocolBinding: i.ProtocolBinding, Tenant: i.Tenant, ProtocolVersion: v.Version})
			}
		}
	}
	out := served.AppendJSON(nil)
	for _, v := range versions {
		if v.Card != nil {
			out = mergeJSON(out, v.Card(served))
		}
	}
	return out
}

// mergeJSON merges the object b into the object a: members of b that a
// lacks are added, objects present in both are merged, so are arrays of one
// length element by element, and a's value wins anywhere else.
func mergeJSON(a, b []byte) []byte {
	var x, y any
	if decode(a, &x) != nil || decode(b, &y) != nil {
		return a
	}
	out, err := json.Marshal(merge(x, y))
	if err != nil {
		return a
	}
	return out
}

func decode(data []byte, v *any) error {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber() // numbers as written, not through float64
	return d.Decode(v)
}

func merge(a, b any) any {
	if al, ok := a.([]any); ok {
		if bl, ok := b.([]any); ok && len(al) == len(bl) {
			for i := range al {
				al[i] = merge(al[i], bl[i])
			}
		}
		return al
	}
	ao, ok1 := a.(map[string]any)
	bo, ok2 := b.(map[string]any)
	if !ok1 || !ok2 {
		return a
	}
	for k, bv := range bo {
		if av, ok := ao[k]; ok {
			ao[k] = merge(av, bv)
		} else {
			ao[k] = bv
		}
	}
	return ao
}

// NewCompatTransport calls a server that speaks only the earlier version v
// (a 0.3 agent) through inner, a transport to it over gRPC or HTTP+JSON: each
// call is converted to the RPC of v's proto that this version's RPC pairs
// with, and each answer back (v.RPCs). NewTransportFromCard picks it when a
// card offers nothing newer.
func NewCompatTransport(inner a2arpc.Transport, v *a2arpc.CompatVersion) a2arpc.Transport {
	return &compatTransport{inner: inner, v: v}
}

type compatTransport struct {
	inner a2arpc.Transport
	v     *a2arpc.CompatVersion
}

// rpc finds the earlier version's RPC that method pairs with.
func (t *compatTransport) rpc(method *a2arpc.MethodDesc) (*a2arpc.CompatRPC, *a2arpc.MethodDesc, error) {
	for i := range t.v.RPCs {
		if t.v.RPCs[i].Serves == method.Name {
			return &t.v.RPCs[i], &t.v.Proto.Methods[i], nil
		}
	}
	return nil, nil, a2arpc.NewError(a2arpc.ErrUnsupportedOperation, "A2A "+t.v.Version+" has no "+method.Name)
}

// answer reads one of the earlier version's responses as this version's,
// into resp.
func (t *compatTransport) answer(rpc *a2arpc.CompatRPC, m *a2arpc.MethodDesc, old, resp a2arpc.ProtoValue) error {
	v, err := rpc.Response(old)
	if err != nil {
		return a2arpc.NewError(a2arpc.ErrInvalidAgentResponse, rpc.Serves+" (A2A "+t.v.Version+" "+m.Name+"): "+err.Error())
	}
	return resp.UnmarshalProto(v.AppendProto(nil))
}

func (t *compatTransport) Call(ctx context.Context, method *a2arpc.MethodDesc, req, resp a2arpc.ProtoValue) error {
	rpc, m, err := t.rpc(method)
	if err != nil {
		return err
	}
	old := m.NewResponse()
	if err := t.inner.Call(ctx, m, rpc.Request(req), old); err != nil {
		return err
	}
	return t.answer(rpc, m, old, resp)
}

func (t *compatTransport) Stream(ctx context.Context, method *a2arpc.MethodDesc, req a2arpc.ProtoValue) iter.Seq2[a2arpc.ProtoValue, error] {
	return func(yield func(a2arpc.ProtoValue, error) bool) {
		rpc, m, err := t.rpc(method)
		if err != nil {
			yield(nil, err)
			return
		}
		for old, err := range t.inner.Stream(ctx, m, rpc.Request(req)) {
			if err != nil {
				yield(nil, err)
				return
			}
			resp := method.NewResponse()
			if err := t.answer(rpc, m, old, resp); err != nil {
				yield(nil, err)
				return
			}
			if !yield(resp, nil) {
				return
			}
		}
	}
}
