package golang

import (
	"fmt"

	"github.com/dave/jennifer/jen"

	"github.com/agui-gen/agui-gen/generator/ir"
)

// ---- validation ----

func (g *protoGen) emitValidate(f *jen.File) {
	for _, st := range g.messages() {
		name := g.decl[st]
		var body []jen.Code
		body = append(body, jen.If(jen.Id("x").Op("==").Nil()).Block(jen.Return(jen.Nil())))
		done := map[*ir.Oneof]bool{}
		for _, fl := range st.Fields {
			if o := fl.Oneof; o != nil {
				if done[o] {
					continue
				}
				done[o] = true
				var cases []jen.Code
				for _, m := range o.Fields {
					checks := g.validateValue(m.Type, jen.Id("v").Dot(g.field[m]), m.WireName())
					if len(checks) > 0 {
						cases = append(cases, jen.Case(jen.Op("*").Id(g.wrapper[m])).Block(checks...))
					}
				}
				var required []jen.Code
				if oneofRequired(o) {
					required = []jen.Code{jen.If(jen.Id("x").Dot(jenName(o)).Op("==").Nil()).Block(
						jen.Return(jen.Qual(wirePkg, "ValidationError").Call(jen.Lit(""), jen.Lit("required"), jen.Lit("one of the "+o.Name+" fields must be set"))))}
				}
				body = append(body, required...)
				if len(cases) > 0 {
					body = append(body, jen.Switch(jen.Id("v").Op(":=").Id("x").Dot(jenName(o)).Assert(jen.Type())).Block(cases...))
				}
				continue
			}
			v := jen.Id("x").Dot(g.field[fl])
			if fl.Required {
				if c := g.requiredCheck(fl, v); c != nil {
					body = append(body, c)
				}
			}
			body = append(body, g.validateValue(fl.Type, v, fl.WireName())...)
		}
		body = append(body, jen.Return(jen.Nil()))
		f.Line()
		f.Comment("Validate checks the fields the proto marks REQUIRED (set, and non-empty when repeated),")
		f.Comment("recursively, and returns the first violation as an *Error naming its JSON path.")
		f.Func().Params(jen.Id("x").Op("*").Id(name)).Id("Validate").Params().Error().Block(
			jen.Return(jen.Qual(wirePkg, "AsError").Call(jen.Id("x").Dot("validate").Call())))
		f.Line()
		f.Func().Params(jen.Id("x").Op("*").Id(name)).Id("validate").Params().Op("*").Id("Error").Block(body...)
	}
}

// oneofRequired: a oneof is required when the proto says its comment makes
// it so is not machine-readable; only field_behavior on a member counts.
func oneofRequired(o *ir.Oneof) bool {
	for _, f := range o.Fields {
		if f.Required {
			return true
		}
	}
	return false
}

// requiredCheck fails when a REQUIRED field holds its unset value. Numbers
// and booleans without presence cannot tell unset from zero, so they pass.
func (g *protoGen) requiredCheck(fl *ir.Field, v *jen.Statement) jen.Code {
	fail := jen.Return(jen.Qual(wirePkg, "RequiredError").Call(jen.Lit(fl.WireName())))
	t := fl.Type
	switch {
	case fl.Presence:
		return jen.If(v.Clone().Op("==").Nil()).Block(fail)
	case t.Kind == ir.KindString, t.Kind == ir.KindBytes, t.Kind == ir.KindArray, t.Kind == ir.KindMap:
		return jen.If(jen.Len(v.Clone()).Op("==").Lit(0)).Block(fail)
	case t.Kind == ir.KindAny, t.Kind == ir.KindTimestamp:
		return jen.If(v.Clone().Op("==").Nil()).Block(fail)
	case t.Kind == ir.KindNamed:
		switch t.Decl.(type) {
		case *ir.Struct:
			return jen.If(v.Clone().Op("==").Nil()).Block(fail)
		case *ir.Enum:
			return jen.If(v.Clone().Op("==").Lit(0)).Block(fail)
		}
	}
	return nil
}

