package bridge_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/agui-gen/agui-gen/gen/a2a"
	"github.com/agui-gen/agui-gen/gen/agui"
	"github.com/agui-gen/agui-gen/gen/bridge"
)

// colourAgent is the AG-UI agent of these tests: it thinks, calls a tool,
// keeps a count in its state and answers; asked to "ask", it interrupts
// for a colour, and a resumed run answers with the colour.
var colourAgent = agui.AgentFunc(func(ctx context.Context, in *agui.RunAgentInput, s *agui.Stream) error {
	if len(in.Resume) > 0 {
		e := in.Resume[0]
		return s.Text("You chose " + string(e.Payload) + " for " + e.InterruptID + ".")
	}
	if err := s.Reasoning("Thinking."); err != nil {
		return err
	}
	id, err := s.ToolCall("lookup", `{"city":"Paris"}`)
	if err != nil {
		return err
	}
	if err := s.ToolResult(id, "sunny"); err != nil {
		return err
	}
	if err := s.StateSnapshot(json.RawMessage(`{"lookups":1}`)); err != nil {
		return err
	}
	for _, chunk := range []string{"Sunny ", "to", "day."} {
		if err := s.Text(chunk); err != nil {
			return err
		}
	}
	last := in.Messages[len(in.Messages)-1].(*agui.UserMessage)
	if last.Content.Text == "ask" {
		s.Interrupt(agui.Interrupt{ID: "colour", Reason: "choice", Message: ptr("Which colour?")})
	}
	return nil
})

func streamMessage(t *testing.T, client *a2a.A2AServiceClient, msg *a2a.Message) []*a2a.StreamResponse {
	t.Helper()
	var out []*a2a.StreamResponse
	for resp, err := range client.SendStreamingMessage(context.Background(), &a2a.SendMessageRequest{Message: msg}) {
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, resp)
	}
	return out
}

func textMessage(text, taskID string) *a2a.Message {
	return &a2a.Message{MessageID: agui.NewID("m"), TaskID: taskID, Role: a2a.RoleUser, Parts: []*a2a.Part{{Content: &a2a.PartText{Text: text}}}}
}

