package bridge_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agui-gen/agui-gen/gen/a2a"
	"github.com/agui-gen/agui-gen/gen/a2a/a2atask"
	"github.com/agui-gen/agui-gen/gen/agui"
	"github.com/agui-gen/agui-gen/gen/bridge"
)

// The examples of Hector's AG-UI metadata document (docs/agui-metadata.md),
// as A2A parts.
const (
	hectorText     = `{"text":"Hello! How can I help you today?","metadata":{"agui_event_type":"content_block","agui_block_type":"text","agui_block_id":"block-1234","agui_block_index":0}}`
	hectorThinking = `{"text":"[Thinking: Analyzing the user's request...]\n","metadata":{"agui_event_type":"thinking","agui_block_type":"thinking","agui_block_id":"think-5678","agui_block_index":1}}`
	hectorCall     = `{"data":{"data":{"id":"call-9abc","name":"search_code","arguments":{"query":"authentication logic"}}},"metadata":{"agui_event_type":"tool_call","agui_tool_call_id":"call-9abc","agui_tool_name":"search_code"}}`
	hectorResult   = `{"data":{"data":{"tool_call_id":"call-9abc","content":"Found 5 files matching 'authentication'...","error":""}},"metadata":{"agui_event_type":"tool_call","agui_tool_call_id":"call-9abc","agui_is_error":false}}`
)

func part(t *testing.T, s string) *a2a.Part {
	t.Helper()
	p := new(a2a.Part)
	if err := p.UnmarshalJSON([]byte(s)); err != nil {
		t.Fatalf("%s: %v", s, err)
	}
	return p
}

func ptr[T any](v T) *T { return &v }

// TestHintsReadHector: the hint helpers read each of Hector's examples, and
// what they write reads back the same.
func TestHintsReadHector(t *testing.T) {
	text := part(t, hectorText)
	h, ok := bridge.HintOf(text)
	want := bridge.Hint{EventType: "content_block", BlockType: "text", BlockID: "block-1234", BlockIndex: ptr(0)}
	if !ok || h.EventType != want.EventType || h.BlockType != want.BlockType || h.BlockID != want.BlockID || *h.BlockIndex != 0 || h.IsError != nil {
		t.Errorf("text hint %+v, want %+v", h, want)
	}
	if bridge.IsThinking(text) || !bridge.IsThinking(part(t, hectorThinking)) {
		t.Error("IsThinking tells text from thinking wrongly")
	}
	if _, ok := bridge.ToolCallOf(text); ok {
		t.Error("a text part read as a tool call")
	}
	call, ok := bridge.ToolCallOf(part(t, hectorCall))
	if wantCall := (bridge.ToolCall{ID: "call-9abc", Name: "search_code", Arguments: `{"query":"authentication logic"}`}); !ok || call != wantCall {
		t.Errorf("tool call %+v, want %+v", call, wantCall)
	}
	if _, ok := bridge.ToolResultOf(part(t, hectorCall)); ok {
		t.Error("Hector's tool call read as a result")
	}
	res, ok := bridge.ToolResultOf(part(t, hectorResult))
	if wantRes := (bridge.ToolResult{ToolCallID: "call-9abc", Content: "Found 5 files matching 'authentication'..."}); !ok || res != wantRes {
		t.Errorf("tool result %+v, want %+v", res, wantRes)
	}
	if _, ok := bridge.ToolCallOf(part(t, hectorResult)); ok {
		t.Error("Hector's tool result read as a call")
	}

	// Written parts read back, and carry Hector's keys.
	for _, tc := range []struct {
		p    *a2a.Part
		want bridge.Hint
	}{
		{bridge.TextPart("hi", "b-1", 2), bridge.Hint{EventType: "content_block", BlockType: "text", BlockID: "b-1", BlockIndex: ptr(2)}},
		{bridge.ThinkingPart("hmm", "t-1", 0), bridge.Hint{EventType: "thinking", BlockType: "thinking", BlockID: "t-1", BlockIndex: ptr(0)}},
	} {
		got, ok := bridge.HintOf(tc.p)
		if !ok || got.EventType != tc.want.EventType || got.BlockType != tc.want.BlockType || got.BlockID != tc.want.BlockID || *got.BlockIndex != *tc.want.BlockIndex {
			t.Errorf("%s: hint %+v, want %+v", tc.p.Metadata, got, tc.want)
		}
	}
	written := bridge.ToolCallPart(bridge.ToolCall{ID: "c1", Name: "lookup", Arguments: `{"city":"Paris"}`})
	if got, ok := bridge.ToolCallOf(written); !ok || got.Arguments != `{"city":"Paris"}` || got.ID != "c1" {
		t.Errorf("tool call part reads back as %+v", got)
	}
	if !strings.Contains(string(written.AppendJSON(nil)), `"agui_tool_call_id":"c1"`) || !strings.Contains(string(written.AppendJSON(nil)), `"type":"tool-call"`) {
		t.Errorf("tool call part lacks the hints or the @ag-ui/a2a shape: %s", written.AppendJSON(nil))
	}
	failed := bridge.ToolResultPart(bridge.ToolResult{ToolCallID: "c1", Content: "boom", IsError: true})
	if got, ok := bridge.ToolResultOf(failed); !ok || got != (bridge.ToolResult{ToolCallID: "c1", Content: "boom", IsError: true}) {
		t.Errorf("tool result part reads back as %+v", got)
	}

	// SetHint keeps what is not a hint and replaces the hints.
	p := &a2a.Part{Content: &a2a.PartText{Text: "x"}, Metadata: json.RawMessage(`{"trace":"t-9","agui_block_id":"old"}`)}
	bridge.SetHint(p, bridge.Hint{EventType: "thinking"})
	var meta map[string]any
	_ = json.Unmarshal(p.Metadata, &meta)
	if meta["trace"] != "t-9" || meta["agui_event_type"] != "thinking" || meta["agui_block_id"] != nil {
		t.Errorf("SetHint left %s", p.Metadata)
	}
}

