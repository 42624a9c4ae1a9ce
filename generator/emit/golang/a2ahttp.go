package golang

import (
	"strings"

	"github.com/dave/jennifer/jen"
)

// The runtime packages of the A2A bindings: serving one call, whatever the
// binding (a2acall), and the HTTP bindings (a2ahttp).
const (
	a2acallPkg = runtimePath + "/a2acall"
	a2ahttpPkg = runtimePath + "/a2ahttp"
)

// The package-level specs that bind a2acall and a2ahttp to the package's
// types, declared by the spec-typed template (templates/a2art/spec.go).
const (
	callSpecVar = "callSpec"
	httpSpecVar = "httpSpec"
)

// a2aWrapper is one name of a2acall, a2ahttp or a2arpc that a package with
// the A2A runtime offers as its own (a2a.NewHandler, a2a.WithLogger), so
// that code written against the package need not import the runtime, and
// code written before the runtime moved out keeps compiling.
type a2aWrapper struct {
	name, doc string
	// pkg and target name the runtime's function; inst is its type
	// arguments: "call" for [*AgentCard], "http" for [*AgentCard,
	// *AgentInterface], "" for none (inferred).
	pkg, target, inst string
	// params are the wrapper's, "name type" each, as they would be written
	// in Go with only the package's own names and these packages: "ctx
	// context.Context", "opts ...ServerOption".
	params []string
	// results are the wrapper's result types.
	results []string
	// args are the runtime call's arguments, in Go ("ctx, callSpec, req").
	args string
}

// a2aTypes are the aliases, a2aConsts the constants of the bindings.
var (
	a2aTypes = []struct{ name, doc, pkg, target, inst string }{
		{"CallInfo", "is what a server knows about one call beyond its request message; handlers read it with CallInfoFrom.", a2acallPkg, "CallInfo", "call"},
		{"ServerOption", "configures the server handlers.", a2ahttpPkg, "ServerOption", "http"},
		{"ClientOption", "configures the client transports and the card resolver.", a2ahttpPkg, "ClientOption", "http"},
		{"TransportFactory", "makes the transport of one agent interface; the a2agrpc package has the one for BindingGRPC.", a2ahttpPkg, "TransportFactory", "http"},
		{"StreamFormat", "answers a streaming RPC in a wire format of its own, for a client that asks for it (WithStreamFormat).", a2ahttpPkg, "StreamFormat", ""},
		{"CORS", "lets pages of other origins call the handlers from a browser (WithCORS); one type for both protocols.", a2ahttpPkg, "CORS", ""},
		{"Unavailable", "is the cause of an error (RPCError.Err) that says the call may succeed after RetryAfter; HTTP+JSON answers it with 503 and Retry-After.", a2acallPkg, "Unavailable", ""},
	}
	a2aConsts = []struct{ name, pkg string }{
		{"BindingJSONRPC", a2arpcPkg}, {"BindingHTTPJSON", a2arpcPkg}, {"BindingGRPC", a2arpcPkg},
		{"VersionHeader", a2arpcPkg}, {"ExtensionsHeader", a2arpcPkg}, {"LegacyVersion", a2arpcPkg},
		{"WellKnownCardPath", a2ahttpPkg}, {"A2AContentType", a2ahttpPkg}, {"DefaultMaxBodyBytes", a2ahttpPkg},
		{"DefaultWriteTimeout", a2ahttpPkg}, {"DefaultMaxStreams", a2ahttpPkg}, {"DefaultMaxHeaderBytes", a2ahttpPkg},
		{"DefaultReadHeaderTimeout", a2ahttpPkg}, {"DefaultReadTimeout", a2ahttpPkg}, {"DefaultIdleTimeout", a2ahttpPkg},
	}
)

// serverOption and clientOption are the wrappers of the options, which
// take the package's types as the runtime's type arguments.
func serverOption(name, doc string, params ...string) a2aWrapper {
	return a2aWrapper{name: name, doc: doc, pkg: a2ahttpPkg, target: name, inst: "http", params: params, results: []string{"ServerOption"}, args: argNames(params)}
}

func clientOption(name, doc string, params ...string) a2aWrapper {
	return a2aWrapper{name: name, doc: doc, pkg: a2ahttpPkg, target: name, inst: "http", params: params, results: []string{"ClientOption"}, args: argNames(params)}
}

// argNames passes params on as they are: "a int", "b ...string" is "a, b...".
func argNames(params []string) string {
	var names []string
	for _, p := range params {
		name, typ, _ := strings.Cut(p, " ")
		if strings.HasPrefix(typ, "...") {
			name += "..."
		}
		names = append(names, name)
	}
	return strings.Join(names, ", ")
}