// TestExecutor: an AG-UI agent served as an A2A agent streams its answer as
// an artifact, its reasoning and tool calls as hinted status messages, its
// state as an artifact; its interrupt stops the task for input, and the
// answer resumes it.
func TestExecutor(t *testing.T) {
	_, client := a2aServer(t, &bridge.Executor{Agent: colourAgent})

	responses := streamMessage(t, client, textMessage("weather", ""))
	var answer string
	var answerUpdates []string // append flag and text of each update of the answer
	var thinking, call, result, lastChunk bool
	var state a2a.TaskState
	var stateArtifact, conversation string
	for _, r := range responses {
		switch p := r.Payload.(type) {
		case *a2a.StreamResponseArtifactUpdate:
			art := p.ArtifactUpdate.Artifact
			switch art.ArtifactID {
			case bridge.StateArtifactID:
				stateArtifact = string(art.Parts[0].Content.(*a2a.PartData).Data)
				continue
			case bridge.ConversationArtifactID:
				conversation = string(art.Parts[0].Content.(*a2a.PartData).Data)
				continue
			}
			answer += art.Parts[0].Content.(*a2a.PartText).Text
			answerUpdates = append(answerUpdates, fmt.Sprintf("%v:%s", p.ArtifactUpdate.Append, art.Parts[0].Content.(*a2a.PartText).Text))
			lastChunk = p.ArtifactUpdate.LastChunk
		case *a2a.StreamResponseStatusUpdate:
			state = p.StatusUpdate.Status.State
			if m := p.StatusUpdate.Status.Message; m != nil {
				for _, part := range m.Parts {
					thinking = thinking || bridge.IsThinking(part)
					if c, ok := bridge.ToolCallOf(part); ok && c.Name == "lookup" && c.Arguments == `{"city":"Paris"}` {
						call = true
					}
					if r, ok := bridge.ToolResultOf(part); ok && r.Content == "sunny" {
						result = true
					}
				}
			}
		}
	}
	if answer != "Sunny today." || !lastChunk {
		t.Errorf("answer artifact %q, last chunk marked %v", answer, lastChunk)
	}
	// A streaming client sees the answer grow, a delta an update; a client
	// that reads the task finds it whole, in one text part.
	if got := strings.Join(answerUpdates, " | "); got != "false:Sunny  | true:to | true:day." {
		t.Errorf("the answer's updates: %s", got)
	}
	task, err := client.GetTask(context.Background(), &a2a.GetTaskRequest{ID: responses[0].Payload.(*a2a.StreamResponseTask).Task.ID})
	if err != nil {
		t.Fatal(err)
	}
	var reply []string
	for _, art := range task.Artifacts {
		if !strings.HasPrefix(art.ArtifactID, "agui-") {
			for _, p := range art.Parts {
				reply = append(reply, string(p.AppendJSON(nil)))
			}
		}
	}
	if got := strings.Join(reply, ","); got != `{"text":"Sunny today."}` {
		t.Errorf("the stored answer's parts: %s", got)
	}
	if !thinking || !call || !result {
		t.Errorf("status messages: thinking %v, tool call %v, result %v", thinking, call, result)
	}
	if stateArtifact != `{"lookups":1}` {
		t.Errorf("state artifact %q", stateArtifact)
	}
	for _, want := range []string{`"content":"weather"`, `"role":"reasoning"`,
		`"name":"lookup"`, `"arguments":"{\"city\":\"Paris\"}"`, `"role":"tool"`, `"content":"Sunny today."`} {
		if !strings.Contains(conversation, want) {
			t.Errorf("the kept conversation lacks %s: %s", want, conversation)
		}
	}
	if state != a2a.TaskStateCompleted {
		t.Errorf("final state %s", state)
	}

	// An interrupt stops the task for input; a plain text answer resumes it.
	responses = streamMessage(t, client, textMessage("ask", ""))
	last := responses[len(responses)-1].Payload.(*a2a.StreamResponseStatusUpdate).StatusUpdate
	if last.Status.State != a2a.TaskStateInputRequired {
		t.Fatalf("ask ends in %s", last.Status.State)
	}
	question := last.Status.Message
	if txt, ok := question.Parts[0].Content.(*a2a.PartText); !ok || txt.Text != "Which colour?" {
		t.Errorf("question %v", question.Parts[0].Content)
	}
	if data := string(question.Parts[1].Content.(*a2a.PartData).Data); !strings.Contains(data, `"agui.interrupts"`) || !strings.Contains(data, `"id":"colour"`) {
		t.Errorf("interrupts part %s", data)
	}
	responses = streamMessage(t, client, textMessage("blue", last.TaskID))
	answer = ""
	for _, r := range responses {
		if p, ok := r.Payload.(*a2a.StreamResponseArtifactUpdate); ok && !strings.HasPrefix(p.ArtifactUpdate.Artifact.ArtifactID, "agui-") {
			answer += p.ArtifactUpdate.Artifact.Parts[0].Content.(*a2a.PartText).Text
		}
	}
	if answer != `You chose "blue" for colour.` {
		t.Errorf("answer after the follow-up %q", answer)
	}
}

// TestRoundTrip: an AG-UI agent, served over A2A by Executor and reached
// through A2AAgent, looks to an AG-UI client as it would directly: the same
// text, tool call and state, and an interrupt whose resume reaches it with
// its own id.
func TestRoundTrip(t *testing.T) {
	_, client := a2aServer(t, &bridge.Executor{Agent: colourAgent})
	bridged := httptest.NewServer(agui.NewHandler(&bridge.A2AAgent{Client: client}))
	defer bridged.Close()
	direct := httptest.NewServer(agui.NewHandler(colourAgent))
	defer direct.Close()
	ctx := context.Background()

	_, viaA2A := aguiRun(t, ctx, bridged.URL, userInput("thread-rt", "weather"))
	_, straight := aguiRun(t, ctx, direct.URL, userInput("thread-rt", "weather"))
	if a, b := summary(viaA2A.Messages()), summary(straight.Messages()); a != b {
		t.Errorf("through the bridge:\n%s\ndirectly:\n%s", a, b)
	}

	events, _ := aguiRun(t, ctx, bridged.URL, userInput("thread-rt-ask", "ask"))
	out, ok := finished(t, events).Outcome.(*agui.RunFinishedInterruptOutcome)
	if !ok || len(out.Interrupts) != 1 || out.Interrupts[0].Reason != "choice" || !strings.HasSuffix(out.Interrupts[0].ID, "/colour") {
		t.Fatalf("outcome %#v", finished(t, events).Outcome)
	}
	resume := userInput("thread-rt-ask", "ask")
	resume.Resume = []agui.ResumeEntry{{InterruptID: out.Interrupts[0].ID, Status: agui.ResumeEntryStatusResolved, Payload: json.RawMessage(`{"colour":"blue"}`)}}
	_, rs := aguiRun(t, ctx, bridged.URL, resume)
	if got := summary(rs.Messages()); !strings.Contains(got, `assistant: You chose {"colour":"blue"} for colour.`) {
		t.Errorf("after resume:\n%s", got)
	}
}