// weatherExecutor is the A2A agent of these tests. What it does depends on
// the message's text:
//
//	"weather": thinks, calls a tool, streams its answer as an artifact in
//	           two chunks, adds a data artifact, and completes;
//	"ask":     asks which colour, then completes with the answer;
//	"auth":    asks the client to sign in;
//	"fail":    fails;
//	"slow":    works until canceled.
var weatherExecutor = a2atask.ExecutorFunc(func(ctx context.Context, run *a2atask.Run) error {
	text := ""
	for _, p := range run.Message.Parts {
		if t, ok := p.Content.(*a2a.PartText); ok {
			text += t.Text
		}
	}
	if len(run.Task().History) > 2 { // an answer to "ask"
		return run.Artifact(&a2a.Artifact{ArtifactID: "answer", Parts: []*a2a.Part{{Content: &a2a.PartText{Text: "You chose " + text + "."}}}}, false, true)
	}
	switch text {
	case "weather":
		steps := []func() error{
			func() error { return run.Working(run.AgentMessage(bridge.ThinkingPart("Looking it up.", "", 0))) },
			func() error {
				return run.Working(run.AgentMessage(bridge.ToolCallPart(bridge.ToolCall{ID: "call-1", Name: "lookup", Arguments: `{"city":"Paris"}`})))
			},
			func() error {
				return run.Working(run.AgentMessage(bridge.ToolResultPart(bridge.ToolResult{ToolCallID: "call-1", Content: "sunny, 21°C"})))
			},
			func() error {
				return run.Artifact(&a2a.Artifact{ArtifactID: "forecast", Parts: []*a2a.Part{{Content: &a2a.PartText{Text: "It is sunny "}}}}, false, false)
			},
			func() error {
				return run.Artifact(&a2a.Artifact{ArtifactID: "forecast", Parts: []*a2a.Part{{Content: &a2a.PartText{Text: "in Paris."}}}}, true, true)
			},
			func() error {
				return run.Artifact(&a2a.Artifact{ArtifactID: "reading", Name: "reading", Parts: []*a2a.Part{{Content: &a2a.PartData{Data: json.RawMessage(`{"celsius":21}`)}}}}, false, true)
			},
		}
		for _, step := range steps {
			if err := step(); err != nil {
				return err
			}
		}
		return nil
	case "ask":
		return run.RequireInput(run.AgentMessage(&a2a.Part{Content: &a2a.PartText{Text: "Which colour?"}}))
	case "auth":
		return run.RequireAuth(run.AgentMessage(&a2a.Part{Content: &a2a.PartText{Text: "Sign in first."}}))
	case "fail":
		return run.Fail(run.AgentMessage(&a2a.Part{Content: &a2a.PartText{Text: "no luck"}}))
	case "slow":
		if err := run.Working(nil); err != nil {
			return err
		}
		<-ctx.Done()
		return ctx.Err()
	}
	return run.Reject(nil)
})

