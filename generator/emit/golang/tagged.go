package golang

import (
	"fmt"
	"go/token"
	"slices"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/agui-gen/agui-gen/generator/ir"
)

// A union whose tag lives in the enclosing struct (a META event's metaType
// selects its payload's type) gets, from the schema: one constructor per
// member, which takes the member's required fields and returns the
// enclosing struct; and, on the enclosing struct, an accessor for each
// field several members share (a META event's MessageID), so callers can
// filter without a type switch.

// enclosing is the struct and field that hold an external union.
func (g *gen) enclosing(u *ir.Union) (*ir.Struct, *ir.Field) {
	for _, d := range g.pkg.Decls {
		st, ok := d.(*ir.Struct)
		if !ok {
			continue
		}
		for _, f := range st.Fields {
			if f.Type.Kind == ir.KindNamed && f.Type.Decl == u {
				return st, f
			}
		}
	}
	return nil, nil
}

// emitTagged writes the constructors and accessors of an external union.
func (g *gen) emitTagged(f *jen.File, u *ir.Union) {
	st, field := g.enclosing(u)
	if st == nil {
		return
	}
	enc, union := g.n.decl[st], g.n.decl[u]
	suffix := lastWord(union)
	for _, m := range u.Members {
		member := g.n.decl[m.Struct]
		ctor := "New" + strings.TrimSuffix(member, suffix) + strings.TrimSuffix(enc, "Event")
		var params []jen.Code
		fields := jen.Dict{}
		var names []string
		for _, mf := range m.Struct.AllFields() {
			if !mf.Required || !stored(mf) || mf.Discriminator {
				continue
			}
			p := paramName(g.n.field[mf])
			params = append(params, jen.Id(p).Add(g.fieldType(mf)))
			fields[jen.Id(g.n.field[mf])] = jen.Id(p)
			names = append(names, mf.Name)
		}
		f.Line()
		doc := fmt.Sprintf("%s returns %s carrying %s (%s %q)", ctor, withArticle(enc), withArticle(member), u.Tag, m.Value)
		if len(names) > 0 {
			doc += ", with its required " + strings.Join(names, " and ")
		}
		f.Add(comment(wrap(doc+".", 100)))
		f.Func().Id(ctor).Params(params...).Op("*").Id(enc).Block(
			jen.Return(jen.Op("&").Id(enc).Values(jen.Dict{
				jen.Id(g.n.field[field]): jen.Op("&").Id(member).Values(fields),
			})),
		)
	}
	g.emitShared(f, u, st, field)
}

// emitShared writes an accessor on the enclosing struct for each field
// that two or more members have, with the same type.
func (g *gen) emitShared(f *jen.File, u *ir.Union, st *ir.Struct, field *ir.Field) {
	byName := map[string][]sharedUse{}
	var order []string
	for _, m := range u.Members {
		for _, mf := range m.Struct.AllFields() {
			if !stored(mf) || mf.Discriminator {
				continue
			}
			if _, seen := byName[mf.Name]; !seen {
				order = append(order, mf.Name)
			}
			byName[mf.Name] = append(byName[mf.Name], sharedUse{m.Struct, mf})
		}
	}
	enc := g.n.decl[st]
	for _, name := range order {
		uses := byName[name]
		if len(uses) < 2 || !sameKind(uses[0].field.Type, uses) {
			continue
		}
		goName := g.n.field[uses[0].field]
		if slices.ContainsFunc(st.AllFields(), func(x *ir.Field) bool { return g.n.field[x] == goName }) {
			continue // the struct has a field of that name
		}
		var members []string
		for _, us := range uses {
			members = append(members, g.n.decl[us.member])
		}
		f.Line()
		zero := zeroLit(uses[0].field.Type)
		f.Add(comment(wrap(fmt.Sprintf("%s returns the %s of the %s's %s, which %s carry; %#v for any other %s or when it is unset.",
			goName, name, enc, field.Name, strings.Join(members, ", "), zero, field.Name), 100)))
		f.Func().Params(jen.Id("x").Op("*").Id(enc)).Id(goName).Params().Add(g.goType(uses[0].field.Type)).BlockFunc(func(gr *jen.Group) {
			gr.Switch(jen.Id("p").Op(":=").Id("x").Dot(g.n.field[field]).Assert(jen.Type())).BlockFunc(func(sw *jen.Group) {
				for _, us := range uses {
					v := jen.Id("p").Dot(g.n.field[us.field])
					if repOf(us.field.Type, us.field.Required) == repPointer {
						sw.Case(jen.Op("*").Id(g.n.decl[us.member])).Block(
							jen.If(v.Clone().Op("!=").Nil()).Block(jen.Return(jen.Op("*").Add(v))))
						continue
					}
					sw.Case(jen.Op("*").Id(g.n.decl[us.member])).Block(jen.Return(v))
				}
			})
			gr.Return(jen.Lit(zero))
		})
	}
}

// sharedUse is a member's field of a name other members have too.
type sharedUse struct {
	member *ir.Struct
	field  *ir.Field
}

// sameKind reports whether every use holds a scalar of t's kind (named
// types and containers are left out: their zero values differ in meaning).
func sameKind(t ir.Type, uses []sharedUse) bool {
	switch t.Kind {
	case ir.KindString, ir.KindInt, ir.KindFloat, ir.KindBool:
	default:
		return false
	}
	for _, us := range uses {
		if us.field.Type.Kind != t.Kind {
			return false
		}
	}
	return true
}

// zeroLit is the zero value of a scalar kind.
func zeroLit(t ir.Type) any {
	switch t.Kind {
	case ir.KindInt:
		return int64(0)
	case ir.KindFloat:
		return 0.0
	case ir.KindBool:
		return false
	}
	return ""
}

// lastWord is the last CamelCase word of a Go name ("MetaPayload" →
// "Payload").
func lastWord(name string) string {
	for i := len(name) - 1; i > 0; i-- {
		if name[i] >= 'A' && name[i] <= 'Z' {
			return name[i:]
		}
	}
	return name
}

// paramName is a Go parameter name for a field ("MessageID" → "messageID").
func paramName(goName string) string {
	i := 0
	for i < len(goName) && goName[i] >= 'A' && goName[i] <= 'Z' {
		i++
	}
	switch {
	case i == 0:
	case i == 1 || i == len(goName):
		goName = strings.ToLower(goName[:i]) + goName[i:]
	default: // an initialism followed by a word: "URLPath" → "urlPath"
		goName = strings.ToLower(goName[:i-1]) + goName[i-1:]
	}
	if token.IsKeyword(goName) {
		goName += "_"
	}
	return goName
}

// withArticle puts "a" or "an" before a type name, by its first letter.
func withArticle(name string) string {
	if name != "" && strings.ContainsRune("AEIOU", rune(name[0])) {
		return "an " + name
	}
	return "a " + name
}
