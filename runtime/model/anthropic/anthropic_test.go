package anthropic_test

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
	"github.com/agui-gen/agui-gen/runtime/model/anthropic"
	"github.com/agui-gen/agui-gen/runtime/model/anthropic/anthropictest"
	"github.com/agui-gen/agui-gen/runtime/model/internal/sinktest"
)

// recorder writes down each call the adapter makes.
type recorder = sinktest.Recorder

var hello = &model.Request{Messages: []model.Message{model.Text(model.RoleUser, "Hello")}}

func stream(t *testing.T, fixture string, req *model.Request) (model.Turn, *recorder, *anthropictest.Server) {
	t.Helper()
	srv := anthropictest.NewServer(t, anthropictest.Fixture(t, "testdata/"+fixture))
	rec := &recorder{}
	turn, err := anthropic.New(srv.Client(), "claude-sonnet-4-5").Stream(context.Background(), req, rec)
	if err != nil {
		t.Fatalf("%s: %v", fixture, err)
	}
	return turn, rec, srv
}

func TestText(t *testing.T) {
	turn, rec, _ := stream(t, "text.sse", hello)
	id := "msg_1nZdL29xx5MUA1yADyHTEsnR8uuvGzszyY"
	want := []string{
		"text-start " + id, `text "Hello"`, `text "!"`, "text-end",
		"usage anthropic claude-sonnet-4-5-20250929 in=125 out=15 reasoning=0 cached=100",
	}
	if d := cmp.Diff(want, rec.Calls); d != "" {
		t.Errorf("sink calls (-want +got):\n%s", d)
	}
	if turn.Stop != model.StopEnd || turn.ProviderStop != "end_turn" || turn.Message.TextOf() != "Hello!" ||
		turn.MessageID != id || turn.Usage.TotalTokens() != 140 {
		t.Errorf("turn %+v", turn)
	}
}

func TestThinking(t *testing.T) {
	turn, rec, _ := stream(t, "thinking.sse", hello)
	id := "msg_01EcNxGwPbbGVR6mnvRpW4GF"
	want := []string{
		"reasoning-start " + id + "-reasoning-0",
		`reasoning "I need to find the GCD of 1071 and 462 using the Euclidean algorithm.\n\n"`,
		`reasoning "1071 = 2 × 462 + 147"`,
		"reasoning-end",
		`encrypted reasoning ` + id + `-reasoning-0 anthropic.thinking "EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds"`,
		"text-start " + id, `text "The greatest common divisor of 1071 and 462 is **21**."`, "text-end",
		"usage anthropic claude-sonnet-4-5-20250929 in=50 out=120 reasoning=0 cached=0",
	}
	if d := cmp.Diff(want, rec.Calls); d != "" {
		t.Errorf("sink calls (-want +got):\n%s", d)
	}
	wantR := []model.Reasoning{{ID: id + "-reasoning-0",
		Text:      "I need to find the GCD of 1071 and 462 using the Euclidean algorithm.\n\n1071 = 2 × 462 + 147",
		Signature: "EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds", Type: "anthropic.thinking"}}
	if d := cmp.Diff(wantR, turn.Message.Reasoning); d != "" {
		t.Errorf("turn reasoning (-want +got):\n%s", d)
	}
}

func TestToolUseInFragments(t *testing.T) {
	turn, rec, _ := stream(t, "tool_use.sse", hello)
	id, call := "msg_014p7gG3wDgGV9EUtLvnow3U", "toolu_01T1x1fJ34qAmk2tNTrN7Up6"
	want := []string{
		"text-start " + id, `text "Okay, let's check the weather for San Francisco, CA:"`, "text-end",
		"call-start " + id + " " + call + " get_weather",
		"call-args " + call + ` "{\"location\":"`, "call-args " + call + ` " \"San"`,
		"call-args " + call + ` " Francisc"`, "call-args " + call + ` "o, CA\"}"`,
		"call-end " + call,
		"usage anthropic claude-sonnet-4-5-20250929 in=472 out=89 reasoning=0 cached=0",
	}
	if d := cmp.Diff(want, rec.Calls); d != "" {
		t.Errorf("sink calls (-want +got):\n%s", d)
	}
	wantCalls := []model.ToolCall{{ID: call, Name: "get_weather", Arguments: `{"location": "San Francisco, CA"}`}}
	if d := cmp.Diff(wantCalls, turn.Message.ToolCalls); d != "" || turn.Stop != model.StopToolCalls {
		t.Errorf("turn stop %s, calls (-want +got):\n%s", turn.Stop, d)
	}
}

