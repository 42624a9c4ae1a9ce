package golang

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/agui-gen/agui-gen/generator/ir"
)

// The runtime packages generated code imports. They are versioned with
// agui-gen: a fix to them reaches users by upgrading the module, without a
// regenerate.
const (
	runtimePath  = "github.com/agui-gen/agui-gen/runtime"
	wirePkg      = runtimePath + "/wire"
	versionPkg   = runtimePath + "/version"
	telemetryPkg = runtimePath + "/telemetry"
	a2arpcPkg    = runtimePath + "/a2arpc"
)

// readJSONDoc documents every generated ReadJSON method.
const readJSONDoc = "ReadJSON reads x from r. Decoder.Decode and the decoders of the types that hold x call it."

// newFile starts a generated file of the package at importPath, with the
// runtime's packages imported under their own names.
func newFile(importPath, pkgName string) *jen.File {
	f := jen.NewFilePathName(importPath, pkgName)
	f.ImportName(wirePkg, "wire")
	f.ImportName(versionPkg, "version")
	f.ImportName(telemetryPkg, "telemetry")
	f.ImportName(a2arpcPkg, "a2arpc")
	f.ImportName(aguihttpPkg, "aguihttp")
	f.ImportName(threadsPkg, "threads")
	return f
}

// renderFile renders one generated file of the package at importPath,
// with the header and the Source line (none when source is "").
func renderFile(importPath, pkgName, name, source string, build func(f *jen.File)) (File, error) {
	f := newFile(importPath, pkgName)
	f.HeaderComment(Header)
	if source != "" {
		f.HeaderComment("Source: " + source)
	}
	build(f)
	var buf bytes.Buffer
	if err := f.Render(&buf); err != nil {
		return File{}, fmt.Errorf("rendering %s: %w", name, err)
	}
	return File{Name: name, Content: buf.Bytes()}, nil
}

// emitTelemetry names the runtime's Telemetry as the package's own, for a
// package with a runtime (agui, a2a): one type, so one value serves both.
func emitTelemetry(f *jen.File) {
	f.Comment("Telemetry says where a server's or a client's traces and metrics go, and how")
	f.Comment("trace context crosses the wire; the zero value and a nil one take OpenTelemetry's")
	f.Comment("globals. It is telemetry.Telemetry, shared by the AG-UI and A2A packages.")
	f.Type().Id("Telemetry").Op("=").Qual(telemetryPkg, "Telemetry")
	f.Line()
	f.Comment("LogHandler wraps h so that a record logged with a context that holds a span")
	f.Comment("carries the span's trace_id and span_id, for logs and traces to be read together.")
	f.Func().Id("LogHandler").Params(jen.Id("h").Qual("log/slog", "Handler")).Qual("log/slog", "Handler").Block(
		jen.Return(jen.Qual(telemetryPkg, "LogHandler").Call(jen.Id("h"))),
	)
}

// runtimeLevel is the runtime API level the generated code needs: the
// suffix of the version.AtLeastN constant every generated package asserts.
// Raise it, and add the constant to runtime/version, when generated code
// starts to use a runtime API that an older runtime lacks.
const runtimeLevel = 1

// emitVersionCheck writes the compile-time handshake with the runtime.
func emitVersionCheck(f *jen.File) {
	f.Comment("This package needs agui-gen's runtime at API level " + strconv.Itoa(runtimeLevel) + " or later. If the build fails")
	f.Comment("here (undefined: version.AtLeast" + strconv.Itoa(runtimeLevel) + "), the runtime in the build is older than the")
	f.Comment("agui-gen that generated this code: upgrade github.com/agui-gen/agui-gen, or regenerate")
	f.Comment("with the agui-gen of the runtime you have.")
	f.Const().Id("_").Op("=").Qual(versionPkg, "AtLeast"+strconv.Itoa(runtimeLevel))
}

// AssertsRuntime reports whether src, a generated file, asserts the
// runtime level it needs.
func AssertsRuntime(src []byte) bool {
	return bytes.Contains(src, []byte("\nconst _ = version.AtLeast"))
}

// HandshakeFile is handshake_gen.go, which asserts the runtime level for
// a package none of whose other files does (a copy of a template).
func HandshakeFile(importPath, pkgName string) (File, error) {
	return renderFile(importPath, pkgName, "handshake_gen.go", "", emitVersionCheck)
}

// emitWireAPI writes the names of the JSON runtime a package's users write
// (agui.Error, agui.Decoder{Strict: true}, errors.Is(err, agui.ErrSyntax)),
// as aliases of runtime/wire's, and the version handshake.
func emitWireAPI(f *jen.File) {
	emitVersionCheck(f)
	f.Line()
	f.Comment("Error is a decoding or validation failure at one place in a JSON document: the")
	f.Comment("JSON pointer of the offending value (Path), the schema keyword it breaks (Rule)")
	f.Comment("and what is wrong (Msg).")
	f.Type().Id("Error").Op("=").Qual(wirePkg, "Error")
	f.Line()
	f.Comment("Value is implemented by a pointer to every object type of this package.")
	f.Type().Id("Value").Op("=").Qual(wirePkg, "Value")
	f.Line()
	f.Comment("Member is one member of an open object that its definition does not declare,")
	f.Comment("kept so the object round-trips unchanged.")
	f.Type().Id("Member").Op("=").Qual(wirePkg, "Member")
	f.Line()
	f.Comment("Decoder decodes JSON documents into this package's types. The zero value drops")
	f.Comment("the members a closed object does not declare; Strict rejects them, and OnUnknown")
	f.Comment("reports them (see wire.Decoder).")
	f.Type().Id("Decoder").Qual(wirePkg, "Decoder")
	f.Line()
	f.Comment("Decode reads one JSON document into v. It checks syntax, JSON types, required")
	f.Comment("members and consts; Validate checks the rest of the schema.")
	f.Func().Params(jen.Id("d").Id("Decoder")).Id("Decode").Params(jen.Id("data").Index().Byte(), jen.Id("v").Id("Value")).Error().Block(
		jen.Return(jen.Qual(wirePkg, "Decoder").Call(jen.Id("d")).Dot("Decode").Call(jen.Id("data"), jen.Id("v"))),
	)
	f.Line()
	f.Comment("MaxDepth is how deeply objects and arrays may nest in a document.")
	f.Const().Id("MaxDepth").Op("=").Qual(wirePkg, "MaxDepth")
	f.Line()
	f.Var().Defs(
		jen.Comment("ErrSyntax is behind every error about malformed JSON text."),
		jen.Id("ErrSyntax").Op("=").Qual(wirePkg, "ErrSyntax"),
		jen.Comment("ErrNoTag is behind the error for a union value that lacks the member saying"),
		jen.Comment("which of the union's types it is."),
		jen.Id("ErrNoTag").Op("=").Qual(wirePkg, "ErrNoTag"),
	)
}

// enumValues lists an enum's wire values as an error message shows them,
// quoted and comma-separated: what a client that sent another should send.
func enumValues(e *ir.Enum) string {
	quoted := make([]string, len(e.Values))
	for i, v := range e.Values {
		quoted[i] = strconv.Quote(v.Value)
	}
	return strings.Join(quoted, ", ")
}
