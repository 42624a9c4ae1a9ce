package golang

import (
	"fmt"
	"slices"

	"github.com/dave/jennifer/jen"

	"github.com/agui-gen/agui-gen/generator/ir"
)

// protoCase is one field number's decoding.
type protoCase struct {
	num  int
	wt   int
	code []jen.Code
}

// emitProtoDecoders writes UnmarshalEventProto and the per-type readers,
// the inverse of the encoders.
func (p *aguiProto) emitProtoDecoders(f *jen.File, events *ir.Union) {
	arms := p.ledger.Arms(protoEventArms)
	var cases []jen.Code
	for _, m := range events.Members {
		arm, ok := arms[snake(m.Value)]
		if !ok {
			continue
		}
		cases = append(cases, jen.Case(jen.Lit(arm)).Block(
			jen.Id("x").Op(":=").New(jen.Id(p.g.n.decl[m.Struct])),
			jen.Id("err").Op("=").Id("x").Dot("readProto").Call(jen.Qual(wirePkg, "NewProtoReader").Call(jen.Id("body"))),
			jen.Id("ev").Op("=").Id("x"),
		))
	}
	cases = append(cases, jen.Default().Block(
		jen.Return(jen.Nil(), jen.Op("&").Id("Error").Values(jen.Dict{
			jen.Id("Rule"): jen.Lit("oneOf"), jen.Id("Offset"): jen.Lit(-1), jen.Id("Err"): jen.Id("ErrUnknownEvent"),
			jen.Id("Msg"): jen.Lit("unknown protobuf event arm ").Op("+").Qual("strconv", "Itoa").Call(jen.Int().Call(jen.Id("num"))),
		}))))
	f.Line()
	f.Comment("UnmarshalEventProto decodes one protobuf Event envelope (unframed), as @ag-ui/proto")
	f.Comment("writes it. An arm this package does not know is reported as an error wrapping")
	f.Comment("ErrUnknownEvent, so a receiver can drop the frame.")
	f.Func().Id("UnmarshalEventProto").Params(jen.Id("data").Index().Byte()).Params(jen.Id("Event"), jen.Error()).Block(
		jen.Id("w").Op(":=").Qual(wirePkg, "NewProtoReader").Call(jen.Id("data")),
		jen.Var().Id("ev").Id("Event"),
		jen.Var().Id("err").Op("*").Id("Error"),
		jen.For().Block(
			jen.List(jen.Id("num"), jen.Id("wt"), jen.Id("ok")).Op(":=").Id("w").Dot("Next").Call(),
			jen.If(jen.Op("!").Id("ok")).Block(jen.Break()),
			jen.If(jen.Id("wt").Op("!=").Lit(wireBytes)).Block(jen.Id("w").Dot("Skip").Call(jen.Id("wt")), jen.Continue()),
			jen.If(jen.Id("ev").Op("!=").Nil()).Block(jen.Id("w").Dot("Fail").Call(jen.Lit("an Event envelope holds more than one event")), jen.Break()),
			jen.Id("body").Op(":=").Id("w").Dot("LenBytes").Call(),
			jen.Switch(jen.Id("num")).Block(cases...),
			jen.If(jen.Id("err").Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Id("err"))),
		),
		jen.If(jen.Id("w").Dot("Err").Call().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Id("w").Dot("Err").Call())),
		jen.If(jen.Id("ev").Op("==").Nil()).Block(jen.Return(jen.Nil(), jen.Qual(wirePkg, "ValidationError").Call(jen.Lit(""), jen.Lit("oneOf"), jen.Lit("the Event envelope holds no event")))),
		jen.Return(jen.Id("ev"), jen.Nil()),
	)
	if p.base != nil {
		p.emitBaseEventReader(f)
	}
	for _, st := range p.order {
		p.emitReader(f, st)
	}
	for i := 0; i < len(p.readers); i++ { // emitting a reader may add more
		p.emitFlatReader(f, p.readers[i])
	}
}

