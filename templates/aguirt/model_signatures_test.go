package aguirt

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	agui "github.com/agui-gen/agui-gen/gen/agui"
	"github.com/agui-gen/agui-gen/runtime/model/anthropic"
	"github.com/agui-gen/agui-gen/runtime/model/anthropic/anthropictest"
	"github.com/agui-gen/agui-gen/runtime/model/gemini"
	"github.com/agui-gen/agui-gen/runtime/model/gemini/geminitest"
)

// weatherForFrontEnd is get_weather as a front-end tool: a call of it
// ends the run, and the next run brings the results.
var weatherForFrontEnd = agui.Tool{Name: "get_weather", Description: "Weather of a city.",
	Parameters: json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}`)}

// nextRun is the front end's next run after the first: the conversation
// as a client reduces the first run's events, with a result for each call
// of the front-end tool.
func nextRun(t *testing.T, first *agui.RunAgentInput, evs []agui.Event) *agui.RunAgentInput {
	t.Helper()
	conv := NewConversation(first.Messages, nil)
	for _, ev := range evs {
		if err := conv.Apply(ev); err != nil {
			t.Fatal(err)
		}
	}
	conv.Sync()
	next := &agui.RunAgentInput{ThreadID: first.ThreadID, RunID: "r2", Tools: first.Tools, Messages: conv.Messages}
	for _, m := range conv.Messages {
		if a, ok := m.(*agui.AssistantMessage); ok {
			for _, c := range a.ToolCalls {
				next.Messages = append(next.Messages, &agui.ToolMessage{ID: "result-" + c.ID, ToolCallID: c.ID,
					Content: agui.TextContent("18°C")})
			}
		}
	}
	return next
}

// A signed thinking block before calls of a front-end tool survives the
// round trip through the front end: the signature goes out as
// REASONING_ENCRYPTED_VALUE on the reasoning message, the client keeps it
// there, and the next run's request carries the thinking block back with
// it, before the tool_use blocks, as the Messages API requires when
// thinking is on.
func TestModelAgentAnthropicSignatureCrossesRuns(t *testing.T) {
	srv := anthropictest.NewServer(t, anthropictest.Fixture(t, anthropicFixtures+"tool_use_parallel.sse"),
		anthropictest.Fixture(t, anthropicFixtures+"text.sse"))
	agent, err := ModelAgent(anthropic.New(srv.Client(), "claude-sonnet-4-5"))
	if err != nil {
		t.Fatal(err)
	}
	first := userInput("r1", "Weather in Paris and Tokyo?", weatherForFrontEnd)
	evs, err := runModel(t, context.Background(), agent, first, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(summaries(evs), "REASONING_ENCRYPTED_VALUE message msg_01Parallel2Calls-reasoning-0 ErUBCkYIBxgCIkB0c2ln") {
		t.Fatalf("first run:\n%s", summaries(evs))
	}
	if _, err := runModel(t, context.Background(), agent, nextRun(t, first, evs), nil); err != nil {
		t.Fatal(err)
	}
	var second struct {
		Messages []json.RawMessage `json:"messages"`
	}
	if err := json.Unmarshal(srv.Requests()[1], &second); err != nil {
		t.Fatal(err)
	}
	want := `{"content":[{"signature":"ErUBCkYIBxgCIkB0c2ln","thinking":"Two cities: two calls.","type":"thinking"},` +
		`{"id":"toolu_01Paris","input":{"city":"Paris"},"name":"get_weather","type":"tool_use"},` +
		`{"id":"toolu_02Tokyo","input":{"city":"Tokyo"},"name":"get_weather","type":"tool_use"}],"role":"assistant"}`
	if len(second.Messages) != 3 || string(second.Messages[1]) != want {
		t.Errorf("the next run's request:\n%s\nwant as its second message:\n%s", bytes.Join(toBytes(second.Messages), []byte("\n")), want)
	}
}

// A thought signature on a call of a front-end tool survives the round
// trip: it goes out as REASONING_ENCRYPTED_VALUE on the call, and the next
// run's request carries it on that call's functionCall part, as Gemini 3
// requires; the unsigned call goes back without one.
func TestModelAgentGeminiSignatureCrossesRuns(t *testing.T) {
	srv := geminitest.NewServer(t, geminitest.Fixture(t, geminiFixtures+"thought_function_calls.sse"),
		geminitest.Fixture(t, geminiFixtures+"text.sse"))
	agent, err := ModelAgent(gemini.New(srv.Client(t), "gemini-2.5-flash"))
	if err != nil {
		t.Fatal(err)
	}
	first := userInput("r1", "Weather in Paris and Tokyo?", weatherForFrontEnd)
	evs, err := runModel(t, context.Background(), agent, first, nil)
	if err != nil {
		t.Fatal(err)
	}
	call := "call_nBhPaPt2Kc2E1MkPqZ2R2Qw_0"
	if !strings.Contains(summaries(evs), "REASONING_ENCRYPTED_VALUE tool-call "+call+" c2lnbmF0dXJl") {
		t.Fatalf("first run:\n%s", summaries(evs))
	}
	if _, err := runModel(t, context.Background(), agent, nextRun(t, first, evs), nil); err != nil {
		t.Fatal(err)
	}
	var second struct {
		Contents []struct {
			Role  string            `json:"role"`
			Parts []json.RawMessage `json:"parts"`
		} `json:"contents"`
	}
	if err := json.Unmarshal(srv.Requests()[1], &second); err != nil {
		t.Fatal(err)
	}
	var model []string
	for _, c := range second.Contents {
		if c.Role == "model" {
			for _, p := range c.Parts {
				model = append(model, string(p))
			}
		}
	}
	want := []string{
		`{"functionCall":{"args":{"city":"Paris"},"id":"` + call + `","name":"get_weather"},"thoughtSignature":"c2lnbmF0dXJl"}`,
		`{"functionCall":{"args":{"city":"Tokyo"},"id":"call_nBhPaPt2Kc2E1MkPqZ2R2Qw_1","name":"get_weather"}}`,
	}
	if strings.Join(model, "\n") != strings.Join(want, "\n") {
		t.Errorf("the next run's model parts:\n%s\nwant:\n%s", strings.Join(model, "\n"), strings.Join(want, "\n"))
	}
}

func toBytes(raw []json.RawMessage) [][]byte {
	out := make([][]byte, len(raw))
	for i, r := range raw {
		out[i] = r
	}
	return out
}
