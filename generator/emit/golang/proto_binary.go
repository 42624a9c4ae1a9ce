package golang

import (
	"fmt"

	"github.com/dave/jennifer/jen"

	"github.com/agui-gen/agui-gen/generator/ir"
)

// ---- protobuf binary ----

const (
	wireVarint  = 0
	wireFixed64 = 1
	wireBytes   = 2
	wireFixed32 = 5
)

// wireType is the wire type of one value of t.
func wireType(t ir.Type) int {
	switch t.Kind {
	case ir.KindBool:
		return wireVarint
	case ir.KindInt:
		switch t.Scalar {
		case "fixed32", "sfixed32":
			return wireFixed32
		case "fixed64", "sfixed64":
			return wireFixed64
		}
		return wireVarint
	case ir.KindFloat:
		if t.Scalar == "float" {
			return wireFixed32
		}
		return wireFixed64
	case ir.KindNamed:
		if _, ok := t.Decl.(*ir.Enum); ok {
			return wireVarint
		}
	}
	return wireBytes
}

// packable reports whether repeated values of t are packed.
func packable(t ir.Type) bool { return wireType(t) != wireBytes }

// tagBytes appends the literal bytes of a field tag.
func tagBytes(num, wt int) []jen.Code {
	v := uint64(num)<<3 | uint64(wt)
	var out []jen.Code
	for v >= 0x80 {
		out = append(out, jen.Op(fmt.Sprintf("0x%02x", byte(v)|0x80)))
		v >>= 7
	}
	return append(out, jen.Op(fmt.Sprintf("0x%02x", byte(v))))
}

// wireTypeNames are runtime/wire's names of the wire types.
var wireTypeNames = map[int]string{wireVarint: "WireVarint", wireFixed64: "WireFixed64", wireBytes: "WireBytes", wireFixed32: "WireFixed32"}

// tagCase is the case, in a reader's switch on ProtoReader.NextTag, of
// field num in wire type wt: a value in any other wire type is skipped, as
// an unknown field is.
func tagCase(num, wt int, body ...jen.Code) jen.Code {
	return jen.Case(jen.Lit(num).Op("<<").Lit(3).Op("|").Qual(wirePkg, wireTypeNames[wt])).Block(body...)
}

// fieldLoop reads fields from w until its end, switching on their keys;
// a field no case takes is skipped.
func fieldLoop(cases []jen.Code) jen.Code {
	return jen.For().Block(
		jen.List(jen.Id("tag"), jen.Id("ok")).Op(":=").Id("w").Dot("NextTag").Call(),
		jen.If(jen.Op("!").Id("ok")).Block(jen.Break()),
		jen.Switch(jen.Id("tag")).Block(append(cases, jen.Default().Block(jen.Id("w").Dot("SkipTag").Call(jen.Id("tag"))))...),
	)
}

func appendTagCode(num, wt int) jen.Code {
	return jen.Id("b").Op("=").Append(append([]jen.Code{jen.Id("b")}, tagBytes(num, wt)...)...)
}

// wireValue appends one value of t without its tag.
func (g *protoGen) wireValue(t ir.Type, v *jen.Statement) []jen.Code {
	set := func(c *jen.Statement) []jen.Code { return []jen.Code{jen.Id("b").Op("=").Add(c)} }
	b := jen.Id("b")
	switch t.Kind {
	case ir.KindBool:
		return set(jen.Qual(wirePkg, "AppendBoolVarint").Call(b, v))
	case ir.KindInt:
		switch t.Scalar {
		case "sint32", "sint64":
			return set(jen.Qual(wirePkg, "AppendZigzag").Call(b, jen.Int64().Call(v)))
		case "fixed32", "sfixed32":
			return set(jen.Qual(wirePkg, "AppendFixed32").Call(b, jen.Uint32().Call(v)))
		case "fixed64", "sfixed64":
			return set(jen.Qual(wirePkg, "AppendFixed64").Call(b, jen.Uint64().Call(v)))
		case "int32":
			return set(jen.Qual(wirePkg, "AppendVarint").Call(b, jen.Uint64().Call(jen.Int64().Call(v))))
		}
		return set(jen.Qual(wirePkg, "AppendVarint").Call(b, jen.Uint64().Call(v)))
	case ir.KindFloat:
		if t.Scalar == "float" {
			return set(jen.Qual(wirePkg, "AppendFixed32").Call(b, jen.Qual("math", "Float32bits").Call(v)))
		}
		return set(jen.Qual(wirePkg, "AppendFixed64").Call(b, jen.Qual("math", "Float64bits").Call(v)))
	case ir.KindString:
		return set(jen.Qual(wirePkg, "AppendLenString").Call(b, v))
	case ir.KindBytes:
		return set(jen.Qual(wirePkg, "AppendLenBytes").Call(b, v))
	case ir.KindNamed:
		switch t.Decl.(type) {
		case *ir.Enum:
			return set(jen.Qual(wirePkg, "AppendVarint").Call(b, jen.Uint64().Call(jen.Int64().Call(v))))
		case *ir.Struct:
			return lenDelimited(func(b *jen.Statement) *jen.Statement { return v.Dot("AppendProto").Call(b) })
		}
	case ir.KindTimestamp:
		return lenDelimited(func(b *jen.Statement) *jen.Statement {
			return jen.Qual(wirePkg, "AppendTimestampWire").Call(b, jen.Op("*").Add(v))
		})
	case ir.KindAny:
		fn := "AppendValueWire"
		if t.Scalar == "google.protobuf.Struct" {
			fn = "AppendStructWire"
		}
		return lenDelimited(func(b *jen.Statement) *jen.Statement { return jen.Qual(wirePkg, fn).Call(b, v) })
	}
	panic("proto wireValue: unsupported type")
}

