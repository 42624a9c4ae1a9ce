package golang

import (
	"fmt"

	"github.com/dave/jennifer/jen"

	"github.com/agui-gen/agui-gen/generator/ir"
	"github.com/agui-gen/agui-gen/generator/naming"
)

// emitDecoders writes readJSON and UnmarshalJSON for every value type, and
// the decode functions of every union.
func (g *gen) emitDecoders(f *jen.File) error {
	for _, d := range g.pkg.Decls {
		switch d := d.(type) {
		case *ir.Struct:
			if d.IsMixin {
				continue
			}
			if err := g.emitReadJSON(f, d); err != nil {
				return err
			}
		case *ir.Union:
			g.emitUnionDecoder(f, d)
		}
	}
	for _, c := range g.n.order {
		g.emitChoiceDecoder(f, c)
	}
	return nil
}

func (g *gen) emitReadJSON(f *jen.File, st *ir.Struct) error {
	name := g.n.decl[st]
	var cases []jen.Code
	var required []*ir.Field
	bit := map[*ir.Field]int{}
	var post []jen.Code
	var locals []jen.Code
	for _, fl := range st.AllFields() {
		if fl.Narrowed && !fl.Discriminator && fl.Const == nil {
			continue
		}
		var body []jen.Code
		switch {
		case fl.Const != nil && !stored(fl):
			body = append(body, jen.Id("r").Dot("ExpectConst").Call(jen.Lit(fl.Const.String)))
		case fl.TagOf != "":
			tagVar := naming.Unexported(fl.Name)
			locals = append(locals, jen.Var().Id(tagVar).String())
			body = append(body, jen.Id(tagVar).Op("=").Id("r").Dot("ReadString").Call())
		case fieldTagOf(st, fl) != nil:
			tagField := fieldTagOf(st, fl)
			u := fl.Type.Decl.(*ir.Union)
			deferVar := naming.Unexported(fl.Name) + "At"
			locals = append(locals, jen.Var().Id(deferVar).Qual(wirePkg, "Deferred"))
			body = append(body, jen.Id(deferVar).Op("=").Id("r").Dot("Defer").Call())
			post = append(post, jen.Id("r").Dot("Revisit").Call(jen.Id(deferVar), jen.Func().Params(jen.Id("r").Op("*").Qual(wirePkg, "Reader")).Block(
				g.fieldExpr(st, fl).Op("=").Id("read"+g.n.decl[u]).Call(jen.Id("r"), jen.Id(naming.Unexported(tagField.Name))),
			)))
		default:
			body = g.readField(st, fl)
		}
		if fl.Required {
			bit[fl] = len(required)
			required = append(required, fl)
			body = append(body, jen.Id("seen").Op("|=").Lit(uint64(1)<<bit[fl]))
		}
		cases = append(cases, jen.Case(jen.Lit(fl.Name)).Block(body...))
	}
	if len(required) > 64 {
		return fmt.Errorf("%s: %s has more than 64 required members", st.Pos, st.Name)
	}
	if g.hasExtra(st) {
		cases = append(cases, jen.Default().Block(jen.Id("x").Dot("Extra").Op("=").Append(jen.Id("x").Dot("Extra"), jen.Id("r").Dot("ReadMember").Call())))
	} else {
		cases = append(cases, jen.Default().Block(jen.Id("r").Dot("UnknownField").Call()))
	}
	var body []jen.Code
	if len(required) > 0 {
		body = append(body, jen.Var().Id("seen").Uint64())
	}
	body = append(body, locals...)
	body = append(body,
		jen.If(jen.Op("!").Id("r").Dot("BeginObject").Call()).Block(jen.Return()),
		jen.For(jen.Id("r").Dot("NextField").Call()).Block(jen.Switch(jen.String().Call(jen.Id("r").Dot("Key").Call())).Block(cases...)),
	)
	if len(required) > 0 {
		all := uint64(1)<<len(required) - 1
		if len(required) == 64 {
			all = ^uint64(0)
		}
		names := []jen.Code{jen.Id("seen")}
		for _, fl := range required {
			names = append(names, jen.Lit(fl.Name))
		}
		report := []jen.Code{jen.Id("r").Dot("MissingOf").Call(names...)}
		if len(post) > 0 {
			report = append(report, jen.Return()) // the deferred members are not read
		}
		body = append(body, jen.If(jen.Id("seen").Op("!=").Lit(all).Op("&&").Op("!").Id("r").Dot("Failed").Call()).Block(report...))
	}
	body = append(body, post...)
	f.Line()
	f.Comment(readJSONDoc)
	f.Func().Params(jen.Id("x").Op("*").Id(name)).Id("ReadJSON").Params(jen.Id("r").Op("*").Qual(wirePkg, "Reader")).Block(body...)
	f.Line()
	f.Comment("UnmarshalJSON implements json.Unmarshaler. It drops members the schema does not")
	f.Comment("declare; use a Decoder to reject or report them.")
	f.Func().Params(jen.Id("x").Op("*").Id(name)).Id("UnmarshalJSON").Params(jen.Id("data").Index().Byte()).Error().Block(
		jen.Op("*").Id("x").Op("=").Id(name).Values(),
		jen.Return(jen.Id("Decoder").Values().Dot("Decode").Call(jen.Id("data"), jen.Id("x"))),
	)
	return nil
}

