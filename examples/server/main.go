// Command server serves one agent over AG-UI and A2A, on the packages
// agui-gen generated:
//
//   - GET  /                    a chat page (web/), on @ag-ui/client
//   - POST /agui                AG-UI runs as SSE, or as protobuf frames when
//     the Accept header names application/vnd.ag-ui.event+proto and
//     prefers it (curl's */* gets SSE); /agui/capabilities, /agui/cancel,
//     and /agui/meta for feedback
//   - POST /                    A2A JSON-RPC; HTTP+JSON at the proto's paths;
//     the card at /.well-known/agent-card.json; gRPC on --grpc-addr
//
// The A2A side runs the same agent through the bridge, with its tasks in
// the task runtime; tasks, feedback and interrupts live in SQLite (--db
// FILE) or PostgreSQL (--db postgres://…).
//
//	go run . --addr 127.0.0.1:8000 --token secret   # then open /#token=secret
//
// --tokens FILE names several callers, each with its own token: a caller
// sees only its own AG-UI threads (their feedback and interrupts) and A2A
// tasks, and another's are answered as if they did not exist.
//
// On SIGINT or SIGTERM it stops listening and gives the requests in flight
// --shutdown-grace to finish; then it stops the runs still going (an AG-UI
// stream ends with RUN_ERROR, an A2A task fails saying why) and exits 0. A
// second signal ends it at once.
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
	"net/url"
	"os"
	"os/signal"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
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
	addr, grpcAddr, baseURL, grpcURL, db, token, tokens string
	// a2aAgent, when set, is the A2A agent the AG-UI endpoint answers with,
	// through the bridge, and a2aAgentToken its bearer token.
	a2aAgent, a2aAgentToken string
	// corsOrigins are the origins whose pages may call the server
	// (--cors-origin).
	corsOrigins []string
	pace, grace time.Duration
}

func main() {
	var cfg config
	flag.StringVar(&cfg.addr, "addr", "127.0.0.1:8000", "HTTP `address` to listen on; unlike Go's usual rule, a bare :port binds 127.0.0.1 only (give 0.0.0.0:port to serve every interface)")
	flag.StringVar(&cfg.grpcAddr, "grpc-addr", "", "gRPC `address` for A2A, empty for no gRPC; as with --addr, a bare :port binds 127.0.0.1 only")
	flag.StringVar(&cfg.baseURL, "base-url", "", "`URL` clients reach the HTTP server at, which the agent card names (default http://ADDR)")
	flag.StringVar(&cfg.grpcURL, "grpc-url", "", "`address` clients reach gRPC at, which the agent card names (default: the gRPC listener's)")
	flag.StringVar(&cfg.db, "db", "server.db", "SQLite `file`, or a postgres:// URL, for tasks and feedback")
	flag.StringVar(&cfg.token, "token", "", "bearer `token` callers must present (default $AGENT_TOKEN; empty: no authentication)")
	flag.StringVar(&cfg.tokens, "tokens", "", "`file` of callers and their bearer tokens, a \"name token\" pair a line: each caller sees only its own threads and tasks")
	flag.StringVar(&cfg.a2aAgent, "a2a-agent", "", "answer AG-UI runs with the A2A agent at this `URL` (its card's), through the bridge, rather than the scripted agent")
	flag.StringVar(&cfg.a2aAgentToken, "a2a-agent-token", "", "bearer `token` for --a2a-agent (default $A2A_AGENT_TOKEN)")
	flag.Func("cors-origin", "let pages of this `origin` (scheme://host:port, as http://localhost:5173) call AG-UI and A2A from a browser; repeat it for more origins", func(origin string) error {
		if origin == "" || strings.HasSuffix(origin, "/") {
			return errors.New("give an origin as the browser sends it: scheme://host:port, without a path or a trailing /")
		}
		cfg.corsOrigins = append(cfg.corsOrigins, origin)
		return nil
	})
	flag.DurationVar(&cfg.pace, "pace", 40*time.Millisecond, "pause between the words the scripted agent streams")
	flag.DurationVar(&cfg.grace, "shutdown-grace", 10*time.Second, "on SIGINT or SIGTERM, how long requests in flight have to finish before their runs are stopped")
	flag.Parse()
	if cfg.token == "" {
		// Read here rather than as the flag's default, which -help would print.
		cfg.token = os.Getenv("AGENT_TOKEN")
	}
	if cfg.a2aAgentToken == "" {
		cfg.a2aAgentToken = os.Getenv("A2A_AGENT_TOKEN")
	}

	logger := slog.New(slog.NewTextHandler(os.Stderr, nil))
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	// The first signal starts the shutdown; stop gives the signals back
	// their default action, so a second one ends the process at once.
	context.AfterFunc(ctx, stop)
	if err := run(ctx, cfg, logger, nil); err != nil {
		logger.Error("the server could not go on", "err", err)
		os.Exit(1)
	}
}

