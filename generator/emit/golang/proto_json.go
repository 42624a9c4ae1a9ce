package golang

import (
	"fmt"

	"github.com/dave/jennifer/jen"

	"github.com/agui-gen/agui-gen/generator/ir"
	"github.com/agui-gen/agui-gen/generator/naming"
)

// ---- ProtoJSON ----

func (g *protoGen) emitJSON(f *jen.File) {
	g.emitEnumReaders(f)
	for _, st := range g.messages() {
		g.emitAppendJSON(f, st)
		g.emitReadJSON(f, st)
	}
}

// is64 reports whether an integer scalar is written as a JSON string.
func is64(t ir.Type) bool {
	switch t.Scalar {
	case "int64", "sint64", "sfixed64", "uint64", "fixed64":
		return true
	}
	return false
}

// zeroCheck is the condition under which an implicit-presence field is set.
func (g *protoGen) setCond(fl *ir.Field, v *jen.Statement) *jen.Statement {
	t := fl.Type
	if fl.Presence {
		return v.Clone().Op("!=").Nil()
	}
	switch t.Kind {
	case ir.KindString:
		return v.Clone().Op("!=").Lit("")
	case ir.KindBool:
		return v.Clone()
	case ir.KindInt, ir.KindFloat:
		return v.Clone().Op("!=").Lit(0)
	case ir.KindBytes, ir.KindArray, ir.KindMap:
		return jen.Len(v.Clone()).Op(">").Lit(0)
	case ir.KindNamed:
		if _, ok := t.Decl.(*ir.Enum); ok {
			return v.Clone().Op("!=").Lit(0)
		}
	}
	return v.Clone().Op("!=").Nil()
}

// alwaysWritten reports whether a field is written even when it holds its
// zero value: one the proto marks field_behavior REQUIRED, whose absence a
// reader could not tell from "not sent" (ListTasksResponse.next_page_token
// is "" on the last page, and A2A §3.1.4 says it is always present). A
// message field has no zero value to write but null, and a field with
// explicit presence says itself whether it is set, so both keep their
// check.
func alwaysWritten(fl *ir.Field) bool {
	if !fl.Required || fl.Presence || fl.Oneof != nil {
		return false
	}
	switch fl.Type.Kind {
	case ir.KindString, ir.KindBool, ir.KindInt, ir.KindFloat, ir.KindBytes, ir.KindArray, ir.KindMap:
		return true
	case ir.KindNamed:
		_, isEnum := fl.Type.Decl.(*ir.Enum)
		return isEnum
	}
	return false
}

