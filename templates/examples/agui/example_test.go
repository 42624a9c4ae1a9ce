package agui_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"

	"go.opentelemetry.io/otel/propagation"

	agui "github.com/agui-gen/agui-gen/gen/agui"
)

// Events are encoded without reflection, into a buffer the caller reuses,
// and decoded in one pass, dispatching on "type"; a bad one is an
// *agui.Error that names the JSON path and the rule it breaks.
func ExampleUnmarshalEvent() {
	var buf []byte
	ev := &agui.TextMessageContentEvent{MessageID: "m1", Delta: "Hello"}
	buf = append(buf[:0], "data: "...)
	buf = ev.AppendJSON(buf)
	buf = append(buf, "\n\n"...)
	fmt.Print(string(buf))

	data := []byte(`{"type":"TOOL_CALL_START","toolCallId":"c1","toolCallName":"lookup"}`)
	decoded, err := agui.UnmarshalEvent(data)
	switch {
	case errors.Is(err, agui.ErrUnknownEvent):
		return // a newer producer's event type: drop it
	case err != nil:
		log.Fatal(err) // malformed: an *agui.Error with Path and Rule
	}
	if err := decoded.Validate(); err != nil { // enums, bounds, patterns, minItems, not-null
		log.Fatal(err)
	}
	switch ev := decoded.(type) {
	case *agui.ToolCallStartEvent:
		fmt.Println(ev.ToolCallName)
	}

	_, err = agui.UnmarshalEvent([]byte(`{"type":"TOOL_CALL_START","toolCallId":"c1"}`))
	var bad *agui.Error
	if errors.As(err, &bad) {
		fmt.Println(bad.Path, bad.Rule) // /toolCallName required
	}
	// Output:
	// data: {"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"Hello"}
	//
	// lookup
	// /toolCallName required
}

// A Decoder is lenient by default: members the schema does not declare are
// dropped, and reported.
func ExampleDecoder() {
	body := []byte(`{"threadId":"t1","runId":"r1","messages":[],"mood":"sunny"}`)
	d := agui.Decoder{OnUnknown: func(path string) { fmt.Println("dropped", path) }}
	in := new(agui.RunAgentInput)
	if err := d.Decode(body, in); err != nil {
		log.Fatal(err)
	}
	fmt.Println(in.ThreadID)
	// Output:
	// dropped /mood
	// t1
}

// An agent streams a run through the Stream's calls, which open and close
// what the protocol requires around them; the handler serves it as SSE, or
// as protobuf frames to a client that asks for them, and agui.Client runs
// it, checking the sequence and assembling the messages and the state.
func ExampleNewHandler() {
	agent := agui.AgentFunc(func(ctx context.Context, in *agui.RunAgentInput, s *agui.Stream) error {
		s.StartStep("answer")
		id, _ := s.ToolCall("lookup", `{"city":"Paris"}`) // closes open text first
		s.ToolResult(id, "sunny, 21°C")
		s.StateDelta(&agui.ReplaceOperation{Path: "/status", Value: json.RawMessage(`"done"`)})
		return s.Text("It is sunny in Paris.") // TEXT_MESSAGE_START is sent lazily; everything is closed at the end
	})
	h := agui.NewHandler(agent)
	mux := http.NewServeMux()
	mux.Handle("/agent", h)  // POST: a run
	mux.Handle("/agent/", h) // GET /agent/capabilities, POST /agent/cancel, /agent/meta
	srv := httptest.NewServer(mux)
	defer srv.Close()

	client := &agui.Client{URL: srv.URL + "/agent"}
	run, err := client.Run(context.Background(), &agui.RunAgentInput{ThreadID: "t1", RunID: "r1",
		State: json.RawMessage(`{"status":"working"}`), Messages: []agui.Message{}})
	if err != nil {
		log.Fatal(err)
	}
	for ev, err := range run.Events() {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(ev.Type())
	}
	fmt.Println(string(run.State()))
	// Output:
	// RUN_STARTED
	// STEP_STARTED
	// TOOL_CALL_START
	// TOOL_CALL_ARGS
	// TOOL_CALL_END
	// TOOL_CALL_RESULT
	// STATE_DELTA
	// TEXT_MESSAGE_START
	// TEXT_MESSAGE_CONTENT
	// TEXT_MESSAGE_END
	// STEP_FINISHED
	// RUN_FINISHED
	// {"status":"done"}
}

