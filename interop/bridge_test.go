package interop_test

// The A2A ↔ AG-UI bridge against the real peers:
//   - @ag-ui/client's HttpAgent → bridge.A2AAgent → an @a2a-js/sdk agent
//     (node/a2a-bridge-server.mjs): text, reasoning, a tool call, an
//     interrupt and its resume, and an abort that cancels the task; every
//     event the bridge emits validates against the official schema;
//   - @a2a-js/sdk's and a2a-go's clients → an AG-UI agent that
//     bridge.Executor serves over A2A, mounted on an agenthost.Host.

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	a2ago "github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2aclient"
	"github.com/a2aproject/a2a-go/v2/a2aclient/agentcard"

	"github.com/agui-gen/agui-gen/gen/a2a"
	"github.com/agui-gen/agui-gen/gen/a2a/a2atask"
	"github.com/agui-gen/agui-gen/gen/agenthost"
	"github.com/agui-gen/agui-gen/gen/agui"
	"github.com/agui-gen/agui-gen/gen/bridge"
	"github.com/agui-gen/agui-gen/internal/teetest"
)

// teeEvents decodes the AG-UI events of every body tee recorded.
func teeEvents(tb *testing.T, tee *teetest.Handler) []agui.Event {
	var out []agui.Event
	for _, b := range tee.Bodies() {
		for _, frame := range teetest.SSEData(tb, b) {
			ev, err := agui.UnmarshalEvent(frame)
			if err != nil {
				tb.Fatalf("the bridge wrote an event Go cannot read: %v\n%s", err, frame)
			}
			out = append(out, ev)
		}
	}
	return out
}

// bridgedRun is what run-httpagent-bridge.mjs reports of one run.
type bridgedRun struct {
	httpAgentRun
	Events  []json.RawMessage `json:"events"`
	Outcome json.RawMessage   `json:"outcome"`
}

func TestHTTPAgentThroughBridgeToA2AJS(t *testing.T) {
	requireA2AJS(t)
	base, printed := serveNode(t, "a2a-bridge-server.mjs")
	ctx := context.Background()
	card, err := a2a.ResolveCard(ctx, base)
	if err != nil {
		t.Fatal(err)
	}
	transport, _, err := a2a.NewTransportFromCard(card)
	if err != nil {
		t.Fatal(err)
	}
	tee := &teetest.Handler{H: agui.NewHandler(&bridge.A2AAgent{Client: a2a.NewA2AServiceClient(transport)})}
	srv := httptest.NewServer(tee)
	defer srv.Close()

	var out struct {
		Weather, Ask, Resume, Slow bridgedRun
		Warnings                   []string
	}
	raw := runNode(t, nil, "run-httpagent-bridge.mjs", srv.URL)
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatalf("%v\n%s", err, raw)
	}
	if len(out.Warnings) > 0 {
		t.Errorf("HttpAgent warned: %q", out.Warnings)
	}

	if !out.Weather.OK {
		t.Fatalf("weather run: %s (events %v)", out.Weather.Error, out.Weather.EventTypes)
	}
	for _, want := range []string{"RUN_STARTED", "STATE_SNAPSHOT", "REASONING_MESSAGE_CONTENT", "TOOL_CALL_START", "TOOL_CALL_ARGS",
		"TOOL_CALL_END", "TOOL_CALL_RESULT", "TEXT_MESSAGE_CONTENT", "STATE_DELTA", "RUN_FINISHED"} {
		if !slices.Contains(out.Weather.EventTypes, want) {
			t.Errorf("weather run: no %s in %v", want, out.Weather.EventTypes)
		}
	}
	answer, roles := "", []string{}
	for _, m := range out.Weather.Messages {
		var msg struct {
			Role      string `json:"role"`
			Content   any    `json:"content"`
			ToolCalls []struct {
				ID       string `json:"id"`
				Function struct{ Name, Arguments string }
			} `json:"toolCalls"`
		}
		_ = json.Unmarshal(m, &msg)
		roles = append(roles, msg.Role)
		if s, ok := msg.Content.(string); ok && msg.Role == "assistant" {
			answer += s
		}
		for _, c := range msg.ToolCalls {
			if c.ID != "call-1" || c.Function.Name != "lookup" || c.Function.Arguments != `{"city":"Paris"}` {
				t.Errorf("tool call %+v", c)
			}
		}
	}
	if answer != "It is sunny in Paris." {
		t.Errorf("answer %q", answer)
	}
	for _, want := range []string{"user", "reasoning", "assistant", "tool"} {
		if !slices.Contains(roles, want) {
			t.Errorf("no %s message among %v", want, roles)
		}
	}
	if !strings.Contains(string(out.Weather.State), `"state":"TASK_STATE_COMPLETED"`) {
		t.Errorf("state %s", out.Weather.State)
	}

	var outcome struct {
		Type       string           `json:"type"`
		Interrupts []agui.Interrupt `json:"interrupts"`
	}
	if err := json.Unmarshal(out.Ask.Outcome, &outcome); err != nil || !out.Ask.OK || outcome.Type != "interrupt" ||
		len(outcome.Interrupts) != 1 || *outcome.Interrupts[0].Message != "Which colour?" {
		t.Fatalf("ask run: ok %v %s, outcome %s", out.Ask.OK, out.Ask.Error, out.Ask.Outcome)
	}
	if !out.Resume.OK || string(out.Resume.Outcome) != `"success"` && string(out.Resume.Outcome) != "null" {
		t.Errorf("resume run: ok %v %s, outcome %s, events %v", out.Resume.OK, out.Resume.Error, out.Resume.Outcome, out.Resume.EventTypes)
	}
	if last := out.Resume.Messages[len(out.Resume.Messages)-1]; !strings.Contains(string(last), "You chose blue.") {
		t.Errorf("after the resume the last message is %s", last)
	}
	for _, ev := range out.Resume.Events { // @a2a-js/sdk restates the task, question and all
		if strings.Contains(string(ev), "Which colour?") {
			t.Errorf("the resumed run shows the question again: %s", ev)
		}
	}

	// The abort reaches the A2A agent as a CancelTask.
	select {
	case line := <-printed:
		if !strings.HasPrefix(line, "CANCELED ") {
			t.Errorf("the A2A agent printed %q", line)
		}
	case <-time.After(10 * time.Second):
		t.Errorf("the aborted run's task was never canceled (slow run: %+v)", out.Slow)
	}

	events := teeEvents(t, tee)
	if len(events) < 20 {
		t.Fatalf("recorded %d events", len(events))
	}
	checkSchemaLines(t, eventLines(events))
}