// run serves until ctx ends, then shuts down (see shutdown); ready, when
// set, is told the HTTP address once it listens.
func run(ctx context.Context, cfg config, logger *slog.Logger, ready func(addr string)) error {
	db, err := parseDB(cfg.db)
	if err != nil {
		return err
	}
	// Records logged inside a span carry its trace_id and span_id.
	logger = slog.New(agui.LogHandler(logger.Handler()))
	stopTelemetry, err := setupTelemetry(ctx, logger)
	if err != nil {
		return err
	}
	defer func() {
		// Flush what is buffered, within a bound: a collector that is down
		// must not hold the exit.
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := stopTelemetry(ctx); err != nil {
			logger.Warn("flushing telemetry", "err", err)
		}
	}()
	if cfg.grpcURL != "" && cfg.grpcAddr == "" {
		return errors.New("--grpc-url names the gRPC server, but there is none without --grpc-addr")
	}
	l, err := agui.Listen(cfg.addr)
	if err != nil {
		return fmt.Errorf("cannot listen on --addr %s: %w", cfg.addr, err)
	}
	defer l.Close()
	base := strings.TrimSuffix(cfg.baseURL, "/")
	if base == "" {
		base = "http://" + advertised(l.Addr(), logger, "--base-url")
	}
	st, err := openStores(ctx, db)
	if err != nil {
		return err
	}
	defer st.close()
	logger.Info("keeping tasks and feedback", db.logAttrs()...)

	// Past the grace period the runs still going are halted, which lets
	// each end its stream with a last event; only then are the requests
	// that remain cut off, by cancelling their base context.
	halt, haltAGUI := context.WithCancel(context.Background())
	defer haltAGUI()
	requests, cancelRequests := context.WithCancel(context.Background())
	defer cancelRequests()

	agent := &scriptedAgent{pace: cfg.pace}
	card := agentCard(base)
	// The AG-UI endpoint's agent: the scripted one, or an A2A agent through
	// the bridge.
	var aguiAgent agui.Agent = agent
	agentName, caps := card.Name, capabilities()
	if cfg.a2aAgent != "" {
		remote, err := a2aAgent(ctx, cfg)
		if err != nil {
			return err
		}
		aguiAgent, agentName, caps = remote, remote.Card.Name, bridge.CapabilitiesFromCard(remote.Card)
		logger.Info("answering AG-UI runs with an A2A agent", "agent", agentName, "url", cfg.a2aAgent)
	}
	aguiOpts := []agui.Option{
		agui.WithLogger(logger),
		// Spans and metrics go to the global providers setupTelemetry set.
		agui.WithTelemetry(&agui.Telemetry{AgentName: agentName}),
		agui.WithKeepAlive(15 * time.Second),
		agui.WithCapabilities(caps),
		// Interrupts and, once callers are told apart, each thread's owner,
		// in the database: replicas share them.
		agui.WithCheckpoints(st.threads),
		agui.WithMetaStore(st.meta),
		agui.WithMetaReplay(),
	}
	a2aOpts := []a2a.ServerOption{a2a.WithLogger(logger), a2a.WithKeepAlive(15 * time.Second), a2a.WithStreamFormat(bridge.StreamFormat())}
	grpcOpts := []a2agrpc.ServerOption{a2agrpc.WithAgentCard(card)} // held to the card, as NewHandler holds HTTP calls
	if len(cfg.corsOrigins) > 0 {
		// Pages of these origins may call the server from a browser: their
		// preflights are answered, and they may read the answers. The
		// bearer token goes in a header, so no credentials are needed.
		aguiOpts = append(aguiOpts, agui.WithCORS(agui.CORS{AllowedOrigins: cfg.corsOrigins, MaxAge: 10 * time.Minute}))
		a2aOpts = append(a2aOpts, a2a.WithCORS(a2a.CORS{AllowedOrigins: cfg.corsOrigins, MaxAge: 10 * time.Minute}))
		logger.Info("CORS is on: pages of these origins may call the server", "origins", strings.Join(cfg.corsOrigins, " "))
	}
	tokens, err := callerTokens(cfg)
	if err != nil {
		return err
	}
	if len(tokens) > 0 {
		card.SecuritySchemes = map[string]*a2a.SecurityScheme{"bearer": {Scheme: &a2a.SecuritySchemeHTTPAuthSecurityScheme{
			HTTPAuthSecurityScheme: &a2a.HTTPAuthSecurityScheme{Scheme: "Bearer"}}}}
		card.SecurityRequirements = []*a2a.SecurityRequirement{{Schemes: map[string]*a2a.StringList{"bearer": {}}}}
		auth, err := a2aauth.New(card, a2aauth.Verifiers{Token: a2aauth.StaticTokens(tokens)})
		if err != nil {
			return err
		}
		// One caller on both protocols: AG-UI threads and A2A tasks are
		// each their caller's, and another caller is told they do not
		// exist.
		aguiOpts = append(aguiOpts, agui.WithAuthenticator(func(r *http.Request) (string, error) {
			p, err := auth.HTTP(r)
			if err != nil {
				return "", err
			}
			return fmt.Sprint(p), nil // the owner a2atask names the principal
		}))
		a2aOpts = append(a2aOpts, a2a.WithAuthenticator(auth.HTTP))
		grpcOpts = append(grpcOpts, a2agrpc.WithAuthenticator(auth.GRPC))
	}

	// The bridge holds the AG-UI thread an A2A message names as its
	// context to the same owners.
	executor := &bridge.Executor{Agent: agent, Options: []agui.Option{agui.WithCheckpoints(st.threads)}}
	tasks := a2atask.New(executor, st.tasks, a2atask.WithLogger(logger))
	defer tasks.Close()

	errc := make(chan error, 2)
	var gs *grpc.Server
	if cfg.grpcAddr != "" {
		gl, err := agui.Listen(cfg.grpcAddr)
		if err != nil {
			return fmt.Errorf("cannot listen on --grpc-addr %s: %w", cfg.grpcAddr, err)
		}
		defer gl.Close()
		grpcURL := cfg.grpcURL
		if grpcURL == "" {
			grpcURL = advertised(gl.Addr(), logger, "--grpc-url")
		}
		card.SupportedInterfaces = append(card.SupportedInterfaces, &a2a.AgentInterface{
			URL: grpcURL, ProtocolBinding: a2a.BindingGRPC, ProtocolVersion: a2a.ProtocolVersion})
		// Bounded (message and metadata sizes, streams, idle connections,
		// keepalive), and a caller authenticated before its message is read.
		gs = grpc.NewServer(append(a2agrpc.ServerOptions(grpcOpts...), a2agrpc.UnknownServiceHandler(grpcOpts...))...)
		a2agrpc.RegisterA2AServiceServer(gs, tasks, grpcOpts...)
		go func() { errc <- gs.Serve(gl) }()
		defer gs.Stop()
		logger.Info("serving A2A over gRPC", "addr", gl.Addr().String(), "card", grpcURL)
	}
	a2aHandler, err := a2a.NewHandler(a2a.BindA2AService(tasks), card, a2aOpts...)
	if err != nil {
		return err
	}
	page, err := fs.Sub(web, "web")
	if err != nil {
		return err
	}
	aguiHandler := agui.NewHandler(haltingAgent{Agent: aguiAgent, halt: halt}, aguiOpts...)
	mux := http.NewServeMux()
	mux.Handle("GET /{$}", http.FileServerFS(page))
	mux.Handle("GET /web/", http.StripPrefix("/web/", http.FileServerFS(page)))
	mux.HandleFunc("GET /favicon.ico", func(w http.ResponseWriter, r *http.Request) {
		// Browsers ask for it whatever the page links; the page's icon.
		w.Header().Set("Content-Type", "image/svg+xml")
		http.ServeFileFS(w, r, page, "favicon.svg")
	})
	mux.Handle("/agui", aguiHandler)
	mux.Handle("/agui/", aguiHandler)
	mux.Handle("/", a2aHandler)

	// Headers, reading a request and idle connections are bounded; writing
	// is bounded by the handlers, write by write, since a stream lasts as
	// long as its run.
	srv := agui.NewServer(logRequests(logger, mux))
	srv.ErrorLog = slog.NewLogLogger(logger.Handler(), slog.LevelWarn)
	srv.BaseContext = func(net.Listener) context.Context { return requests }
	go func() { errc <- srv.Serve(l) }()
	defer srv.Close()
	logger.Info("serving", "page", base+"/", "agui", base+"/agui", "a2a", base+"/", "card", base+a2a.WellKnownCardPath)
	if len(tokens) > 0 {
		logger.Info("bearer auth is on: callers send Authorization: Bearer TOKEN, and the page reads the token from its URL", "open", base+"/#token=TOKEN")
	} else {
		logger.Info("bearer auth is off: anyone who reaches the server may use it (--token or $AGENT_TOKEN sets a token)")
	}
	if ready != nil {
		ready(l.Addr().String())
	}
	select {
	case err := <-errc:
		return err // a server failed: the deferred calls stop the rest
	case <-ctx.Done():
	}
	haltRuns := func() {
		haltAGUI()
		// Close fails the tasks still working, saying the server shut
		// down, once their executors return; the deferred Close waits for
		// them.
		go tasks.Close()
	}
	shutdown(logger, cfg.grace, srv, gs, haltRuns, cancelRequests)
	return nil
}