var a2aFuncs = []a2aWrapper{
	// Versions (a2arpc).
	{name: "ParseVersion", doc: "reads a protocol version: Major.Minor, with a patch number allowed and ignored. It returns the Major.Minor form.",
		pkg: a2arpcPkg, target: "ParseVersion", params: []string{"s string"}, results: []string{"string", "bool"}, args: "s"},
	{name: "NegotiateVersion", doc: "picks the version a call is served in from the A2A-Version it names (empty when absent) and the versions supported; an absent value means LegacyVersion unless absentAs says otherwise.",
		pkg: a2arpcPkg, target: "NegotiateVersion", params: []string{"requested string", "supported []string", "absentAs string"}, results: []string{"string", "*RPCError"}, args: "requested, supported, absentAs"},
	{name: "MissingVersion", doc: "is the error for a call that names no A2A-Version where LegacyVersion is not served; what names the call.",
		pkg: a2arpcPkg, target: "MissingVersion", params: []string{"what string", "supported []string"}, results: []string{"*RPCError"}, args: "what, supported"},

	// Streams that continue where a lost one stopped (a2arpc).
	{name: "WithLastEventID", doc: "returns ctx for a streaming call that continues a stream the client lost: the call names id, the id of the last event the client received, and a server that keeps its streams' events (SubscribeToTask on the task runtime) sends the events after it. The HTTP bindings send it as Last-Event-ID, gRPC as last-event-id metadata (a2arpc.WithLastEventID).",
		pkg: a2arpcPkg, target: "WithLastEventID", params: []string{"ctx context.Context", "id string"}, results: []string{"context.Context"}, args: "ctx, id"},
	{name: "WithEventIDs", doc: "returns ctx for a streaming call that tells f the id of each event it receives (a Server-Sent Event's id), just before the event is yielded, \"\" for an event without one; gRPC streams carry none (a2arpc.WithEventIDs).",
		pkg: a2arpcPkg, target: "WithEventIDs", params: []string{"ctx context.Context", "f func(id string)"}, results: []string{"context.Context"}, args: "ctx, f"},

	// One call, whatever the binding (a2acall).
	{name: "WithCallInfo", doc: "returns ctx carrying info; the bindings call it before a handler runs.",
		pkg: a2acallPkg, target: "WithCallInfo", params: []string{"ctx context.Context", "info *CallInfo"}, results: []string{"context.Context"}, args: "ctx, info"},
	{name: "CallInfoFrom", doc: "returns the CallInfo of the call ctx belongs to, or nil.",
		pkg: a2acallPkg, target: "From", inst: "call", params: []string{"ctx context.Context"}, results: []string{"*CallInfo"}, args: "ctx"},
	{name: "InvokeUnary", doc: "runs a unary handler the way every binding does: the call held to the card of its CallInfo, the request validated, a panic caught, a nil response made the empty response, and an error outside the A2A table answered as ErrInternal (a2acall.InvokeUnary).",
		pkg: a2acallPkg, target: "InvokeUnary", params: []string{"ctx context.Context", "logger *slog.Logger", "h *MethodHandler", "req ProtoValue"}, results: []string{"ProtoValue", "*RPCError"}, args: "ctx, callSpec, logger, h, req"},
	{name: "InvokeStream", doc: "runs a streaming handler as InvokeUnary runs a unary one; send writes one message to the caller.",
		pkg: a2acallPkg, target: "InvokeStream", params: []string{"ctx context.Context", "logger *slog.Logger", "h *MethodHandler", "req ProtoValue", "send func(ProtoValue) error"}, results: []string{"*RPCError"}, args: "ctx, callSpec, logger, h, req, send"},
	{name: "AuthError", doc: "is what an authenticator's error becomes: an *RPCError keeps its code (ErrPermissionDenied), anything else is ErrUnauthenticated.",
		pkg: a2acallPkg, target: "AuthError", params: []string{"err error"}, results: []string{"*RPCError"}, args: "err"},
	{name: "InvalidParams", doc: "turns an error from decoding or validating a request into ErrInvalidParams (ErrParse for malformed JSON) with a field violation naming where it happened.",
		pkg: a2acallPkg, target: "InvalidParams", params: []string{"err error"}, results: []string{"*RPCError"}, args: "err"},
	{name: "CompatService", doc: "serves the RPCs of v's proto with svc, each converted to the RPC that serves it; nil when v has no proto.",
		pkg: a2acallPkg, target: "CompatService", params: []string{"v *CompatVersion", "svc *Service"}, results: []string{"*Service"}, args: "v, svc"},
	{name: "ObserveTransport", doc: "makes each call of t, a transport of binding, a span of kind CLIENT, and records its duration, where tel says (nil: the global providers).",
		pkg: a2acallPkg, target: "ObserveTransport", params: []string{"t Transport", "binding string", "tel *Telemetry"}, results: []string{"Transport"}, args: "callSpec, t, binding, tel"},
	{name: "InjectTraceContext", doc: "writes the trace context of ctx through set, as tel's propagator writes it (nil: the global propagator), for a transport written outside this package.",
		pkg: a2acallPkg, target: "InjectTraceContext", params: []string{"ctx context.Context", "tel *Telemetry", "set func(key, value string)"}, args: "ctx, tel, set"},

	// The HTTP bindings (a2ahttp).
	{name: "NewHandler", doc: "serves an agent over HTTP at one base URL: its card at /.well-known/agent-card.json, JSON-RPC at POST /, and HTTP+JSON at the paths of its google.api.http rules; every call is held to what the card declares (a2ahttp.NewHandler).",
		pkg: a2ahttpPkg, target: "NewHandler", params: []string{"svc *Service", "card *AgentCard", "opts ...ServerOption"}, results: []string{"http.Handler", "error"}, args: "httpSpec, svc, card, opts..."},
	{name: "Interfaces", doc: "returns the card entries of the bindings NewHandler serves at baseURL, JSON-RPC first, at ProtocolVersion.",
		pkg: a2ahttpPkg, target: "Interfaces", params: []string{"baseURL string"}, results: []string{"[]*AgentInterface"}, args: "httpSpec, baseURL"},
	{name: "NewJSONRPCHandler", doc: "serves svc over JSON-RPC 2.0 (A2A §9), streaming RPCs as Server-Sent Events (a2ahttp.NewJSONRPCHandler).",
		pkg: a2ahttpPkg, target: "NewJSONRPCHandler", params: []string{"svc *Service", "opts ...ServerOption"}, results: []string{"http.Handler"}, args: "httpSpec, svc, opts..."},
	{name: "NewRESTHandler", doc: "serves svc over HTTP+JSON at the paths of its methods' google.api.http rules (A2A §11), and the earlier versions served at theirs (a2ahttp.NewRESTHandler).",
		pkg: a2ahttpPkg, target: "NewRESTHandler", params: []string{"svc *Service", "opts ...ServerOption"}, results: []string{"http.Handler", "error"}, args: "httpSpec, svc, opts..."},
	{name: "NewAgentCardHandler", doc: "serves card, validated and encoded once, to GET and HEAD: cacheable, readable from any origin, and readable by the clients of the earlier versions served.",
		pkg: a2ahttpPkg, target: "NewAgentCardHandler", params: []string{"card *AgentCard", "opts ...ServerOption"}, results: []string{"http.Handler", "error"}, args: "httpSpec, card, opts..."},
	{name: "ResolveCard", doc: "fetches the agent card published below baseURL; an earlier version's card is read as this version's.",
		pkg: a2ahttpPkg, target: "ResolveCard", params: []string{"ctx context.Context", "baseURL string", "opts ...ClientOption"}, results: []string{"*AgentCard", "error"}, args: "ctx, httpSpec, baseURL, opts..."},
	{name: "NewTransportFromCard", doc: "returns a transport to the first of the card's interfaces that this client speaks, in the card's order or WithPreferredBindings' (a2ahttp.NewTransportFromCard).",
		pkg: a2ahttpPkg, target: "NewTransportFromCard", params: []string{"card *AgentCard", "opts ...ClientOption"}, results: []string{"Transport", "*AgentInterface", "error"}, args: "httpSpec, card, opts..."},
	{name: "NewJSONRPCTransport", doc: "calls over JSON-RPC 2.0, POSTing to url (an AgentInterface's url).",
		pkg: a2ahttpPkg, target: "NewJSONRPCTransport", params: []string{"url string", "opts ...ClientOption"}, results: []string{"Transport"}, args: "httpSpec, url, opts..."},
	{name: "NewCompatJSONRPCTransport", doc: "calls a server that speaks only the earlier protocol version v (one of CompatVersions) over JSON-RPC at url, each call converted to v's method and JSON.",
		pkg: a2ahttpPkg, target: "NewCompatJSONRPCTransport", params: []string{"url string", "v *CompatVersion", "opts ...ClientOption"}, results: []string{"Transport"}, args: "httpSpec, url, v, opts..."},
	{name: "NewRESTTransport", doc: "calls over HTTP+JSON, at the paths of the methods' google.api.http rules below baseURL (an AgentInterface's url).",
		pkg: a2ahttpPkg, target: "NewRESTTransport", params: []string{"baseURL string", "opts ...ClientOption"}, results: []string{"Transport"}, args: "httpSpec, baseURL, opts..."},
	{name: "NewCompatTransport", doc: "calls a server that speaks only the earlier version v through inner, a transport to it over gRPC or HTTP+JSON, each call converted to v's RPC.",
		pkg: a2ahttpPkg, target: "NewCompatTransport", params: []string{"inner Transport", "v *CompatVersion"}, results: []string{"Transport"}, args: "inner, v"},
	{name: "ClientHeaders", doc: "returns the headers opts add to every request, for a transport of another binding (gRPC sends them as metadata).",
		pkg: a2ahttpPkg, target: "ClientHeaders", params: []string{"opts ...ClientOption"}, results: []string{"http.Header"}, args: "httpSpec, opts..."},
	{name: "ClientTelemetry", doc: "is the Telemetry that opts set (WithClientTelemetry), for a transport made elsewhere; nil when none does.",
		pkg: a2ahttpPkg, target: "ClientTelemetry", params: []string{"opts ...ClientOption"}, results: []string{"*Telemetry"}, args: "httpSpec, opts..."},
	{name: "EarlierVersions", doc: "returns the earlier versions the package was generated to serve (CompatVersions) that versions names (Major.Minor).",
		pkg: a2ahttpPkg, target: "EarlierVersions", params: []string{"versions ...string"}, results: []string{"[]*CompatVersion"}, args: "CompatVersions(), versions..."},
	{name: "NewServer", doc: "returns an http.Server for handler bounded against clients that hold what they are given; it sets no WriteTimeout, since the handlers bound each write of a stream.",
		pkg: a2ahttpPkg, target: "NewServer", params: []string{"handler http.Handler"}, results: []string{"*http.Server"}, args: "handler"},

	serverOption("WithMaxBodyBytes", "limits request bodies (default 1 MiB); a larger body is refused with 413 before it is read.", "n int64"),
	serverOption("WithLogger", "logs refused requests and handler failures (default slog.Default()).", "l *slog.Logger"),
	serverOption("WithProtocolVersions", "sets the protocol versions (Major.Minor) the server accepts in A2A-Version; by default only ProtocolVersion.", "versions ...string"),
	serverOption("WithMissingVersionAs", "serves a request that carries no A2A-Version as version v, where the spec reads it as 0.3.", "v string"),
	serverOption("WithAuthenticator", "runs authenticate on every request before its body is read; its result becomes CallInfo.Principal, and an error refuses the call (ErrUnauthenticated unless it is an *RPCError).", "authenticate func(*http.Request) (principal any, err error)"),
	serverOption("WithAgentCard", "holds every call to what card declares (A2A §3.3.4): streaming, and the extensions it marks required.", "card *AgentCard"),
	serverOption("WithStreamRefusalsAsEvents", "answers a JSON-RPC streaming call refused before its first event as an SSE stream whose only event is the error."),
	serverOption("WithKeepAlive", "writes an SSE comment on a stream that has been idle for interval, so proxies keep it open. Off by default.", "interval time.Duration"),
	serverOption("WithWriteTimeout", "bounds each write (and flush) of an SSE stream to d (default DefaultWriteTimeout); 0 or less removes the bound.", "d time.Duration"),
	serverOption("WithMaxStreams", "bounds the streaming calls served at once to n (default DefaultMaxStreams); 0 or less removes the bound.", "n int"),
	serverOption("WithEarlierVersions", "names the earlier protocol versions (Major.Minor) the server serves beside its own, of those it was generated for; by default all of them.", "versions ...string"),
	serverOption("WithCORS", "answers the CORS preflights of the JSON-RPC endpoint and of every HTTP+JSON route, and lets the pages of c's origins read the answers.", "c CORS"),
	serverOption("WithStreamFormat", "adds a format streaming RPCs can be answered in.", "f StreamFormat"),
	serverOption("WithTelemetry", "sends the server's traces and metrics where t says (default: OpenTelemetry's global providers).", "t *Telemetry"),
	clientOption("WithHTTPClient", "sends requests with client (default http.DefaultClient).", "client *http.Client"),
	clientOption("WithHeader", "adds a header to every request, such as Authorization.", "key string", "value string"),
	clientOption("WithVersion", "sets the A2A-Version the client sends (default ProtocolVersion).", "v string"),
	clientOption("WithMaxResponseBytes", "limits a unary response body, and each event of a stream (default 64 MiB).", "n int64"),
	clientOption("WithTransport", "lets NewTransportFromCard use f for interfaces of binding.", "binding string", "f TransportFactory"),
	clientOption("WithPreferredBindings", "orders the bindings NewTransportFromCard picks from; by default it follows the card's order.", "bindings ...string"),
	clientOption("WithClientTelemetry", "sends the client's traces and metrics where t says (default: OpenTelemetry's global providers).", "t *Telemetry"),
}

