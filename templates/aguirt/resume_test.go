package aguirt

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	agui "github.com/agui-gen/agui-gen/gen/agui"
	"github.com/agui-gen/agui-gen/internal/cutproxy"
	"github.com/agui-gen/agui-gen/runtime/postgres/pgtest"
	"github.com/agui-gen/agui-gen/runtime/runlog"
	"github.com/agui-gen/agui-gen/runtime/runlog/pglog"
	"github.com/agui-gen/agui-gen/runtime/runlog/sqlitelog"
)

// chattyAgent emits a run that opens and closes every kind of thing, with
// ids of its own (so two runs of it are equal event for event), pausing
// now and then so that cuts fall in the live tail as well as in the log.
func chattyAgent(pause func()) AgentFunc {
	return func(ctx context.Context, in *agui.RunAgentInput, s *Stream) error {
		steps := []func() error{
			func() error { return s.StartStep("plan") },
			func() error { return s.StartReasoning("rsn1") },
			func() error { return s.Reasoning("thinking about " + in.RunID) },
			func() error { return s.StartText("msg1") },
			func() error { return s.Text("Hello ") },
			func() error { return s.Text("world, ") },
			func() error {
				_, err := s.StartToolCall("search", ToolCallID("call1"))
				return err
			},
			func() error { return s.ToolCallArgs("call1", `{"q":`) },
			func() error { return s.ToolCallArgs("call1", `"go"}`) },
			func() error { return s.EndToolCall("call1") },
			func() error { return s.StateSnapshot(json.RawMessage(`{"n":0}`)) },
			func() error { return s.FinishStep("plan") },
		}
		for i := range 8 {
			steps = append(steps,
				func() error { return s.StartText(fmt.Sprintf("msg%d", i+2)) },
				func() error { return s.Text(strings.Repeat("word ", i+1)) },
				func() error {
					return s.StateDelta(&agui.ReplaceOperation{Path: "/n", Value: json.RawMessage(fmt.Sprint(i + 1))})
				})
		}
		for _, step := range steps {
			if err := step(); err != nil {
				return err
			}
			if pause != nil {
				pause()
			}
		}
		return nil
	}
}

// reference is the events of an uninterrupted run of agent on input, as
// JSON, from Invoke.
func reference(t testing.TB, agent Agent, input *agui.RunAgentInput) []string {
	t.Helper()
	var out []string
	if err := Invoke(context.Background(), agent, input, func(ev agui.Event) error {
		out = append(out, string(ev.AppendJSON(nil)))
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return out
}

// cutter is a transport that cuts the first cuts responses it carries
// after a random number of bytes of their bodies, closing the connection
// as a dropped network would.
type cutter struct {
	base  http.RoundTripper
	mu    sync.Mutex
	cuts  int
	rnd   *rand.Rand
	made  int
	fired atomic.Int64 // the cuts that fell inside a body, before its end
}

func (c *cutter) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := c.base.RoundTrip(req)
	if err != nil || resp.StatusCode != http.StatusOK {
		return resp, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.made < c.cuts {
		c.made++
		// From 0: a POST cut before its first event resumes from the
		// run's start (agui.ResumeIDHeader).
		resp.Body = &cutBody{ReadCloser: resp.Body, left: c.rnd.IntN(2500), fired: &c.fired}
	}
	return resp, nil
}

type cutBody struct {
	io.ReadCloser
	left  int
	fired *atomic.Int64
	cut   bool
}

func (b *cutBody) Read(p []byte) (int, error) {
	if b.left <= 0 {
		if !b.cut {
			b.cut = true
			b.fired.Add(1)
		}
		b.ReadCloser.Close()
		return 0, io.ErrUnexpectedEOF
	}
	if len(p) > b.left {
		p = p[:b.left]
	}
	n, err := b.ReadCloser.Read(p)
	b.left -= n
	return n, err
}

// TestResumableChaos: runs on the memory log, and on SQLite and
// PostgreSQL with two replicas (two handlers sharing the database), each
// connection cut 1 to 5 times at random points; the Client resumes each,
// on the SQL logs at the other replica than the one it last read from, and
// every stream it delivers equals an uninterrupted run's, event for event:
// nothing lost, repeated or out of order. Afterwards every goroutine is
// gone. 200 runs a log (3 s for the three here), 30 in -short mode.
func TestResumableChaos(t *testing.T) {
	t.Run("log=memory", func(t *testing.T) {
		resumableChaos(t, func() ([]RunLog, func() error) {
			return []RunLog{runlog.NewMemory(runlog.MemoryOptions{})}, func() error { return nil }
		})
	})
	t.Run("log=sqlite/replicas=2", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "runs.db")
		resumableChaos(t, func() ([]RunLog, func() error) {
			var logs []RunLog
			var closers []func() error
			for range 2 {
				l, err := sqlitelog.Open(context.Background(), path, sqlitelog.Options{PollInterval: 10 * time.Millisecond})
				if err != nil {
					t.Fatal(err)
				}
				logs, closers = append(logs, l), append(closers, l.Close)
			}
			return logs, func() error { return errors.Join(closers[0](), closers[1]()) }
		})
	})
	t.Run("log=postgres/replicas=2", func(t *testing.T) {
		dsn := pgtest.Database(t)
		resumableChaos(t, func() ([]RunLog, func() error) {
			var logs []RunLog
			var closers []func() error
			for range 2 {
				l, err := pglog.Open(context.Background(), dsn, pglog.Options{})
				if err != nil {
					t.Fatal(err)
				}
				logs, closers = append(logs, l), append(closers, l.Close)
			}
			return logs, func() error { return errors.Join(closers[0](), closers[1]()) }
		})
	})
}