// a2aServer serves exec over A2A (JSON-RPC and HTTP+JSON, with the AG-UI
// format) and returns its URL and a client.
func a2aServer(t testing.TB, exec a2atask.Executor) (string, *a2a.A2AServiceClient) {
	t.Helper()
	rt := a2atask.New(exec, a2atask.NewMemory())
	t.Cleanup(func() { rt.Close() })
	srv := httptest.NewUnstartedServer(nil)
	card := &a2a.AgentCard{Name: "weather", Description: "Knows the weather.", Version: "1.0.0",
		SupportedInterfaces: a2a.Interfaces("http://" + srv.Listener.Addr().String()),
		Capabilities:        &a2a.AgentCapabilities{Streaming: ptr(true)},
		DefaultInputModes:   []string{"text/plain"}, DefaultOutputModes: []string{"text/plain"},
		Skills: []*a2a.AgentSkill{{ID: "weather", Name: "Weather", Description: "Tells the weather.", Tags: []string{"weather"}}}}
	h, err := a2a.NewHandler(a2a.BindA2AService(rt), card, a2a.WithStreamFormat(bridge.StreamFormat()))
	if err != nil {
		t.Fatal(err)
	}
	srv.Config.Handler = h
	srv.Start()
	t.Cleanup(srv.Close)
	return srv.URL, a2a.NewA2AServiceClient(a2a.NewJSONRPCTransport(srv.URL))
}

// aguiRun runs input against an AG-UI endpoint and returns the events,
// each checked against the schema and the sequence rules on the way.
func aguiRun(t *testing.T, ctx context.Context, url string, input *agui.RunAgentInput) ([]agui.Event, *agui.RunStream) {
	t.Helper()
	c := &agui.Client{URL: url}
	rs, err := c.Run(ctx, input)
	if err != nil {
		t.Fatal(err)
	}
	var events []agui.Event
	for ev, err := range rs.Events() {
		if err != nil {
			t.Fatalf("stream failed after %s: %v", types(events), err)
		}
		if verr := ev.Validate(); verr != nil {
			t.Errorf("invalid %s: %v", ev.Type(), verr)
		}
		events = append(events, ev)
	}
	if w := rs.Warnings(); len(w) > 0 {
		t.Errorf("client warnings: %q", w)
	}
	return events, rs
}

func types(events []agui.Event) []string {
	out := make([]string, len(events))
	for i, ev := range events {
		out[i] = string(ev.Type())
	}
	return out
}

func userInput(thread, text string) *agui.RunAgentInput {
	return &agui.RunAgentInput{ThreadID: thread, RunID: agui.NewID("run"),
		Messages: []agui.Message{&agui.UserMessage{BaseMessage: agui.BaseMessage{ID: agui.NewID("user")}, Content: agui.TextContent(text)}}}
}

func finished(t *testing.T, events []agui.Event) *agui.RunFinishedEvent {
	t.Helper()
	if len(events) == 0 {
		t.Fatal("no events")
	}
	fin, ok := events[len(events)-1].(*agui.RunFinishedEvent)
	if !ok {
		t.Fatalf("the run ended with %s, not RUN_FINISHED: %s", events[len(events)-1].Type(), types(events))
	}
	return fin
}

