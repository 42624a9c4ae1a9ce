package golang

import (
	"fmt"
	"slices"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/agui-gen/agui-gen/generator/ir"
	"github.com/agui-gen/agui-gen/generator/load/freeze"
	"github.com/agui-gen/agui-gen/generator/naming"
)

// The AG-UI binary transport is derived from the schema: message per
// definition, fields numbered by the proto-freeze ledger. Where the derived
// protobuf shape departs from the JSON shape, the upstream generator applies
// a handful of translation rules the schema does not state; they are here,
// as data, and everything else comes from the IR and the ledger.
var (
	// protoMessageNames renames definitions whose message has another name.
	protoMessageNames = map[string]string{
		"TokenUsage": "Usage", "FunctionCall": "ToolCall.Function",
		"ContentPart": "InputContent", "PartSource": "InputContentSource",
		"TextPart": "TextInputPart", "ImagePart": "ImageInputPart", "AudioPart": "AudioInputPart",
		"VideoPart": "VideoInputPart", "DocumentPart": "DocumentInputPart",
		"DataSource": "InputContentDataSource", "UrlSource": "InputContentUrlSource", "FileSource": "InputContentFileSource",
	}
	// protoFieldRenames renames members whose field has another name.
	protoFieldRenames = map[string]string{"ActivityMessage.content": "activity_content"}
	// protoValueObjects are object members carried as google.protobuf.Value
	// rather than google.protobuf.Struct.
	protoValueObjects = map[string]bool{"Interrupt.metadata": true, "Interrupt.responseSchema": true}
)

const (
	protoEnvelope  = "Event"
	protoEventArms = "Event.event"
)

// protoField is one field write, placed by number.
type protoField struct {
	num  int
	code []jen.Code
}

type aguiProto struct {
	g      *gen
	ledger *freeze.Ledger
	// unionOf maps a struct to the union it is a member of.
	unionOf map[*ir.Struct]*ir.Union
	done    map[*ir.Struct]bool
	queue   []*ir.Struct
	base    *ir.Struct // the BaseEvent mixin
	flat    []*ir.Union
	readers []*ir.Union  // unions read from protobuf, in first-use order
	order   []*ir.Struct // structs with an encoder, in emission order
	err     error
}

// emitProtoTransport writes AppendEventProto and the per-type encoders.
func (g *gen) emitProtoTransport(f *jen.File, ledger *freeze.Ledger) error {
	p := &aguiProto{g: g, ledger: ledger, unionOf: map[*ir.Struct]*ir.Union{}, done: map[*ir.Struct]bool{}}
	var events *ir.Union
	for _, d := range g.pkg.Decls {
		if u, ok := d.(*ir.Union); ok {
			for _, m := range u.Members {
				p.unionOf[m.Struct] = u
			}
			if u.Name == "Event" {
				events = u
			}
		}
	}
	if events == nil {
		return fmt.Errorf("the schema has no Event union to carry over protobuf")
	}
	for _, m := range events.Members {
		for _, mx := range m.Struct.Mixins {
			if mx.Name == "BaseEvent" {
				p.base = mx
			}
		}
	}
	arms := ledger.Arms(protoEventArms)
	var cases []jen.Code
	for _, m := range events.Members {
		arm, ok := arms[snake(m.Value)]
		if !ok && p.fromSchema(m.Struct) {
			// A new event of the schema: a ledger opened to extend numbers
			// its arm.
			arm, ok = ledger.Assign(protoEnvelope, protoEventArms+"."+snake(m.Value))
		}
		if !ok {
			continue // no protobuf form (META is SSE-only)
		}
		cases = append(cases, jen.Case(jen.Op("*").Id(g.n.decl[m.Struct])).Block(
			append([]jen.Code{appendTagCode(arm, wireBytes)}, lenDelimited(func(b *jen.Statement) *jen.Statement { return jen.Id("x").Dot("appendProto").Call(b) })...)...))
		p.enqueue(m.Struct)
	}
	cases = append(cases, jen.Default().Block(jen.Return(jen.Id("b"), jen.False())))
	f.Comment("AppendEventProto appends ev's protobuf encoding (one Event envelope, unframed) to b, as")
	f.Comment("@ag-ui/proto encodes it. It reports false, appending nothing, for an event with no protobuf")
	f.Comment("form in the number ledger, such as META.")
	f.Func().Id("AppendEventProto").Params(jen.Id("b").Index().Byte(), jen.Id("ev").Id("Event")).Params(jen.Index().Byte(), jen.Bool()).Block(
		jen.Switch(jen.Id("x").Op(":=").Id("ev").Assert(jen.Type())).Block(cases...),
		jen.Return(jen.Id("b"), jen.True()),
	)
	if p.base != nil {
		p.emitBaseEvent(f)
	}
	for len(p.queue) > 0 && p.err == nil {
		st := p.queue[0]
		p.queue = p.queue[1:]
		p.emitStruct(f, st)
	}
	p.emitFlatUnions(f)
	p.emitProtoDecoders(f, events)
	return p.err
}

