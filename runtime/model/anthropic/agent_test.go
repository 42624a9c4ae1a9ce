package anthropic_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/agui-gen/agui-gen/gen/agui"
	"github.com/agui-gen/agui-gen/runtime/model"
	"github.com/agui-gen/agui-gen/runtime/model/anthropic"
	"github.com/agui-gen/agui-gen/runtime/model/anthropic/anthropictest"
	"github.com/agui-gen/agui-gen/runtime/model/internal/agenttest"
)

// The tests of agui.ModelAgent on this adapter, every event checked by the
// AG-UI verifier.

const fixtures = "testdata/"

// The Anthropic adapter behind ModelAgent, checked by the verifier: thinking
// and two server-side tool calls in one turn, their results, and the
// second turn's request carrying the thinking block back with its
// signature, the tool_use blocks and the tool_result blocks.
func TestModelAgentAnthropicToolLoop(t *testing.T) {
	srv := anthropictest.NewServer(t, anthropictest.Fixture(t, fixtures+"tool_use_parallel.sse"),
		anthropictest.Fixture(t, fixtures+"text.sse"))
	weather := agenttest.Weather(func(city string) string { return "18°C in " + city })
	agent, err := agui.ModelAgent(anthropic.New(srv.Client(), "claude-sonnet-4-5"), model.WithTools(weather))
	if err != nil {
		t.Fatal(err)
	}
	evs, err := agenttest.Run(t, context.Background(), agent, agenttest.UserInput("r1", "Weather in Paris and Tokyo?"), nil)
	if err != nil {
		t.Fatal(err)
	}
	want := `RUN_STARTED
REASONING_START msg_01Parallel2Calls-reasoning-0
REASONING_MESSAGE_START msg_01Parallel2Calls-reasoning-0
REASONING_MESSAGE_CONTENT Two cities: two calls.
REASONING_MESSAGE_END
REASONING_END
REASONING_ENCRYPTED_VALUE message msg_01Parallel2Calls-reasoning-0 ErUBCkYIBxgCIkB0c2ln
TOOL_CALL_START toolu_01Paris get_weather parent=msg_01Parallel2Calls
TOOL_CALL_ARGS toolu_01Paris {"city": 
TOOL_CALL_ARGS toolu_01Paris "Paris"}
TOOL_CALL_END toolu_01Paris
TOOL_CALL_START toolu_02Tokyo get_weather parent=msg_01Parallel2Calls
TOOL_CALL_ARGS toolu_02Tokyo {"city": 
TOOL_CALL_ARGS toolu_02Tokyo "Tokyo"}
TOOL_CALL_END toolu_02Tokyo
TOOL_CALL_RESULT toolu_01Paris 18°C in Paris
TOOL_CALL_RESULT toolu_02Tokyo 18°C in Tokyo
TEXT_MESSAGE_START msg_1nZdL29xx5MUA1yADyHTEsnR8uuvGzszyY
TEXT_MESSAGE_CONTENT Hello
TEXT_MESSAGE_CONTENT !
TEXT_MESSAGE_END
RUN_FINISHED usage={"provider":"anthropic","model":"claude-sonnet-4-5-20250929","inputTokens":845,"outputTokens":110,"totalTokens":955,"reasoningTokens":12,"cachedInputTokens":500,"cacheWriteInputTokens":300}`
	if got := agenttest.Summaries(evs); got != want {
		t.Errorf("events:\n%s\nwant:\n%s", got, want)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests to the model", len(reqs))
	}
	var second struct {
		Messages []json.RawMessage `json:"messages"`
	}
	if err := json.Unmarshal(reqs[1], &second); err != nil {
		t.Fatal(err)
	}
	got := make([]string, len(second.Messages))
	for i, m := range second.Messages {
		got[i] = string(m)
	}
	wantMsgs := []string{
		`{"content":[{"text":"Weather in Paris and Tokyo?","type":"text"}],"role":"user"}`,
		`{"content":[{"signature":"ErUBCkYIBxgCIkB0c2ln","thinking":"Two cities: two calls.","type":"thinking"},` +
			`{"id":"toolu_01Paris","input":{"city":"Paris"},"name":"get_weather","type":"tool_use"},` +
			`{"id":"toolu_02Tokyo","input":{"city":"Tokyo"},"name":"get_weather","type":"tool_use"}],"role":"assistant"}`,
		`{"content":[{"tool_use_id":"toolu_01Paris","content":[{"text":"18°C in Paris","type":"text"}],"type":"tool_result"},` +
			`{"tool_use_id":"toolu_02Tokyo","content":[{"text":"18°C in Tokyo","type":"text"}],"type":"tool_result"}],"role":"user"}`,
	}
	if strings.Join(got, "\n") != strings.Join(wantMsgs, "\n") {
		t.Errorf("second request's messages:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(wantMsgs, "\n"))
	}
}

func TestModelAgentAnthropicErrorMidStream(t *testing.T) {
	srv := anthropictest.NewServer(t, anthropictest.Fixture(t, fixtures+"error_midstream.sse"))
	agent, err := agui.ModelAgent(anthropic.New(srv.Client(), "claude-sonnet-4-5"))
	if err != nil {
		t.Fatal(err)
	}
	evs, err := agenttest.Run(t, context.Background(), agent, agenttest.UserInput("r1", "Hello"), nil)
	var re *agui.RunError
	if !errors.As(err, &re) || re.Code != "overloaded_error" {
		t.Fatalf("error %v", err)
	}
	want := `RUN_STARTED
TEXT_MESSAGE_START msg_01ErrorMidStream
TEXT_MESSAGE_CONTENT The answer
TEXT_MESSAGE_CONTENT  is
RUN_ERROR overloaded_error: anthropic: Overloaded (overloaded_error)`
	if got := agenttest.Summaries(evs); got != want {
		t.Errorf("events:\n%s\nwant:\n%s", got, want)
	}
}

// A signed thinking block before calls of a front-end tool survives the
// round trip through the front end: the signature goes out as
// REASONING_ENCRYPTED_VALUE on the reasoning message, the client keeps it
// there, and the next run's request carries the thinking block back with
// it, before the tool_use blocks, as the Messages API requires when
// thinking is on.
func TestModelAgentAnthropicSignatureCrossesRuns(t *testing.T) {
	srv := anthropictest.NewServer(t, anthropictest.Fixture(t, fixtures+"tool_use_parallel.sse"),
		anthropictest.Fixture(t, fixtures+"text.sse"))
	agent, err := agui.ModelAgent(anthropic.New(srv.Client(), "claude-sonnet-4-5"))
	if err != nil {
		t.Fatal(err)
	}
	first := agenttest.UserInput("r1", "Weather in Paris and Tokyo?", agenttest.WeatherForFrontEnd)
	evs, err := agenttest.Run(t, context.Background(), agent, first, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(agenttest.Summaries(evs), "REASONING_ENCRYPTED_VALUE message msg_01Parallel2Calls-reasoning-0 ErUBCkYIBxgCIkB0c2ln") {
		t.Fatalf("first run:\n%s", agenttest.Summaries(evs))
	}
	if _, err := agenttest.Run(t, context.Background(), agent, agenttest.NextRun(t, first, evs), nil); err != nil {
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

func toBytes(raw []json.RawMessage) [][]byte {
	out := make([][]byte, len(raw))
	for i, r := range raw {
		out[i] = r
	}
	return out
}