// replicaRouter sends each request of a client to the next of the
// replicas' hosts: a resume goes to another replica than the request it
// follows.
type replicaRouter struct {
	base  http.RoundTripper
	hosts []string
	mu    sync.Mutex
	next  int
}

func (r *replicaRouter) RoundTrip(req *http.Request) (*http.Response, error) {
	r.mu.Lock()
	host := r.hosts[r.next%len(r.hosts)]
	r.next++
	r.mu.Unlock()
	req = req.Clone(req.Context())
	req.URL.Host, req.Host = host, host
	return r.base.RoundTrip(req)
}

// resumableChaos cuts every run's connection 1–5 times at random points,
// the run served by a handler on each of the logs open returns (replicas
// sharing a store), each request of a client sent to the next replica:
// each client's events, resumed, must be an uninterrupted run's, and the
// goroutines come back to where they were once the logs are closed.
func resumableChaos(t *testing.T, open func() (logs []RunLog, closeLogs func() error)) {
	runs := 200
	if testing.Short() {
		runs = 30
	}
	base := runtime.NumGoroutine()
	logs, closeLogs := open()
	agent := chattyAgent(func() {
		if rand.IntN(4) == 0 {
			time.Sleep(time.Duration(rand.IntN(1500)) * time.Microsecond)
		}
	})
	var servers []*httptest.Server
	var hosts []string
	for _, log := range logs {
		srv := httptest.NewServer(NewHandler(agent, WithLogger(quietLogger()), WithResumableRuns(log)))
		servers, hosts = append(servers, srv), append(hosts, srv.Listener.Addr().String())
	}
	want := reference(t, chattyAgent(nil), &agui.RunAgentInput{ThreadID: "t", RunID: "r0"})
	var resumes, cuts atomic.Int64
	var wg sync.WaitGroup
	sem := make(chan struct{}, 8)
	errs := make(chan error, runs)
	for i := range runs {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			tr := &http.Transport{}
			defer tr.CloseIdleConnections()
			cut := &cutter{base: &replicaRouter{base: tr, hosts: hosts}, cuts: 1 + i%5, rnd: rand.New(rand.NewPCG(uint64(i), 7))}
			c := &Client{URL: servers[0].URL, HTTPClient: &http.Client{Transport: cut}, Resume: ResumePolicy{MinDelay: time.Millisecond}}
			in := &agui.RunAgentInput{ThreadID: fmt.Sprint("t", i), RunID: fmt.Sprint("r", i)}
			rs, err := c.Run(context.Background(), in)
			if err != nil {
				errs <- err
				return
			}
			var got []string
			for ev, err := range rs.Events() {
				if err != nil {
					errs <- fmt.Errorf("run %d: %w", i, err)
					return
				}
				got = append(got, string(ev.AppendJSON(nil)))
			}
			resumes.Add(int64(rs.Resumes()))
			cuts.Add(cut.fired.Load())
			exp := make([]string, len(want))
			for j, w := range want {
				exp[j] = strings.ReplaceAll(strings.ReplaceAll(strings.ReplaceAll(w, `"t"`, fmt.Sprintf(`"t%d"`, i)), `"r0"`, fmt.Sprintf(`"r%d"`, i)), "about r0", fmt.Sprint("about r", i))
			}
			if err := sameEvents(got, exp); err != nil {
				errs <- fmt.Errorf("run %d (%d cuts, %d resumes): %w", i, cut.made, rs.Resumes(), err)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if resumes.Load() < int64(runs) {
		t.Errorf("%d resumes in %d runs: the connections were not cut", resumes.Load(), runs)
	}
	t.Logf("%d runs on %d replicas, %d cuts, %d resumes", runs, len(logs), cuts.Load(), resumes.Load())
	for _, srv := range servers {
		srv.Close()
	}
	if err := closeLogs(); err != nil {
		t.Fatal(err)
	}
	waitGoroutines(t, base)
}

// sameEvents compares two streams of events and says where they part.
func sameEvents(got, want []string) error {
	for i := range min(len(got), len(want)) {
		if got[i] != want[i] {
			return fmt.Errorf("event %d is\n%s\nwant\n%s", i, got[i], want[i])
		}
	}
	if len(got) != len(want) {
		return fmt.Errorf("%d events, want %d", len(got), len(want))
	}
	return nil
}

// waitGoroutines fails unless the goroutines are back to base within a few
// seconds.
func waitGoroutines(t *testing.T, base int) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > base && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > base {
		buf := make([]byte, 1<<20)
		t.Fatalf("%d goroutines, %d before:\n%s", n, base, buf[:runtime.Stack(buf, true)])
	}
}

// gate is an agent that emits the start of a run, with things left open,
// and waits for release before it finishes them.
func gate(release <-chan struct{}, reached chan<- struct{}) AgentFunc {
	return func(ctx context.Context, in *agui.RunAgentInput, s *Stream) error {
		steps := []func() error{
			func() error { return s.StartStep("plan") },
			func() error { return s.StateSnapshot(json.RawMessage(`{"phase":"one"}`)) },
			func() error {
				_, err := s.StartToolCall("lookup", ToolCallID("c1"))
				return err
			},
			func() error { return s.ToolCallArgs("c1", `{"k":`) },
			func() error { return s.StartText("m1") },
			func() error { return s.Text("first part, ") },
		}
		for _, f := range steps {
			if err := f(); err != nil {
				return err
			}
		}
		if reached != nil {
			close(reached)
		}
		select {
		case <-release:
		case <-ctx.Done():
			return context.Cause(ctx)
		}
		if err := s.Text("second part"); err != nil {
			return err
		}
		if err := s.ToolCallArgs("c1", `1}`); err != nil {
			return err
		}
		if err := s.EndToolCall("c1"); err != nil {
			return err
		}
		return s.FinishStep("plan")
	}
}

// sseEvent is one event of a raw SSE body.
type sseEvent struct{ id, data string }

// readSSE reads a raw SSE body to its end.
func readSSE(t *testing.T, r io.Reader) []sseEvent {
	t.Helper()
	var out []sseEvent
	var cur sseEvent
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			if cur.data != "" {
				out = append(out, cur)
			}
			cur = sseEvent{}
		case strings.HasPrefix(line, "id: "):
			cur.id = line[4:]
		case strings.HasPrefix(line, "data: "):
			cur.data = line[6:]
		}
	}
	return out
}

