package gemini_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/agui-gen/agui-gen/gen/agui"
	"github.com/agui-gen/agui-gen/runtime/model"
	"github.com/agui-gen/agui-gen/runtime/model/gemini"
	"github.com/agui-gen/agui-gen/runtime/model/gemini/geminitest"
	"github.com/agui-gen/agui-gen/runtime/model/internal/agenttest"
)

// The tests of agui.ModelAgent on this adapter, every event checked by the
// AG-UI verifier.

const fixtures = "testdata/"

// The Gemini adapter behind ModelAgent, checked by the verifier: a thought
// summary and two whole function calls, their results, and the second
// request carrying the call's thought signature and the function
// responses back.
func TestModelAgentGeminiToolLoop(t *testing.T) {
	srv := geminitest.NewServer(t, geminitest.Fixture(t, fixtures+"thought_function_calls.sse"),
		geminitest.Fixture(t, fixtures+"text.sse"))
	weather := agenttest.Weather(func(city string) string { return "18°C in " + city })
	agent, err := agui.ModelAgent(gemini.New(srv.Client(t), "gemini-2.5-flash"), model.WithTools(weather))
	if err != nil {
		t.Fatal(err)
	}
	evs, err := agenttest.Run(t, context.Background(), agent, agenttest.UserInput("r1", "Weather in Paris and Tokyo?"), nil)
	if err != nil {
		t.Fatal(err)
	}
	id := "nBhPaPt2Kc2E1MkPqZ2R2Qw"
	c0, c1 := "call_"+id+"_0", "call_"+id+"_1"
	want := `RUN_STARTED
REASONING_START ` + id + `-reasoning
REASONING_MESSAGE_START ` + id + `-reasoning
REASONING_MESSAGE_CONTENT Two cities, so two calls.
REASONING_MESSAGE_END
REASONING_END
TOOL_CALL_START ` + c0 + ` get_weather parent=` + id + `
TOOL_CALL_ARGS ` + c0 + ` {"city":"Paris"}
TOOL_CALL_END ` + c0 + `
REASONING_ENCRYPTED_VALUE tool-call ` + c0 + ` c2lnbmF0dXJl
TOOL_CALL_START ` + c1 + ` get_weather parent=` + id + `
TOOL_CALL_ARGS ` + c1 + ` {"city":"Tokyo"}
TOOL_CALL_END ` + c1 + `
TOOL_CALL_RESULT ` + c0 + ` 18°C in Paris
TOOL_CALL_RESULT ` + c1 + ` 18°C in Tokyo
TEXT_MESSAGE_START mBhPaOWaL8aE1MkP3vLkoQg
TEXT_MESSAGE_CONTENT Hello
TEXT_MESSAGE_CONTENT ! How can I help?
TEXT_MESSAGE_END
RUN_FINISHED usage={"provider":"gemini","model":"gemini-2.5-flash","inputTokens":68,"outputTokens":37,"totalTokens":105,"reasoningTokens":20,"cachedInputTokens":32}`
	if got := agenttest.Summaries(evs); got != want {
		t.Errorf("events:\n%s\nwant:\n%s", got, want)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests to the model", len(reqs))
	}
	var second struct {
		Contents []json.RawMessage `json:"contents"`
	}
	if err := json.Unmarshal(reqs[1], &second); err != nil {
		t.Fatal(err)
	}
	got := make([]string, len(second.Contents))
	for i, m := range second.Contents {
		got[i] = string(m)
	}
	wantContents := []string{
		`{"parts":[{"text":"Weather in Paris and Tokyo?"}],"role":"user"}`,
		`{"parts":[{"functionCall":{"args":{"city":"Paris"},"id":"` + c0 + `","name":"get_weather"},"thoughtSignature":"c2lnbmF0dXJl"},` +
			`{"functionCall":{"args":{"city":"Tokyo"},"id":"` + c1 + `","name":"get_weather"}}],"role":"model"}`,
		`{"parts":[{"functionResponse":{"id":"` + c0 + `","name":"get_weather","response":{"output":"18°C in Paris"}}},` +
			`{"functionResponse":{"id":"` + c1 + `","name":"get_weather","response":{"output":"18°C in Tokyo"}}}],"role":"user"}`,
	}
	if strings.Join(got, "\n") != strings.Join(wantContents, "\n") {
		t.Errorf("second request's contents:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(wantContents, "\n"))
	}
}

// A thought signature on a call of a front-end tool survives the round
// trip: it goes out as REASONING_ENCRYPTED_VALUE on the call, and the next
// run's request carries it on that call's functionCall part, as Gemini 3
// requires; the unsigned call goes back without one.
func TestModelAgentGeminiSignatureCrossesRuns(t *testing.T) {
	srv := geminitest.NewServer(t, geminitest.Fixture(t, fixtures+"thought_function_calls.sse"),
		geminitest.Fixture(t, fixtures+"text.sse"))
	agent, err := agui.ModelAgent(gemini.New(srv.Client(t), "gemini-2.5-flash"))
	if err != nil {
		t.Fatal(err)
	}
	first := agenttest.UserInput("r1", "Weather in Paris and Tokyo?", agenttest.WeatherForFrontEnd)
	evs, err := agenttest.Run(t, context.Background(), agent, first, nil)
	if err != nil {
		t.Fatal(err)
	}
	call := "call_nBhPaPt2Kc2E1MkPqZ2R2Qw_0"
	if !strings.Contains(agenttest.Summaries(evs), "REASONING_ENCRYPTED_VALUE tool-call "+call+" c2lnbmF0dXJl") {
		t.Fatalf("first run:\n%s", agenttest.Summaries(evs))
	}
	if _, err := agenttest.Run(t, context.Background(), agent, agenttest.NextRun(t, first, evs), nil); err != nil {
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
	var parts []string
	for _, c := range second.Contents {
		if c.Role == "model" {
			for _, p := range c.Parts {
				parts = append(parts, string(p))
			}
		}
	}
	want := []string{
		`{"functionCall":{"args":{"city":"Paris"},"id":"` + call + `","name":"get_weather"},"thoughtSignature":"c2lnbmF0dXJl"}`,
		`{"functionCall":{"args":{"city":"Tokyo"},"id":"call_nBhPaPt2Kc2E1MkPqZ2R2Qw_1","name":"get_weather"}}`,
	}
	if strings.Join(parts, "\n") != strings.Join(want, "\n") {
		t.Errorf("the next run's model parts:\n%s\nwant:\n%s", strings.Join(parts, "\n"), strings.Join(want, "\n"))
	}
}