// TestA2AAgent: an A2A agent on the task runtime, behind A2AAgent, serves
// an AG-UI client: text, reasoning, a tool call and its result, artifacts
// in the state; an interrupt and its resume on the same task; a failure; a
// cancel when the client goes away.
func TestA2AAgent(t *testing.T) {
	_, client := a2aServer(t, weatherExecutor)
	bridged := httptest.NewServer(agui.NewHandler(&bridge.A2AAgent{Client: client}))
	defer bridged.Close()
	ctx := context.Background()

	t.Run("answer", func(t *testing.T) {
		events, rs := aguiRun(t, ctx, bridged.URL, userInput("thread-weather", "weather"))
		got := types(events)
		for _, want := range []string{"RUN_STARTED", "STATE_SNAPSHOT", "REASONING_MESSAGE_CONTENT", "TOOL_CALL_START", "TOOL_CALL_ARGS",
			"TOOL_CALL_RESULT", "TEXT_MESSAGE_CONTENT", "STATE_DELTA", "RUN_FINISHED"} {
			if !slices.Contains(got, want) {
				t.Errorf("no %s in %v", want, got)
			}
		}
		if fin := finished(t, events); fin.Outcome != nil {
			t.Errorf("outcome %T, want success", fin.Outcome)
		}
		var answer, call string
		for _, m := range rs.Messages() {
			switch m := m.(type) {
			case *agui.AssistantMessage:
				if m.Content != nil {
					answer += *m.Content
				}
				for _, c := range m.ToolCalls {
					call = c.ID + " " + c.Function.Name + " " + c.Function.Arguments
				}
			}
		}
		if answer != "It is sunny in Paris." {
			t.Errorf("answer %q", answer)
		}
		if call != `call-1 lookup {"city":"Paris"}` {
			t.Errorf("tool call %q", call)
		}
		var state struct {
			A2A struct {
				TaskID    string `json:"taskId"`
				ContextID string `json:"contextId"`
				State     string `json:"state"`
				Artifacts map[string]struct {
					Name  string            `json:"name"`
					Parts []json.RawMessage `json:"parts"`
				} `json:"artifacts"`
			} `json:"a2a"`
		}
		if err := json.Unmarshal(rs.State(), &state); err != nil {
			t.Fatalf("state %s: %v", rs.State(), err)
		}
		if state.A2A.ContextID != "thread-weather" || state.A2A.State != "TASK_STATE_COMPLETED" || state.A2A.TaskID == "" {
			t.Errorf("task view %+v", state.A2A)
		}
		if r := state.A2A.Artifacts["reading"]; len(r.Parts) != 1 || string(r.Parts[0]) != `{"data":{"celsius":21}}` {
			t.Errorf("data artifact in state: %+v", r)
		}
	})

	t.Run("interrupt and resume", func(t *testing.T) {
		events, _ := aguiRun(t, ctx, bridged.URL, userInput("thread-ask", "ask"))
		out, ok := finished(t, events).Outcome.(*agui.RunFinishedInterruptOutcome)
		if !ok || len(out.Interrupts) != 1 {
			t.Fatalf("outcome %#v, want one interrupt", finished(t, events).Outcome)
		}
		in := out.Interrupts[0]
		if in.Reason != "input_required" || in.Message == nil || *in.Message != "Which colour?" || !strings.HasPrefix(in.ID, "a2a/") {
			t.Errorf("interrupt %+v", in)
		}
		resume := userInput("thread-ask", "ask")
		resume.Resume = []agui.ResumeEntry{{InterruptID: in.ID, Status: agui.ResumeEntryStatusResolved, Payload: json.RawMessage(`"blue"`)}}
		events, rs := aguiRun(t, ctx, bridged.URL, resume)
		if fin := finished(t, events); fin.Outcome != nil {
			t.Errorf("resumed run's outcome %T", fin.Outcome)
		}
		for _, ev := range events {
			if c, ok := ev.(*agui.TextMessageContentEvent); ok && c.Delta == "Which colour?" {
				t.Error("the resumed run shows the question again")
			}
		}
		var answer string
		for _, m := range rs.Messages() {
			if am, ok := m.(*agui.AssistantMessage); ok && am.Content != nil {
				answer = *am.Content
			}
		}
		if answer != "You chose blue." {
			t.Errorf("answer after resume %q (events %s)", answer, types(events))
		}
		taskID := strings.TrimPrefix(in.ID, "a2a/")
		task, err := client.GetTask(ctx, &a2a.GetTaskRequest{ID: taskID})
		if err != nil || task.Status.State != a2a.TaskStateCompleted {
			t.Errorf("task %s after resume: %v %v", taskID, task, err)
		}
	})

	t.Run("authorization", func(t *testing.T) {
		events, _ := aguiRun(t, ctx, bridged.URL, userInput("thread-auth", "auth"))
		out, ok := finished(t, events).Outcome.(*agui.RunFinishedInterruptOutcome)
		if !ok || out.Interrupts[0].Reason != "auth_required" || *out.Interrupts[0].Message != "Sign in first." {
			t.Errorf("outcome %#v", finished(t, events).Outcome)
		}
	})

	t.Run("abandoned interrupt", func(t *testing.T) {
		events, _ := aguiRun(t, ctx, bridged.URL, userInput("thread-ask-2", "ask"))
		in := finished(t, events).Outcome.(*agui.RunFinishedInterruptOutcome).Interrupts[0]
		resume := userInput("thread-ask-2", "ask")
		resume.Resume = []agui.ResumeEntry{{InterruptID: in.ID, Status: agui.ResumeEntryStatusCancelled}}
		events, _ = aguiRun(t, ctx, bridged.URL, resume)
		if _, ok := finished(t, events).Outcome.(*agui.RunFinishedCancelledOutcome); !ok {
			t.Errorf("abandoning the interrupt ends with %T", finished(t, events).Outcome)
		}
	})

	t.Run("failure", func(t *testing.T) {
		events, _ := aguiRun(t, ctx, bridged.URL, userInput("thread-fail", "fail"))
		last, ok := events[len(events)-1].(*agui.RunErrorEvent)
		if !ok || last.Code == nil || *last.Code != "TASK_STATE_FAILED" || !strings.Contains(last.Message, "no luck") {
			t.Fatalf("a failed task ends the run with %#v", events[len(events)-1])
		}
	})

	t.Run("bad input", func(t *testing.T) {
		twoTasks := userInput("thread-bad", "ask")
		twoTasks.Resume = []agui.ResumeEntry{{InterruptID: "a2a/t1", Status: agui.ResumeEntryStatusResolved},
			{InterruptID: "a2a/t2", Status: agui.ResumeEntryStatusResolved}}
		noInput := &agui.RunAgentInput{ThreadID: "thread-bad", RunID: "r", Messages: []agui.Message{
			&agui.UserMessage{BaseMessage: agui.BaseMessage{ID: "u"}, Content: agui.TextContent("hi")},
			&agui.AssistantMessage{BaseMessage: agui.BaseMessage{ID: "a"}, Content: ptr("hello")}}}
		unknownTask := userInput("thread-bad", "ask")
		unknownTask.Resume = []agui.ResumeEntry{{InterruptID: "a2a/no-such-task", Status: agui.ResumeEntryStatusResolved, Payload: json.RawMessage(`"x"`)}}
		down := httptest.NewServer(agui.NewHandler(&bridge.A2AAgent{Client: a2a.NewA2AServiceClient(a2a.NewJSONRPCTransport("http://127.0.0.1:1"))}))
		defer down.Close()
		for _, tc := range []struct {
			name, url, code string
			input           *agui.RunAgentInput
		}{
			{"resume across tasks", bridged.URL, "RESUME_SPANS_TASKS", twoTasks},
			{"nothing new to send", bridged.URL, "NO_INPUT", noInput},
			{"resume of an unknown task", bridged.URL, "NOT_FOUND", unknownTask},
			{"agent unreachable", down.URL, "A2A_UNAVAILABLE", userInput("thread-bad", "hi")},
		} {
			events, _ := aguiRun(t, ctx, tc.url, tc.input)
			last, ok := events[len(events)-1].(*agui.RunErrorEvent)
			if !ok || last.Code == nil || *last.Code != tc.code {
				t.Errorf("%s: the run ended with %#v, want RUN_ERROR %s", tc.name, events[len(events)-1], tc.code)
			}
		}
	})

	t.Run("client goes away", func(t *testing.T) {
		runCtx, cancel := context.WithCancel(ctx)
		rs, err := (&agui.Client{URL: bridged.URL}).Run(runCtx, userInput("thread-slow", "slow"))
		if err != nil {
			t.Fatal(err)
		}
		var taskID string
		for ev, err := range rs.Events() {
			if err != nil {
				break
			}
			if snap, ok := ev.(*agui.StateSnapshotEvent); ok {
				var v struct {
					A2A struct {
						TaskID string `json:"taskId"`
					} `json:"a2a"`
				}
				_ = json.Unmarshal(snap.Snapshot, &v)
				taskID = v.A2A.TaskID
				cancel()
			}
		}
		cancel()
		if taskID == "" {
			t.Fatal("no task view before the abort")
		}
		deadline := time.Now().Add(5 * time.Second)
		for {
			task, err := client.GetTask(ctx, &a2a.GetTaskRequest{ID: taskID})
			if err == nil && task.Status.State == a2a.TaskStateCanceled {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("task %s after the client left: %v %v", taskID, task, err)
			}
			time.Sleep(20 * time.Millisecond)
		}
	})
}

