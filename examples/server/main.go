// Command server serves one agent over AG-UI and A2A, on the packages
// agui-gen generated:
//
//   - GET  /                    a chat page (web/), on @ag-ui/client
//   - POST /agui                AG-UI runs (SSE, or protobuf when asked);
//     /agui/capabilities, /agui/cancel, and /agui/meta for feedback
//   - POST /                    A2A JSON-RPC; HTTP+JSON at the proto's paths;
//     the card at /.well-known/agent-card.json; gRPC on --grpc-addr
//
// The A2A side runs the same agent through the bridge, with its tasks in
// the task runtime; tasks, feedback and interrupts live in SQLite (--db
// FILE) or PostgreSQL (--db postgres://…).
//
//	go run . --addr 127.0.0.1:8000
//
// agui-gen scaffold wrote this program once; it is yours to change. The
// packages it imports are generated: regenerate them, never edit them.
package main

import (
	"context"
	"embed"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"google.golang.org/grpc"

	"github.com/agui-gen/agui-gen/gen/a2a"
	"github.com/agui-gen/agui-gen/gen/a2a/a2aauth"
	"github.com/agui-gen/agui-gen/gen/a2a/a2agrpc"
	"github.com/agui-gen/agui-gen/gen/a2a/a2atask"
	"github.com/agui-gen/agui-gen/gen/a2a/a2atask/pgstore"
	"github.com/agui-gen/agui-gen/gen/a2a/a2atask/sqlitestore"
	"github.com/agui-gen/agui-gen/gen/agui"
	"github.com/agui-gen/agui-gen/gen/agui/metapg"
	"github.com/agui-gen/agui-gen/gen/agui/metasqlite"
	"github.com/agui-gen/agui-gen/gen/bridge"
)

//go:embed web
var web embed.FS

// config is what the flags set.
type config struct {
	addr, grpcAddr, baseURL, db, token string
	pace                               time.Duration
}

func main() {
	var cfg config
	flag.StringVar(&cfg.addr, "addr", "127.0.0.1:8000", "HTTP address (a bare :port binds 127.0.0.1)")
	flag.StringVar(&cfg.grpcAddr, "grpc-addr", "", "gRPC address for A2A; empty serves no gRPC")
	flag.StringVar(&cfg.baseURL, "base-url", "", "external URL the agent card names (default http://ADDR)")
	flag.StringVar(&cfg.db, "db", "server.db", "SQLite file, or a postgres:// URL, for tasks and feedback")
	flag.StringVar(&cfg.token, "token", os.Getenv("AGENT_TOKEN"), "bearer token callers must present (default $AGENT_TOKEN; empty: no authentication)")
	flag.DurationVar(&cfg.pace, "pace", 40*time.Millisecond, "pause between the words the scripted agent streams")
	flag.Parse()

	logger := slog.New(slog.NewTextHandler(os.Stderr, nil))
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, cfg, logger, nil); err != nil {
		logger.Error("server stopped", "err", err)
		os.Exit(1)
	}
}

