package golang

import (
	"fmt"
	"slices"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/agui-gen/agui-gen/generator/ir"
)

// emitDowngrades writes downgrade_gen.go: for each earlier AG-UI version the
// server serves (Options.AGUIEarlier), a function that rewrites an event of
// this version as a client of that one reads it. An event type the earlier
// schema's Event union does not have is left out; an optional member its
// definition of the event lacks is cleared. Events pair by their "type"
// value, members by wire name, so a definition renamed between versions
// still pairs. A required member the earlier version lacks cannot be left
// out and stays: a client ignores a member it does not know.
func (g *gen) emitDowngrades(f *jen.File) error {
	cur, ok := g.pkg.Lookup("Event").(*ir.Union)
	if !ok {
		return fmt.Errorf("%s: no Event union to downgrade", g.pkg.Sources[0].File)
	}
	earlier := slices.Clone(g.opts.AGUIEarlier)
	slices.SortFunc(earlier, func(a, b *ir.Package) int { return ir.CompareVersions(a.Sources[0].Version, b.Sources[0].Version) })
	var versions []jen.Code
	var cases []jen.Code
	var funcs []jen.Code
	for _, old := range earlier {
		v := old.Sources[0].Version
		oldUnion, ok := old.Lookup("Event").(*ir.Union)
		if !ok {
			return fmt.Errorf("%s: no Event union", old.Sources[0].File)
		}
		name := "downgradeToV" + strings.ReplaceAll(v, ".", "_")
		versions = append(versions, jen.Lit(v))
		cases = append(cases, jen.Case(jen.Lit(v)).Block(jen.Return(jen.Id(name).Call(jen.Id("ev")))))
		funcs = append(funcs, g.downgradeFunc(name, v, old.Sources[0].ID, cur, oldUnion))
	}
	f.Comment("EarlierVersions lists the earlier AG-UI versions (Major.Minor), oldest first, whose")
	f.Comment("clients the server writes their runs' events for in their own version (DowngradeEvent),")
	f.Comment("as agui-gen was given their schemas.")
	if len(versions) == 0 {
		f.Func().Id("EarlierVersions").Params().Index().String().Block(jen.Return(jen.Nil()))
	} else {
		f.Func().Id("EarlierVersions").Params().Index().String().Block(jen.Return(jen.Index().String().Values(versions...)))
	}
	f.Line()
	f.Comment("DowngradeEvent returns ev as a client of version, one of EarlierVersions, reads it: nil")
	f.Comment("for an event that version does not have, and otherwise ev, or a copy of it without the")
	f.Comment("optional members that version does not have. Any other version gets ev. Events are")
	f.Comment("compared member by member at their top level: what a newer version adds inside a member")
	f.Comment("both have (an outcome, a message role, a content part) goes out as it is.")
	body := []jen.Code{}
	if len(versions) > 0 {
		body = append(body, jen.Switch(jen.Id("version")).Block(cases...))
	}
	body = append(body, jen.Return(jen.Id("ev")))
	f.Func().Id("DowngradeEvent").Params(jen.Id("version").String(), jen.Id("ev").Id("Event")).Id("Event").Block(body...)
	for _, fn := range funcs {
		f.Line()
		f.Add(fn)
	}
	return nil
}

// downgradeFunc is one earlier version's rewrite of events.
func (g *gen) downgradeFunc(name, version, schemaID string, cur, old *ir.Union) jen.Code {
	oldMembers := map[string]*ir.Struct{}
	for _, m := range old.Members {
		oldMembers[m.Value] = m.Struct
	}
	var dropped []jen.Code
	var stripped []jen.Code
	for _, m := range cur.Members {
		om, ok := oldMembers[m.Value]
		if !ok {
			dropped = append(dropped, jen.Op("*").Id(g.n.decl[m.Struct]))
			continue
		}
		had := map[string]bool{}
		for _, f := range om.AllFields() {
			had[f.WireName()] = true
		}
		var clear []jen.Code
		var set []jen.Code
		for _, f := range m.Struct.AllFields() {
			if had[f.WireName()] || f.Required || f.Const != nil || f.Discriminator {
				continue
			}
			goName := g.n.field[f]
			set = append(set, jen.Id("e").Dot(goName).Op("==").Nil())
			clear = append(clear, jen.Id("c").Dot(goName).Op("=").Nil())
		}
		if len(clear) == 0 {
			continue
		}
		cond := set[0]
		for _, s := range set[1:] {
			cond = jen.Add(cond).Op("&&").Add(s)
		}
		block := []jen.Code{
			jen.If(cond).Block(jen.Return(jen.Id("ev"))),
			jen.Id("c").Op(":=").Op("*").Id("e"),
		}
		block = append(block, clear...)
		block = append(block, jen.Return(jen.Op("&").Id("c")))
		stripped = append(stripped, jen.Case(jen.Op("*").Id(g.n.decl[m.Struct])).Block(block...))
	}
	doc := []jen.Code{jen.Commentf("%s rewrites ev as an AG-UI %s client reads it (%s).", name, version, schemaID)}
	if len(dropped) == 0 && len(stripped) == 0 {
		return jen.Add(doc...).Line().Func().Id(name).Params(jen.Id("ev").Id("Event")).Id("Event").Block(jen.Return(jen.Id("ev")))
	}
	sw := jen.Switch(jen.Id("e").Op(":=").Id("ev").Assert(jen.Type()))
	var body []jen.Code
	if len(dropped) > 0 {
		body = append(body, jen.Case(dropped...).Block(jen.Return(jen.Nil())))
	}
	body = append(body, stripped...)
	if len(stripped) == 0 {
		// No member is read: the switch needs no variable.
		sw = jen.Switch(jen.Id("ev").Assert(jen.Type()))
	}
	return jen.Add(doc...).Line().Func().Id(name).Params(jen.Id("ev").Id("Event")).Id("Event").Block(
		sw.Block(body...),
		jen.Return(jen.Id("ev")),
	)
}
