package agui_test

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"iter"
	"log"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"time"

	"go.opentelemetry.io/otel/propagation"

	agui "github.com/agui-gen/agui-gen/gen/agui"
	"github.com/agui-gen/agui-gen/runtime/runlog"
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

// Runs that outlive their connection: the handler logs each run's events
// and every SSE event carries an id, so a Client whose stream is cut
// resumes it by itself (GET with Last-Event-ID), and another client joins
// a run in progress, made whole by a prelude.
func ExampleWithResumableRuns() {
	halfway, goOn := make(chan struct{}), make(chan struct{})
	agent := agui.AgentFunc(func(ctx context.Context, in *agui.RunAgentInput, s *agui.Stream) error {
		if err := s.Text("Hello, "); err != nil {
			return err
		}
		close(halfway)
		<-goOn
		return s.Text("world")
	})
	h := agui.NewHandler(agent,
		agui.WithResumableRuns(runlog.NewMemory(runlog.MemoryOptions{}), agui.DetachedTimeout(time.Minute)),
	)
	srv := httptest.NewServer(h)
	defer srv.Close()
	ctx := context.Background()
	client := &agui.Client{URL: srv.URL} // resumes a cut stream (Client.Resume)

	run, err := client.Run(ctx, &agui.RunAgentInput{ThreadID: "t1", RunID: "r1", Messages: []agui.Message{}})
	if err != nil {
		log.Fatal(err)
	}
	<-halfway
	joined, err := client.Join(ctx, "t1", "r1") // GET {path}?threadId=t1&runId=r1
	if err != nil {
		log.Fatal(err)
	}
	close(goOn)
	for _, rs := range []*agui.RunStream{run, joined} {
		if err := rs.Wait(); err != nil {
			log.Fatal(err)
		}
		fmt.Println(*rs.Messages()[0].(*agui.AssistantMessage).Content)
	}
	// Output:
	// Hello, world
	// Hello, world
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

// turn is one message of the conversation as a model client takes it.
type turn struct {
	Role       string // "system", "user", "assistant" or "tool"
	Text       string
	ToolCalls  []agui.ToolCall // the assistant's
	ToolCallID string          // the call a tool's result answers
}

// modelEvent is one event of a model's streamed answer, as model clients
// give them (OpenAI's Responses API, Anthropic's Messages): each names the
// output item it belongs to by the model's own id.
type modelEvent struct {
	Kind   string // "reasoning", "text", "tool_call", "tool_args" or "tool_done"
	ItemID string // the model's id of the reasoning, the message or the tool call
	Name   string // the tool's, on "tool_call"
	Delta  string // a fragment of the reasoning, the text or the tool call's JSON arguments
}

// model is what the agent needs of a model client: a streaming call with
// the conversation and the tools the model may call.
type modelClient interface {
	Stream(ctx context.Context, turns []turn, tools []agui.Tool) iter.Seq2[modelEvent, error]
}

// modelAgent serves a model over AG-UI.
type modelAgent struct {
	model modelClient
}

func (a *modelAgent) Run(ctx context.Context, in *agui.RunAgentInput, s *agui.Stream) error {
	// in.Messages is the whole conversation (AG-UI servers keep none) and
	// in.Tools the front end's tools, which the model may call too.
	for ev, err := range a.model.Stream(ctx, history(in.Messages), in.Tools) {
		if err != nil {
			return err // the run ends with RUN_ERROR
		}
		switch ev.Kind {
		case "reasoning": // REASONING_* under the model's id
			if err = s.StartReasoning(ev.ItemID); err == nil {
				err = s.Reasoning(ev.Delta)
			}
		case "text": // TEXT_MESSAGE_* under the model's message id
			if err = s.StartText(ev.ItemID); err == nil {
				err = s.Text(ev.Delta)
			}
		case "tool_call": // TOOL_CALL_START under the model's call id
			_, err = s.StartToolCall(ev.Name, agui.ToolCallID(ev.ItemID))
		case "tool_args": // TOOL_CALL_ARGS, as the model writes them
			err = s.ToolCallArgs(ev.ItemID, ev.Delta)
		case "tool_done":
			err = s.EndToolCall(ev.ItemID)
		}
		if err != nil {
			return err // the client went away, or the run was cancelled
		}
	}
	return nil // the handler closes what is open and sends RUN_FINISHED
}

// history reads the conversation a run brings, a sealed union of messages,
// into the model's turns.
func history(messages []agui.Message) []turn {
	var turns []turn
	for _, m := range messages {
		switch m := m.(type) {
		case *agui.SystemMessage:
			turns = append(turns, turn{Role: "system", Text: m.Content})
		case *agui.UserMessage:
			turns = append(turns, turn{Role: "user", Text: text(m.Content)})
		case *agui.AssistantMessage:
			turns = append(turns, turn{Role: "assistant", Text: m.GetContent(), ToolCalls: m.ToolCalls})
		case *agui.ToolMessage: // a tool's result, such as the front end's for a call of the last run
			turns = append(turns, turn{Role: "tool", Text: text(m.Content), ToolCallID: m.ToolCallID})
		} // developer, reasoning and activity messages are left out here
	}
	return turns
}

// text is a content's text: a string, or the text of its parts (images,
// audio and documents are parts of their own types).
func text(c agui.Content) string {
	if !c.IsList() {
		return c.Text
	}
	var b strings.Builder
	for _, p := range c.Parts {
		if t, ok := p.(*agui.TextPart); ok {
			b.WriteString(t.Text)
		}
	}
	return b.String()
}

// scriptedModel stands for a real model client: it asks the front end to
// confirm a booking with its confirm_booking tool, when it has it, and
// answers with the tool's result once it comes back.
type scriptedModel struct{}

func (scriptedModel) Stream(ctx context.Context, turns []turn, tools []agui.Tool) iter.Seq2[modelEvent, error] {
	last := turns[len(turns)-1]
	script := []modelEvent{{Kind: "text", ItemID: "msg_2", Delta: "I can only book once you confirm."}}
	switch {
	case last.Role == "tool":
		script = []modelEvent{{Kind: "text", ItemID: "msg_2", Delta: "Booked, "}, {Kind: "text", ItemID: "msg_2", Delta: last.Text + "."}}
	case slices.ContainsFunc(tools, func(t agui.Tool) bool { return t.Name == "confirm_booking" }):
		script = []modelEvent{
			{Kind: "reasoning", ItemID: "rs_1", Delta: "The user asks: " + last.Text + " "},
			{Kind: "reasoning", ItemID: "rs_1", Delta: "Confirm it first."},
			{Kind: "text", ItemID: "msg_1", Delta: "Let me check "},
			{Kind: "text", ItemID: "msg_1", Delta: "with you."},
			{Kind: "tool_call", ItemID: "call_7Xk2", Name: "confirm_booking"},
			{Kind: "tool_args", ItemID: "call_7Xk2", Delta: `{"people":2,`},
			{Kind: "tool_args", ItemID: "call_7Xk2", Delta: `"time":"20:00"}`},
			{Kind: "tool_done", ItemID: "call_7Xk2"},
		}
	}
	return func(yield func(modelEvent, error) bool) {
		for _, ev := range script {
			if err := ctx.Err(); err != nil {
				yield(modelEvent{}, err)
				return
			}
			if !yield(ev, nil) {
				return
			}
		}
	}
}

// newMux serves agent at /agui and below it, to pages of origins besides
// its own.
func newMux(agent agui.Agent, origins ...string) *http.ServeMux {
	h := agui.NewHandler(agent, agui.WithCORS(agui.CORS{AllowedOrigins: origins}))
	mux := http.NewServeMux()
	mux.Handle("/agui", h)  // POST: a run
	mux.Handle("/agui/", h) // GET /agui/capabilities, POST /agui/cancel, /agui/meta
	return mux
}

// main serves the model agent as a program of its own (go run . --addr
// 127.0.0.1:8000), to a front end served from http://localhost:5173.
func main() {
	addr := flag.String("addr", "127.0.0.1:8000", "address to listen on")
	flag.Parse()
	agent := &modelAgent{model: scriptedModel{}} // your model client here
	l, err := agui.Listen(*addr)
	if err != nil {
		log.Fatal(err)
	}
	log.Printf("AG-UI at http://%s/agui", l.Addr())
	srv := agui.NewServer(newMux(agent, "http://localhost:5173")) // bounded: header size, read and idle timeouts
	log.Fatal(srv.Serve(l))
}

// An agent on a streaming model: the prompt and the history come from
// in.Messages, the reasoning, the text and a tool call's arguments stream
// as deltas under the model's own ids, and a front-end tool goes out as a
// tool call; the front end runs it and sends its result in the next run,
// as a ToolMessage.
func Example_modelAgent() {
	srv := httptest.NewServer(newMux(&modelAgent{model: scriptedModel{}}, "http://localhost:5173"))
	defer srv.Close()
	ctx := context.Background()
	client := &agui.Client{URL: srv.URL + "/agui"}

	// The front end declares its tool, as @ag-ui/client's runAgent({tools}) does.
	confirm := agui.Tool{Name: "confirm_booking", Description: "Asks the user to confirm a booking.",
		Parameters: json.RawMessage(`{"type":"object","properties":{"people":{"type":"integer"},"time":{"type":"string"}}}`)}
	ask := &agui.UserMessage{BaseMessage: agui.BaseMessage{ID: "u1"}, Content: agui.TextContent("A table for two at 8pm, please.")}
	run, err := client.Run(ctx, &agui.RunAgentInput{ThreadID: "t1", RunID: "r1", Tools: []agui.Tool{confirm},
		Messages: []agui.Message{ask}})
	if err != nil {
		log.Fatal(err)
	}
	for ev, err := range run.Events() {
		if err != nil {
			log.Fatal(err)
		}
		switch ev := ev.(type) {
		case *agui.ReasoningMessageContentEvent:
			fmt.Printf("%s %s %q\n", ev.Type(), ev.MessageID, ev.Delta)
		case *agui.TextMessageContentEvent:
			fmt.Printf("%s %s %q\n", ev.Type(), ev.MessageID, ev.Delta)
		case *agui.ToolCallStartEvent:
			fmt.Println(ev.Type(), ev.ToolCallID, ev.ToolCallName, *ev.ParentMessageID)
		case *agui.ToolCallArgsEvent:
			fmt.Printf("%s %s %s\n", ev.Type(), ev.ToolCallID, ev.Delta)
		}
	}

	// The front end runs the tool (it asks the user), and the next run
	// brings its result after the assistant's message with the call.
	messages := run.Messages()
	call := messages[len(messages)-1].(*agui.AssistantMessage).ToolCalls[0]
	fmt.Println(call.ID, call.Function.Name, call.Function.Arguments)
	result := &agui.ToolMessage{ID: "t-1", ToolCallID: call.ID, Content: agui.TextContent("the user confirmed 2 at 20:00")}
	run, err = client.Run(ctx, &agui.RunAgentInput{ThreadID: "t1", RunID: "r2", Tools: []agui.Tool{confirm},
		Messages: append(messages, result)})
	if err != nil {
		log.Fatal(err)
	}
	if err := run.Wait(); err != nil {
		log.Fatal(err)
	}
	messages = run.Messages()
	fmt.Println(*messages[len(messages)-1].(*agui.AssistantMessage).Content)
	// Output:
	// REASONING_MESSAGE_CONTENT rs_1 "The user asks: A table for two at 8pm, please. "
	// REASONING_MESSAGE_CONTENT rs_1 "Confirm it first."
	// TEXT_MESSAGE_CONTENT msg_1 "Let me check "
	// TEXT_MESSAGE_CONTENT msg_1 "with you."
	// TOOL_CALL_START call_7Xk2 confirm_booking msg_1
	// TOOL_CALL_ARGS call_7Xk2 {"people":2,
	// TOOL_CALL_ARGS call_7Xk2 "time":"20:00"}
	// call_7Xk2 confirm_booking {"people":2,"time":"20:00"}
	// Booked, the user confirmed 2 at 20:00.
}
