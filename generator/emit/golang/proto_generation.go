package golang

import (
	"bytes"
	"fmt"

	"github.com/dave/jennifer/jen"

	"github.com/agui-gen/agui-gen/generator/ir"
	"github.com/agui-gen/agui-gen/generator/naming"
)

// The task runtime numbers a task's changes (its generation) whatever the
// proto; A2A's dev-1.1 draft (§3.2.7) puts that number on the wire: in
// Task.generation and the update events' generation, and as conditions of
// requests, SendMessageConfiguration.if_generation_match and
// GetTaskRequest.current_generation. Whether the proto at hand has those
// fields is decided here, from the IR, and the runtime calls the functions
// this file emits: no reflection at run time, and nothing at all for a
// proto without them. templates/a2atask/generation.go is this file as it is
// for the embedded proto, so that the template package compiles.
const (
	generationField   = "generation"
	generationMatch   = "if_generation_match"
	generationAwaited = "current_generation"
)

// emitGeneration writes the generation functions of a2atask for pkg, whose
// types package is imported as "a2a" from parent.
func emitGeneration(pkg *ir.Package, parent string) ([]byte, error) {
	g := &protoGen{pkg: pkg, decl: map[ir.Decl]string{}, field: map[*ir.Field]string{},
		oneof: map[*ir.Oneof]string{}, wrapper: map[*ir.Field]string{}, enumVal: map[*ir.EnumValue]string{},
		opts: Options{A2ARuntime: true}}
	if err := g.resolveNames(); err != nil {
		return nil, err
	}
	f := newFile(parent+"/a2atask", "a2atask")
	f.HeaderComment(Header)
	f.HeaderComment("Source: " + sourceLine(pkg))
	f.ImportName(parent, "a2a")
	typ := func(name string) *jen.Statement { return jen.Op("*").Qual(parent, name) }

	// stampTask.
	f.Comment("stampTask writes the task's generation where the proto has a field for it.")
	if fl := g.int64Field("Task", generationField); fl != nil {
		f.Func().Id("stampTask").Params(jen.Id("t").Add(typ("Task")), jen.Id("gen").Int64()).Block(
			jen.Id("t").Dot(g.field[fl]).Op("=").Id("gen"))
	} else {
		f.Func().Id("stampTask").Params(typ("Task"), jen.Int64()).Block()
	}

	// stampEvent: the members of StreamResponse's oneof whose message has a
	// generation field.
	f.Line()
	f.Comment("stampEvent writes, into an event of a task's stream, the generation the task had once the")
	f.Comment("event was applied, where the proto has a field for it.")
	var cases []jen.Code
	var oneof string
	if sr, ok := pkg.Lookup("StreamResponse").(*ir.Struct); ok {
		for _, m := range sr.Fields {
			msg, ok := m.Type.Decl.(*ir.Struct)
			if m.Oneof == nil || m.Type.Kind != ir.KindNamed || !ok {
				continue
			}
			inner := g.int64Field(msg.Name, generationField)
			if inner == nil {
				continue
			}
			oneof = naming.Exported(m.Oneof.Name)
			cases = append(cases, jen.Case(jen.Op("*").Qual(parent, g.wrapper[m])).Block(
				jen.Id("p").Dot(g.field[m]).Dot(g.field[inner]).Op("=").Id("gen")))
		}
	}
	if len(cases) > 0 {
		f.Func().Id("stampEvent").Params(jen.Id("r").Add(typ("StreamResponse")), jen.Id("gen").Int64()).Block(
			jen.Switch(jen.Id("p").Op(":=").Id("r").Dot(oneof).Assert(jen.Type())).Block(cases...))
	} else {
		f.Func().Id("stampEvent").Params(typ("StreamResponse"), jen.Int64()).Block()
	}

	for _, cond := range []struct {
		fn, message, field, doc string
	}{
		{"generationMatch", "SendMessageConfiguration", generationMatch, "generationMatch returns the generation a message requires its task to be at, when it requires one."},
		{"awaitedGeneration", "GetTaskRequest", generationAwaited, "awaitedGeneration returns the generation a GetTask waits for its task to pass, when it waits."},
	} {
		f.Line()
		f.Comment(cond.doc)
		fl := g.int64Field(cond.message, cond.field)
		if fl == nil || !fl.Presence {
			f.Func().Id(cond.fn).Params(typ(cond.message)).Params(jen.Int64(), jen.Bool()).Block(jen.Return(jen.Lit(0), jen.False()))
			continue
		}
		f.Func().Id(cond.fn).Params(jen.Id("m").Add(typ(cond.message))).Params(jen.Int64(), jen.Bool()).Block(
			jen.If(jen.Id("m").Op("==").Nil().Op("||").Id("m").Dot(g.field[fl]).Op("==").Nil()).Block(jen.Return(jen.Lit(0), jen.False())),
			jen.Return(jen.Op("*").Id("m").Dot(g.field[fl]), jen.True()))
	}
	var buf bytes.Buffer
	if err := f.Render(&buf); err != nil {
		return nil, fmt.Errorf("rendering the generation functions: %w", err)
	}
	return buf.Bytes(), nil
}

// int64Field returns the int64 field named name of the message, or nil.
func (g *protoGen) int64Field(message, name string) *ir.Field {
	st, ok := g.pkg.Lookup(message).(*ir.Struct)
	if !ok {
		return nil
	}
	for _, fl := range st.Fields {
		if fl.Name == name && fl.Type.Kind == ir.KindInt && fl.Type.Scalar == "int64" {
			return fl
		}
	}
	return nil
}