// a2aHTTPNames lists the names emitA2AHTTP declares, which the spec's
// declarations must not take.
func a2aHTTPNames() []string {
	var names []string
	for _, t := range a2aTypes {
		names = append(names, t.name)
	}
	for _, c := range a2aConsts {
		names = append(names, c.name)
	}
	for _, fn := range a2aFuncs {
		names = append(names, fn.name)
	}
	return names
}

// a2aQualified are the packages a type written in a wrapper's signature
// may name, by the name it is written with.
var a2aQualified = map[string]string{
	"context": "context", "slog": "log/slog", "http": "net/http", "time": "time",
}

// a2aType renders a Go type written with the package's own names and the
// packages of a2aQualified: "*slog.Logger", "[]*AgentInterface",
// "func(ProtoValue) error". Function types are written as they are, with
// the package's names only.
func a2aType(t string) jen.Code {
	switch {
	case strings.HasPrefix(t, "..."):
		return jen.Op("...").Add(a2aType(t[3:]))
	case strings.HasPrefix(t, "*"):
		return jen.Op("*").Add(a2aType(t[1:]))
	case strings.HasPrefix(t, "[]"):
		return jen.Index().Add(a2aType(t[2:]))
	case strings.HasPrefix(t, "func("):
		return jen.Id(t)
	}
	if pkg, name, ok := strings.Cut(t, "."); ok {
		return jen.Qual(a2aQualified[pkg], name)
	}
	return jen.Id(t)
}