// colourAgent is an AG-UI agent: it thinks, calls a tool and answers; asked
// to "ask", it interrupts for a colour, which a resumed run reports.
var colourAgent = agui.AgentFunc(func(ctx context.Context, in *agui.RunAgentInput, s *agui.Stream) error {
	if len(in.Resume) > 0 {
		var colour string
		_ = json.Unmarshal(in.Resume[0].Payload, &colour)
		return s.Text("You chose " + colour + ".")
	}
	if err := s.Reasoning("Thinking it over."); err != nil {
		return err
	}
	id, err := s.ToolCall("lookup", `{"city":"Paris"}`)
	if err != nil {
		return err
	}
	if err := s.ToolResult(id, "sunny"); err != nil {
		return err
	}
	if last, ok := in.Messages[len(in.Messages)-1].(*agui.UserMessage); ok && last.Content.Text == "ask" {
		s.Interrupt(agui.Interrupt{ID: "colour", Reason: "choice", Message: ptr("Which colour?")})
		return nil
	}
	for _, chunk := range []string{"Sunny ", "today."} {
		if err := s.Text(chunk); err != nil {
			return err
		}
	}
	return nil
})

// serveColourHost mounts colourAgent on a host, over A2A through the
// bridge's executor, and returns the agent's base URL from the listing.
func serveColourHost(t *testing.T) string {
	srv := httptest.NewUnstartedServer(nil)
	host := agenthost.New("http://" + srv.Listener.Addr().String())
	rt := a2atask.New(&bridge.Executor{Agent: colourAgent}, a2atask.NewMemory())
	t.Cleanup(func() { rt.Close() })
	card := &a2a.AgentCard{Name: "colour", Description: "Asks for colours.", Version: "1.0.0",
		Capabilities:      &a2a.AgentCapabilities{Streaming: ptr(true)},
		DefaultInputModes: []string{"text/plain"}, DefaultOutputModes: []string{"text/plain"},
		Skills: []*a2a.AgentSkill{{ID: "colour", Name: "Colour", Description: "Asks for a colour.", Tags: []string{"colour"}}}}
	if err := host.Add(agenthost.Agent{Name: "colour", Card: card, A2A: a2a.BindA2AService(rt), AGUI: colourAgent}); err != nil {
		t.Fatal(err)
	}
	srv.Config.Handler = host
	srv.Start()
	t.Cleanup(srv.Close)
	// The agent's URL as a client finds it: in the host's listing.
	res, err := http.Get(srv.URL + agenthost.AgentsPath)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var listing agenthost.Listing
	if err := json.NewDecoder(res.Body).Decode(&listing); err != nil || len(listing.Agents) != 1 {
		t.Fatalf("the listing: %v %+v", err, listing)
	}
	return listing.Agents[0].URL
}

