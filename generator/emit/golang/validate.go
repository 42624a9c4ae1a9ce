package golang

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/agui-gen/agui-gen/generator/ir"
	"github.com/agui-gen/agui-gen/generator/naming"
)

// emitValidators writes Validate for every value type, and validate for
// the mixins whose members they check alike.
func (g *gen) emitValidators(f *jen.File) {
	shared := map[*ir.Struct]bool{}
	for _, d := range g.pkg.Decls {
		if st, ok := d.(*ir.Struct); ok && !st.IsMixin {
			g.emitValidate(f, st, shared)
		}
	}
	for _, d := range g.pkg.Decls {
		if st, ok := d.(*ir.Struct); ok && shared[st] {
			f.Line()
			f.Comment("validate checks the members that the types composing " + g.n.decl[st] + " take from it.")
			f.Func().Params(jen.Id("x").Op("*").Id(g.n.decl[st])).Id("validate").Params().Op("*").Id("Error").Block(
				append(g.mixinChecks(st), jen.Return(jen.Nil()))...)
		}
	}
	for _, c := range g.n.order {
		g.emitChoiceValidate(f, c)
	}
	g.emitPatterns(f)
}

func (g *gen) emitValidate(f *jen.File, st *ir.Struct, shared map[*ir.Struct]bool) {
	name := g.n.decl[st]
	var body []jen.Code
	var last *ir.Struct // the mixin whose validate the last check calls
	all := st.AllFields()
	for i := 0; i < len(all); i++ {
		// A mixin whose members st holds unchanged, in a row, is checked by
		// its own validate, as every type composing it is.
		if m := mixinAt(st, all[i:]); m != nil && len(g.mixinChecks(m)) > 0 {
			shared[m], last = true, m
			body = append(body, jen.If(jen.Err().Op(":=").Id("x").Dot(g.n.decl[m]).Dot("validate").Call(), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())))
			i += len(m.AllFields()) - 1
			continue
		}
		if stored(all[i]) { // consts, union tags and selector tags hold no value to check
			if checks := g.checkField(st, all[i]); len(checks) > 0 {
				body, last = append(body, checks...), nil
			}
		}
	}
	if g.hasExtra(st) {
		var declared []jen.Code
		for _, fl := range st.AllFields() {
			declared = append(declared, jen.Lit(fl.Name))
		}
		body = append(body, jen.If(jen.Err().Op(":=").Qual(wirePkg, "CheckMembers").Call(jen.Id("x").Dot("Extra"),
			jen.Func().Params(jen.Id("name").String()).Bool().Block(
				jen.Switch(jen.Id("name")).Block(jen.Case(declared...).Block(jen.Return(jen.True()))),
				jen.Return(jen.False()),
			)), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())))
	}
	f.Line()
	f.Comment("Validate checks x against the schema's constraints and returns the first")
	f.Comment("violation, as an *Error naming its JSON path.")
	f.Func().Params(jen.Id("x").Op("*").Id(name)).Id("Validate").Params().Error().Block(
		jen.Return(jen.Qual(wirePkg, "AsError").Call(jen.Id("x").Dot("validate").Call())))
	f.Line()
	body = append([]jen.Code{jen.If(jen.Id("x").Op("==").Nil()).Block(jen.Return(jen.Qual(wirePkg, "RequiredError").Call(jen.Lit(""))))}, body...)
	if last != nil && !g.hasExtra(st) {
		body[len(body)-1] = jen.Return(jen.Id("x").Dot(g.n.decl[last]).Dot("validate").Call())
	} else {
		body = append(body, jen.Return(jen.Nil()))
	}
	f.Func().Params(jen.Id("x").Op("*").Id(name)).Id("validate").Params().Op("*").Id("Error").Block(body...)
}

// mixinAt returns the mixin of st whose members begin fields, each
// unchanged or overridden where neither holds a value (an event's type
// narrowed to its constant), or nil.
func mixinAt(st *ir.Struct, fields []*ir.Field) *ir.Struct {
	for _, m := range st.Mixins {
		mf := m.AllFields()
		if len(mf) > 0 && len(mf) <= len(fields) && slices.EqualFunc(mf, fields[:len(mf)], func(own, held *ir.Field) bool {
			return own == held || held.Overrides == own && !stored(own) && !stored(held)
		}) {
			return m
		}
	}
	return nil
}

// mixinChecks returns the checks of a mixin's stored members.
func (g *gen) mixinChecks(m *ir.Struct) []jen.Code {
	var checks []jen.Code
	for _, fl := range m.AllFields() {
		if stored(fl) {
			checks = append(checks, g.checkField(m, fl)...)
		}
	}
	return checks
}

