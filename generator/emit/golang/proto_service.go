package golang

import (
	"fmt"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/agui-gen/agui-gen/generator/ir"
	"github.com/agui-gen/agui-gen/generator/naming"
)

// The typed server and client of a service. What an RPC is called, what it
// takes and returns and whether it streams comes from the IR; how a binding
// carries it is the runtime's (runtime/a2arpc, runtime/a2acall,
// runtime/a2ahttp, gen/a2a/a2agrpc), which work on the Service and Transport types these
// wrap.

// served reports whether the bindings can carry m: unary and
// server-streaming RPCs. A client-streaming RPC is left out of the typed
// server and client, and their doc comments say so.
func served(m *ir.Method) bool { return !m.ClientStreaming }

func methodDoc(m *ir.Method) []string {
	lines := protoDoc(m.Name, m.Doc)
	if m.Deprecated {
		lines = append(lines, "", "Deprecated: the proto marks "+m.Name+" as deprecated.")
	}
	return lines
}

func (g *protoGen) leftOut(s *ir.Service) []string {
	var out []string
	for _, m := range s.Methods {
		if !served(m) {
			out = append(out, m.Name)
		}
	}
	if len(out) == 0 {
		return nil
	}
	return []string{"", "Left out, as no binding here carries client streaming: " + strings.Join(out, ", ") + "."}
}

func (g *protoGen) emitServer(f *jen.File, s *ir.Service) {
	svc := g.decl[s]
	server := svc + "Server"
	doc := wrap(fmt.Sprintf("%s is the server side of %s: implement it, bind it with Bind%s, "+
		"and serve the result with NewJSONRPCHandler, NewRESTHandler or the a2agrpc package. Requests reach it "+
		"decoded and validated; return an error from the A2A error table (ErrTaskNotFound…), or wrap one with %%w, "+
		"to answer with that error. Streaming RPCs call send once per message, in order.", server, s.FullName, svc), 100)
	doc = append(doc, g.leftOut(s)...)
	f.Line()
	f.Add(comment(doc))
	unimpl := "Unimplemented" + server
	mustEmbed := "mustEmbed" + unimpl
	f.Type().Id(server).InterfaceFunc(func(gr *jen.Group) {
		for _, m := range s.Methods {
			if !served(m) {
				continue
			}
			gr.Add(comment(methodDoc(m)))
			gr.Id(m.Name).Add(g.serverSignature(m, true))
		}
		gr.Line()
		gr.Add(comment(wrap(fmt.Sprintf("%s makes every implementation embed %s, as protoc-gen-go-grpc's "+
			"servers do, so that an RPC a new version of the spec adds never breaks one.", mustEmbed, unimpl), 96)))
		gr.Id(mustEmbed).Params()
	})

	f.Line()
	f.Add(comment(wrap(fmt.Sprintf("%s answers every RPC with ErrUnsupportedOperation. Every implementation of "+
		"%s embeds it (by value), so that the implementation keeps compiling when a new version of the spec adds an RPC, "+
		"which then answers ErrUnsupportedOperation until it is implemented.", unimpl, server), 100)))
	f.Type().Id(unimpl).Struct()
	f.Line()
	f.Func().Params(jen.Id(unimpl)).Id(mustEmbed).Params().Block()
	for _, m := range s.Methods {
		if !served(m) {
			continue
		}
		f.Line()
		f.Commentf("%s answers with ErrUnsupportedOperation.", m.Name)
		notImpl := jen.Qual(a2arpcPkg, "NewError").Call(jen.Qual(a2arpcPkg, "ErrUnsupportedOperation"), jen.Lit(m.Name+" is not implemented"))
		var body jen.Code
		if m.ServerStreaming {
			body = jen.Return(notImpl)
		} else {
			body = jen.Return(jen.Nil(), notImpl)
		}
		f.Func().Params(jen.Id(unimpl)).Id(m.Name).Add(g.serverSignature(m, false)).Block(body)
	}

	f.Line()
	f.Add(comment([]string{
		fmt.Sprintf("Bind%s binds srv to the %s service, for the transports to serve.", svc, s.FullName),
	}))
	var handlers []jen.Code
	for i, m := range s.Methods {
		handlers = append(handlers, g.bindMethod(i, m))
	}
	f.Func().Id("Bind"+svc).Params(jen.Id("srv").Id(server)).Op("*").Qual(a2arpcPkg, "Service").Block(
		jen.Id("d").Op(":=").Op("&").Id(svc),
		jen.Return(jen.Op("&").Qual(a2arpcPkg, "Service").Add(keyed(
			jen.Id("Desc").Op(":").Id("d"),
			jen.Id("Handlers").Op(":").Index().Qual(a2arpcPkg, "MethodHandler").Add(keyed(handlers...)),
		))),
	)
}