// lenDelimited appends a message body with its length: a one-byte length
// placeholder at len(b), the body after it, and the length written over the
// placeholder. len(b) is read before b is assigned, whatever the order the
// arguments are evaluated in.
func lenDelimited(body func(b *jen.Statement) *jen.Statement) []jen.Code {
	return []jen.Code{jen.Id("b").Op("=").Qual(wirePkg, "EndLen").Call(
		body(jen.Append(jen.Id("b"), jen.Lit(0))), jen.Len(jen.Id("b")))}
}

// wireField appends a whole field: tags and values.
func (g *protoGen) wireField(fl *ir.Field, v *jen.Statement) []jen.Code {
	t := fl.Type
	switch t.Kind {
	case ir.KindArray:
		elem := *t.Elem
		if packable(elem) {
			return []jen.Code{appendTagCode(fl.Number, wireBytes), jen.BlockFunc(func(gr *jen.Group) {
				gr.Var().Id("at").Int()
				gr.List(jen.Id("b"), jen.Id("at")).Op("=").Qual(wirePkg, "BeginLen").Call(jen.Id("b"))
				gr.For(jen.List(jen.Id("_"), jen.Id("e")).Op(":=").Range().Add(v)).Block(g.wireValue(elem, jen.Id("e"))...)
				gr.Id("b").Op("=").Qual(wirePkg, "EndLen").Call(jen.Id("b"), jen.Id("at"))
			})}
		}
		return []jen.Code{jen.For(jen.List(jen.Id("_"), jen.Id("e")).Op(":=").Range().Add(v)).Block(
			append([]jen.Code{appendTagCode(fl.Number, wireBytes)}, g.wireValue(elem, jen.Id("e"))...)...)}
	case ir.KindMap:
		key, val := *t.Key, *t.Elem
		entry := []jen.Code{appendTagCode(fl.Number, wireBytes), jen.BlockFunc(func(gr *jen.Group) {
			gr.Var().Id("at").Int()
			gr.List(jen.Id("b"), jen.Id("at")).Op("=").Qual(wirePkg, "BeginLen").Call(jen.Id("b"))
			gr.Add(appendTagCode(1, wireType(key)))
			for _, c := range g.wireValue(key, jen.Id("k")) {
				gr.Add(c)
			}
			gr.Add(appendTagCode(2, wireType(val)))
			for _, c := range g.wireValue(val, v.Clone().Index(jen.Id("k"))) {
				gr.Add(c)
			}
			gr.Id("b").Op("=").Qual(wirePkg, "EndLen").Call(jen.Id("b"), jen.Id("at"))
		})}
		return []jen.Code{jen.For(jen.List(jen.Id("_"), jen.Id("k")).Op(":=").Range().Qual(wirePkg, "SortedKeys").Call(v.Clone())).Block(entry...)}
	}
	return append([]jen.Code{appendTagCode(fl.Number, wireType(t))}, g.wireValue(t, v)...)
}

func (g *protoGen) emitProto(f *jen.File) {
	for _, st := range g.messages() {
		g.emitAppendProto(f, st)
		g.emitReadProto(f, st)
		g.emitClone(f, st)
	}
	g.emitCloneTime(f)
}

