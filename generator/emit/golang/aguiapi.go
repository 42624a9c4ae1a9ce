package golang

import (
	"github.com/dave/jennifer/jen"
)

// The runtime packages of AG-UI's transport and server plumbing, which the
// generated AG-UI package names under its own names (aguiAPI).
const (
	aguihttpPkg = runtimePath + "/aguihttp"
)

// aguiName is one name of the generated AG-UI package that stands for a
// runtime declaration of the same name: users wrote it as agui.Name when
// the runtime was copied into the package, and still do.
type aguiName struct {
	kind string // "type", "const" or "var"
	name string
	pkg  string // the runtime package that declares it
	doc  []string
}

// aguiAPI lists the names, in the order they are written. Each doc is the
// runtime declaration's, shortened; the runtime's godoc says the rest.
var aguiAPI = []aguiName{
	{"const", "MediaTypeSSE", aguihttpPkg, []string{"MediaTypeSSE is the media type of the SSE event transport."}},
	{"const", "MediaTypeProto", aguihttpPkg, []string{"MediaTypeProto is the media type of the protobuf event transport: frames of a", "4-byte big-endian length and one Event envelope."}},
	{"const", "MaxFrameBytes", aguihttpPkg, []string{"MaxFrameBytes is the most a client reads of one event before failing the", "stream: the data of one SSE event, or one protobuf frame."}},
	{"const", "CapabilitiesPath", aguihttpPkg, []string{"CapabilitiesPath is the route, below an agent's endpoint, of its capabilities", "(GET), the de facto convention of the AG-UI SDKs."}},
	{"const", "CancelPath", aguihttpPkg, []string{"CancelPath is the route, below an agent's endpoint, of the cancel of a run in", "progress (POST)."}},
	{"type", "CancelRequest", aguihttpPkg, []string{"CancelRequest is the body of POST {path}/cancel."}},
	{"type", "HTTPError", aguihttpPkg, []string{"HTTPError is a request the server refused: a response status other than 2xx,", "with the start of the body."}},
	{"var", "ErrTruncated", aguihttpPkg, []string{"ErrTruncated is behind the error of a stream that ended while a run was still", "active, or before any run began: the run has no outcome, and must not be taken", "for one that succeeded. What it delivered stays applied."}},
}

// aguiAPINames are the names aguiAPI declares, which generated
// declarations must not take.
func aguiAPINames() []string {
	names := make([]string, len(aguiAPI))
	for i, n := range aguiAPI {
		names[i] = n.name
	}
	return names
}

// emitAGUIAPI writes the names of aguiAPI: type aliases, and constants and
// variables that hold the runtime's (a sentinel error is the runtime's own
// value, so errors.Is matches either name).
func emitAGUIAPI(f *jen.File) {
	for i, n := range aguiAPI {
		if i > 0 {
			f.Line()
		}
		for _, line := range n.doc {
			f.Comment(line)
		}
		switch n.kind {
		case "type":
			f.Type().Id(n.name).Op("=").Qual(n.pkg, n.name)
		case "const":
			f.Const().Id(n.name).Op("=").Qual(n.pkg, n.name)
		case "var":
			f.Var().Id(n.name).Op("=").Qual(n.pkg, n.name)
		}
	}
}