func (p *aguiProto) enqueue(st *ir.Struct) {
	if !p.done[st] {
		p.done[st] = true
		p.queue = append(p.queue, st)
	}
}

func (p *aguiProto) fail(format string, args ...any) {
	if p.err == nil {
		p.err = fmt.Errorf(format, args...)
	}
}

// snake turns a JSON member name or a tag value into a protobuf field name:
// "toolCallId" → "tool_call_id", "TEXT_MESSAGE_START" → "text_message_start".
func snake(s string) string { return strings.Join(naming.Words(s), "_") }

// messageName is the protobuf message a struct is written as.
func (p *aguiProto) messageName(st *ir.Struct) string {
	if u, ok := p.unionOf[st]; ok && p.flattened(u) {
		return p.unionMessage(u)
	}
	if n, ok := protoMessageNames[st.Name]; ok {
		return n
	}
	return st.Name
}

func (p *aguiProto) unionMessage(u *ir.Union) string {
	if n, ok := protoMessageNames[u.Name]; ok {
		return n
	}
	return u.Name
}

// oneofOf returns the ledger oneof a union is written as ("InputContent.part"),
// or "" when its members are flattened into one message.
func (p *aguiProto) oneofOf(u *ir.Union) string {
	msg := p.unionMessage(u)
	var found []string
	for k := range p.ledger.Numbers {
		if rest, ok := strings.CutPrefix(k, msg+"."); ok && strings.Count(rest, ".") == 1 {
			if o := msg + "." + rest[:strings.Index(rest, ".")]; !slices.Contains(found, o) {
				found = append(found, o)
			}
		}
	}
	switch len(found) {
	case 0:
		return ""
	case 1:
		return found[0]
	}
	slices.Sort(found)
	p.fail("%s: message %s has several oneofs (%s); which one holds %s is ambiguous", p.ledger.File, msg, strings.Join(found, ", "), u.Name)
	return found[0]
}

// flattened reports a union written as one message holding every member's
// fields (Message, JsonPatchOperation).
func (p *aguiProto) flattened(u *ir.Union) bool {
	if p.oneofOf(u) != "" {
		return false
	}
	_, ok := p.ledger.Number(p.unionMessage(u) + "." + snake(u.Tag))
	return ok
}

// fromSchema reports a struct of the AG-UI schema itself, not of a
// document that extends it (META, which has no protobuf form).
func (p *aguiProto) fromSchema(st *ir.Struct) bool {
	return len(p.g.pkg.Sources) > 0 && st.Pos.File == p.g.pkg.Sources[0].File
}

// number returns the number of a field, "Message.field"; a ledger opened
// to extend numbers one it lacks.
func (p *aguiProto) number(key string) int {
	n, ok := p.ledger.Assign(key[:strings.LastIndexByte(key, '.')], key)
	if !ok {
		p.fail("%s: %s has no number in the protobuf ledger: agui-gen generate --agui-ledger FILE --extend-ledger numbers it and writes FILE", p.ledger.File, key)
	}
	return n
}

