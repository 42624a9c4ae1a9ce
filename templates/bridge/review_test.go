package bridge_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/agui-gen/agui-gen/gen/a2a"
	"github.com/agui-gen/agui-gen/gen/a2a/a2atask"
	"github.com/agui-gen/agui-gen/gen/agui"
	"github.com/agui-gen/agui-gen/gen/bridge"
)

// plainAgent does not stream: it answers SendMessage with a whole,
// completed task holding its answer.
type plainAgent struct {
	a2a.UnimplementedA2AServiceServer
}

func (plainAgent) SendMessage(ctx context.Context, req *a2a.SendMessageRequest) (*a2a.SendMessageResponse, error) {
	task := &a2a.Task{ID: "task-plain", ContextID: req.Message.ContextID,
		Status: &a2a.TaskStatus{State: a2a.TaskStateCompleted, Message: &a2a.Message{MessageID: "m-done", Role: a2a.RoleAgent,
			Parts: []*a2a.Part{{Content: &a2a.PartText{Text: "Done."}}}}},
		Artifacts: []*a2a.Artifact{{ArtifactID: "answer", Parts: []*a2a.Part{{Content: &a2a.PartText{Text: "It is sunny."}},
			{Content: &a2a.PartData{Data: json.RawMessage(`{"celsius":21}`)}}}}},
		History: []*a2a.Message{req.Message}}
	return &a2a.SendMessageResponse{Payload: &a2a.SendMessageResponseTask{Task: task}}, nil
}

// TestWholeTask: an agent that does not stream is sent the message plainly,
// and its whole task is shown: the artifact's text and data, the status
// message.
func TestWholeTask(t *testing.T) {
	card := &a2a.AgentCard{Name: "plain", Description: "Plain.", Version: "1", SupportedInterfaces: a2a.Interfaces("http://x"),
		Capabilities: &a2a.AgentCapabilities{}, DefaultInputModes: []string{"text/plain"}, DefaultOutputModes: []string{"text/plain"},
		Skills: []*a2a.AgentSkill{{ID: "s", Name: "S", Description: "S.", Tags: []string{"s"}}}}
	h, err := a2a.NewHandler(a2a.BindA2AService(plainAgent{}), card)
	if err != nil {
		t.Fatal(err)
	}
	a2aSrv := httptest.NewServer(h)
	defer a2aSrv.Close()
	srv := httptest.NewServer(agui.NewHandler(&bridge.A2AAgent{Client: a2a.NewA2AServiceClient(a2a.NewJSONRPCTransport(a2aSrv.URL))}))
	defer srv.Close()
	events, rs := aguiRun(t, context.Background(), srv.URL, userInput("thread-plain", "hi"))
	if fin := finished(t, events); fin.Outcome != nil {
		t.Errorf("outcome %T", fin.Outcome)
	}
	if got := summary(rs.Messages()); got != "user: hi\nassistant: It is sunny.\nassistant: Done.\n" {
		t.Errorf("messages:\n%s", got)
	}
	if !strings.Contains(string(rs.State()), `"answer":{"parts":[{"data":{"celsius":21}}]}`) {
		t.Errorf("state %s", rs.State())
	}
}

// turnsExecutor keeps a data artifact and answers in the artifact "answer"
// on every turn, asking again until it is told "stop"; "fail" fails it
// with no message after a working one.
var turnsExecutor = a2atask.ExecutorFunc(func(ctx context.Context, run *a2atask.Run) error {
	text := ""
	for _, p := range run.Message.Parts {
		switch c := p.Content.(type) {
		case *a2a.PartText:
			text += c.Text
		case *a2a.PartData:
			return run.Reject(run.AgentMessage(&a2a.Part{Content: &a2a.PartText{Text: "unexpected data part " + string(c.Data)}}))
		}
	}
	if text == "fail" {
		if err := run.Working(run.AgentMessage(&a2a.Part{Content: &a2a.PartText{Text: "Looking into it."}})); err != nil {
			return err
		}
		return run.Fail(nil)
	}
	turn := len(run.Task().History)
	if err := run.Artifact(&a2a.Artifact{ArtifactID: "log", Parts: []*a2a.Part{{Content: &a2a.PartData{Data: json.RawMessage(`{"turn":` + jsonNumber(turn) + `}`)}}}}, turn > 1, false); err != nil {
		return err
	}
	if err := run.Artifact(&a2a.Artifact{ArtifactID: "answer", Parts: []*a2a.Part{{Content: &a2a.PartText{Text: "Turn " + jsonNumber(turn) + "."}}}}, false, true); err != nil {
		return err
	}
	if text == "stop" {
		return nil
	}
	return run.RequireInput(run.AgentMessage(&a2a.Part{Content: &a2a.PartText{Text: "More?"}}))
})

