package golang

import (
	"fmt"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/agui-gen/agui-gen/generator/ir"
	"github.com/agui-gen/agui-gen/generator/naming"
)

const jsonPkg = "encoding/json"

// rep is how a field's value is held in Go, which decides presence checks.
type rep int

const (
	repValue   rep = iota // a plain value, always present
	repPointer            // *T, nil when absent
	repNilable            // slice, raw JSON or interface, nil when absent
)

// repOf says how a field of type t is held.
func repOf(t ir.Type, required bool) rep {
	switch t.Kind {
	case ir.KindAny, ir.KindArray, ir.KindMap:
		return repNilable
	case ir.KindNamed:
		switch d := t.Decl.(type) {
		case *ir.Union:
			return repNilable
		case *ir.Alias:
			if r := repOf(d.Type, true); r == repNilable {
				return repNilable
			}
		}
	}
	if required {
		return repValue
	}
	return repPointer
}

// goType is the Go type of t in this package.
func (g *gen) goType(t ir.Type) *jen.Statement {
	return schemaGoType(t, func(t ir.Type) *jen.Statement {
		if t.Kind == ir.KindStringOrArray {
			return jen.Id(g.n.choice[t.Name].Name)
		}
		return jen.Id(g.n.decl[t.Decl])
	})
}

// schemaGoType is the Go type of a JSON Schema type t: scalars, raw JSON,
// slices and string-keyed maps here; named, for a declaration or a
// string-or-array choice, says what its package calls it (this package's
// name, or an earlier version's type in its own package).
func schemaGoType(t ir.Type, named func(ir.Type) *jen.Statement) *jen.Statement {
	switch t.Kind {
	case ir.KindString:
		return jen.String()
	case ir.KindInt:
		return jen.Int64()
	case ir.KindFloat:
		return jen.Float64()
	case ir.KindBool:
		return jen.Bool()
	case ir.KindAny:
		return jen.Qual(jsonPkg, "RawMessage")
	case ir.KindArray:
		return jen.Index().Add(schemaGoType(*t.Elem, named))
	case ir.KindMap:
		return jen.Map(jen.String()).Add(schemaGoType(*t.Elem, named))
	case ir.KindStringOrArray, ir.KindNamed:
		return named(t)
	}
	panic(fmt.Sprintf("unknown kind %d", t.Kind))
}

// fieldType is the Go type of a struct field.
func (g *gen) fieldType(f *ir.Field) *jen.Statement {
	t := f.Type
	if repOf(t, f.Required) == repPointer {
		return jen.Op("*").Add(g.goType(t))
	}
	return g.goType(t)
}

// comment writes one // line per doc line.
func comment(lines []string) jen.Code {
	if len(lines) == 0 {
		return jen.Null()
	}
	s := jen.Comment(lines[0])
	for _, l := range lines[1:] {
		s = s.Line().Comment(l)
	}
	return s
}

// emitTypes writes the type declarations: enums, aliases, structs, unions.
func (g *gen) emitTypes(f *jen.File) {
	for _, d := range g.pkg.Decls {
		switch d := d.(type) {
		case *ir.Enum:
			g.emitEnum(f, d)
		case *ir.Alias:
			g.emitAlias(f, d)
		case *ir.Struct:
			g.emitStruct(f, d)
		case *ir.Union:
			g.emitUnion(f, d)
		}
	}
	for _, c := range g.n.order {
		g.emitChoice(f, c)
	}
}

func (g *gen) declDoc(name string, c *ir.Common, extra ...string) jen.Code {
	lines := docLines(name, c.Doc)
	if len(lines) == 0 {
		lines = []string{name + " is the " + c.Name + " definition."}
	}
	for _, e := range extra {
		lines = append(lines, "")
		lines = append(lines, wrap(e, 100)...)
	}
	if c.Deprecated {
		lines = append(lines, "", "Deprecated: the spec marks "+c.Name+" as deprecated.")
	}
	return comment(lines)
}