func TestSeveralToolUsesInOneTurn(t *testing.T) {
	turn, rec, _ := stream(t, "tool_use_parallel.sse", hello)
	id, c0, c1 := "msg_01Parallel2Calls", "toolu_01Paris", "toolu_02Tokyo"
	want := []string{
		"reasoning-start " + id + "-reasoning-0", `reasoning "Two cities: two calls."`, "reasoning-end",
		"encrypted reasoning " + id + `-reasoning-0 anthropic.thinking "ErUBCkYIBxgCIkB0c2ln"`,
		"call-start " + id + " " + c0 + " get_weather",
		"call-args " + c0 + ` "{\"city\": "`, "call-args " + c0 + ` "\"Paris\"}"`, "call-end " + c0,
		"call-start " + id + " " + c1 + " get_weather",
		"call-args " + c1 + ` "{\"city\": "`, "call-args " + c1 + ` "\"Tokyo\"}"`, "call-end " + c1,
		"usage anthropic claude-sonnet-4-5-20250929 in=720 out=95 reasoning=12 cached=400",
	}
	if d := cmp.Diff(want, rec.Calls); d != "" {
		t.Errorf("sink calls (-want +got):\n%s", d)
	}
	wantCalls := []model.ToolCall{{ID: c0, Name: "get_weather", Arguments: `{"city": "Paris"}`},
		{ID: c1, Name: "get_weather", Arguments: `{"city": "Tokyo"}`}}
	if d := cmp.Diff(wantCalls, turn.Message.ToolCalls); d != "" {
		t.Errorf("calls (-want +got):\n%s", d)
	}
	if turn.Usage.CacheWriteInputTokens != 300 || turn.Message.Reasoning[0].Signature != "ErUBCkYIBxgCIkB0c2ln" {
		t.Errorf("turn %+v", turn)
	}
}

// Text after a tool_use block is a text item of its own, under an id of
// its own; the turn's text is all of it.
func TestTextAfterToolUse(t *testing.T) {
	ev := func(typ, data string) string { return "event: " + typ + "\ndata: " + data + "\n\n" }
	body := ev("message_start", `{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"m","content":[],"usage":{"input_tokens":1,"output_tokens":1}}}`) +
		ev("content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":"A"}}`) +
		ev("content_block_stop", `{"type":"content_block_stop","index":0}`) +
		ev("content_block_start", `{"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"toolu_1","name":"now","input":{}}}`) +
		ev("content_block_stop", `{"type":"content_block_stop","index":1}`) +
		ev("content_block_start", `{"type":"content_block_start","index":2,"content_block":{"type":"text","text":""}}`) +
		ev("content_block_delta", `{"type":"content_block_delta","index":2,"delta":{"type":"text_delta","text":"B"}}`) +
		ev("content_block_stop", `{"type":"content_block_stop","index":2}`) +
		ev("message_delta", `{"type":"message_delta","delta":{"stop_reason":"tool_use"},"usage":{"output_tokens":9}}`) +
		ev("message_stop", `{"type":"message_stop"}`)
	srv := anthropictest.NewServer(t, anthropictest.Reply{Body: []byte(body)})
	rec := &recorder{}
	turn, err := anthropic.New(srv.Client(), "m").Stream(context.Background(), hello, rec)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"text-start msg_1", `text "A"`, "text-end", "call-start msg_1 toolu_1 now", `call-args toolu_1 "{}"`,
		"call-end toolu_1", "text-start msg_1-text-2", `text "B"`, "text-end", "usage anthropic m in=1 out=9 reasoning=0 cached=0"}
	if d := cmp.Diff(want, rec.Calls); d != "" {
		t.Errorf("sink calls (-want +got):\n%s", d)
	}
	if turn.Message.TextOf() != "AB" || turn.Message.ToolCalls[0].Arguments != "{}" {
		t.Errorf("turn %+v", turn)
	}
}