// jsonValue appends one value (not a field) of type t.
func (g *protoGen) jsonValue(t ir.Type, v *jen.Statement) []jen.Code {
	set := func(c *jen.Statement) []jen.Code { return []jen.Code{jen.Id("b").Op("=").Add(c)} }
	switch t.Kind {
	case ir.KindString:
		return set(jen.Qual(wirePkg, "AppendString").Call(jen.Id("b"), v))
	case ir.KindBool:
		return set(jen.Qual(wirePkg, "AppendBool").Call(jen.Id("b"), v))
	case ir.KindBytes:
		return set(jen.Qual(wirePkg, "AppendBytes").Call(jen.Id("b"), v))
	case ir.KindInt:
		switch t.Scalar {
		case "uint64", "fixed64":
			return set(jen.Qual(wirePkg, "AppendUint64String").Call(jen.Id("b"), v))
		case "int64", "sint64", "sfixed64":
			return set(jen.Qual(wirePkg, "AppendInt64String").Call(jen.Id("b"), v))
		}
		return set(jen.Qual(wirePkg, "AppendInt").Call(jen.Id("b"), jen.Int64().Call(v)))
	case ir.KindFloat:
		if t.Scalar == "float" {
			return set(jen.Qual(wirePkg, "AppendFloat32").Call(jen.Id("b"), v))
		}
		return set(jen.Qual(wirePkg, "AppendDouble").Call(jen.Id("b"), v))
	case ir.KindAny:
		return set(jen.Qual(wirePkg, "AppendRaw").Call(jen.Id("b"), v))
	case ir.KindTimestamp:
		return set(jen.Qual(wirePkg, "AppendTimestamp").Call(jen.Id("b"), jen.Op("*").Add(v)))
	case ir.KindArray:
		elem := g.jsonValue(*t.Elem, v.Clone().Index(jen.Id("i")))
		return []jen.Code{
			jen.Id("b").Op("=").Append(jen.Id("b"), jen.LitRune('[')),
			jen.For(jen.Id("i").Op(":=").Range().Add(v.Clone())).Block(append([]jen.Code{
				jen.If(jen.Id("i").Op(">").Lit(0)).Block(jen.Id("b").Op("=").Append(jen.Id("b"), jen.LitRune(',')))}, elem...)...),
			jen.Id("b").Op("=").Append(jen.Id("b"), jen.LitRune(']')),
		}
	case ir.KindMap:
		val := g.jsonValue(*t.Elem, v.Clone().Index(jen.Id("k")))
		return []jen.Code{
			jen.Id("b").Op("=").Append(jen.Id("b"), jen.LitRune('{')),
			jen.For(jen.List(jen.Id("i"), jen.Id("k")).Op(":=").Range().Qual(wirePkg, "SortedKeys").Call(v.Clone())).Block(append([]jen.Code{
				jen.If(jen.Id("i").Op(">").Lit(0)).Block(jen.Id("b").Op("=").Append(jen.Id("b"), jen.LitRune(','))),
				jen.Id("b").Op("=").Qual(wirePkg, "AppendString").Call(jen.Id("b"), jen.Id("k")),
				jen.Id("b").Op("=").Append(jen.Id("b"), jen.LitRune(':')),
			}, val...)...),
			jen.Id("b").Op("=").Append(jen.Id("b"), jen.LitRune('}')),
		}
	case ir.KindNamed:
		switch t.Decl.(type) {
		case *ir.Enum:
			return set(jen.Qual(wirePkg, "AppendEnum").Call(jen.Id("b"), v.Clone().Dot("String").Call(), jen.Int32().Call(v)))
		case *ir.Struct:
			return set(v.Dot("AppendJSON").Call(jen.Id("b")))
		}
	}
	panic("proto jsonValue: unsupported type")
}

func (g *protoGen) emitAppendJSON(f *jen.File, st *ir.Struct) {
	name := g.decl[st]
	e := &encoder{}
	e.lit("{")
	done := map[*ir.Oneof]bool{}
	for _, fl := range st.Fields {
		if o := fl.Oneof; o != nil {
			if done[o] {
				continue
			}
			done[o] = true
			e.add(jen.Switch(jen.Id("v").Op(":=").Id("x").Dot(jenName(o)).Assert(jen.Type())).BlockFunc(func(gr *jen.Group) {
				for _, m := range o.Fields {
					gr.Case(jen.Op("*").Id(g.wrapper[m])).Block(append(e.keyCode(m.WireName()), g.jsonValue(m.Type, jen.Id("v").Dot(g.field[m]))...)...)
				}
			}))
			e.optional() // no member of the oneof may be set
			continue
		}
		v := jen.Id("x").Dot(g.field[fl])
		val := v.Clone()
		if fl.Presence && isScalarLike(fl.Type) {
			val = jen.Op("*").Add(v.Clone())
		}
		if alwaysWritten(fl) {
			e.always(fl.WireName(), g.jsonValue(fl.Type, val))
			continue
		}
		e.add(jen.If(g.setCond(fl, v)).Block(append(e.keyCode(fl.WireName()), g.jsonValue(fl.Type, val)...)...))
		e.optional()
	}
	e.lit("}")
	body := e.body()
	f.Line()
	f.Comment("AppendJSON appends the ProtoJSON encoding of x to b.")
	f.Func().Params(jen.Id("x").Op("*").Id(name)).Id("AppendJSON").Params(jen.Id("b").Index().Byte()).Index().Byte().Block(body...)
	f.Line()
	f.Comment("MarshalJSON implements json.Marshaler with ProtoJSON.")
	f.Func().Params(jen.Id("x").Op("*").Id(name)).Id("MarshalJSON").Params().Params(jen.Index().Byte(), jen.Error()).Block(
		jen.Return(jen.Id("x").Dot("AppendJSON").Call(jen.Nil()), jen.Nil()))
}

func jenName(o *ir.Oneof) string { return naming.Exported(o.Name) }