func (g *protoGen) emitAppendProto(f *jen.File, st *ir.Struct) {
	name := g.decl[st]
	body := []jen.Code{jen.If(jen.Id("x").Op("==").Nil()).Block(jen.Return(jen.Id("b")))}
	for _, fl := range byNumber(st) {
		if o := fl.Oneof; o != nil {
			body = append(body, jen.If(jen.List(jen.Id("v"), jen.Id("ok")).Op(":=").Id("x").Dot(jenName(o)).Assert(jen.Op("*").Id(g.wrapper[fl])), jen.Id("ok")).Block(
				g.wireField(fl, jen.Id("v").Dot(g.field[fl]))...))
			continue
		}
		v := jen.Id("x").Dot(g.field[fl])
		val := v.Clone()
		if fl.Presence && isScalarLike(fl.Type) {
			val = jen.Op("*").Add(v.Clone())
		}
		if fl.Type.Kind == ir.KindArray && !packable(*fl.Type.Elem) {
			body = append(body, g.wireField(fl, val)...) // a loop, which an empty list skips
			continue
		}
		body = append(body, jen.If(g.setCond(fl, v)).Block(g.wireField(fl, val)...))
	}
	body = append(body, jen.Return(jen.Id("b")))
	f.Line()
	f.Comment("AppendProto appends the protobuf binary encoding of x to b, fields in number order.")
	f.Func().Params(jen.Id("x").Op("*").Id(name)).Id("AppendProto").Params(jen.Id("b").Index().Byte()).Index().Byte().Block(body...)
	f.Line()
	f.Comment("UnmarshalProto decodes the protobuf binary encoding of a " + st.FullName + ". Unknown fields")
	f.Comment("are skipped.")
	f.Func().Params(jen.Id("x").Op("*").Id(name)).Id("UnmarshalProto").Params(jen.Id("data").Index().Byte()).Error().Block(
		jen.Op("*").Id("x").Op("=").Id(name).Values(),
		jen.Return(jen.Qual(wirePkg, "AsError").Call(jen.Id("x").Dot("readProto").Call(jen.Qual(wirePkg, "NewProtoReader").Call(jen.Id("data"))))),
	)
}

// readWire is an expression decoding one value of t from w, given its wire
// type was checked. For length-delimited values it reads w.lenBytes().
func (g *protoGen) readWire(t ir.Type, reader, field string) *jen.Statement {
	w := jen.Id(reader)
	switch t.Kind {
	case ir.KindBool:
		return w.Dot("Varint").Call().Op("!=").Lit(0)
	case ir.KindInt:
		goT := g.goType(t)
		switch t.Scalar {
		case "sint32", "sint64":
			return goT.Call(jen.Qual(wirePkg, "Zigzag").Call(w.Dot("Varint").Call()))
		case "fixed32", "sfixed32":
			return goT.Call(w.Dot("Fixed32").Call())
		case "fixed64", "sfixed64":
			return goT.Call(w.Dot("Fixed64").Call())
		}
		return goT.Call(w.Dot("Varint").Call())
	case ir.KindFloat:
		if t.Scalar == "float" {
			return jen.Qual("math", "Float32frombits").Call(w.Dot("Fixed32").Call())
		}
		return jen.Qual("math", "Float64frombits").Call(w.Dot("Fixed64").Call())
	case ir.KindString:
		return jen.Qual(wirePkg, "WireString").Call(w.Clone())
	case ir.KindBytes:
		return jen.Qual("bytes", "Clone").Call(w.Dot("LenBytes").Call())
	case ir.KindNamed:
		switch d := t.Decl.(type) {
		case *ir.Enum:
			return jen.Id(g.decl[d]).Call(jen.Int32().Call(w.Dot("Varint").Call()))
		case *ir.Struct:
			return jen.Id("read"+g.decl[d]+"Proto").Call(w.Clone(), jen.Lit(field))
		}
	case ir.KindTimestamp:
		return jen.Qual(wirePkg, "WireTimestamp").Call(w.Clone(), jen.Lit(field))
	case ir.KindAny:
		if t.Scalar == "google.protobuf.Struct" {
			return jen.Qual(wirePkg, "WireStruct").Call(w.Clone(), jen.Lit(field))
		}
		return jen.Qual(wirePkg, "WireValue").Call(w.Clone(), jen.Lit(field))
	}
	panic("proto readWire: unsupported type")
}