// checkField returns the checks of one stored member.
func (g *gen) checkField(st *ir.Struct, fl *ir.Field) []jen.Code {
	v := g.fieldExpr(st, fl)
	t := fl.Type
	c := mergeConstraints(fl.Constraints, t)
	if fl.Const != nil {
		return []jen.Code{jen.If(v.Clone().Op("!=").Nil().Op("&&").Op("*").Add(v.Clone()).Op("!=").Lit(fl.Const.String)).Block(
			jen.Return(jen.Qual(wirePkg, "ValidationError").Call(jen.Lit(fl.Name), jen.Lit("const"),
				jen.Qual("strconv", "Quote").Call(jen.Op("*").Add(v.Clone())).Op("+").Lit(" is not "+strconv.Quote(fl.Const.String)))))}
	}
	switch repOf(t, fl.Required) {
	case repPointer:
		inner := v.Clone()
		if !isStructType(t) {
			inner = jen.Op("*").Add(v.Clone())
		}
		checks := g.checkValue(t, c, inner, jen.Lit(fl.Name), errUnder(fl.Name))
		if len(checks) == 0 {
			return nil
		}
		return []jen.Code{jen.If(v.Clone().Op("!=").Nil()).Block(checks...)}
	case repNilable:
		checks := g.checkValue(t, c, v.Clone(), jen.Lit(fl.Name), errUnder(fl.Name))
		if fl.Required && isUnion(t) {
			return []jen.Code{jen.If(v.Clone().Op("==").Nil()).Block(jen.Return(jen.Qual(wirePkg, "RequiredError").Call(jen.Lit(fl.Name)))).Else().Block(checks...)}
		}
		if len(checks) == 0 {
			return nil
		}
		if fl.Required || t.Kind == ir.KindArray || isAlias(t, ir.KindArray) {
			return checks
		}
		return []jen.Code{jen.If(v.Clone().Op("!=").Nil()).Block(checks...)}
	}
	return g.checkValue(t, c, v.Clone(), jen.Lit(fl.Name), errUnder(fl.Name))
}

func isUnion(t ir.Type) bool {
	_, ok := t.Decl.(*ir.Union)
	return t.Kind == ir.KindNamed && ok
}

func isAlias(t ir.Type, kind ir.Kind) bool {
	a, ok := t.Decl.(*ir.Alias)
	return t.Kind == ir.KindNamed && ok && a.Type.Kind == kind
}

// errUnder wraps a nested error with the member name.
func errUnder(name string) func(jen.Code) jen.Code {
	return func(e jen.Code) jen.Code { return jen.Add(e).Dot("Under").Call(jen.Lit(name)) }
}

// mergeConstraints adds the constraints an alias carries to those of the
// use site.
func mergeConstraints(c ir.Constraints, t ir.Type) ir.Constraints {
	if a, ok := t.Decl.(*ir.Alias); ok && t.Kind == ir.KindNamed {
		ac := a.Constraints
		if c.Minimum == nil {
			c.Minimum = ac.Minimum
		}
		if c.Maximum == nil {
			c.Maximum = ac.Maximum
		}
		if c.MinItems == nil {
			c.MinItems = ac.MinItems
		}
		if c.MaxItems == nil {
			c.MaxItems = ac.MaxItems
		}
		if c.MinLength == nil {
			c.MinLength = ac.MinLength
		}
		if c.MaxLength == nil {
			c.MaxLength = ac.MaxLength
		}
		if c.Pattern == "" {
			c.Pattern = ac.Pattern
		}
	}
	return c
}

// checkValue returns checks of value v of type t. field is the member name
// expression for errors found at v itself ("" inside arrays); wrap turns an
// error from a nested value into one located at v.
func (g *gen) checkValue(t ir.Type, c ir.Constraints, v *jen.Statement, field jen.Code, wrap func(jen.Code) jen.Code) []jen.Code {
	return g.checkValueAt(t, c, v, field, func(e jen.Code) jen.Code { return e }, wrap)
}