func (p *aguiProto) emitReader(f *jen.File, st *ir.Struct) {
	msg := p.messageName(st)
	var cases []protoCase
	var pre, post []jen.Code
	isEvent := p.base != nil && containsStruct(st.Mixins, p.base)
	if isEvent {
		cases = append(cases, p.readBaseEvent(msg))
	}
	u := p.unionOf[st]
	for _, fl := range st.AllFields() {
		if isEvent && (fl.Discriminator || p.inBase(fl)) {
			continue
		}
		if fl.Discriminator && u != nil {
			continue // the union's reader chose this type by it
		}
		if fl.Const != nil && !stored(fl) {
			continue // a constant: nothing to keep
		}
		if !stored(fl) {
			continue
		}
		cs, pr, po := p.readField(st, msg, fl)
		cases = append(cases, cs...)
		pre = append(pre, pr...)
		post = append(post, po...)
	}
	body := readLoop(cases, pre, post)
	f.Line()
	f.Comment(fmt.Sprintf("readProto reads the body of the protobuf message %s into x.", msg))
	f.Func().Params(jen.Id("x").Op("*").Id(p.g.n.decl[st])).Id("readProto").Params(jen.Id("w").Op("*").Qual(wirePkg, "ProtoReader")).Op("*").Id("Error").Block(body...)
}

func containsStruct(ss []*ir.Struct, s *ir.Struct) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// readBaseEvent reads base_event into the BaseEvent mixin
// (emitBaseEventReader).
func (p *aguiProto) readBaseEvent(msg string) protoCase {
	return protoCase{p.number(msg + ".base_event"), wireBytes, []jen.Code{
		jen.If(jen.Err().Op(":=").Id("x").Dot(p.g.n.decl[p.base]).Dot("readProto").Call(
			jen.Qual(wirePkg, "NewProtoReader").Call(jen.Id("w").Dot("LenBytes").Call())), jen.Err().Op("!=").Nil()).Block(
			jen.Return(jen.Err().Dot("Under").Call(jen.Lit("base_event")))),
	}}
}

// emitBaseEventReader writes the reader of the base_event message every
// event carries. The type is not kept: the envelope's arm names the event.
func (p *aguiProto) emitBaseEventReader(f *jen.File) {
	var cases []protoCase
	for _, bf := range p.base.Fields {
		if !bf.Narrowed {
			cs, _, _ := p.readField(p.base, "BaseEvent", bf)
			cases = append(cases, cs...)
		}
	}
	f.Line()
	f.Comment("readProto reads the body of the protobuf message BaseEvent into x.")
	f.Func().Params(jen.Id("x").Op("*").Id(p.g.n.decl[p.base])).Id("readProto").Params(jen.Id("w").Op("*").Qual(wirePkg, "ProtoReader")).Op("*").Id("Error").Block(
		readLoop(cases, nil, nil)...)
}

// readLoop is the body of a reader: pre, the loop over the fields with a
// case per field, post, and the reader's error.
func readLoop(cases []protoCase, pre, post []jen.Code) []jen.Code {
	cases = slices.Clone(cases)
	slices.SortStableFunc(cases, func(a, b protoCase) int { return a.num - b.num }) // in number order, as the encoder writes
	var sw []jen.Code
	for _, c := range cases {
		sw = append(sw, tagCase(c.num, c.wt, c.code...))
	}
	body := append(append([]jen.Code{}, pre...), fieldLoop(sw))
	if len(post) == 0 {
		return append(body, jen.Return(jen.Id("w").Dot("Err").Call()))
	}
	body = append(body, jen.If(jen.Id("w").Dot("Err").Call().Op("!=").Nil()).Block(jen.Return(jen.Id("w").Dot("Err").Call())))
	body = append(body, post...)
	return append(body, jen.Return(jen.Nil()))
}

