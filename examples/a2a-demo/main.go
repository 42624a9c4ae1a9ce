// Command a2a-demo serves an echo agent over every A2A binding, built on
// the generated packages: the task runtime (gen/a2a/a2atask) keeps its
// tasks in a SQLite file by default, so they survive a restart, and sends
// push notifications; JSON-RPC is at POST /, HTTP+JSON at the proto's
// paths, gRPC on a second port when asked, and the agent card listing them
// at /.well-known/agent-card.json. A streaming call answers with AG-UI
// events instead when asked (Accept: application/x-agui-events, or
// ?format=agui).
//
//	go run ./examples/a2a-demo --addr 127.0.0.1:9000 --grpc-addr 127.0.0.1:9001 [--store sqlite:a2a-demo.db | --store postgres://…]
//	curl -s http://127.0.0.1:9000/.well-known/agent-card.json
//	curl -s -H 'A2A-Version: 1.0' -H 'Content-Type: application/json' http://127.0.0.1:9000/ \
//	  -d '{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"messageId":"m1","role":"ROLE_USER","parts":[{"text":"hello"}]}}}'
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"time"

	"google.golang.org/grpc"

	"github.com/agui-gen/agui-gen/examples/a2a-demo/echo"
	"github.com/agui-gen/agui-gen/gen/a2a"
	"github.com/agui-gen/agui-gen/gen/a2a/a2agrpc"
	"github.com/agui-gen/agui-gen/gen/a2a/a2atask"
	"github.com/agui-gen/agui-gen/gen/a2a/a2atask/pgstore"
	"github.com/agui-gen/agui-gen/gen/a2a/a2atask/sqlitestore"
	"github.com/agui-gen/agui-gen/gen/bridge"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:9000", "HTTP address for JSON-RPC, HTTP+JSON and the card (a bare :port binds 127.0.0.1)")
	grpcAddr := flag.String("grpc-addr", "", "gRPC address; empty serves no gRPC")
	storeURL := flag.String("store", "sqlite:a2a-demo.db", "where tasks live: sqlite:PATH, postgres://… or memory")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	err := func() error {
		l, err := listen(*addr)
		if err != nil {
			return err
		}
		var gl net.Listener
		if *grpcAddr != "" {
			if gl, err = listen(*grpcAddr); err != nil {
				return err
			}
		}
		store, err := openStore(ctx, *storeURL)
		if err != nil {
			return err
		}
		defer store.Close()
		return serve(ctx, l, gl, store)
	}()
	if err != nil {
		fmt.Fprintln(os.Stderr, "a2a-demo:", err)
		os.Exit(1)
	}
}

// store is a task store the demo can close.
type store interface {
	a2atask.Store
	a2atask.PushConfigs
	Close() error
}

type memoryStore struct{ *a2atask.Memory }

func (memoryStore) Close() error { return nil }

func openStore(ctx context.Context, url string) (store, error) {
	switch {
	case url == "memory":
		return memoryStore{a2atask.NewMemory()}, nil
	case strings.HasPrefix(url, "sqlite:"):
		return sqlitestore.Open(ctx, strings.TrimPrefix(url, "sqlite:"))
	case strings.HasPrefix(url, "postgres"):
		return pgstore.Open(ctx, url)
	}
	return nil, fmt.Errorf("--store %q: want sqlite:PATH, postgres://… or memory", url)
}

// echoExecutor answers a message with its text as an artifact.
var echoExecutor = a2atask.ExecutorFunc(func(ctx context.Context, run *a2atask.Run) error {
	if err := run.Working(run.AgentMessage(&a2a.Part{Content: &a2a.PartText{Text: "echoing"}})); err != nil {
		return err
	}
	if err := run.Artifact(&a2a.Artifact{ArtifactID: "echo", Name: "echo", Parts: run.Message.Parts}, false, true); err != nil {
		return err
	}
	return run.Complete(nil)
})

// serve serves the echo agent on l (HTTP) and, when not nil, gl (gRPC),
// keeping tasks in st, until ctx ends.
func serve(ctx context.Context, l, gl net.Listener, st store) error {
	base := "http://" + l.Addr().String()
	card := echo.Card(base)
	push := true
	card.Capabilities.PushNotifications = &push
	agent := a2atask.New(echoExecutor, st, a2atask.WithExtendedCard(card), a2atask.WithPushNotifications(st, a2atask.NewPushSender()))
	defer agent.Close()

	errc := make(chan error, 2)
	if gl != nil {
		// gRPC first: it is the fastest binding for a client that speaks it.
		card.SupportedInterfaces = append([]*a2a.AgentInterface{{URL: gl.Addr().String(),
			ProtocolBinding: a2a.BindingGRPC, ProtocolVersion: a2a.ProtocolVersion}}, card.SupportedInterfaces...)
		// Bounded: message and metadata sizes, streams, idle connections,
		// keepalive.
		gs := grpc.NewServer(append(a2agrpc.ServerOptions(), a2agrpc.UnknownServiceHandler())...)
		a2agrpc.RegisterA2AServiceServer(gs, agent, a2agrpc.WithAgentCard(card))
		go func() { errc <- gs.Serve(gl) }()
		defer gs.Stop()
		slog.Info("a2a-demo: serving gRPC", "addr", gl.Addr().String())
	}
	h, err := a2a.NewHandler(a2a.BindA2AService(agent), card, a2a.WithKeepAlive(15*time.Second),
		a2a.WithStreamFormat(bridge.StreamFormat()))
	if err != nil {
		return err
	}
	// Headers, reading a request and idle connections are bounded; writing
	// is bounded by the handler, write by write, since a stream lasts as
	// long as its task.
	srv := a2a.NewServer(h)
	go func() { errc <- srv.Serve(l) }()
	slog.Info("a2a-demo: serving", "card", base+a2a.WellKnownCardPath, "jsonrpc", base, "rest", base)
	select {
	case <-ctx.Done():
		shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		return srv.Shutdown(shutdown)
	case err := <-errc:
		if errors.Is(err, http.ErrServerClosed) {
			return nil
		}
		return err
	}
}

// listen binds addr; a bare ":port" binds loopback only, as a demo should.
func listen(addr string) (net.Listener, error) {
	if strings.HasPrefix(addr, ":") {
		addr = "127.0.0.1" + addr
	}
	return net.Listen("tcp", addr)
}