// checkValueAt is checkValue with direct wrapping the errors found at v
// itself (inside an array they need the index and the member name).
func (g *gen) checkValueAt(t ir.Type, c ir.Constraints, v *jen.Statement, field jen.Code, direct, wrap func(jen.Code) jen.Code) []jen.Code {
	ret := func(e jen.Code) jen.Code { return jen.Return(direct(e)) }
	var out []jen.Code
	switch t.Kind {
	case ir.KindString:
		if c.Pattern != "" {
			out = append(out, jen.If(jen.Op("!").Id(g.patternVar(c.Pattern)).Dot("MatchString").Call(v.Clone())).Block(
				ret(jen.Qual(wirePkg, "ValidationError").Call(field, jen.Lit("pattern"), jen.Qual("strconv", "Quote").Call(v.Clone()).Op("+").Lit(" does not match "+c.Pattern)))))
		}
		if c.MinLength != nil {
			out = append(out, jen.If(jen.Qual("unicode/utf8", "RuneCountInString").Call(v.Clone()).Op("<").Lit(int(*c.MinLength))).Block(
				ret(jen.Qual(wirePkg, "ValidationError").Call(field, jen.Lit("minLength"), jen.Lit(fmt.Sprintf("is shorter than %d characters", *c.MinLength))))))
		}
		if c.MaxLength != nil {
			out = append(out, jen.If(jen.Qual("unicode/utf8", "RuneCountInString").Call(v.Clone()).Op(">").Lit(int(*c.MaxLength))).Block(
				ret(jen.Qual(wirePkg, "ValidationError").Call(field, jen.Lit("maxLength"), jen.Lit(fmt.Sprintf("is longer than %d characters", *c.MaxLength))))))
		}
	case ir.KindInt:
		if c.Minimum != nil {
			out = append(out, g.intBound(v, field, *c.Minimum, "<", "minimum"))
		}
		if c.Maximum != nil {
			out = append(out, g.intBound(v, field, *c.Maximum, ">", "maximum"))
		}
	case ir.KindFloat:
		out = append(out, jen.If(jen.Err().Op(":=").Qual(wirePkg, "CheckFinite").Call(field, v.Clone()), jen.Err().Op("!=").Nil()).Block(ret(jen.Err())))
		if c.Minimum != nil {
			out = append(out, jen.If(jen.Err().Op(":=").Qual(wirePkg, "CheckMinimum").Call(field, v.Clone(), jen.Lit(*c.Minimum)), jen.Err().Op("!=").Nil()).Block(ret(jen.Err())))
		}
		if c.Maximum != nil {
			out = append(out, jen.If(jen.Err().Op(":=").Qual(wirePkg, "CheckMaximum").Call(field, v.Clone(), jen.Lit(*c.Maximum)), jen.Err().Op("!=").Nil()).Block(ret(jen.Err())))
		}
	case ir.KindAny:
		out = append(out, jen.If(jen.Err().Op(":=").Qual(wirePkg, "CheckRaw").Call(field, v.Clone(), jen.Lit(t.NotNull), jen.Lit(t.JSONType == "object")), jen.Err().Op("!=").Nil()).Block(ret(jen.Err())))
	case ir.KindArray:
		if c.MinItems != nil {
			out = append(out, jen.If(jen.Err().Op(":=").Qual(wirePkg, "CheckMinItems").Call(field, jen.Len(v.Clone()), jen.Lit(int(*c.MinItems))), jen.Err().Op("!=").Nil()).Block(ret(jen.Err())))
		}
		if c.MaxItems != nil {
			out = append(out, jen.If(jen.Err().Op(":=").Qual(wirePkg, "CheckMaxItems").Call(field, jen.Len(v.Clone()), jen.Lit(int(*c.MaxItems))), jen.Err().Op("!=").Nil()).Block(ret(jen.Err())))
		}
		i, done := g.nest("i")
		elemWrap := func(e jen.Code) jen.Code { return wrap(jen.Add(e).Dot("At").Call(jen.Id(i))) }
		elem := *t.Elem
		elemChecks := g.checkValueAt(elem, mergeConstraints(ir.Constraints{}, elem), selectable(v).Index(jen.Id(i)), jen.Lit(""), elemWrap, elemWrap)
		done()
		if isUnion(elem) {
			elemChecks = append([]jen.Code{jen.If(selectable(v).Index(jen.Id(i)).Op("==").Nil()).Block(
				jen.Return(elemWrap(jen.Qual(wirePkg, "RequiredError").Call(jen.Lit("")))))}, elemChecks...)
		}
		if len(elemChecks) > 0 {
			out = append(out, jen.For(jen.Id(i).Op(":=").Range().Add(v.Clone())).Block(elemChecks...))
		}
	case ir.KindMap:
		i, done := g.nest("k")
		k := i
		elemWrap := func(e jen.Code) jen.Code { return wrap(jen.Add(e).Dot("Under").Call(jen.Id(k))) }
		elem := *t.Elem
		elemChecks := g.checkValueAt(elem, mergeConstraints(ir.Constraints{}, elem), selectable(v).Index(jen.Id(k)), jen.Lit(""), elemWrap, elemWrap)
		done()
		if isUnion(elem) {
			elemChecks = append([]jen.Code{jen.If(selectable(v).Index(jen.Id(k)).Op("==").Nil()).Block(
				jen.Return(elemWrap(jen.Qual(wirePkg, "RequiredError").Call(jen.Lit("")))))}, elemChecks...)
		}
		if len(elemChecks) > 0 {
			// In key order, so the error reported is always the same.
			out = append(out, jen.For(jen.Id("_").Op(",").Id(k).Op(":=").Range().Qual(wirePkg, "SortedKeys").Call(v.Clone())).Block(elemChecks...))
		}
	case ir.KindStringOrArray:
		out = append(out, jen.If(jen.Err().Op(":=").Add(selectable(v)).Dot("validate").Call(), jen.Err().Op("!=").Nil()).Block(jen.Return(wrap(jen.Err()))))
	case ir.KindNamed:
		switch d := t.Decl.(type) {
		case *ir.Enum:
			out = append(out, jen.If(jen.Op("!").Add(selectable(v)).Dot("Valid").Call()).Block(
				ret(jen.Qual(wirePkg, "EnumError").Call(field, jen.String().Call(v.Clone()), jen.Lit(enumValues(d))))))
		case *ir.Alias:
			at := d.Type
			at.NotNull = at.NotNull || t.NotNull
			return g.checkValueAt(at, c, v, field, direct, wrap)
		case *ir.Struct, *ir.Union:
			out = append(out, jen.If(jen.Err().Op(":=").Add(selectable(v)).Dot("validate").Call(), jen.Err().Op("!=").Nil()).Block(jen.Return(wrap(jen.Err()))))
		}
	}
	return out
}