// shutdown stops the servers. They stop listening, and the requests in
// flight have grace to finish. Then haltRuns stops the runs still going:
// an AG-UI stream ends with RUN_ERROR, an A2A task fails, and its stream
// ends with that. What remains after lastWords is cut off:
// cancelRequests ends the requests' contexts and the connections close.
func shutdown(logger *slog.Logger, grace time.Duration, srv *http.Server, gs *grpc.Server, haltRuns, cancelRequests func()) {
	logger.Info("shutting down: requests in flight may finish; a second signal stops at once", "grace", grace)
	var wg sync.WaitGroup
	wg.Go(func() {
		// Shutdown returns when every connection is idle, or closed by Close.
		if err := srv.Shutdown(context.Background()); err != nil {
			logger.Warn("closing the HTTP listener", "err", err)
		}
	})
	if gs != nil {
		wg.Go(gs.GracefulStop)
	}
	idle := make(chan struct{})
	go func() { wg.Wait(); close(idle) }()
	if waitFor(idle, grace) {
		return
	}
	logger.Warn("the grace period is over: stopping the runs still going", "grace", grace)
	haltRuns()
	if waitFor(idle, lastWords) {
		return
	}
	logger.Warn("cutting off the requests still open")
	cancelRequests()
	srv.Close()
	if gs != nil {
		gs.Stop()
	}
	<-idle
}