// a2aInstance is the runtime's name in pkg, instantiated as inst says.
func a2aInstance(pkg, name, inst string) *jen.Statement {
	card, iface := jen.Op("*").Id("AgentCard"), jen.Op("*").Id("AgentInterface")
	switch inst {
	case "call":
		return jen.Qual(pkg, name).Types(card)
	case "http":
		return jen.Qual(pkg, name).Types(card, iface)
	}
	return jen.Qual(pkg, name)
}

// emitA2AHTTP writes the package's names for the bindings' runtime: aliases
// of its types (instantiated with the package's card and interface types),
// its constants, and functions that call it with the package's specs.
func emitA2AHTTP(f *jen.File) {
	f.ImportName(a2acallPkg, "a2acall")
	f.ImportName(a2ahttpPkg, "a2ahttp")
	for _, t := range a2aTypes {
		f.Add(comment(wrap(t.name+" "+t.doc+" It is "+pkgBase(t.pkg)+"."+t.target+".", 80)))
		f.Type().Id(t.name).Op("=").Add(a2aInstance(t.pkg, t.target, t.inst))
		f.Line()
	}
	f.Comment("The bindings' constants (a2arpc, a2ahttp).")
	f.Const().DefsFunc(func(g *jen.Group) {
		for _, c := range a2aConsts {
			g.Id(c.name).Op("=").Qual(c.pkg, c.name)
		}
	})
	for _, fn := range a2aFuncs {
		var params []jen.Code
		for _, p := range fn.params {
			name, typ, _ := strings.Cut(p, " ")
			params = append(params, jen.Id(name).Add(a2aType(typ)))
		}
		var results []jen.Code
		for _, r := range fn.results {
			results = append(results, a2aType(r))
		}
		var args []jen.Code
		for _, a := range strings.Split(fn.args, ", ") {
			if a == "" {
				continue
			}
			if name, ok := strings.CutSuffix(a, "..."); ok {
				args = append(args, jen.Id(name).Op("..."))
			} else {
				args = append(args, jen.Id(a))
			}
		}
		call := a2aInstance(fn.pkg, fn.target, fn.inst).Call(args...)
		body := call
		if len(results) > 0 {
			body = jen.Return(call)
		}
		f.Line()
		f.Add(comment(wrap(fn.name+" "+fn.doc, 80)))
		sig := jen.Func().Id(fn.name).Params(params...)
		switch len(results) {
		case 0:
		case 1:
			sig.Add(results[0])
		default:
			sig.Params(results...)
		}
		f.Add(sig.Block(body))
	}
}

// pkgBase is the name of the runtime package at path.
func pkgBase(path string) string { return path[strings.LastIndex(path, "/")+1:] }