func (g *protoGen) emitReadProto(f *jen.File, st *ir.Struct) {
	name := g.decl[st]
	var cases []jen.Code
	for _, fl := range byNumber(st) {
		t := fl.Type
		field := fl.WireName()
		dst := jen.Id("x").Dot(g.field[fl])
		switch {
		case fl.Oneof != nil:
			cases = append(cases, tagCase(fl.Number, wireType(t),
				jen.Id("x").Dot(jenName(fl.Oneof)).Op("=").Op("&").Id(g.wrapper[fl]).Values(jen.Dict{jen.Id(g.field[fl]): g.readWire(t, "w", field)})))
		case t.Kind == ir.KindArray:
			elem := *t.Elem
			if packable(elem) {
				cases = append(cases, tagCase(fl.Number, wireBytes,
					jen.Id("p").Op(":=").Qual(wirePkg, "NewProtoReader").Call(jen.Id("w").Dot("LenBytes").Call()),
					jen.For(jen.Id("p").Dot("More").Call()).Block(
						dst.Clone().Op("=").Append(dst.Clone(), g.readWire(elem, "p", "")),
					),
					jen.If(jen.Id("p").Dot("Err").Call().Op("!=").Nil()).Block(jen.Return(jen.Id("p").Dot("Err").Call().Dot("Under").Call(jen.Lit(field)))),
				))
			}
			cases = append(cases, tagCase(fl.Number, wireType(elem), dst.Clone().Op("=").Append(dst.Clone(), g.readWire(elem, "w", field))))
		case t.Kind == ir.KindMap:
			key, val := *t.Key, *t.Elem
			cases = append(cases, tagCase(fl.Number, wireBytes,
				jen.If(dst.Clone().Op("==").Nil()).Block(dst.Clone().Op("=").Make(g.goType(t))),
				jen.Id("e").Op(":=").Qual(wirePkg, "NewProtoReader").Call(jen.Id("w").Dot("LenBytes").Call()),
				jen.Var().Id("k").Add(g.goType(key)),
				jen.Var().Id("v").Add(g.goType(val)),
				jen.For().BlockFunc(func(gr *jen.Group) {
					gr.List(jen.Id("n"), jen.Id("ewt"), jen.Id("ok")).Op(":=").Id("e").Dot("Next").Call()
					gr.If(jen.Op("!").Id("ok")).Block(jen.Break())
					gr.Switch().Block(
						jen.Case(jen.Id("n").Op("==").Lit(1).Op("&&").Id("ewt").Op("==").Lit(wireType(key))).Block(jen.Id("k").Op("=").Add(g.readWire(key, "e", ""))),
						jen.Case(jen.Id("n").Op("==").Lit(2).Op("&&").Id("ewt").Op("==").Lit(wireType(val))).Block(jen.Id("v").Op("=").Add(g.readWire(val, "e", ""))),
						jen.Default().Block(jen.Id("e").Dot("Skip").Call(jen.Id("ewt"))),
					)
				}),
				jen.If(jen.Id("e").Dot("Err").Call().Op("!=").Nil()).Block(jen.Return(jen.Id("e").Dot("Err").Call().Dot("Under").Call(jen.Lit(field)))),
				dst.Clone().Index(jen.Id("k")).Op("=").Id("v"),
			))
		default:
			val := g.readWire(t, "w", field)
			if fl.Presence && isScalarLike(t) {
				val = jen.Qual(wirePkg, "Ptr").Call(val)
			}
			cases = append(cases, tagCase(fl.Number, wireType(t), dst.Clone().Op("=").Add(val)))
		}
	}
	f.Line()
	f.Func().Params(jen.Id("x").Op("*").Id(name)).Id("readProto").Params(jen.Id("w").Op("*").Qual(wirePkg, "ProtoReader")).Op("*").Id("Error").Block(
		fieldLoop(cases),
		jen.Return(jen.Id("w").Dot("Err").Call()),
	)
	f.Line()
	f.Comment(fmt.Sprintf("read%sProto reads a length-delimited %s from w; an error is located at field.", name, name))
	f.Func().Id("read"+name+"Proto").Params(jen.Id("w").Op("*").Qual(wirePkg, "ProtoReader"), jen.Id("field").String()).Op("*").Id(name).Block(
		jen.Id("x").Op(":=").New(jen.Id(name)),
		jen.If(jen.Err().Op(":=").Id("x").Dot("readProto").Call(jen.Qual(wirePkg, "NewProtoReader").Call(jen.Id("w").Dot("LenBytes").Call())), jen.Err().Op("!=").Nil()).Block(
			jen.Id("w").Dot("Adopt").Call(jen.Err().Dot("Under").Call(jen.Id("field")))),
		jen.Return(jen.Id("x")),
	)
}
