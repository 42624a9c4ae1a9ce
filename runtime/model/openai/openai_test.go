package openai_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/agui-gen/agui-gen/runtime/model"
	"github.com/agui-gen/agui-gen/runtime/model/internal/sinktest"
	"github.com/agui-gen/agui-gen/runtime/model/openai"
	"github.com/agui-gen/agui-gen/runtime/model/openai/openaitest"
)

// recorder writes down each call the adapter makes.
type recorder = sinktest.Recorder

var hello = &model.Request{Messages: []model.Message{model.Text(model.RoleUser, "Hello")}}

func stream(t *testing.T, fixture string, req *model.Request) (model.Turn, *recorder, *openaitest.Server) {
	t.Helper()
	srv := openaitest.NewServer(t, openaitest.Fixture(t, "testdata/"+fixture))
	rec := &recorder{}
	turn, err := openai.New(srv.Client(), "gpt-4.1").Stream(context.Background(), req, rec)
	if err != nil {
		t.Fatalf("%s: %v", fixture, err)
	}
	return turn, rec, srv
}

func TestText(t *testing.T) {
	turn, rec, _ := stream(t, "text.sse", hello)
	want := []string{
		"text-start chatcmpl-B9MBs8CjcvOU2jLn4n570S5qMJKcT",
		`text "Hello"`, `text "!"`, `text " How can I"`, `text " help?"`,
		"text-end",
		"usage openai gpt-4.1-2025-04-14 in=19 out=10 reasoning=0 cached=0",
	}
	if d := cmp.Diff(want, rec.Calls); d != "" {
		t.Errorf("sink calls (-want +got):\n%s", d)
	}
	if turn.Stop != model.StopEnd || turn.ProviderStop != "stop" || turn.Message.TextOf() != "Hello! How can I help?" ||
		turn.MessageID != "chatcmpl-B9MBs8CjcvOU2jLn4n570S5qMJKcT" || turn.Usage.TotalTokens() != 29 {
		t.Errorf("turn %+v", turn)
	}
}

func TestReasoning(t *testing.T) {
	turn, rec, _ := stream(t, "reasoning.sse", hello)
	id := "0f7c4b0a-5a1e-4bd7-a1a4-2b1a4a9c6d11"
	want := []string{
		"reasoning-start " + id + "-reasoning",
		`reasoning "9.11 and 9.8:"`, `reasoning " compare the tenths.\n"`, `reasoning "8 > 1."`,
		"reasoning-end",
		"text-start " + id, `text "9.8 is larger."`, "text-end",
		"usage openai deepseek-reasoner in=15 out=42 reasoning=36 cached=0",
	}
	if d := cmp.Diff(want, rec.Calls); d != "" {
		t.Errorf("sink calls (-want +got):\n%s", d)
	}
	if got := turn.Message.Reasoning; len(got) != 1 || got[0].Text != "9.11 and 9.8: compare the tenths.\n8 > 1." {
		t.Errorf("turn reasoning %+v", got)
	}
}

func TestToolCallInFragments(t *testing.T) {
	turn, rec, _ := stream(t, "tool_call.sse", hello)
	id, call := "chatcmpl-Bq1toolcall0001", "call_DdmO9pD3xa9XTPNJ32zg2hcA"
	want := []string{
		"text-start " + id, `text "Let me look that up."`, "text-end",
		"call-start " + id + " " + call + " get_weather",
		"call-args " + call + ` "{\""`, "call-args " + call + ` "city\":\""`,
		"call-args " + call + ` "Paris"`, "call-args " + call + ` "\"}"`,
		"call-end " + call,
		"usage openai gpt-4.1-2025-04-14 in=81 out=24 reasoning=0 cached=64",
	}
	if d := cmp.Diff(want, rec.Calls); d != "" {
		t.Errorf("sink calls (-want +got):\n%s", d)
	}
	wantCalls := []model.ToolCall{{ID: call, Name: "get_weather", Arguments: `{"city":"Paris"}`}}
	if d := cmp.Diff(wantCalls, turn.Message.ToolCalls); d != "" || turn.Stop != model.StopToolCalls {
		t.Errorf("turn stop %s, calls (-want +got):\n%s", turn.Stop, d)
	}
}

func TestSeveralToolCallsInOneTurn(t *testing.T) {
	turn, rec, _ := stream(t, "tool_calls_parallel.sse", hello)
	id, c0, c1 := "chatcmpl-Bq2parallel0002", "call_0a1Zr5bYvK2Y3nR1", "call_1bQ8mT6wXc4Z9pL2"
	want := []string{
		"call-start " + id + " " + c0 + " get_weather",
		"call-args " + c0 + ` "{\"city\": "`, "call-args " + c0 + ` "\"Paris\"}"`,
		"call-start " + id + " " + c1 + " get_weather",
		"call-args " + c1 + ` "{\"city\": "`, "call-args " + c1 + ` "\"Tokyo\"}"`,
		"call-end " + c0, "call-end " + c1,
		"usage openai gpt-4.1-2025-04-14 in=81 out=24 reasoning=0 cached=64",
	}
	if d := cmp.Diff(want, rec.Calls); d != "" {
		t.Errorf("sink calls (-want +got):\n%s", d)
	}
	wantCalls := []model.ToolCall{{ID: c0, Name: "get_weather", Arguments: `{"city": "Paris"}`},
		{ID: c1, Name: "get_weather", Arguments: `{"city": "Tokyo"}`}}
	if d := cmp.Diff(wantCalls, turn.Message.ToolCalls); d != "" {
		t.Errorf("calls (-want +got):\n%s", d)
	}
}

