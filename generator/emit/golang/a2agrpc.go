package golang

import (
	"fmt"

	"github.com/dave/jennifer/jen"

	"github.com/agui-gen/agui-gen/generator/ir"
)

// grpcSpecVar is the package-level Spec that binds runtime/a2agrpc to the
// types of the package beside it, declared in grpc_gen.go.
const grpcSpecVar = "spec"

// grpcWrapper is one name of runtime/a2agrpc that the generated a2agrpc
// package offers as its own (a2agrpc.WithAuthenticator, a2agrpc.WithGRPC),
// so that code written against it need not import the runtime, and code
// written before the runtime moved out keeps compiling.
type grpcWrapper struct {
	name, doc string
	// params are the wrapper's, each a name and its type; the last may be
	// variadic (variadic set).
	params   []grpcParam
	variadic bool
	result   jen.Code
	// spec passes the Spec first; inst instantiates the runtime's function
	// with the package's card and interface types, where no argument says
	// them.
	spec, inst bool
}

type grpcParam struct {
	name string
	typ  jen.Code
}

// emitGRPCBinding writes the names of the gRPC binding's runtime bound to
// the package at parent: its package comment, the Spec, aliases of the
// option types, the bounds, and the functions, each calling runtime/a2agrpc.
// iface are the Go names of AgentInterface's url and protocol_version.
func emitGRPCBinding(f *jen.File, parent string, iface [2]string) {
	f.ImportName(parent, "a2a")
	f.ImportName(grpcPkg, "grpc")
	f.ImportName(metadataPkg, "metadata")
	f.ImportAlias(a2agrpcPkg, a2agrpcAlias)
	a2a := func(name string) *jen.Statement { return jen.Qual(parent, name) }
	card, ifaceType := jen.Op("*").Add(a2a("AgentCard")), jen.Op("*").Add(a2a("AgentInterface"))
	rt := func(name string) *jen.Statement { return jen.Qual(a2agrpcPkg, name) }

	for _, line := range wrap("Package a2agrpc serves and calls the A2A service over gRPC (A2A §10) with "+
		"google.golang.org/grpc, on the protobuf codecs of the package beside it: no protoc and no "+
		"protoc-gen-go. It lives apart from that package so that code using A2A without gRPC does not "+
		"import grpc-go. Its functions bind agui-gen's runtime/a2agrpc, which holds the binding, to that "+
		"package's types; the full contract of each is on the runtime's function of the same name.\n\n"+
		"Importing it registers a gRPC \"proto\" codec that encodes the generated messages itself and "+
		"hands every other message to the codec it replaces.", 97) {
		f.PackageComment(line)
	}

	f.Add(comment(wrap("spec binds runtime/a2agrpc to package a2a, through the names it exports: "+
		"its own specs bind the serving of a call and the card-based client to its types.", 97)))
	field := func(name string, value jen.Code) jen.Code { return jen.Id(name).Op(":").Add(value) }
	f.Var().Id(grpcSpecVar).Op("=").Op("&").Add(rt("Spec").Types(card, ifaceType)).Add(keyed(
		field("ProtocolVersion", a2a("ProtocolVersion")),
		field("CompatVersions", a2a("CompatVersions")),
		field("InvokeUnary", a2a("InvokeUnary")),
		field("InvokeStream", a2a("InvokeStream")),
		field("ObserveTransport", a2a("ObserveTransport")),
		field("ClientHeaders", a2a("ClientHeaders")),
		field("ClientTelemetry", a2a("ClientTelemetry")),
		field("Interface", jen.Func().Params(jen.Id("iface").Add(ifaceType)).Params(jen.String(), jen.String()).Block(
			jen.Return(jen.Id("iface").Dot(iface[0]), jen.Id("iface").Dot(iface[1])))),
	))
	f.Line()
	for _, t := range []struct{ name, doc string }{
		{"ServerOption", "configures a service served over gRPC: the options of RegisterA2AServiceServer, " +
			"ServerOptions and UnknownServiceHandler. It is a2agrpc.ServerOption (runtime)."},
		{"ClientOption", "configures a gRPC transport (NewTransport). It is a2agrpc.ClientOption (runtime)."},
	} {
		f.Add(comment(wrap(t.name+" "+t.doc, 97)))
		target := rt(t.name)
		if t.name == "ServerOption" {
			target = target.Types(card, ifaceType)
		}
		f.Type().Id(t.name).Op("=").Add(target)
		f.Line()
	}
	f.Comment("The bounds ServerOptions and the binding put on a gRPC server (runtime/a2agrpc).")
	f.Const().DefsFunc(func(g *jen.Group) {
		for _, c := range grpcConsts {
			g.Id(c).Op("=").Add(rt(c))
		}
	})
	for _, w := range grpcWrappers(parent) {
		var params, args []jen.Code
		if w.spec {
			args = append(args, jen.Id(grpcSpecVar))
		}
		for i, p := range w.params {
			typ, arg := p.typ, jen.Id(p.name)
			if w.variadic && i == len(w.params)-1 {
				typ, arg = jen.Op("...").Add(typ), arg.Op("...")
			}
			params = append(params, jen.Id(p.name).Add(typ))
			args = append(args, arg)
		}
		target := rt(w.name)
		if w.inst {
			target = target.Types(card, ifaceType)
		}
		f.Line()
		f.Add(comment(wrap(w.name+" "+w.doc, 97)))
		f.Func().Id(w.name).Params(params...).Add(w.result).Block(jen.Return(target.Call(args...)))
	}
}