// readField returns the cases reading a member of st, and statements to
// run before and after the field loop.
func (p *aguiProto) readField(st *ir.Struct, msg string, fl *ir.Field) (cases []protoCase, pre, post []jen.Code) {
	name := snake(fl.Name)
	if r, ok := protoFieldRenames[st.Name+"."+fl.Name]; ok {
		name = r
	}
	dst := p.g.fieldExpr(st, fl)
	t := fl.Type
	switch {
	case t.Kind == ir.KindStringOrArray:
		u := t.Elem.Decl.(*ir.Union)
		list := dst.Clone().Dot(p.g.n.choice[t.Name].ListField)
		// The text form is always written, even empty; so a required value
		// with neither field on the wire was an empty list.
		seen := "seen" + p.g.n.field[fl]
		if fl.Required {
			pre = []jen.Code{jen.Var().Id(seen).Bool()}
			post = []jen.Code{jen.If(jen.Op("!").Id(seen).Op("&&").Add(list.Clone()).Op("==").Nil()).Block(
				list.Clone().Op("=").Index().Id(p.g.n.decl[u]).Values())}
		}
		text := []jen.Code{dst.Clone().Dot("Text").Op("=").Qual(wirePkg, "WireString").Call(jen.Id("w"))}
		if fl.Required {
			text = append(text, jen.Id(seen).Op("=").True())
		}
		return []protoCase{
			{p.number(msg + "." + name), wireBytes, text},
			{p.number(msg + "." + name + "_parts"), wireBytes, []jen.Code{
				jen.List(jen.Id("v"), jen.Err()).Op(":=").Add(p.readUnion(u)),
				jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err().Dot("Under").Call(jen.Lit(fl.Name)))),
				list.Clone().Op("=").Append(list.Clone(), jen.Id("v")),
			}},
		}, pre, post
	case isUnion(t) && !p.flattened(t.Decl.(*ir.Union)) && p.oneofOf(t.Decl.(*ir.Union)) == "":
		return p.readFlattenedIntoParent(msg, name, fl, t.Decl.(*ir.Union), dst)
	}
	num := p.number(msg + "." + name)
	rt := resolveAlias(t)
	optional := repOf(t, fl.Required) == repPointer
	set := func(v jen.Code) []jen.Code {
		if optional && !isStructType(t) {
			return []jen.Code{dst.Clone().Op("=").Qual(wirePkg, "Ptr").Call(v)}
		}
		return []jen.Code{dst.Clone().Op("=").Add(v)}
	}
	switch rt.Kind {
	case ir.KindString:
		return []protoCase{{num, wireBytes, set(jen.Qual(wirePkg, "WireString").Call(jen.Id("w")))}}, nil, nil
	case ir.KindInt:
		return []protoCase{{num, wireVarint, set(jen.Int64().Call(jen.Id("w").Dot("Varint").Call()))}}, nil, nil
	case ir.KindBool:
		return []protoCase{{num, wireVarint, set(jen.Id("w").Dot("Varint").Call().Op("!=").Lit(0))}}, nil, nil
	case ir.KindFloat:
		return []protoCase{{num, wireFixed64, set(jen.Qual("math", "Float64frombits").Call(jen.Id("w").Dot("Fixed64").Call()))}}, nil, nil
	case ir.KindAny:
		fn := "WireValue"
		if rt.JSONType == "object" && !protoValueObjects[st.Name+"."+fl.Name] {
			fn = "WireStruct"
			if fl.Required {
				// An absent message field is its empty value: {} for a Struct.
				post = []jen.Code{jen.If(dst.Clone().Op("==").Nil()).Block(dst.Clone().Op("=").Qual(jsonPkg, "RawMessage").Call(jen.Lit("{}")))}
			}
		}
		return []protoCase{{num, wireBytes, []jen.Code{dst.Clone().Op("=").Qual(wirePkg, fn).Call(jen.Id("w"), jen.Lit(fl.Name))}}}, nil, post
	case ir.KindArray:
		elem := resolveAlias(*rt.Elem)
		switch {
		case elem.Kind == ir.KindString:
			return []protoCase{{num, wireBytes, []jen.Code{dst.Clone().Op("=").Append(dst.Clone(), jen.Qual(wirePkg, "WireString").Call(jen.Id("w")))}}}, nil, nil
		case isUnion(elem):
			return []protoCase{{num, wireBytes, []jen.Code{
				jen.List(jen.Id("v"), jen.Err()).Op(":=").Add(p.readUnion(elem.Decl.(*ir.Union))),
				jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err().Dot("At").Call(jen.Len(dst.Clone())).Dot("Under").Call(jen.Lit(fl.Name)))),
				dst.Clone().Op("=").Append(dst.Clone(), jen.Id("v")),
			}}}, nil, nil
		case isStructType(elem):
			return []protoCase{{num, wireBytes, []jen.Code{
				jen.Var().Id("v").Id(p.g.n.decl[elem.Decl]),
				jen.If(jen.Err().Op(":=").Id("v").Dot("readProto").Call(jen.Qual(wirePkg, "NewProtoReader").Call(jen.Id("w").Dot("LenBytes").Call())), jen.Err().Op("!=").Nil()).Block(
					jen.Return(jen.Err().Dot("At").Call(jen.Len(dst.Clone())).Dot("Under").Call(jen.Lit(fl.Name)))),
				dst.Clone().Op("=").Append(dst.Clone(), jen.Id("v")),
			}}}, nil, nil
		}
	case ir.KindNamed:
		switch d := rt.Decl.(type) {
		case *ir.Enum:
			return []protoCase{{num, wireBytes, set(jen.Id(p.g.n.decl[d]).Call(jen.Qual(wirePkg, "WireString").Call(jen.Id("w"))))}}, nil, nil
		case *ir.Struct:
			code := []jen.Code{}
			target := dst.Clone()
			if optional {
				code = append(code, dst.Clone().Op("=").New(jen.Id(p.g.n.decl[d])))
			}
			code = append(code, jen.If(jen.Err().Op(":=").Add(target).Dot("readProto").Call(jen.Qual(wirePkg, "NewProtoReader").Call(jen.Id("w").Dot("LenBytes").Call())), jen.Err().Op("!=").Nil()).Block(
				jen.Return(jen.Err().Dot("Under").Call(jen.Lit(fl.Name)))))
			return []protoCase{{num, wireBytes, code}}, nil, nil
		case *ir.Union:
			return []protoCase{{num, wireBytes, []jen.Code{
				jen.List(jen.Id("v"), jen.Err()).Op(":=").Add(p.readUnion(d)),
				jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err().Dot("Under").Call(jen.Lit(fl.Name)))),
				dst.Clone().Op("=").Id("v"),
			}}}, nil, nil
		}
	}
	p.fail("%s.%s: no protobuf form for this type", st.Name, fl.Name)
	return nil, nil, nil
}

