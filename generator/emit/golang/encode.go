package golang

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/agui-gen/agui-gen/generator/ir"
)

// fieldExpr is the Go expression for field f of the struct behind x.
func (g *gen) fieldExpr(st *ir.Struct, f *ir.Field) *jen.Statement {
	path, _ := g.n.access(st, f)
	s := jen.Id("x")
	for _, p := range strings.Split(path, ".") {
		s = s.Dot(p)
	}
	return s
}

// jsonKey is a member name written as JSON, for literal output.
func jsonKey(name string) string {
	b, _ := json.Marshal(name)
	return string(b) + ":"
}

// literalJSON renders a const as JSON text.
func literalJSON(l *ir.Literal) string {
	switch l.Kind {
	case ir.KindInt:
		return strconv.FormatInt(l.Int, 10)
	case ir.KindBool:
		return strconv.FormatBool(l.Bool)
	}
	b, _ := json.Marshal(l.String)
	return string(b)
}

// encoder accumulates the statements of one AppendJSON body, merging
// adjacent constant text into one append.
type encoder struct {
	stmts   []jen.Code
	pending strings.Builder
	// state of the separator: nothing written yet, maybe written (optional
	// members so far), certainly written.
	state     int
	needStart bool
}

const (
	stateEmpty = iota
	stateMaybe
	stateCertain
)

func (e *encoder) lit(s string) { e.pending.WriteString(s) }

func (e *encoder) flush() {
	if e.pending.Len() == 0 {
		return
	}
	s := e.pending.String()
	e.pending.Reset()
	if len(s) == 1 {
		e.stmts = append(e.stmts, jen.Id("b").Op("=").Append(jen.Id("b"), jen.LitRune(rune(s[0]))))
		return
	}
	e.stmts = append(e.stmts, jen.Id("b").Op("=").Append(jen.Id("b"), textLit(s).Op("...")))
}

// textLit writes constant JSON text as a raw string literal when it can, so
// generated code shows the wire bytes as they are.
func textLit(s string) *jen.Statement {
	if !strings.ContainsAny(s, "`\r") && !strings.ContainsRune(s, '\n') {
		return jen.Id("`" + s + "`")
	}
	return jen.Lit(s)
}

func (e *encoder) add(c ...jen.Code) {
	e.flush()
	e.stmts = append(e.stmts, c...)
}

// key returns the statements that write a member's separator and name, in
// a context where the member is written (inside its presence check, if any).
func (e *encoder) keyCode(name string) []jen.Code {
	switch e.state {
	case stateCertain:
		return []jen.Code{jen.Id("b").Op("=").Append(jen.Id("b"), textLit(","+jsonKey(name)).Op("..."))}
	case stateEmpty:
		return []jen.Code{jen.Id("b").Op("=").Append(jen.Id("b"), textLit(jsonKey(name)).Op("..."))}
	}
	e.needStart = true
	return []jen.Code{
		jen.If(jen.Len(jen.Id("b")).Op(">").Id("start")).Block(jen.Id("b").Op("=").Append(jen.Id("b"), jen.LitRune(','))),
		jen.Id("b").Op("=").Append(jen.Id("b"), textLit(jsonKey(name)).Op("...")),
	}
}

// always writes a member that is present whatever the value.
func (e *encoder) always(name string, value []jen.Code) {
	if e.state == stateCertain {
		e.lit("," + jsonKey(name))
	} else if e.state == stateEmpty {
		e.lit(jsonKey(name))
	} else {
		e.add(e.keyCode(name)...)
	}
	if len(value) > 0 {
		e.add(value...)
	}
	e.state = stateCertain
}

// optional records a member that may not have been written.
func (e *encoder) optional() {
	if e.state == stateEmpty {
		e.state = stateMaybe
	}
}

// body is the AppendJSON body: nil written as null, the object's
// statements, and start, the byte after '{', recorded where a separator
// depends on what was written. The object's closing text is returned
// appended, not appended and then returned.
func (e *encoder) body() []jen.Code {
	end := e.pending.String()
	e.pending.Reset()
	body := []jen.Code{jen.If(jen.Id("x").Op("==").Nil()).Block(jen.Return(jen.Append(jen.Id("b"), jen.Lit("null").Op("..."))))}
	if e.needStart {
		// Nothing certain was written before a separator that depends:
		// the first statement appends '{' alone.
		body = append(body, e.stmts[0], jen.Id("start").Op(":=").Len(jen.Id("b")))
		body = append(body, e.stmts[1:]...)
	} else {
		body = append(body, e.stmts...)
	}
	switch len(end) {
	case 0:
		return append(body, jen.Return(jen.Id("b")))
	case 1:
		return append(body, jen.Return(jen.Append(jen.Id("b"), jen.LitRune(rune(end[0])))))
	}
	return append(body, jen.Return(jen.Append(jen.Id("b"), textLit(end).Op("..."))))
}

