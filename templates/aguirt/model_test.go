package aguirt

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	agui "github.com/agui-gen/agui-gen/gen/agui"
	"github.com/agui-gen/agui-gen/runtime/model"
	"github.com/agui-gen/agui-gen/runtime/model/openai"
	"github.com/agui-gen/agui-gen/runtime/model/openai/openaitest"
)

const openaiFixtures = "../../runtime/model/openai/testdata/"

// runModel runs agent on in through Invoke and returns the events, each
// checked by a verifier of its own, apart from the stream's.
func runModel(t *testing.T, ctx context.Context, agent Agent, in *agui.RunAgentInput, onEvent func(agui.Event)) ([]agui.Event, error) {
	t.Helper()
	v := NewVerifier()
	var got []agui.Event
	err := Invoke(ctx, agent, in, func(ev agui.Event) error {
		if err := v.Check(ev); err != nil {
			t.Errorf("the verifier refuses %s: %v", ev.Type(), err)
		}
		got = append(got, ev)
		if onEvent != nil {
			onEvent(ev)
		}
		return nil
	})
	return got, err
}

func userInput(runID, text string, tools ...agui.Tool) *agui.RunAgentInput {
	return &agui.RunAgentInput{ThreadID: "t1", RunID: runID, Tools: tools, Messages: []agui.Message{
		&agui.UserMessage{BaseMessage: agui.BaseMessage{ID: "u1"}, Content: agui.TextContent(text)}}}
}

func modelAgent(t *testing.T, srv *openaitest.Server, opts ...model.Option) Agent {
	t.Helper()
	agent, err := ModelAgent(openai.New(srv.Client(), "gpt-4.1"), opts...)
	if err != nil {
		t.Fatal(err)
	}
	return agent
}

// summary is an event as the tests compare it: its type and what matters.
func summary(ev agui.Event) string {
	switch e := ev.(type) {
	case *agui.TextMessageStartEvent:
		return "TEXT_MESSAGE_START " + e.MessageID
	case *agui.TextMessageContentEvent:
		return "TEXT_MESSAGE_CONTENT " + e.Delta
	case *agui.ReasoningStartEvent:
		return "REASONING_START " + e.MessageID
	case *agui.ReasoningMessageStartEvent:
		return "REASONING_MESSAGE_START " + e.MessageID
	case *agui.ReasoningMessageContentEvent:
		return "REASONING_MESSAGE_CONTENT " + e.Delta
	case *agui.ToolCallStartEvent:
		parent := ""
		if e.ParentMessageID != nil {
			parent = *e.ParentMessageID
		}
		return "TOOL_CALL_START " + e.ToolCallID + " " + e.ToolCallName + " parent=" + parent
	case *agui.ToolCallArgsEvent:
		return "TOOL_CALL_ARGS " + e.ToolCallID + " " + e.Delta
	case *agui.ToolCallEndEvent:
		return "TOOL_CALL_END " + e.ToolCallID
	case *agui.ToolCallResultEvent:
		return "TOOL_CALL_RESULT " + e.ToolCallID + " " + e.Content.Text
	case *agui.ReasoningEncryptedValueEvent:
		typ := ""
		if e.EncryptedValueType != nil {
			typ = " type=" + *e.EncryptedValueType
		}
		return "REASONING_ENCRYPTED_VALUE " + string(e.Subtype) + " " + e.EntityID + " " + e.EncryptedValue + typ
	case *agui.RunFinishedEvent:
		return "RUN_FINISHED" + usageSummary(e.Usage)
	case *agui.RunErrorEvent:
		code := ""
		if e.Code != nil {
			code = *e.Code
		}
		return "RUN_ERROR " + code + ": " + e.Message + usageSummary(e.Usage)
	}
	return string(ev.Type())
}

func usageSummary(us []agui.TokenUsage) string {
	var b strings.Builder
	for _, u := range us {
		j, _ := json.Marshal(u)
		b.WriteString(" usage=")
		b.Write(j)
	}
	return b.String()
}