// readUnion is an expression (value, *Error) reading a length-delimited
// union value from w.
func (p *aguiProto) readUnion(u *ir.Union) *jen.Statement {
	p.readers = appendUnique(p.readers, u)
	return jen.Id("read" + p.g.n.decl[u] + "Proto").Call(jen.Id("w").Dot("LenBytes").Call())
}

// emitUnionReaders writes, per union read from protobuf, the function that
// picks the member: by oneof arm, or for a flattened union by its tag field.
func (p *aguiProto) emitFlatReader(f *jen.File, u *ir.Union) {
	name := p.g.n.decl[u]
	msg := p.unionMessage(u)
	var body []jen.Code
	if oneof := p.oneofOf(u); oneof != "" {
		arms := p.ledger.Arms(oneof)
		var cases []jen.Code
		for _, m := range u.Members {
			cases = append(cases, jen.Case(jen.Lit(arms[snake(m.Value)])).Block(
				jen.Id("m").Op(":=").New(jen.Id(p.g.n.decl[m.Struct])),
				jen.Id("err").Op("=").Id("m").Dot("readProto").Call(jen.Qual(wirePkg, "NewProtoReader").Call(jen.Id("w").Dot("LenBytes").Call())),
				jen.Id("v").Op("=").Id("m"),
			))
		}
		cases = append(cases, jen.Default().Block(jen.Id("w").Dot("Skip").Call(jen.Id("wt"))))
		body = []jen.Code{
			jen.Id("w").Op(":=").Qual(wirePkg, "NewProtoReader").Call(jen.Id("data")),
			jen.Var().Id("v").Id(name),
			jen.Var().Id("err").Op("*").Id("Error"),
			jen.For(jen.Id("err").Op("==").Nil()).Block(
				jen.List(jen.Id("num"), jen.Id("wt"), jen.Id("ok")).Op(":=").Id("w").Dot("Next").Call(),
				jen.If(jen.Op("!").Id("ok")).Block(jen.Break()),
				jen.If(jen.Id("wt").Op("!=").Lit(wireBytes)).Block(jen.Id("w").Dot("Skip").Call(jen.Id("wt")), jen.Continue()),
				jen.Switch(jen.Id("num")).Block(cases...),
			),
			jen.If(jen.Id("err").Op("==").Nil()).Block(jen.Id("err").Op("=").Id("w").Dot("Err").Call()),
			jen.If(jen.Id("err").Op("==").Nil().Op("&&").Id("v").Op("==").Nil()).Block(
				jen.Id("err").Op("=").Qual(wirePkg, "ValidationError").Call(jen.Lit(""), jen.Lit("oneOf"), jen.Lit("no "+msg+" member is set"))),
			jen.Return(jen.Id("v"), jen.Id("err")),
		}
	} else {
		tagNum := p.number(msg + "." + snake(u.Tag))
		var cases []jen.Code
		enum := false
		for _, m := range u.Members {
			var label jen.Code = jen.Lit(m.Value)
			if n, ok := p.tagNumber(msg, m.Value); ok {
				enum = true
				label = jen.Lit(n)
			}
			cases = append(cases, jen.Case(label).Block(
				jen.Id("m").Op(":=").New(jen.Id(p.g.n.decl[m.Struct])),
				jen.Return(jen.Id("m"), jen.Id("m").Dot("readProto").Call(jen.Qual(wirePkg, "NewProtoReader").Call(jen.Id("data")))),
			))
		}
		scan := []jen.Code{
			jen.Id("w").Op(":=").Qual(wirePkg, "NewProtoReader").Call(jen.Id("data")),
		}
		if enum {
			scan = append(scan, jen.Var().Id("tag").Uint64())
		} else {
			scan = append(scan, jen.Var().Id("tag").String())
		}
		read := jen.Id("tag").Op("=").Qual(wirePkg, "WireString").Call(jen.Id("w"))
		wt := wireBytes
		if enum {
			read = jen.Id("tag").Op("=").Id("w").Dot("Varint").Call()
			wt = wireVarint
		}
		scan = append(scan,
			jen.For().Block(
				jen.List(jen.Id("num"), jen.Id("wt"), jen.Id("ok")).Op(":=").Id("w").Dot("Next").Call(),
				jen.If(jen.Op("!").Id("ok")).Block(jen.Break()),
				jen.If(jen.Id("num").Op("==").Lit(tagNum).Op("&&").Id("wt").Op("==").Lit(wt)).Block(read).Else().Block(jen.Id("w").Dot("Skip").Call(jen.Id("wt"))),
			),
			jen.If(jen.Id("w").Dot("Err").Call().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Id("w").Dot("Err").Call())),
			jen.Switch(jen.Id("tag")).Block(cases...),
			jen.Return(jen.Nil(), jen.Op("&").Id("Error").Values(jen.Dict{jen.Id("Path"): jen.Lit("/" + u.Tag), jen.Id("Rule"): jen.Lit("oneOf"),
				jen.Id("Offset"): jen.Lit(-1), jen.Id("Msg"): jen.Lit("unknown " + u.Tag), jen.Id("Err"): jen.Id("ErrUnknown" + name)})),
		)
		body = scan
	}
	f.Line()
	f.Comment(fmt.Sprintf("read%sProto reads the body of the protobuf message %s as a %s.", name, msg, name))
	f.Func().Id("read"+name+"Proto").Params(jen.Id("data").Index().Byte()).Params(jen.Id(name), jen.Op("*").Id("Error")).Block(body...)
}