// summary lists the user, assistant and tool messages of a conversation.
func summary(msgs []agui.Message) string {
	var b strings.Builder
	for _, m := range msgs {
		switch m := m.(type) {
		case *agui.UserMessage:
			b.WriteString("user: " + m.Content.Text + "\n")
		case *agui.AssistantMessage:
			if m.Content != nil {
				b.WriteString("assistant: " + *m.Content + "\n")
			}
			for _, c := range m.ToolCalls {
				b.WriteString("call: " + c.Function.Name + " " + c.Function.Arguments + "\n")
			}
		case *agui.ToolMessage:
			b.WriteString("tool: " + m.Content.Text + "\n")
		}
	}
	return b.String()
}

// carryingAgent sends events A2A has nothing for between its text: a step,
// an activity, a custom and a raw event, and a META note.
var carryingAgent = agui.AgentFunc(func(ctx context.Context, in *agui.RunAgentInput, s *agui.Stream) error {
	steps := []func() error{
		func() error { return s.StartStep("plan") },
		func() error { return s.Text("Planning. ") },
		func() error { return s.ActivitySnapshot("act-1", "progress", json.RawMessage(`{"done":1,"of":3}`)) },
		func() error { return s.Custom("confetti", json.RawMessage(`{"colour":"gold"}`)) },
		func() error { return s.Raw(json.RawMessage(`{"vendor":"x"}`), "upstream") },
		func() error { return s.Meta(&agui.NotePayload{Text: "kept"}) },
		func() error { return s.FinishStep("plan") },
		func() error { return s.Text("Done.") },
	}
	for _, step := range steps {
		if err := step(); err != nil {
			return err
		}
	}
	return nil
})

// TestCarriedEvents: what A2A has no mapping for crosses it intact, in
// order, in hinted data parts, and comes out of A2AAgent as it went in.
func TestCarriedEvents(t *testing.T) {
	_, client := a2aServer(t, &bridge.Executor{Agent: carryingAgent})
	carried := 0
	for _, r := range streamMessage(t, client, textMessage("go", "")) {
		if u, ok := r.Payload.(*a2a.StreamResponseStatusUpdate); ok && u.StatusUpdate.Status.Message != nil {
			for _, p := range u.StatusUpdate.Status.Message.Parts {
				if _, ok, err := bridge.CarriedEvent(p); ok && err == nil {
					carried++
				}
			}
		}
	}
	if carried != 6 {
		t.Errorf("%d events carried over A2A, want 6", carried)
	}

	bridged := httptest.NewServer(agui.NewHandler(&bridge.A2AAgent{Client: client}))
	defer bridged.Close()
	direct := httptest.NewServer(agui.NewHandler(carryingAgent))
	defer direct.Close()
	ctx := context.Background()
	viaA2A, _ := aguiRun(t, ctx, bridged.URL, userInput("thread-carry", "go"))
	straight, _ := aguiRun(t, ctx, direct.URL, userInput("thread-carry-direct", "go"))
	if a, b := carriedOnly(viaA2A), carriedOnly(straight); a != b || strings.Count(b, "\n") != 6 {
		t.Errorf("through the bridge:\n%s\ndirectly:\n%s", a, b)
	}
}