func summaries(evs []agui.Event) string {
	s := make([]string, len(evs))
	for i, ev := range evs {
		s[i] = summary(ev)
	}
	return strings.Join(s, "\n")
}

func TestModelAgentStreams(t *testing.T) {
	for _, tc := range []struct{ fixture, want string }{
		{"text.sse", `RUN_STARTED
TEXT_MESSAGE_START chatcmpl-B9MBs8CjcvOU2jLn4n570S5qMJKcT
TEXT_MESSAGE_CONTENT Hello
TEXT_MESSAGE_CONTENT !
TEXT_MESSAGE_CONTENT  How can I
TEXT_MESSAGE_CONTENT  help?
TEXT_MESSAGE_END
RUN_FINISHED usage={"provider":"openai","model":"gpt-4.1-2025-04-14","inputTokens":19,"outputTokens":10,"totalTokens":29}`},
		{"reasoning.sse", `RUN_STARTED
REASONING_START 0f7c4b0a-5a1e-4bd7-a1a4-2b1a4a9c6d11-reasoning
REASONING_MESSAGE_START 0f7c4b0a-5a1e-4bd7-a1a4-2b1a4a9c6d11-reasoning
REASONING_MESSAGE_CONTENT 9.11 and 9.8:
REASONING_MESSAGE_CONTENT  compare the tenths.
` + `
REASONING_MESSAGE_CONTENT 8 > 1.
REASONING_MESSAGE_END
REASONING_END
TEXT_MESSAGE_START 0f7c4b0a-5a1e-4bd7-a1a4-2b1a4a9c6d11
TEXT_MESSAGE_CONTENT 9.8 is larger.
TEXT_MESSAGE_END
RUN_FINISHED usage={"provider":"openai","model":"deepseek-reasoner","inputTokens":15,"outputTokens":42,"totalTokens":57,"reasoningTokens":36}`},
		// A call of a tool nobody serves: it goes out, and the loop
		// tells the model it does not exist; the replay server has no
		// second answer, so the run ends with its error.
		{"tool_calls_parallel.sse", `RUN_STARTED
TOOL_CALL_START call_0a1Zr5bYvK2Y3nR1 get_weather parent=chatcmpl-Bq2parallel0002
TOOL_CALL_ARGS call_0a1Zr5bYvK2Y3nR1 {"city": 
TOOL_CALL_ARGS call_0a1Zr5bYvK2Y3nR1 "Paris"}
TOOL_CALL_START call_1bQ8mT6wXc4Z9pL2 get_weather parent=chatcmpl-Bq2parallel0002
TOOL_CALL_ARGS call_1bQ8mT6wXc4Z9pL2 {"city": 
TOOL_CALL_ARGS call_1bQ8mT6wXc4Z9pL2 "Tokyo"}
TOOL_CALL_END call_0a1Zr5bYvK2Y3nR1
TOOL_CALL_END call_1bQ8mT6wXc4Z9pL2
TOOL_CALL_RESULT call_0a1Zr5bYvK2Y3nR1 error: there is no tool named "get_weather" here; answer without it
TOOL_CALL_RESULT call_1bQ8mT6wXc4Z9pL2 error: there is no tool named "get_weather" here; answer without it
RUN_ERROR server_error: openai: openaitest: no reply left for this request (HTTP 500, server_error) usage={"provider":"openai","model":"gpt-4.1-2025-04-14","inputTokens":81,"outputTokens":24,"totalTokens":105,"cachedInputTokens":64}`},
	} {
		t.Run(tc.fixture, func(t *testing.T) {
			srv := openaitest.NewServer(t, openaitest.Fixture(t, openaiFixtures+tc.fixture))
			evs, _ := runModel(t, context.Background(), modelAgent(t, srv), userInput("r1", "Hello"), nil)
			if got := summaries(evs); got != tc.want {
				t.Errorf("events:\n%s\nwant:\n%s", got, tc.want)
			}
		})
	}
}