// fieldTagOf returns the field whose value selects fl's type, if any.
func fieldTagOf(st *ir.Struct, fl *ir.Field) *ir.Field {
	for _, f := range st.AllFields() {
		if f.TagOf == fl.Name {
			return f
		}
	}
	return nil
}

// readField returns the statements reading a stored member.
func (g *gen) readField(st *ir.Struct, fl *ir.Field) []jen.Code {
	dst := g.fieldExpr(st, fl)
	t := fl.Type
	switch repOf(t, fl.Required) {
	case repPointer:
		if isStructType(t) {
			return []jen.Code{
				dst.Clone().Op("=").New(g.goType(t)),
				dst.Clone().Dot("ReadJSON").Call(jen.Id("r")),
			}
		}
		return []jen.Code{dst.Clone().Op("=").Qual(wirePkg, "Ptr").Call(g.readExpr(t))}
	}
	if isStructType(t) {
		return []jen.Code{dst.Clone().Dot("ReadJSON").Call(jen.Id("r"))}
	}
	return []jen.Code{dst.Clone().Op("=").Add(g.readExpr(t))}
}

// readExpr is an expression reading a value of type t (not a struct).
func (g *gen) readExpr(t ir.Type) *jen.Statement {
	r := jen.Id("r")
	switch t.Kind {
	case ir.KindString:
		return r.Dot("ReadString").Call()
	case ir.KindInt:
		return r.Dot("ReadInt").Call()
	case ir.KindFloat:
		return r.Dot("ReadFloat").Call()
	case ir.KindBool:
		return r.Dot("ReadBool").Call()
	case ir.KindAny:
		return r.Dot("ReadRaw").Call(jen.Lit(t.NotNull), jen.Lit(t.JSONType == "object"))
	case ir.KindArray:
		return jen.Qual(wirePkg, "ReadSlice").Call(r, g.elemReader(*t.Elem))
	case ir.KindMap:
		return jen.Qual(wirePkg, "ReadMap").Call(r, g.elemReader(*t.Elem))
	case ir.KindNamed:
		switch d := t.Decl.(type) {
		case *ir.Enum:
			return jen.Id(g.n.decl[d]).Call(r.Dot("ReadString").Call())
		case *ir.Alias:
			at := d.Type
			at.NotNull = at.NotNull || t.NotNull
			return g.readExpr(at)
		case *ir.Union:
			return jen.Id("read" + g.n.decl[d]).Call(r)
		}
	}
	panic(fmt.Sprintf("readExpr: unsupported kind %d", t.Kind))
}