// lastWords is how long halted runs have to send their last event.
const lastWords = 2 * time.Second

// waitFor reports whether done closes within d.
func waitFor(done <-chan struct{}, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-done:
		return true
	case <-t.C:
		return false
	}
}

// haltingAgent stops its runs when halt is done, ending them with
// RUN_ERROR so that a client learns why its stream ends.
type haltingAgent struct {
	agui.Agent
	halt context.Context
}

var errHalted = errors.New("the server is shutting down")

// Run implements agui.Agent.
func (a haltingAgent) Run(ctx context.Context, in *agui.RunAgentInput, s *agui.Stream) error {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	stop := context.AfterFunc(a.halt, func() { cancel(errHalted) })
	defer stop()
	err := a.Agent.Run(ctx, in, s)
	if err != nil && errors.Is(context.Cause(ctx), errHalted) {
		return &agui.RunError{Message: "the server is shutting down; try again later", Code: "server_shutdown"}
	}
	return err
}

// logRequests logs a line for each request once it is answered: its
// method, path, status and how long it took (a stream's whole life).
func logRequests(logger *slog.Logger, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		sw := &statusWriter{ResponseWriter: w}
		next.ServeHTTP(sw, r)
		logger.Info("request", "method", r.Method, "path", r.URL.Path, "status", sw.status(), "duration", time.Since(start).Round(time.Microsecond))
	})
}

