package interop_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agui-gen/agui-gen/gen/agui"
	"github.com/agui-gen/agui-gen/runtime/runlog"
)

// scriptedAgent uses every event family the stream builder offers.
var scriptedAgent = agui.AgentFunc(func(ctx context.Context, in *agui.RunAgentInput, s *agui.Stream) error {
	steps := []func() error{
		func() error { return s.StateSnapshot(json.RawMessage(`{"status":"planning","lookups":0}`)) },
		func() error { return s.StartStep("plan") },
		func() error { return s.Reasoning("Looking it up first.") },
		func() error {
			return s.ActivitySnapshot("act-1", "progress", json.RawMessage(`{"percent":0}`))
		},
		func() error {
			id, err := s.ToolCall("lookup", `{"city":"Paris"}`)
			if err != nil {
				return err
			}
			return s.ToolResult(id, "sunny, 21°C")
		},
		func() error {
			return s.ActivityDelta("act-1", "progress", &agui.ReplaceOperation{Path: "/percent", Value: json.RawMessage(`100`)})
		},
		func() error {
			return s.StateDelta(&agui.ReplaceOperation{Path: "/status", Value: json.RawMessage(`"done"`)},
				&agui.ReplaceOperation{Path: "/lookups", Value: json.RawMessage(`1`)})
		},
		func() error { return s.FinishStep("plan") },
		func() error { return s.Text("It is sunny ") },
		func() error { return s.Text("in Paris.") },
	}
	for _, step := range steps {
		if err := step(); err != nil {
			return err
		}
	}
	return nil
})

type httpAgentRun struct {
	OK         bool              `json:"ok"`
	Error      string            `json:"error"`
	EventTypes []string          `json:"eventTypes"`
	Messages   []json.RawMessage `json:"messages"`
	State      json.RawMessage   `json:"state"`
	Warnings   []string          `json:"warnings"`
	// ContentType is the response's: the transport the handler chose.
	ContentType string `json:"contentType"`
}

// TestHTTPAgentAgainstGeneratedHandler: @ag-ui/client@1.0.0's HttpAgent, the
// client CopilotKit builds on, runs against agui.NewHandler and ends with
// the messages and state the agent built, with no warning.
func TestHTTPAgentAgainstGeneratedHandler(t *testing.T) {
	requireNode(t)
	var served []string // the response Content-Type of each run
	h := agui.NewHandler(scriptedAgent)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.ServeHTTP(w, r)
		served = append(served, w.Header().Get("Content-Type"))
	}))
	defer srv.Close()
	t.Run("sse", func(t *testing.T) { checkHTTPAgentRun(t, srv.URL) })
	t.Run("protobuf", func(t *testing.T) { checkHTTPAgentRun(t, "--proto", srv.URL) })
	if want := []string{"text/event-stream", "application/vnd.ag-ui.event+proto"}; !slices.Equal(served, want) {
		t.Errorf("transports served %v, want %v", served, want)
	}
}

// TestHTTPAgentAgainstResumableHandler: with resumable runs on, every SSE
// event carries an id and the runs are logged; @ag-ui/client 1.0.0 and
// 0.0.59, which do not resume, read the runs as without them (SSE and
// protobuf), and the capabilities declare transport.resumable.
func TestHTTPAgentAgainstResumableHandler(t *testing.T) {
	requireNode(t)
	log := runlog.NewMemory(runlog.MemoryOptions{})
	h := agui.NewHandler(scriptedAgent, agui.WithResumableRuns(log))
	var ids atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.ServeHTTP(&idCounter{ResponseWriter: w, n: &ids}, r)
	}))
	defer srv.Close()
	t.Run("sse", func(t *testing.T) { checkHTTPAgentRun(t, srv.URL) })
	t.Run("protobuf", func(t *testing.T) { checkHTTPAgentRun(t, "--proto", srv.URL) })
	t.Run("0.0.59", func(t *testing.T) { checkHTTPAgentRun(t, "--client", "0.0.59", srv.URL) })
	if ids.Load() == 0 {
		t.Error("the SSE runs carried no event ids: the option did not reach the wire")
	}
	if log.Len() != 3 {
		t.Errorf("%d runs logged, want 3", log.Len())
	}
}

// idCounter counts the id lines a response writes.
type idCounter struct {
	http.ResponseWriter
	n *atomic.Int64
}

func (c *idCounter) Write(b []byte) (int, error) {
	c.n.Add(int64(bytes.Count(b, []byte("\nid: r1.")) + bytes.Count(b[:min(len(b), 7)], []byte("id: r1."))))
	return c.ResponseWriter.Write(b)
}

func (c *idCounter) Flush() { http.NewResponseController(c.ResponseWriter).Flush() }

func (c *idCounter) Unwrap() http.ResponseWriter { return c.ResponseWriter }

// TestHTTPAgent0059AgainstGeneratedHandler: @ag-ui/client 0.0.59, the one
// CopilotKit 1.74/1.75 bundles, declares no protocol version, and its
// protobuf schema has no REASONING_* messages: asking for protobuf, it is
// served SSE, which it reads by the Content-Type, and the run is the same
// as over SSE.
func TestHTTPAgent0059AgainstGeneratedHandler(t *testing.T) {
	requireNode(t)
	h := agui.NewHandler(scriptedAgent)
	srv := httptest.NewServer(h)
	defer srv.Close()
	for _, args := range [][]string{{srv.URL}, {"--proto", srv.URL}} {
		run := checkHTTPAgentRun(t, append([]string{"--client", "0.0.59"}, args...)...)
		if run.ContentType != "text/event-stream" {
			t.Errorf("%v: served %q, want SSE", args, run.ContentType)
		}
	}
}

