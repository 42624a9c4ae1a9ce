// Package proto lowers a .proto file into the IR, in pure Go: protocompile
// parses and links it, and the google/api imports (annotations, http,
// field_behavior, client) resolve from the descriptors compiled into
// google.golang.org/genproto, so no protoc and no googleapis tree is needed.
package proto

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"regexp"
	"strings"

	"github.com/bufbuild/protocompile"
	"google.golang.org/genproto/googleapis/api/annotations"
	gproto "google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/descriptorpb"

	"github.com/agui-gen/agui-gen/generator/ir"
)

// Option configures Load and Compile.
type Option func(*options)

type options struct {
	importPaths []string
}

// WithImportPaths resolves the file's imports below dirs, in order, as
// protoc's -I does; google/protobuf and google/api files are built in. The
// messages and enums of the imported files of the file's own proto package
// join the package it lowers into.
func WithImportPaths(dirs ...string) Option {
	return func(o *options) { o.importPaths = append(o.importPaths, dirs...) }
}

// Load parses the proto file named file (its bytes are data) and lowers it
// into a package named name. Errors carry file:line:col.
func Load(ctx context.Context, name, file string, data []byte, opts ...Option) (*ir.Package, error) {
	fd, err := Compile(ctx, file, data, opts...)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(data)
	pkg := &ir.Package{
		Name:    name,
		Title:   string(fd.Package()),
		Sources: []ir.Source{{File: file, ID: string(fd.Package()), SHA256: hex.EncodeToString(sum[:])}},
		Proto:   &ir.ProtoPackage{Package: string(fd.Package()), GoPackage: fd.Options().(*descriptorpb.FileOptions).GetGoPackage()},
	}
	imports := ownImports(fd)
	for _, imp := range imports {
		pkg.Sources = append(pkg.Sources, ir.Source{File: imp.Path(), ID: string(imp.Package()), SHA256: importDigest(imp)})
	}
	l := &lowerer{pkg: pkg, fd: fd, imports: imports, file: file, decls: map[protoreflect.FullName]ir.Decl{}}
	if err := l.lower(); err != nil {
		return nil, err
	}
	return pkg, nil
}

// Compile parses and links the proto file named file (its bytes are data),
// keeping source info (positions and comments). Its imports resolve to the
// google/protobuf files built into protocompile and the google/api files
// genproto registers; the returned descriptor reaches them through Imports.
func Compile(ctx context.Context, file string, data []byte, opts ...Option) (protoreflect.FileDescriptor, error) {
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	source := &protocompile.SourceResolver{Accessor: protocompile.SourceAccessorFromMap(map[string]string{file: string(data)})}
	// google/api/*.proto come from the descriptors genproto registers.
	registry := protocompile.ResolverFunc(func(path string) (protocompile.SearchResult, error) {
		d, err := protoregistry.GlobalFiles.FindFileByPath(path)
		if err != nil {
			return protocompile.SearchResult{}, err
		}
		return protocompile.SearchResult{Proto: protodesc.ToFileDescriptorProto(d)}, nil
	})
	resolvers := protocompile.CompositeResolver{source, registry}
	if len(o.importPaths) > 0 {
		resolvers = append(resolvers, &protocompile.SourceResolver{ImportPaths: o.importPaths})
	}
	c := protocompile.Compiler{
		Resolver:       protocompile.WithStandardImports(resolvers),
		SourceInfoMode: protocompile.SourceInfoStandard,
	}
	files, err := c.Compile(ctx, file)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) || strings.Contains(err.Error(), "could not resolve path") {
			where := "no import path is given"
			if len(o.importPaths) > 0 {
				where = "it is in none of " + strings.Join(o.importPaths, ", ")
			}
			return nil, fmt.Errorf("%w (%s: name the directory an import is relative to with --proto-path DIR)", err, where)
		}
		return nil, err
	}
	return files[0], nil
}

// ownImports are the files fd imports, directly or not, of fd's own proto
// package: their declarations are fd's package's. The google/protobuf and
// google/api files are not among them.
func ownImports(fd protoreflect.FileDescriptor) []protoreflect.FileDescriptor {
	var out []protoreflect.FileDescriptor
	seen := map[string]bool{fd.Path(): true}
	var walk func(f protoreflect.FileDescriptor)
	walk = func(f protoreflect.FileDescriptor) {
		for i := 0; i < f.Imports().Len(); i++ {
			imp := f.Imports().Get(i).FileDescriptor
			if seen[imp.Path()] || strings.HasPrefix(imp.Path(), "google/protobuf/") || strings.HasPrefix(imp.Path(), "google/api/") {
				continue
			}
			seen[imp.Path()] = true
			if imp.Package() == fd.Package() {
				out = append(out, imp)
			}
			walk(imp)
		}
	}
	walk(fd)
	return out
}