func TestA2AJSClientAgainstBridgedAGUIAgent(t *testing.T) {
	requireA2AJS(t)
	base := serveColourHost(t)
	for _, binding := range []string{a2a.BindingJSONRPC, a2a.BindingHTTPJSON} {
		t.Run(binding, func(t *testing.T) {
			var out struct {
				Weather, Ask, Answer struct {
					TaskID     string   `json:"taskId"`
					States     []string `json:"states"`
					Artifact   string   `json:"artifact"`
					LastChunk  bool     `json:"lastChunk"`
					Thinking   string   `json:"thinking"`
					Question   string   `json:"question"`
					ToolCall   *struct{ ID, Name, Hint string }
					ToolResult *struct {
						ToolCallID string `json:"toolCallId"`
						Payload    string `json:"payload"`
					}
					Interrupts []agui.Interrupt `json:"interrupts"`
				}
			}
			// @a2a-js/sdk resolves the card relative to the URL, which the
			// listing gives as a directory.
			raw := runNode(t, nil, "a2a-client-bridge.mjs", base, binding)
			if err := json.Unmarshal(raw, &out); err != nil {
				t.Fatalf("%v\n%s", err, raw)
			}
			w := out.Weather
			if w.Artifact != "Sunny today." || !w.LastChunk || w.Thinking != "Thinking it over." ||
				w.ToolCall == nil || w.ToolCall.Name != "lookup" || w.ToolCall.Hint != "lookup" ||
				w.ToolResult == nil || w.ToolResult.Payload != "sunny" || w.States[len(w.States)-1] != "TASK_STATE_COMPLETED" {
				t.Errorf("weather: %s", raw)
			}
			a := out.Ask
			if a.States[len(a.States)-1] != "TASK_STATE_INPUT_REQUIRED" || a.Question != "Which colour?" || len(a.Interrupts) != 1 || a.Interrupts[0].ID != "colour" {
				t.Errorf("ask: %s", raw)
			}
			if out.Answer.TaskID != a.TaskID || out.Answer.Artifact != "You chose blue." || out.Answer.States[len(out.Answer.States)-1] != "TASK_STATE_COMPLETED" {
				t.Errorf("answer: %s", raw)
			}
		})
	}
}

func TestA2AGoClientAgainstBridgedAGUIAgent(t *testing.T) {
	base := serveColourHost(t)
	ctx := context.Background()
	card, err := agentcard.DefaultResolver.Resolve(ctx, base)
	if err != nil {
		t.Fatalf("a2a-go cannot read the hosted card: %v", err)
	}
	for _, binding := range []a2ago.TransportProtocol{a2ago.TransportProtocolJSONRPC, a2ago.TransportProtocolHTTPJSON} {
		t.Run(string(binding), func(t *testing.T) {
			client, err := a2aclient.NewFromCard(ctx, card, a2aclient.WithConfig(a2aclient.Config{PreferredTransports: []a2ago.TransportProtocol{binding}}))
			if err != nil {
				t.Fatal(err)
			}
			defer client.Destroy()
			var answer string
			var thinking, toolCall bool
			var last a2ago.TaskState
			for ev, err := range client.SendStreamingMessage(ctx, &a2ago.SendMessageRequest{Message: a2ago.NewMessage(a2ago.MessageRoleUser, a2ago.NewTextPart("weather"))}) {
				if err != nil {
					t.Fatal(err)
				}
				switch e := ev.(type) {
				case *a2ago.TaskArtifactUpdateEvent:
					if id := e.Artifact.ID; id != bridge.StateArtifactID && id != bridge.ConversationArtifactID {
						answer += e.Artifact.Parts[0].Text()
					}
				case *a2ago.TaskStatusUpdateEvent:
					last = e.Status.State
					if e.Status.Message != nil {
						for _, p := range e.Status.Message.Parts {
							thinking = thinking || p.Metadata["agui_event_type"] == "thinking"
							toolCall = toolCall || p.Metadata["agui_tool_name"] == "lookup"
						}
					}
				}
			}
			if answer != "Sunny today." || !thinking || !toolCall || last != a2ago.TaskStateCompleted {
				t.Errorf("weather: answer %q, thinking %v, tool call %v, state %s", answer, thinking, toolCall, last)
			}

			res, err := client.SendMessage(ctx, &a2ago.SendMessageRequest{Message: a2ago.NewMessage(a2ago.MessageRoleUser, a2ago.NewTextPart("ask"))})
			if err != nil {
				t.Fatal(err)
			}
			task := res.(*a2ago.Task)
			if task.Status.State != a2ago.TaskStateInputRequired || task.Status.Message.Parts[0].Text() != "Which colour?" {
				t.Fatalf("ask: %+v", task.Status)
			}
			follow := a2ago.NewMessageForTask(a2ago.MessageRoleUser, task, a2ago.NewTextPart("green"))
			res, err = client.SendMessage(ctx, &a2ago.SendMessageRequest{Message: follow})
			if err != nil {
				t.Fatal(err)
			}
			done := res.(*a2ago.Task)
			answer = ""
			for _, art := range done.Artifacts {
				if art.ID != bridge.StateArtifactID && art.ID != bridge.ConversationArtifactID {
					answer += art.Parts[0].Text()
				}
			}
			if done.ID != task.ID || done.Status.State != a2ago.TaskStateCompleted || answer != "You chose green." {
				t.Errorf("answer: %+v %q", done.Status, answer)
			}
		})
	}
}