func (p *aguiProto) emitStruct(f *jen.File, st *ir.Struct) {
	p.order = append(p.order, st)
	msg := p.messageName(st)
	var fields []protoField
	isEvent := slices.Contains(st.Mixins, p.base) && p.base != nil
	if isEvent {
		fields = append(fields, p.baseEvent(st, msg))
	}
	u := p.unionOf[st]
	for _, fl := range st.AllFields() {
		if isEvent && (fl.Discriminator || p.inBase(fl)) {
			continue
		}
		if fl.Discriminator && u != nil {
			if fl.Name == u.Tag && p.flattened(u) {
				fields = append(fields, p.tagField(u, msg, fl))
			}
			continue
		}
		if !stored(fl) && fl.Const == nil {
			continue
		}
		fields = append(fields, p.field(st, msg, fl)...)
	}
	slices.SortStableFunc(fields, func(a, b protoField) int { return a.num - b.num })
	body := []jen.Code{}
	for _, pf := range fields {
		body = append(body, pf.code...)
	}
	body = append(body, jen.Return(jen.Id("b")))
	f.Line()
	f.Comment(fmt.Sprintf("appendProto appends x as the body of the protobuf message %s.", msg))
	f.Func().Params(jen.Id("x").Op("*").Id(p.g.n.decl[st])).Id("appendProto").Params(jen.Id("b").Index().Byte()).Index().Byte().Block(body...)
}

func (p *aguiProto) inBase(fl *ir.Field) bool {
	for _, bf := range p.base.AllFields() {
		if bf == fl || fl.Overrides == bf {
			return true
		}
	}
	return false
}

// baseEvent writes an event's base_event message: its type, and the
// BaseEvent members, which every event writes alike (emitBaseEvent).
func (p *aguiProto) baseEvent(st *ir.Struct, msg string) protoField {
	num := p.number(msg + ".base_event")
	var typ string
	for _, fl := range st.AllFields() {
		if fl.Discriminator && fl.Const != nil {
			typ = fl.Const.String
		}
	}
	n := p.number("EventType." + typ)
	return protoField{num, append([]jen.Code{appendTagCode(num, wireBytes)}, lenDelimited(func(b *jen.Statement) *jen.Statement {
		return jen.Id("x").Dot(p.g.n.decl[p.base]).Dot("appendProto").Call(b, jen.Lit(n))
	})...)}
}

// emitBaseEvent writes the body of the base_event message every event
// carries: the event type's number, then the BaseEvent members.
func (p *aguiProto) emitBaseEvent(f *jen.File) {
	typeNum := p.number("BaseEvent.type")
	inner := []protoField{{typeNum, []jen.Code{jen.If(jen.Id("eventType").Op("!=").Lit(0)).Block(
		appendTagCode(typeNum, wireVarint), jen.Id("b").Op("=").Qual(wirePkg, "AppendVarint").Call(jen.Id("b"), jen.Id("eventType")))}}}
	for _, bf := range p.base.Fields {
		if !bf.Narrowed {
			inner = append(inner, p.field(p.base, "BaseEvent", bf)...)
		}
	}
	slices.SortStableFunc(inner, func(a, b protoField) int { return a.num - b.num })
	var body []jen.Code
	for _, pf := range inner {
		body = append(body, pf.code...)
	}
	f.Line()
	f.Comment("appendProto appends x as the body of the protobuf message BaseEvent, whose type is")
	f.Comment("eventType's number in the EventType enum.")
	f.Func().Params(jen.Id("x").Op("*").Id(p.g.n.decl[p.base])).Id("appendProto").Params(jen.Id("b").Index().Byte(), jen.Id("eventType").Uint64()).Index().Byte().Block(
		append(body, jen.Return(jen.Id("b")))...)
}

// tagField writes a flattened union's tag: as an enum when the ledger has
// one for it (JsonPatchOperationType), else as a string.
func (p *aguiProto) tagField(u *ir.Union, msg string, fl *ir.Field) protoField {
	num := p.number(msg + "." + snake(u.Tag))
	if n, ok := p.tagNumber(msg, fl.Const.String); ok {
		code := []jen.Code{}
		if n != 0 {
			code = []jen.Code{appendTagCode(num, wireVarint), jen.Id("b").Op("=").Qual(wirePkg, "AppendVarint").Call(jen.Id("b"), jen.Lit(n))}
		}
		return protoField{num, code}
	}
	return protoField{num, []jen.Code{appendTagCode(num, wireBytes), jen.Id("b").Op("=").Qual(wirePkg, "AppendLenString").Call(jen.Id("b"), jen.Lit(fl.Const.String))}}
}