// readFlattenedIntoParent reads an outcome flattened into its parent: the
// tag string and the members' fields, gathered into one value per member and
// chosen by the tag after the field loop.
func (p *aguiProto) readFlattenedIntoParent(msg, name string, fl *ir.Field, u *ir.Union, dst *jen.Statement) (cases []protoCase, pre, post []jen.Code) {
	tagVar := "tag" + p.g.n.decl[u]
	pre = append(pre, jen.Var().Id(tagVar).String())
	cases = append(cases, protoCase{p.number(msg + "." + name), wireBytes, []jen.Code{jen.Id(tagVar).Op("=").Qual(wirePkg, "WireString").Call(jen.Id("w"))}})
	var choose []jen.Code
	for i, m := range u.Members {
		v := fmt.Sprintf("m%d", i)
		pre = append(pre, jen.Var().Id(v).Id(p.g.n.decl[m.Struct]))
		for _, mf := range m.Struct.AllFields() {
			if mf.Discriminator || !stored(mf) {
				continue
			}
			mcs, _, _ := p.readField(m.Struct, msg, mf)
			for _, c := range mcs {
				code := []jen.Code{jen.Id("x").Op(":=").Op("&").Id(v)}
				cases = append(cases, protoCase{c.num, c.wt, []jen.Code{jen.If(jen.Err().Op(":=").Func().Params().Op("*").Id("Error").Block(
					append(append(code, c.code...), jen.Return(jen.Nil()))...).Call(), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err()))}})
			}
		}
		choose = append(choose, jen.Case(jen.Lit(m.Value)).Block(dst.Clone().Op("=").Op("&").Id(v)))
	}
	choose = append(choose, jen.Case(jen.Lit("")).Block(),
		jen.Default().Block(jen.Return(jen.Op("&").Id("Error").Values(jen.Dict{jen.Id("Path"): jen.Lit("/" + fl.Name), jen.Id("Rule"): jen.Lit("oneOf"),
			jen.Id("Offset"): jen.Lit(-1), jen.Id("Msg"): jen.Lit("unknown outcome ").Op("+").Qual("strconv", "Quote").Call(jen.Id(tagVar))}))))
	post = append(post, jen.Switch(jen.Id(tagVar)).Block(choose...))
	return cases, pre, post
}