// elemReader is a function value of the shape func(v *T, r *reader) that
// reads one array element.
func (g *gen) elemReader(t ir.Type) jen.Code {
	switch t.Kind {
	case ir.KindString:
		return jen.Qual(wirePkg, "ReadStringTo")
	case ir.KindInt:
		return jen.Qual(wirePkg, "ReadIntTo")
	case ir.KindFloat:
		return jen.Qual(wirePkg, "ReadFloatTo")
	case ir.KindBool:
		return jen.Qual(wirePkg, "ReadBoolTo")
	case ir.KindAny:
		if !t.NotNull && t.JSONType == "" {
			return jen.Qual(wirePkg, "ReadAnyTo")
		}
	case ir.KindStringOrArray:
		return jen.Parens(jen.Op("*").Add(g.goType(t))).Dot("ReadJSON")
	case ir.KindNamed:
		switch d := t.Decl.(type) {
		case *ir.Struct:
			return jen.Parens(jen.Op("*").Id(g.n.decl[d])).Dot("ReadJSON")
		case *ir.Union:
			return jen.Id("read" + g.n.decl[d] + "To")
		case *ir.Alias:
			at := d.Type
			at.NotNull = at.NotNull || t.NotNull
			if at.Kind != ir.KindArray {
				return g.elemReader(at)
			}
		}
	}
	return jen.Func().Params(jen.Id("v").Op("*").Add(g.goType(t)), jen.Id("r").Op("*").Qual(wirePkg, "Reader")).Block(
		jen.Op("*").Id("v").Op("=").Add(g.readExpr(t)))
}