// The request carries the conversation in the Messages API's shape: system
// and developer messages in system, turns alternating (consecutive ones of
// a role merged), thinking sent back with its signature before the text and
// the tool_use blocks, tool results as a user message's tool_result blocks,
// media, the tools with input_schema, and max_tokens.
func TestRequestMapping(t *testing.T) {
	req := &model.Request{
		System: "Be brief.",
		Messages: []model.Message{
			model.Text(model.RoleDeveloper, "Prefer metric units."),
			{Role: model.RoleUser, Content: []model.Part{{Kind: model.PartText, Text: "Weather here?"},
				{Kind: model.PartImage, MIMEType: "image/png", Data: "iVBORw0KGgo="}}},
			{Role: model.RoleUser, Content: []model.Part{{Kind: model.PartImage, URL: "https://example.com/sky.jpg"}}},
			{Role: model.RoleAssistant, Content: []model.Part{{Kind: model.PartText, Text: "Checking."}},
				Reasoning: []model.Reasoning{{ID: "r0", Text: "Two cities.", Signature: "sig==", Type: "anthropic.thinking"},
					{ID: "other", Text: "no signature: another provider's"},
					{ID: "call_1", Signature: "c2ln", Type: "gemini.thought_signature"},
					{ID: "r1", Text: "And Tokyo.", Signature: "sig2=="}, // as a front end sends it back: no type
					{Signature: "redacted==", Type: "anthropic.redacted_thinking"}},
				ToolCalls: []model.ToolCall{{ID: "toolu_1", Name: "get_weather", Arguments: `{"city":"Paris"}`},
					{ID: "toolu_2", Name: "get_weather", Arguments: `{"city":"Tokyo"}`}}},
			{Role: model.RoleTool, ToolCallID: "toolu_1", Content: []model.Part{{Kind: model.PartText, Text: "18°C"}}},
			{Role: model.RoleTool, ToolCallID: "toolu_2", Content: []model.Part{{Kind: model.PartText, Text: "25°C"}}},
			model.Text(model.RoleUser, "And tomorrow?"),
		},
		Tools: []model.Tool{{Name: "get_weather", Description: "Weather of a city.",
			Parameters: json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"}},"required":["city"],"additionalProperties":false}`)},
			{Name: "now"}},
	}
	_, _, srv := stream(t, "text.sse", req)
	var got map[string]any
	if err := json.Unmarshal(srv.Requests()[0], &got); err != nil {
		t.Fatal(err)
	}
	var want map[string]any
	if err := json.Unmarshal([]byte(`{
		"model": "claude-sonnet-4-5", "max_tokens": 8192, "stream": true,
		"system": [{"type": "text", "text": "Be brief."}, {"type": "text", "text": "Prefer metric units."}],
		"messages": [
			{"role": "user", "content": [{"type": "text", "text": "Weather here?"},
				{"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo="}},
				{"type": "image", "source": {"type": "url", "url": "https://example.com/sky.jpg"}}]},
			{"role": "assistant", "content": [
				{"type": "thinking", "thinking": "Two cities.", "signature": "sig=="},
				{"type": "thinking", "thinking": "And Tokyo.", "signature": "sig2=="},
				{"type": "redacted_thinking", "data": "redacted=="},
				{"type": "text", "text": "Checking."},
				{"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {"city": "Paris"}},
				{"type": "tool_use", "id": "toolu_2", "name": "get_weather", "input": {"city": "Tokyo"}}]},
			{"role": "user", "content": [
				{"type": "tool_result", "tool_use_id": "toolu_1", "content": [{"type": "text", "text": "18°C"}]},
				{"type": "tool_result", "tool_use_id": "toolu_2", "content": [{"type": "text", "text": "25°C"}]},
				{"type": "text", "text": "And tomorrow?"}]}
		],
		"tools": [{"name": "get_weather", "description": "Weather of a city.",
			"input_schema": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"], "additionalProperties": false}},
			{"name": "now", "input_schema": {"type": "object", "properties": {}}}]
	}`), &want); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("request body (-want +got):\n%s", d)
	}
}