// carriedOnly lists the events of a run that A2A carries verbatim, as JSON
// without their timestamps.
func carriedOnly(events []agui.Event) string {
	var b strings.Builder
	for _, ev := range events {
		switch ev.(type) {
		case *agui.StepStartedEvent, *agui.StepFinishedEvent, *agui.ActivitySnapshotEvent, *agui.CustomEvent, *agui.RawEvent, *agui.MetaEvent:
			var m map[string]any
			_ = json.Unmarshal(ev.AppendJSON(nil), &m)
			delete(m, "timestamp")
			out, _ := json.Marshal(m)
			b.Write(out)
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// detailedAgent sends mapped events with members their A2A mapping has no
// place for: a text message's name and metadata, a tool call's parent
// message, a result's metadata, a reasoning message's metadata.
var detailedAgent = agui.AgentFunc(func(ctx context.Context, in *agui.RunAgentInput, s *agui.Stream) error {
	name, parent := "Ada", "msg-1"
	meta := func(k string) json.RawMessage { return json.RawMessage(`{"` + k + `":true}`) }
	for _, ev := range []agui.Event{
		&agui.ReasoningStartEvent{MessageID: "rsn-1"},
		&agui.ReasoningMessageStartEvent{MessageID: "r-1", BaseEvent: agui.BaseEvent{Metadata: meta("thought")}},
		&agui.ReasoningMessageContentEvent{MessageID: "r-1", Delta: "Thinking."},
		&agui.ReasoningMessageEndEvent{MessageID: "r-1"},
		&agui.ReasoningEndEvent{MessageID: "rsn-1"},
		&agui.TextMessageStartEvent{MessageID: "msg-1", Name: &name, BaseEvent: agui.BaseEvent{Metadata: meta("started")}},
		&agui.TextMessageContentEvent{MessageID: "msg-1", Delta: "Hello ", BaseEvent: agui.BaseEvent{Metadata: meta("first")}},
		&agui.TextMessageContentEvent{MessageID: "msg-1", Delta: "there."},
		&agui.TextMessageEndEvent{MessageID: "msg-1", BaseEvent: agui.BaseEvent{Metadata: meta("ended")}},
		&agui.ToolCallStartEvent{ToolCallID: "call-1", ToolCallName: "lookup", ParentMessageID: &parent},
		&agui.ToolCallArgsEvent{ToolCallID: "call-1", Delta: `{"q":"x"}`},
		&agui.ToolCallEndEvent{ToolCallID: "call-1", BaseEvent: agui.BaseEvent{Metadata: meta("called")}},
		&agui.ToolCallResultEvent{MessageID: "res-1", ToolCallID: "call-1", Content: agui.TextContent("found"), BaseEvent: agui.BaseEvent{Metadata: meta("result")}},
	} {
		if err := s.Emit(ev); err != nil {
			return err
		}
	}
	return nil
})

// TestResidualMembers: the members of mapped events that their mapping has
// no place for cross A2A in the parts' metadata (agui_residual) and come
// out of A2AAgent on the events it makes of those parts.
func TestResidualMembers(t *testing.T) {
	_, client := a2aServer(t, &bridge.Executor{Agent: detailedAgent})
	bridged := httptest.NewServer(agui.NewHandler(&bridge.A2AAgent{Client: client}))
	defer bridged.Close()
	events, _ := aguiRun(t, context.Background(), bridged.URL, userInput("thread-residual", "go"))
	got := map[string]string{}
	for _, ev := range events {
		var m map[string]json.RawMessage
		_ = json.Unmarshal(ev.AppendJSON(nil), &m)
		for _, k := range []string{"metadata", "name", "parentMessageId"} {
			if v, ok := m[k]; ok {
				got[string(ev.Type())+"."+k] = string(v)
			}
		}
	}
	want := map[string]string{
		"REASONING_MESSAGE_START.metadata": `{"thought":true}`,
		"TEXT_MESSAGE_START.name":          `"Ada"`, "TEXT_MESSAGE_START.metadata": `{"started":true}`,
		"TEXT_MESSAGE_CONTENT.metadata": `{"first":true}`, "TEXT_MESSAGE_END.metadata": `{"ended":true}`,
		"TOOL_CALL_START.parentMessageId": `"msg-1"`, "TOOL_CALL_END.metadata": `{"called":true}`,
		"TOOL_CALL_RESULT.metadata": `{"result":true}`,
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %s, want %s", k, got[k], v)
		}
	}
	for k := range got {
		if _, ok := want[k]; !ok && !strings.HasPrefix(k, "STATE_") && !strings.HasPrefix(k, "RUN_") {
			t.Errorf("unexpected %s = %s", k, got[k])
		}
	}
}
