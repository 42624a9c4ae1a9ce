package openai_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/agui-gen/agui-gen/gen/agui"
	"github.com/agui-gen/agui-gen/runtime/model"
	"github.com/agui-gen/agui-gen/runtime/model/internal/agenttest"
	"github.com/agui-gen/agui-gen/runtime/model/openai"
	"github.com/agui-gen/agui-gen/runtime/model/openai/openaitest"
)

// The tests of agui.ModelAgent on this adapter, every event checked by the
// AG-UI verifier.

const fixtures = "testdata/"

func modelAgent(t *testing.T, srv *openaitest.Server, opts ...model.Option) agui.Agent {
	t.Helper()
	agent, err := agui.ModelAgent(openai.New(srv.Client(), "gpt-4.1"), opts...)
	if err != nil {
		t.Fatal(err)
	}
	return agent
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
			srv := openaitest.NewServer(t, openaitest.Fixture(t, fixtures+tc.fixture))
			evs, _ := agenttest.Run(t, context.Background(), modelAgent(t, srv), agenttest.UserInput("r1", "Hello"), nil)
			if got := agenttest.Summaries(evs); got != tc.want {
				t.Errorf("events:\n%s\nwant:\n%s", got, tc.want)
			}
		})
	}
}

// The loop: the model calls a server-side tool, the tool runs, its result
// goes out and back to the model in a second request, which answers.
func TestModelAgentServerToolLoop(t *testing.T) {
	srv := openaitest.NewServer(t, openaitest.Fixture(t, fixtures+"tool_call.sse"),
		openaitest.Fixture(t, fixtures+"text.sse"))
	weather := agenttest.Weather(func(city string) string { return "18°C and sunny in " + city })
	evs, err := agenttest.Run(t, context.Background(), modelAgent(t, srv, model.WithTools(weather)), agenttest.UserInput("r1", "Weather in Paris?"), nil)
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
	if got := agenttest.Summaries(evs); got != want {
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
	srv := openaitest.NewServer(t, openaitest.Fixture(t, fixtures+"frontend_tool.sse"),
		openaitest.Fixture(t, fixtures+"text.sse"))
	agent := modelAgent(t, srv)
	confirm := agui.Tool{Name: "confirm_booking", Description: "Asks the user to confirm a booking.",
		Parameters: json.RawMessage(`{"type":"object","properties":{"people":{"type":"integer"},"time":{"type":"string"}}}`)}
	in := agenttest.UserInput("r1", "A table for two at 8pm, please.", confirm)
	evs, err := agenttest.Run(t, context.Background(), agent, in, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := `RUN_STARTED
TOOL_CALL_START call_7Xk2confirm confirm_booking parent=chatcmpl-Bq3frontend0003
TOOL_CALL_ARGS call_7Xk2confirm {"people":2,
TOOL_CALL_ARGS call_7Xk2confirm "time":"20:00"}
TOOL_CALL_END call_7Xk2confirm
RUN_FINISHED usage={"provider":"openai","model":"gpt-4.1-2025-04-14","inputTokens":81,"outputTokens":24,"totalTokens":105,"cachedInputTokens":64}`
	if got := agenttest.Summaries(evs); got != want {
		t.Fatalf("first run:\n%s\nwant:\n%s", got, want)
	}
	// The front end's conversation, as a client reduces the events, and
	// the tool's result it adds.
	conv := agui.NewConversation(in.Messages, nil)
	for _, ev := range evs {
		if err := conv.Apply(ev); err != nil {
			t.Fatal(err)
		}
	}
	conv.Sync()
	conv.Messages = append(conv.Messages, &agui.ToolMessage{ID: "t-1", ToolCallID: "call_7Xk2confirm",
		Content: agui.TextContent("the user confirmed 2 at 20:00")})
	second := &agui.RunAgentInput{ThreadID: "t1", RunID: "r2", Tools: in.Tools, Messages: conv.Messages}
	evs, err = agenttest.Run(t, context.Background(), agent, second, nil)
	if err != nil || evs[len(evs)-1].Type() != agui.EventTypeRunFinished || len(evs) != 8 {
		t.Fatalf("second run: %v\n%s", err, agenttest.Summaries(evs))
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
	srv := openaitest.NewServer(t, openaitest.Fixture(t, fixtures+"error_midstream.sse"))
	evs, err := agenttest.Run(t, context.Background(), modelAgent(t, srv), agenttest.UserInput("r1", "Hello"), nil)
	var re *agui.RunError
	if !errors.As(err, &re) || re.Code != "server_error" {
		t.Fatalf("error %v", err)
	}
	want := `RUN_STARTED
TEXT_MESSAGE_START chatcmpl-Bq4error00004
TEXT_MESSAGE_CONTENT The answer
TEXT_MESSAGE_CONTENT  is
RUN_ERROR server_error: openai: The server had an error while processing your request. Sorry about that! (server_error)`
	if got := agenttest.Summaries(evs); got != want {
		t.Errorf("events:\n%s\nwant:\n%s", got, want)
	}
}

// Cancelling the run stops the request to the model: the replay server
// sees its client go.
func TestModelAgentCancelStopsTheModel(t *testing.T) {
	held := openaitest.Fixture(t, fixtures+"error_midstream.sse")
	held.Body = held.Body[:strings.Index(string(held.Body), `data: {"error"`)]
	held.Hold = true
	srv := openaitest.NewServer(t, held)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan []agui.Event, 1)
	go func() {
		evs, _ := agenttest.Run(t, ctx, modelAgent(t, srv), agenttest.UserInput("r1", "Hello"), func(ev agui.Event) {
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
			t.Errorf("the run went on after the cancel:\n%s", agenttest.Summaries(evs))
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the run did not end after the cancel")
	}
}