func checkHTTPAgentRun(t *testing.T, args ...string) httpAgentRun {
	var run httpAgentRun
	out := runNode(t, nil, append([]string{"run-httpagent.mjs"}, args...)...)
	if err := json.Unmarshal(out, &run); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if !run.OK {
		t.Fatalf("HttpAgent rejected the run: %s (events %v)", run.Error, run.EventTypes)
	}
	if len(run.Warnings) > 0 {
		t.Errorf("HttpAgent warned: %q", run.Warnings)
	}
	for _, want := range []string{"RUN_STARTED", "STEP_STARTED", "REASONING_MESSAGE_CONTENT", "TOOL_CALL_START", "TOOL_CALL_RESULT",
		"ACTIVITY_DELTA", "STATE_DELTA", "TEXT_MESSAGE_CONTENT", "RUN_FINISHED"} {
		if !slices.Contains(run.EventTypes, want) {
			t.Errorf("HttpAgent saw no %s: %v", want, run.EventTypes)
		}
	}
	sameJSON(t, []byte(`{"status":"done","lookups":1}`), run.State)
	var roles []string
	var answer string
	for _, m := range run.Messages {
		var msg struct {
			Role    string `json:"role"`
			Content any    `json:"content"`
		}
		_ = json.Unmarshal(m, &msg)
		roles = append(roles, msg.Role)
		if s, ok := msg.Content.(string); ok && msg.Role == "assistant" {
			answer += s
		}
	}
	for _, want := range []string{"user", "reasoning", "activity", "assistant", "tool"} {
		if !slices.Contains(roles, want) {
			t.Errorf("no %s message among %v", want, roles)
		}
	}
	if answer != "It is sunny in Paris." {
		t.Errorf("assistant text %q", answer)
	}
	return run
}

// controlScriptReport is what run-httpagent-control.mjs prints.
type controlScriptReport struct {
	Declared     string `json:"declared"`
	Capabilities struct {
		OK    bool            `json:"ok"`
		Error string          `json:"error"`
		Value json.RawMessage `json:"value"`
	} `json:"capabilities"`
	Cancel struct {
		httpAgentRun
		Status  int               `json:"status"`
		Events  []json.RawMessage `json:"events"`
		Outcome json.RawMessage   `json:"outcome"`
	} `json:"cancel"`
	Late struct {
		Status int `json:"status"`
	} `json:"late"`
}

// TestHTTPAgentCapabilitiesAndCancel: a client built on @ag-ui/client's
// HttpAgent reads the handler's capabilities (HttpAgent 1.0.0 declares
// getCapabilities but leaves it to subclasses) and they parse with
// @ag-ui/core's AgentCapabilitiesSchema as served; it cancels a run
// HttpAgent is streaming with POST {URL}/cancel, and HttpAgent sees the
// run finish with a cancelled outcome; a cancel after the end gets 404.
func TestHTTPAgentCapabilitiesAndCancel(t *testing.T) {
	requireNode(t)
	stopped := make(chan struct{}, 1)
	agent := agui.AgentFunc(func(ctx context.Context, in *agui.RunAgentInput, s *agui.Stream) error {
		if err := s.StateSnapshot(json.RawMessage(`{"busy":true}`)); err != nil {
			return err
		}
		<-ctx.Done()
		stopped <- struct{}{}
		return ctx.Err()
	})
	yes, name := true, "slow"
	caps := &agui.AgentCapabilities{Identity: &agui.IdentityCapabilities{Name: &name},
		Transport: &agui.TransportCapabilities{Streaming: &yes}, Execution: &agui.ExecutionCapabilities{},
		HumanInTheLoop: &agui.HumanInTheLoopCapabilities{Interrupts: &yes}, Custom: json.RawMessage(`{"x-demo":{"level":2}}`)}
	srv := httptest.NewServer(agui.NewHandler(agent, agui.WithCapabilities(caps)))
	defer srv.Close()

	var out controlScriptReport
	raw := runNode(t, nil, "run-httpagent-control.mjs", srv.URL)
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatalf("%v\n%s", err, raw)
	}
	t.Logf("HttpAgent#getCapabilities is %s", out.Declared)
	if !out.Capabilities.OK {
		t.Errorf("getCapabilities: %s", out.Capabilities.Error)
	} else {
		sameJSON(t, caps.AppendJSON(nil), out.Capabilities.Value)
	}

	if !out.Cancel.OK || out.Cancel.Status != http.StatusAccepted {
		t.Fatalf("the cancelled run: %s, cancel status %d, events %v", out.Cancel.Error, out.Cancel.Status, out.Cancel.EventTypes)
	}
	if n := len(out.Cancel.EventTypes); n == 0 || out.Cancel.EventTypes[n-1] != "RUN_FINISHED" {
		t.Errorf("events %v", out.Cancel.EventTypes)
	}
	sameJSON(t, []byte(`{"type":"cancelled"}`), out.Cancel.Outcome)
	select {
	case <-stopped:
	case <-time.After(10 * time.Second):
		t.Error("the cancelled run's agent never stopped")
	}
	if out.Late.Status != http.StatusNotFound {
		t.Errorf("a cancel after the run ended: %d", out.Late.Status)
	}
	var lines []schemaLine
	for _, ev := range out.Cancel.Events {
		lines = append(lines, schemaLine{Schema: "agui", Def: "Event", Value: ev})
	}
	checkSchemaLines(t, lines)
}
