package golang

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/agui-gen/agui-gen/generator/ir"
	"github.com/agui-gen/agui-gen/generator/naming"
)

// CompatProto is the proto of an earlier version, given beside its JSON
// Schema: the gRPC service and the HTTP+JSON bindings (ProtoJSON bodies)
// that version's clients call. Each of its RPCs is served by the current
// RPC paired with it, the request converted up and each response down.
type CompatProto struct {
	// Old is the earlier version, loaded from its proto.
	Old *ir.Package
	// OldImport is the import path of the package generated from Old.
	OldImport string
	// RPCs maps each of Old's RPCs to the current RPC that serves it, as
	// the diff pairs them (same name, or renamed).
	RPCs map[string]string
}

// protoCompatGen writes the conversions between an earlier version's proto
// and the current one: for a server, up for the requests its clients send
// and down for the responses they read; for a client of a server of that
// version, the other way. Fields pair by name or JSON name, enum values by
// name (the type prefix, case and separators aside) or else by number, as
// the diff pairs them; the rules complete what pairs by meaning only. It
// shares the JSON conversions' file, rules and losses, and names and queues
// its converters apart from theirs.
type protoCompatGen struct {
	*compatGen
	old        *protoGen
	oldQual    string
	converters // named "V03Proto"
	// methods are the JSON-RPC methods of a version given by its proto
	// alone: its RPCs, by their names, with ProtoJSON params and results.
	methods []jen.Code
}

// httpRulesFile is the file of the rules that corrects the earlier proto's
// HTTP bindings where its clients call other paths than it states.
const httpRulesFile = "http.txt"

// protoTable writes the descriptor of the earlier version's service, as
// its proto has it, and returns the members of the version's table that
// serve it: Proto, the descriptor, and RPCs, how each RPC is served. The
// conversions they name are written by protoConverters.
func (cg *compatGen) protoTable(c *CompatProto, rules fs.FS, dir string) (*protoCompatGen, jen.Dict) {
	old := &protoGen{pkg: c.Old, decl: map[ir.Decl]string{}, field: map[*ir.Field]string{},
		oneof: map[*ir.Oneof]string{}, wrapper: map[*ir.Field]string{}, enumVal: map[*ir.EnumValue]string{}}
	if err := old.resolveNames(); err != nil {
		cg.fail("%v", err)
		return nil, nil
	}
	pg := &protoCompatGen{compatGen: cg, old: old, oldQual: c.OldImport,
		converters: newConverters(cg.prefix[1:]+"Proto", cg.version, cg.cur.pkg.Sources[0].Version, cg.rules, &cg.losses)}
	pg.oldDecl, pg.curDecl = old.decl, cg.cur.decl
	cg.f.ImportName(c.OldImport, c.Old.Name)
	var fixes map[string][]ir.HTTPRule
	if rules != nil {
		var err error
		if fixes, err = readHTTPRules(rules, dir); err != nil {
			cg.fail("%v", err)
			return nil, nil
		}
	}
	oldSvc, curSvc := c.Old.Services(), cg.cur.pkg.Services()
	if len(oldSvc) != 1 || len(curSvc) != 1 {
		cg.fail("%s: want one service, found %d", c.Old.Sources[0].File, len(oldSvc))
		return nil, nil
	}
	desc := "compat" + cg.prefix + "Proto"
	var methods, rpcs []jen.Code
	for _, m := range oldSvc[0].Methods {
		if m.ClientStreaming {
			continue // no binding serves client streams
		}
		var w *ir.Method
		for _, x := range curSvc[0].Methods {
			if x.Name == c.RPCs[m.Name] {
				w = x
			}
		}
		if w == nil || w.ServerStreaming != m.ServerStreaming {
			cg.fail("%s.%s has no RPC of %s that serves it", oldSvc[0].Name, m.Name, cg.cur.pkg.Sources[0].File)
			return nil, nil
		}
		httpRules := m.HTTP
		if fixed, ok := fixes[m.Name]; ok {
			httpRules = fixed
		}
		methods = append(methods, pg.methodDesc(oldSvc[0], m, httpRules))
		// The server converts requests up and responses down; the client
		// the other way. Responses are named first: a message both versions
		// name alike (TaskPushNotificationConfig) keeps the short name where
		// a request of another name converts to it too.
		down := pg.need(pair{old: m.Output, cur: w.Output})
		response := pg.need(pair{old: m.Output, cur: w.Output, up: true})
		up := pg.need(pair{old: m.Input, cur: w.Input, up: true})
		request := pg.need(pair{old: m.Input, cur: w.Input})
		oldIn, oldOut := jen.Op("*").Add(pg.oldType(m.Input)), jen.Op("*").Add(pg.oldType(m.Output))
		curIn, curOut := jen.Op("*").Id(cg.cur.decl[w.Input]), jen.Op("*").Id(cg.cur.decl[w.Output])
		if cg.oldPkg == nil {
			pg.methods = append(pg.methods, pg.jsonrpcMethod(m, w, up, down, request, response))
		}
		rpcs = append(rpcs, jen.Values(jen.Dict{
			jen.Id("Serves"): jen.Lit(w.Name),
			jen.Id("Up"): jen.Func().Params(jen.Id("req").Qual(a2arpcPkg, "ProtoValue")).Params(jen.Qual(a2arpcPkg, "ProtoValue"), jen.Error()).Block(
				jen.Return(jen.Id(up).Call(jen.Id("req").Assert(oldIn)))),
			jen.Id("Down"): jen.Func().Params(jen.Id("resp").Qual(a2arpcPkg, "ProtoValue")).Qual(a2arpcPkg, "ProtoValue").Block(
				jen.Return(jen.Id(down).Call(jen.Id("resp").Assert(curOut)))),
			jen.Id("Request"): jen.Func().Params(jen.Id("req").Qual(a2arpcPkg, "ProtoValue")).Qual(a2arpcPkg, "ProtoValue").Block(
				jen.Return(jen.Id(request).Call(jen.Id("req").Assert(curIn)))),
			jen.Id("Response"): jen.Func().Params(jen.Id("resp").Qual(a2arpcPkg, "ProtoValue")).Params(jen.Qual(a2arpcPkg, "ProtoValue"), jen.Error()).Block(
				jen.Return(jen.Id(response).Call(jen.Id("resp").Assert(oldOut)))),
		}))
	}
	cg.f.Commentf("%s describes the service of A2A %s's proto (%s) as its gRPC and HTTP+JSON", desc, cg.version, oldSvc[0].FullName)
	cg.f.Comment("clients call it.")
	cg.f.Var().Id(desc).Op("=").Qual(a2arpcPkg, "ServiceDesc").Add(keyed(
		jen.Id("Name").Op(":").Lit(oldSvc[0].FullName),
		jen.Id("Methods").Op(":").Index().Qual(a2arpcPkg, "MethodDesc").Values(methods...),
	))
	cg.f.Line()
	return pg, jen.Dict{
		jen.Id("Proto"): jen.Op("&").Id(desc),
		jen.Id("RPCs"):  jen.Index().Qual(a2arpcPkg, "CompatRPC").Values(rpcs...),
	}
}