// run serves until ctx ends; ready, when set, is told the HTTP address once
// it listens.
func run(ctx context.Context, cfg config, logger *slog.Logger, ready func(addr string)) error {
	l, err := listen(cfg.addr)
	if err != nil {
		return err
	}
	base := cfg.baseURL
	if base == "" {
		base = "http://" + l.Addr().String()
	}
	st, err := openStores(ctx, cfg.db)
	if err != nil {
		return err
	}
	defer st.close()

	agent := &scriptedAgent{pace: cfg.pace}
	card := agentCard(base)
	aguiOpts := []agui.Option{
		agui.WithLogger(logger),
		agui.WithKeepAlive(15 * time.Second),
		agui.WithCapabilities(capabilities()),
		agui.WithCheckpoints(agui.NewMemoryCheckpoints()), // this process's; replicas need a shared Checkpoints
		agui.WithMetaStore(st.meta),
		agui.WithMetaReplay(),
	}
	a2aOpts := []a2a.ServerOption{a2a.WithLogger(logger), a2a.WithKeepAlive(15 * time.Second), a2a.WithStreamFormat(bridge.StreamFormat())}
	var grpcOpts []a2agrpc.ServerOption
	if cfg.token != "" {
		aguiOpts = append(aguiOpts, agui.WithBearerToken(cfg.token))
		card.SecuritySchemes = map[string]*a2a.SecurityScheme{"bearer": {Scheme: &a2a.SecuritySchemeHTTPAuthSecurityScheme{
			HTTPAuthSecurityScheme: &a2a.HTTPAuthSecurityScheme{Scheme: "Bearer"}}}}
		card.SecurityRequirements = []*a2a.SecurityRequirement{{Schemes: map[string]*a2a.StringList{"bearer": {}}}}
		auth, err := a2aauth.New(card, a2aauth.Verifiers{Token: a2aauth.StaticTokens(map[string]string{cfg.token: "user"})})
		if err != nil {
			return err
		}
		a2aOpts = append(a2aOpts, a2a.WithAuthenticator(auth.HTTP))
		grpcOpts = append(grpcOpts, a2agrpc.WithAuthenticator(auth.GRPC))
	}

	tasks := a2atask.New(&bridge.Executor{Agent: agent}, st.tasks, a2atask.WithLogger(logger))
	defer tasks.Close()

	errc := make(chan error, 2)
	if cfg.grpcAddr != "" {
		gl, err := listen(cfg.grpcAddr)
		if err != nil {
			return err
		}
		card.SupportedInterfaces = append(card.SupportedInterfaces, &a2a.AgentInterface{
			URL: gl.Addr().String(), ProtocolBinding: a2a.BindingGRPC, ProtocolVersion: a2a.ProtocolVersion})
		gs := grpc.NewServer()
		a2agrpc.RegisterA2AServiceServer(gs, tasks, grpcOpts...)
		go func() { errc <- gs.Serve(gl) }()
		defer gs.GracefulStop()
		logger.Info("serving A2A over gRPC", "addr", gl.Addr().String())
	}
	a2aHandler, err := a2a.NewHandler(a2a.BindA2AService(tasks), card, a2aOpts...)
	if err != nil {
		return err
	}
	page, err := fs.Sub(web, "web")
	if err != nil {
		return err
	}
	aguiHandler := agui.NewHandler(agent, aguiOpts...)
	mux := http.NewServeMux()
	mux.Handle("GET /{$}", http.FileServerFS(page))
	mux.Handle("GET /web/", http.StripPrefix("/web/", http.FileServerFS(page)))
	mux.Handle("/agui", aguiHandler)
	mux.Handle("/agui/", aguiHandler)
	mux.Handle("/", a2aHandler)

	// Reading a request is bounded; writing is not, since a stream lasts
	// as long as its run.
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second, ReadTimeout: time.Minute, IdleTimeout: 2 * time.Minute,
		ErrorLog: slog.NewLogLogger(logger.Handler(), slog.LevelWarn)}
	go func() { errc <- srv.Serve(l) }()
	logger.Info("serving", "page", base+"/", "agui", base+"/agui", "a2a", base+"/", "card", base+a2a.WellKnownCardPath)
	if ready != nil {
		ready(l.Addr().String())
	}
	select {
	case <-ctx.Done():
		logger.Info("shutting down")
		shutdown, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		return srv.Shutdown(shutdown)
	case err := <-errc:
		if errors.Is(err, http.ErrServerClosed) {
			return nil
		}
		return err
	}
}

// agentCard describes the agent to A2A clients.
func agentCard(base string) *a2a.AgentCard {
	streaming := true
	return &a2a.AgentCard{
		Name:                "scripted-agent",
		Description:         "Answers from a script: weather with a tool call, and a confirmation before deleting.",
		Version:             "0.1.0",
		SupportedInterfaces: a2a.Interfaces(base),
		Capabilities:        &a2a.AgentCapabilities{Streaming: &streaming},
		DefaultInputModes:   []string{"text/plain"},
		DefaultOutputModes:  []string{"text/plain"},
		Skills: []*a2a.AgentSkill{{ID: "weather", Name: "Weather", Description: "Tells the weather in a city.",
			Tags: []string{"weather"}, Examples: []string{"What is the weather in Paris?"}}},
	}
}

// stores are where the server keeps tasks and feedback.
type stores struct {
	tasks a2atask.Store
	meta  agui.MetaStore
	close func()
}

// openStores opens PostgreSQL for a postgres:// URL, else a SQLite file.
func openStores(ctx context.Context, db string) (*stores, error) {
	if strings.HasPrefix(db, "postgres://") || strings.HasPrefix(db, "postgresql://") {
		// The URL may hold a password: errors do not repeat it.
		tasks, err := pgstore.Open(ctx, db)
		if err != nil {
			return nil, fmt.Errorf("tasks in PostgreSQL: %w", err)
		}
		meta, err := metapg.Open(ctx, db)
		if err != nil {
			tasks.Close()
			return nil, fmt.Errorf("feedback in PostgreSQL: %w", err)
		}
		return &stores{tasks, meta, func() { meta.Close(); tasks.Close() }}, nil
	}
	tasks, err := sqlitestore.Open(ctx, db)
	if err != nil {
		return nil, fmt.Errorf("tasks in %s: %w", db, err)
	}
	meta, err := metasqlite.Open(ctx, db)
	if err != nil {
		tasks.Close()
		return nil, fmt.Errorf("feedback in %s: %w", db, err)
	}
	return &stores{tasks, meta, func() { meta.Close(); tasks.Close() }}, nil
}

// listen binds addr; a bare ":port" binds loopback only.
func listen(addr string) (net.Listener, error) {
	if strings.HasPrefix(addr, ":") {
		addr = "127.0.0.1" + addr
	}
	return net.Listen("tcp", addr)
}