// importDigest is the sha256 of an imported file's descriptor, which
// stands for its bytes: the loader reads them itself.
func importDigest(f protoreflect.FileDescriptor) string {
	b, _ := gproto.MarshalOptions{Deterministic: true}.Marshal(protodesc.ToFileDescriptorProto(f))
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

type lowerer struct {
	pkg     *ir.Package
	fd      protoreflect.FileDescriptor
	imports []protoreflect.FileDescriptor // ownImports(fd)
	file    string
	decls   map[protoreflect.FullName]ir.Decl
	empty   *ir.Struct
}

func (l *lowerer) pos(d protoreflect.Descriptor) ir.Pos {
	f := d.ParentFile()
	loc := f.SourceLocations().ByDescriptor(d)
	file := l.file
	if f.Path() != l.fd.Path() {
		file = f.Path() // an imported file of the package
	}
	return ir.Pos{File: file, Line: loc.StartLine + 1, Col: loc.StartColumn + 1}
}

func (l *lowerer) doc(d protoreflect.Descriptor) string {
	loc := d.ParentFile().SourceLocations().ByDescriptor(d)
	text := strings.TrimSpace(internalComment.ReplaceAllString(loc.LeadingComments, ""))
	var lines []string
	for _, line := range strings.Split(text, "\n") {
		lines = append(lines, strings.TrimSpace(line))
	}
	return strings.TrimSpace(strings.Join(lines, "\n"))
}

// internalComment matches a "(-- … --)" block, which AIP-192 reserves for
// notes to the proto's maintainers (linter waivers) that generated
// documentation leaves out.
var internalComment = regexp.MustCompile(`(?s)\(--.*?--\)`)

func (l *lowerer) errorf(d protoreflect.Descriptor, format string, args ...any) error {
	return fmt.Errorf("%s: %s", l.pos(d), fmt.Sprintf(format, args...))
}

// localName is a declaration's name relative to the package, nested types
// joined by an underscore ("Outer_Inner").
func (l *lowerer) localName(d protoreflect.Descriptor) string {
	full := string(d.FullName())
	if p := string(l.fd.Package()); p != "" {
		full = strings.TrimPrefix(full, p+".")
	}
	return strings.ReplaceAll(full, ".", "_")
}

func (l *lowerer) lower() error {
	// Declare first so fields can refer to any message or enum.
	var descs []protoreflect.Descriptor
	var declare func(ms protoreflect.MessageDescriptors, es protoreflect.EnumDescriptors)
	declare = func(ms protoreflect.MessageDescriptors, es protoreflect.EnumDescriptors) {
		for i := 0; i < es.Len(); i++ {
			e := es.Get(i)
			d := &ir.Enum{Common: l.common(e)}
			l.decls[e.FullName()] = d
			l.pkg.Decls = append(l.pkg.Decls, d)
			descs = append(descs, e)
		}
		for i := 0; i < ms.Len(); i++ {
			m := ms.Get(i)
			if m.IsMapEntry() {
				continue
			}
			d := &ir.Struct{Common: l.common(m), FullName: string(m.FullName()), Closed: true}
			l.decls[m.FullName()] = d
			l.pkg.Decls = append(l.pkg.Decls, d)
			descs = append(descs, m)
			declare(m.Messages(), m.Enums())
		}
	}
	declare(l.fd.Messages(), l.fd.Enums())
	for _, imp := range l.imports {
		declare(imp.Messages(), imp.Enums())
	}
	for i, desc := range descs {
		switch d := l.pkg.Decls[i].(type) {
		case *ir.Enum:
			l.lowerEnum(d, desc.(protoreflect.EnumDescriptor))
		case *ir.Struct:
			if err := l.lowerMessage(d, desc.(protoreflect.MessageDescriptor)); err != nil {
				return err
			}
		}
	}
	for i := 0; i < l.fd.Services().Len(); i++ {
		s, err := l.lowerService(l.fd.Services().Get(i))
		if err != nil {
			return err
		}
		l.pkg.Decls = append(l.pkg.Decls, s)
	}
	if l.empty != nil {
		// Empty is declared last, before nothing, so the services that use it
		// read naturally above it.
		l.pkg.Decls = append(l.pkg.Decls, l.empty)
	}
	return nil
}

func (l *lowerer) common(d protoreflect.Descriptor) ir.Common {
	return ir.Common{Name: l.localName(d), Doc: l.doc(d), Deprecated: deprecated(d), Pos: l.pos(d)}
}

func deprecated(d protoreflect.Descriptor) bool {
	switch o := d.Options().(type) {
	case *descriptorpb.MessageOptions:
		return o.GetDeprecated()
	case *descriptorpb.FieldOptions:
		return o.GetDeprecated()
	case *descriptorpb.EnumOptions:
		return o.GetDeprecated()
	case *descriptorpb.EnumValueOptions:
		return o.GetDeprecated()
	case *descriptorpb.MethodOptions:
		return o.GetDeprecated()
	case *descriptorpb.ServiceOptions:
		return o.GetDeprecated()
	}
	return false
}

func (l *lowerer) lowerEnum(e *ir.Enum, d protoreflect.EnumDescriptor) {
	for i := 0; i < d.Values().Len(); i++ {
		v := d.Values().Get(i)
		e.Values = append(e.Values, &ir.EnumValue{Value: string(v.Name()), Doc: l.doc(v), Number: int(v.Number()),
			Deprecated: deprecated(v), Pos: l.pos(v)})
	}
}

func (l *lowerer) lowerMessage(st *ir.Struct, m protoreflect.MessageDescriptor) error {
	oneofs := map[protoreflect.FullName]*ir.Oneof{}
	for i := 0; i < m.Oneofs().Len(); i++ {
		o := m.Oneofs().Get(i)
		if o.IsSynthetic() {
			continue
		}
		g := &ir.Oneof{Name: string(o.Name()), Doc: l.doc(o), Pos: l.pos(o)}
		oneofs[o.FullName()] = g
		st.Oneofs = append(st.Oneofs, g)
	}
	for i := 0; i < m.Fields().Len(); i++ {
		fd := m.Fields().Get(i)
		t, err := l.typeOf(fd)
		if err != nil {
			return err
		}
		f := &ir.Field{
			Name: string(fd.Name()), Doc: l.doc(fd), Type: t, Number: int(fd.Number()),
			Required: l.required(fd), Deprecated: deprecated(fd), Presence: fd.HasOptionalKeyword(), Pos: l.pos(fd),
		}
		if fd.JSONName() != string(fd.Name()) {
			f.JSONName = fd.JSONName()
		}
		if o := fd.ContainingOneof(); o != nil && !o.IsSynthetic() {
			f.Oneof = oneofs[o.FullName()]
			f.Oneof.Fields = append(f.Oneof.Fields, f)
		}
		st.Fields = append(st.Fields, f)
	}
	return nil
}

// required reads google.api.field_behavior = REQUIRED.
func (l *lowerer) required(fd protoreflect.FieldDescriptor) bool {
	opts := resolvedOptions(fd.Options(), &descriptorpb.FieldOptions{})
	for _, b := range gproto.GetExtension(opts, annotations.E_FieldBehavior).([]annotations.FieldBehavior) {
		if b == annotations.FieldBehavior_REQUIRED {
			return true
		}
	}
	return false
}

// resolvedOptions re-reads options that protocompile built as dynamic
// messages into the generated Go types, so GetExtension works.
func resolvedOptions[T gproto.Message](opts protoreflect.ProtoMessage, into T) T {
	b, err := gproto.Marshal(opts)
	if err == nil {
		_ = gproto.UnmarshalOptions{Resolver: protoregistry.GlobalTypes}.Unmarshal(b, into)
	}
	return into
}

var scalars = map[protoreflect.Kind]ir.Kind{
	protoreflect.BoolKind: ir.KindBool, protoreflect.StringKind: ir.KindString, protoreflect.BytesKind: ir.KindBytes,
	protoreflect.Int32Kind: ir.KindInt, protoreflect.Sint32Kind: ir.KindInt, protoreflect.Sfixed32Kind: ir.KindInt,
	protoreflect.Int64Kind: ir.KindInt, protoreflect.Sint64Kind: ir.KindInt, protoreflect.Sfixed64Kind: ir.KindInt,
	protoreflect.Uint32Kind: ir.KindInt, protoreflect.Fixed32Kind: ir.KindInt,
	protoreflect.Uint64Kind: ir.KindInt, protoreflect.Fixed64Kind: ir.KindInt,
	protoreflect.FloatKind: ir.KindFloat, protoreflect.DoubleKind: ir.KindFloat,
}

func (l *lowerer) typeOf(fd protoreflect.FieldDescriptor) (ir.Type, error) {
	if fd.IsMap() {
		k, err := l.singular(fd.MapKey())
		if err != nil {
			return ir.Type{}, err
		}
		v, err := l.singular(fd.MapValue())
		if err != nil {
			return ir.Type{}, err
		}
		return ir.Type{Kind: ir.KindMap, Key: &k, Elem: &v}, nil
	}
	t, err := l.singular(fd)
	if err != nil {
		return ir.Type{}, err
	}
	if fd.Cardinality() == protoreflect.Repeated {
		return ir.Type{Kind: ir.KindArray, Elem: &t}, nil
	}
	return t, nil
}

func (l *lowerer) singular(fd protoreflect.FieldDescriptor) (ir.Type, error) {
	if k, ok := scalars[fd.Kind()]; ok {
		return ir.Type{Kind: k, Scalar: fd.Kind().String()}, nil
	}
	switch fd.Kind() {
	case protoreflect.EnumKind:
		if d, ok := l.decls[fd.Enum().FullName()]; ok {
			return ir.Named(d), nil
		}
		return ir.Type{}, l.errorf(fd, "enum %s is not of package %s; only the package's own enums are supported", fd.Enum().FullName(), l.fd.Package())
	case protoreflect.MessageKind:
		full := fd.Message().FullName()
		switch full {
		case "google.protobuf.Timestamp":
			return ir.Type{Kind: ir.KindTimestamp, Scalar: string(full)}, nil
		case "google.protobuf.Struct":
			return ir.Type{Kind: ir.KindAny, JSONType: "object", Scalar: string(full)}, nil
		case "google.protobuf.Value":
			return ir.Type{Kind: ir.KindAny, Scalar: string(full)}, nil
		case "google.protobuf.Empty":
			return ir.Named(l.emptyStruct()), nil
		}
		if d, ok := l.decls[full]; ok {
			return ir.Named(d), nil
		}
		return ir.Type{}, l.errorf(fd, "message %s is not supported; only the messages of package %s and Timestamp, Struct, Value and Empty are", full, l.fd.Package())
	}
	return ir.Type{}, l.errorf(fd, "field kind %s is not supported", fd.Kind())
}

// emptyStruct is the declaration standing for google.protobuf.Empty.
func (l *lowerer) emptyStruct() *ir.Struct {
	if l.empty == nil {
		l.empty = &ir.Struct{Common: ir.Common{Name: "Empty", Doc: "A generic empty message (google.protobuf.Empty), for methods that return nothing."},
			FullName: "google.protobuf.Empty", Closed: true}
	}
	return l.empty
}

func (l *lowerer) lowerService(sd protoreflect.ServiceDescriptor) (*ir.Service, error) {
	s := &ir.Service{Common: l.common(sd), FullName: string(sd.FullName())}
	for i := 0; i < sd.Methods().Len(); i++ {
		md := sd.Methods().Get(i)
		in, out, err := l.methodTypes(md)
		if err != nil {
			return nil, err
		}
		m := &ir.Method{Name: string(md.Name()), Doc: l.doc(md), Input: in, Output: out,
			ClientStreaming: md.IsStreamingClient(), ServerStreaming: md.IsStreamingServer(), Deprecated: deprecated(md), Pos: l.pos(md)}
		opts := resolvedOptions(md.Options(), &descriptorpb.MethodOptions{})
		if rule, ok := gproto.GetExtension(opts, annotations.E_Http).(*annotations.HttpRule); ok && rule != nil && rule.GetPattern() != nil {
			m.HTTP = append(m.HTTP, httpRule(rule))
			for _, extra := range rule.GetAdditionalBindings() {
				m.HTTP = append(m.HTTP, httpRule(extra))
			}
		}
		s.Methods = append(s.Methods, m)
	}
	return s, nil
}

func (l *lowerer) methodTypes(md protoreflect.MethodDescriptor) (*ir.Struct, *ir.Struct, error) {
	get := func(m protoreflect.MessageDescriptor) (*ir.Struct, error) {
		if m.FullName() == "google.protobuf.Empty" {
			return l.emptyStruct(), nil
		}
		st, ok := l.decls[m.FullName()].(*ir.Struct)
		if !ok {
			return nil, l.errorf(md, "message %s is not defined in this file", m.FullName())
		}
		return st, nil
	}
	in, err := get(md.Input())
	if err != nil {
		return nil, nil, err
	}
	out, err := get(md.Output())
	if err != nil {
		return nil, nil, err
	}
	return in, out, nil
}

func httpRule(r *annotations.HttpRule) ir.HTTPRule {
	h := ir.HTTPRule{Body: r.GetBody(), ResponseBody: r.GetResponseBody()}
	switch p := r.GetPattern().(type) {
	case *annotations.HttpRule_Get:
		h.Method, h.Path = "GET", p.Get
	case *annotations.HttpRule_Post:
		h.Method, h.Path = "POST", p.Post
	case *annotations.HttpRule_Put:
		h.Method, h.Path = "PUT", p.Put
	case *annotations.HttpRule_Patch:
		h.Method, h.Path = "PATCH", p.Patch
	case *annotations.HttpRule_Delete:
		h.Method, h.Path = "DELETE", p.Delete
	case *annotations.HttpRule_Custom:
		h.Method, h.Path = p.Custom.GetKind(), p.Custom.GetPath()
	}
	return h
}