// emitEncoders writes AppendJSON and MarshalJSON for every value type.
func (g *gen) emitEncoders(f *jen.File) {
	for _, d := range g.pkg.Decls {
		st, ok := d.(*ir.Struct)
		if !ok || st.IsMixin {
			continue
		}
		g.emitAppendJSON(f, st)
	}
	for _, c := range g.n.order {
		g.emitChoiceEncoder(f, c)
	}
}

func (g *gen) emitAppendJSON(f *jen.File, st *ir.Struct) {
	name := g.n.decl[st]
	e := &encoder{}
	e.lit("{")
	for _, fl := range st.AllFields() {
		switch {
		case fl.Const != nil && !stored(fl):
			e.always(fl.Name, nil)
			e.lit(literalJSON(fl.Const))
		case fl.TagOf != "":
			sel := fieldNamed(st, fl.TagOf)
			u := sel.Type.Decl.(*ir.Union)
			val := g.fieldExpr(st, sel)
			e.add(jen.Var().Id("tag").String(),
				jen.If(val.Clone().Op("!=").Nil()).Block(jen.Id("tag").Op("=").Add(val.Clone()).Dot(g.tagMethod(u)).Call()))
			e.always(fl.Name, []jen.Code{jen.Id("b").Op("=").Qual(wirePkg, "AppendString").Call(jen.Id("b"), jen.Id("tag"))})
		case !stored(fl):
			// A narrowed mixin member: the composing type writes it.
		default:
			g.encodeField(e, st, fl)
		}
	}
	if g.hasExtra(st) {
		if e.state == stateCertain {
			e.add(jen.Id("b").Op("=").Qual(wirePkg, "AppendMembers").Call(jen.Id("b"), jen.Id("x").Dot("Extra")))
		} else {
			e.needStart = true
			e.add(jen.For(jen.List(jen.Id("_"), jen.Id("m")).Op(":=").Range().Id("x").Dot("Extra")).Block(
				jen.If(jen.Len(jen.Id("b")).Op(">").Id("start")).Block(jen.Id("b").Op("=").Append(jen.Id("b"), jen.LitRune(','))),
				jen.Id("b").Op("=").Qual(wirePkg, "AppendString").Call(jen.Id("b"), jen.Id("m").Dot("Name")),
				jen.Id("b").Op("=").Append(jen.Id("b"), jen.LitRune(':')),
				jen.Id("b").Op("=").Qual(wirePkg, "AppendRaw").Call(jen.Id("b"), jen.Id("m").Dot("Value")),
			))
		}
	}
	e.lit("}")
	body := e.body()
	f.Line()
	f.Comment("AppendJSON appends the JSON encoding of x to b: members in schema order, absent")
	f.Comment("optional members left out, required ones always written.")
	f.Func().Params(jen.Id("x").Op("*").Id(name)).Id("AppendJSON").Params(jen.Id("b").Index().Byte()).Index().Byte().Block(body...)
	f.Line()
	f.Comment("MarshalJSON implements json.Marshaler.")
	f.Func().Params(jen.Id("x").Op("*").Id(name)).Id("MarshalJSON").Params().Params(jen.Index().Byte(), jen.Error()).Block(
		jen.Return(jen.Id("x").Dot("AppendJSON").Call(jen.Nil()), jen.Nil()))
}

func fieldNamed(st *ir.Struct, name string) *ir.Field {
	for _, f := range st.AllFields() {
		if f.Name == name {
			return f
		}
	}
	return nil
}

// encodeField writes one stored member.
func (g *gen) encodeField(e *encoder, st *ir.Struct, fl *ir.Field) {
	v := g.fieldExpr(st, fl)
	switch repOf(fl.Type, fl.Required) {
	case repValue:
		e.always(fl.Name, g.appendValue(fl.Type, v))
		return
	case repNilable:
		if fl.Required {
			e.always(fl.Name, g.appendValue(fl.Type, v))
			return
		}
		body := append(e.keyCode(fl.Name), g.appendValue(fl.Type, v.Clone())...)
		e.add(jen.If(v.Clone().Op("!=").Nil()).Block(body...))
	case repPointer:
		deref := jen.Op("*").Add(v.Clone())
		if isStructType(fl.Type) {
			deref = v.Clone()
		}
		body := append(e.keyCode(fl.Name), g.appendValue(fl.Type, deref)...)
		e.add(jen.If(v.Clone().Op("!=").Nil()).Block(body...))
	}
	e.optional()
}

func isStructType(t ir.Type) bool {
	if t.Kind == ir.KindStringOrArray {
		return true
	}
	_, ok := t.Decl.(*ir.Struct)
	return t.Kind == ir.KindNamed && ok
}

// nest returns the name of the loop variable for a loop nested in the loops
// being written ("i", then "i1", "i2"…), and the function that leaves it.
func (g *gen) nest(base string) (string, func()) {
	name := base
	if g.depth > 0 {
		name += strconv.Itoa(g.depth)
	}
	g.depth++
	return name, func() { g.depth-- }
}