// readValue is an expression reading one ProtoJSON value of type t. prev,
// when not nil, is an expression holding the value it replaces, whose
// memory the read may take (a string equal to it, a message, a list's
// array); values of other kinds are read afresh.
func (g *protoGen) readValue(t ir.Type, prev *jen.Statement) *jen.Statement {
	r := jen.Id("r")
	switch t.Kind {
	case ir.KindString:
		if prev != nil {
			return r.Dot("ReadStringReusing").Call(prev)
		}
		return r.Dot("ReadString").Call()
	case ir.KindBool:
		return r.Dot("ReadBool").Call()
	case ir.KindBytes:
		return r.Dot("ReadBytes").Call()
	case ir.KindInt:
		switch t.Scalar {
		case "int32", "sint32", "sfixed32":
			return r.Dot("ReadInt32").Call()
		case "uint32", "fixed32":
			return r.Dot("ReadUint32").Call()
		case "uint64", "fixed64":
			return r.Dot("ReadUint64").Call()
		}
		return r.Dot("ReadInt64").Call()
	case ir.KindFloat:
		if t.Scalar == "float" {
			return r.Dot("ReadFloat32").Call()
		}
		return r.Dot("ReadDouble").Call()
	case ir.KindAny:
		return r.Dot("ReadRaw").Call(jen.False(), jen.Lit(t.JSONType == "object"))
	case ir.KindTimestamp:
		return jen.Qual(wirePkg, "Ptr").Call(r.Dot("ReadTimestamp").Call())
	case ir.KindArray:
		elem := *t.Elem
		read := jen.Func().Params(jen.Id("v").Op("*").Add(g.goType(elem)), jen.Id("r").Op("*").Qual(wirePkg, "Reader")).BlockFunc(func(gr *jen.Group) {
			var elemPrev *jen.Statement
			if prev != nil && reusable(elem) {
				elemPrev = jen.Op("*").Id("v")
			}
			g.readInto(gr, elem, jen.Op("*").Id("v"), elemPrev)
		})
		if prev != nil {
			return jen.Qual(wirePkg, "ReadSliceReusing").Call(r, prev, read)
		}
		return jen.Qual(wirePkg, "ReadSlice").Call(r, read)
	case ir.KindNamed:
		switch d := t.Decl.(type) {
		case *ir.Enum:
			return jen.Id("read" + g.decl[d]).Call(r)
		case *ir.Struct:
			if prev == nil {
				prev = jen.Nil()
			}
			return jen.Id("read"+g.decl[d]+"JSON").Call(r, prev)
		}
	}
	panic("proto readValue: unsupported type")
}

// reusable reports whether reading a value of type t can take memory from
// the value it replaces: strings, messages, and lists of them.
func reusable(t ir.Type) bool {
	switch t.Kind {
	case ir.KindString:
		return true
	case ir.KindArray:
		return true // the list's array, at least
	case ir.KindNamed:
		_, ok := t.Decl.(*ir.Struct)
		return ok
	}
	return false
}

// readInto reads a value of type t into dst, taking memory from prev as
// readValue does.
func (g *protoGen) readInto(gr *jen.Group, t ir.Type, dst, prev *jen.Statement) {
	if t.Kind == ir.KindMap {
		gr.If(jen.Op("!").Id("r").Dot("BeginObject").Call()).Block(jen.Return())
		gr.Add(dst.Clone()).Op("=").Make(g.goType(t))
		gr.For(jen.Id("r").Dot("NextField").Call()).BlockFunc(func(loop *jen.Group) {
			loop.Id("k").Op(":=").String().Call(jen.Id("r").Dot("Key").Call())
			loop.Add(dst.Clone()).Index(jen.Id("k")).Op("=").Add(g.readValue(*t.Elem, nil))
		})
		return
	}
	gr.Add(dst).Op("=").Add(g.readValue(t, prev))
}

// inline is the statements body writes, without a block around them: a
// case clause is a scope of its own already.
func inline(body func(*jen.Group)) jen.Code {
	return jen.CustomFunc(jen.Options{Separator: "\n"}, body)
}