// serverSignature is the parameter and result list of m in the server
// interface; named says whether the parameters carry names.
func (g *protoGen) serverSignature(m *ir.Method, named bool) *jen.Statement {
	p := func(name string, t jen.Code) jen.Code {
		if named {
			return jen.Id(name).Add(t)
		}
		return jen.Add(t)
	}
	params := []jen.Code{
		p("ctx", jen.Qual("context", "Context")),
		p("req", jen.Op("*").Id(g.decl[m.Input])),
	}
	if m.ServerStreaming {
		params = append(params, p("send", jen.Func().Params(jen.Op("*").Id(g.decl[m.Output])).Error()))
		return jen.Params(params...).Error()
	}
	return jen.Params(params...).Params(jen.Op("*").Id(g.decl[m.Output]), jen.Error())
}

// bindMethod is the MethodHandler of the i-th method: runtime/a2arpc's
// generic handler of its kind around the server's method, which asserts the
// request to its type and hands the typed values over.
func (g *protoGen) bindMethod(i int, m *ir.Method) jen.Code {
	desc := jen.Op("&").Id("d").Dot("Methods").Index(jen.Lit(i))
	switch {
	case !served(m):
		return keyed(jen.Id("Desc").Op(":").Add(desc))
	case m.ServerStreaming:
		return jen.Qual(a2arpcPkg, "StreamMethod").Call(desc, jen.Id("srv").Dot(m.Name))
	}
	return jen.Qual(a2arpcPkg, "UnaryMethod").Call(desc, jen.Id("srv").Dot(m.Name))
}