func jsonNumber(n int) string { b, _ := json.Marshal(n); return string(b) }

// TestTurns: over three runs on one task, the view keeps the data artifact
// whole, every turn's answer is a message of its own, the plain A2A agent
// is sent no AG-UI data, and a failure reports no stale message.
func TestTurns(t *testing.T) {
	_, client := a2aServer(t, turnsExecutor)
	srv := httptest.NewServer(agui.NewHandler(&bridge.A2AAgent{Client: client}))
	defer srv.Close()
	ctx := context.Background()
	input := userInput("thread-turns", "go")
	var rs *agui.RunStream
	var events []agui.Event
	for turn, answer := range []string{"again", "stop"} {
		events, rs = aguiRun(t, ctx, srv.URL, input)
		out, ok := finished(t, events).Outcome.(*agui.RunFinishedInterruptOutcome)
		if !ok {
			t.Fatalf("turn %d: %#v", turn, finished(t, events))
		}
		input = &agui.RunAgentInput{ThreadID: "thread-turns", RunID: agui.NewID("run"), Messages: rs.Messages(), State: rs.State(),
			Resume: []agui.ResumeEntry{{InterruptID: out.Interrupts[0].ID, Status: agui.ResumeEntryStatusResolved, Payload: jsonString(answer)}}}
	}
	events, rs = aguiRun(t, ctx, srv.URL, input)
	if fin := finished(t, events); fin.Outcome != nil {
		t.Fatalf("last turn: %#v", fin.Outcome)
	}
	if got := summary(rs.Messages()); strings.Count(got, "assistant: Turn ") != 3 || !strings.Contains(got, "Turn 5.") {
		t.Errorf("messages:\n%s", got)
	}
	if !strings.Contains(string(rs.State()), `"log":{"parts":[{"data":{"turn":1}},{"data":{"turn":3}},{"data":{"turn":5}}]}`) {
		t.Errorf("state %s", rs.State())
	}

	events, _ = aguiRun(t, ctx, srv.URL, userInput("thread-turns-fail", "fail"))
	if last, ok := events[len(events)-1].(*agui.RunErrorEvent); !ok || last.Message != "the A2A task failed" {
		t.Errorf("failure: %#v", events[len(events)-1])
	}
}

func jsonString(s string) json.RawMessage { b, _ := json.Marshal(s); return b }

// TestForeignTask: a resume cannot cancel a task of another thread.
func TestForeignTask(t *testing.T) {
	_, client := a2aServer(t, turnsExecutor)
	srv := httptest.NewServer(agui.NewHandler(&bridge.A2AAgent{Client: client}))
	defer srv.Close()
	ctx := context.Background()
	events, _ := aguiRun(t, ctx, srv.URL, userInput("thread-a", "go"))
	in := finished(t, events).Outcome.(*agui.RunFinishedInterruptOutcome).Interrupts[0]
	other := userInput("thread-b", "go")
	other.Resume = []agui.ResumeEntry{{InterruptID: in.ID, Status: agui.ResumeEntryStatusCancelled}}
	events, _ = aguiRun(t, ctx, srv.URL, other)
	if last, ok := events[len(events)-1].(*agui.RunErrorEvent); !ok || *last.Code != "RESUME_FOREIGN_TASK" {
		t.Errorf("cancel from another thread: %#v", events[len(events)-1])
	}
	task, err := client.GetTask(ctx, &a2a.GetTaskRequest{ID: strings.TrimPrefix(in.ID, "a2a/")})
	if err != nil || task.Status.State != a2a.TaskStateInputRequired {
		t.Errorf("the task after a foreign cancel: %v %v", task, err)
	}
}

// chunkAgent streams with chunk events only, continuing without ids, and
// interrupts twice.
var chunkAgent = agui.AgentFunc(func(ctx context.Context, in *agui.RunAgentInput, s *agui.Stream) error {
	if len(in.Resume) > 0 {
		var got []string
		for _, e := range in.Resume {
			got = append(got, e.InterruptID+"="+string(e.Status))
		}
		return s.Text(strings.Join(got, ","))
	}
	id, call, rsn, name := "msg-1", "call-1", "rsn-1", "lookup"
	for _, ev := range []agui.Event{
		&agui.ReasoningMessageChunkEvent{MessageID: &rsn, Delta: ptr("Hmm, ")},
		&agui.ReasoningMessageChunkEvent{Delta: ptr("let me see.")},
		&agui.ToolCallChunkEvent{ToolCallID: &call, ToolCallName: &name, Delta: ptr(`{"city":`)},
		&agui.ToolCallChunkEvent{Delta: ptr(`"Paris"}`)},
		&agui.TextMessageChunkEvent{MessageID: &id, Delta: ptr("Hello ")},
		&agui.TextMessageChunkEvent{Delta: ptr("world.")},
	} {
		if err := s.Emit(ev); err != nil {
			return err
		}
	}
	s.Interrupt(agui.Interrupt{ID: "i1", Reason: "confirm"}, agui.Interrupt{ID: "i2", Reason: "confirm"})
	return nil
})