// A server that gives each call index 0 (seen from some compatible
// servers) still gets its calls apart by id; one whose first fragment has
// no name waits for it.
func TestToolCallQuirks(t *testing.T) {
	chunk := func(delta string) string {
		return `data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":` + delta + `,"finish_reason":null}]}` + "\n\n"
	}
	body := chunk(`{"tool_calls":[{"index":0,"id":"a","type":"function","function":{"arguments":"{\"x\""}}]}`) +
		chunk(`{"tool_calls":[{"index":0,"function":{"name":"f","arguments":":1}"}}]}`) +
		chunk(`{"tool_calls":[{"index":0,"id":"b","type":"function","function":{"name":"g","arguments":"{}"}}]}`) +
		`data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}` + "\n\ndata: [DONE]\n\n"
	srv := openaitest.NewServer(t, openaitest.Reply{Body: []byte(body)})
	rec := &recorder{}
	turn, err := openai.New(srv.Client(), "m").Stream(context.Background(), hello, rec)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"call-start c1 a f", `call-args a "{\"x\":1}"`, "call-end a", "call-start c1 b g", `call-args b "{}"`, "call-end b"}
	if d := cmp.Diff(want, rec.Calls); d != "" {
		t.Errorf("sink calls (-want +got):\n%s", d)
	}
	if len(turn.Message.ToolCalls) != 2 || turn.Message.ToolCalls[0].Arguments != `{"x":1}` {
		t.Errorf("calls %+v", turn.Message.ToolCalls)
	}
}

// Text after reasoning after text (a compatible server that reasons
// between two pieces of its answer) is a second text item with an id of
// its own, and the turn's text is both pieces.
func TestTextAfterReasoningHasItsOwnID(t *testing.T) {
	chunk := func(delta string) string {
		return `data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":` + delta + `,"finish_reason":null}]}` + "\n\n"
	}
	body := chunk(`{"content":"A"}`) + chunk(`{"reasoning_content":"hmm"}`) + chunk(`{"content":"B"}`) +
		`data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}` + "\n\ndata: [DONE]\n\n"
	srv := openaitest.NewServer(t, openaitest.Reply{Body: []byte(body)})
	rec := &recorder{}
	turn, err := openai.New(srv.Client(), "m").Stream(context.Background(), hello, rec)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"text-start c1", `text "A"`, "text-end", "reasoning-start c1-reasoning", `reasoning "hmm"`, "reasoning-end",
		"text-start c1-text-1", `text "B"`, "text-end"}
	if d := cmp.Diff(want, rec.Calls); d != "" {
		t.Errorf("sink calls (-want +got):\n%s", d)
	}
	if turn.Message.TextOf() != "AB" {
		t.Errorf("turn text %q", turn.Message.TextOf())
	}
}

