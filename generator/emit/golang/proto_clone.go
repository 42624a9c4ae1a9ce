package golang

import (
	"github.com/dave/jennifer/jen"

	"github.com/agui-gen/agui-gen/generator/ir"
)

// ---- deep copies ----

// emitClone writes the Clone method of a message: a copy that shares no
// memory with the original, made field by field, where a copy through the
// protobuf encoding would encode and decode the whole message.
func (g *protoGen) emitClone(f *jen.File, st *ir.Struct) {
	name := g.decl[st]
	body := []jen.Code{
		jen.If(jen.Id("x").Op("==").Nil()).Block(jen.Return(jen.Nil())),
		jen.Id("c").Op(":=").Op("*").Id("x"),
	}
	oneofs := map[*ir.Oneof]bool{}
	for _, fl := range st.Fields {
		if o := fl.Oneof; o != nil {
			if !oneofs[o] {
				oneofs[o] = true
				body = append(body, g.cloneOneof(st, o)...)
			}
			continue
		}
		body = append(body, g.cloneField(fl, jen.Id("c").Dot(g.field[fl]), jen.Id("x").Dot(g.field[fl]))...)
	}
	body = append(body, jen.Return(jen.Op("&").Id("c")))
	f.Line()
	f.Comment("Clone returns a deep copy of x, which shares no memory with it; nil for nil.")
	f.Func().Params(jen.Id("x").Op("*").Id(name)).Id("Clone").Params().Op("*").Id(name).Block(body...)
}

// cloneOneof copies the member a oneof holds into c.
func (g *protoGen) cloneOneof(st *ir.Struct, o *ir.Oneof) []jen.Code {
	var cases []jen.Code
	for _, fl := range st.Fields {
		if fl.Oneof != o {
			continue
		}
		v := jen.Id("v").Dot(g.field[fl])
		copied, _ := g.cloneValue(fl.Type, v)
		cases = append(cases, jen.Case(jen.Op("*").Id(g.wrapper[fl])).Block(
			jen.Id("c").Dot(jenName(o)).Op("=").Op("&").Id(g.wrapper[fl]).Values(jen.Dict{jen.Id(g.field[fl]): copied})))
	}
	return []jen.Code{jen.Switch(jen.Id("v").Op(":=").Id("x").Dot(jenName(o)).Assert(jen.Type())).Block(cases...)}
}

// cloneField copies field fl from src to dst, where the struct copy that
// comes first shares memory.
func (g *protoGen) cloneField(fl *ir.Field, dst, src *jen.Statement) []jen.Code {
	t := fl.Type
	switch {
	case fl.Presence && isScalarLike(t):
		return []jen.Code{jen.If(src.Clone().Op("!=").Nil()).Block(dst.Clone().Op("=").Qual(wirePkg, "Ptr").Call(jen.Op("*").Add(src.Clone())))}
	case t.Kind == ir.KindArray || t.Kind == ir.KindMap:
		elem, deep := g.cloneValue(*t.Elem, jen.Id("e"))
		if !deep {
			pkg := "slices"
			if t.Kind == ir.KindMap {
				pkg = "maps"
			}
			return []jen.Code{dst.Clone().Op("=").Qual(pkg, "Clone").Call(src)}
		}
		key := jen.Id("i")
		if t.Kind == ir.KindMap {
			key = jen.Id("k")
		}
		return []jen.Code{jen.If(src.Clone().Op("!=").Nil()).Block(
			dst.Clone().Op("=").Make(g.goType(t), jen.Len(src.Clone())),
			jen.For(jen.List(key.Clone(), jen.Id("e")).Op(":=").Range().Add(src.Clone())).Block(dst.Clone().Index(key.Clone()).Op("=").Add(elem)),
		)}
	}
	if copied, deep := g.cloneValue(t, src); deep {
		return []jen.Code{dst.Clone().Op("=").Add(copied)}
	}
	return nil
}

// cloneValue is an expression copying v, a single value (not repeated) of
// type t, and whether t holds memory that a plain assignment would share.
func (g *protoGen) cloneValue(t ir.Type, v *jen.Statement) (*jen.Statement, bool) {
	switch t.Kind {
	case ir.KindBytes, ir.KindAny:
		return jen.Qual("slices", "Clone").Call(v), true
	case ir.KindTimestamp:
		return jen.Id("cloneTime").Call(v), true
	case ir.KindNamed:
		if _, ok := t.Decl.(*ir.Struct); ok {
			return v.Clone().Dot("Clone").Call(), true
		}
	}
	return v, false
}

// emitCloneTime writes the copy of a timestamp that Clone methods call, when
// some message holds one.
func (g *protoGen) emitCloneTime(f *jen.File) {
	holds := func(t ir.Type) bool {
		return t.Kind == ir.KindTimestamp || (t.Elem != nil && t.Elem.Kind == ir.KindTimestamp)
	}
	for _, st := range g.messages() {
		for _, fl := range st.Fields {
			if holds(fl.Type) {
				f.Line()
				f.Comment("cloneTime copies a timestamp, for Clone.")
				f.Func().Id("cloneTime").Params(jen.Id("t").Op("*").Qual("time", "Time")).Op("*").Qual("time", "Time").Block(
					jen.If(jen.Id("t").Op("==").Nil()).Block(jen.Return(jen.Nil())),
					jen.Id("c").Op(":=").Op("*").Id("t"),
					jen.Return(jen.Op("&").Id("c")),
				)
				return
			}
		}
	}
}