// tagNumber returns the enum number of a flattened union's tag value,
// when the ledger writes msg's tag as an enum (msg+"Type"); a ledger opened
// to extend numbers a value it lacks.
func (p *aguiProto) tagNumber(msg, value string) (int, bool) {
	enum := msg + "Type"
	if !p.ledger.HasScope(enum) {
		return 0, false
	}
	return p.ledger.Assign(enum, enum+"."+strings.ToUpper(snake(value)))
}

// field writes one member of st as fields of the message msg.
func (p *aguiProto) field(st *ir.Struct, msg string, fl *ir.Field) []protoField {
	key := st.Name + "." + fl.Name
	name := snake(fl.Name)
	if r, ok := protoFieldRenames[key]; ok {
		name = r
	}
	v := p.g.fieldExpr(st, fl)
	t := fl.Type
	if fl.Const != nil && !stored(fl) {
		num := p.number(msg + "." + name)
		return []protoField{{num, []jen.Code{appendTagCode(num, wireBytes), jen.Id("b").Op("=").Qual(wirePkg, "AppendLenString").Call(jen.Id("b"), jen.Lit(fl.Const.String))}}}
	}
	switch {
	case t.Kind == ir.KindStringOrArray:
		num := p.number(msg + "." + name)
		parts := p.number(msg + "." + name + "_parts")
		list := v.Clone().Dot(p.g.n.choice[t.Name].ListField)
		u := t.Elem.Decl.(*ir.Union)
		for _, m := range u.Members {
			p.enqueue(m.Struct)
		}
		return []protoField{
			{num, []jen.Code{jen.If(list.Clone().Op("==").Nil()).Block(appendTagCode(num, wireBytes),
				jen.Id("b").Op("=").Qual(wirePkg, "AppendLenString").Call(jen.Id("b"), v.Clone().Dot("Text")))}},
			{parts, []jen.Code{jen.For(jen.List(jen.Id("_"), jen.Id("e")).Op(":=").Range().Add(list)).Block(
				append([]jen.Code{appendTagCode(parts, wireBytes)}, p.unionValue(u, jen.Id("e"))...)...)}},
		}
	case isUnion(t) && !p.flattened(t.Decl.(*ir.Union)) && p.oneofOf(t.Decl.(*ir.Union)) == "":
		return p.flattenIntoParent(msg, name, t.Decl.(*ir.Union), v)
	}
	num := p.number(msg + "." + name)
	rep := repOf(t, fl.Required)
	var present *jen.Statement
	val := v.Clone()
	switch rep {
	case repPointer:
		present = v.Clone().Op("!=").Nil()
		if !isStructType(t) {
			val = jen.Op("*").Add(v.Clone())
		}
	case repNilable:
		if !fl.Required {
			present = v.Clone().Op("!=").Nil()
		}
	case repValue:
		if isStringLike(t) && !p.explicitInFlat(st, fl) {
			present = v.Clone().Op("!=").Lit("")
		}
		if t.Kind == ir.KindInt || t.Kind == ir.KindFloat {
			present = v.Clone().Op("!=").Lit(0)
		}
		if t.Kind == ir.KindBool {
			present = v.Clone()
		}
	}
	code := p.value(st, fl, num, val)
	if present != nil {
		code = []jen.Code{jen.If(present).Block(code...)}
	}
	return []protoField{{num, code}}
}

// explicitInFlat reports a member of a flattened union's message that not
// every member requires: the shared message declares it optional, so even
// its zero value is written when the member has it.
func (p *aguiProto) explicitInFlat(st *ir.Struct, fl *ir.Field) bool {
	u, ok := p.unionOf[st]
	if !ok || !p.flattened(u) {
		return false
	}
	for _, m := range u.Members {
		f := fieldNamed(m.Struct, fl.Name)
		if f == nil || !f.Required {
			return true
		}
	}
	return false
}

func isStringLike(t ir.Type) bool {
	switch t.Kind {
	case ir.KindString:
		return true
	case ir.KindNamed:
		switch d := t.Decl.(type) {
		case *ir.Enum:
			return true
		case *ir.Alias:
			return isStringLike(d.Type)
		}
	}
	return false
}