// TestStreamFormat: an A2A client that asks for AG-UI events, by Accept or
// by ?format=agui, gets them, on JSON-RPC and on HTTP+JSON, 1.0 and 0.3;
// errors before the stream stay the binding's.
func TestStreamFormat(t *testing.T) {
	url, client := a2aServer(t, weatherExecutor)
	send := `{"message":{"messageId":"m-1","role":"ROLE_USER","parts":[{"text":"weather"}]}}`
	send03 := `{"message":{"kind":"message","messageId":"m-2","role":"user","parts":[{"kind":"text","text":"weather"}]}}`
	for _, tc := range []struct {
		name, target, body, accept, version string
	}{
		{"jsonrpc accept", url + "/", `{"jsonrpc":"2.0","id":1,"method":"SendStreamingMessage","params":` + send + `}`, bridge.EventsMediaType, "1.0"},
		{"rest query", url + "/message:stream?format=agui", send, "text/event-stream", "1.0"},
		// A 0.3 client's stream, converted to 1.0, is AG-UI's too.
		{"jsonrpc 0.3", url + "/", `{"jsonrpc":"2.0","id":2,"method":"message/stream","params":` + send03 + `}`, bridge.EventsMediaType, ""},
		{"rest 0.3", url + "/v1/message:stream?format=agui", `{"message":{"messageId":"m-3","role":"ROLE_USER","content":[{"text":"weather"}]}}`, "text/event-stream", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req, _ := http.NewRequest(http.MethodPost, tc.target, strings.NewReader(tc.body))
			req.Header.Set("Content-Type", "application/json")
			if tc.version != "" {
				req.Header.Set("A2A-Version", tc.version)
			}
			req.Header.Set("Accept", tc.accept)
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer res.Body.Close()
			if ct := res.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/event-stream") {
				t.Fatalf("Content-Type %q", ct)
			}
			events, err := readAGUI(res)
			if err != nil {
				t.Fatal(err)
			}
			got := types(events)
			if got[0] != "RUN_STARTED" || got[len(got)-1] != "RUN_FINISHED" || !slices.Contains(got, "TOOL_CALL_RESULT") || !slices.Contains(got, "TEXT_MESSAGE_CONTENT") {
				t.Errorf("events %v", got)
			}
		})
	}
	t.Run("subscription catches up", func(t *testing.T) {
		resp, err := client.SendMessage(context.Background(), &a2a.SendMessageRequest{Message: &a2a.Message{
			MessageID: "m-ask", Role: a2a.RoleUser, Parts: []*a2a.Part{{Content: &a2a.PartText{Text: "ask"}}}}})
		if err != nil {
			t.Fatal(err)
		}
		task := resp.Payload.(*a2a.SendMessageResponseTask).Task
		req, _ := http.NewRequest(http.MethodGet, url+"/tasks/"+task.ID+":subscribe", nil)
		req.Header.Set("A2A-Version", "1.0")
		req.Header.Set("Accept", bridge.EventsMediaType)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		events, err := readAGUI(res)
		if err != nil {
			t.Fatal(err)
		}
		var question bool
		for _, ev := range events {
			if c, ok := ev.(*agui.TextMessageContentEvent); ok && c.Delta == "Which colour?" {
				question = true
			}
		}
		if _, ok := finished(t, events).Outcome.(*agui.RunFinishedInterruptOutcome); !ok || !question {
			t.Errorf("subscription to a task that needs input: %v", types(events))
		}
	})
	t.Run("error before the stream", func(t *testing.T) {
		req, _ := http.NewRequest(http.MethodPost, url+"/tasks/no-such-task:subscribe?format=agui", nil)
		req.Header.Set("A2A-Version", "1.0")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusNotFound || !strings.HasPrefix(res.Header.Get("Content-Type"), "application/") {
			t.Errorf("unknown task: %d %s", res.StatusCode, res.Header.Get("Content-Type"))
		}
	})
}

// readAGUI reads an AG-UI SSE response, verifying the sequence.
func readAGUI(res *http.Response) ([]agui.Event, error) {
	body, err := io.ReadAll(res.Body)
	if err != nil {
		return nil, err
	}
	v := agui.NewVerifier()
	var events []agui.Event
	for _, line := range strings.Split(string(body), "\n") {
		data, ok := strings.CutPrefix(line, "data: ")
		if !ok {
			continue
		}
		ev, err := agui.UnmarshalEvent([]byte(data))
		if err != nil {
			return events, err
		}
		if err := v.Check(ev); err != nil {
			return events, err
		}
		events = append(events, ev)
	}
	return events, nil
}