// The loop: the model calls a server-side tool, the tool runs, its result
// goes out and back to the model in a second request, which answers.
func TestModelAgentServerToolLoop(t *testing.T) {
	srv := openaitest.NewServer(t, openaitest.Fixture(t, openaiFixtures+"tool_call.sse"),
		openaitest.Fixture(t, openaiFixtures+"text.sse"))
	weather := model.Func{Tool: model.Tool{Name: "get_weather", Description: "Weather of a city.",
		Parameters: json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}`)},
		Call: func(_ context.Context, args json.RawMessage) (string, error) {
			var a struct{ City string }
			if err := json.Unmarshal(args, &a); err != nil {
				return "", err
			}
			return "18°C and sunny in " + a.City, nil
		}}
	evs, err := runModel(t, context.Background(), modelAgent(t, srv, model.WithTools(weather)), userInput("r1", "Weather in Paris?"), nil)
	if err != nil {
		t.Fatal(err)
	}
	want := `RUN_STARTED
TEXT_MESSAGE_START chatcmpl-Bq1toolcall0001
TEXT_MESSAGE_CONTENT Let me look that up.
TEXT_MESSAGE_END
TOOL_CALL_START call_DdmO9pD3xa9XTPNJ32zg2hcA get_weather parent=chatcmpl-Bq1toolcall0001
TOOL_CALL_ARGS call_DdmO9pD3xa9XTPNJ32zg2hcA {"
TOOL_CALL_ARGS call_DdmO9pD3xa9XTPNJ32zg2hcA city":"
TOOL_CALL_ARGS call_DdmO9pD3xa9XTPNJ32zg2hcA Paris
TOOL_CALL_ARGS call_DdmO9pD3xa9XTPNJ32zg2hcA "}
TOOL_CALL_END call_DdmO9pD3xa9XTPNJ32zg2hcA
TOOL_CALL_RESULT call_DdmO9pD3xa9XTPNJ32zg2hcA 18°C and sunny in Paris
TEXT_MESSAGE_START chatcmpl-B9MBs8CjcvOU2jLn4n570S5qMJKcT
TEXT_MESSAGE_CONTENT Hello
TEXT_MESSAGE_CONTENT !
TEXT_MESSAGE_CONTENT  How can I
TEXT_MESSAGE_CONTENT  help?
TEXT_MESSAGE_END
RUN_FINISHED usage={"provider":"openai","model":"gpt-4.1-2025-04-14","inputTokens":100,"outputTokens":34,"totalTokens":134,"cachedInputTokens":64}`
	if got := summaries(evs); got != want {
		t.Errorf("events:\n%s\nwant:\n%s", got, want)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests to the model", len(reqs))
	}
	var second struct {
		Messages []json.RawMessage `json:"messages"`
		Tools    []json.RawMessage `json:"tools"`
	}
	if err := json.Unmarshal(reqs[1], &second); err != nil {
		t.Fatal(err)
	}
	got := make([]string, len(second.Messages))
	for i, m := range second.Messages {
		got[i] = string(m)
	}
	wantMsgs := []string{
		`{"content":"Weather in Paris?","role":"user"}`,
		`{"content":"Let me look that up.","tool_calls":[{"id":"call_DdmO9pD3xa9XTPNJ32zg2hcA","function":{"arguments":"{\"city\":\"Paris\"}","name":"get_weather"},"type":"function"}],"role":"assistant"}`,
		`{"content":"18°C and sunny in Paris","tool_call_id":"call_DdmO9pD3xa9XTPNJ32zg2hcA","role":"tool"}`,
	}
	if strings.Join(got, "\n") != strings.Join(wantMsgs, "\n") {
		t.Errorf("second request's messages:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(wantMsgs, "\n"))
	}
	if len(second.Tools) != 1 || !strings.Contains(string(second.Tools[0]), `"name":"get_weather"`) {
		t.Errorf("second request's tools %s", second.Tools)
	}
}

// A front-end tool: the call goes out and the run ends; the front end's
// next run brings the result, which reaches the model.
func TestModelAgentFrontEndTool(t *testing.T) {
	srv := openaitest.NewServer(t, openaitest.Fixture(t, openaiFixtures+"frontend_tool.sse"),
		openaitest.Fixture(t, openaiFixtures+"text.sse"))
	agent := modelAgent(t, srv)
	confirm := agui.Tool{Name: "confirm_booking", Description: "Asks the user to confirm a booking.",
		Parameters: json.RawMessage(`{"type":"object","properties":{"people":{"type":"integer"},"time":{"type":"string"}}}`)}
	in := userInput("r1", "A table for two at 8pm, please.", confirm)
	evs, err := runModel(t, context.Background(), agent, in, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := `RUN_STARTED
TOOL_CALL_START call_7Xk2confirm confirm_booking parent=chatcmpl-Bq3frontend0003
TOOL_CALL_ARGS call_7Xk2confirm {"people":2,
TOOL_CALL_ARGS call_7Xk2confirm "time":"20:00"}
TOOL_CALL_END call_7Xk2confirm
RUN_FINISHED usage={"provider":"openai","model":"gpt-4.1-2025-04-14","inputTokens":81,"outputTokens":24,"totalTokens":105,"cachedInputTokens":64}`
	if got := summaries(evs); got != want {
		t.Fatalf("first run:\n%s\nwant:\n%s", got, want)
	}
	// The front end's conversation, as a client reduces the events, and
	// the tool's result it adds.
	conv := NewConversation(in.Messages, nil)
	for _, ev := range evs {
		if err := conv.Apply(ev); err != nil {
			t.Fatal(err)
		}
	}
	conv.Sync()
	conv.Messages = append(conv.Messages, &agui.ToolMessage{ID: "t-1", ToolCallID: "call_7Xk2confirm",
		Content: agui.TextContent("the user confirmed 2 at 20:00")})
	second := &agui.RunAgentInput{ThreadID: "t1", RunID: "r2", Tools: in.Tools, Messages: conv.Messages}
	evs, err = runModel(t, context.Background(), agent, second, nil)
	if err != nil || evs[len(evs)-1].Type() != agui.EventTypeRunFinished || len(evs) != 8 {
		t.Fatalf("second run: %v\n%s", err, summaries(evs))
	}
	var body struct {
		Messages []json.RawMessage `json:"messages"`
	}
	if err := json.Unmarshal(srv.Requests()[1], &body); err != nil {
		t.Fatal(err)
	}
	got := make([]string, len(body.Messages))
	for i, m := range body.Messages {
		got[i] = string(m)
	}
	wantMsgs := []string{
		`{"content":"A table for two at 8pm, please.","role":"user"}`,
		`{"tool_calls":[{"id":"call_7Xk2confirm","function":{"arguments":"{\"people\":2,\"time\":\"20:00\"}","name":"confirm_booking"},"type":"function"}],"role":"assistant"}`,
		`{"content":"the user confirmed 2 at 20:00","tool_call_id":"call_7Xk2confirm","role":"tool"}`,
	}
	if strings.Join(got, "\n") != strings.Join(wantMsgs, "\n") {
		t.Errorf("second run's request:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(wantMsgs, "\n"))
	}
}

func TestModelAgentErrorMidStream(t *testing.T) {
	srv := openaitest.NewServer(t, openaitest.Fixture(t, openaiFixtures+"error_midstream.sse"))
	evs, err := runModel(t, context.Background(), modelAgent(t, srv), userInput("r1", "Hello"), nil)
	var re *RunError
	if !errors.As(err, &re) || re.Code != "server_error" {
		t.Fatalf("error %v", err)
	}
	want := `RUN_STARTED
TEXT_MESSAGE_START chatcmpl-Bq4error00004
TEXT_MESSAGE_CONTENT The answer
TEXT_MESSAGE_CONTENT  is
RUN_ERROR server_error: openai: The server had an error while processing your request. Sorry about that! (server_error)`
	if got := summaries(evs); got != want {
		t.Errorf("events:\n%s\nwant:\n%s", got, want)
	}
}

// Cancelling the run stops the request to the model: the replay server
// sees its client go.
func TestModelAgentCancelStopsTheModel(t *testing.T) {
	held := openaitest.Fixture(t, openaiFixtures+"error_midstream.sse")
	held.Body = held.Body[:strings.Index(string(held.Body), `data: {"error"`)]
	held.Hold = true
	srv := openaitest.NewServer(t, held)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan []agui.Event, 1)
	go func() {
		evs, _ := runModel(t, ctx, modelAgent(t, srv), userInput("r1", "Hello"), func(ev agui.Event) {
			if c, ok := ev.(*agui.TextMessageContentEvent); ok && c.Delta == " is" {
				cancel()
			}
		})
		done <- evs
	}()
	select {
	case <-srv.Gone:
	case <-time.After(10 * time.Second):
		t.Fatal("the model's request is still open after the cancel")
	}
	select {
	case evs := <-done:
		if last := evs[len(evs)-1].Type(); last != agui.EventTypeTextMessageContent && last != agui.EventTypeRunError {
			t.Errorf("the run went on after the cancel:\n%s", summaries(evs))
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the run did not end after the cancel")
	}
}

func TestModelRequestMapsTheConversation(t *testing.T) {
	call := "call_1"
	text := "Checking."
	errText := "timeout"
	in := &agui.RunAgentInput{
		Context: []agui.Context{{Description: "The user's city", Value: "Paris"}},
		Messages: []agui.Message{
			&agui.SystemMessage{Content: "Be brief."},
			&agui.DeveloperMessage{Content: "Metric units."},
			&agui.UserMessage{Content: agui.PartsContent(&agui.TextPart{Text: "This?"},
				&agui.ImagePart{Source: &agui.DataSource{Value: "iVBORw0KGgo=", MIMEType: "image/png"}},
				&agui.DocumentPart{Source: &agui.FileSource{Value: "file-abc"}})},
			&agui.AssistantMessage{Content: &text, ToolCalls: []agui.ToolCall{{ID: call,
				Function: agui.FunctionCall{Name: "look", Arguments: `{"q":1}`}}}},
			&agui.ToolMessage{ToolCallID: call, Content: agui.TextContent(""), Error: &errText},
			&agui.ReasoningMessage{Content: "not sent"},
		},
		Tools: []agui.Tool{{Name: "look", Description: "Looks.", Parameters: json.RawMessage(`{"type":"object"}`)}},
	}
	req := ModelRequest(in)
	got, _ := json.Marshal(req)
	want := `{"System":"Context from the application:\n\nThe user's city:\nParis","Messages":[` +
		`{"Role":"system","Content":[{"Kind":0,"Text":"Be brief.","MIMEType":"","Data":"","URL":"","FileID":""}],"ToolCalls":null,"ToolCallID":"","Reasoning":null},` +
		`{"Role":"developer","Content":[{"Kind":0,"Text":"Metric units.","MIMEType":"","Data":"","URL":"","FileID":""}],"ToolCalls":null,"ToolCallID":"","Reasoning":null},` +
		`{"Role":"user","Content":[{"Kind":0,"Text":"This?","MIMEType":"","Data":"","URL":"","FileID":""},{"Kind":1,"Text":"","MIMEType":"image/png","Data":"iVBORw0KGgo=","URL":"","FileID":""},{"Kind":4,"Text":"","MIMEType":"","Data":"","URL":"","FileID":"file-abc"}],"ToolCalls":null,"ToolCallID":"","Reasoning":null},` +
		`{"Role":"assistant","Content":[{"Kind":0,"Text":"Checking.","MIMEType":"","Data":"","URL":"","FileID":""}],"ToolCalls":[{"ID":"call_1","Name":"look","Arguments":"{\"q\":1}"}],"ToolCallID":"","Reasoning":null},` +
		`{"Role":"tool","Content":[{"Kind":0,"Text":"error: timeout","MIMEType":"","Data":"","URL":"","FileID":""},{"Kind":0,"Text":"","MIMEType":"","Data":"","URL":"","FileID":""}],"ToolCalls":null,"ToolCallID":"call_1","Reasoning":null}],` +
		`"Tools":[{"Name":"look","Description":"Looks.","Parameters":{"type":"object"}}]}`
	if string(got) != want {
		t.Errorf("request\n%s\nwant\n%s", got, want)
	}
}