// value writes a present value of fl as field num (tag included).
func (p *aguiProto) value(st *ir.Struct, fl *ir.Field, num int, v *jen.Statement) []jen.Code {
	t := resolveAlias(fl.Type)
	switch t.Kind {
	case ir.KindString:
		return []jen.Code{appendTagCode(num, wireBytes), jen.Id("b").Op("=").Qual(wirePkg, "AppendLenString").Call(jen.Id("b"), v)}
	case ir.KindInt:
		return []jen.Code{appendTagCode(num, wireVarint), jen.Id("b").Op("=").Qual(wirePkg, "AppendVarint").Call(jen.Id("b"), jen.Uint64().Call(v))}
	case ir.KindBool:
		return []jen.Code{appendTagCode(num, wireVarint), jen.Id("b").Op("=").Qual(wirePkg, "AppendBoolVarint").Call(jen.Id("b"), v)}
	case ir.KindFloat:
		return []jen.Code{appendTagCode(num, wireFixed64), jen.Id("b").Op("=").Qual(wirePkg, "AppendFixed64").Call(jen.Id("b"), jen.Qual("math", "Float64bits").Call(v))}
	case ir.KindAny:
		fn := "AppendValueWire"
		if t.JSONType == "object" && !protoValueObjects[st.Name+"."+fl.Name] {
			fn = "AppendStructWire"
		}
		raw := v.Clone()
		if fl.Required {
			raw = jen.Qual(wirePkg, "RawOrNull").Call(v)
		}
		return append([]jen.Code{appendTagCode(num, wireBytes)}, lenDelimited(func(b *jen.Statement) *jen.Statement { return jen.Qual(wirePkg, fn).Call(b, raw) })...)
	case ir.KindArray:
		elem := resolveAlias(*t.Elem)
		var each []jen.Code
		switch {
		case elem.Kind == ir.KindString:
			each = []jen.Code{appendTagCode(num, wireBytes), jen.Id("b").Op("=").Qual(wirePkg, "AppendLenString").Call(jen.Id("b"), jen.Id("e"))}
		case isUnion(elem):
			each = append([]jen.Code{appendTagCode(num, wireBytes)}, p.unionValue(elem.Decl.(*ir.Union), jen.Id("e"))...)
		case isStructType(elem):
			p.enqueue(elem.Decl.(*ir.Struct))
			return []jen.Code{jen.For(jen.Id("i").Op(":=").Range().Add(v)).Block(
				append([]jen.Code{appendTagCode(num, wireBytes)}, lenDelimited(func(b *jen.Statement) *jen.Statement { return v.Clone().Index(jen.Id("i")).Dot("appendProto").Call(b) })...)...)}
		default:
			p.fail("%s.%s: arrays of %d have no protobuf form", st.Name, fl.Name, elem.Kind)
			return nil
		}
		return []jen.Code{jen.For(jen.List(jen.Id("_"), jen.Id("e")).Op(":=").Range().Add(v)).Block(each...)}
	case ir.KindNamed:
		switch d := t.Decl.(type) {
		case *ir.Enum:
			return []jen.Code{appendTagCode(num, wireBytes), jen.Id("b").Op("=").Qual(wirePkg, "AppendLenString").Call(jen.Id("b"), jen.String().Call(v))}
		case *ir.Struct:
			p.enqueue(d)
			return append([]jen.Code{appendTagCode(num, wireBytes)}, lenDelimited(func(b *jen.Statement) *jen.Statement { return v.Dot("appendProto").Call(b) })...)
		case *ir.Union:
			return append([]jen.Code{appendTagCode(num, wireBytes)}, p.unionValue(d, v)...)
		}
	}
	p.fail("%s.%s: no protobuf form for this type", st.Name, fl.Name)
	return nil
}

func resolveAlias(t ir.Type) ir.Type {
	if a, ok := t.Decl.(*ir.Alias); ok && t.Kind == ir.KindNamed {
		r := resolveAlias(a.Type)
		r.NotNull = r.NotNull || t.NotNull
		return r
	}
	return t
}