func (g *gen) emitEnum(f *jen.File, e *ir.Enum) {
	name := g.n.decl[e]
	var extra []string
	if len(e.Extended) > 0 {
		extra = append(extra, "Values are extended by "+strings.Join(e.Extended, ", ")+".")
	}
	f.Add(g.declDoc(name, &e.Common, extra...))
	f.Type().Id(name).String()
	f.Line()
	f.Comment("Values of " + name + ".")
	f.Const().DefsFunc(func(gr *jen.Group) {
		for _, v := range e.Values {
			if v.Doc != "" {
				gr.Add(comment(wrap(v.Doc, 100)))
			}
			gr.Id(naming.EnumValue(name, v.Value)).Id(name).Op("=").Lit(v.Value)
		}
	})
	f.Line()
	f.Comment("Valid reports whether v is one of the values of " + name + ".")
	f.Func().Params(jen.Id("v").Id(name)).Id("Valid").Params().Bool().Block(
		jen.Switch(jen.Id("v")).BlockFunc(func(gr *jen.Group) {
			gr.CaseFunc(func(c *jen.Group) {
				for _, v := range e.Values {
					c.Id(naming.EnumValue(name, v.Value))
				}
			}).Block(jen.Return(jen.True()))
		}),
		jen.Return(jen.False()),
	)
}

func (g *gen) emitAlias(f *jen.File, a *ir.Alias) {
	name := g.n.decl[a]
	var extra []string
	switch a.Type.Kind {
	case ir.KindAny:
		if a.Type.JSONType == "object" {
			extra = append(extra, "It holds the JSON text of an object, verbatim.")
		} else {
			extra = append(extra, "It holds JSON text, verbatim.")
		}
	}
	if a.Constraints.Pattern != "" {
		extra = append(extra, "Validate checks it against the pattern "+a.Constraints.Pattern+".")
	}
	f.Add(g.declDoc(name, &a.Common, extra...))
	f.Type().Id(name).Op("=").Add(g.goType(a.Type))
}

func (g *gen) emitStruct(f *jen.File, st *ir.Struct) {
	name := g.n.decl[st]
	var extra []string
	if st.IsMixin {
		extra = append(extra, name+" is embedded in the types that compose it; it is never sent on its own.")
	}
	f.Add(g.declDoc(name, &st.Common, extra...))
	f.Type().Id(name).StructFunc(func(gr *jen.Group) {
		for _, m := range st.Mixins {
			gr.Id(g.n.decl[m])
		}
		if len(st.Mixins) > 0 && len(st.Fields) > 0 {
			gr.Line()
		}
		written := 0
		for _, fl := range st.Fields {
			if !stored(fl) {
				continue
			}
			if written > 0 {
				gr.Line()
			}
			written++
			gr.Add(comment(g.fieldDoc(fl)))
			gr.Id(g.n.field[fl]).Add(g.fieldType(fl)).Tag(map[string]string{"json": g.jsonTag(fl)})
		}
		if g.hasExtra(st) {
			gr.Line()
			gr.Comment("Extra holds members the definition does not declare, in document order; the")
			gr.Comment("object is open, so they are kept and written back.")
			gr.Id("Extra").Index().Id("Member").Tag(map[string]string{"json": "-"})
		}
	})
	g.emitGetters(f, st)
}