// get sends a GET of a resume or a join to srv.
func get(t *testing.T, url, lastID, user string) *http.Response {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	req.Header.Set("Accept", "text/event-stream")
	if lastID != "" {
		req.Header.Set("Last-Event-ID", lastID)
	}
	if user != "" {
		req.Header.Set("X-User", user)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

func byUser(r *http.Request) (string, error) {
	if u := r.Header.Get("X-User"); u != "" {
		return u, nil
	}
	return "", errors.New("send X-User")
}

// TestResumeIsTheCallersOwn: another caller's resume or join of a run is
// answered as one of a run that does not exist, to the byte; the run's
// caller resumes it.
func TestResumeIsTheCallersOwn(t *testing.T) {
	release, reached := make(chan struct{}), make(chan struct{})
	srv := httptest.NewServer(NewHandler(gate(release, reached), WithLogger(quietLogger()),
		WithAuthenticator(byUser), WithResumableRuns(runlog.NewMemory(runlog.MemoryOptions{}))))
	defer srv.Close()
	c := &Client{URL: srv.URL, Header: http.Header{"X-User": {"alice"}}}
	rs, err := c.Run(context.Background(), &agui.RunAgentInput{ThreadID: "t", RunID: "r"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := rs.Next(); err != nil {
		t.Fatal(err)
	}
	id := lastID(rs.src)
	<-reached
	rs.Close()

	body := func(resp *http.Response) string {
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return fmt.Sprint(resp.StatusCode, " ", string(b))
	}
	unknown := body(get(t, srv.URL, runlog.FormatID(runlog.NewKey(), 1), "bob"))
	if !strings.HasPrefix(unknown, "404 ") || !strings.Contains(unknown, "start a new run") {
		t.Fatalf("an unknown id: %s", unknown)
	}
	if got := body(get(t, srv.URL, id, "bob")); got != unknown {
		t.Errorf("another caller's resume: %s\nwant what an unknown id gets: %s", got, unknown)
	}
	if got, want := body(get(t, srv.URL+"?threadId=t&runId=r", "", "bob")), body(get(t, srv.URL+"?threadId=t&runId=nope", "", "bob")); got != want || !strings.HasPrefix(got, "404 ") {
		t.Errorf("another caller's join: %s\nwant what a run that does not exist gets: %s", got, want)
	}
	close(release)
	resp := get(t, srv.URL, id, "alice")
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("the caller's resume: %s", body(resp))
	}
	evs := readSSE(t, resp.Body)
	if len(evs) == 0 || !strings.Contains(evs[len(evs)-1].data, `"RUN_FINISHED"`) {
		t.Fatalf("the caller's resume ended with %v", evs)
	}
	if !strings.Contains(evs[0].data, `"STEP_STARTED"`) || evs[0].id != runlog.FormatID(strings.Split(id, ".")[1], 2) {
		t.Errorf("the resume begins with %s, want the event after RUN_STARTED", evs[0].data)
	}
}

// TestResumeRefusesBadIDs: a Last-Event-ID that is not one of ours is a
// 400 that says what to send; one of ours the log does not hold is a 404;
// no GET without an id or run names anything; nothing crashes.
func TestResumeRefusesBadIDs(t *testing.T) {
	log := runlog.NewMemory(runlog.MemoryOptions{})
	srv := httptest.NewServer(NewHandler(chattyAgent(nil), WithLogger(quietLogger()), WithResumableRuns(log)))
	defer srv.Close()
	rs, err := (&Client{URL: srv.URL}).Run(context.Background(), &agui.RunAgentInput{ThreadID: "t", RunID: "r"})
	if err != nil {
		t.Fatal(err)
	}
	if err := rs.Wait(); err != nil {
		t.Fatal(err)
	}
	run, err := log.Find(context.Background(), "t", "r")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		id     string
		status int
		says   string
	}{
		{"garbage", 400, "Last-Event-ID"},
		{"r1.", 400, "Last-Event-ID"},
		{"r1." + run.Key + ".01", 400, "leading zero"},
		{"r1." + run.Key + ".-1", 400, "Last-Event-ID"},
		{"r1." + run.Key + ".99999999999999999999", 400, "Last-Event-ID"},
		{"r1." + strings.Repeat("!", runlog.KeyLen) + ".1", 400, "base64url"},
		{"r1." + run.Key + ".1 x", 400, "Last-Event-ID"},
		{strings.Repeat("x", 5000), 400, "Last-Event-ID"},
		{"r1." + run.Key + fmt.Sprintf(".%d", run.Last+1), 404, "start a new run"},
		{runlog.FormatID(runlog.NewKey(), 3), 404, "start a new run"},
		{runlog.FormatID(runlog.NewKey(), 0), 404, "start a new run"}, // the start of a run never made
	} {
		resp := get(t, srv.URL, c.id, "")
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		var e requestError
		if resp.StatusCode != c.status || json.Unmarshal(b, &e) != nil || !strings.Contains(e.Error.Message, c.says) {
			t.Errorf("Last-Event-ID %.40q: %d %s, want %d saying %q", c.id, resp.StatusCode, b, c.status, c.says)
		}
	}
	resp := get(t, srv.URL, "", "")
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 400 || !strings.Contains(string(b), "Last-Event-ID") {
		t.Errorf("a GET that names nothing: %d %s", resp.StatusCode, b)
	}
	req, _ := http.NewRequest(http.MethodGet, srv.URL+"?threadId=t&runId=r", nil)
	req.Header.Set("Accept", agui.MediaTypeProto)
	presp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ = io.ReadAll(presp.Body)
	presp.Body.Close()
	if presp.StatusCode != http.StatusNotAcceptable || !strings.Contains(string(b), "SSE only") {
		t.Errorf("a protobuf resume: %d %s", presp.StatusCode, b)
	}
}

// TestResumeAfterEnd: a client that was cut off before the end and comes
// back once the run is over gets the rest and the end; one that had it all
// gets an empty stream.
func TestResumeAfterEnd(t *testing.T) {
	log := runlog.NewMemory(runlog.MemoryOptions{})
	agent := chattyAgent(nil)
	srv := httptest.NewServer(NewHandler(agent, WithLogger(quietLogger()), WithResumableRuns(log)))
	defer srv.Close()
	in := &agui.RunAgentInput{ThreadID: "t", RunID: "r"}
	want := reference(t, agent, in)
	rs, err := (&Client{URL: srv.URL}).Run(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for range 3 {
		ev, err := rs.Next()
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, string(ev.AppendJSON(nil)))
	}
	id := lastID(rs.src)
	rs.Close()
	run, _ := log.Find(context.Background(), "t", "r")
	for deadline := time.Now().Add(5 * time.Second); !run.Ended && time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		run, _ = log.Get(context.Background(), run.Key)
	}
	if !run.Ended {
		t.Fatal("the run did not go on to its end without its client")
	}
	resp := get(t, srv.URL, id, "")
	evs := readSSE(t, resp.Body)
	resp.Body.Close()
	for i, e := range evs {
		got = append(got, e.data)
		if wantID := runlog.FormatID(run.Key, int64(4+i)); e.id != wantID {
			t.Errorf("event %d has id %q, want %q", 3+i, e.id, wantID)
		}
	}
	if err := sameEvents(got, want); err != nil {
		t.Fatal(err)
	}
	resp = get(t, srv.URL, evs[len(evs)-1].id, "")
	if evs := readSSE(t, resp.Body); resp.StatusCode != 200 || len(evs) != 0 {
		t.Errorf("a resume after the last event: %d, %d events", resp.StatusCode, len(evs))
	}
	resp.Body.Close()
}

// TestJoinMakesALateJoinerWhole: a client that joins a run in progress
// gets a prelude the verifier accepts (the Client checks every event),
// then the live rest, and ends with the conversation of the client that
// started it.
func TestJoinMakesALateJoinerWhole(t *testing.T) {
	release, reached := make(chan struct{}), make(chan struct{})
	srv := httptest.NewServer(NewHandler(gate(release, reached), WithLogger(quietLogger()),
		WithResumableRuns(runlog.NewMemory(runlog.MemoryOptions{}))))
	defer srv.Close()
	c := &Client{URL: srv.URL}
	in := &agui.RunAgentInput{ThreadID: "t", RunID: "r", Messages: []agui.Message{&agui.UserMessage{BaseMessage: agui.BaseMessage{ID: "u1"}, Content: agui.TextContent("hi")}}}
	first, err := c.Run(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	<-reached
	joiner, err := c.Join(context.Background(), "t", "r")
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		select {
		case <-release:
		default:
			close(release) // a failure must not leave the handler waiting
		}
	}()
	var types []string
	for len(types) < 6 {
		ev, err := joiner.Next()
		if err != nil {
			t.Fatalf("after %v: %v", types, err)
		}
		types = append(types, string(ev.Type()))
	}
	wantPrelude := "RUN_STARTED MESSAGES_SNAPSHOT STATE_SNAPSHOT STEP_STARTED TOOL_CALL_START TEXT_MESSAGE_START"
	if got := strings.Join(types, " "); got != wantPrelude {
		t.Errorf("prelude %s\nwant    %s", got, wantPrelude)
	}
	close(release)
	if err := joiner.Wait(); err != nil {
		t.Fatal(err)
	}
	if err := first.Wait(); err != nil {
		t.Fatal(err)
	}
	a, _ := json.Marshal(first.Messages())
	b, _ := json.Marshal(joiner.Messages())
	if !bytes.Equal(a, b) {
		t.Errorf("the joiner's messages\n%s\nthe starter's\n%s", b, a)
	}
	if sa, sb := string(first.State()), string(joiner.State()); sa != sb {
		t.Errorf("the joiner's state %s, the starter's %s", sb, sa)
	}
}

// TestDetachedRunGoesOn: a run whose client goes is not cancelled; a
// cancel still stops it; one no client comes back to stops at the
// detached timeout, with an error the log keeps.
func TestDetachedRunGoesOn(t *testing.T) {
	log := runlog.NewMemory(runlog.MemoryOptions{})
	release := make(chan struct{})
	var agentErr atomic.Value
	agent := AgentFunc(func(ctx context.Context, in *agui.RunAgentInput, s *Stream) error {
		err := gate(release, nil)(ctx, in, s)
		if err != nil {
			agentErr.Store(err)
		}
		return err
	})
	srv := httptest.NewServer(NewHandler(agent, WithLogger(quietLogger()), WithResumableRuns(log, DetachedTimeout(200*time.Millisecond))))
	defer srv.Close()
	c := &Client{URL: srv.URL}
	endOf := func(runID string) string {
		t.Helper()
		run, err := log.Find(context.Background(), "t", runID)
		if err != nil {
			t.Fatal(err)
		}
		for deadline := time.Now().Add(5 * time.Second); !run.Ended && time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
			run, _ = log.Get(context.Background(), run.Key)
		}
		p, err := log.Read(context.Background(), run.Key, run.Last-1, 1, nil)
		if err != nil || len(p.Entries) != 1 {
			t.Fatalf("%v %v", p, err)
		}
		return string(p.Entries[0].Data)
	}
	start := func(runID string) {
		rs, err := c.Run(context.Background(), &agui.RunAgentInput{ThreadID: "t", RunID: runID})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := rs.Next(); err != nil {
			t.Fatal(err)
		}
		rs.Close()
	}

	start("goes-on")
	time.Sleep(50 * time.Millisecond) // the handler sees its client go
	close(release)
	if end := endOf("goes-on"); !strings.Contains(end, `"RUN_FINISHED"`) || strings.Contains(end, "cancelled") {
		t.Errorf("a detached run ended with %s, want it finished", end)
	}
	if err := agentErr.Load(); err != nil {
		t.Errorf("the agent of a detached run saw %v", err)
	}

	release = make(chan struct{})
	start("cancelled")
	if err := c.Cancel(context.Background(), "t", "cancelled"); err != nil {
		t.Fatal(err)
	}
	if end := endOf("cancelled"); !strings.Contains(end, `"cancelled"`) {
		t.Errorf("a cancelled detached run ended with %s", end)
	}

	start("forgotten")
	if end := endOf("forgotten"); !strings.Contains(end, `"RUN_ERROR"`) || !strings.Contains(end, `"detached"`) {
		t.Errorf("a run no one came back to ended with %s", end)
	}
	close(release)
}