// emitUnionDecoder writes the function that reads a union value by its tag
// and, for unions whose tag is inside the value, the public decode entry
// points.
func (g *gen) emitUnionDecoder(f *jen.File, u *ir.Union) {
	name := g.n.decl[u]
	sentinel := "ErrUnknown" + name
	cases := func(gr *jen.Group) {
		for _, m := range u.Members {
			gr.Case(jen.Lit(m.Value)).Block(
				jen.Id("v").Op(":=").New(jen.Id(g.n.decl[m.Struct])),
				jen.Id("v").Dot("ReadJSON").Call(jen.Id("r")),
				jen.Return(jen.Id("v")),
			)
		}
	}
	if u.External {
		f.Line()
		f.Comment(fmt.Sprintf("read%s reads the value selected by the %s tag.", name, u.Tag))
		fallback := []jen.Code{
			jen.Id("r").Dot("FailWith").Call(jen.Lit("oneOf"), jen.Lit("unknown "+u.Tag+" ").Op("+").Qual("strconv", "Quote").Call(jen.Id("tag")), jen.Id(sentinel)),
			jen.Return(jen.Nil()),
		}
		if u.Open {
			fallback = []jen.Code{jen.Return(jen.Op("&").Id(g.n.other[u]).Values(jen.Dict{
				jen.Id("Tag"): jen.Id("tag"),
				jen.Id("Raw"): jen.Id("r").Dot("ReadRaw").Call(jen.True(), jen.True()),
			}))}
		}
		f.Func().Id("read"+name).Params(jen.Id("r").Op("*").Qual(wirePkg, "Reader"), jen.Id("tag").String()).Id(name).Block(
			append([]jen.Code{jen.Switch(jen.Id("tag")).BlockFunc(cases)}, fallback...)...)
		if !u.Open {
			g.emitSentinel(f, u, sentinel)
		}
		return
	}
	if u.Tag == "" {
		// Told apart by which member is present: there is no unknown value,
		// only a value with none of the members, which presentOf reports.
		var keys []jen.Code
		for _, m := range u.Members {
			keys = append(keys, jen.Lit(m.Value))
		}
		f.Line()
		f.Comment(fmt.Sprintf("read%s reads a %s, choosing its type by the member it has.", name, name))
		f.Func().Id("read"+name).Params(jen.Id("r").Op("*").Qual(wirePkg, "Reader")).Id(name).Block(
			jen.Switch(jen.Id("r").Dot("PresentOf").Call(keys...)).BlockFunc(cases),
			jen.Return(jen.Nil()),
		)
	} else {
		g.emitSentinel(f, u, sentinel)
		f.Line()
		f.Comment(fmt.Sprintf("read%s reads a %s, choosing its type by the %q member.", name, name, u.Tag))
		f.Func().Id("read"+name).Params(jen.Id("r").Op("*").Qual(wirePkg, "Reader")).Id(name).Block(
			jen.List(jen.Id("tag"), jen.Id("ok")).Op(":=").Id("r").Dot("Tag").Call(jen.Lit(u.Tag)),
			jen.If(jen.Op("!").Id("ok")).Block(jen.Return(jen.Nil())),
			jen.Switch(jen.String().Call(jen.Id("tag"))).BlockFunc(cases),
			jen.Id("r").Dot("UnknownTag").Call(jen.Lit(u.Tag), jen.Id("tag"), jen.Id(sentinel)),
			jen.Return(jen.Nil()),
		)
	}
	f.Line()
	f.Func().Id("read"+name+"To").Params(jen.Id("v").Op("*").Id(name), jen.Id("r").Op("*").Qual(wirePkg, "Reader")).Block(
		jen.Op("*").Id("v").Op("=").Id("read" + name).Call(jen.Id("r")))
	f.Line()
	f.Comment(fmt.Sprintf("Unmarshal%s decodes one %s, dropping members the schema does not declare.", name, name))
	if u.Tag != "" {
		f.Comment(fmt.Sprintf("An unknown %s is reported as an error wrapping %s, so a receiver can", u.Tag, sentinel))
		f.Comment("tell it apart and skip the value.")
	}
	f.Func().Id("Unmarshal"+name).Params(jen.Id("data").Index().Byte()).Params(jen.Id(name), jen.Error()).Block(
		jen.Return(jen.Id("Decoder").Values().Dot("Decode" + name).Call(jen.Id("data"))))
	f.Line()
	f.Comment(fmt.Sprintf("Decode%s decodes one %s with d's options.", name, name))
	f.Func().Params(jen.Id("d").Id("Decoder")).Id("Decode"+name).Params(jen.Id("data").Index().Byte()).Params(jen.Id(name), jen.Error()).Block(
		jen.Id("r").Op(":=").Qual(wirePkg, "NewReader").Call(jen.Id("data"), jen.Qual(wirePkg, "Decoder").Call(jen.Id("d"))),
		jen.Id("v").Op(":=").Id("read"+name).Call(jen.Id("r")),
		jen.If(jen.Err().Op(":=").Id("r").Dot("Finish").Call(), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
		jen.Return(jen.Id("v"), jen.Nil()),
	)
}

func (g *gen) emitSentinel(f *jen.File, u *ir.Union, sentinel string) {
	f.Line()
	f.Comment(fmt.Sprintf("%s is behind the error for a %s whose %s this package does not know.", sentinel, g.n.decl[u], u.Tag))
	f.Var().Id(sentinel).Op("=").Qual("errors", "New").Call(jen.Lit(fmt.Sprintf("%s: unknown %s %s", g.opts.PackageName, naming.Exported(u.Name), u.Tag)))
}

func (g *gen) emitChoiceDecoder(f *jen.File, c *choiceType) {
	list := jen.Id("x").Dot(c.ListField)
	f.Line()
	f.Comment(readJSONDoc)
	f.Func().Params(jen.Id("x").Op("*").Id(c.Name)).Id("ReadJSON").Params(jen.Id("r").Op("*").Qual(wirePkg, "Reader")).Block(
		jen.Switch(jen.Id("r").Dot("Peek").Call()).Block(
			jen.Case(jen.LitRune('"')).Block(jen.Id("x").Dot("Text").Op("=").Id("r").Dot("ReadString").Call()),
			jen.Case(jen.LitRune('[')).Block(list.Clone().Op("=").Qual(wirePkg, "ReadSlice").Call(jen.Id("r"), g.elemReader(c.Elem))),
			jen.Default().Block(jen.Id("r").Dot("WrongChoice").Call(jen.Lit("a string or an array"))),
		),
	)
	f.Line()
	f.Comment("UnmarshalJSON implements json.Unmarshaler.")
	f.Func().Params(jen.Id("x").Op("*").Id(c.Name)).Id("UnmarshalJSON").Params(jen.Id("data").Index().Byte()).Error().Block(
		jen.Op("*").Id("x").Op("=").Id(c.Name).Values(),
		jen.Id("r").Op(":=").Qual(wirePkg, "NewReader").Call(jen.Id("data"), jen.Qual(wirePkg, "Decoder").Values()),
		jen.Id("x").Dot("ReadJSON").Call(jen.Id("r")),
		jen.Return(jen.Id("r").Dot("Finish").Call()),
	)
}