// emitGetters writes a nil-safe getter for each optional member held by
// pointer, as protoc-gen-go does for its messages: GetF returns *F, or the
// zero value when x or F is nil, and a member that is an object returns
// its pointer, so that chains such as caps.GetTransport().GetResumable()
// read without a nil check at each step. A mixin's getters are promoted to
// the types that embed it.
func (g *gen) emitGetters(f *jen.File, st *ir.Struct) {
	name := g.n.decl[st]
	for _, fl := range st.Fields {
		if !stored(fl) || repOf(fl.Type, fl.Required) != repPointer {
			continue
		}
		field := g.n.field[fl]
		v := jen.Id("x").Dot(field)
		f.Line()
		if isObject(fl.Type) {
			f.Add(comment(wrap(fmt.Sprintf("Get%s returns %s, or nil when x is nil.", field, field), 100)))
			f.Func().Params(jen.Id("x").Op("*").Id(name)).Id("Get"+field).Params().Op("*").Add(g.goType(fl.Type)).Block(
				jen.If(jen.Id("x").Op("!=").Nil()).Block(jen.Return(v)),
				jen.Return(jen.Nil()))
			continue
		}
		f.Add(comment(wrap(fmt.Sprintf("Get%s returns *%s, or the zero value when x or %s is nil.", field, field, field), 100)))
		f.Func().Params(jen.Id("x").Op("*").Id(name)).Id("Get"+field).Params().Add(g.goType(fl.Type)).Block(
			jen.If(jen.Id("x").Op("!=").Nil().Op("&&").Add(v.Clone()).Op("!=").Nil()).Block(
				jen.Return(jen.Op("*").Add(v.Clone()))),
			jen.Return(schemaZero(fl.Type)))
	}
}

// schemaZero is the zero value of a scalar-like schema type (a string,
// number or boolean, or an enum or alias of one), as a getter returns it.
func schemaZero(t ir.Type) jen.Code {
	if z := scalarZero(t.Kind); z != nil {
		return z
	}
	if t.Kind == ir.KindNamed {
		switch d := t.Decl.(type) {
		case *ir.Enum:
			return jen.Lit("")
		case *ir.Alias:
			return schemaZero(d.Type)
		}
	}
	panic(fmt.Sprintf("no scalar zero value for kind %d", t.Kind))
}

// scalarZero is the zero value of a string, boolean or number, in schema
// and proto types alike; nil for any other kind.
func scalarZero(k ir.Kind) jen.Code {
	switch k {
	case ir.KindString:
		return jen.Lit("")
	case ir.KindBool:
		return jen.False()
	case ir.KindInt, ir.KindFloat:
		return jen.Lit(0)
	}
	return nil
}

// isObject reports whether t is held as a struct: a getter hands out its
// pointer, where a scalar's getter copies the value.
func isObject(t ir.Type) bool {
	if t.Kind == ir.KindStringOrArray {
		return true
	}
	_, ok := t.Decl.(*ir.Struct)
	return t.Kind == ir.KindNamed && ok
}

// hasExtra reports whether a struct keeps undeclared members.
func (g *gen) hasExtra(st *ir.Struct) bool { return !st.Closed && !st.IsMixin }

func (g *gen) jsonTag(f *ir.Field) string {
	if f.Required {
		return f.Name
	}
	return f.Name + ",omitempty"
}

func (g *gen) fieldDoc(f *ir.Field) []string {
	name := g.n.field[f]
	lines := docLines(name, f.Doc)
	if len(lines) == 0 {
		lines = []string{name + " is the " + f.Name + " member."}
	}
	var notes []string
	if f.Const != nil {
		notes = append(notes, fmt.Sprintf("When set, it must be %q.", f.Const.String))
	}
	if f.Default != "" {
		notes = append(notes, "Absent means "+f.Default+".")
	}
	if f.Required && repOf(f.Type, true) == repNilable {
		notes = append(notes, "Required.")
	}
	if f.Type.NotNull && f.Type.Kind == ir.KindAny {
		notes = append(notes, "It may hold any JSON value but null.")
	}
	if len(notes) > 0 {
		lines = append(lines, "")
		lines = append(lines, wrap(strings.Join(notes, " "), 100)...)
	}
	if f.Deprecated {
		lines = append(lines, "", "Deprecated: the spec marks "+f.Name+" as deprecated.")
	}
	return lines
}

// tagMethod is the name of the method a union member answers its tag with.
func (g *gen) tagMethod(u *ir.Union) string { return naming.Exported(u.Tag) }

// tagGoType is the Go type of a union's tag values.
func (g *gen) tagGoType(u *ir.Union) *jen.Statement {
	if u.TagType != nil {
		return jen.Id(g.n.decl[u.TagType])
	}
	return jen.String()
}