// The request carries the conversation in Chat Completions' shape: the
// system prompt first, an assistant's tool calls, the tool's result by
// call id, media parts, the tools with their schemas, and include_usage.
func TestRequestMapping(t *testing.T) {
	req := &model.Request{
		System: "Be brief.",
		Messages: []model.Message{
			model.Text(model.RoleDeveloper, "Prefer metric units."),
			{Role: model.RoleUser, Content: []model.Part{{Kind: model.PartText, Text: "Weather here?"},
				{Kind: model.PartImage, MIMEType: "image/png", Data: "iVBORw0KGgo="},
				{Kind: model.PartImage, URL: "https://example.com/sky.jpg"}}},
			{Role: model.RoleAssistant, ToolCalls: []model.ToolCall{{ID: "call_1", Name: "get_weather", Arguments: `{"city":"Paris"}`}}},
			{Role: model.RoleTool, ToolCallID: "call_1", Content: []model.Part{{Kind: model.PartText, Text: "18°C"}}},
		},
		Tools: []model.Tool{{Name: "get_weather", Description: "Weather of a city.",
			Parameters: json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}`)}},
	}
	_, _, srv := stream(t, "text.sse", req)
	var got map[string]any
	if err := json.Unmarshal(srv.Requests()[0], &got); err != nil {
		t.Fatal(err)
	}
	var want map[string]any
	_ = json.Unmarshal([]byte(`{
		"model": "gpt-4.1", "stream": true, "stream_options": {"include_usage": true},
		"messages": [
			{"role": "system", "content": "Be brief."},
			{"role": "developer", "content": "Prefer metric units."},
			{"role": "user", "content": [{"type": "text", "text": "Weather here?"},
				{"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw0KGgo="}},
				{"type": "image_url", "image_url": {"url": "https://example.com/sky.jpg"}}]},
			{"role": "assistant", "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\":\"Paris\"}"}}]},
			{"role": "tool", "tool_call_id": "call_1", "content": "18°C"}
		],
		"tools": [{"type": "function", "function": {"name": "get_weather", "description": "Weather of a city.",
			"parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}}]
	}`), &want)
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("request body (-want +got):\n%s", d)
	}
}

func TestRequestMappingRefusesWhatChatCompletionsCannotTake(t *testing.T) {
	req := &model.Request{Messages: []model.Message{{Role: model.RoleUser,
		Content: []model.Part{{Kind: model.PartVideo, URL: "https://example.com/v.mp4"}}}}}
	_, err := openai.New(openaitest.NewServer(t).Client(), "m").Params(req)
	if err == nil || !strings.Contains(err.Error(), "message 0 (user): part 0: Chat Completions takes no video parts") {
		t.Errorf("error %v", err)
	}
	req = &model.Request{Tools: []model.Tool{{Name: "t", Parameters: json.RawMessage(`[1]`)}}}
	if _, err := openai.New(openaitest.NewServer(t).Client(), "m").Params(req); err == nil ||
		!strings.Contains(err.Error(), `the parameters of tool "t" are not a JSON Schema object`) {
		t.Errorf("error %v", err)
	}
}

func TestErrorMidStream(t *testing.T) {
	srv := openaitest.NewServer(t, openaitest.Fixture(t, "testdata/error_midstream.sse"))
	rec := &recorder{}
	_, err := openai.New(srv.Client(), "gpt-4.1").Stream(context.Background(), hello, rec)
	var me *model.Error
	if !errors.As(err, &me) || me.Code != "server_error" || me.Status != 0 ||
		me.Message != "The server had an error while processing your request. Sorry about that!" {
		t.Fatalf("error %#v", err)
	}
	if got := strings.Join(rec.Calls, "|"); got != `text-start chatcmpl-Bq4error00004|text "The answer"|text " is"` {
		t.Errorf("sink calls %s", got)
	}
}

func TestErrorStatus(t *testing.T) {
	srv := openaitest.NewServer(t, openaitest.Reply{Status: http.StatusTooManyRequests,
		Body: []byte(`{"error":{"message":"Rate limit reached for gpt-4.1 on tokens per min (TPM).","type":"tokens","param":null,"code":"rate_limit_exceeded"}}`)})
	_, err := openai.New(srv.Client(), "gpt-4.1").Stream(context.Background(), hello, &recorder{})
	var me *model.Error
	if !errors.As(err, &me) || me.Status != 429 || me.Code != "rate_limit_exceeded" ||
		err.Error() != "openai: Rate limit reached for gpt-4.1 on tokens per min (TPM). (HTTP 429, rate_limit_exceeded)" {
		t.Fatalf("error %v", err)
	}
}

// A stream cut before finish_reason is an error, not a short answer.
func TestStreamEndingEarly(t *testing.T) {
	body := `data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"Half"},"finish_reason":null}]}` + "\n\n"
	srv := openaitest.NewServer(t, openaitest.Reply{Body: []byte(body)})
	_, err := openai.New(srv.Client(), "m").Stream(context.Background(), hello, &recorder{})
	var me *model.Error
	if !errors.As(err, &me) || me.Code != "incomplete_stream" {
		t.Fatalf("error %v", err)
	}
}

// A cancel, or a sink that fails, stops the upstream request: the server
// sees its client go.
func TestCancelStopsTheUpstreamRequest(t *testing.T) {
	for _, how := range []string{"cancel", "sink"} {
		t.Run(how, func(t *testing.T) {
			held := openaitest.Fixture(t, "testdata/error_midstream.sse")
			held.Body = held.Body[:strings.Index(string(held.Body), `data: {"error"`)] // the text, then nothing
			held.Hold = true
			srv := openaitest.NewServer(t, held)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			gone := errors.New("the client went away")
			rec := &recorder{Fail: func(c string) error {
				if c == `text " is"` {
					if how == "cancel" {
						cancel()
						return nil
					}
					return gone
				}
				return nil
			}}
			done := make(chan error, 1)
			go func() {
				_, err := openai.New(srv.Client(), "m").Stream(ctx, hello, rec)
				done <- err
			}()
			select {
			case <-srv.Gone:
			case <-time.After(10 * time.Second):
				t.Fatal("the replay server still holds the request")
			}
			err := <-done
			if want := map[string]error{"cancel": context.Canceled, "sink": gone}[how]; !errors.Is(err, want) {
				t.Errorf("error %v, want %v", err, want)
			}
		})
	}
}