// TestResumableCapabilities: the capabilities served declare
// transport.resumable, whether or not the agent declares any.
func TestResumableCapabilities(t *testing.T) {
	yes := true
	for _, declared := range []*agui.AgentCapabilities{nil, {Transport: &agui.TransportCapabilities{HTTPBinary: &yes}}} {
		opts := []Option{WithLogger(quietLogger()), WithResumableRuns(runlog.NewMemory(runlog.MemoryOptions{}))}
		if declared != nil {
			opts = append(opts, WithCapabilities(declared))
		}
		srv := httptest.NewServer(NewHandler(chattyAgent(nil), opts...))
		caps, err := (&Client{URL: srv.URL}).Capabilities(context.Background())
		srv.Close()
		if err != nil {
			t.Fatal(err)
		}
		if caps.Transport == nil || caps.Transport.Resumable == nil || !*caps.Transport.Resumable {
			t.Errorf("declared %v: served %s", declared, caps.AppendJSON(nil))
		}
		if declared != nil && (caps.Transport.HTTPBinary == nil || declared.Transport.Resumable != nil) {
			t.Errorf("the agent's declaration was lost or changed: %s", caps.AppendJSON(nil))
		}
	}
}

// TestResumableProtobuf: a protobuf client of a resumable handler reads
// its run as ever (frames, no ids), and the run is logged for a join over
// SSE.
func TestResumableProtobuf(t *testing.T) {
	log := runlog.NewMemory(runlog.MemoryOptions{})
	agent := chattyAgent(nil)
	srv := httptest.NewServer(NewHandler(agent, WithLogger(quietLogger()), WithResumableRuns(log)))
	defer srv.Close()
	in := &agui.RunAgentInput{ThreadID: "t", RunID: "r"}
	rs, err := (&Client{URL: srv.URL, Protobuf: true}).Run(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	if ct := rs.Header().Get("Content-Type"); ct != agui.MediaTypeProto {
		t.Fatalf("Content-Type %s", ct)
	}
	var got []string
	for ev, err := range rs.Events() {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, string(ev.AppendJSON(nil)))
	}
	if err := sameEvents(got, reference(t, agent, in)); err != nil {
		t.Fatal(err)
	}
	if _, err := log.Find(context.Background(), "t", "r"); err != nil {
		t.Errorf("the protobuf run was not logged: %v", err)
	}
}