func (g *gen) tagValue(u *ir.Union, value string) *jen.Statement {
	if u.TagType != nil {
		return jen.Id(naming.EnumValue(g.n.decl[u.TagType], value))
	}
	return jen.Lit(value)
}

func (g *gen) emitUnion(f *jen.File, u *ir.Union) {
	name := g.n.decl[u]
	var members []string
	for _, m := range u.Members {
		members = append(members, "*"+g.n.decl[m.Struct])
	}
	extra := []string{fmt.Sprintf("It is one of %s, told apart by the %q member.", strings.Join(members, ", "), u.Tag)}
	if u.External {
		extra[0] = fmt.Sprintf("It is one of %s, told apart by the enclosing object's %q member.", strings.Join(members, ", "), u.Tag)
	}
	if u.Tag == "" {
		var keys []string
		for _, m := range u.Members {
			keys = append(keys, fmt.Sprintf("%q", m.Value))
		}
		extra[0] = fmt.Sprintf("It is one of %s, told apart by which member it has: %s.", strings.Join(members, ", "), strings.Join(keys, ", "))
	}
	if u.Open {
		extra = append(extra, fmt.Sprintf("A %s the package does not define is kept as an *%s.", u.Tag, g.n.other[u]))
	}
	f.Add(g.declDoc(name, &u.Common, extra...))
	f.Type().Id(name).InterfaceFunc(func(gr *jen.Group) {
		if u.Tag != "" {
			gr.Comment(fmt.Sprintf("%s returns the value's %q member.", g.tagMethod(u), u.Tag))
			gr.Id(g.tagMethod(u)).Params().Add(g.tagGoType(u))
		}
		gr.Comment("AppendJSON appends the value's JSON encoding to b.")
		gr.Id("AppendJSON").Params(jen.Id("b").Index().Byte()).Index().Byte()
		gr.Comment("Validate checks the value against its schema.")
		gr.Id("Validate").Params().Error()
		gr.Id("validate").Params().Op("*").Id("Error")
		gr.Id("is" + name).Params()
	})
	for _, m := range u.Members {
		recv := jen.Op("*").Id(g.n.decl[m.Struct])
		f.Line()
		if u.Tag != "" && !g.tagMethods[m.Struct][g.tagMethod(u)] {
			if g.tagMethods == nil {
				g.tagMethods = map[*ir.Struct]map[string]bool{}
			}
			if g.tagMethods[m.Struct] == nil {
				g.tagMethods[m.Struct] = map[string]bool{}
			}
			g.tagMethods[m.Struct][g.tagMethod(u)] = true
			f.Comment(fmt.Sprintf("%s returns %s.", g.tagMethod(u), g.tagValueDoc(u, m.Value)))
			f.Func().Params(recv.Clone()).Id(g.tagMethod(u)).Params().Add(g.tagGoType(u)).Block(jen.Return(g.tagValue(u, m.Value)))
		}
		f.Func().Params(recv).Id("is" + name).Params().Block()
	}
	if u.Open {
		g.emitOther(f, u)
	}
	if u.External {
		g.emitTagged(f, u)
	}
}

func (g *gen) tagValueDoc(u *ir.Union, value string) string {
	if u.TagType != nil {
		return naming.EnumValue(g.n.decl[u.TagType], value)
	}
	return fmt.Sprintf("%q", value)
}