// statusWriter remembers the status a handler answered with. The bindings
// reach the connection's deadlines and flushing through Unwrap.
type statusWriter struct {
	http.ResponseWriter
	code int
}

func (s *statusWriter) WriteHeader(code int) {
	if s.code == 0 {
		s.code = code
	}
	s.ResponseWriter.WriteHeader(code)
}

func (s *statusWriter) Write(b []byte) (int, error) {
	if s.code == 0 {
		s.code = http.StatusOK
	}
	return s.ResponseWriter.Write(b)
}

func (s *statusWriter) Flush() { _ = http.NewResponseController(s.ResponseWriter).Flush() }

func (s *statusWriter) Unwrap() http.ResponseWriter { return s.ResponseWriter }

func (s *statusWriter) status() int {
	if s.code == 0 {
		return http.StatusOK
	}
	return s.code
}

// agentCard describes the agent to A2A clients.
// a2aAgent is the A2A agent at cfg.a2aAgent, as an AG-UI agent: its card
// read, and a client of the binding it prefers.
func a2aAgent(ctx context.Context, cfg config) (*bridge.A2AAgent, error) {
	var opts []a2a.ClientOption
	if cfg.a2aAgentToken != "" {
		opts = append(opts, a2a.WithHeader("Authorization", "Bearer "+cfg.a2aAgentToken))
	}
	card, err := a2a.ResolveCard(ctx, cfg.a2aAgent, opts...)
	if err != nil {
		return nil, fmt.Errorf("--a2a-agent %s: %w", cfg.a2aAgent, err)
	}
	tr, _, err := a2a.NewTransportFromCard(card, opts...)
	if err != nil {
		return nil, fmt.Errorf("--a2a-agent %s: %w", cfg.a2aAgent, err)
	}
	return &bridge.A2AAgent{Client: a2a.NewA2AServiceClient(tr), Card: card}, nil
}

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

// advertised is the host:port the agent card names for a listener that no
// flag names. A wildcard address is nowhere to connect to: the card names
// localhost instead, and a warning says that other machines need flag.
func advertised(addr net.Addr, logger *slog.Logger, flag string) string {
	tcp, ok := addr.(*net.TCPAddr)
	if !ok || !tcp.IP.IsUnspecified() {
		return addr.String()
	}
	hostPort := net.JoinHostPort("localhost", strconv.Itoa(tcp.Port))
	logger.Warn("listening on every interface, but the agent card names "+hostPort+", which other machines cannot reach: give "+flag,
		"addr", addr.String())
	return hostPort
}

// database is where --db says to keep tasks and feedback.
type database struct {
	postgres bool
	// dsn is the SQLite file, or the PostgreSQL URL with its scheme in
	// lower case (pgx knows no other).
	dsn string
}