// appendValue returns statements appending the value v of type t to b.
func (g *gen) appendValue(t ir.Type, v *jen.Statement) []jen.Code {
	set := func(call *jen.Statement) []jen.Code { return []jen.Code{jen.Id("b").Op("=").Add(call)} }
	switch t.Kind {
	case ir.KindString:
		return set(jen.Qual(wirePkg, "AppendString").Call(jen.Id("b"), v))
	case ir.KindInt:
		return set(jen.Qual(wirePkg, "AppendInt").Call(jen.Id("b"), v))
	case ir.KindFloat:
		return set(jen.Qual(wirePkg, "AppendFloat").Call(jen.Id("b"), v))
	case ir.KindBool:
		return set(jen.Qual(wirePkg, "AppendBool").Call(jen.Id("b"), v))
	case ir.KindAny:
		return set(jen.Qual(wirePkg, "AppendRaw").Call(jen.Id("b"), v))
	case ir.KindStringOrArray:
		return set(v.Dot("appendJSON").Call(jen.Id("b")))
	case ir.KindArray:
		i, done := g.nest("i")
		elem := g.appendValue(*t.Elem, v.Clone().Index(jen.Id(i)))
		done()
		loop := append([]jen.Code{jen.If(jen.Id(i).Op(">").Lit(0)).Block(jen.Id("b").Op("=").Append(jen.Id("b"), jen.LitRune(',')))}, elem...)
		return []jen.Code{
			jen.Id("b").Op("=").Append(jen.Id("b"), jen.LitRune('[')),
			jen.For(jen.Id(i).Op(":=").Range().Add(v.Clone())).Block(loop...),
			jen.Id("b").Op("=").Append(jen.Id("b"), jen.LitRune(']')),
		}
	case ir.KindMap:
		// Keys in order, so a map encodes to the same bytes every time.
		i, done := g.nest("i")
		k := "k" + strings.TrimPrefix(i, "i")
		elem := g.appendValue(*t.Elem, v.Clone().Index(jen.Id(k)))
		done()
		loop := append([]jen.Code{
			jen.If(jen.Id(i).Op(">").Lit(0)).Block(jen.Id("b").Op("=").Append(jen.Id("b"), jen.LitRune(','))),
			jen.Id("b").Op("=").Qual(wirePkg, "AppendString").Call(jen.Id("b"), jen.Id(k)),
			jen.Id("b").Op("=").Append(jen.Id("b"), jen.LitRune(':')),
		}, elem...)
		return []jen.Code{
			jen.Id("b").Op("=").Append(jen.Id("b"), jen.LitRune('{')),
			jen.For(jen.List(jen.Id(i), jen.Id(k)).Op(":=").Range().Qual(wirePkg, "SortedKeys").Call(v.Clone())).Block(loop...),
			jen.Id("b").Op("=").Append(jen.Id("b"), jen.LitRune('}')),
		}
	case ir.KindNamed:
		switch d := t.Decl.(type) {
		case *ir.Enum:
			return set(jen.Qual(wirePkg, "AppendString").Call(jen.Id("b"), jen.String().Call(v)))
		case *ir.Alias:
			return g.appendValue(d.Type, v)
		case *ir.Struct:
			return set(v.Dot("AppendJSON").Call(jen.Id("b")))
		case *ir.Union:
			return set(jen.Qual(wirePkg, "AppendValue").Call(jen.Id("b"), v))
		}
	}
	panic("appendValue: unsupported type")
}

func (g *gen) emitChoiceEncoder(f *jen.File, c *choiceType) {
	recv := jen.Id("x").Op("*").Id(c.Name)
	list := jen.Id("x").Dot(c.ListField)
	f.Line()
	f.Comment("appendJSON appends the string, or the list when " + c.ListField + " is set.")
	f.Func().Params(recv.Clone()).Id("appendJSON").Params(jen.Id("b").Index().Byte()).Index().Byte().Block(
		jen.If(list.Clone().Op("==").Nil()).Block(jen.Return(jen.Qual(wirePkg, "AppendString").Call(jen.Id("b"), jen.Id("x").Dot("Text")))),
		jen.BlockFunc(func(gr *jen.Group) {
			for _, s := range g.appendValue(ir.Type{Kind: ir.KindArray, Elem: &c.Elem}, list.Clone()) {
				gr.Add(s)
			}
		}),
		jen.Return(jen.Id("b")),
	)
	f.Line()
	f.Comment("MarshalJSON implements json.Marshaler.")
	f.Func().Params(jen.Id("x").Id(c.Name)).Id("MarshalJSON").Params().Params(jen.Index().Byte(), jen.Error()).Block(
		jen.Return(jen.Id("x").Dot("appendJSON").Call(jen.Nil()), jen.Nil()))
}
