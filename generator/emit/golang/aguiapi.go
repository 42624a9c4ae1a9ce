package golang

import (
	"github.com/dave/jennifer/jen"
)

// The runtime packages of AG-UI's transport and server plumbing, which the
// generated AG-UI package names under its own names (aguiAPI).
const (
	aguihttpPkg = runtimePath + "/aguihttp"
	threadsPkg  = runtimePath + "/threads"
)

// aguiName is one name of the generated AG-UI package that stands for a
// runtime declaration of the same name: users wrote it as agui.Name when
// the runtime was copied into the package, and still do.
type aguiName struct {
	kind string // "type", "const" or "var"
	name string
	pkg  string // the runtime package that declares it
	doc  []string
	// rt is the runtime's name, when it is not name.
	rt string
}

// aguiAPI lists the names, in the order they are written. Each doc is the
// runtime declaration's, shortened; the runtime's godoc says the rest.
var aguiAPI = []aguiName{
	{"const", "MediaTypeSSE", aguihttpPkg, []string{"MediaTypeSSE is the media type of the SSE event transport."}, ""},
	{"const", "MediaTypeProto", aguihttpPkg, []string{"MediaTypeProto is the media type of the protobuf event transport: frames of a", "4-byte big-endian length and one Event envelope."}, ""},
	{"const", "MaxFrameBytes", aguihttpPkg, []string{"MaxFrameBytes is the most a client reads of one event before failing the", "stream: the data of one SSE event, or one protobuf frame."}, ""},
	{"const", "CapabilitiesPath", aguihttpPkg, []string{"CapabilitiesPath is the route, below an agent's endpoint, of its capabilities", "(GET), the de facto convention of the AG-UI SDKs."}, ""},
	{"const", "CancelPath", aguihttpPkg, []string{"CancelPath is the route, below an agent's endpoint, of the cancel of a run in", "progress (POST)."}, ""},
	{"const", "ResumeIDHeader", aguihttpPkg, []string{"ResumeIDHeader is the response header of a resumable run's start over SSE: the", "id before its first event, which a client cut before it read an event sends as", "Last-Event-ID to read the run from its start."}, ""},
	{"type", "CancelRequest", aguihttpPkg, []string{"CancelRequest is the body of POST {path}/cancel."}, ""},
	{"type", "HTTPError", aguihttpPkg, []string{"HTTPError is a request the server refused: a response status other than 2xx,", "with the start of the body."}, ""},
	{"var", "ErrTruncated", aguihttpPkg, []string{"ErrTruncated is behind the error of a stream that ended while a run was still", "active, or before any run began: the run has no outcome, and must not be taken", "for one that succeeded. What it delivered stays applied."}, ""},
	{"type", "ThreadOwners", threadsPkg, []string{
		"ThreadOwners records who owns each thread. With WithAuthenticator a handler makes",
		"the first caller who runs on a thread its owner; from then on every other caller",
		"is answered as if the thread did not exist: its resumes, cancels, META intake,",
		"queries and replay. A run on it is refused with the same 404. (WithBearerToken and",
		"WithAuthorizer admit callers without telling them apart: under them, as with no",
		"authentication, every thread is everyone's.) The stores that come with agui-gen",
		"(NewMemoryCheckpoints, and the SQL stores) keep owners with the interrupts, so an",
		"owner survives a restart where they do."}, "Owners"},
	{"type", "ThreadAccess", threadsPkg, []string{
		"ThreadAccess decides whether caller may use a thread that owner owns, as if it",
		"were caller's own (run on it, resume its interrupts, send and read its META). It",
		"is asked only when the two differ, and its answer is all another caller learns:",
		"one refused is answered as for a thread that does not exist."}, "Access"},
	{"var", "ErrThreadNotFound", threadsPkg, []string{"ErrThreadNotFound is what a caller learns of a thread it may not use: the same", "as of one that does not exist."}, "ErrNotFound"},
}

// aguiAPINames are the names aguiAPI declares, which generated
// declarations must not take.
func aguiAPINames() []string {
	names := []string{"Checkpoints", "NewMemoryCheckpoints", "CallerFrom", "ContextWithCaller"}
	for _, n := range aguiAPI {
		names = append(names, n.name)
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
		rt := n.rt
		if rt == "" {
			rt = n.name
		}
		switch n.kind {
		case "type":
			f.Type().Id(n.name).Op("=").Qual(n.pkg, rt)
		case "const":
			f.Const().Id(n.name).Op("=").Qual(n.pkg, rt)
		case "var":
			f.Var().Id(n.name).Op("=").Qual(n.pkg, rt)
		}
	}
	emitThreadsAPI(f)
}

// emitThreadsAPI writes what of runtime/threads is generic over the
// package's Interrupt, or a function: wrappers, so godoc lists them as
// functions and calls inline.
func emitThreadsAPI(f *jen.File) {
	ctx := jen.Id("ctx").Qual("context", "Context")
	f.Line()
	f.Comment("Checkpoints keep the interrupts each thread's last run ended with, so a handler")
	f.Comment("can check that the next run's resume answers every one: AG-UI 1.1 says a producer")
	f.Comment("that knows an interrupt is open must not act on an absent entry. Without")
	f.Comment("checkpoints the handler is stateless and the agent checks what it can.")
	f.Type().Id("Checkpoints").Op("=").Qual(threadsPkg, "Checkpoints").Types(jen.Id("Interrupt"))
	f.Line()
	f.Comment("NewMemoryCheckpoints keeps checkpoints in memory, for one process, and is a")
	f.Comment("ThreadOwners too: the owners of threads go with their interrupts.")
	f.Func().Id("NewMemoryCheckpoints").Params().Id("Checkpoints").Block(
		jen.Return(jen.Qual(threadsPkg, "NewMemoryCheckpoints").Types(jen.Id("Interrupt")).Call()),
	)
	f.Line()
	f.Comment("CallerFrom returns the caller WithAuthenticator named for the request whose")
	f.Comment("context ctx is or derives from (\"\" when none did), or the one ContextWithCaller")
	f.Comment("attached.")
	f.Func().Id("CallerFrom").Params(ctx).String().Block(
		jen.Return(jen.Qual(threadsPkg, "CallerFrom").Call(jen.Id("ctx"))),
	)
	f.Line()
	f.Comment("ContextWithCaller attaches a caller to ctx, for runs started in process (Invoke)")
	f.Comment("on behalf of someone an outer layer authenticated: an A2A principal in the bridge,")
	f.Comment("say. The agent finds it in CallerFrom, and Invoke, given thread owners, holds the")
	f.Comment("run's thread to it as a handler would.")
	f.Func().Id("ContextWithCaller").Params(ctx, jen.Id("caller").String()).Qual("context", "Context").Block(
		jen.Return(jen.Qual(threadsPkg, "ContextWithCaller").Call(jen.Id("ctx"), jen.Id("caller"))),
	)
}