// jsonrpcMethod is the JSON-RPC method of RPC m of a version given by its
// proto alone, served by w: params and result are the ProtoJSON of m's
// request and response, as the current version's are of its own.
func (pg *protoCompatGen) jsonrpcMethod(m, w *ir.Method, up, down, request, response string) jen.Code {
	oldIn, oldOut := pg.oldType(m.Input), pg.oldType(m.Output)
	curIn, curOut := jen.Op("*").Id(pg.cur.decl[w.Input]), jen.Op("*").Id(pg.cur.decl[w.Output])
	return jen.Values(jen.Dict{
		jen.Id("Method"): jen.Lit(m.Name),
		jen.Id("Serves"): jen.Lit(w.Name),
		jen.Id("Request"): jen.Func().Params(jen.Id("params").Index().Byte()).Params(jen.Qual(a2arpcPkg, "ProtoValue"), jen.Error()).Block(
			jen.Var().Id("p").Add(oldIn),
			jen.If(jen.Err().Op(":=").Id("p").Dot("UnmarshalJSON").Call(jen.Id("params")), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
			jen.If(jen.Err().Op(":=").Id("p").Dot("Validate").Call(), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
			jen.Return(jen.Id(up).Call(jen.Op("&").Id("p"))),
		),
		jen.Id("Result"): jen.Func().Params(jen.Id("b").Index().Byte(), jen.Id("resp").Qual(a2arpcPkg, "ProtoValue")).Index().Byte().Block(
			jen.Return(jen.Id(down).Call(jen.Id("resp").Assert(curOut)).Dot("AppendJSON").Call(jen.Id("b")))),
		jen.Id("Params"): jen.Func().Params(jen.Id("req").Qual(a2arpcPkg, "ProtoValue")).Index().Byte().Block(
			jen.Return(jen.Id(request).Call(jen.Id("req").Assert(curIn)).Dot("AppendJSON").Call(jen.Nil()))),
		jen.Id("Response"): jen.Func().Params(jen.Id("result").Index().Byte()).Params(jen.Qual(a2arpcPkg, "ProtoValue"), jen.Error()).Block(
			jen.Var().Id("v").Add(oldOut),
			jen.If(jen.Err().Op(":=").Id("v").Dot("UnmarshalJSON").Call(jen.Id("result")), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
			jen.Return(jen.Id(response).Call(jen.Op("&").Id("v"))),
		),
	})
}

// emitProtoOnlyTable writes the table of a version given by its proto
// alone: its JSON-RPC methods, its service and how each RPC is served (the
// members in proto), and its agent card both ways.
func (pg *protoCompatGen) emitProtoOnlyTable(proto jen.Dict) {
	table := jen.Dict{
		jen.Id("Version"): jen.Lit(pg.version),
		jen.Id("Methods"): jen.Index().Qual(a2arpcPkg, "CompatMethod").Values(pg.methods...),
	}
	for k, v := range proto {
		table[k] = v
	}
	card, _ := pg.old.pkg.Lookup("AgentCard").(*ir.Struct)
	curCard, _ := pg.cur.pkg.Lookup("AgentCard").(*ir.Struct)
	if card != nil && curCard != nil {
		cardEntries(table, pg.need(pair{old: card, cur: curCard}), pg.need(pair{old: card, cur: curCard, up: true}),
			pg.oldType(card), pg.cur.decl[curCard])
	}
	pg.f.Commentf("compatV%s serves the clients of A2A %s on every binding, generated from its proto: its", pg.prefix[1:], pg.version)
	pg.f.Comment("JSON-RPC methods are its RPCs, their params and results the ProtoJSON of its messages.")
	pg.f.Var().Id("compatV"+pg.prefix[1:]).Op("=").Op("&").Qual(a2arpcPkg, "CompatVersion").Values(table)
}

// protoConverters writes the conversions the table needs.
func (pg *protoCompatGen) protoConverters() {
	for p, ok := pg.next(); ok && pg.err == nil; p, ok = pg.next() {
		pg.emitConverter(p)
	}
}

// methodDesc is the descriptor of one RPC of the earlier proto.
func (pg *protoCompatGen) methodDesc(s *ir.Service, m *ir.Method, rules []ir.HTTPRule) jen.Code {
	return methodDesc(m, "/"+s.FullName+"/"+m.Name, pg.version, rules, pg.oldType(m.Input), pg.oldType(m.Output))
}

// readHTTPRules reads http.txt, when the rules have one: an RPC's name, an
// HTTP method, a path template and the body's field ("*", or "-" for
// none) a line; the lines of an RPC replace all of its proto's bindings.
func readHTTPRules(rules fs.FS, dir string) (map[string][]ir.HTTPRule, error) {
	file := path.Join(dir, httpRulesFile)
	data, err := fs.ReadFile(rules, file)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil // no corrections
	}
	if err != nil {
		return nil, err
	}
	out := map[string][]ir.HTTPRule{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for line := 1; sc.Scan(); line++ {
		text, _, _ := strings.Cut(sc.Text(), "#")
		f := strings.Fields(text)
		switch len(f) {
		case 0:
			continue
		case 4:
			body := f[3]
			if body == "-" {
				body = ""
			}
			out[f[0]] = append(out[f[0]], ir.HTTPRule{Method: f[1], Path: f[2], Body: body})
		default:
			return nil, fmt.Errorf("%s:%d: want: rpc method path body", file, line)
		}
	}
	return out, nil
}

func (pg *protoCompatGen) oldType(d ir.Decl) *jen.Statement {
	return jen.Qual(pg.oldQual, pg.old.decl[d])
}

func (pg *protoCompatGen) emitConverter(p pair) {
	switch old := p.old.(type) {
	case *ir.Struct:
		if cur, ok := p.cur.(*ir.Struct); ok {
			pg.structConverter(p, old, cur)
			return
		}
	case *ir.Enum:
		if cur, ok := p.cur.(*ir.Enum); ok {
			pg.enumConverter(p, old, cur)
			return
		}
	}
	pg.fail("%s and %s do not pair; give %s a rule", p.old.DeclName(), p.cur.DeclName(), pg.name(p))
}

// pairedField finds the field of the other version with the same name, or
// the same JSON name.
func pairedField(fields []*ir.Field, f *ir.Field) *ir.Field {
	for _, g := range fields {
		if g.Name == f.Name {
			return g
		}
	}
	return matchField(fields, f.WireName())
}

func (pg *protoCompatGen) structConverter(p pair, old, cur *ir.Struct) {
	name := pg.name(p)
	fix := "fix" + name
	src, dst := old, cur
	srcGen, dstGen := pg.old, pg.cur
	if !p.up {
		src, dst, srcGen, dstGen = cur, old, pg.cur, pg.old
	}
	srcType := func() *jen.Statement {
		if p.up {
			return pg.oldType(old)
		}
		return jen.Id(pg.cur.decl[cur])
	}
	dstType := func() *jen.Statement {
		if p.up {
			return jen.Id(pg.cur.decl[cur])
		}
		return pg.oldType(old)
	}
	var lost, unfilled []string
	var body []jen.Code
	if p.up {
		body = append(body, jen.If(jen.Id("x").Op("==").Nil()).Block(jen.Return(jen.Nil(), jen.Nil())))
	} else {
		body = append(body, jen.If(jen.Id("x").Op("==").Nil()).Block(jen.Return(jen.Nil())))
	}
	body = append(body, jen.Id("out").Op(":=").Op("&").Add(dstType()).Values())
	for _, df := range dst.AllFields() {
		sf := pairedField(src.AllFields(), df)
		if sf == nil {
			unfilled = append(unfilled, df.Name)
			continue
		}
		code, ok := pg.copyField(p.up, srcGen, dstGen, sf, df)
		if !ok {
			if !pg.rules[fix] {
				pg.fail("%s.%s and %s.%s do not pair; write %s to carry them", src.Name, sf.Name, dst.Name, df.Name, fix)
				return
			}
			lost, unfilled = append(lost, sf.Name), append(unfilled, df.Name)
			continue
		}
		body = append(body, code...)
	}
	for _, sf := range src.AllFields() {
		if pairedField(dst.AllFields(), sf) == nil {
			lost = append(lost, sf.Name)
		}
	}
	if p.up {
		pg.f.Commentf("%s converts an A2A %s %s, as its proto has it, to %s.", name, pg.version, pg.old.decl[old], pg.cur.decl[cur])
	} else {
		pg.f.Commentf("%s converts %s to an A2A %s %s, as its proto has it.", name, pg.cur.decl[cur], pg.version, pg.old.decl[old])
	}
	if len(lost) > 0 || len(unfilled) > 0 {
		from, to := pg.cur.pkg.Sources[0].Version, pg.version
		if p.up {
			from, to = to, from
		}
		pg.f.Comment("")
		pg.f.Comment(carried(lost, unfilled, from, to))
		lossFrom, lossTo := pg.ends(p)
		loss := CompatLoss{Converter: name, From: lossFrom, To: lossTo, Lost: lost, Unfilled: unfilled, Fix: ruleOf(pg.rules, fix)}
		pg.losses = append(pg.losses, loss)
	}
	if pg.rules[fix] {
		pg.f.Comment("")
		pg.f.Commentf("%s completes it where the versions' meaning differs.", fix)
		if p.up {
			body = append(body, jen.If(jen.Err().Op(":=").Id(fix).Call(jen.Id("x"), jen.Id("out")), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())))
		} else {
			body = append(body, jen.Id(fix).Call(jen.Id("x"), jen.Id("out")))
		}
	}
	if p.up {
		body = append(body, jen.Return(jen.Id("out"), jen.Nil()))
		pg.f.Func().Id(name).Params(jen.Id("x").Op("*").Add(srcType())).Params(jen.Op("*").Add(dstType()), jen.Error()).Block(body...)
	} else {
		body = append(body, jen.Return(jen.Id("out")))
		pg.f.Func().Id(name).Params(jen.Id("x").Op("*").Add(srcType())).Op("*").Add(dstType()).Block(body...)
	}
	pg.f.Line()
}

// copyField is the code that copies the source field sf of x to the target
// field df of out; ok is false when their types do not pair.
func (pg *protoCompatGen) copyField(up bool, srcGen, dstGen *protoGen, sf, df *ir.Field) ([]jen.Code, bool) {
	srcPtr := sf.Presence && isScalarLike(sf.Type)
	dstPtr := df.Presence && isScalarLike(df.Type)
	// The value read: from the oneof's wrapper, through the presence
	// pointer, or as it is.
	var read jen.Code
	var guard []jen.Code // conditions under which the source is set
	switch {
	case sf.Oneof != nil:
		read = jen.List(jen.Id("w"), jen.Id("ok")).Op(":=").Id("x").Dot(naming.Exported(sf.Oneof.Name)).Assert(jen.Op("*").Add(pg.wrapperType(srcGen, sf)))
		guard = append(guard, jen.Id("ok"))
	}
	srcExpr := func() *jen.Statement {
		if sf.Oneof != nil {
			return jen.Id("w").Dot(srcGen.field[sf])
		}
		return jen.Id("x").Dot(srcGen.field[sf])
	}
	value := srcExpr()
	switch {
	case srcPtr:
		guard = append(guard, srcExpr().Op("!=").Nil())
		value = jen.Op("*").Add(srcExpr())
	case sf.Oneof != nil:
	case isScalarLike(sf.Type) && (dstPtr || df.Oneof != nil):
		// Without presence, the zero value is the field unset.
		guard = append(guard, zeroTest(sf.Type, srcExpr()))
	case !isScalarLike(sf.Type) && df.Oneof != nil:
		guard = append(guard, srcExpr().Op("!=").Nil())
	}
	var set func(jen.Code) jen.Code
	switch {
	case df.Oneof != nil:
		oneof := naming.Exported(df.Oneof.Name)
		if sf.Oneof == nil {
			// Where several fields of the source are one oneof of the
			// target, the first one set is kept.
			guard = append(guard, jen.Id("out").Dot(oneof).Op("==").Nil())
		}
		set = func(c jen.Code) jen.Code {
			return jen.Id("out").Dot(oneof).Op("=").Op("&").Add(pg.wrapperType(dstGen, df)).Values(jen.Dict{jen.Id(dstGen.field[df]): c})
		}
	case dstPtr:
		set = func(c jen.Code) jen.Code {
			return jen.Id("out").Dot(dstGen.field[df]).Op("=").Qual(wirePkg, "Ptr").Call(c)
		}
	default:
		set = func(c jen.Code) jen.Code { return jen.Id("out").Dot(dstGen.field[df]).Op("=").Add(c) }
	}
	val, fallible, ok := pg.convert(up, sf.Type, df.Type, value)
	if !ok {
		return nil, false
	}
	var stmts []jen.Code
	if fallible {
		stmts = []jen.Code{
			jen.List(jen.Id("c"), jen.Err()).Op(":=").Add(val),
			jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Qual(a2arpcPkg, "CompatAt").Call(jen.Err(), jen.Lit(sf.WireName())))),
			set(jen.Id("c")),
		}
	} else {
		stmts = []jen.Code{set(val)}
	}
	cond := jen.Null()
	for i, g := range guard {
		if i > 0 {
			cond.Op("&&")
		}
		cond.Add(g)
	}
	switch {
	case read != nil:
		return []jen.Code{jen.If(read, cond).Block(stmts...)}, true
	case len(guard) > 0:
		return []jen.Code{jen.If(cond).Block(stmts...)}, true
	case len(stmts) > 1:
		return []jen.Code{jen.Block(stmts...)}, true
	}
	return stmts, true
}

