package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/agui-gen/agui-gen/gen/a2a"
	"github.com/agui-gen/agui-gen/gen/a2a/a2agrpc"
	"github.com/agui-gen/agui-gen/gen/agui"
)

// serve runs the server with cfg until ctx ends, on a free port and with
// its data in a temporary SQLite file unless cfg says otherwise. It returns
// the server's base URL and the channel run's result comes on.
func serve(t *testing.T, ctx context.Context, cfg config) (string, <-chan error) {
	t.Helper()
	if cfg.addr == "" {
		cfg.addr = "127.0.0.1:0"
	}
	if cfg.db == "" {
		cfg.db = filepath.Join(t.TempDir(), "server.db")
	}
	if cfg.grace == 0 {
		cfg.grace = 10 * time.Second
	}
	addrs := make(chan string, 1)
	done := make(chan error, 1)
	go func() { done <- run(ctx, cfg, slog.New(slog.DiscardHandler), func(addr string) { addrs <- addr }) }()
	select {
	case addr := <-addrs:
		return "http://" + addr, done
	case err := <-done:
		t.Fatalf("the server did not start: %v", err)
	}
	return "", nil
}

// startServer serves cfg as serve does, until the test ends.
func startServer(t *testing.T, cfg config) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	base, done := serve(t, ctx, cfg)
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("shutdown: %v", err)
		}
	})
	return base
}

func TestAGUI(t *testing.T) {
	base := startServer(t, config{token: "secret"})
	c := agui.Client{URL: base + "/agui", Header: http.Header{"Authorization": {"Bearer secret"}}}
	ctx := context.Background()

	rs, err := c.Run(ctx, &agui.RunAgentInput{ThreadID: "t1", RunID: "r1", Messages: []agui.Message{
		&agui.UserMessage{BaseMessage: agui.BaseMessage{ID: "u1"}, Content: agui.TextContent("What is the weather in Paris?")}}})
	if err != nil {
		t.Fatal(err)
	}
	if err := rs.Wait(); err != nil {
		t.Fatal(err)
	}
	msgs := rs.Messages()
	last, ok := msgs[len(msgs)-1].(*agui.AssistantMessage)
	if !ok || last.Content == nil || !strings.Contains(*last.Content, "sunny") {
		t.Fatalf("answer: %+v", msgs)
	}

	// Feedback on the answer, then a run that asks before deleting and the
	// run that answers it.
	if _, err := c.SendMeta(ctx, "t1", "r1", agui.NewThumbsUpMeta(last.ID)); err != nil {
		t.Fatal(err)
	}
	if page, err := c.Meta(ctx, agui.MetaQuery{ThreadID: "t1"}); err != nil || len(page.Events) != 1 {
		t.Fatalf("stored feedback: %+v %v", page, err)
	}
	ask := &agui.RunAgentInput{ThreadID: "t2", RunID: "r2", Messages: []agui.Message{
		&agui.UserMessage{BaseMessage: agui.BaseMessage{ID: "u2"}, Content: agui.TextContent("Delete the draft")}}}
	if outcome := finish(t, &c, ask); outcome == nil || len(outcome.Interrupts) != 1 {
		t.Fatalf("want an interrupt, got %+v", outcome)
	}
	resume := &agui.RunAgentInput{ThreadID: "t2", RunID: "r3", Messages: ask.Messages,
		Resume: []agui.ResumeEntry{{InterruptID: "confirm-delete", Status: agui.ResumeEntryStatusResolved, Payload: []byte("true")}}}
	finish(t, &c, resume)

	if _, err := (&agui.Client{URL: base + "/agui"}).Capabilities(ctx); err == nil {
		t.Error("a caller without the token was served")
	}
}

