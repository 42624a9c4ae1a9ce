package golang

import (
	"bufio"
	"bytes"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/agui-gen/agui-gen/generator/ir"
	"github.com/agui-gen/agui-gen/generator/naming"
	"github.com/agui-gen/agui-gen/templates"
)

// Compat is an earlier protocol version that the package generated from the
// current proto keeps serving: its JSON wire (a package generated from its
// JSON Schema) and the rules where its meaning differs from the current one.
type Compat struct {
	// Old is the earlier version, loaded from its JSON Schema. Nil for a
	// version given by its proto alone (one of the current major version),
	// whose JSON-RPC wire is its proto's ProtoJSON, its methods named after
	// its RPCs, as the current version's are.
	Old *ir.Package
	// OldImport is the import path of the package generated from Old.
	OldImport string
	// Rules holds the hand-written part of the conversion, in Dir: routes.txt
	// (which JSON-RPC request each method of the current version serves) and
	// Go files whose functions replace or complete generated converters.
	// Nil when the version needs none (a version given by its proto alone,
	// whose every difference the generated conversions carry).
	Rules fs.FS
	Dir   string
	// Proto is the earlier version's proto, when it is given: its gRPC
	// service and HTTP+JSON bindings are then served too. The rules for its
	// conversions are the files of Dir named proto_*.go.
	Proto *CompatProto
}

// isProtoRule reports a rules file that completes the conversions of the
// earlier version's proto, rendered only when the proto is given.
func isProtoRule(name string) bool { return strings.HasPrefix(path.Base(name), "proto_") }

// CompatRoute is one line of routes.txt: the earlier version's JSON-RPC
// request definition, the current method that serves it, and the earlier
// version's success-response definition it answers with.
type CompatRoute struct {
	Request, Serves, Response string
}

// ParseRoutes reads a routes.txt: one route a line, three names separated by
// spaces; blank lines and # comments are skipped.
func ParseRoutes(file string, data []byte) ([]CompatRoute, error) {
	var out []CompatRoute
	sc := bufio.NewScanner(bytes.NewReader(data))
	for line := 1; sc.Scan(); line++ {
		text, _, _ := strings.Cut(sc.Text(), "#")
		f := strings.Fields(text)
		switch len(f) {
		case 0:
			continue
		case 3:
			out = append(out, CompatRoute{f[0], f[1], f[2]})
		default:
			return nil, fmt.Errorf("%s:%d: want: request-definition serving-method response-definition", file, line)
		}
	}
	return out, nil
}

// compatGen writes the conversions between one earlier version and the
// current one. "Up" converts a value of the earlier version to the current
// one (FromV03Message); "down" the other way (ToV03Message).
type compatGen struct {
	cur     *protoGen
	old     *names
	oldPkg  *ir.Package
	oldQual string
	prefix  string // "V03"
	version string // "0.3"
	converters
	f      *jen.File
	err    error
	losses []CompatLoss
	proto  *protoCompatGen // for the earlier version's proto, when it is given
}

// CompatLoss is what one generated conversion cannot carry: members of its
// source the target has no place for, members of its target the source has
// nothing for, and enum values without a counterpart. A rule (Fix) may carry
// some of them, by meaning rather than by name.
type CompatLoss struct {
	Converter string   // "FromV03SendMessageConfiguration"
	From, To  string   // "0.3 MessageSendConfiguration", "1.0 SendMessageConfiguration"
	Lost      []string // source members or values dropped
	Unfilled  []string // target members left unset
	Fix       string   // the rule that completes the conversion, if any
	// Rule reports a conversion the rules write whole, since the versions
	// shape it differently; Lost and Unfilled are then its doc's to say.
	Rule bool
}

// pair is one conversion: from a declaration of one version to one of the
// other.
type pair struct {
	old, cur ir.Decl
	up       bool
}

// CompatPackageFiles emits, into the package generated from cur, the
// conversions to and from c's version and the table its JSON-RPC methods
// are served from (compat_<v>_gen.go), with the rules rendered beside it.
func CompatPackageFiles(cur *ir.Package, c Compat, importPath, pkgName string) ([]File, error) {
	files, _, err := compatFiles(cur, c, importPath, pkgName)
	return files, err
}

// CompatLosses lists what the conversions between cur and c's version
// cannot carry, converter by converter, in the order they are generated.
func CompatLosses(cur *ir.Package, c Compat) ([]CompatLoss, error) {
	_, losses, err := compatFiles(cur, c, "compat/a2a", "a2a")
	return losses, err
}