// selectable is v ready for a selector or an index: in parentheses when it
// is a dereference, which they would bind inside of.
func selectable(v *jen.Statement) *jen.Statement {
	if strings.HasPrefix(fmt.Sprintf("%#v", v), "*") {
		return jen.Parens(v.Clone())
	}
	return v.Clone()
}

// intBound compares an integer with a bound, in integers where the bound is
// whole and fits.
func (g *gen) intBound(v *jen.Statement, field jen.Code, bound float64, op, rule string) jen.Code {
	word := "less than the minimum"
	if rule == "maximum" {
		word = "greater than the maximum"
	}
	msg := jen.Qual("strconv", "FormatInt").Call(v.Clone(), jen.Lit(10)).Op("+").Lit(" is " + word + " " + strconv.FormatFloat(bound, 'f', -1, 64))
	var limit jen.Code = jen.Op(strconv.FormatInt(int64(bound), 10))
	if bound != math.Trunc(bound) || math.Abs(bound) > 1<<62 {
		limit = jen.Lit(bound)
		v = jen.Float64().Call(v.Clone())
	}
	return jen.If(v.Clone().Op(op).Add(limit)).Block(jen.Return(jen.Qual(wirePkg, "ValidationError").Call(field, jen.Lit(rule), msg)))
}

func (g *gen) emitChoiceValidate(f *jen.File, c *choiceType) {
	list := jen.Id("x").Dot(c.ListField)
	checks := g.checkValue(ir.Type{Kind: ir.KindArray, Elem: &c.Elem}, ir.Constraints{}, list.Clone(), jen.Lit(""), func(e jen.Code) jen.Code { return e })
	f.Line()
	f.Func().Params(jen.Id("x").Op("*").Id(c.Name)).Id("validate").Params().Op("*").Id("Error").Block(
		append(append([]jen.Code{
			jen.If(jen.Id("x").Dot("Text").Op("!=").Lit("").Op("&&").Add(list.Clone()).Op("!=").Nil()).Block(
				jen.Return(jen.Qual(wirePkg, "ValidationError").Call(jen.Lit(""), jen.Lit("oneOf"), jen.Lit("holds both a string and a list")))),
		}, checks...), jen.Return(jen.Nil()))...)
}

// patternVar names the compiled regular expression for a pattern.
func (g *gen) patternVar(pattern string) string {
	if name, ok := g.patterns[pattern]; ok {
		return name
	}
	name := "pattern" + strconv.Itoa(len(g.patternOrder)+1)
	for _, d := range g.pkg.Decls {
		if a, ok := d.(*ir.Alias); ok && a.Constraints.Pattern == pattern {
			name = naming.Unexported(a.Name) + "Pattern"
			break
		}
	}
	g.patterns[pattern] = name
	g.patternOrder = append(g.patternOrder, pattern)
	return name
}

func (g *gen) emitPatterns(f *jen.File) {
	for _, p := range g.patternOrder {
		f.Line()
		f.Var().Id(g.patterns[p]).Op("=").Qual("regexp", "MustCompile").Call(jen.Lit(p))
	}
}