// emitReadJSON writes the decoding of a message: ReadJSON, which reads
// into x as it is, and readJSON beneath it, which can take the memory of
// the value x held before (prev) so that a stream decoded into one value
// over and over allocates only for what changed; read<T>JSON, which the
// messages that hold a T call; UnmarshalJSON; and, for the message a
// streaming RPC answers with, UnmarshalJSONReusing.
func (g *protoGen) emitReadJSON(f *jen.File, st *ir.Struct) {
	name := g.decl[st]
	prev := func(fl *ir.Field) *jen.Statement {
		if !reusable(fl.Type) {
			return nil
		}
		return jen.Id("prev").Dot("Get" + g.field[fl]).Call()
	}
	var cases []jen.Code
	for _, fl := range st.Fields {
		names := []jen.Code{jen.Lit(fl.WireName())}
		if fl.WireName() != fl.Name {
			names = append(names, jen.Lit(fl.Name))
		}
		var stmts []jen.Code
		nullable := !(fl.Type.Kind == ir.KindAny && fl.Type.Scalar == "google.protobuf.Value")
		if nullable {
			stmts = append(stmts, jen.If(jen.Id("r").Dot("SkipNull").Call()).Block(jen.Continue()))
		}
		if o := fl.Oneof; o != nil {
			field := jen.Id("x").Dot(jenName(o))
			wrapper := jen.Op("*").Id(g.wrapper[fl])
			stmts = append(stmts,
				jen.If(field.Clone().Op("!=").Nil()).Block(
					jen.Id("r").Dot("Fail").Call(jen.Lit("oneOf"), jen.Lit("a second member of the "+o.Name+" oneof")),
					jen.Return()),
			)
			var member *jen.Statement
			if reusable(fl.Type) {
				// The member the value held before is read over, when it is this one.
				stmts = append(stmts,
					jen.List(jen.Id("w"), jen.Id("_")).Op(":=").Id("prev").Dot("Get"+jenName(o)).Call().Assert(wrapper.Clone()),
					jen.If(jen.Id("w").Op("==").Nil()).Block(jen.Id("w").Op("=").New(jen.Id(g.wrapper[fl]))),
				)
				member = jen.Id("w").Dot(g.field[fl])
			} else {
				stmts = append(stmts, jen.Id("w").Op(":=").New(jen.Id(g.wrapper[fl])))
			}
			stmts = append(stmts, inline(func(gr *jen.Group) { g.readInto(gr, fl.Type, jen.Id("w").Dot(g.field[fl]), member) }))
			stmts = append(stmts, field.Clone().Op("=").Id("w"))
		} else {
			dst := jen.Id("x").Dot(g.field[fl])
			if fl.Presence && isScalarLike(fl.Type) {
				stmts = append(stmts, dst.Op("=").Qual(wirePkg, "Ptr").Call(g.readValue(fl.Type, nil)))
			} else {
				stmts = append(stmts, inline(func(gr *jen.Group) { g.readInto(gr, fl.Type, dst, prev(fl)) }))
			}
		}
		cases = append(cases, jen.Case(names...).Block(stmts...))
	}
	cases = append(cases, jen.Default().Block(jen.Id("r").Dot("UnknownField").Call()))
	f.Line()
	f.Comment(readJSONDoc)
	f.Func().Params(jen.Id("x").Op("*").Id(name)).Id("ReadJSON").Params(jen.Id("r").Op("*").Qual(wirePkg, "Reader")).Block(
		jen.Id("x").Dot("readJSON").Call(jen.Id("r"), jen.Nil()),
	)
	f.Line()
	f.Comment("readJSON reads x from r, taking memory from prev, the value x held before, when it is not nil.")
	f.Func().Params(jen.Id("x").Op("*").Id(name)).Id("readJSON").Params(jen.Id("r").Op("*").Qual(wirePkg, "Reader"), jen.Id("prev").Op("*").Id(name)).Block(
		jen.If(jen.Op("!").Id("r").Dot("BeginObject").Call()).Block(jen.Return()),
		jen.For(jen.Id("r").Dot("NextField").Call()).Block(jen.Switch(jen.String().Call(jen.Id("r").Dot("Key").Call())).Block(cases...)),
	)
	f.Line()
	f.Add(comment(wrap(fmt.Sprintf("read%sJSON reads one %s from r: into prev, reusing its memory, when prev is not nil.", name, name), 96)))
	f.Func().Id("read"+name+"JSON").Params(jen.Id("r").Op("*").Qual(wirePkg, "Reader"), jen.Id("prev").Op("*").Id(name)).Op("*").Id(name).Block(
		jen.If(jen.Id("prev").Op("==").Nil()).Block(
			jen.Id("x").Op(":=").New(jen.Id(name)),
			jen.Id("x").Dot("readJSON").Call(jen.Id("r"), jen.Nil()),
			jen.Return(jen.Id("x")),
		),
		jen.Id("old").Op(":=").Op("*").Id("prev"),
		jen.Op("*").Id("prev").Op("=").Id(name).Values(),
		jen.Id("prev").Dot("readJSON").Call(jen.Id("r"), jen.Op("&").Id("old")),
		jen.Return(jen.Id("prev")),
	)
	f.Line()
	f.Comment("UnmarshalJSON implements json.Unmarshaler with ProtoJSON: proto names and enum numbers are")
	f.Comment("accepted, unknown fields ignored, null read as unset.")
	f.Func().Params(jen.Id("x").Op("*").Id(name)).Id("UnmarshalJSON").Params(jen.Id("data").Index().Byte()).Error().Block(
		jen.Op("*").Id("x").Op("=").Id(name).Values(),
		jen.Return(jen.Id("Decoder").Values().Dot("Decode").Call(jen.Id("data"), jen.Id("x"))),
	)
	if !g.streamed(st) {
		return
	}
	f.Line()
	f.Add(comment(wrap("UnmarshalJSONReusing decodes data into x as UnmarshalJSON does, but into the memory x holds: "+
		"the messages, lists and oneof members x points to are overwritten with the new value and reused, and a string "+
		"equal to the one it replaces is kept. Whatever was taken from x before, but its strings, no longer holds what it "+
		"did; Clone what you keep. A stream's reader decodes each message into one value with it, so that a message "+
		"allocates only for what differs from the one before.", 96)))
	f.Func().Params(jen.Id("x").Op("*").Id(name)).Id("UnmarshalJSONReusing").Params(jen.Id("data").Index().Byte()).Error().Block(
		jen.Id("r").Op(":=").Qual(wirePkg, "NewReader").Call(jen.Id("data"), jen.Qual(wirePkg, "Decoder").Values()),
		jen.Id("x").Dot("ReadJSONReusing").Call(jen.Id("r")),
		jen.Return(jen.Id("r").Dot("Finish").Call()),
	)
	f.Line()
	f.Add(comment(wrap("ReadJSONReusing reads x from r as UnmarshalJSONReusing decodes it: for a reader of the document "+
		"around x (a JSON-RPC response's result).", 96)))
	f.Func().Params(jen.Id("x").Op("*").Id(name)).Id("ReadJSONReusing").Params(jen.Id("r").Op("*").Qual(wirePkg, "Reader")).Block(
		jen.Id("old").Op(":=").Op("*").Id("x"),
		jen.Op("*").Id("x").Op("=").Id(name).Values(),
		jen.Id("x").Dot("readJSON").Call(jen.Id("r"), jen.Op("&").Id("old")),
	)
}