// TestExecutorChunksAndPartialResume: chunk streams reach the task whole;
// a resume that leaves an interrupt out leaves it unanswered.
func TestExecutorChunksAndPartialResume(t *testing.T) {
	_, client := a2aServer(t, &bridge.Executor{Agent: chunkAgent})
	var answer, args, thinking string
	var last *a2a.TaskStatusUpdateEvent
	for _, r := range streamMessage(t, client, textMessage("go", "")) {
		switch p := r.Payload.(type) {
		case *a2a.StreamResponseArtifactUpdate:
			if !strings.HasPrefix(p.ArtifactUpdate.Artifact.ArtifactID, "agui-") {
				answer += p.ArtifactUpdate.Artifact.Parts[0].Content.(*a2a.PartText).Text
			}
		case *a2a.StreamResponseStatusUpdate:
			last = p.StatusUpdate
			if m := last.Status.Message; m != nil {
				for _, part := range m.Parts {
					if c, ok := bridge.ToolCallOf(part); ok {
						args = c.Arguments
					}
					if bridge.IsThinking(part) {
						thinking = part.Content.(*a2a.PartText).Text
					}
				}
			}
		}
	}
	if answer != "Hello world." || args != `{"city":"Paris"}` || thinking != "Hmm, let me see." {
		t.Errorf("answer %q, args %q, thinking %q", answer, args, thinking)
	}
	resume := &a2a.Message{MessageID: "m-r", TaskID: last.TaskID, Role: a2a.RoleUser, Parts: []*a2a.Part{{
		Content: &a2a.PartData{Data: json.RawMessage(`{"type":"agui.resume","resume":[{"interruptId":"i1","status":"cancelled"}]}`)}}}}
	answer = ""
	for _, r := range streamMessage(t, client, resume) {
		if p, ok := r.Payload.(*a2a.StreamResponseArtifactUpdate); ok && !strings.HasPrefix(p.ArtifactUpdate.Artifact.ArtifactID, "agui-") {
			answer += p.ArtifactUpdate.Artifact.Parts[0].Content.(*a2a.PartText).Text
		}
	}
	if answer != "i1=cancelled" {
		t.Errorf("the agent saw the resume %q", answer)
	}
}

// TestFormatRefusedByQuality: a media type the client gives q=0 is not the
// one it gets.
func TestFormatRefusedByQuality(t *testing.T) {
	url, _ := a2aServer(t, weatherExecutor)
	req, _ := http.NewRequest(http.MethodPost, url+"/message:stream", strings.NewReader(`{"message":{"messageId":"m-q","role":"ROLE_USER","parts":[{"text":"weather"}]}}`))
	req.Header.Set("A2A-Version", "1.0")
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", bridge.EventsMediaType+";q=0, text/event-stream")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	events, err := readAGUI(res)
	if err == nil && len(events) > 0 {
		t.Errorf("AG-UI events for a client that refused them: %v", types(events))
	}
}

// TestCapabilitiesFromCard: an A2A agent's card becomes a valid AG-UI
// declaration, served by the bridged endpoint.
func TestCapabilitiesFromCard(t *testing.T) {
	url, client := a2aServer(t, weatherExecutor)
	card, err := a2a.ResolveCard(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	card.DefaultInputModes = append(card.DefaultInputModes, "image/png", "application/pdf")
	srv := httptest.NewServer(agui.NewHandler(&bridge.A2AAgent{Client: client, Card: card}))
	defer srv.Close()
	caps, err := (&agui.Client{URL: srv.URL}).Capabilities(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if *caps.Identity.Name != "weather" || *caps.Identity.Description != "Knows the weather." || !*caps.Transport.Streaming ||
		!*caps.HumanInTheLoop.Interrupts || *caps.Tools.ClientProvided || !*caps.Multimodal.Input.Image || !*caps.Multimodal.Input.Pdf ||
		caps.Multimodal.Input.Audio != nil || !strings.Contains(string(caps.Custom), `"a2aSkills":[{"id":"weather","name":"Weather"`) {
		t.Errorf("capabilities %s", caps.AppendJSON(nil))
	}
	// Without a card the bridged agent declares nothing.
	bare := httptest.NewServer(agui.NewHandler(&bridge.A2AAgent{Client: client}))
	defer bare.Close()
	var he *agui.HTTPError
	if _, err := (&agui.Client{URL: bare.URL}).Capabilities(context.Background()); !errors.As(err, &he) || he.StatusCode != 404 {
		t.Errorf("no card: %v", err)
	}
}
