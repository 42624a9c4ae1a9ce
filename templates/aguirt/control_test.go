package aguirt

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	agui "github.com/agui-gen/agui-gen/gen/agui"
	"github.com/agui-gen/agui-gen/runtime/inflight"
)

type capableAgent struct {
	AgentFunc
	caps *agui.AgentCapabilities
	err  error
}

func (a capableAgent) Capabilities(context.Context) (*agui.AgentCapabilities, error) {
	return a.caps, a.err
}

func TestCapabilities(t *testing.T) {
	noop := AgentFunc(func(context.Context, *agui.RunAgentInput, *Stream) error { return nil })
	yes, name := true, "weather"
	declared := &agui.AgentCapabilities{Identity: &agui.IdentityCapabilities{Name: &name},
		Transport: &agui.TransportCapabilities{Streaming: &yes}, HumanInTheLoop: &agui.HumanInTheLoopCapabilities{Interrupts: &yes}}
	for _, tc := range []struct {
		name   string
		h      http.Handler
		status int
	}{
		{"provider", NewHandler(capableAgent{AgentFunc: noop, caps: declared}, WithLogger(quietLogger())), 200},
		{"option", NewHandler(noop, WithCapabilities(declared), WithLogger(quietLogger())), 200},
		{"none", NewHandler(noop, WithLogger(quietLogger())), 404},
		{"provider fails", NewHandler(capableAgent{AgentFunc: noop, err: errors.New("db down")}, WithLogger(quietLogger())), 500},
		{"invalid", NewHandler(noop, WithCapabilities(&agui.AgentCapabilities{Custom: []byte(`[1]`)}), WithLogger(quietLogger())), 500},
		{"behind auth", NewHandler(noop, WithCapabilities(declared), WithBearerToken("k"), WithLogger(quietLogger())), 401},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := httptest.NewServer(tc.h)
			defer srv.Close()
			caps, err := (&Client{URL: srv.URL + "/agent"}).Capabilities(context.Background())
			var he *agui.HTTPError
			switch {
			case tc.status == 200 && (err != nil || *caps.Identity.Name != "weather" || !*caps.HumanInTheLoop.Interrupts):
				t.Errorf("capabilities %+v, %v", caps, err)
			case tc.status != 200 && (!errors.As(err, &he) || he.StatusCode != tc.status):
				t.Errorf("want HTTP %d, got %v", tc.status, err)
			}
		})
	}
	var log bytes.Buffer
	NewHandler(noop, WithCapabilities(&agui.AgentCapabilities{Custom: []byte(`[1]`)}), WithLogger(slog.New(slog.NewTextHandler(&log, nil))))
	if !strings.Contains(log.String(), "WithCapabilities: the declaration is invalid") {
		t.Errorf("an invalid declaration went unreported at construction: %q", log.String())
	}

	srv := httptest.NewServer(NewHandler(noop, WithCapabilities(declared)))
	defer srv.Close()
	res, err := http.Post(srv.URL+"/agent/capabilities", "application/json", strings.NewReader("{}"))
	if err != nil || res.StatusCode != http.StatusMethodNotAllowed || res.Header.Get("Allow") != "GET, HEAD" {
		t.Errorf("POST to capabilities: %v %v", res.Status, err)
	}
}