// TestResumeFromTheStart: the response to the POST that starts a run over
// SSE names the id before its first event (agui.ResumeIDHeader), and a
// Client whose stream is cut right after that header, before any byte of
// an event, resumes from it and reads the whole run once. A resume's
// response and a protobuf run's carry no such header; a GET from the
// start id answers with every event.
func TestResumeFromTheStart(t *testing.T) {
	log := runlog.NewMemory(runlog.MemoryOptions{})
	agent := chattyAgent(nil)
	srv := httptest.NewServer(NewHandler(agent, WithLogger(quietLogger()), WithResumableRuns(log)))
	defer srv.Close()
	target, _ := url.Parse(srv.URL)
	cutter := cutproxy.New(target, 0, 0) // the POST's stream, then the first resume's
	proxy := httptest.NewServer(cutter)
	defer proxy.Close()

	in := &agui.RunAgentInput{ThreadID: "t", RunID: "r"}
	want := reference(t, agent, in)
	rs, err := (&Client{URL: proxy.URL, Resume: ResumePolicy{MinDelay: time.Millisecond}}).Run(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for ev, err := range rs.Events() {
		if err != nil {
			t.Fatalf("after %d events: %v", len(got), err)
		}
		got = append(got, string(ev.AppendJSON(nil)))
	}
	if err := sameEvents(got, want); err != nil {
		t.Fatal(err)
	}
	if cutter.Cuts() != 2 || rs.Resumes() != 2 {
		t.Errorf("%d streams cut, %d resumes; want 2 and 2", cutter.Cuts(), rs.Resumes())
	}
	run, err := log.Find(context.Background(), "t", "r")
	if err != nil {
		t.Fatal(err)
	}
	start := runlog.FormatID(run.Key, 0)
	if got := rs.Header().Get(agui.ResumeIDHeader); got != start {
		t.Errorf("the POST's %s is %q, want %q", agui.ResumeIDHeader, got, start)
	}

	resp := get(t, srv.URL, start, "")
	evs := readSSE(t, resp.Body)
	resp.Body.Close()
	if h := resp.Header.Get(agui.ResumeIDHeader); resp.StatusCode != 200 || h != "" {
		t.Errorf("a resume from the start: %d, %s %q", resp.StatusCode, agui.ResumeIDHeader, h)
	}
	got = got[:0]
	for i, e := range evs {
		got = append(got, e.data)
		if wantID := runlog.FormatID(run.Key, int64(1+i)); e.id != wantID {
			t.Errorf("event %d has id %q, want %q", i, e.id, wantID)
		}
	}
	if err := sameEvents(got, want); err != nil {
		t.Errorf("a resume from the start: %v", err)
	}

	prs, err := (&Client{URL: srv.URL, Protobuf: true}).Run(context.Background(), &agui.RunAgentInput{ThreadID: "t", RunID: "p"})
	if err != nil {
		t.Fatal(err)
	}
	defer prs.Close()
	if h := prs.Header().Get(agui.ResumeIDHeader); h != "" {
		t.Errorf("a protobuf run's %s is %q: its frames have no ids", agui.ResumeIDHeader, h)
	}
}

// TestNoResumeFromTheStartInARun: a stream that read events with no id
// after a start id (not a resumable run's server) is not resumed from
// the start, which would deliver its events twice: it fails as cut.
func TestNoResumeFromTheStartInARun(t *testing.T) {
	var requests atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		w.Header().Set("Content-Type", agui.MediaTypeSSE)
		w.Header().Set(agui.ResumeIDHeader, runlog.FormatID(runlog.NewKey(), 0))
		io.WriteString(w, `data: {"type":"RUN_STARTED","threadId":"t","runId":"r"}`+"\n\n")
	}))
	defer srv.Close()
	rs, err := (&Client{URL: srv.URL}).Run(context.Background(), &agui.RunAgentInput{ThreadID: "t", RunID: "r"})
	if err != nil {
		t.Fatal(err)
	}
	if err := rs.Wait(); !errors.Is(err, agui.ErrTruncated) || rs.Resumes() != 0 || requests.Load() != 1 {
		t.Errorf("a run cut after events with no ids: %v, %d resumes, %d requests", err, rs.Resumes(), requests.Load())
	}
}