func TestRequestMappingRefusesWhatTheMessagesAPICannotTake(t *testing.T) {
	req := &model.Request{Messages: []model.Message{{Role: model.RoleUser,
		Content: []model.Part{{Kind: model.PartAudio, Data: "AAAA", MIMEType: "audio/wav"}}}}}
	_, err := anthropic.New(anthropictest.NewServer(t).Client(), "m").Params(req)
	if err == nil || !strings.Contains(err.Error(), "message 0 (user): part 0: the Messages API takes no audio parts") {
		t.Errorf("error %v", err)
	}
	req = &model.Request{Tools: []model.Tool{{Name: "t", Parameters: json.RawMessage(`[1]`)}}}
	if _, err := anthropic.New(anthropictest.NewServer(t).Client(), "m").Params(req); err == nil ||
		!strings.Contains(err.Error(), `the parameters of tool "t" are not a JSON Schema object`) {
		t.Errorf("error %v", err)
	}
}

func TestErrorMidStream(t *testing.T) {
	srv := anthropictest.NewServer(t, anthropictest.Fixture(t, "testdata/error_midstream.sse"))
	rec := &recorder{}
	_, err := anthropic.New(srv.Client(), "claude-sonnet-4-5").Stream(context.Background(), hello, rec)
	var me *model.Error
	if !errors.As(err, &me) || me.Code != "overloaded_error" || me.Status != 0 || me.Message != "Overloaded" ||
		err.Error() != "anthropic: Overloaded (overloaded_error)" {
		t.Fatalf("error %#v", err)
	}
	if got := strings.Join(rec.Calls, "|"); got != `text-start msg_01ErrorMidStream|text "The answer"|text " is"` {
		t.Errorf("sink calls %s", got)
	}
}

func TestErrorStatus(t *testing.T) {
	srv := anthropictest.NewServer(t, anthropictest.Reply{Status: http.StatusTooManyRequests,
		Body: []byte(`{"type":"error","error":{"type":"rate_limit_error","message":"Number of request tokens has exceeded your per-minute rate limit"},"request_id":"req_011CSHoEeqs5C35K2UUqR7Fy"}`)})
	_, err := anthropic.New(srv.Client(), "claude-sonnet-4-5").Stream(context.Background(), hello, &recorder{})
	var me *model.Error
	if !errors.As(err, &me) || me.Status != 429 || me.Code != "rate_limit_error" ||
		err.Error() != "anthropic: Number of request tokens has exceeded your per-minute rate limit (HTTP 429, rate_limit_error)" {
		t.Fatalf("error %v", err)
	}
}

// A stream cut before message_delta's stop_reason and message_stop is an
// error, not a short answer.
func TestStreamEndingEarly(t *testing.T) {
	held := anthropictest.Fixture(t, "testdata/error_midstream.sse")
	held.Body = held.Body[:strings.Index(string(held.Body), "event: error")]
	srv := anthropictest.NewServer(t, held)
	_, err := anthropic.New(srv.Client(), "m").Stream(context.Background(), hello, &recorder{})
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
			held := anthropictest.Fixture(t, "testdata/error_midstream.sse")
			held.Body = held.Body[:strings.Index(string(held.Body), "event: error")] // the text, then nothing
			held.Hold = true
			srv := anthropictest.NewServer(t, held)
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
				_, err := anthropic.New(srv.Client(), "m").Stream(ctx, hello, rec)
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
