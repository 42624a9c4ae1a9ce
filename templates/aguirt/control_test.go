package aguirt

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	agui "github.com/agui-gen/agui-gen/gen/agui"
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
			var he *HTTPError
			switch {
			case tc.status == 200 && (err != nil || *caps.Identity.Name != "weather" || !*caps.HumanInTheLoop.Interrupts):
				t.Errorf("capabilities %+v, %v", caps, err)
			case tc.status != 200 && (!errors.As(err, &he) || he.StatusCode != tc.status):
				t.Errorf("want HTTP %d, got %v", tc.status, err)
			}
		})
	}
	srv := httptest.NewServer(NewHandler(noop, WithCapabilities(declared)))
	defer srv.Close()
	res, err := http.Post(srv.URL+"/agent/capabilities", "application/json", strings.NewReader("{}"))
	if err != nil || res.StatusCode != http.StatusMethodNotAllowed || res.Header.Get("Allow") != "GET, HEAD" {
		t.Errorf("POST to capabilities: %v %v", res.Status, err)
	}
}

// TestCancel: a cancel request stops the agent, and the run ends with a
// cancelled outcome that the client still receives.
func TestCancel(t *testing.T) {
	started := make(chan struct{})
	stopped := make(chan error, 1)
	h := NewHandler(AgentFunc(func(ctx context.Context, in *agui.RunAgentInput, s *Stream) error {
		if err := s.Text("working"); err != nil {
			return err
		}
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
	var he *HTTPError
	if err := c.Cancel(ctx, "t2", "r1"); !errors.As(err, &he) || he.StatusCode != 404 {
		t.Errorf("cancel with the wrong thread: %v", err)
	}
	if err := c.Cancel(ctx, "t1", "r1"); err != nil {
		t.Fatal(err)
	}
	select {
	case cause := <-stopped:
		if !errors.Is(cause, errCancelled) {
			t.Errorf("the agent stopped for %v", cause)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the agent was not stopped")
	}
	var last agui.Event
	for ev, err := range rs.Events() {
		if err != nil {
			t.Fatal(err)
		}
		last = ev
	}
	if fin, ok := last.(*agui.RunFinishedEvent); !ok {
		t.Fatalf("the run ended with %#v", last)
	} else if _, ok := fin.Outcome.(*agui.RunFinishedCancelledOutcome); !ok {
		t.Fatalf("outcome %#v", fin.Outcome)
	}
	if err := c.Cancel(ctx, "t1", "r1"); !errors.As(err, &he) || he.StatusCode != 404 {
		t.Errorf("cancel of a finished run: %v", err)
	}
}

// TestCheckpoints: with checkpoints, a run on a thread with open
// interrupts must answer each of them in its resume.
func TestCheckpoints(t *testing.T) {
	h := NewHandler(AgentFunc(func(ctx context.Context, in *agui.RunAgentInput, s *Stream) error {
		if len(in.Resume) == 0 {
			s.Interrupt(agui.Interrupt{ID: "i1", Reason: "approval"}, agui.Interrupt{ID: "i2", Reason: "approval"})
			return nil
		}
		return s.Text("resumed")
	}), WithCheckpoints(NewMemoryCheckpoints()), WithLogger(quietLogger()))
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
	var he *HTTPError
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
	// The interrupts are answered: the next run is an ordinary one, and it
	// interrupts again.
	if err := run("r5"); err != nil {
		t.Fatalf("after the resume: %v", err)
	}
}
