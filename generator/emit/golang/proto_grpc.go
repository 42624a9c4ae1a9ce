package golang

import (
	"bytes"
	"fmt"
	"io/fs"

	"github.com/dave/jennifer/jen"

	"github.com/agui-gen/agui-gen/generator/ir"
	"github.com/agui-gen/agui-gen/templates"
)

const (
	grpcPkg     = "google.golang.org/grpc"
	metadataPkg = "google.golang.org/grpc/metadata"
	// a2agrpcPkg is the runtime of the gRPC binding, imported by the
	// generated a2agrpc package as grpcrt, since the two share a name.
	a2agrpcPkg   = runtimePath + "/a2agrpc"
	a2agrpcAlias = "grpcrt"
)

// GRPCPackage emits the gRPC binding of a package generated from a proto:
// a subpackage (named a2agrpc) beside it, at importPath, holding one
// grpc.ServiceDesc per service, generated from the IR, with its Register
// and client functions (service_gen.go), and the names of runtime/a2agrpc
// bound to the package's types (grpc_gen.go). parent is the import path of
// the package with the types.
func GRPCPackage(pkg *ir.Package, parent, importPath string) ([]File, error) {
	const name = "a2agrpc"
	pg := &protoGen{pkg: pkg, decl: map[ir.Decl]string{}, field: map[*ir.Field]string{},
		oneof: map[*ir.Oneof]string{}, wrapper: map[*ir.Field]string{}, enumVal: map[*ir.EnumValue]string{},
		opts: Options{A2ARuntime: true}}
	if err := pg.resolveNames(); err != nil {
		return nil, err
	}
	f := newFile(importPath, name)
	f.HeaderComment(Header)
	f.HeaderComment("Source: " + sourceLine(pkg))
	f.ImportName(parent, "a2a")
	f.ImportName(grpcPkg, "grpc")
	f.ImportAlias(a2agrpcPkg, a2agrpcAlias)
	for _, s := range pkg.Services() {
		pg.emitGRPCService(f, s, parent)
	}
	var buf bytes.Buffer
	if err := f.Render(&buf); err != nil {
		return nil, fmt.Errorf("rendering the gRPC service: %w", err)
	}
	iface, err := pg.interfaceFields()
	if err != nil {
		return nil, err
	}
	binding, err := renderFile(importPath, name, "grpc_gen.go", sourceLine(pkg), func(f *jen.File) {
		emitGRPCBinding(f, parent, iface)
	})
	if err != nil {
		return nil, err
	}
	return []File{binding, {Name: "service_gen.go", Content: buf.Bytes()}}, nil
}

// TaskPackage emits the a2atask subpackage, the task runtime, and its
// store subpackages: the support code of templates/a2atask, against
// parent. File names are relative to the a2atask directory.
func TaskPackage(pkg *ir.Package, parent string) ([]File, error) {
	files, err := copyTemplates(templates.A2ATask, "a2atask", "a2atask", "", func(name string) bool {
		return name != generationTemplate // emitted for pkg instead
	}, a2aBelow(parent))
	if err != nil {
		return nil, err
	}
	generation, err := emitGeneration(pkg, parent)
	if err != nil {
		return nil, err
	}
	files = append(files, File{Name: "generation_gen.go", Content: generation})
	for _, store := range []struct {
		fsys fs.FS
		pkg  string
	}{{templates.A2ATaskSQLite, "sqlitestore"}, {templates.A2ATaskPostgres, "pgstore"}} {
		sub, err := subpackageSupport(store.fsys, "a2atask/"+store.pkg, store.pkg, parent)
		if err != nil {
			return nil, err
		}
		for _, f := range sub {
			files = append(files, File{Name: store.pkg + "/" + f.Name, Content: f.Content})
		}
	}
	return files, nil
}

// BridgePackage emits the bridge package, which joins AG-UI and A2A: the
// support code of templates/bridge, against the generated packages at
// aguiImport and a2aImport.
func BridgePackage(aguiImport, a2aImport string) ([]File, error) {
	return crossPackageSupport(templates.Bridge, "bridge", "bridge", aguiImport, a2aImport, "")
}

// AgentHostPackage emits the agenthost package, which serves several
// agents over both protocols: the support code of templates/agenthost.
func AgentHostPackage(aguiImport, a2aImport, bridgeImport string) ([]File, error) {
	return crossPackageSupport(templates.AgentHost, "agenthost", "agenthost", aguiImport, a2aImport, bridgeImport)
}

