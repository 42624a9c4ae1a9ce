// Command a2abenchserver serves one A2A agent over JSON-RPC on loopback
// for the binding benchmark (interop/a2a_bench_test.go): with the server
// gen/a2a generates, or with a2a-go v2's, so the two run as separate
// processes whose CPU time can be read. It prints its URL and serves until
// stdin closes.
//
//	a2abenchserver -impl agui-gen|a2a-go|runtime -reply message|task [-store memory|sqlite:PATH|postgres://…]
//
// agui-gen answers with the echo agent kept in a map; runtime with the task
// runtime (gen/a2a/a2atask) on the store named.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"iter"
	"log/slog"
	"net"
	"net/http"
	"os"
	"runtime/pprof"
	"strings"

	a2ago "github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2asrv"

	"github.com/agui-gen/agui-gen/examples/a2a-demo/echo"
	"github.com/agui-gen/agui-gen/gen/a2a"
	"github.com/agui-gen/agui-gen/gen/a2a/a2atask"
	"github.com/agui-gen/agui-gen/gen/a2a/a2atask/pgstore"
	"github.com/agui-gen/agui-gen/gen/a2a/a2atask/sqlitestore"
)

func main() {
	impl := flag.String("impl", "agui-gen", "agui-gen or a2a-go")
	reply := flag.String("reply", "message", "message: answer with a Message; task: create a task and complete it")
	storeURL := flag.String("store", "memory", "the task runtime's store: memory, sqlite:PATH or postgres://…")
	cpuProfile := flag.String("cpuprofile", "", "write a CPU profile of the whole run to this file")
	flag.Parse()
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err == nil {
			err = pprof.StartCPUProfile(f)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
	slog.SetDefault(slog.New(slog.NewTextHandler(io.Discard, nil)))
	var h http.Handler
	switch *impl {
	case "agui-gen":
		var srv a2a.A2AServiceServer = messageAgent{}
		if *reply == "task" {
			srv = echo.New()
		}
		h = a2a.NewJSONRPCHandler(a2a.BindA2AService(srv))
	case "a2a-go":
		h = a2asrv.NewJSONRPCHandler(a2asrv.NewHandler(goExecutor{task: *reply == "task"}))
	case "runtime":
		store, err := openStore(*storeURL)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		h = a2a.NewJSONRPCHandler(a2a.BindA2AService(a2atask.New(artifactExecutor, store)))
	default:
		fmt.Fprintln(os.Stderr, "unknown -impl", *impl)
		os.Exit(2)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Printf("http://%s\n", l.Addr())
	go func() {
		io.Copy(io.Discard, os.Stdin)
		pprof.StopCPUProfile()
		os.Exit(0)
	}()
	http.Serve(l, h)
}

func openStore(url string) (a2atask.Store, error) {
	switch {
	case url == "memory":
		return a2atask.NewMemory(), nil
	case strings.HasPrefix(url, "sqlite:"):
		return sqlitestore.Open(context.Background(), strings.TrimPrefix(url, "sqlite:"))
	case strings.HasPrefix(url, "postgres"):
		return pgstore.Open(context.Background(), url)
	}
	return nil, fmt.Errorf("-store %q: want memory, sqlite:PATH or postgres://…", url)
}

// artifactExecutor does what goExecutor's task does: one artifact, then
// completion.
var artifactExecutor = a2atask.ExecutorFunc(func(ctx context.Context, run *a2atask.Run) error {
	return run.Artifact(&a2a.Artifact{ArtifactID: "echo", Parts: run.Message.Parts}, false, true)
})

// messageAgent answers SendMessage with a message echoing the text.
type messageAgent struct {
	a2a.UnimplementedA2AServiceServer
}

func (messageAgent) SendMessage(ctx context.Context, req *a2a.SendMessageRequest) (*a2a.SendMessageResponse, error) {
	in := req.Message
	return &a2a.SendMessageResponse{Payload: &a2a.SendMessageResponseMessage{Message: &a2a.Message{
		MessageID: in.MessageID + "-reply", ContextID: in.ContextID, Role: a2a.RoleAgent, Parts: in.Parts}}}, nil
}

// goExecutor is the same agent on a2a-go: a message, or a task that
// completes with the echo as its artifact.
type goExecutor struct{ task bool }

func (e goExecutor) Execute(ctx context.Context, ec *a2asrv.ExecutorContext) iter.Seq2[a2ago.Event, error] {
	return func(yield func(a2ago.Event, error) bool) {
		if !e.task {
			yield(a2ago.NewMessageForTask(a2ago.MessageRoleAgent, ec, ec.Message.Parts...), nil)
			return
		}
		if !yield(a2ago.NewSubmittedTask(ec, ec.Message), nil) {
			return
		}
		if !yield(a2ago.NewArtifactEvent(ec, ec.Message.Parts...), nil) {
			return
		}
		yield(a2ago.NewStatusUpdateEvent(ec, a2ago.TaskStateCompleted, nil), nil)
	}
}

func (goExecutor) Cancel(ctx context.Context, ec *a2asrv.ExecutorContext) iter.Seq2[a2ago.Event, error] {
	return func(yield func(a2ago.Event, error) bool) {}
}