// finish runs in to its end and returns its interrupt outcome, if any.
func finish(t *testing.T, c *agui.Client, in *agui.RunAgentInput) *agui.RunFinishedInterruptOutcome {
	t.Helper()
	rs, err := c.Run(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	var outcome *agui.RunFinishedInterruptOutcome
	for {
		ev, err := rs.Next()
		if errors.Is(err, io.EOF) {
			return outcome
		}
		if err != nil {
			t.Fatal(err)
		}
		if f, ok := ev.(*agui.RunFinishedEvent); ok {
			outcome, _ = f.Outcome.(*agui.RunFinishedInterruptOutcome)
		}
	}
}

func TestA2A(t *testing.T) {
	base := startServer(t, config{token: "secret"})
	ctx := context.Background()
	card, err := a2a.ResolveCard(ctx, base)
	if err != nil {
		t.Fatal(err)
	}
	for _, transport := range []a2a.Transport{
		a2a.NewJSONRPCTransport(base, a2a.WithHeader("Authorization", "Bearer secret")),
		a2a.NewRESTTransport(base, a2a.WithHeader("Authorization", "Bearer secret")),
	} {
		c := a2a.NewA2AServiceClient(transport)
		var text strings.Builder
		var state a2a.TaskState
		var taskID string
		updates := 0
		for ev, err := range c.SendStreamingMessage(ctx, &a2a.SendMessageRequest{Message: &a2a.Message{
			MessageID: "m1", Role: a2a.RoleUser, Parts: []*a2a.Part{{Content: &a2a.PartText{Text: "What is the weather in Paris?"}}}}}) {
			if err != nil {
				t.Fatal(err)
			}
			switch ev := ev.Payload.(type) {
			case *a2a.StreamResponseTask:
				taskID = ev.Task.ID
			case *a2a.StreamResponseArtifactUpdate:
				for _, p := range ev.ArtifactUpdate.Artifact.Parts {
					if tp, ok := p.Content.(*a2a.PartText); ok {
						text.WriteString(tp.Text)
						updates++
					}
				}
			case *a2a.StreamResponseStatusUpdate:
				state = ev.StatusUpdate.Status.State
			}
		}
		if state != a2a.TaskStateCompleted || !strings.Contains(text.String(), "sunny") || updates < 2 {
			t.Errorf("%s: %v %q in %d updates", card.Name, state, text.String(), updates)
		}
		// The reply streamed word by word is stored whole: one text part.
		task, err := c.GetTask(ctx, &a2a.GetTaskRequest{ID: taskID})
		if err != nil {
			t.Fatal(err)
		}
		var parts []string
		for _, art := range task.Artifacts {
			for _, p := range art.Parts {
				if tp, ok := p.Content.(*a2a.PartText); ok {
					parts = append(parts, tp.Text)
				}
			}
		}
		if len(parts) != 1 || parts[0] != text.String() {
			t.Errorf("the stored reply's text parts: %q, want one: %q", parts, text.String())
		}
	}
	_, err = a2a.NewA2AServiceClient(a2a.NewJSONRPCTransport(base)).GetTask(ctx, &a2a.GetTaskRequest{ID: "x"})
	if err == nil {
		t.Error("a caller without the token was served")
	}
}

// TestCallersSeeOnlyTheirOwn: with two callers (--tokens), bob cannot see
// or change alice's AG-UI thread, its feedback or interrupt, nor her A2A
// task, nor reach her thread through A2A by naming it as a context: each
// is answered as if it did not exist.
func TestCallersSeeOnlyTheirOwn(t *testing.T) {
	tokens := filepath.Join(t.TempDir(), "tokens")
	if err := os.WriteFile(tokens, []byte("# callers\nalice alice-token\nbob bob-token\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	base := startServer(t, config{tokens: tokens})
	ctx := context.Background()
	aguiAs := func(token string) *agui.Client {
		return &agui.Client{URL: base + "/agui", Header: http.Header{"Authorization": {"Bearer " + token}}}
	}
	a2aAs := func(token string) *a2a.A2AServiceClient {
		return a2a.NewA2AServiceClient(a2a.NewJSONRPCTransport(base, a2a.WithHeader("Authorization", "Bearer "+token)))
	}
	alice, bob := aguiAs("alice-token"), aguiAs("bob-token")

	// Alice's thread stops to confirm a deletion, and she leaves feedback.
	ask := &agui.RunAgentInput{ThreadID: "alice-thread", RunID: "r1", Messages: []agui.Message{
		&agui.UserMessage{BaseMessage: agui.BaseMessage{ID: "u1"}, Content: agui.TextContent("Delete the draft")}}}
	if outcome := finish(t, alice, ask); outcome == nil || len(outcome.Interrupts) != 1 {
		t.Fatalf("want an interrupt, got %+v", outcome)
	}
	if _, err := alice.SendMeta(ctx, "alice-thread", "r1", agui.NewNoteMeta("careful")); err != nil {
		t.Fatal(err)
	}

	var he *agui.HTTPError
	notFound := func(what string, err error) {
		t.Helper()
		if !errors.As(err, &he) || he.StatusCode != http.StatusNotFound || strings.Contains(string(he.Body), "confirm") {
			t.Errorf("%s: %v", what, err)
		}
	}
	resume := &agui.RunAgentInput{ThreadID: "alice-thread", RunID: "b1", Messages: ask.Messages,
		Resume: []agui.ResumeEntry{{InterruptID: "confirm-delete", Status: agui.ResumeEntryStatusResolved, Payload: []byte("true")}}}
	_, err := bob.Run(ctx, resume)
	notFound("bob's resume of alice's interrupt", err)
	_, err = bob.Meta(ctx, agui.MetaQuery{ThreadID: "alice-thread"})
	notFound("bob's query of alice's feedback", err)
	_, err = bob.SendMeta(ctx, "alice-thread", "", agui.NewNoteMeta("mine now"))
	notFound("bob's feedback on alice's thread", err)
	if page, err := alice.Meta(ctx, agui.MetaQuery{ThreadID: "alice-thread"}); err != nil || len(page.Events) != 1 {
		t.Errorf("alice's feedback: %+v %v", page, err)
	}

	// A2A: alice's task is hers, and her thread is not bob's context.
	resp, err := a2aAs("alice-token").SendMessage(ctx, weatherMessage())
	if err != nil {
		t.Fatal(err)
	}
	task := resp.Payload.(*a2a.SendMessageResponseTask).Task
	if _, err := a2aAs("bob-token").GetTask(ctx, &a2a.GetTaskRequest{ID: task.ID}); !errors.Is(err, a2a.ErrTaskNotFound) {
		t.Errorf("bob's GetTask of alice's task: %v", err)
	}
	msg := weatherMessage()
	msg.Message.ContextID = "alice-thread"
	resp, err = a2aAs("bob-token").SendMessage(ctx, msg)
	if err != nil {
		t.Fatal(err)
	}
	if got := resp.Payload.(*a2a.SendMessageResponseTask).Task; got.Status.State != a2a.TaskStateFailed {
		t.Errorf("bob's message in alice's thread: %s", got.AppendJSON(nil))
	}
	if finish(t, alice, &agui.RunAgentInput{ThreadID: "alice-thread", RunID: "r2", Messages: ask.Messages,
		Resume: []agui.ResumeEntry{{InterruptID: "confirm-delete", Status: agui.ResumeEntryStatusResolved, Payload: []byte("true")}}}) != nil {
		t.Error("alice's resume did not finish her run")
	}
}

// TestCORSOrigin: with --cors-origin, the preflights a page of that origin
// sends are answered on both protocols' routes, and another origin's are
// not; without it, no route answers one.
func TestCORSOrigin(t *testing.T) {
	const page = "http://localhost:5173"
	preflight := func(base, path, headers, origin string) string {
		t.Helper()
		req, _ := http.NewRequest(http.MethodOptions, base+path, nil)
		req.Header.Set("Origin", origin)
		req.Header.Set("Access-Control-Request-Method", http.MethodPost)
		req.Header.Set("Access-Control-Request-Headers", headers)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res.Header.Get("Access-Control-Allow-Origin")
	}
	on := startServer(t, config{token: "secret", corsOrigins: []string{page}})
	off := startServer(t, config{token: "secret"})
	// The headers each protocol's clients send, lowercase and sorted, as
	// browsers list them.
	for _, c := range []struct{ path, headers string }{
		{"/agui", "authorization,content-type"}, {"/agui/cancel", "authorization,content-type"}, {"/agui/meta", "authorization,content-type"},
		{"/", "a2a-version,authorization,content-type"}, {"/message:stream", "a2a-version,authorization,content-type"},
	} {
		if got := preflight(on, c.path, c.headers, page); got != page {
			t.Errorf("with --cors-origin, the preflight of %s allows %q", c.path, got)
		}
		if got := preflight(on, c.path, c.headers, "https://elsewhere.example"); got != "" {
			t.Errorf("the preflight of %s from another origin allows %q", c.path, got)
		}
		if got := preflight(off, c.path, c.headers, page); got != "" {
			t.Errorf("without --cors-origin, the preflight of %s allows %q", c.path, got)
		}
	}
}

func TestCallerTokens(t *testing.T) {
	dir := t.TempDir()
	file := func(content string) string {
		p := filepath.Join(dir, "tokens")
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	got, err := callerTokens(config{token: "t0", tokens: file("\n# who\nalice t1\n  bob\tt2  \n")})
	if err != nil || len(got) != 3 || got["t0"] != "user" || got["t1"] != "alice" || got["t2"] != "bob" {
		t.Errorf("tokens %v %v", got, err)
	}
	for content, want := range map[string]string{"alice\n": "tokens:1:", "alice t1\nbob t1\n": "tokens:2:"} {
		if _, err := callerTokens(config{tokens: file(content)}); err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "t1\"") {
			t.Errorf("%q: %v", content, err)
		}
	}
}

func weatherMessage() *a2a.SendMessageRequest {
	return &a2a.SendMessageRequest{Message: &a2a.Message{MessageID: "m1", Role: a2a.RoleUser,
		Parts: []*a2a.Part{{Content: &a2a.PartText{Text: "What is the weather in Paris?"}}}}}
}

// TestShutdownStopsRunsInFlight: the context ends while an AG-UI run and
// two A2A tasks (JSON-RPC and gRPC) stream. After the grace period the AG-UI
// stream ends with RUN_ERROR, the tasks fail (the server shut down), and
// run returns nil.
func TestShutdownStopsRunsInFlight(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// The agent pauses an hour between words: only the shutdown ends its runs.
	base, done := serve(t, ctx, config{grpcAddr: "127.0.0.1:0", pace: time.Hour, grace: 200 * time.Millisecond})

	rs, err := (&agui.Client{URL: base + "/agui"}).Run(context.Background(), &agui.RunAgentInput{ThreadID: "t1", RunID: "r1",
		Messages: []agui.Message{&agui.UserMessage{BaseMessage: agui.BaseMessage{ID: "u1"}, Content: agui.TextContent("Weather?")}}})
	if err != nil {
		t.Fatal(err)
	}
	for {
		ev, err := rs.Next()
		if err != nil {
			t.Fatalf("before the answer: %v", err)
		}
		if _, ok := ev.(*agui.TextMessageContentEvent); ok {
			break // the agent waits out its pace
		}
	}

	card, err := a2a.ResolveCard(ctx, base)
	if err != nil {
		t.Fatal(err)
	}
	var grpcURL string
	for _, i := range card.SupportedInterfaces {
		if i.ProtocolBinding == a2a.BindingGRPC {
			grpcURL = i.URL
		}
	}
	conn, err := grpc.NewClient(grpcURL, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	var finals []<-chan a2a.TaskState
	for _, c := range []*a2a.A2AServiceClient{
		a2a.NewA2AServiceClient(a2a.NewJSONRPCTransport(base)),
		a2agrpc.NewA2AServiceClient(conn),
	} {
		finals = append(finals, streamTask(t, c))
	}

	cancel()
	start := time.Now()
	var last agui.Event
	for {
		ev, err := rs.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("the AG-UI stream after the shutdown began: %v", err)
		}
		last = ev
	}
	if _, ok := last.(*agui.RunErrorEvent); !ok {
		t.Errorf("the AG-UI stream ended with %T, want RUN_ERROR", last)
	}
	for i, final := range finals {
		if state := <-final; state != a2a.TaskStateFailed {
			t.Errorf("A2A task %d ended %v, want failed", i, state)
		}
	}
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("run: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("run did not return 10 s after its context ended")
	}
	t.Logf("shut down in %v", time.Since(start).Round(time.Millisecond))
}

// streamTask starts a streaming task and returns, once the task is working,
// the channel its last state comes on when the stream ends.
func streamTask(t *testing.T, c *a2a.A2AServiceClient) <-chan a2a.TaskState {
	t.Helper()
	working, final := make(chan struct{}), make(chan a2a.TaskState, 1)
	go func() {
		var state a2a.TaskState
		wasWorking := false
		defer func() { final <- state }()
		for ev, err := range c.SendStreamingMessage(context.Background(), weatherMessage()) {
			if err != nil {
				t.Errorf("A2A stream: %v", err)
				return
			}
			if u, ok := ev.Payload.(*a2a.StreamResponseStatusUpdate); ok {
				state = u.StatusUpdate.Status.State
				if state == a2a.TaskStateWorking && !wasWorking {
					wasWorking = true
					close(working)
				}
			}
		}
	}()
	select {
	case <-working:
		return final
	case state := <-final:
		t.Fatalf("the task ended %v before it was working", state)
	case <-time.After(10 * time.Second):
		t.Fatal("the task is not working after 10 s")
	}
	return nil
}

// TestCardURLs: the card names --base-url without its trailing slash, and
// --grpc-url for gRPC; A2A 0.3 clients are served at the same URLs, on
// every binding.
func TestCardURLs(t *testing.T) {
	base := startServer(t, config{baseURL: "https://agent.example/", grpcAddr: "127.0.0.1:0", grpcURL: "grpc.agent.example:443"})
	card, err := a2a.ResolveCard(context.Background(), base)
	if err != nil {
		t.Fatal(err)
	}
	// Every binding at this version and at each earlier one served beside
	// it (JSON-RPC all of them; HTTP+JSON and gRPC those generated with
	// their proto), whatever versions gen/ was generated for.
	want := map[string]string{}
	bindings := func(version string, all bool) {
		want[a2a.BindingJSONRPC+"@"+version] = "https://agent.example"
		if all {
			want[a2a.BindingHTTPJSON+"@"+version] = "https://agent.example"
			want[a2a.BindingGRPC+"@"+version] = "grpc.agent.example:443"
		}
	}
	bindings(a2a.ProtocolVersion, true)
	for _, v := range a2a.CompatVersions() {
		bindings(v.Version, v.Proto != nil)
	}
	for _, i := range card.SupportedInterfaces {
		key := i.ProtocolBinding + "@" + i.ProtocolVersion
		if i.URL != want[key] {
			t.Errorf("%s: %q, want %q", key, i.URL, want[key])
		}
		delete(want, key)
	}
	if len(want) > 0 {
		t.Errorf("the card lacks %v", want)
	}
}

// TestWildcardAddressWarns: a server on every interface names localhost in
// its card, not [::], and warns that other machines need the flag.
func TestWildcardAddressWarns(t *testing.T) {
	var log bytes.Buffer
	logger := slog.New(slog.NewTextHandler(&log, nil))
	if got := advertised(&net.TCPAddr{IP: net.IPv6unspecified, Port: 8000}, logger, "--base-url"); got != "localhost:8000" {
		t.Errorf("advertised [::]:8000 as %q", got)
	}
	if !strings.Contains(log.String(), "level=WARN") || !strings.Contains(log.String(), "--base-url") {
		t.Errorf("the warning: %s", log.String())
	}
	log.Reset()
	if got := advertised(&net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8000}, logger, "--base-url"); got != "127.0.0.1:8000" || log.Len() > 0 {
		t.Errorf("advertised 127.0.0.1:8000 as %q, logging %q", got, log.String())
	}
}

// TestParseDB: PostgreSQL by a URL of either scheme in any case; a SQLite
// file otherwise, but nothing that looks like another connection string,
// and no error repeats the value, which may hold a password.
func TestParseDB(t *testing.T) {
	for _, c := range []struct {
		in       string
		postgres bool
		dsn      string
	}{
		{"server.db", false, "server.db"},
		{"/var/lib/agent/x=1.db", false, "/var/lib/agent/x=1.db"},
		{"postgres://a:pw@db/agent", true, "postgres://a:pw@db/agent"},
		{"PostgreSQL://a:pw@db/agent", true, "postgresql://a:pw@db/agent"},
	} {
		got, err := parseDB(c.in)
		if err != nil || got.postgres != c.postgres || got.dsn != c.dsn {
			t.Errorf("parseDB(%q) = %+v, %v", c.in, got, err)
		}
	}
	for _, in := range []string{"mysql://a:pw@db/agent", "host=db user=a password=pw dbname=agent"} {
		_, err := parseDB(in)
		if err == nil || strings.Contains(err.Error(), "pw") {
			t.Errorf("parseDB(%q): %v", in, err)
		}
	}
	d, _ := parseDB("postgres://a:pw@db:5432/agent?sslmode=disable")
	if attrs, _ := json.Marshal(d.logAttrs()); strings.Contains(string(attrs), "pw") || !strings.Contains(string(attrs), "db:5432") {
		t.Errorf("logged as %s", attrs)
	}
}

// TestServerChores: the favicon browsers ask for, a log line per request,
// a bind failure said as such, and an activity card of each answer's own.
func TestServerChores(t *testing.T) {
	var logs safeBuffer
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	addrs, done := make(chan string, 1), make(chan error, 1)
	cfg := config{addr: "127.0.0.1:0", db: filepath.Join(t.TempDir(), "server.db"), grace: time.Second}
	go func() {
		done <- run(ctx, cfg, slog.New(slog.NewTextHandler(&logs, nil)), func(addr string) { addrs <- addr })
	}()
	var addr string
	select {
	case addr = <-addrs:
	case err := <-done:
		t.Fatalf("the server did not start: %v", err)
	}
	base := "http://" + addr

	res, err := http.Get(base + "/favicon.ico")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != "image/svg+xml" {
		t.Errorf("favicon: %d %s", res.StatusCode, res.Header.Get("Content-Type"))
	}

	// Two answers, two activity cards.
	c := agui.Client{URL: base + "/agui"}
	var ids []string
	for _, run := range []string{"r1", "r2"} {
		rs, err := c.Run(context.Background(), &agui.RunAgentInput{ThreadID: "t-" + run, RunID: run, Messages: []agui.Message{
			&agui.UserMessage{BaseMessage: agui.BaseMessage{ID: "u-" + run}, Content: agui.TextContent("What is the weather?")}}})
		if err != nil {
			t.Fatal(err)
		}
		for ev, err := range rs.Events() {
			if err != nil {
				t.Fatal(err)
			}
			if a, ok := ev.(*agui.ActivitySnapshotEvent); ok {
				ids = append(ids, a.MessageID)
			}
		}
	}
	if len(ids) != 2 || ids[0] == ids[1] {
		t.Errorf("activity ids of two runs: %v", ids)
	}

	// The port is taken: the server says it cannot listen there.
	err = run(context.Background(), config{addr: addr, db: filepath.Join(t.TempDir(), "other.db")}, slog.New(slog.DiscardHandler), nil)
	if err == nil || !strings.Contains(err.Error(), "cannot listen on --addr "+addr) {
		t.Errorf("a second server on %s: %v", addr, err)
	}

	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"method=GET path=/favicon.ico status=200", "method=POST path=/agui status=200"} {
		if !strings.Contains(logs.String(), want) {
			t.Errorf("the log has no %q:\n%s", want, logs.String())
		}
	}
}

// safeBuffer is a bytes.Buffer that goroutines may write at once.
type safeBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *safeBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *safeBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