// MetaStorePackages emits the SQL stores of the AG-UI META intake, as the
// metasqlite and metapg subpackages of the package at aguiImport. File
// names are relative to the AG-UI package's directory.
func MetaStorePackages(aguiImport string) ([]File, error) {
	var files []File
	for _, store := range []struct {
		fsys fs.FS
		pkg  string
	}{{templates.MetaSQLite, "metasqlite"}, {templates.MetaPostgres, "metapg"}} {
		sub, err := crossPackageSupport(store.fsys, store.pkg, store.pkg, aguiImport, "", "")
		if err != nil {
			return nil, err
		}
		for _, f := range sub {
			files = append(files, File{Name: store.pkg + "/" + f.Name, Content: f.Content})
		}
	}
	return files, nil
}

// crossPackageSupport copies a templates directory written against
// several generated packages, importing them where this output has them.
func crossPackageSupport(fsys fs.FS, dir, pkg, aguiImport, a2aImport, bridgeImport string) ([]File, error) {
	return copyTemplates(fsys, dir, pkg, "", func(string) bool { return true }, importRewrite{paths: map[string]string{
		templates.AGUIImportPath:   aguiImport,
		templates.A2AImportPath:    a2aImport,
		templates.BridgeImportPath: bridgeImport,
	}})
}

// subpackageSupport copies a templates directory written against gen/a2a
// (and its subpackages) into package pkg, importing parent instead.
func subpackageSupport(fsys fs.FS, dir, pkg, parent string) ([]File, error) {
	return copyTemplates(fsys, dir, pkg, "", func(string) bool { return true }, a2aBelow(parent))
}

// a2aBelow points a template's imports of gen/a2a, and of the packages
// below it, at parent.
func a2aBelow(parent string) importRewrite {
	return importRewrite{paths: map[string]string{templates.A2AImportPath: parent}}
}

// generationTemplate is the template of a2atask that emitGeneration
// writes for each proto: the template holds the embedded proto's version.
const generationTemplate = "generation.go"

func (g *protoGen) emitGRPCService(f *jen.File, s *ir.Service, parent string) {
	svc := g.decl[s]
	desc := svc + "Desc"
	var methods, streams []jen.Code
	for i, m := range s.Methods {
		if !served(m) {
			continue
		}
		if m.ServerStreaming {
			streams = append(streams, keyed(
				jen.Id("StreamName").Op(":").Lit(m.Name),
				jen.Id("Handler").Op(":").Qual(a2agrpcPkg, "StreamHandler").Call(jen.Lit(i)),
				jen.Id("ServerStreams").Op(":").True(),
			))
			continue
		}
		methods = append(methods, keyed(
			jen.Id("MethodName").Op(":").Lit(m.Name),
			jen.Id("Handler").Op(":").Qual(a2agrpcPkg, "UnaryHandler").Call(jen.Lit(i)),
		))
	}
	f.Add(comment(wrap(fmt.Sprintf("%s describes the %s service to grpc-go; Register%sServer serves it.", desc, s.FullName, svc), 97)))
	f.Var().Id(desc).Op("=").Qual(grpcPkg, "ServiceDesc").Add(keyed(
		jen.Id("ServiceName").Op(":").Lit(s.FullName),
		// The registered implementation is the bound service, whatever its type.
		jen.Id("HandlerType").Op(":").Parens(jen.Op("*").Any()).Call(jen.Nil()),
		jen.Id("Methods").Op(":").Index().Qual(grpcPkg, "MethodDesc").Values(methods...),
		jen.Id("Streams").Op(":").Index().Qual(grpcPkg, "StreamDesc").Values(streams...),
		jen.Id("Metadata").Op(":").Lit(g.pkg.Sources[0].File),
	))
	f.Line()
	f.Add(comment(wrap(fmt.Sprintf("Register%sServer serves srv on s over gRPC. Calls reach srv decoded and "+
		"validated, with the a2a-version metadata negotiated and a CallInfo in their context.", svc), 97)))
	f.Func().Id("Register"+svc+"Server").Params(
		jen.Id("s").Qual(grpcPkg, "ServiceRegistrar"), jen.Id("srv").Qual(parent, svc+"Server"), jen.Id("opts").Op("...").Id("ServerOption"),
	).Block(
		jen.Qual(a2agrpcPkg, "Register").Call(jen.Id(grpcSpecVar), jen.Id("s"), jen.Op("&").Id(desc),
			jen.Qual(parent, "Bind"+svc).Call(jen.Id("srv")), jen.Id("opts").Op("...")),
	)
	f.Line()
	f.Commentf("New%sClient calls the %s service over conn.", svc, s.FullName)
	f.Func().Id("New"+svc+"Client").Params(
		jen.Id("conn").Qual(grpcPkg, "ClientConnInterface"), jen.Id("opts").Op("...").Id("ClientOption"),
	).Op("*").Qual(parent, svc+"Client").Block(
		jen.Return(jen.Qual(parent, "New"+svc+"Client").Call(jen.Id("NewTransport").Call(jen.Id("conn"), jen.Id("opts").Op("...")))),
	)
}