// TestHTTPAgentAgainstCheckpointedRuntime: @ag-ui/client's HttpAgent runs
// an interrupt and its resume against the generated handler with
// checkpoints (so the server checks the resume covers the interrupt), and
// aborts a run, which stops the agent; the capabilities the handler serves
// validate against the official schema and @ag-ui/core.
func TestHTTPAgentAgainstCheckpointedRuntime(t *testing.T) {
	requireNode(t)
	aborted := make(chan struct{}, 1)
	agent := agui.AgentFunc(func(ctx context.Context, in *agui.RunAgentInput, s *agui.Stream) error {
		if len(in.Resume) > 0 {
			var colour string
			_ = json.Unmarshal(in.Resume[0].Payload, &colour)
			return s.Text("You chose " + colour + ".")
		}
		switch in.Messages[len(in.Messages)-1].(*agui.UserMessage).Content.Text {
		case "ask":
			s.Interrupt(agui.Interrupt{ID: "colour", Reason: "choice", Message: ptr("Which colour?")})
			return nil
		case "slow":
			if err := s.StateSnapshot(json.RawMessage(`{"busy":true}`)); err != nil {
				return err
			}
			<-ctx.Done()
			aborted <- struct{}{}
			return ctx.Err()
		}
		if err := s.Reasoning("Thinking."); err != nil {
			return err
		}
		return s.Text("It is sunny in Paris.")
	})
	yes := true
	h := agui.NewHandler(agent, agui.WithCheckpoints(agui.NewMemoryCheckpoints()),
		agui.WithCapabilities(&agui.AgentCapabilities{Transport: &agui.TransportCapabilities{Streaming: &yes},
			HumanInTheLoop: &agui.HumanInTheLoopCapabilities{Interrupts: &yes}, Custom: json.RawMessage(`{"x-demo":{"level":2}}`)}))
	srv := httptest.NewServer(h)
	defer srv.Close()

	var out struct {
		Weather, Ask, Resume, Slow bridgedRun
		Warnings                   []string
	}
	raw := runNode(t, nil, "run-httpagent-bridge.mjs", srv.URL)
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatalf("%v\n%s", err, raw)
	}
	if !out.Weather.OK || !slices.Contains(out.Weather.EventTypes, "REASONING_MESSAGE_CONTENT") {
		t.Errorf("weather: %+v", out.Weather)
	}
	if !out.Ask.OK || !strings.Contains(string(out.Ask.Outcome), `"id":"colour"`) {
		t.Fatalf("ask: %s %s", out.Ask.Error, out.Ask.Outcome)
	}
	if !out.Resume.OK || !strings.Contains(string(out.Resume.Messages[len(out.Resume.Messages)-1]), "You chose blue.") {
		t.Errorf("resume: %s %v", out.Resume.Error, out.Resume.EventTypes)
	}
	select {
	case <-aborted:
	case <-time.After(10 * time.Second):
		t.Error("the aborted run's agent never stopped")
	}

	caps, err := (&agui.Client{URL: srv.URL}).Capabilities(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	checkSchemaLines(t, []schemaLine{{Schema: "agui", Def: "AgentCapabilities", Value: caps.AppendJSON(nil)}})
}