func compatFiles(cur *ir.Package, c Compat, importPath, pkgName string) ([]File, []CompatLoss, error) {
	g := &protoGen{pkg: cur, opts: Options{A2ARuntime: true}, decl: map[ir.Decl]string{}, field: map[*ir.Field]string{},
		oneof: map[*ir.Oneof]string{}, wrapper: map[*ir.Field]string{}, enumVal: map[*ir.EnumValue]string{}}
	if err := g.resolveNames(); err != nil {
		return nil, nil, err
	}
	source := c.Old
	if source == nil {
		if c.Proto == nil {
			return nil, nil, fmt.Errorf("an earlier version needs its JSON Schema or its proto")
		}
		source = c.Proto.Old
	}
	version := source.Sources[0].Version
	prefix := "V" + strings.ReplaceAll(version, ".", "")
	cg := &compatGen{cur: g, oldPkg: c.Old, oldQual: c.OldImport, prefix: prefix, version: version}
	cg.converters = newConverters(prefix[1:], version, cur.Sources[0].Version, map[string]bool{}, &cg.losses)
	cg.curDecl = g.decl
	if c.Rules != nil {
		ruleNames, err := templateNames(c.Rules, c.Dir)
		if err != nil {
			return nil, nil, err
		}
		for _, n := range ruleNames {
			cg.rules[n] = true
		}
	}
	f := newFile(importPath, pkgName)
	f.HeaderComment(Header)
	f.HeaderComment("Source: " + sourceLine(cur) + "; " + sourceLine(source))
	cg.f = f
	var protoTable jen.Dict
	if c.Proto != nil {
		cg.proto, protoTable = cg.protoTable(c.Proto, c.Rules, c.Dir)
	}
	if c.Old != nil {
		old, err := resolveNames(c.Old)
		if err != nil {
			return nil, nil, err
		}
		cg.old, cg.oldDecl = old, old.decl
		f.ImportName(c.OldImport, c.Old.Name)
		data, err := fs.ReadFile(c.Rules, path.Join(c.Dir, "routes.txt"))
		if err != nil {
			return nil, nil, err
		}
		routes, err := ParseRoutes(path.Join(c.Dir, "routes.txt"), data)
		if err != nil {
			return nil, nil, err
		}
		if err := cg.emitTable(routes, protoTable); err != nil {
			return nil, nil, err
		}
	} else if cg.err == nil {
		cg.proto.emitProtoOnlyTable(protoTable)
	}
	for p, ok := cg.next(); ok && cg.err == nil; p, ok = cg.next() {
		cg.emitConverter(p)
	}
	if cg.proto != nil {
		cg.proto.protoConverters()
	}
	if cg.err != nil {
		return nil, nil, cg.err
	}
	name := "compat_" + strings.ToLower(prefix)
	var buf bytes.Buffer
	if err := f.Render(&buf); err != nil {
		return nil, nil, fmt.Errorf("rendering %s_gen.go: %w", name, err)
	}
	files := []File{{Name: name + "_gen.go", Content: buf.Bytes()}}
	if c.Rules == nil {
		return files, cg.losses, nil
	}
	moved := map[string]string{}
	if c.Old != nil {
		moved[templates.A2AImportPath+"/"+c.Old.Name] = c.OldImport
	}
	if c.Proto != nil {
		moved[templates.A2AImportPath+"/"+c.Proto.Old.Name] = c.Proto.OldImport
	}
	rules, err := copyTemplates(c.Rules, c.Dir, pkgName, name+"_",
		func(file string) bool { return c.Proto != nil || !isProtoRule(file) }, importRewrite{into: templates.A2AImportPath, paths: moved})
	if err != nil {
		return nil, nil, err
	}
	return append(files, rules...), cg.losses, nil
}

// CompatListFile emits compat_gen.go: the earlier versions the package
// serves, by their generated tables.
func CompatListFile(importPath, pkgName string, versions []string) (File, error) {
	f := newFile(importPath, pkgName)
	f.HeaderComment(Header)
	f.Comment("CompatVersions returns the earlier protocol versions the package was generated to")
	f.Comment("serve beside its own, newest first; the servers serve them unless told otherwise.")
	f.Func().Id("CompatVersions").Params().Index().Op("*").Qual(a2arpcPkg, "CompatVersion").BlockFunc(func(gr *jen.Group) {
		if len(versions) == 0 {
			gr.Return(jen.Nil())
			return
		}
		var list []jen.Code
		for _, v := range versions {
			list = append(list, jen.Id("compatV"+strings.ReplaceAll(v, ".", "")))
		}
		gr.Return(jen.Index().Op("*").Qual(a2arpcPkg, "CompatVersion").Values(list...))
	})
	var buf bytes.Buffer
	if err := f.Render(&buf); err != nil {
		return File{}, err
	}
	return File{Name: "compat_gen.go", Content: buf.Bytes()}, nil
}

func (cg *compatGen) fail(format string, args ...any) {
	if cg.err == nil {
		cg.err = fmt.Errorf("A2A %s ⇄ %s: "+format, append([]any{cg.version, cg.cur.pkg.Sources[0].Version}, args...)...)
	}
}

func (cg *compatGen) oldType(d ir.Decl) *jen.Statement { return jen.Qual(cg.oldQual, cg.old.decl[d]) }