// TestRejoinAfterALostHeader: a run whose response is lost before its
// header (the server took the request) is joined by the Go client, and
// ends with the conversation an uncut run gives; with resuming off, or
// against a server that has no such run, the lost response is the error.
func TestRejoinAfterALostHeader(t *testing.T) {
	agent := chattyAgent(nil)
	srv := httptest.NewServer(NewHandler(agent, WithLogger(quietLogger()), WithResumableRuns(runlog.NewMemory(runlog.MemoryOptions{}))))
	defer srv.Close()
	target, _ := url.Parse(srv.URL)
	conversation := func(url string, in *agui.RunAgentInput, policy ResumePolicy) ([]agui.Message, error) {
		rs, err := (&Client{URL: url, Resume: policy}).Run(context.Background(), in)
		if err != nil {
			return nil, err
		}
		defer rs.Close()
		for _, err := range rs.Events() {
			if err != nil {
				return nil, err
			}
		}
		return rs.Messages(), nil
	}
	want, err := conversation(srv.URL, &agui.RunAgentInput{ThreadID: "whole", RunID: "r"}, ResumePolicy{})
	if err != nil {
		t.Fatal(err)
	}
	cutter := cutproxy.New(target, cutproxy.BeforeHeader)
	proxy := httptest.NewServer(cutter)
	defer proxy.Close()
	got, err := conversation(proxy.URL, &agui.RunAgentInput{ThreadID: "lost", RunID: "r"}, ResumePolicy{MinDelay: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if cutter.Cuts() != 1 || len(got) != len(want) {
		t.Fatalf("%d cuts, %d messages; want 1 and %d", cutter.Cuts(), len(got), len(want))
	}
	for i := range want {
		if g, w := string(got[i].AppendJSON(nil)), string(want[i].AppendJSON(nil)); g != w {
			t.Errorf("message %d after the rejoin: %s, want %s", i, g, w)
		}
	}

	off := cutproxy.New(target, cutproxy.BeforeHeader)
	offProxy := httptest.NewServer(off)
	defer offProxy.Close()
	if _, err := conversation(offProxy.URL, &agui.RunAgentInput{ThreadID: "t", RunID: "off"}, ResumePolicy{Off: true}); err == nil {
		t.Error("with resuming off, a lost response was no error")
	}
	plain := httptest.NewServer(NewHandler(agent, WithLogger(quietLogger())))
	defer plain.Close()
	plainTarget, _ := url.Parse(plain.URL)
	plainProxy := httptest.NewServer(cutproxy.New(plainTarget, cutproxy.BeforeHeader))
	defer plainProxy.Close()
	if _, err := conversation(plainProxy.URL, &agui.RunAgentInput{ThreadID: "t", RunID: "plain"}, ResumePolicy{MinDelay: time.Millisecond}); err == nil {
		t.Error("a lost response from a server without resumable runs was no error")
	}
}