func (g *protoGen) emitClient(f *jen.File, s *ir.Service) {
	svc := g.decl[s]
	client := svc + "Client"
	doc := wrap(fmt.Sprintf("%s calls the %s service over a Transport: NewJSONRPCTransport, "+
		"NewRESTTransport, or the a2agrpc package's. Errors the server sends come back as *RPCError, "+
		"so errors.Is(err, ErrTaskNotFound) works whichever binding carried them.", client, s.FullName), 100)
	doc = append(doc, g.leftOut(s)...)
	f.Line()
	f.Add(comment(doc))
	f.Type().Id(client).Struct(jen.Id("t").Qual(a2arpcPkg, "Transport"))
	f.Line()
	f.Commentf("New%s returns a client that calls over t.", client)
	f.Func().Id("New" + client).Params(jen.Id("t").Qual(a2arpcPkg, "Transport")).Op("*").Id(client).Block(
		jen.Return(jen.Op("&").Id(client).Values(jen.Dict{jen.Id("t"): jen.Id("t")})),
	)
	for i, m := range s.Methods {
		if !served(m) {
			continue
		}
		in, out := g.decl[m.Input], g.decl[m.Output]
		desc := jen.Op("&").Id(svc).Dot("Methods").Index(jen.Lit(i))
		f.Line()
		f.Add(comment(methodDoc(m)))
		recv := jen.Params(jen.Id("c").Op("*").Id(client))
		params := jen.Params(jen.Id("ctx").Qual("context", "Context"), jen.Id("req").Op("*").Id(in))
		if m.ServerStreaming {
			seq := jen.Qual("iter", "Seq2").Index(jen.List(jen.Op("*").Id(out), jen.Error()))
			typed := func(messages jen.Code) jen.Code {
				return jen.Return(jen.Func().Params(jen.Id("yield").Func().Params(jen.Op("*").Id(out), jen.Error()).Bool()).Block(
					jen.For(jen.List(jen.Id("m"), jen.Err()).Op(":=").Range().Add(messages)).Block(
						jen.If(jen.Err().Op("!=").Nil()).Block(
							jen.Id("yield").Call(jen.Nil(), jen.Err()),
							jen.Return(),
						),
						jen.If(jen.Op("!").Id("yield").Call(jen.Id("m").Assert(jen.Op("*").Id(out)), jen.Nil())).Block(jen.Return()),
					),
				))
			}
			f.Func().Add(recv).Id(m.Name).Add(params).Add(seq).Block(
				typed(jen.Id("c").Dot("t").Dot("Stream").Call(jen.Id("ctx"), desc, jen.Id("req"))))
			f.Line()
			f.Add(comment(wrap(fmt.Sprintf("%sReusing is %s for a caller that handles each response before it takes the next, "+
				"as a bridge that renders it does: every response is decoded into one %s, which the next overwrites, so that on "+
				"the HTTP bindings a response allocates only for what differs from the one before. A response, and all it "+
				"points to but its strings, is valid until the loop's next iteration; Clone what you keep.", m.Name, m.Name, out), 100)))
			f.Func().Add(recv).Id(m.Name + "Reusing").Add(params).Add(seq).Block(
				typed(jen.Qual(a2arpcPkg, "StreamReusing").Call(jen.Id("ctx"), jen.Id("c").Dot("t"), desc, jen.Id("req"), jen.New(jen.Id(out)))))
			continue
		}
		f.Func().Add(recv).Id(m.Name).Add(params).Params(jen.Op("*").Id(out), jen.Error()).Block(
			jen.Id("resp").Op(":=").New(jen.Id(out)),
			jen.If(jen.Err().Op(":=").Id("c").Dot("t").Dot("Call").Call(jen.Id("ctx"), desc, jen.Id("req"), jen.Id("resp")), jen.Err().Op("!=").Nil()).Block(
				jen.Return(jen.Nil(), jen.Err()),
			),
			jen.Return(jen.Id("resp"), jen.Nil()),
		)
	}
}

// emitFieldSetters gives every request message of a served RPC a SetField
// method, which the HTTP+JSON binding uses for path variables and query
// parameters.
func (g *protoGen) emitFieldSetters(f *jen.File) {
	seen := map[*ir.Struct]bool{}
	for _, s := range g.pkg.Services() {
		for _, m := range s.Methods {
			if !served(m) || len(m.HTTP) == 0 || seen[m.Input] {
				continue
			}
			seen[m.Input] = true
			g.emitFieldSetter(f, m.Input)
		}
	}
}

func (g *protoGen) emitFieldSetter(f *jen.File, st *ir.Struct) {
	name := g.decl[st]
	f.Line()
	f.Add(comment([]string{
		"SetField sets the top-level field name, given by its proto or JSON name, from text: the",
		"ProtoJSON form of the value without JSON quoting, as an HTTP+JSON path variable or query",
		"parameter carries it. A repeated field gains one element per call. An unknown name gives an",
		"error wrapping ErrUnknownField; text that does not parse gives ErrInvalidParams naming the field.",
	}))
	f.Func().Params(jen.Id("m").Op("*").Id(name)).Id("SetField").Params(jen.Id("name"), jen.Id("text").String()).Error().Block(
		jen.Switch(jen.Id("name")).BlockFunc(func(gr *jen.Group) {
			for _, fl := range st.Fields {
				names := []jen.Code{jen.Lit(fl.Name)}
				if fl.WireName() != fl.Name {
					names = append(names, jen.Lit(fl.WireName()))
				}
				gr.Case(names...).Block(g.setFromText(fl)...)
			}
			gr.Default().Block(jen.Return(jen.Qual(a2arpcPkg, "UnknownField").Call(jen.Id("name"))))
		}),
	)
}