// emitTable writes the version's method table.
func (cg *compatGen) emitTable(routes []CompatRoute, proto jen.Dict) error {
	svc := cg.cur.pkg.Services()
	if len(svc) != 1 {
		return fmt.Errorf("%s: want one service, found %d", cg.cur.pkg.Sources[0].File, len(svc))
	}
	var methods []jen.Code
	for _, r := range routes {
		req, ok1 := cg.oldPkg.Lookup(r.Request).(*ir.Struct)
		resp, ok2 := cg.oldPkg.Lookup(r.Response).(*ir.Struct)
		var m *ir.Method
		for _, x := range svc[0].Methods {
			if x.Name == r.Serves {
				m = x
			}
		}
		if !ok1 || !ok2 || m == nil {
			return fmt.Errorf("routes.txt: %s %s %s: each must name a definition, a method and a definition", r.Request, r.Serves, r.Response)
		}
		method, params, result := fieldNamed(req, "method"), fieldNamed(req, "params"), fieldNamed(resp, "result")
		if method == nil || method.Const == nil || result == nil {
			return fmt.Errorf("routes.txt: %s has no const method, or %s no result", r.Request, r.Response)
		}
		entry := jen.Dict{
			jen.Id("Method"): jen.Lit(method.Const.String),
			jen.Id("Serves"): jen.Lit(r.Serves),
		}
		in, out := jen.Id(cg.cur.decl[m.Input]), cg.cur.decl[m.Output]
		if params != nil {
			st, ok := params.Type.Decl.(*ir.Struct)
			if params.Type.Kind != ir.KindNamed || !ok {
				return fmt.Errorf("routes.txt: %s's params are not an object definition", r.Request)
			}
			conv := cg.need(pair{old: st, cur: m.Input, up: true})
			entry[jen.Id("Request")] = jen.Func().Params(jen.Id("params").Index().Byte()).Params(jen.Qual(a2arpcPkg, "ProtoValue"), jen.Error()).Block(
				jen.Var().Id("p").Add(cg.oldType(st)),
				jen.If(jen.Err().Op(":=").Id("p").Dot("UnmarshalJSON").Call(jen.Id("params")), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
				jen.If(jen.Err().Op(":=").Id("p").Dot("Validate").Call(), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
				jen.Return(jen.Id(conv).Call(jen.Op("&").Id("p"))),
			)
			down := cg.need(pair{old: st, cur: m.Input})
			entry[jen.Id("Params")] = jen.Func().Params(jen.Id("req").Qual(a2arpcPkg, "ProtoValue")).Index().Byte().Block(
				jen.Return(jen.Id(down).Call(jen.Id("req").Assert(jen.Op("*").Add(in))).Dot("AppendJSON").Call(jen.Nil())))
		} else {
			entry[jen.Id("Request")] = jen.Func().Params(jen.Index().Byte()).Params(jen.Qual(a2arpcPkg, "ProtoValue"), jen.Error()).Block(
				jen.Return(jen.Op("&").Add(in).Values(), jen.Nil()))
			entry[jen.Id("Params")] = jen.Func().Params(jen.Qual(a2arpcPkg, "ProtoValue")).Index().Byte().Block(jen.Return(jen.Nil()))
		}
		respFn, err := cg.resultReader(result.Type, m.Output, out)
		if err != nil {
			return fmt.Errorf("routes.txt: %s: %w", r.Response, err)
		}
		entry[jen.Id("Response")] = respFn
		resultFn, err := cg.resultWriter(result.Type, m.Output, out)
		if err != nil {
			return fmt.Errorf("routes.txt: %s: %w", r.Response, err)
		}
		entry[jen.Id("Result")] = resultFn
		methods = append(methods, jen.Values(entry))
	}
	card, _ := cg.oldPkg.Lookup("AgentCard").(*ir.Struct)
	curCard, _ := cg.cur.pkg.Lookup("AgentCard").(*ir.Struct)
	table := jen.Dict{
		jen.Id("Version"): jen.Lit(cg.version),
		jen.Id("Methods"): jen.Index().Qual(a2arpcPkg, "CompatMethod").Values(methods...),
	}
	for k, v := range proto {
		table[k] = v
	}
	if card != nil && curCard != nil {
		cardEntries(table, cg.need(pair{old: card, cur: curCard}), cg.need(pair{old: card, cur: curCard, up: true}),
			cg.oldType(card), cg.cur.decl[curCard])
	}
	cg.f.Commentf("compatV%s serves the JSON-RPC methods of A2A %s, generated from its JSON Schema and", cg.prefix[1:], cg.version)
	cg.f.Comment("routes.txt.")
	cg.f.Var().Id("compatV"+cg.prefix[1:]).Op("=").Op("&").Qual(a2arpcPkg, "CompatVersion").Values(table)
	return nil
}

// cardEntries sets the Card and ReadCard members of a version's table:
// this version's card written in the earlier one's JSON by down, and the
// earlier one's (oldCard) read by up into curCard.
func cardEntries(table jen.Dict, down, up string, oldCard *jen.Statement, curCard string) {
	table[jen.Id("Card")] = jen.Func().Params(jen.Id("card").Qual(a2arpcPkg, "ProtoValue")).Index().Byte().Block(
		jen.Return(jen.Id(down).Call(jen.Id("card").Assert(jen.Op("*").Id(curCard))).Dot("AppendJSON").Call(jen.Nil())))
	table[jen.Id("ReadCard")] = jen.Func().Params(jen.Id("data").Index().Byte()).Params(jen.Qual(a2arpcPkg, "ProtoValue"), jen.Error()).Block(
		jen.Var().Id("c").Add(oldCard),
		jen.If(jen.Err().Op(":=").Id("c").Dot("UnmarshalJSON").Call(jen.Id("data")), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
		jen.Return(jen.Id(up).Call(jen.Op("&").Id("c"))),
	)
}

// resultWriter is the Result function of a method whose current response
// is out and whose earlier result has type t.
func (cg *compatGen) resultWriter(t ir.Type, outDecl *ir.Struct, out string) (jen.Code, error) {
	resp := jen.Id("resp").Assert(jen.Op("*").Id(out))
	body := func(value jen.Code) jen.Code {
		return jen.Func().Params(jen.Id("b").Index().Byte(), jen.Id("resp").Qual(a2arpcPkg, "ProtoValue")).Index().Byte().Block(jen.Return(value))
	}
	switch {
	case t.Kind == ir.KindAny && t.JSONType == "null":
		return body(jen.Append(jen.Id("b"), jen.Lit("null").Op("..."))), nil
	case t.Kind == ir.KindNamed:
		switch d := t.Decl.(type) {
		case *ir.Struct:
			conv := cg.need(pair{old: d, cur: outDecl})
			return body(jen.Id(conv).Call(resp).Dot("AppendJSON").Call(jen.Id("b"))), nil
		case *ir.Union: // nil, and written null, when the response holds nothing 0.3 has
			conv := cg.need(pair{old: d, cur: outDecl})
			return body(jen.Qual(wirePkg, "AppendValue").Call(jen.Id("b"), jen.Id(conv).Call(resp))), nil
		}
	}
	// Anything else (a list where the current version answers with a
	// message) is the rules' to write.
	n := "append" + cg.prefix + out
	if !cg.rules[n] {
		return nil, fmt.Errorf("its result is no object definition; the rules must define %s(b []byte, resp *%s) []byte", n, out)
	}
	return body(jen.Id(n).Call(jen.Id("b"), resp)), nil
}

// resultReader is the Response function of a method whose current response
// is out and whose earlier result has type t: it reads the result into a
// response of out.
func (cg *compatGen) resultReader(t ir.Type, outDecl *ir.Struct, out string) (jen.Code, error) {
	fn := func(body ...jen.Code) jen.Code {
		return jen.Func().Params(jen.Id("result").Index().Byte()).Params(jen.Qual(a2arpcPkg, "ProtoValue"), jen.Error()).Block(body...)
	}
	switch {
	case t.Kind == ir.KindAny && t.JSONType == "null":
		return fn(jen.Return(jen.Op("&").Id(out).Values(), jen.Nil())), nil
	case t.Kind == ir.KindNamed:
		up := cg.need(pair{old: t.Decl, cur: outDecl, up: true})
		switch d := t.Decl.(type) {
		case *ir.Struct:
			return fn(
				jen.Var().Id("v").Add(cg.oldType(d)),
				jen.If(jen.Err().Op(":=").Id("v").Dot("UnmarshalJSON").Call(jen.Id("result")), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
				jen.Return(jen.Id(up).Call(jen.Op("&").Id("v"))),
			), nil
		case *ir.Union:
			return fn(
				jen.List(jen.Id("v"), jen.Err()).Op(":=").Qual(cg.oldQual, "Unmarshal"+cg.old.decl[d]).Call(jen.Id("result")),
				jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
				jen.Return(jen.Id(up).Call(jen.Id("v"))),
			), nil
		}
	}
	n := "read" + cg.prefix + out
	if !cg.rules[n] {
		return nil, fmt.Errorf("its result is no object definition; the rules must define %s(result []byte) (*%s, error)", n, out)
	}
	return fn(jen.Return(jen.Id(n).Call(jen.Id("result")))), nil
}

// emitConverter writes one converter.
func (cg *compatGen) emitConverter(p pair) {
	switch old := p.old.(type) {
	case *ir.Struct:
		cur, ok := p.cur.(*ir.Struct)
		if !ok {
			cg.fail("%s and %s do not pair; give %s a rule", old.Name, p.cur.DeclName(), cg.name(p))
			return
		}
		cg.structConverter(p, old, cur)
	case *ir.Union:
		cur, ok := p.cur.(*ir.Struct)
		if !ok || len(cur.Oneofs) != 1 || len(cur.Oneofs[0].Fields) != len(cur.Fields) {
			cg.fail("union %s pairs with %s, which is not a message of one oneof; give %s a rule", old.Name, p.cur.DeclName(), cg.name(p))
			return
		}
		cg.unionConverter(p, old, cur)
	case *ir.Enum:
		cur, ok := p.cur.(*ir.Enum)
		if !ok {
			cg.fail("%s and %s do not pair; give %s a rule", old.Name, p.cur.DeclName(), cg.name(p))
			return
		}
		cg.enumConverter(p, old, cur)
	default:
		cg.fail("no conversion for %s", p.old.DeclName())
	}
}

// matchField finds the field of the other version with the same JSON name,
// or one that differs only in case ("oauth2MetadataUrl").
func matchField(fields []*ir.Field, wire string) *ir.Field {
	for _, f := range fields {
		if f.WireName() == wire {
			return f
		}
	}
	for _, f := range fields {
		if strings.EqualFold(f.WireName(), wire) {
			return f
		}
	}
	return nil
}

func (cg *compatGen) structConverter(p pair, old, cur *ir.Struct) {
	name := cg.name(p)
	oldFields := old.AllFields()
	var dropped, unset []string
	for _, f := range oldFields {
		if f.Const == nil && matchField(cur.Fields, f.Name) == nil {
			dropped = append(dropped, f.Name)
		}
	}
	for _, f := range cur.Fields {
		if matchField(oldFields, f.WireName()) == nil {
			unset = append(unset, f.WireName())
		}
	}
	x, out := jen.Id("x"), jen.Id("out")
	fix := "fix" + name
	// A pair of fields whose types do not pair is the fix rule's to carry,
	// when there is one; else the generation stops and says to write it.
	untyped := func(of, cf *ir.Field) {
		if !cg.rules[fix] {
			cg.fail("%s.%s (%s) and %s.%s do not pair; write %s to carry them", old.Name, of.Name, kindName(of.Type), cur.Name, cf.Name, fix)
			return
		}
		dropped, unset = append(dropped, of.Name), append(unset, cf.WireName())
	}
	var body []jen.Code
	if p.up {
		cg.f.Commentf("%s converts an A2A %s %s to %s.", name, cg.version, cg.old.decl[old], cg.cur.decl[cur])
		body = append(body, jen.If(x.Clone().Op("==").Nil()).Block(jen.Return(jen.Nil(), jen.Nil())),
			out.Clone().Op(":=").Op("&").Id(cg.cur.decl[cur]).Values())
		for _, cf := range cur.Fields {
			of := matchField(oldFields, cf.WireName())
			if of == nil || of.Const != nil {
				continue
			}
			if code, ok := cg.upField(old, of, cf); ok {
				body = append(body, code...)
			} else {
				untyped(of, cf)
			}
		}
	} else {
		cg.f.Commentf("%s converts %s to an A2A %s %s.", name, cg.cur.decl[cur], cg.version, cg.old.decl[old])
		body = append(body, jen.If(x.Clone().Op("==").Nil()).Block(jen.Return(jen.Nil())),
			out.Clone().Op(":=").Op("&").Add(cg.oldType(old)).Values())
		for _, of := range oldFields {
			cf := matchField(cur.Fields, of.Name)
			if cf == nil || of.Const != nil {
				continue
			}
			if code, ok := cg.downField(cur, of, cf); ok {
				body = append(body, code...)
			} else {
				untyped(of, cf)
			}
		}
	}
	if p.up {
		into := map[*ir.Oneof]int{}
		for _, cf := range cur.Fields {
			if cf.Oneof != nil && matchField(oldFields, cf.WireName()) != nil {
				into[cf.Oneof]++
			}
		}
		for _, o := range cur.Oneofs {
			if into[o] > 1 {
				cg.f.Comment("")
				cg.f.Commentf("%s holds one %s where %s %s may set several: the first set is kept.", cg.cur.decl[cur], o.Name, cg.version, cg.old.decl[old])
			}
		}
	}
	if len(dropped) > 0 || len(unset) > 0 {
		cg.f.Comment("")
		if p.up {
			cg.f.Comment(carried(dropped, unset, cg.version, cg.cur.pkg.Sources[0].Version))
		} else {
			cg.f.Comment(carried(unset, dropped, cg.cur.pkg.Sources[0].Version, cg.version))
		}
	}
	if len(dropped) > 0 || len(unset) > 0 {
		loss := CompatLoss{Converter: name, From: cg.version + " " + old.Name, To: cg.cur.pkg.Sources[0].Version + " " + cur.Name,
			Lost: dropped, Unfilled: unset}
		if !p.up {
			loss.From, loss.To, loss.Lost, loss.Unfilled = loss.To, loss.From, unset, dropped
		}
		if cg.rules[fix] {
			loss.Fix = fix
		}
		cg.losses = append(cg.losses, loss)
	}
	if cg.rules[fix] {
		cg.f.Comment("")
		cg.f.Commentf("%s completes it where the versions' meaning differs.", fix)
		if p.up {
			body = append(body, jen.If(jen.Err().Op(":=").Id(fix).Call(x, out), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())))
		} else {
			body = append(body, jen.Id(fix).Call(x, out))
		}
	}
	if p.up {
		body = append(body, jen.Return(out, jen.Nil()))
		cg.f.Func().Id(name).Params(jen.Id("x").Op("*").Add(cg.oldType(old))).Params(jen.Op("*").Id(cg.cur.decl[cur]), jen.Error()).Block(body...)
	} else {
		body = append(body, jen.Return(out))
		cg.f.Func().Id(name).Params(jen.Id("x").Op("*").Id(cg.cur.decl[cur])).Op("*").Add(cg.oldType(old)).Block(body...)
	}
	cg.f.Line()
}

// ruleOf is name when the rules define it, else "".
func ruleOf(rules map[string]bool, name string) string {
	if rules[name] {
		return name
	}
	return ""
}

// carried says which members a conversion leaves behind: those of the
// source without a counterpart, and those of the target it cannot fill.
func carried(lost, unfilled []string, from, to string) string {
	var parts []string
	if len(lost) > 0 {
		parts = append(parts, fmt.Sprintf("%s has no place for %s", to, strings.Join(lost, ", ")))
	}
	if len(unfilled) > 0 {
		parts = append(parts, fmt.Sprintf("%s has nothing for %s", from, strings.Join(unfilled, ", ")))
	}
	return strings.Join(parts, "; ") + "."
}

// oldRef is the Go expression of an earlier version's field of x, and
// whether it is a pointer (optional) that may be nil.
func (cg *compatGen) oldRef(st *ir.Struct, f *ir.Field) (*jen.Statement, rep) {
	access, _ := cg.old.access(st, f)
	return jen.Id("x").Dot(access), repOf(f.Type, f.Required)
}

func (cg *compatGen) upField(old *ir.Struct, of, cf *ir.Field) ([]jen.Code, bool) {
	src, r := cg.oldRef(old, of)
	v := src.Clone()
	if r == repPointer && !isStructType(of.Type) {
		v = jen.Op("*").Add(src.Clone())
	} else if r == repValue && isStructType(of.Type) {
		v = jen.Op("&").Add(src.Clone())
	}
	val, fallible := cg.upValue(of.Type, cf.Type, v)
	if val == nil {
		return nil, false
	}
	var set func(jen.Code) jen.Code
	switch {
	case cf.Oneof != nil:
		set = func(c jen.Code) jen.Code {
			return jen.Id("out").Dot(naming.Exported(cf.Oneof.Name)).Op("=").Op("&").Id(cg.cur.wrapper[cf]).Values(jen.Dict{jen.Id(cg.cur.field[cf]): c})
		}
	case cf.Presence && isScalarLike(cf.Type):
		set = func(c jen.Code) jen.Code {
			return jen.Id("out").Dot(cg.cur.field[cf]).Op("=").Qual(wirePkg, "Ptr").Call(c)
		}
	default:
		set = func(c jen.Code) jen.Code { return jen.Id("out").Dot(cg.cur.field[cf]).Op("=").Add(c) }
	}
	var stmts []jen.Code
	if fallible {
		stmts = []jen.Code{
			jen.List(jen.Id("v"), jen.Err()).Op(":=").Add(val),
			jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Qual(a2arpcPkg, "CompatAt").Call(jen.Err(), jen.Lit(of.Name)))),
			set(jen.Id("v")),
		}
	} else {
		stmts = []jen.Code{set(val)}
	}
	if r == repPointer || r == repNilable {
		if r == repNilable && cf.Oneof == nil && !fallible {
			return stmts, true // a nil slice, map or raw value converts to nil
		}
		cond := src.Clone().Op("!=").Nil()
		if cf.Oneof != nil {
			// Where the earlier version sets several members of what is one
			// oneof now, the first one set is kept.
			cond = cond.Op("&&").Id("out").Dot(naming.Exported(cf.Oneof.Name)).Op("==").Nil()
		}
		return []jen.Code{jen.If(cond).Block(stmts...)}, true
	}
	if fallible || cf.Oneof != nil {
		return []jen.Code{jen.Block(stmts...)}, true
	}
	return stmts, true
}

func (cg *compatGen) downField(cur *ir.Struct, of, cf *ir.Field) ([]jen.Code, bool) {
	access, _ := cg.old.access(cg.oldStructOf(of), of)
	dst := jen.Id("out").Dot(access)
	var src *jen.Statement
	var guard jen.Code
	switch {
	case cf.Oneof != nil:
		guard = jen.List(jen.Id("w"), jen.Id("ok")).Op(":=").Id("x").Dot(naming.Exported(cf.Oneof.Name)).Assert(jen.Op("*").Id(cg.cur.wrapper[cf]))
		src = jen.Id("w").Dot(cg.cur.field[cf])
	case cf.Presence && isScalarLike(cf.Type):
		src = jen.Op("*").Id("x").Dot(cg.cur.field[cf])
	default:
		src = jen.Id("x").Dot(cg.cur.field[cf])
	}
	val := cg.downValue(cf.Type, of.Type, src)
	if val == nil {
		return nil, false
	}
	r := repOf(of.Type, of.Required)
	var set jen.Code
	switch {
	case r == repPointer && isStructType(of.Type):
		set = dst.Clone().Op("=").Add(val)
	case r == repPointer:
		set = dst.Clone().Op("=").Qual(wirePkg, "Ptr").Call(val)
	case r == repValue && isStructType(of.Type):
		set = jen.If(jen.Id("v").Op(":=").Add(val), jen.Id("v").Op("!=").Nil()).Block(dst.Clone().Op("=").Op("*").Id("v"))
	default:
		set = dst.Clone().Op("=").Add(val)
	}
	// What the current version leaves at its zero value is absent in the
	// earlier one, unless the earlier one requires it.
	var cond jen.Code
	switch {
	case guard != nil:
		cond = jen.Id("ok")
	case cf.Presence && isScalarLike(cf.Type), isStructType(cf.Type), cf.Type.Kind == ir.KindTimestamp:
		cond = jen.Id("x").Dot(cg.cur.field[cf]).Op("!=").Nil()
	case r == repPointer:
		cond = zeroTest(cf.Type, jen.Id("x").Dot(cg.cur.field[cf]))
	}
	switch {
	case guard != nil:
		return []jen.Code{jen.If(guard, cond).Block(set)}, true
	case cond != nil:
		return []jen.Code{jen.If(cond).Block(set)}, true
	}
	return []jen.Code{set}, true
}

// oldStructOf returns the earlier version's struct that declares f.
func (cg *compatGen) oldStructOf(f *ir.Field) *ir.Struct {
	for _, d := range cg.oldPkg.Decls {
		if st, ok := d.(*ir.Struct); ok && slices.Contains(st.AllFields(), f) {
			return st
		}
	}
	return nil
}

// zeroTest is "v is not its zero value", for a scalar of the current version.
func zeroTest(t ir.Type, v *jen.Statement) jen.Code {
	switch t.Kind {
	case ir.KindString:
		return v.Op("!=").Lit("")
	case ir.KindBool:
		return v
	case ir.KindNamed: // an enum
		return v.Op("!=").Lit(0)
	}
	return v.Op("!=").Lit(0)
}

func kindName(t ir.Type) string {
	if t.Kind == ir.KindNamed {
		return t.Decl.DeclName()
	}
	return [...]string{"", "string", "integer", "number", "boolean", "any", "array", "map", "named", "string or array", "bytes", "timestamp"}[t.Kind]
}

// upValue converts v, a value of the earlier version's type s (a struct by
// pointer), to the current type t; fallible says the expression yields
// (value, error). nil when the types do not pair.
func (cg *compatGen) upValue(s, t ir.Type, v jen.Code) (expr jen.Code, fallible bool) {
	switch {
	case s.Kind == ir.KindString && t.Kind == ir.KindString, s.Kind == ir.KindBool && t.Kind == ir.KindBool,
		s.Kind == ir.KindAny && t.Kind == ir.KindAny, s.Kind == ir.KindFloat && t.Kind == ir.KindFloat && t.Scalar != "float":
		return v, false
	case s.Kind == ir.KindInt && t.Kind == ir.KindInt:
		if g := cg.cur.goType(t); g.GoString() != jen.Int64().GoString() {
			return jen.Qual(a2arpcPkg, "CompatInt32").Call(v), true
		}
		return v, false
	case s.Kind == ir.KindString && t.Kind == ir.KindTimestamp:
		return jen.Qual(a2arpcPkg, "CompatTime").Call(v), true
	case s.Kind == ir.KindString && t.Kind == ir.KindBytes:
		return jen.Qual(a2arpcPkg, "CompatBase64").Call(v), true
	case s.Kind == ir.KindArray && t.Kind == ir.KindArray, s.Kind == ir.KindMap && t.Kind == ir.KindMap:
		return cg.upEach(s, t, v)
	case s.Kind == ir.KindNamed && t.Kind == ir.KindNamed:
		if a, ok := s.Decl.(*ir.Alias); ok {
			return cg.upValue(a.Type, t, v)
		}
		return jen.Id(cg.need(pair{old: s.Decl, cur: t.Decl, up: true})).Call(v), true
	}
	return nil, false
}

// downValue converts v, a value of the current type t, to the earlier
// version's type s (a struct by pointer). Converting down never fails: what
// the earlier version cannot say is dropped, as the converter's doc says.
func (cg *compatGen) downValue(t, s ir.Type, v jen.Code) jen.Code {
	switch {
	case s.Kind == ir.KindString && t.Kind == ir.KindString, s.Kind == ir.KindBool && t.Kind == ir.KindBool,
		s.Kind == ir.KindAny && t.Kind == ir.KindAny, s.Kind == ir.KindFloat && t.Kind == ir.KindFloat && t.Scalar != "float":
		return v
	case s.Kind == ir.KindInt && t.Kind == ir.KindInt:
		return jen.Int64().Call(v)
	case s.Kind == ir.KindString && t.Kind == ir.KindTimestamp:
		return jen.Add(v).Dot("UTC").Call().Dot("Format").Call(jen.Qual("time", "RFC3339Nano"))
	case s.Kind == ir.KindString && t.Kind == ir.KindBytes:
		return jen.Qual("encoding/base64", "StdEncoding").Dot("EncodeToString").Call(v)
	case s.Kind == ir.KindArray && t.Kind == ir.KindArray, s.Kind == ir.KindMap && t.Kind == ir.KindMap:
		return cg.downEach(t, s, v)
	case s.Kind == ir.KindNamed && t.Kind == ir.KindNamed:
		if a, ok := s.Decl.(*ir.Alias); ok {
			return cg.downValue(t, a.Type, v)
		}
		return jen.Id(cg.need(pair{old: s.Decl, cur: t.Decl})).Call(v)
	}
	return nil
}

// upEach converts the elements of a slice or map v (of the earlier
// version's type s) to those of t, a failure located by index or key.
func (cg *compatGen) upEach(s, t ir.Type, v jen.Code) (jen.Code, bool) {
	elem, fallible := cg.upValue(*s.Elem, *t.Elem, jen.Id("e"))
	switch {
	case elem == nil:
		return nil, false
	case isIdentity(elem):
		return v, false
	}
	if isStructType(*s.Elem) {
		elem, _ = cg.upValue(*s.Elem, *t.Elem, jen.Op("&").Id("e"))
	}
	in, out := cg.oldGoType(*s.Elem), cg.cur.goType(*t.Elem)
	each := collection(s)
	if fallible {
		return jen.Qual(a2arpcPkg, "Convert"+each).Call(v, jen.Func().Params(jen.Id("e").Add(in)).Params(out, jen.Error()).Block(jen.Return(elem))), true
	}
	return jen.Qual(a2arpcPkg, "Map"+each).Call(v, jen.Func().Params(jen.Id("e").Add(in)).Add(out).Block(jen.Return(elem))), false
}

// downEach converts the elements of a slice or map v (of the current type
// t) to those of the earlier version's s.
func (cg *compatGen) downEach(t, s ir.Type, v jen.Code) jen.Code {
	elem := cg.downValue(*t.Elem, *s.Elem, jen.Id("e"))
	switch {
	case elem == nil:
		return nil
	case isIdentity(elem):
		return v
	}
	if isStructType(*s.Elem) {
		elem = jen.Qual(a2arpcPkg, "DerefOr").Call(elem)
	}
	return jen.Qual(a2arpcPkg, "Map"+collection(s)).Call(v, jen.Func().Params(jen.Id("e").Add(cg.cur.goType(*t.Elem))).Add(cg.oldGoType(*s.Elem)).Block(jen.Return(elem)))
}

// collection names the helpers for t's kind: convertSlice and mapSlice, or
// convertMap and mapMap.
func collection(t ir.Type) string {
	if t.Kind == ir.KindArray {
		return "Slice"
	}
	return "Map"
}

// isIdentity reports an element conversion that returns the element as it
// is (a string for a string), so the slice or map can be copied whole.
func isIdentity(elem jen.Code) bool {
	st, ok := elem.(*jen.Statement)
	return ok && st.GoString() == "e"
}

// oldGoType is the Go type of one element of the earlier version's type t.
func (cg *compatGen) oldGoType(t ir.Type) *jen.Statement {
	return schemaGoType(t, func(t ir.Type) *jen.Statement {
		if t.Kind != ir.KindNamed {
			panic(fmt.Sprintf("oldGoType: the converters take no string-or-array choice (%s)", t.Name))
		}
		return cg.oldType(t.Decl)
	})
}

func (cg *compatGen) unionConverter(p pair, old *ir.Union, cur *ir.Struct) {
	name := cg.name(p)
	o := cur.Oneofs[0]
	member := func(m *ir.UnionMember) *ir.Field {
		for _, f := range o.Fields {
			if f.Type.Kind == ir.KindNamed && strings.EqualFold(f.Type.Decl.DeclName(), m.Struct.Name) {
				return f
			}
		}
		return nil
	}
	oneof := naming.Exported(o.Name)
	if p.up {
		cg.f.Commentf("%s converts an A2A %s %s to %s.", name, cg.version, cg.old.decl[old], cg.cur.decl[cur])
		cg.f.Func().Id(name).Params(jen.Id("x").Add(cg.oldType(old))).Params(jen.Op("*").Id(cg.cur.decl[cur]), jen.Error()).Block(
			jen.Switch(jen.Id("v").Op(":=").Id("x").Assert(jen.Type())).BlockFunc(func(gr *jen.Group) {
				for _, m := range old.Members {
					f := member(m)
					if f == nil {
						cg.fail("%s member %s has no counterpart in %s", old.Name, m.Struct.Name, cur.Name)
						return
					}
					conv := cg.need(pair{old: m.Struct, cur: f.Type.Decl, up: true})
					gr.Case(jen.Op("*").Add(cg.oldType(m.Struct))).Block(
						jen.List(jen.Id("c"), jen.Err()).Op(":=").Id(conv).Call(jen.Id("v")),
						jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
						jen.Return(jen.Op("&").Id(cg.cur.decl[cur]).Values(jen.Dict{jen.Id(oneof): jen.Op("&").Id(cg.cur.wrapper[f]).Values(jen.Dict{jen.Id(cg.cur.field[f]): jen.Id("c")})}), jen.Nil()),
					)
				}
			}),
			jen.Return(jen.Nil(), jen.Nil()),
		)
	} else {
		cg.f.Commentf("%s converts %s to an A2A %s %s; nil when it holds nothing the earlier", name, cg.cur.decl[cur], cg.version, cg.old.decl[old])
		cg.f.Comment("version has.")
		cg.f.Func().Id(name).Params(jen.Id("x").Op("*").Id(cg.cur.decl[cur])).Add(cg.oldType(old)).Block(
			jen.If(jen.Id("x").Op("==").Nil()).Block(jen.Return(jen.Nil())),
			jen.Switch(jen.Id("w").Op(":=").Id("x").Dot(oneof).Assert(jen.Type())).BlockFunc(func(gr *jen.Group) {
				for _, m := range old.Members {
					f := member(m)
					if f == nil {
						cg.fail("%s member %s has no counterpart in %s", old.Name, m.Struct.Name, cur.Name)
						return
					}
					conv := cg.need(pair{old: m.Struct, cur: f.Type.Decl})
					gr.Case(jen.Op("*").Id(cg.cur.wrapper[f])).Block(
						jen.If(jen.Id("c").Op(":=").Id(conv).Call(jen.Id("w").Dot(cg.cur.field[f])), jen.Id("c").Op("!=").Nil()).Block(jen.Return(jen.Id("c"))))
				}
			}),
			jen.Return(jen.Nil()),
		)
	}
	cg.f.Line()
}

// enumKey is what pairs a value of enum e with its counterpart in another
// version: its name without the proto's type-name prefix, in upper case,
// with "_" for the separators ("input-required" and
// TASK_STATE_INPUT_REQUIRED are INPUT_REQUIRED).
func enumKey(e *ir.Enum, value string) string {
	prefix := strings.ToUpper(strings.Join(naming.Words(e.Name), "_")) + "_"
	return strings.NewReplacer("-", "_", " ", "_").Replace(strings.ToUpper(strings.TrimPrefix(value, prefix)))
}

// enumConverter pairs the values of two enums by name, ignoring case, the
// separators and the proto's type-name prefix: "input-required" is
// TASK_STATE_INPUT_REQUIRED.
func (cg *compatGen) enumConverter(p pair, old, cur *ir.Enum) {
	name := cg.name(p)
	type valuePair struct{ old, cur string } // Go constant names
	var pairs []valuePair
	var lost []string
	for _, ov := range old.Values {
		var match *ir.EnumValue
		for _, cv := range cur.Values {
			if enumKey(cur, cv.Value) == enumKey(old, ov.Value) {
				match = cv
			}
		}
		if match == nil {
			lost = append(lost, ov.Value)
			continue
		}
		pairs = append(pairs, valuePair{naming.EnumValue(cg.old.decl[old], ov.Value), cg.cur.enumVal[match]})
	}
	oldEnum := func(name string) *jen.Statement { return jen.Qual(cg.oldQual, name) }
	var unpaired []string
	for _, cv := range cur.Values {
		if !slices.ContainsFunc(pairs, func(v valuePair) bool { return v.cur == cg.cur.enumVal[cv] }) {
			unpaired = append(unpaired, cv.Value)
		}
	}
	// A rule fix<Converter> decides the values without a counterpart by
	// meaning (0.3's "unknown" is 1.0's UNSPECIFIED).
	fix := "fix" + name
	if p.up && len(lost) > 0 {
		cg.losses = append(cg.losses, CompatLoss{Converter: name, From: cg.version + " " + old.Name, To: cg.cur.pkg.Sources[0].Version + " " + cur.Name, Lost: lost, Fix: ruleOf(cg.rules, fix)})
	}
	if !p.up && len(unpaired) > 0 {
		cg.losses = append(cg.losses, CompatLoss{Converter: name, From: cg.cur.pkg.Sources[0].Version + " " + cur.Name, To: cg.version + " " + old.Name, Lost: unpaired, Fix: ruleOf(cg.rules, fix)})
	}
	if p.up {
		otherwise := jen.Return(jen.Lit(0), jen.Op("&").Qual(a2arpcPkg, "CompatError").Values(jen.Dict{jen.Id("Msg"): jen.Lit(cg.cur.decl[cur]+" has no value ").Op("+").Qual("strconv", "Quote").Call(jen.String().Call(jen.Id("v")))}))
		cg.f.Commentf("%s converts an A2A %s %s to %s.", name, cg.version, cg.old.decl[old], cg.cur.decl[cur])
		switch {
		case cg.rules[fix]:
			otherwise = jen.Return(jen.Id(fix).Call(jen.Id("v")))
			cg.f.Commentf("%s decides the values without a counterpart.", fix)
		case len(lost) > 0:
			cg.f.Commentf("%s has no value for %s: it is an error.", cg.cur.decl[cur], strings.Join(lost, ", "))
		}
		cg.f.Func().Id(name).Params(jen.Id("v").Add(cg.oldType(old))).Params(jen.Id(cg.cur.decl[cur]), jen.Error()).Block(
			jen.Switch(jen.Id("v")).BlockFunc(func(gr *jen.Group) {
				for _, pv := range pairs {
					gr.Case(oldEnum(pv.old)).Block(jen.Return(jen.Id(pv.cur), jen.Nil()))
				}
			}),
			otherwise,
		)
	} else {
		otherwise := jen.Return(jen.Lit(""))
		if cg.rules[fix] {
			otherwise = jen.Return(jen.Id(fix).Call(jen.Id("v")))
			cg.f.Commentf("%s converts %s to an A2A %s %s; %s decides the values without a counterpart.", name, cg.cur.decl[cur], cg.version, cg.old.decl[old], fix)
		} else {
			cg.f.Commentf("%s converts %s to an A2A %s %s; \"\" for a value it lacks.", name, cg.cur.decl[cur], cg.version, cg.old.decl[old])
		}
		cg.f.Func().Id(name).Params(jen.Id("v").Id(cg.cur.decl[cur])).Add(cg.oldType(old)).Block(
			jen.Switch(jen.Id("v")).BlockFunc(func(gr *jen.Group) {
				for _, pv := range pairs {
					gr.Case(jen.Id(pv.cur)).Block(jen.Return(oldEnum(pv.old)))
				}
			}),
			otherwise,
		)
	}
	cg.f.Line()
}
