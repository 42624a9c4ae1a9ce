package golang

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/agui-gen/agui-gen/generator/ir"
	"github.com/agui-gen/agui-gen/generator/naming"
	"github.com/agui-gen/agui-gen/templates"
)

// protoGen emits a package loaded from a .proto file: ProtoJSON and
// protobuf binary codecs, validators from field_behavior, and the service
// described as data.
type protoGen struct {
	pkg   *ir.Package
	opts  Options
	decl  map[ir.Decl]string
	field map[*ir.Field]string
	// oneof interface and wrapper names
	oneof   map[*ir.Oneof]string
	wrapper map[*ir.Field]string
	enumVal map[*ir.EnumValue]string
}

// ProtoPackage emits the Go files for a package loaded from a proto.
func ProtoPackage(pkg *ir.Package, opts Options) ([]File, error) {
	g := &protoGen{pkg: pkg, opts: opts, decl: map[ir.Decl]string{}, field: map[*ir.Field]string{},
		oneof: map[*ir.Oneof]string{}, wrapper: map[*ir.Field]string{}, enumVal: map[*ir.EnumValue]string{}}
	if err := g.resolveNames(); err != nil {
		return nil, err
	}
	steps := []struct {
		name  string
		build func(f *jen.File)
	}{
		{"doc_gen.go", g.emitDoc},
		{"types_gen.go", g.emitTypes},
		{"json_gen.go", g.emitJSON},
		{"proto_gen.go", g.emitProto},
		{"validate_gen.go", g.emitValidate},
		{"service_gen.go", g.emitServices},
		{"wire_gen.go", emitWireAPI},
	}
	if opts.A2ARuntime {
		steps = append(steps, struct {
			name  string
			build func(f *jen.File)
		}{"rpc_gen.go", emitA2ARPC}, struct {
			name  string
			build func(f *jen.File)
		}{"bindings_gen.go", emitA2AHTTP})
	}
	var files []File
	for _, s := range steps {
		f, err := renderFile(opts.ImportPath, opts.PackageName, s.name, sourceLine(pkg), s.build)
		if err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	if opts.A2ARuntime {
		rt, err := renderRuntime(templates.A2ARuntime, "a2art", opts.ImportPath, opts.PackageName, sourceLine(pkg), templates.A2AImportPath)
		if err != nil {
			return nil, err
		}
		files = append(files, rt...)
	}
	sort.Slice(files, func(i, j int) bool { return files[i].Name < files[j].Name })
	return files, nil
}

func sourceLine(pkg *ir.Package) string {
	var parts []string
	for _, s := range pkg.Sources {
		parts = append(parts, fmt.Sprintf("%s (%s, sha256 %s)", s.File, s.ID, s.SHA256[:12]))
	}
	return strings.Join(parts, "; ")
}

func (g *protoGen) resolveNames() error {
	var reserved []string
	if g.opts.A2ARuntime {
		reserved = append(a2arpcNames(), a2aHTTPNames()...)
		rt, err := templateNames(templates.A2ARuntime, "a2art")
		if err != nil {
			return err
		}
		reserved = append(reserved, rt...)
	}
	scope := naming.NewScope(append(runtimeNames, reserved...)...)
	for _, d := range g.pkg.Decls {
		name := naming.Exported(d.DeclName())
		if scope.Taken(name) {
			return fmt.Errorf("%s: %s would be named %s in Go, which is taken", d.DeclPos(), d.DeclName(), name)
		}
		g.decl[d] = scope.Claim(name)
	}
	for _, d := range g.pkg.Decls {
		switch d := d.(type) {
		case *ir.Enum:
			prefix := strings.ToUpper(strings.Join(naming.Words(d.Name), "_")) + "_"
			for _, v := range d.Values {
				g.enumVal[v] = scope.Claim(g.decl[d] + naming.Exported(strings.TrimPrefix(v.Value, prefix)))
			}
		case *ir.Service:
			svc := g.decl[d]
			for _, n := range []string{svc + "Server", "Unimplemented" + svc + "Server", "Bind" + svc, svc + "Client", "New" + svc + "Client"} {
				if scope.Taken(n) {
					return fmt.Errorf("%s: service %s needs the Go name %s, which is taken", d.DeclPos(), d.DeclName(), n)
				}
				scope.Claim(n)
			}
		case *ir.Struct:
			fields := naming.NewScope()
			for _, f := range d.Fields {
				g.field[f] = fields.Claim(naming.Exported(f.Name))
			}
			for _, o := range d.Oneofs {
				g.oneof[o] = scope.Claim(g.decl[d] + naming.Exported(o.Name))
				for _, f := range o.Fields {
					g.wrapper[f] = scope.Claim(g.decl[d] + naming.Exported(f.Name))
				}
			}
		}
	}
	return nil
}

// serviceNames lists the Go names of the package's services.
func (g *protoGen) serviceNames() []string {
	var out []string
	for _, s := range g.pkg.Services() {
		out = append(out, g.decl[s])
	}
	return out
}

// ---- types ----

// goType is the Go type of one value of t (an element, not a field).
func (g *protoGen) goType(t ir.Type) *jen.Statement {
	switch t.Kind {
	case ir.KindString:
		return jen.String()
	case ir.KindBool:
		return jen.Bool()
	case ir.KindBytes:
		return jen.Index().Byte()
	case ir.KindInt:
		switch t.Scalar {
		case "int32", "sint32", "sfixed32":
			return jen.Int32()
		case "uint32", "fixed32":
			return jen.Uint32()
		case "uint64", "fixed64":
			return jen.Uint64()
		}
		return jen.Int64()
	case ir.KindFloat:
		if t.Scalar == "float" {
			return jen.Float32()
		}
		return jen.Float64()
	case ir.KindAny:
		return jen.Qual(jsonPkg, "RawMessage")
	case ir.KindTimestamp:
		return jen.Op("*").Qual("time", "Time")
	case ir.KindArray:
		return jen.Index().Add(g.goType(*t.Elem))
	case ir.KindMap:
		return jen.Map(g.goType(*t.Key)).Add(g.goType(*t.Elem))
	case ir.KindNamed:
		if _, ok := t.Decl.(*ir.Struct); ok {
			return jen.Op("*").Id(g.decl[t.Decl])
		}
		return jen.Id(g.decl[t.Decl])
	}
	panic(fmt.Sprintf("proto goType: kind %d", t.Kind))
}

// fieldGoType adds the pointer of explicit presence to scalars.
func (g *protoGen) fieldGoType(f *ir.Field) *jen.Statement {
	if f.Presence && isScalarLike(f.Type) {
		return jen.Op("*").Add(g.goType(f.Type))
	}
	return g.goType(f.Type)
}

// isScalarLike reports whether t is held by value (not nilable).
func isScalarLike(t ir.Type) bool {
	switch t.Kind {
	case ir.KindString, ir.KindBool, ir.KindInt, ir.KindFloat:
		return true
	case ir.KindNamed:
		_, ok := t.Decl.(*ir.Enum)
		return ok
	}
	return false
}

func (g *protoGen) emitDoc(f *jen.File) {
	src := g.pkg.Sources[0]
	lines := []string{
		fmt.Sprintf("Package %s holds the types of the protobuf package %s, generated from %s,", g.opts.PackageName, g.pkg.Proto.Package, src.File),
		"with ProtoJSON and protobuf binary codecs written without reflection.",
		"",
		"AppendJSON writes ProtoJSON (lowerCamelCase names, enums by name, 64-bit integers as strings,",
		"Timestamp as RFC 3339, bytes as base64, default values omitted); UnmarshalJSON also accepts the",
		"proto field names and enum numbers, ignores unknown fields and treats null as absent.",
		"AppendProto and UnmarshalProto speak the binary wire format. Validate checks the fields the proto",
		"marks google.api.field_behavior = REQUIRED.",
	}
	if services := g.serviceNames(); len(services) > 0 {
		lines = append(lines, "",
			"Each service ("+strings.Join(services, ", ")+") has a server interface to implement, an",
			"Unimplemented type to embed, a Bind function and a typed client over a Transport.")
		if g.opts.A2ARuntime {
			lines = append(lines,
				"NewHandler serves a bound service over JSON-RPC 2.0 and HTTP+JSON with its agent card;",
				"NewJSONRPCTransport and NewRESTTransport are the client side, and NewTransportFromCard picks",
				"one from a card. The subpackages add gRPC (a2agrpc), card signatures (a2acard),",
				"authentication (a2aauth) and the task runtime with its stores (a2atask).")
		}
	}
	f.PackageComment(strings.Join(lines, "\n"))
	f.Comment("ProtoPackage is the protobuf package the types belong to.")
	f.Const().Id("ProtoPackage").Op("=").Lit(g.pkg.Proto.Package)
	if src.Version != "" {
		f.Line()
		f.Comment("ProtocolVersion is the protocol version (Major.Minor) these types define, as the")
		f.Comment("A2A-Version service parameter and AgentInterface.protocolVersion carry it.")
		f.Const().Id("ProtocolVersion").Op("=").Lit(src.Version)
	}
}

func (g *protoGen) emitTypes(f *jen.File) {
	for _, d := range g.pkg.Decls {
		switch d := d.(type) {
		case *ir.Enum:
			g.emitEnum(f, d)
		case *ir.Struct:
			g.emitStruct(f, d)
		}
	}
}

// protoDoc renders a proto comment for the Go name. A comment that opens
// with a verb ("Represents …") is led by the name, as godoc prefers; any
// other comment is kept verbatim, as protoc-gen-go does, rather than bent
// into a sentence it was not written as.
func protoDoc(name, doc string) []string {
	doc = strings.TrimSpace(doc)
	if doc == "" {
		return nil
	}
	first := strings.ToLower(strings.TrimRight(strings.Fields(doc)[0], ".,;:"))
	if strings.HasSuffix(first, "s") && !strings.HasSuffix(first, "ss") && !slices.Contains(nounsEndingInS, first) &&
		first != strings.ToLower(name) {
		return wrap(name+" "+lowerFirst(doc), 100)
	}
	return wrap(doc, 100)
}

func (g *protoGen) emitEnum(f *jen.File, e *ir.Enum) {
	name := g.decl[e]
	lines := protoDoc(name, e.Doc)
	if len(lines) == 0 {
		lines = []string{name + " is the " + e.Name + " enum."}
	}
	f.Add(comment(lines))
	f.Type().Id(name).Int32()
	f.Line()
	f.Const().DefsFunc(func(gr *jen.Group) {
		for _, v := range e.Values {
			doc := protoDoc(g.enumVal[v], v.Doc)
			if v.Deprecated {
				doc = append(doc, "", "Deprecated: the proto marks "+v.Value+" as deprecated.")
			}
			gr.Add(comment(doc))
			gr.Id(g.enumVal[v]).Id(name).Op("=").Lit(v.Number)
		}
	})
	f.Line()
	f.Comment("String returns the value's proto name, or its number when it has none.")
	f.Func().Params(jen.Id("v").Id(name)).Id("String").Params().String().Block(
		jen.Switch(jen.Id("v")).BlockFunc(func(gr *jen.Group) {
			seen := map[int]bool{}
			for _, v := range e.Values {
				if seen[v.Number] {
					continue
				}
				seen[v.Number] = true
				gr.Case(jen.Id(g.enumVal[v])).Block(jen.Return(jen.Lit(v.Value)))
			}
		}),
		jen.Return(jen.Qual("strconv", "Itoa").Call(jen.Int().Call(jen.Id("v")))),
	)
	f.Line()
	f.Comment("parse" + name + " looks a value up by its proto name.")
	f.Func().Id("parse"+name).Params(jen.Id("s").Index().Byte()).Params(jen.Id(name), jen.Bool()).Block(
		jen.Switch(jen.String().Call(jen.Id("s"))).BlockFunc(func(gr *jen.Group) {
			for _, v := range e.Values {
				gr.Case(jen.Lit(v.Value)).Block(jen.Return(jen.Id(g.enumVal[v]), jen.True()))
			}
		}),
		jen.Return(jen.Lit(0), jen.False()),
	)
}

func (g *protoGen) emitStruct(f *jen.File, st *ir.Struct) {
	name := g.decl[st]
	lines := protoDoc(name, st.Doc)
	if len(lines) == 0 {
		lines = []string{name + " is the " + st.FullName + " message."}
	}
	if st.Deprecated {
		lines = append(lines, "", "Deprecated: the proto marks "+st.Name+" as deprecated.")
	}
	f.Add(comment(lines))
	done := map[*ir.Oneof]bool{}
	f.Type().Id(name).StructFunc(func(gr *jen.Group) {
		for i, fl := range st.Fields {
			if i > 0 {
				gr.Line()
			}
			if o := fl.Oneof; o != nil {
				if done[o] {
					continue
				}
				done[o] = true
				doc := protoDoc(naming.Exported(o.Name), o.Doc)
				var members []string
				for _, m := range o.Fields {
					members = append(members, "*"+g.wrapper[m])
				}
				if len(doc) > 0 {
					doc = append(doc, "")
				}
				doc = append(doc, naming.Exported(o.Name)+" holds one of "+strings.Join(members, ", ")+", or nil when unset.")
				gr.Add(comment(doc))
				gr.Id(naming.Exported(o.Name)).Id(g.oneof[o]).Tag(map[string]string{"json": "-"})
				continue
			}
			gr.Add(comment(g.fieldDoc(fl)))
			gr.Id(g.field[fl]).Add(g.fieldGoType(fl)).Tag(map[string]string{"json": fl.WireName() + ",omitempty"})
		}
	})
	for _, o := range st.Oneofs {
		iface := g.oneof[o]
		f.Line()
		f.Comment(fmt.Sprintf("%s is the %s oneof of %s: one of its wrapper types.", iface, o.Name, name))
		f.Type().Id(iface).Interface(jen.Id("is" + iface).Params())
		for _, m := range o.Fields {
			w := g.wrapper[m]
			f.Line()
			doc := protoDoc(w, m.Doc)
			if len(doc) == 0 {
				doc = []string{fmt.Sprintf("%s sets %s's %s to %s.", w, name, o.Name, m.Name)}
			} else {
				doc = append([]string{fmt.Sprintf("%s sets %s's %s to %s.", w, name, o.Name, m.Name), ""}, doc[0:]...)
			}
			if m.Deprecated {
				doc = append(doc, "", "Deprecated: the proto marks "+m.Name+" as deprecated.")
			}
			f.Add(comment(doc))
			f.Type().Id(w).Struct(jen.Id(g.field[m]).Add(g.goType(m.Type)))
			f.Func().Params(jen.Op("*").Id(w)).Id("is" + iface).Params().Block()
		}
	}
	g.emitGetters(f, st)
}

// emitGetters writes a nil-safe getter per field, as protoc-gen-go does:
// GetF returns the field's value, its zero value when x is nil (or a
// pointer to an explicitly present scalar is); a oneof has one for the
// interface and one per member, so that x.GetStatus().GetMessage() reads
// without a nil check at each step.
func (g *protoGen) emitGetters(f *jen.File, st *ir.Struct) {
	name := g.decl[st]
	recv := jen.Id("x").Op("*").Id(name)
	done := map[*ir.Oneof]bool{}
	for _, fl := range st.Fields {
		if o := fl.Oneof; o != nil {
			if !done[o] {
				done[o] = true
				oneof := naming.Exported(o.Name)
				f.Line()
				f.Add(comment(wrap(fmt.Sprintf("Get%s returns %s, or nil when x is nil.", oneof, oneof), 96)))
				f.Func().Params(recv).Id("Get"+oneof).Params().Id(g.oneof[o]).Block(
					jen.If(jen.Id("x").Op("!=").Nil()).Block(jen.Return(jen.Id("x").Dot(oneof))),
					jen.Return(jen.Nil()))
			}
			f.Line()
			f.Add(comment(wrap(fmt.Sprintf("Get%s returns the %s %s holds, or the zero value when it holds another (or x is nil).",
				g.field[fl], g.field[fl], naming.Exported(o.Name)), 96)))
			f.Func().Params(recv).Id("Get"+g.field[fl]).Params().Add(g.goType(fl.Type)).Block(
				jen.If(jen.List(jen.Id("v"), jen.Id("ok")).Op(":=").Id("x").Dot("Get"+naming.Exported(o.Name)).Call().Assert(jen.Op("*").Id(g.wrapper[fl])), jen.Id("ok")).Block(
					jen.Return(jen.Id("v").Dot(g.field[fl]))),
				jen.Return(g.zeroValue(fl.Type)))
			continue
		}
		v := jen.Id("x").Dot(g.field[fl])
		present := jen.Id("x").Op("!=").Nil()
		val := v.Clone()
		typ := g.fieldGoType(fl)
		if fl.Presence && isScalarLike(fl.Type) {
			present = present.Op("&&").Add(v.Clone()).Op("!=").Nil()
			val = jen.Op("*").Add(v.Clone())
			typ = g.goType(fl.Type)
		}
		f.Line()
		if fl.Presence && isScalarLike(fl.Type) {
			f.Add(comment(wrap(fmt.Sprintf("Get%s returns *%s, or the zero value when x or %s is nil.", g.field[fl], g.field[fl], g.field[fl]), 96)))
		} else {
			f.Add(comment(wrap(fmt.Sprintf("Get%s returns %s, or the zero value when x is nil.", g.field[fl], g.field[fl]), 96)))
		}
		f.Func().Params(recv).Id("Get"+g.field[fl]).Params().Add(typ).Block(
			jen.If(present).Block(jen.Return(val)),
			jen.Return(g.zeroValue(fl.Type)))
	}
}

// zeroValue is the zero value of a field of type t, as its getter returns
// it for a nil message.
func (g *protoGen) zeroValue(t ir.Type) jen.Code {
	if z := scalarZero(t.Kind); z != nil {
		return z
	}
	if _, ok := t.Decl.(*ir.Enum); ok && t.Kind == ir.KindNamed {
		return jen.Lit(0)
	}
	return jen.Nil()
}

func (g *protoGen) fieldDoc(fl *ir.Field) []string {
	name := g.field[fl]
	lines := protoDoc(name, fl.Doc)
	if len(lines) == 0 {
		lines = []string{name + " is the " + fl.Name + " field."}
	}
	var notes []string
	if fl.Required {
		notes = append(notes, "Required.")
	}
	if fl.Presence {
		notes = append(notes, "Nil means unset, which differs from the zero value.")
	}
	if len(notes) > 0 {
		lines = append(lines, "", strings.Join(notes, " "))
	}
	if fl.Deprecated {
		lines = append(lines, "", "Deprecated: the proto marks "+fl.Name+" as deprecated.")
	}
	return lines
}

// messages returns the structs in declaration order.
func (g *protoGen) messages() []*ir.Struct {
	var out []*ir.Struct
	for _, d := range g.pkg.Decls {
		if st, ok := d.(*ir.Struct); ok {
			out = append(out, st)
		}
	}
	return out
}

// byNumber returns a struct's fields ordered by field number.
func byNumber(st *ir.Struct) []*ir.Field {
	fs := slices.Clone(st.Fields)
	slices.SortStableFunc(fs, func(a, b *ir.Field) int { return a.Number - b.Number })
	return fs
}