// streamed reports whether st is what a served streaming RPC answers with.
func (g *protoGen) streamed(st *ir.Struct) bool {
	for _, s := range g.pkg.Services() {
		for _, m := range s.Methods {
			if served(m) && m.ServerStreaming && m.Output == st {
				return true
			}
		}
	}
	return false
}

// emitEnumReaders writes, per enum, the reader accepting a name or a number.
func (g *protoGen) emitEnumReaders(f *jen.File) {
	for _, d := range g.pkg.Decls {
		e, ok := d.(*ir.Enum)
		if !ok {
			continue
		}
		name := g.decl[e]
		f.Line()
		f.Func().Id("read"+name).Params(jen.Id("r").Op("*").Qual(wirePkg, "Reader")).Id(name).Block(
			jen.List(jen.Id("s"), jen.Id("n"), jen.Id("isNumber")).Op(":=").Id("r").Dot("ReadEnum").Call(),
			jen.If(jen.Id("isNumber")).Block(jen.Return(jen.Id(name).Call(jen.Id("n")))),
			jen.List(jen.Id("v"), jen.Id("ok")).Op(":=").Id("parse"+name).Call(jen.Id("s")),
			jen.If(jen.Op("!").Id("ok").Op("&&").Op("!").Id("r").Dot("Failed").Call()).Block(
				jen.Id("r").Dot("Fail").Call(jen.Lit("enum"), jen.Qual("strconv", "Quote").Call(jen.String().Call(jen.Id("s"))).Op("+").Lit(" is not a "+e.Name+" value: send one of "+enumValues(e)+", or its number"))),
			jen.Return(jen.Id("v")),
		)
	}
}
