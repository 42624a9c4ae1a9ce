package golang

import "github.com/dave/jennifer/jen"

// The names of runtime/a2arpc that a package with the A2A runtime offers
// as its own (a2a.ErrTaskNotFound, a2a.NewError, a2a.ProtoValue), so that
// handlers, stores and clients written against the package need not import
// the runtime, and code written before the runtime moved out keeps
// compiling. Each is an alias, a variable holding the runtime's value, or a
// function that calls the runtime's: one type, one sentinel, for both.
var (
	a2arpcTypes = []struct{ name, doc string }{
		{"ServiceDesc", "describes an RPC service as data, for servers and clients to route by."},
		{"MethodDesc", "describes one RPC."},
		{"HTTPRule", "is one HTTP+JSON binding of an RPC."},
		{"ProtoValue", "is implemented by every message type of the package."},
		{"FieldSetter", "is implemented by the request messages of RPCs with HTTP bindings."},
		{"Service", "is a service bound to an implementation, as every transport serves one."},
		{"MethodHandler", "serves one RPC, whatever the binding."},
		{"Transport", "carries RPCs from a client to a server over one binding."},
		{"RPCError", "is an error of the A2A error table, as every binding writes it."},
		{"FieldViolation", "names one invalid request field of an RPCError."},
		{"CompatVersion", "serves the clients of an earlier protocol version with this version's service."},
		{"CompatMethod", "is one JSON-RPC method of an earlier version."},
		{"CompatRPC", "is how one RPC of an earlier version's proto is served."},
		{"CompatError", "is a value of an earlier version that this version cannot hold."},
	}
	a2arpcErrors = []string{
		"ErrParse", "ErrInvalidRequest", "ErrMethodNotFound", "ErrInvalidParams", "ErrInternal",
		"ErrTaskNotFound", "ErrTaskNotCancelable", "ErrPushNotificationNotSupported", "ErrUnsupportedOperation",
		"ErrContentTypeNotSupported", "ErrInvalidAgentResponse", "ErrExtendedAgentCardNotConfigured",
		"ErrExtensionSupportRequired", "ErrVersionNotSupported", "ErrTaskGenerationMismatch",
		"ErrUnauthenticated", "ErrPermissionDenied",
	}
	a2arpcFuncs = []struct {
		name, doc string
		params    []jen.Code
		args      []jen.Code
		result    jen.Code
	}{
		{"NewError", "returns an error of the kind of sentinel (one of the Err… values) with its own message.",
			[]jen.Code{jen.Id("sentinel").Op("*").Id("RPCError"), jen.Id("message").String()},
			[]jen.Code{jen.Id("sentinel"), jen.Id("message")}, jen.Op("*").Id("RPCError")},
		{"AsRPCError", "turns any error a handler returns into the *RPCError a binding writes.",
			[]jen.Code{jen.Id("err").Error()}, []jen.Code{jen.Id("err")}, jen.Op("*").Id("RPCError")},
		{"ErrorFromCode", "rebuilds an error a peer sent: by its ErrorInfo reason when it has one the table knows, else by its code.",
			[]jen.Code{jen.Id("code").Int(), jen.List(jen.Id("reason"), jen.Id("message")).String()},
			[]jen.Code{jen.Id("code"), jen.Id("reason"), jen.Id("message")}, jen.Op("*").Id("RPCError")},
		{"ErrorFromStatus", "rebuilds an error from a google.rpc.Code and an ErrorInfo reason, for the bindings that carry no JSON-RPC code.",
			[]jen.Code{jen.Id("grpcCode").Int(), jen.List(jen.Id("reason"), jen.Id("message")).String()},
			[]jen.Code{jen.Id("grpcCode"), jen.Id("reason"), jen.Id("message")}, jen.Op("*").Id("RPCError")},
		{"GRPCCodeOf", "looks a google.rpc.Code up by its name (\"NOT_FOUND\"); an unknown name is UNKNOWN's.",
			[]jen.Code{jen.Id("name").String()}, []jen.Code{jen.Id("name")}, jen.Int()},
	}
)

// a2arpcNames lists the names emitA2ARPC declares, which the spec's
// declarations must not take.
func a2arpcNames() []string {
	names := []string{"ErrorDomain", "ErrUnknownField"}
	for _, t := range a2arpcTypes {
		names = append(names, t.name)
	}
	names = append(names, a2arpcErrors...)
	for _, fn := range a2arpcFuncs {
		names = append(names, fn.name)
	}
	return names
}

// emitA2ARPC writes the package's names for runtime/a2arpc's.
func emitA2ARPC(f *jen.File) {
	for _, t := range a2arpcTypes {
		f.Add(comment(wrap(t.name+" "+t.doc+" It is a2arpc."+t.name+".", 80)))
		f.Type().Id(t.name).Op("=").Qual(a2arpcPkg, t.name)
		f.Line()
	}
	f.Comment("ErrorDomain is the google.rpc.ErrorInfo domain of A2A errors.")
	f.Const().Id("ErrorDomain").Op("=").Qual(a2arpcPkg, "ErrorDomain")
	f.Line()
	f.Comment("The errors of the A2A error table (a2arpc). Return one, or wrap one with %w,")
	f.Comment("from a handler; test for one with errors.Is.")
	f.Var().DefsFunc(func(g *jen.Group) {
		for _, name := range a2arpcErrors {
			g.Id(name).Op("=").Qual(a2arpcPkg, name)
		}
	})
	f.Line()
	f.Comment("ErrUnknownField is behind the error SetField returns for a name the message has")
	f.Comment("no top-level field for.")
	f.Var().Id("ErrUnknownField").Op("=").Qual(a2arpcPkg, "ErrUnknownField")
	for _, fn := range a2arpcFuncs {
		f.Line()
		f.Add(comment(wrap(fn.name+" "+fn.doc, 80)))
		f.Func().Id(fn.name).Params(fn.params...).Add(fn.result).Block(
			jen.Return(jen.Qual(a2arpcPkg, fn.name).Call(fn.args...)),
		)
	}
}