func (pg *protoCompatGen) wrapperType(g *protoGen, f *ir.Field) *jen.Statement {
	if g == pg.old {
		return jen.Qual(pg.oldQual, g.wrapper[f])
	}
	return jen.Id(g.wrapper[f])
}

// convert converts v, a value of the source type (s up, the current t
// down), to the other; fallible says the expression yields (value, error),
// as converting a message up does. ok is false when the types do not pair.
func (pg *protoCompatGen) convert(up bool, s, t ir.Type, v *jen.Statement) (expr jen.Code, fallible, ok bool) {
	switch {
	case s.Kind != t.Kind:
		return nil, false, false
	case s.Kind == ir.KindNamed:
		var p pair
		if up {
			p = pair{old: s.Decl, cur: t.Decl, up: true}
		} else {
			p = pair{old: t.Decl, cur: s.Decl}
		}
		_, oldStruct := p.old.(*ir.Struct)
		_, curStruct := p.cur.(*ir.Struct)
		if oldStruct != curStruct {
			return nil, false, false
		}
		return jen.Id(pg.need(p)).Call(v), up && oldStruct, true
	case s.Kind == ir.KindArray || s.Kind == ir.KindMap:
		elem, fallible, ok := pg.convert(up, *s.Elem, *t.Elem, jen.Id("e"))
		switch {
		case !ok:
			return nil, false, false
		case isIdentity(elem):
			return v, false, true
		}
		srcGen, dstGen := pg.cur, pg.old
		if up {
			srcGen, dstGen = pg.old, pg.cur
		}
		in, out := pg.goType(srcGen, *s.Elem), pg.goType(dstGen, *t.Elem)
		each := collection(s)
		if fallible {
			return jen.Qual(a2arpcPkg, "Convert"+each).Call(v, jen.Func().Params(jen.Id("e").Add(in)).Params(out, jen.Error()).Block(jen.Return(elem))), true, true
		}
		return jen.Qual(a2arpcPkg, "Map"+each).Call(v, jen.Func().Params(jen.Id("e").Add(in)).Add(out).Block(jen.Return(elem))), false, true
	}
	sg, tg := pg.cur.goType(s).GoString(), pg.cur.goType(t).GoString()
	if sg == tg {
		return v, false, true
	}
	if s.Kind == ir.KindInt || s.Kind == ir.KindFloat {
		return pg.cur.goType(t).Call(v), false, true
	}
	return nil, false, false
}