// validateValue checks the contents of a set value: nested messages,
// timestamp range, raw JSON.
func (g *protoGen) validateValue(t ir.Type, v *jen.Statement, field string) []jen.Code {
	ret := func(e jen.Code) []jen.Code {
		return []jen.Code{jen.If(jen.Err().Op(":=").Add(e), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err()))}
	}
	switch t.Kind {
	case ir.KindTimestamp:
		return []jen.Code{jen.If(v.Clone().Op("!=").Nil()).Block(ret(jen.Qual(wirePkg, "CheckTimestamp").Call(jen.Lit(field), jen.Op("*").Add(v.Clone())))...)}
	case ir.KindAny:
		object := t.Scalar == "google.protobuf.Struct"
		return []jen.Code{jen.If(v.Clone().Op("!=").Nil()).Block(ret(jen.Qual(wirePkg, "CheckProtoJSON").Call(jen.Lit(field), v.Clone(), jen.Lit(object)))...)}
	case ir.KindNamed:
		if _, ok := t.Decl.(*ir.Struct); ok {
			return []jen.Code{jen.If(jen.Err().Op(":=").Add(v.Clone()).Dot("validate").Call(), jen.Err().Op("!=").Nil()).Block(
				jen.Return(jen.Err().Dot("Under").Call(jen.Lit(field))))}
		}
	case ir.KindArray:
		elem := *t.Elem
		if _, ok := elem.Decl.(*ir.Struct); ok && elem.Kind == ir.KindNamed {
			return []jen.Code{jen.For(jen.List(jen.Id("i"), jen.Id("e")).Op(":=").Range().Add(v.Clone())).Block(
				jen.If(jen.Id("e").Op("==").Nil()).Block(jen.Return(jen.Qual(wirePkg, "RequiredError").Call(jen.Lit("")).Dot("At").Call(jen.Id("i")).Dot("Under").Call(jen.Lit(field)))),
				jen.If(jen.Err().Op(":=").Id("e").Dot("validate").Call(), jen.Err().Op("!=").Nil()).Block(
					jen.Return(jen.Err().Dot("At").Call(jen.Id("i")).Dot("Under").Call(jen.Lit(field)))))}
		}
	case ir.KindMap:
		elem := *t.Elem
		if _, ok := elem.Decl.(*ir.Struct); ok && elem.Kind == ir.KindNamed {
			return []jen.Code{jen.For(jen.List(jen.Id("k"), jen.Id("e")).Op(":=").Range().Add(v.Clone())).Block(
				jen.If(jen.Err().Op(":=").Id("e").Dot("validate").Call(), jen.Err().Op("!=").Nil()).Block(
					jen.Return(jen.Err().Dot("Under").Call(jen.Id("k")).Dot("Under").Call(jen.Lit(field)))))}
		}
	}
	return nil
}

// ---- services ----

func (g *protoGen) emitServices(f *jen.File) {
	f.Comment("NewMessage returns an empty message of the given full protobuf name, or nil when the")
	f.Comment("package has no such message.")
	f.Func().Id("NewMessage").Params(jen.Id("fullName").String()).Qual(a2arpcPkg, "ProtoValue").Block(
		jen.Switch(jen.Id("fullName")).BlockFunc(func(gr *jen.Group) {
			for _, st := range g.messages() {
				gr.Case(jen.Lit(st.FullName)).Block(jen.Return(jen.New(jen.Id(g.decl[st]))))
			}
		}),
		jen.Return(jen.Nil()),
	)
	for _, s := range g.pkg.Services() {
		name := g.decl[s]
		f.Line()
		doc := protoDoc(name, s.Doc)
		doc = append(doc, "", fmt.Sprintf("%s describes the %s service.", name, s.FullName))
		f.Add(comment(doc))
		var methods []jen.Code
		for _, m := range s.Methods {
			methods = append(methods, methodDesc(m, "/"+s.FullName+"/"+m.Name, "", m.HTTP, jen.Id(g.decl[m.Input]), jen.Id(g.decl[m.Output])))
		}
		f.Var().Id(name).Op("=").Qual(a2arpcPkg, "ServiceDesc").Add(keyed(
			jen.Id("Name").Op(":").Lit(s.FullName),
			jen.Id("Methods").Op(":").Index().Qual(a2arpcPkg, "MethodDesc").Values(methods...),
		))
		g.emitServer(f, s)
		g.emitClient(f, s)
	}
	g.emitFieldSetters(f)
}

// methodDesc is the a2arpc.MethodDesc literal of m, its members in the
// struct's order (jen.Dict would sort them by name). earlier names the
// earlier version whose proto m is of, or is "".
func methodDesc(m *ir.Method, fullMethod, earlier string, rules []ir.HTTPRule, in, out jen.Code) jen.Code {
	elems := []jen.Code{jen.Id("Name").Op(":").Lit(m.Name), jen.Id("FullMethod").Op(":").Lit(fullMethod)}
	if m.ClientStreaming {
		elems = append(elems, jen.Id("ClientStreaming").Op(":").True())
	}
	if m.ServerStreaming {
		elems = append(elems, jen.Id("ServerStreaming").Op(":").True())
	}
	if len(rules) > 0 {
		var hs []jen.Code
		for _, h := range rules {
			rule := []jen.Code{jen.Id("Method").Op(":").Lit(h.Method), jen.Id("Path").Op(":").Lit(h.Path)}
			if h.Body != "" {
				rule = append(rule, jen.Id("Body").Op(":").Lit(h.Body))
			}
			if h.ResponseBody != "" {
				rule = append(rule, jen.Id("ResponseBody").Op(":").Lit(h.ResponseBody))
			}
			hs = append(hs, keyed(rule...))
		}
		elems = append(elems, jen.Id("HTTP").Op(":").Index().Qual(a2arpcPkg, "HTTPRule").Values(hs...))
	}
	elems = append(elems,
		jen.Id("NewRequest").Op(":").Func().Params().Qual(a2arpcPkg, "ProtoValue").Block(jen.Return(jen.New(in))),
		jen.Id("NewResponse").Op(":").Func().Params().Qual(a2arpcPkg, "ProtoValue").Block(jen.Return(jen.New(out))))
	if earlier != "" {
		elems = append(elems, jen.Id("Earlier").Op(":").Lit(earlier))
	}
	return keyed(elems...)
}

// keyed is a composite literal's keyed elements (Name: value), in the order
// given and a line each, as gofmt lays out jen.Dict's, which sorts them.
func keyed(elems ...jen.Code) *jen.Statement {
	body := jen.Line()
	for _, e := range elems {
		body.Add(e).Op(",").Line()
	}
	return jen.Values(body)
}