// grpcConsts are the bounds of runtime/a2agrpc the package names.
var grpcConsts = []string{
	"DefaultMaxRecvMsgSize", "DefaultMaxHeaderListSize", "DefaultMaxConcurrentStreams", "DefaultMaxStreams",
	"DefaultConnectionTimeout", "DefaultMaxConnectionIdle", "DefaultKeepaliveTime", "DefaultKeepaliveTimeout",
	"DefaultMinPingInterval",
}

// grpcWrappers are the functions of the generated a2agrpc package, against
// the package with the types at parent.
func grpcWrappers(parent string) []grpcWrapper {
	a2a := func(name string) *jen.Statement { return jen.Qual(parent, name) }
	str := func(name string) grpcParam { return grpcParam{name, jen.String()} }
	serverOpt := func(name, doc string, variadic bool, params ...grpcParam) grpcWrapper {
		return grpcWrapper{name: name, doc: doc, params: params, variadic: variadic, result: jen.Id("ServerOption"), inst: true}
	}
	clientOpt := func(name, doc string, params ...grpcParam) grpcWrapper {
		return grpcWrapper{name: name, doc: doc, params: params, result: jen.Id("ClientOption")}
	}
	serverOpts := grpcParam{"opts", jen.Id("ServerOption")}
	return []grpcWrapper{
		serverOpt("WithLogger", "logs handler failures (default slog.Default()).", false,
			grpcParam{"l", jen.Op("*").Qual("log/slog", "Logger")}),
		serverOpt("WithProtocolVersions", "sets the versions accepted in the a2a-version metadata; by default "+
			"only a2a.ProtocolVersion.", true, str("versions")),
		serverOpt("WithMissingVersionAs", "serves a call without a2a-version as version v instead of the "+
			"spec's 0.3 (which a 1.x server refuses).", false, str("v")),
		serverOpt("WithAuthenticator", "runs authenticate on every call, with the call's metadata; its "+
			"result becomes CallInfo.Principal, and an error refuses the call (UNAUTHENTICATED, or the "+
			"*RPCError's own code). Given to ServerOptions too, it runs before a call's message is read.", false,
			grpcParam{"authenticate", jen.Func().Params(jen.Id("ctx").Qual("context", "Context"), jen.Id("md").Qual(metadataPkg, "MD")).
				Params(jen.Id("principal").Any(), jen.Id("err").Error())}),
		serverOpt("WithAgentCard", "holds every call to what card declares, as the HTTP bindings do "+
			"(a2a.WithAgentCard): streaming RPCs need capabilities.streaming, and the extensions it marks "+
			"required must be named in a2a-extensions.", false, grpcParam{"card", jen.Op("*").Add(a2a("AgentCard"))}),
		serverOpt("WithTelemetry", "sends the calls' traces and metrics where t says (default: "+
			"OpenTelemetry's global providers); a call is a span of kind SERVER, child of the trace "+
			"context in its metadata.", false, grpcParam{"t", jen.Op("*").Add(a2a("Telemetry"))}),
		serverOpt("WithEarlierVersions", "names the earlier protocol versions (Major.Minor) served beside "+
			"this one, of those the package was generated to serve with their proto (a2a.CompatVersions): "+
			"by default all of them; WithEarlierVersions() serves none.", true, str("versions")),
		serverOpt("WithMaxStreams", "bounds the streaming calls the binding serves at once to n (default "+
			"DefaultMaxStreams); one more is refused with UNAVAILABLE. 0 or less removes the bound.", false,
			grpcParam{"n", jen.Int()}),
		{name: "ServerOptions", doc: "returns the options of a gRPC server for the A2A service that no " +
			"client can exhaust (message and metadata sizes, streams per connection, handshake, idle and " +
			"keepalive bounds); with WithAuthenticator among opts, a call is authenticated when its " +
			"headers arrive, before its message is read.", params: []grpcParam{serverOpts}, variadic: true,
			result: jen.Index().Qual(grpcPkg, "ServerOption"), spec: true},
		{name: "UnknownServiceHandler", doc: "answers the calls to another version of a service this " +
			"package serves as the HTTP bindings answer them: VERSION_NOT_SUPPORTED when the version is " +
			"not served, UNIMPLEMENTED otherwise. Pass it to grpc.NewServer with the options given to " +
			"Register…Server.", params: []grpcParam{serverOpts}, variadic: true,
			result: jen.Qual(grpcPkg, "ServerOption"), spec: true},
		clientOpt("WithVersion", "sets the a2a-version the client sends (default a2a.ProtocolVersion).", str("v")),
		clientOpt("WithMetadata", "adds a metadata pair to every call, such as authorization.",
			str("key"), str("value")),
		clientOpt("WithClientTelemetry", "sends the calls' traces and metrics where tel says (default: "+
			"OpenTelemetry's global providers); a call is a span of kind CLIENT, whose trace context its "+
			"metadata carries.", grpcParam{"tel", jen.Op("*").Add(a2a("Telemetry"))}),
		{name: "NewTransport", doc: "calls over conn, for a2a.NewA2AServiceClient or any other typed " +
			"client of package a2a.", params: []grpcParam{{"conn", jen.Qual(grpcPkg, "ClientConnInterface")},
			{"opts", jen.Id("ClientOption")}}, variadic: true, result: a2a("Transport"), spec: true},
		{name: "WithGRPC", doc: "lets a2a.NewTransportFromCard pick gRPC interfaces, dialling their url " +
			"(host:port) with dialOpts, with TLS and the system's roots unless dialOpts give credentials. " +
			"The client's headers (a2a.WithHeader) go as metadata; the transport it makes is an io.Closer " +
			"that closes the connection.", params: []grpcParam{{"dialOpts", jen.Qual(grpcPkg, "DialOption")}},
			variadic: true, result: a2a("ClientOption"), spec: true},
	}
}

// interfaceFields returns the Go names of AgentInterface's url and
// protocol_version, which the card-based client dials and speaks.
func (g *protoGen) interfaceFields() ([2]string, error) {
	var out [2]string
	s, ok := g.pkg.Lookup("AgentInterface").(*ir.Struct)
	if !ok {
		return out, fmt.Errorf("the gRPC binding needs the message AgentInterface, which %s lacks", sourceLine(g.pkg))
	}
	for i, wire := range []string{"url", "protocol_version"} {
		for _, fld := range s.Fields {
			if fld.Name == wire {
				out[i] = g.field[fld]
			}
		}
		if out[i] == "" {
			return out, fmt.Errorf("the gRPC binding needs AgentInterface.%s, which %s lacks", wire, sourceLine(g.pkg))
		}
	}
	return out, nil
}