// keyValueDSN matches the start of a key=value connection string, such as
// "host=db user=agent password=…".
var keyValueDSN = regexp.MustCompile(`^\s*[A-Za-z_]+\s*=`)

// parseDB reads --db: a postgres:// or postgresql:// URL, the scheme in any
// case, or else a SQLite file. A URL of another scheme, or a key=value
// connection string, is refused rather than taken for a file name; the
// error does not repeat it, since it may hold a password.
func parseDB(s string) (database, error) {
	if scheme, rest, ok := strings.Cut(s, "://"); ok {
		switch scheme = strings.ToLower(scheme); scheme {
		case "postgres", "postgresql":
			return database{postgres: true, dsn: scheme + "://" + rest}, nil
		}
		return database{}, errors.New("--db is a URL, but not a postgres:// one: give a postgres:// URL or a SQLite file")
	}
	if keyValueDSN.MatchString(s) {
		return database{}, errors.New("--db looks like a key=value connection string: give PostgreSQL as a postgres:// URL, or a SQLite file")
	}
	return database{dsn: s}, nil
}

// logAttrs describe the database for the log, without credentials.
func (d database) logAttrs() []any {
	if !d.postgres {
		file, err := filepath.Abs(d.dsn)
		if err != nil {
			file = d.dsn
		}
		return []any{"store", "sqlite", "file", file}
	}
	u, err := url.Parse(d.dsn)
	if err != nil {
		return []any{"store", "postgres"}
	}
	return []any{"store", "postgres", "host", u.Host, "database", strings.TrimPrefix(u.Path, "/")}
}

// stores are where the server keeps tasks, feedback, and each AG-UI
// thread's owner and open interrupts.
type stores struct {
	tasks   a2atask.Store
	meta    agui.MetaStore
	threads agui.Checkpoints
	close   func()
}

// openStores opens the database's stores.
func openStores(ctx context.Context, db database) (*stores, error) {
	if db.postgres {
		// The URL may hold a password: errors do not repeat it.
		tasks, err := pgstore.Open(ctx, db.dsn)
		if err != nil {
			return nil, fmt.Errorf("tasks in PostgreSQL: %w", err)
		}
		meta, err := metapg.Open(ctx, db.dsn)
		if err != nil {
			tasks.Close()
			return nil, fmt.Errorf("feedback in PostgreSQL: %w", err)
		}
		return &stores{tasks: tasks, meta: meta, threads: meta, close: func() { meta.Close(); tasks.Close() }}, nil
	}
	tasks, err := sqlitestore.Open(ctx, db.dsn)
	if err != nil {
		return nil, fmt.Errorf("tasks in %s: %w", db.dsn, err)
	}
	meta, err := metasqlite.Open(ctx, db.dsn)
	if err != nil {
		tasks.Close()
		return nil, fmt.Errorf("feedback in %s: %w", db.dsn, err)
	}
	return &stores{tasks: tasks, meta: meta, threads: meta, close: func() { meta.Close(); tasks.Close() }}, nil
}

// callerTokens are the bearer tokens callers may present, each naming its
// caller: --token's is the caller "user"; --tokens adds a file of "name
// token" lines (blank lines and # comments aside). The errors name the
// file and line, never a token.
func callerTokens(cfg config) (map[string]string, error) {
	tokens := map[string]string{}
	if cfg.token != "" {
		tokens[cfg.token] = "user"
	}
	if cfg.tokens == "" {
		return tokens, nil
	}
	data, err := os.ReadFile(cfg.tokens)
	if err != nil {
		return nil, fmt.Errorf("--tokens: %w", err)
	}
	for i, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Fields(line)
		if len(fields) != 2 {
			return nil, fmt.Errorf("%s:%d: write a caller's name and its token, separated by white space", cfg.tokens, i+1)
		}
		if _, dup := tokens[fields[1]]; dup {
			return nil, fmt.Errorf("%s:%d: the token of %s is another caller's too", cfg.tokens, i+1, fields[0])
		}
		tokens[fields[1]] = fields[0]
	}
	return tokens, nil
}