// setFromText is the body of one SetField case: parse the text into the
// field's element type, then store it.
func (g *protoGen) setFromText(fl *ir.Field) []jen.Code {
	t := fl.Type
	repeated := t.Kind == ir.KindArray
	if repeated {
		t = *t.Elem
	}
	wire := jen.Lit(fl.WireName())
	var parse []jen.Code // statements leaving the parsed value in v
	value := jen.Id("v")
	switch t.Kind {
	case ir.KindString:
		value = jen.Id("text")
	case ir.KindBool:
		parse = []jen.Code{jen.List(jen.Id("v"), jen.Err()).Op(":=").Qual(a2arpcPkg, "TextBool").Call(wire, jen.Id("text"))}
	case ir.KindInt:
		bits, unsigned := 64, false
		switch t.Scalar {
		case "int32", "sint32", "sfixed32":
			bits = 32
		case "uint32", "fixed32":
			bits, unsigned = 32, true
		case "uint64", "fixed64":
			unsigned = true
		}
		fn := "TextInt"
		if unsigned {
			fn = "TextUint"
		}
		parse = []jen.Code{jen.List(jen.Id("n"), jen.Err()).Op(":=").Qual(a2arpcPkg, fn).Call(wire, jen.Id("text"), jen.Lit(bits))}
		value = g.goType(t).Call(jen.Id("n"))
	case ir.KindFloat:
		bits := 64
		if t.Scalar == "float" {
			bits = 32
		}
		parse = []jen.Code{jen.List(jen.Id("n"), jen.Err()).Op(":=").Qual(a2arpcPkg, "TextFloat").Call(wire, jen.Id("text"), jen.Lit(bits))}
		value = g.goType(t).Call(jen.Id("n"))
	case ir.KindBytes:
		parse = []jen.Code{jen.List(jen.Id("v"), jen.Err()).Op(":=").Qual(a2arpcPkg, "TextBytes").Call(wire, jen.Id("text"))}
	case ir.KindTimestamp:
		parse = []jen.Code{jen.List(jen.Id("v"), jen.Err()).Op(":=").Qual(a2arpcPkg, "TextTimestamp").Call(wire, jen.Id("text"))}
	case ir.KindNamed:
		e, ok := t.Decl.(*ir.Enum)
		if !ok {
			return []jen.Code{jen.Return(jen.Qual(a2arpcPkg, "NotSettable").Call(wire))}
		}
		parse = []jen.Code{jen.List(jen.Id("v"), jen.Err()).Op(":=").Qual(a2arpcPkg, "TextEnum").Call(wire, jen.Id("text"), jen.Id("parse"+g.decl[e]))}
	default:
		return []jen.Code{jen.Return(jen.Qual(a2arpcPkg, "NotSettable").Call(wire))}
	}
	var out []jen.Code
	out = append(out, parse...)
	if len(parse) > 0 {
		out = append(out, jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())))
	}
	field := jen.Id("m").Dot(g.field[fl])
	switch {
	case fl.Oneof != nil:
		out = append(out, jen.Id("m").Dot(naming.Exported(fl.Oneof.Name)).Op("=").Op("&").Id(g.wrapper[fl]).Values(jen.Dict{jen.Id(g.field[fl]): value}))
	case repeated:
		out = append(out, field.Clone().Op("=").Append(field.Clone(), value))
	case fl.Presence && isScalarLike(fl.Type):
		if t.Kind == ir.KindInt || t.Kind == ir.KindFloat {
			out = append(out, jen.Id("v").Op(":=").Add(value))
			value = jen.Id("v")
		}
		out = append(out, field.Clone().Op("=").Op("&").Add(value))
	default:
		out = append(out, field.Clone().Op("=").Add(value))
	}
	return append(out, jen.Return(jen.Nil()))
}