// goType is the Go type of t in g's package, qualified for the earlier one.
func (pg *protoCompatGen) goType(g *protoGen, t ir.Type) *jen.Statement {
	if t.Kind == ir.KindNamed {
		name := jen.Id(g.decl[t.Decl])
		if g == pg.old {
			name = pg.oldType(t.Decl)
		}
		if _, ok := t.Decl.(*ir.Struct); ok {
			return jen.Op("*").Add(name)
		}
		return name
	}
	return g.goType(t)
}

// enumConverter pairs the values of two proto enums by name, the type
// prefix, case and separators aside, or else by number (0.3's
// TASK_STATE_CANCELLED is 1.0's TASK_STATE_CANCELED); a value without a
// counterpart becomes the zero value, unless a rule fix<Converter> decides.
func (pg *protoCompatGen) enumConverter(p pair, old, cur *ir.Enum) {
	name := pg.name(p)
	src, dst := old, cur
	if !p.up {
		src, dst = cur, old
	}
	value := func(e *ir.Enum, v *ir.EnumValue) *jen.Statement {
		if e == old {
			return jen.Qual(pg.oldQual, pg.old.enumVal[v])
		}
		return jen.Id(pg.cur.enumVal[v])
	}
	var cases []jen.Code
	var lost []string
	for _, sv := range src.Values {
		i := slices.IndexFunc(dst.Values, func(dv *ir.EnumValue) bool { return enumKey(dst, dv.Value) == enumKey(src, sv.Value) })
		if i < 0 {
			i = slices.IndexFunc(dst.Values, func(dv *ir.EnumValue) bool { return dv.Number == sv.Number })
		}
		if i < 0 {
			lost = append(lost, sv.Value)
			continue
		}
		cases = append(cases, jen.Case(value(src, sv)).Block(jen.Return(value(dst, dst.Values[i]))))
	}
	srcType, dstType := pg.oldType(old), jen.Id(pg.cur.decl[cur])
	if !p.up {
		srcType, dstType = jen.Id(pg.cur.decl[cur]), pg.oldType(old)
	}
	fix := "fix" + name
	otherwise := jen.Return(jen.Lit(0))
	if p.up {
		pg.f.Commentf("%s converts an A2A %s %s, as its proto has it, to %s.", name, pg.version, pg.old.decl[old], pg.cur.decl[cur])
	} else {
		pg.f.Commentf("%s converts %s to an A2A %s %s, as its proto has it.", name, pg.cur.decl[cur], pg.version, pg.old.decl[old])
	}
	switch {
	case pg.rules[fix]:
		otherwise = jen.Return(jen.Id(fix).Call(jen.Id("v")))
		pg.f.Commentf("%s decides the values without a counterpart.", fix)
	case len(lost) > 0:
		pg.f.Commentf("The other version has no value for %s: they become the zero value.", strings.Join(lost, ", "))
	}
	if len(lost) > 0 {
		from, to := pg.ends(p)
		pg.losses = append(pg.losses, CompatLoss{Converter: name, From: from, To: to, Lost: lost, Fix: ruleOf(pg.rules, fix)})
	}
	pg.f.Func().Id(name).Params(jen.Id("v").Add(srcType)).Add(dstType).Block(
		jen.Switch(jen.Id("v")).Block(cases...),
		otherwise,
	)
	pg.f.Line()
}