// TestCancel: a cancel request stops the agent, and the run ends with a
// cancelled outcome, without the result the agent set, that the client
// still receives.
func TestCancel(t *testing.T) {
	started := make(chan struct{})
	stopped := make(chan error, 1)
	h := NewHandler(AgentFunc(func(ctx context.Context, in *agui.RunAgentInput, s *Stream) error {
		if err := s.Text("working"); err != nil {
			return err
		}
		s.SetResult([]byte(`{"partial":true}`))
		close(started)
		<-ctx.Done()
		stopped <- context.Cause(ctx)
		return ctx.Err()
	}), WithLogger(quietLogger()))
	srv := httptest.NewServer(h)
	defer srv.Close()
	c := &Client{URL: srv.URL}
	ctx := context.Background()
	rs, err := c.Run(ctx, &agui.RunAgentInput{ThreadID: "t1", RunID: "r1", Messages: []agui.Message{}})
	if err != nil {
		t.Fatal(err)
	}
	<-started
	// The same run id again is refused while the run is in progress.
	if _, err := c.Run(ctx, &agui.RunAgentInput{ThreadID: "t1", RunID: "r1", Messages: []agui.Message{}}); err == nil || !strings.Contains(err.Error(), "409") {
		t.Errorf("a second run r1: %v", err)
	}
	var he *agui.HTTPError
	if err := c.Cancel(ctx, "t2", "r1"); !errors.As(err, &he) || he.StatusCode != 404 {
		t.Errorf("cancel with the wrong thread: %v", err)
	}
	// A text/plain body would let any web page cancel runs without a CORS
	// preflight.
	res, err := http.Post(srv.URL+agui.CancelPath, "text/plain", strings.NewReader(`{"threadId":"t1","runId":"r1"}`))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusUnsupportedMediaType {
		t.Errorf("a text/plain cancel: %s", res.Status)
	}
	if err := c.Cancel(ctx, "t1", "r1"); err != nil {
		t.Fatal(err)
	}
	select {
	case cause := <-stopped:
		if !errors.Is(cause, inflight.ErrCancelled) {
			t.Errorf("the agent stopped for %v", cause)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the agent was not stopped")
	}
	evs := streamed(t, rs)
	last := evs[len(evs)-1]
	if fin, ok := last.(*agui.RunFinishedEvent); !ok {
		t.Fatalf("the run ended with %#v", last)
	} else if _, ok := fin.Outcome.(*agui.RunFinishedCancelledOutcome); !ok || fin.Result != nil {
		t.Fatalf("outcome %#v, result %s", fin.Outcome, fin.Result)
	}
	if err := c.Cancel(ctx, "t1", "r1"); !errors.As(err, &he) || he.StatusCode != 404 {
		t.Errorf("cancel of a finished run: %v", err)
	}
}

// TestCheckpoints: with checkpoints, a run on a thread with open
// interrupts must answer each of them in its resume; an entry for an
// interrupt that is not open does not reach the agent.
func TestCheckpoints(t *testing.T) {
	var resumedWith []string
	h := NewHandler(AgentFunc(func(ctx context.Context, in *agui.RunAgentInput, s *Stream) error {
		if len(in.Resume) == 0 {
			return s.Interrupt(agui.Interrupt{ID: "i1", Reason: "approval"}, agui.Interrupt{ID: "i2", Reason: "approval"})
		}
		for _, e := range in.Resume {
			resumedWith = append(resumedWith, e.InterruptID)
		}
		return s.Text("resumed")
	}), WithCheckpoints(agui.NewMemoryCheckpoints()), WithLogger(quietLogger()))
	srv := httptest.NewServer(h)
	defer srv.Close()
	c := &Client{URL: srv.URL}
	ctx := context.Background()
	run := func(runID string, resume ...agui.ResumeEntry) error {
		rs, err := c.Run(ctx, &agui.RunAgentInput{ThreadID: "t1", RunID: runID, Messages: []agui.Message{}, Resume: resume})
		if err != nil {
			return err
		}
		return rs.Wait()
	}
	if err := run("r1"); err != nil {
		t.Fatal(err)
	}
	var he *agui.HTTPError
	if err := run("r2"); !errors.As(err, &he) || he.StatusCode != http.StatusConflict || !strings.Contains(string(he.Body), "i1, i2") {
		t.Fatalf("a run that ignores the open interrupts: %v", err)
	}
	if err := run("r3", agui.ResumeEntry{InterruptID: "i1", Status: agui.ResumeEntryStatusResolved}); !errors.As(err, &he) || !strings.Contains(string(he.Body), `"path":"/resume"`) {
		t.Fatalf("a resume that leaves i2 out: %v", err)
	}
	if err := run("r4", agui.ResumeEntry{InterruptID: "i1", Status: agui.ResumeEntryStatusResolved},
		agui.ResumeEntry{InterruptID: "i2", Status: agui.ResumeEntryStatusCancelled}, agui.ResumeEntry{InterruptID: "zz", Status: agui.ResumeEntryStatusCancelled}); err != nil {
		t.Fatalf("a covering resume: %v", err)
	}
	if got := strings.Join(resumedWith, ","); got != "i1,i2" {
		t.Errorf("the agent was given resume entries for %s", got)
	}
	// The interrupts are answered: the next run is an ordinary one, and it
	// interrupts again.
	if err := run("r5"); err != nil {
		t.Fatalf("after the resume: %v", err)
	}
}

// runInThread is a RunAgentInput with no messages.
func runInThread(threadID, runID string, resume ...agui.ResumeEntry) *agui.RunAgentInput {
	return &agui.RunAgentInput{ThreadID: threadID, RunID: runID, Messages: []agui.Message{}, Resume: resume}
}

// hookedCheckpoints calls beforeSet before each SetInterrupts.
type hookedCheckpoints struct {
	agui.Checkpoints
	beforeSet func()
}

func (c hookedCheckpoints) SetInterrupts(ctx context.Context, threadID string, open []agui.Interrupt) error {
	c.beforeSet()
	return c.Checkpoints.SetInterrupts(ctx, threadID, open)
}

// TestConcurrentResumesOfOneInterrupt: while one run answers a thread's
// interrupt, a second answer to it is refused, so the agent acts on it
// once.
func TestConcurrentResumesOfOneInterrupt(t *testing.T) {
	var acted atomic.Int32
	acting, release := make(chan struct{}, 2), make(chan struct{})
	h := NewHandler(AgentFunc(func(ctx context.Context, in *agui.RunAgentInput, s *Stream) error {
		if len(in.Resume) == 0 {
			return s.Interrupt(agui.Interrupt{ID: "pay", Reason: "approval"})
		}
		acted.Add(1)
		acting <- struct{}{}
		<-release
		return s.Text("paid")
	}), WithCheckpoints(agui.NewMemoryCheckpoints()), WithLogger(quietLogger()))
	srv := httptest.NewServer(h)
	defer srv.Close()
	c := &Client{URL: srv.URL}
	ctx := context.Background()
	rs, err := c.Run(ctx, runInThread("t1", "r1"))
	if err != nil || rs.Wait() != nil {
		t.Fatalf("the interrupting run: %v", err)
	}
	approve := agui.ResumeEntry{InterruptID: "pay", Status: agui.ResumeEntryStatusResolved}
	first, err := c.Run(ctx, runInThread("t1", "r2", approve))
	if err != nil {
		t.Fatal(err)
	}
	<-acting
	var he *agui.HTTPError
	if _, err := c.Run(ctx, runInThread("t1", "r3", approve)); !errors.As(err, &he) || he.StatusCode != http.StatusConflict {
		t.Errorf("a second resume while the first runs: %v", err)
	}
	close(release)
	if err := first.Wait(); err != nil {
		t.Fatal(err)
	}
	if n := acted.Load(); n != 1 {
		t.Errorf("the agent acted on the interrupt's answer %d times", n)
	}
}

// TestCheckpointIsKeptBeforeRunFinished: a client that resumes as soon as
// it reads RUN_FINISHED finds the thread's interrupts as the run left
// them, however slow the store, and its resume answers them.
func TestCheckpointIsKeptBeforeRunFinished(t *testing.T) {
	var resumedWith []string
	memory := agui.NewMemoryCheckpoints()
	store := hookedCheckpoints{memory, func() { time.Sleep(50 * time.Millisecond) }}
	h := NewHandler(AgentFunc(func(ctx context.Context, in *agui.RunAgentInput, s *Stream) error {
		if in.RunID == "r1" {
			return s.Interrupt(agui.Interrupt{ID: "i1", Reason: "approval"})
		}
		for _, e := range in.Resume {
			resumedWith = append(resumedWith, e.InterruptID)
		}
		return s.Text("ok")
	}), WithCheckpoints(store), WithLogger(quietLogger()))
	srv := httptest.NewServer(h)
	c := &Client{URL: srv.URL}
	ctx := context.Background()
	// untilFinished reads a run up to its RUN_FINISHED and leaves.
	untilFinished := func(input *agui.RunAgentInput) {
		t.Helper()
		rs, err := c.Run(ctx, input)
		if err != nil {
			t.Fatalf("%s: %v", input.RunID, err)
		}
		defer rs.Close()
		for ev, err := range rs.Events() {
			if err != nil {
				t.Fatalf("%s: %v", input.RunID, err)
			}
			if _, ok := ev.(*agui.RunFinishedEvent); ok {
				return
			}
		}
		t.Fatalf("%s ended without RUN_FINISHED", input.RunID)
	}
	untilFinished(runInThread("t1", "r1"))
	untilFinished(runInThread("t1", "r2", agui.ResumeEntry{InterruptID: "i1", Status: agui.ResumeEntryStatusResolved}))
	srv.Close() // waits for the handlers, and whatever they keep
	if strings.Join(resumedWith, ",") != "i1" {
		t.Errorf("the resume reached the agent as %v", resumedWith)
	}
	if open, _ := memory.Interrupts(ctx, "t1"); len(open) != 0 {
		t.Errorf("the answered interrupts are open again: %v", open)
	}
}

// leaveOnRunFinished is a client that goes away once RUN_FINISHED is
// written to it.
type leaveOnRunFinished struct {
	http.ResponseWriter
	leave context.CancelFunc
}

func (w leaveOnRunFinished) Write(b []byte) (int, error) {
	n, err := w.ResponseWriter.Write(b)
	if strings.Contains(string(b), `"RUN_FINISHED"`) {
		w.leave()
	}
	return n, err
}

func (w leaveOnRunFinished) Flush() { w.ResponseWriter.(http.Flusher).Flush() }

// TestCheckpointClearedWhenTheClientLeavesOnRunFinished: a resume whose
// client goes as soon as it has RUN_FINISHED still answers the thread's
// interrupts.
func TestCheckpointClearedWhenTheClientLeavesOnRunFinished(t *testing.T) {
	store := agui.NewMemoryCheckpoints()
	h := NewHandler(AgentFunc(func(ctx context.Context, in *agui.RunAgentInput, s *Stream) error {
		if len(in.Resume) == 0 {
			return s.Interrupt(agui.Interrupt{ID: "i1", Reason: "approval"})
		}
		return s.Text("done")
	}), WithCheckpoints(store), WithLogger(quietLogger()))
	if rec := post(t, h, `{"threadId":"t1","runId":"r1","messages":[]}`, nil); !strings.Contains(rec.Body.String(), `"interrupts"`) {
		t.Fatalf("the interrupting run: %s", rec.Body)
	}
	ctx, leave := context.WithCancel(context.Background())
	defer leave()
	req := httptest.NewRequestWithContext(ctx, http.MethodPost, "/agent",
		strings.NewReader(`{"threadId":"t1","runId":"r2","messages":[],"resume":[{"interruptId":"i1","status":"resolved"}]}`))
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	h.ServeHTTP(leaveOnRunFinished{rec, leave}, req)
	if !strings.Contains(rec.Body.String(), `"RUN_FINISHED"`) {
		t.Fatalf("the resume: %s", rec.Body)
	}
	if open, _ := store.Interrupts(context.Background(), "t1"); len(open) != 0 {
		t.Errorf("the thread still has open interrupts %v", open)
	}
}

// TestCancelEndsTheRunWhenTheAgentIgnoresIt: once a cancel is accepted,
// nothing the agent emits goes out (its calls return the cancel), and the
// run ends with a cancelled outcome while the agent is still running.
func TestCancelEndsTheRunWhenTheAgentIgnoresIt(t *testing.T) {
	started, cancelled, release := make(chan struct{}), make(chan struct{}), make(chan struct{})
	late := make(chan error, 1)
	h := NewHandler(AgentFunc(func(ctx context.Context, in *agui.RunAgentInput, s *Stream) error {
		if err := s.Text("before"); err != nil {
			return err
		}
		close(started)
		<-cancelled
		late <- s.Text("after")
		<-release // not ctx
		return nil
	}), WithLogger(quietLogger()))
	srv := httptest.NewServer(h)
	defer srv.Close()
	defer close(release) // lets the agent, which ignores ctx, return
	c := &Client{URL: srv.URL}
	ctx, stop := context.WithTimeout(context.Background(), 5*time.Second)
	defer stop()
	rs, err := c.Run(ctx, runInThread("t1", "r1"))
	if err != nil {
		t.Fatal(err)
	}
	<-started
	if err := c.Cancel(ctx, "t1", "r1"); err != nil {
		t.Fatal(err)
	}
	close(cancelled)
	var deltas []string
	var last agui.Event
	for ev, err := range rs.Events() {
		if err != nil {
			t.Fatalf("the run did not end while its agent ran on: %v", err)
		}
		if e, ok := ev.(*agui.TextMessageContentEvent); ok {
			deltas = append(deltas, e.Delta)
		}
		last = ev
	}
	if fin, ok := last.(*agui.RunFinishedEvent); !ok {
		t.Errorf("the run ended with %#v", last)
	} else if _, ok := fin.Outcome.(*agui.RunFinishedCancelledOutcome); !ok {
		t.Errorf("outcome %#v", fin.Outcome)
	}
	if err := <-late; !errors.Is(err, inflight.ErrCancelled) {
		t.Errorf("the agent's call after the cancel: %v", err)
	}
	if got := strings.Join(deltas, ","); got != "before" {
		t.Errorf("text sent: %s", got)
	}
}

// TestCancelAfterTheAgentReturned: a cancel that arrives once the agent
// has returned, while its run is ending, is refused, and the run keeps its
// outcome and result.
func TestCancelAfterTheAgentReturned(t *testing.T) {
	var c *Client
	var cancelErr error
	// The checkpoint is kept after the agent returned, before RUN_FINISHED.
	store := hookedCheckpoints{agui.NewMemoryCheckpoints(), func() {
		// Bounded: a cancel that waited on the ending run would hang here.
		ctx, stop := context.WithTimeout(context.Background(), 5*time.Second)
		defer stop()
		cancelErr = c.Cancel(ctx, "t1", "r1")
	}}
	h := NewHandler(AgentFunc(func(ctx context.Context, in *agui.RunAgentInput, s *Stream) error {
		s.SetResult([]byte(`{"booked":true}`))
		return s.Interrupt(agui.Interrupt{ID: "i1", Reason: "approval"})
	}), WithCheckpoints(store), WithLogger(quietLogger()))
	srv := httptest.NewServer(h)
	defer srv.Close()
	c = &Client{URL: srv.URL}
	rs, err := c.Run(context.Background(), runInThread("t1", "r1"))
	if err != nil {
		t.Fatal(err)
	}
	evs := streamed(t, rs)
	last := evs[len(evs)-1]
	var he *agui.HTTPError
	if !errors.As(cancelErr, &he) || he.StatusCode != http.StatusNotFound {
		t.Errorf("a cancel after the agent returned: %v", cancelErr)
	}
	fin, ok := last.(*agui.RunFinishedEvent)
	if !ok {
		t.Fatalf("the run ended with %#v", last)
	}
	if _, ok := fin.Outcome.(*agui.RunFinishedInterruptOutcome); !ok || string(fin.Result) != `{"booked":true}` {
		t.Errorf("outcome %#v, result %s", fin.Outcome, fin.Result)
	}
}

// TestRunIDsAreScopedToTheirThread: a run id in progress on one thread is
// free on another, and a cancel names the thread's.
func TestRunIDsAreScopedToTheirThread(t *testing.T) {
	started := make(chan struct{}, 2)
	h := NewHandler(AgentFunc(func(ctx context.Context, in *agui.RunAgentInput, s *Stream) error {
		started <- struct{}{}
		<-ctx.Done()
		return ctx.Err()
	}), WithLogger(quietLogger()))
	srv := httptest.NewServer(h)
	defer srv.Close()
	c := &Client{URL: srv.URL}
	ctx := context.Background()
	var streams []*RunStream
	defer func() {
		for _, rs := range streams {
			rs.Close()
		}
	}()
	for _, thread := range []string{"tA", "tB"} {
		rs, err := c.Run(ctx, runInThread(thread, "run-1"))
		if err != nil {
			t.Fatalf("run-1 of %s: %v", thread, err)
		}
		<-started
		streams = append(streams, rs)
	}
	for i, thread := range []string{"tA", "tB"} {
		if err := c.Cancel(ctx, thread, "run-1"); err != nil {
			t.Fatalf("cancel run-1 of %s: %v", thread, err)
		}
		if err := streams[i].Wait(); err != nil {
			t.Errorf("run-1 of %s: %v", thread, err)
		}
	}
}

// TestCancelIsTheCallersOwn: with WithAuthenticator a run is its caller's:
// the agent reads the caller from its context, and another caller's cancel
// finds no such run.
func TestCancelIsTheCallersOwn(t *testing.T) {
	started := make(chan string, 1)
	h := NewHandler(AgentFunc(func(ctx context.Context, in *agui.RunAgentInput, s *Stream) error {
		started <- agui.CallerFrom(ctx)
		<-ctx.Done()
		return ctx.Err()
	}), WithLogger(quietLogger()), WithAuthenticator(func(r *http.Request) (string, error) {
		user, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		if !ok || (user != "alice" && user != "bob") {
			return "", errors.New("who are you?")
		}
		return user, nil
	}))
	srv := httptest.NewServer(h)
	defer srv.Close()
	as := func(user string) *Client {
		return &Client{URL: srv.URL, Header: http.Header{"Authorization": {"Bearer " + user}}}
	}
	ctx, stop := context.WithTimeout(context.Background(), 10*time.Second)
	defer stop()
	rs, err := as("alice").Run(ctx, &agui.RunAgentInput{ThreadID: "t1", RunID: "r1", Messages: []agui.Message{}})
	if err != nil {
		t.Fatal(err)
	}
	if caller := <-started; caller != "alice" {
		t.Errorf("the agent's caller is %q", caller)
	}
	var he *agui.HTTPError
	if err := as("bob").Cancel(ctx, "t1", "r1"); !errors.As(err, &he) || he.StatusCode != http.StatusNotFound {
		t.Errorf("bob cancelled alice's run: %v", err)
	}
	if err := as("mallory").Cancel(ctx, "t1", "r1"); !errors.As(err, &he) || he.StatusCode != http.StatusUnauthorized {
		t.Errorf("an unknown caller's cancel: %v", err)
	}
	if err := as("alice").Cancel(ctx, "t1", "r1"); err != nil {
		t.Fatalf("alice's cancel: %v", err)
	}
	evs := streamed(t, rs)
	last := evs[len(evs)-1]
	if fin, ok := last.(*agui.RunFinishedEvent); !ok {
		t.Errorf("the run ended with %#v", last)
	} else if _, cancelled := fin.Outcome.(*agui.RunFinishedCancelledOutcome); !cancelled {
		t.Errorf("the run ended %s", fin.AppendJSON(nil))
	}
}