// unionValue writes a union value, after its tag: the length-delimited
// message, either the flattened member's body or a oneof wrapper around it.
func (p *aguiProto) unionValue(u *ir.Union, v *jen.Statement) []jen.Code {
	for _, m := range u.Members {
		p.enqueue(m.Struct)
	}
	if oneof := p.oneofOf(u); oneof != "" {
		arms := p.ledger.Arms(oneof)
		var cases []jen.Code
		for _, m := range u.Members {
			arm, ok := arms[snake(m.Value)]
			if !ok {
				arm, ok = p.ledger.Assign(oneof[:strings.LastIndexByte(oneof, '.')], oneof+"."+snake(m.Value))
			}
			if !ok {
				p.fail("%s: %s.%s has no number in the protobuf ledger", p.ledger.File, oneof, snake(m.Value))
				continue
			}
			cases = append(cases, jen.Case(jen.Op("*").Id(p.g.n.decl[m.Struct])).Block(
				append([]jen.Code{appendTagCode(arm, wireBytes)}, lenDelimited(func(b *jen.Statement) *jen.Statement { return jen.Id("m").Dot("appendProto").Call(b) })...)...))
		}
		return []jen.Code{jen.BlockFunc(func(gr *jen.Group) {
			gr.Var().Id("at").Int()
			gr.List(jen.Id("b"), jen.Id("at")).Op("=").Qual(wirePkg, "BeginLen").Call(jen.Id("b"))
			gr.Switch(jen.Id("m").Op(":=").Add(v).Assert(jen.Type())).Block(cases...)
			gr.Id("b").Op("=").Qual(wirePkg, "EndLen").Call(jen.Id("b"), jen.Id("at"))
		})}
	}
	p.flat = appendUnique(p.flat, u)
	return lenDelimited(func(b *jen.Statement) *jen.Statement { return jen.Id("append"+p.g.n.decl[u]+"Proto").Call(b, v) })
}

func appendUnique(us []*ir.Union, u *ir.Union) []*ir.Union {
	if slices.Contains(us, u) {
		return us
	}
	return append(us, u)
}

// emitFlatUnions writes, per flattened union, the function that writes a
// value as the body of the union's one message.
func (p *aguiProto) emitFlatUnions(f *jen.File) {
	for _, u := range p.flat {
		name := p.g.n.decl[u]
		var cases []jen.Code
		for _, m := range u.Members {
			cases = append(cases, jen.Case(jen.Op("*").Id(p.g.n.decl[m.Struct])).Block(jen.Return(jen.Id("m").Dot("appendProto").Call(jen.Id("b")))))
		}
		f.Line()
		f.Comment(fmt.Sprintf("append%sProto appends v as the body of the protobuf message %s.", name, p.unionMessage(u)))
		f.Func().Id("append"+name+"Proto").Params(jen.Id("b").Index().Byte(), jen.Id("v").Id(name)).Index().Byte().Block(
			jen.Switch(jen.Id("m").Op(":=").Id("v").Assert(jen.Type())).Block(cases...),
			jen.Return(jen.Id("b")),
		)
	}
}

// flattenIntoParent writes a union member (an outcome) as fields of the
// enclosing message: its tag as the string field name, its members' fields
// beside it.
func (p *aguiProto) flattenIntoParent(msg, name string, u *ir.Union, v *jen.Statement) []protoField {
	num := p.number(msg + "." + name)
	out := []protoField{{num, []jen.Code{jen.If(v.Clone().Op("!=").Nil()).Block(appendTagCode(num, wireBytes),
		jen.Id("b").Op("=").Qual(wirePkg, "AppendLenString").Call(jen.Id("b"), jen.String().Call(v.Clone().Dot(p.g.tagMethod(u)).Call())))}}}
	for _, m := range u.Members {
		for _, fl := range m.Struct.AllFields() {
			if fl.Discriminator || !stored(fl) {
				continue
			}
			inner := p.field(m.Struct, msg, fl)
			for _, pf := range inner {
				code := []jen.Code{jen.If(jen.List(jen.Id("x"), jen.Id("ok")).Op(":=").Add(v.Clone()).Assert(jen.Op("*").Id(p.g.n.decl[m.Struct])), jen.Id("ok")).Block(pf.code...)}
				out = append(out, protoField{pf.num, code})
			}
		}
	}
	return out
}