// An agent can stop a run to ask the user (an interrupt), and a resume
// must then answer every open interrupt; a client reads what the agent
// can do and cancels a run in progress.
func ExampleClient_Cancel() {
	started := make(chan struct{})
	agent := agui.AgentFunc(func(ctx context.Context, in *agui.RunAgentInput, s *agui.Stream) error {
		if in.RunID == "r1" {
			return s.Interrupt(agui.Interrupt{ID: "approve", Reason: "confirmation"}) // the run ends with outcome interrupt
		}
		close(started)
		<-ctx.Done() // the agent's context ends when the run is cancelled
		return ctx.Err()
	})
	streaming := true
	h := agui.NewHandler(agent,
		agui.WithCapabilities(&agui.AgentCapabilities{Transport: &agui.TransportCapabilities{Streaming: &streaming}}),
		agui.WithCheckpoints(agui.NewMemoryCheckpoints()), // resumes must answer every open interrupt
	)
	srv := httptest.NewServer(h)
	defer srv.Close()
	ctx := context.Background()
	client := &agui.Client{URL: srv.URL}

	caps, err := client.Capabilities(ctx) // GET {path}/capabilities
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("streaming:", *caps.Transport.Streaming)

	run, err := client.Run(ctx, &agui.RunAgentInput{ThreadID: "t1", RunID: "r1", Messages: []agui.Message{}})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(outcome(run))

	resumed := &agui.RunAgentInput{ThreadID: "t1", RunID: "r2", Messages: []agui.Message{},
		Resume: []agui.ResumeEntry{{InterruptID: "approve", Status: agui.ResumeEntryStatusResolved}}}
	run, err = client.Run(ctx, resumed)
	if err != nil {
		log.Fatal(err)
	}
	<-started
	if err := client.Cancel(ctx, "t1", "r2"); err != nil { // POST {path}/cancel
		log.Fatal(err)
	}
	fmt.Println(outcome(run))
	// Output:
	// streaming: true
	// interrupt
	// cancelled
}

// outcome reads a run to its end and returns the type of its outcome.
func outcome(run *agui.RunStream) string {
	var out string
	for ev, err := range run.Events() {
		if err != nil {
			log.Fatal(err)
		}
		if f, ok := ev.(*agui.RunFinishedEvent); ok && f.Outcome != nil {
			out = f.Outcome.Type()
		}
	}
	return out
}

// META events (feedback, notes, tags) reach the handler beside the runs,
// are kept in a MetaStore (metasqlite and metapg keep them in a database)
// and are read back by thread.
func ExampleClient_SendMeta() {
	agent := agui.AgentFunc(func(ctx context.Context, in *agui.RunAgentInput, s *agui.Stream) error {
		return s.Text("Hello.")
	})
	h := agui.NewHandler(agent, agui.WithMetaStore(agui.NewMemoryMeta()), agui.WithMetaReplay())
	srv := httptest.NewServer(h)
	defer srv.Close()
	ctx := context.Background()
	client := &agui.Client{URL: srv.URL}

	stored, err := client.SendMeta(ctx, "t1", "r1", agui.NewThumbsUpMeta("msg-1")) // POST {path}/meta
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(stored))
	page, err := client.Meta(ctx, agui.MetaQuery{ThreadID: "t1", MetaType: "thumbs_up"}) // GET {path}/meta
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(page.Events[0].Event.Payload.MetaType(), page.Events[0].Event.MessageID())
	// Output:
	// 1
	// thumbs_up msg-1
}

// LogHandler puts on a record the trace_id and span_id of the span it is
// logged in. The handler gives its agent the run's context, inside the
// run's span or, with no SDK installed, in the trace its request carries
// (traceparent), so the agent's logs read with the caller's trace.
func ExampleLogHandler() {
	handler := slog.NewTextHandler(os.Stdout, &slog.HandlerOptions{ReplaceAttr: dropTime})
	logger := slog.New(agui.LogHandler(handler))
	agent := agui.AgentFunc(func(ctx context.Context, in *agui.RunAgentInput, s *agui.Stream) error {
		logger.InfoContext(ctx, "looking up the weather")
		return s.Text("Sunny.")
	})
	tel := &agui.Telemetry{Propagator: propagation.TraceContext{}, AgentName: "weather"}
	srv := httptest.NewServer(agui.NewHandler(agent, agui.WithLogger(logger), agui.WithTelemetry(tel)))
	defer srv.Close()

	client := &agui.Client{URL: srv.URL, Header: http.Header{"Traceparent": {"00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"}}}
	run, err := client.Run(context.Background(), &agui.RunAgentInput{ThreadID: "t1", RunID: "r1"})
	if err != nil {
		log.Fatal(err)
	}
	if err := run.Wait(); err != nil {
		log.Fatal(err)
	}
	// Output:
	// level=INFO msg="looking up the weather" trace_id=0af7651916cd43dd8448eb211c80319c span_id=b7ad6b7169203331
}

// dropTime leaves the time out of a log record, for a stable output.
func dropTime(_ []string, a slog.Attr) slog.Attr {
	if a.Key == slog.TimeKey {
		return slog.Attr{}
	}
	return a
}