// emitOther writes the fallback member of an open union.
func (g *gen) emitOther(f *jen.File, u *ir.Union) {
	other, union := g.n.other[u], g.n.decl[u]
	f.Line()
	f.Comment(fmt.Sprintf("%s is a %s whose %s this package does not define, kept verbatim.", other, union, u.Tag))
	f.Type().Id(other).Struct(
		jen.Comment(fmt.Sprintf("Tag is the %s.", u.Tag)),
		jen.Id("Tag").String(),
		jen.Line().Comment("Raw is the value's JSON text (an object)."),
		jen.Id("Raw").Qual(jsonPkg, "RawMessage"),
	)
	f.Line()
	f.Comment(fmt.Sprintf("%s returns the %s the value was sent with.", g.tagMethod(u), u.Tag))
	f.Func().Params(jen.Id("x").Op("*").Id(other)).Id(g.tagMethod(u)).Params().Add(g.tagGoType(u)).Block(jen.Return(jen.Id("x").Dot("Tag")))
	f.Func().Params(jen.Op("*").Id(other)).Id("is" + union).Params().Block()
	f.Line()
	f.Comment("AppendJSON appends the raw value.")
	f.Func().Params(jen.Id("x").Op("*").Id(other)).Id("AppendJSON").Params(jen.Id("b").Index().Byte()).Index().Byte().Block(
		jen.Return(jen.Qual(wirePkg, "AppendRaw").Call(jen.Id("b"), jen.Id("x").Dot("Raw"))),
	)
	f.Line()
	f.Comment("Validate checks that the value is an object and that its " + u.Tag + " is not one this package defines.")
	f.Func().Params(jen.Id("x").Op("*").Id(other)).Id("Validate").Params().Error().Block(
		jen.Return(jen.Qual(wirePkg, "AsError").Call(jen.Id("x").Dot("validate").Call())),
	)
	f.Func().Params(jen.Id("x").Op("*").Id(other)).Id("validate").Params().Op("*").Id("Error").Block(
		jen.Switch(jen.Id("x").Dot("Tag")).BlockFunc(func(gr *jen.Group) {
			gr.CaseFunc(func(c *jen.Group) {
				for _, m := range u.Members {
					c.Lit(m.Value)
				}
			}).Block(jen.Return(jen.Qual(wirePkg, "ValidationError").Call(jen.Lit(""), jen.Lit("oneOf"),
				jen.Lit(u.Tag+" ").Op("+").Qual("strconv", "Quote").Call(jen.Id("x").Dot("Tag")).Op("+").Lit(" has a typed payload; use its type"))))
		}),
		jen.Return(jen.Qual(wirePkg, "CheckRaw").Call(jen.Lit(""), jen.Id("x").Dot("Raw"), jen.True(), jen.True())),
	)
}

// emitChoice writes the struct for a string-or-array value.
func (g *gen) emitChoice(f *jen.File, c *choiceType) {
	elem := g.goType(c.Elem)
	f.Comment(fmt.Sprintf("%s is either a string or a list of %s values. It is the list when %s", c.Name, g.n.typeName(c.Elem), c.ListField))
	f.Comment("is not nil, even if empty, and the string otherwise.")
	f.Type().Id(c.Name).Struct(
		jen.Comment("Text is the value when it is a string."),
		jen.Id("Text").String(),
		jen.Line().Comment(c.ListField+" is the value when it is a list."),
		jen.Id(c.ListField).Index().Add(elem.Clone()),
	)
	f.Line()
	f.Comment(fmt.Sprintf("Text%s returns a %s holding the string s.", c.Name, c.Name))
	f.Func().Id("Text" + c.Name).Params(jen.Id("s").String()).Id(c.Name).Block(
		jen.Return(jen.Id(c.Name).Values(jen.Dict{jen.Id("Text"): jen.Id("s")})))
	f.Line()
	f.Comment(fmt.Sprintf("%s%s returns a %s holding a list.", c.ListField, c.Name, c.Name))
	f.Func().Id(c.ListField+c.Name).Params(jen.Id("items").Op("...").Add(elem.Clone())).Id(c.Name).Block(
		jen.If(jen.Id("items").Op("==").Nil()).Block(jen.Id("items").Op("=").Index().Add(elem.Clone()).Values()),
		jen.Return(jen.Id(c.Name).Values(jen.Dict{jen.Id(c.ListField): jen.Id("items")})))
	f.Line()
	f.Comment("IsList reports whether the value is the list form.")
	f.Func().Params(jen.Id("c").Id(c.Name)).Id("IsList").Params().Bool().Block(jen.Return(jen.Id("c").Dot(c.ListField).Op("!=").Nil()))
}
