package interop_test

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agui-gen/agui-gen/gen/agui"
	"github.com/agui-gen/agui-gen/runtime/model"
	"github.com/agui-gen/agui-gen/runtime/model/anthropic"
	"github.com/agui-gen/agui-gen/runtime/model/anthropic/anthropictest"
	"github.com/agui-gen/agui-gen/runtime/model/gemini"
	"github.com/agui-gen/agui-gen/runtime/model/gemini/geminitest"
	"github.com/agui-gen/agui-gen/runtime/model/openai"
	"github.com/agui-gen/agui-gen/runtime/model/openai/openaitest"
)

// modelCase is one replayed model stream (or several, for a tool loop)
// served by ModelAgent through the generated handler.
type modelCase struct {
	name     string
	fixtures []string // under the adapter's testdata, one per model call
	// frontEnd makes get_weather and confirm_booking the front end's tools;
	// otherwise get_weather is a server-side tool.
	frontEnd bool
	// text is the assistant's text at the run's end (all its messages'),
	// calls the tool calls it made ("name arguments"), results the
	// server-side tools' results, runError what RUN_ERROR says, encrypted
	// the provider's signatures the client keeps on reasoning messages and
	// tool calls, to send back.
	text      string
	calls     []string
	results   []string
	runError  string
	encrypted []string
}

// modelProvider is an adapter on a replay server of its provider.
type modelProvider struct {
	name     string
	testdata string
	model    func(t *testing.T, fixtures []string) model.Model
	cases    []modelCase
}

var modelProviders = []modelProvider{
	{
		name: "openai", testdata: "../runtime/model/openai/testdata/",
		model: func(t *testing.T, fixtures []string) model.Model {
			var replies []openaitest.Reply
			for _, f := range fixtures {
				replies = append(replies, openaitest.Fixture(t, f))
			}
			return openai.New(openaitest.NewServer(t, replies...).Client(), "gpt-4.1")
		},
		cases: []modelCase{
			{name: "text", fixtures: []string{"text.sse"}, text: "Hello! How can I help?"},
			{name: "reasoning", fixtures: []string{"reasoning.sse"}, text: "9.8 is larger."},
			{name: "tool call in fragments", fixtures: []string{"tool_call.sse"}, frontEnd: true,
				text: "Let me look that up.", calls: []string{`get_weather {"city":"Paris"}`}},
			{name: "several tool calls", fixtures: []string{"tool_calls_parallel.sse"}, frontEnd: true,
				calls: []string{`get_weather {"city": "Paris"}`, `get_weather {"city": "Tokyo"}`}},
			{name: "tool loop", fixtures: []string{"tool_call.sse", "text.sse"},
				text: "Let me look that up.Hello! How can I help?", calls: []string{`get_weather {"city":"Paris"}`},
				results: []string{"18°C and sunny in Paris"}},
			{name: "front-end tool", fixtures: []string{"frontend_tool.sse"}, frontEnd: true,
				calls: []string{`confirm_booking {"people":2,"time":"20:00"}`}},
			{name: "loop then front-end tool", fixtures: []string{"example_weather.sse", "example_booking.sse"},
				text: "Sunny, so the terrace.", results: []string{"18°C and sunny in Paris"},
				calls: []string{`get_weather {"city":"Paris"}`, `confirm_booking {"people":2,"time":"20:00","terrace":true}`}},
			{name: "error mid-stream", fixtures: []string{"error_midstream.sse"}, text: "The answer is",
				runError: "openai: The server had an error while processing your request. Sorry about that! (server_error)"},
		},
	},
	{
		name: "anthropic", testdata: "../runtime/model/anthropic/testdata/",
		model: func(t *testing.T, fixtures []string) model.Model {
			var replies []anthropictest.Reply
			for _, f := range fixtures {
				replies = append(replies, anthropictest.Fixture(t, f))
			}
			return anthropic.New(anthropictest.NewServer(t, replies...).Client(), "claude-sonnet-4-5")
		},
		cases: []modelCase{
			{name: "text", fixtures: []string{"text.sse"}, text: "Hello!"},
			{name: "thinking", fixtures: []string{"thinking.sse"}, text: "The greatest common divisor of 1071 and 462 is **21**.",
				encrypted: []string{"reasoning EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds"}},
			{name: "tool call in fragments", fixtures: []string{"tool_use.sse"}, frontEnd: true,
				text: "Okay, let's check the weather for San Francisco, CA:", calls: []string{`get_weather {"location": "San Francisco, CA"}`}},
			{name: "several tool calls", fixtures: []string{"tool_use_parallel.sse"}, frontEnd: true,
				calls:     []string{`get_weather {"city": "Paris"}`, `get_weather {"city": "Tokyo"}`},
				encrypted: []string{"reasoning ErUBCkYIBxgCIkB0c2ln"}},
			{name: "tool loop", fixtures: []string{"tool_use_parallel.sse", "text.sse"}, text: "Hello!",
				calls:     []string{`get_weather {"city": "Paris"}`, `get_weather {"city": "Tokyo"}`},
				results:   []string{"18°C and sunny in Paris", "18°C and sunny in Tokyo"},
				encrypted: []string{"reasoning ErUBCkYIBxgCIkB0c2ln"}},
			{name: "loop then front-end tool", fixtures: []string{"example_weather.sse", "example_booking.sse"},
				text: "Sunny, so the terrace.", results: []string{"18°C and sunny in Paris"},
				calls: []string{`get_weather {"city": "Paris"}`, `confirm_booking {"people": 2, "time": "20:00", "terrace": true}`}},
			{name: "error mid-stream", fixtures: []string{"error_midstream.sse"}, text: "The answer is",
				runError: "anthropic: Overloaded (overloaded_error)"},
		},
	},
	{
		name: "gemini", testdata: "../runtime/model/gemini/testdata/",
		model: func(t *testing.T, fixtures []string) model.Model {
			var replies []geminitest.Reply
			for _, f := range fixtures {
				replies = append(replies, geminitest.Fixture(t, f))
			}
			return gemini.New(geminitest.NewServer(t, replies...).Client(t), "gemini-2.5-flash")
		},
		cases: []modelCase{
			{name: "text", fixtures: []string{"text.sse"}, text: "Hello! How can I help?"},
			{name: "thoughts and several tool calls", fixtures: []string{"thought_function_calls.sse"}, frontEnd: true,
				calls:     []string{`get_weather {"city":"Paris"}`, `get_weather {"city":"Tokyo"}`},
				encrypted: []string{"call c2lnbmF0dXJl"}},
			{name: "tool loop", fixtures: []string{"thought_function_calls.sse", "text.sse"}, text: "Hello! How can I help?",
				calls:     []string{`get_weather {"city":"Paris"}`, `get_weather {"city":"Tokyo"}`},
				results:   []string{"18°C and sunny in Paris", "18°C and sunny in Tokyo"},
				encrypted: []string{"call c2lnbmF0dXJl"}},
			{name: "loop then front-end tool", fixtures: []string{"example_weather.sse", "example_booking.sse"},
				text: "Sunny, so the terrace.", results: []string{"18°C and sunny in Paris"},
				calls:     []string{`get_weather {"city":"Paris"}`, `confirm_booking {"people":2,"terrace":true,"time":"20:00"}`},
				encrypted: []string{"call c2lnbmF0dXJlLTE=", "call c2lnbmF0dXJlLTI="}},
			{name: "error mid-stream", fixtures: []string{"error_midstream.sse"}, text: "The answer is",
				runError: "gemini: The model is overloaded. Please try again later. (UNAVAILABLE)"},
		},
	},
}

var (
	weatherTool = agui.Tool{Name: "get_weather", Description: "The weather in a city.",
		Parameters: json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}`)}
	confirmTool = agui.Tool{Name: "confirm_booking", Description: "Asks the user to confirm a booking.",
		Parameters: json.RawMessage(`{"type":"object","properties":{"people":{"type":"integer"},"time":{"type":"string"},"terrace":{"type":"boolean"}}}`)}
)

// TestHTTPAgentOnModelAdapters: every replayed stream of the three model
// adapters, served by ModelAgent through the generated handler, is
// accepted by @ag-ui/client@1.0.0's HttpAgent (its verifier throws on a
// bad sequence): the client emits each event as served, in order, with no
// warning, and builds the messages the agent streamed. One Node process
// makes every run.
func TestHTTPAgentOnModelAdapters(t *testing.T) {
	requireNode(t)
	type served struct {
		name   string
		c      modelCase
		bodies *teeBodies
	}
	var cases []served
	var runs []any
	for _, p := range modelProviders {
		for _, c := range p.cases {
			fixtures := make([]string, len(c.fixtures))
			for i, f := range c.fixtures {
				fixtures[i] = p.testdata + f
			}
			bodies := &teeBodies{h: agui.NewHandler(modelAgent(t, p.model(t, fixtures), c.frontEnd))}
			srv := httptest.NewServer(bodies)
			t.Cleanup(srv.Close)
			frontEnd := []agui.Tool{confirmTool}
			if c.frontEnd {
				frontEnd = append(frontEnd, weatherTool)
			}
			runs = append(runs, map[string]any{"url": srv.URL, "tools": frontEnd,
				"messages": []any{map[string]string{"id": "user-1", "role": "user", "content": "Weather in Paris?"}}})
			cases = append(cases, served{name: p.name + "/" + c.name, c: c, bodies: bodies})
		}
	}
	input, err := json.Marshal(runs)
	if err != nil {
		t.Fatal(err)
	}
	out := runNode(t, input, "run-httpagent-model.mjs")
	var reports []httpAgentModelRun
	if err := json.Unmarshal(out, &reports); err != nil || len(reports) != len(cases) {
		t.Fatalf("%d reports for %d runs, %v\n%s", len(reports), len(cases), err, out)
	}
	for i, sc := range cases {
		t.Run(sc.name, func(t *testing.T) {
			if len(sc.bodies.bodies) != 1 {
				t.Fatalf("the handler served %d requests, want 1", len(sc.bodies.bodies))
			}
			checkModelRun(t, sc.c, sseData(t, sc.bodies.bodies[0].Bytes()), &reports[i])
		})
	}
}

// modelAgent is ModelAgent on m, with get_weather as a server-side tool
// unless the front end has it.
func modelAgent(t *testing.T, m model.Model, frontEnd bool) agui.Agent {
	var opts []model.Option
	if !frontEnd {
		opts = append(opts, model.WithTools(model.Func{
			Tool: model.Tool{Name: weatherTool.Name, Description: weatherTool.Description, Parameters: weatherTool.Parameters},
			Call: func(ctx context.Context, args json.RawMessage) (string, error) {
				var a struct{ City string }
				err := json.Unmarshal(args, &a)
				return "18°C and sunny in " + a.City, err
			}}))
	}
	agent, err := agui.ModelAgent(m, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return agent
}

// httpAgentModelRun is what run-httpagent-model.mjs prints for a run.
type httpAgentModelRun struct {
	OK       bool              `json:"ok"`
	Error    string            `json:"error"`
	Events   []json.RawMessage `json:"events"`
	Messages []json.RawMessage `json:"messages"`
	RunError *struct {
		Message string `json:"message"`
	} `json:"runError"`
	Warnings []string `json:"warnings"`
}

func checkModelRun(t *testing.T, c modelCase, servedEvents [][]byte, run *httpAgentModelRun) {
	// A RUN_ERROR ends a run the client accepts too: runAgent resolves.
	if !run.OK {
		t.Fatalf("HttpAgent rejected the run: %s (after %d events)", run.Error, len(run.Events))
	}
	if len(run.Warnings) > 0 {
		t.Errorf("HttpAgent warned: %q", run.Warnings)
	}

	// The client emitted every event served, as served.
	if len(run.Events) != len(servedEvents) {
		t.Errorf("HttpAgent emitted %d events, the handler served %d", len(run.Events), len(servedEvents))
	}
	for i := 0; i < min(len(run.Events), len(servedEvents)); i++ {
		var got, want any
		_ = json.Unmarshal(run.Events[i], &got)
		_ = json.Unmarshal(servedEvents[i], &want)
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("event %d (-served +emitted):\n%s", i, d)
		}
	}

	// The messages the client built hold what the model streamed.
	var text strings.Builder
	var calls, results, encrypted []string
	for _, raw := range run.Messages {
		var msg struct {
			Role           string `json:"role"`
			Content        any    `json:"content"`
			EncryptedValue string `json:"encryptedValue"`
			ToolCalls      []struct {
				ID       string `json:"id"`
				Function struct {
					Name      string `json:"name"`
					Arguments string `json:"arguments"`
				} `json:"function"`
				EncryptedValue string `json:"encryptedValue"`
			} `json:"toolCalls"`
		}
		if err := json.Unmarshal(raw, &msg); err != nil {
			t.Fatal(err)
		}
		if msg.EncryptedValue != "" {
			encrypted = append(encrypted, msg.Role+" "+msg.EncryptedValue)
		}
		for _, tc := range msg.ToolCalls {
			if tc.EncryptedValue != "" {
				encrypted = append(encrypted, "call "+tc.EncryptedValue)
			}
		}
		switch msg.Role {
		case "assistant":
			if s, ok := msg.Content.(string); ok {
				text.WriteString(s)
			}
			for _, tc := range msg.ToolCalls {
				calls = append(calls, tc.Function.Name+" "+tc.Function.Arguments)
			}
		case "tool":
			s, _ := msg.Content.(string)
			results = append(results, s)
		}
	}
	if text.String() != c.text {
		t.Errorf("assistant text %q, want %q", text.String(), c.text)
	}
	if d := cmp.Diff(c.calls, calls); d != "" {
		t.Errorf("tool calls (-want +got):\n%s", d)
	}
	if d := cmp.Diff(c.results, results); d != "" {
		t.Errorf("tool results (-want +got):\n%s", d)
	}
	if d := cmp.Diff(c.encrypted, encrypted); d != "" {
		t.Errorf("encrypted values kept (-want +got):\n%s", d)
	}
	// The client's messages are the next run's: the signatures it kept
	// reach the model's request there. Each message is mapped alone, with
	// an assistant message after it for a signed reasoning message to go
	// with, so that each signature is counted once, by what carried it.
	var back []string
	for _, raw := range run.Messages {
		m, err := agui.UnmarshalMessage(raw)
		if err != nil {
			t.Fatalf("the client's message %s: %v", raw, err)
		}
		in := agui.RunAgentInput{Messages: []agui.Message{m, &agui.AssistantMessage{}}}
		for _, msg := range agui.ModelRequest(&in).Messages {
			for _, r := range msg.Reasoning {
				kind := "reasoning"
				if _, ok := m.(*agui.AssistantMessage); ok {
					kind = "call"
				}
				back = append(back, kind+" "+r.Signature)
			}
		}
	}
	if d := cmp.Diff(c.encrypted, back); d != "" {
		t.Errorf("signatures in the next run's request (-want +got):\n%s", d)
	}
	switch {
	case c.runError == "" && run.RunError != nil:
		t.Errorf("RUN_ERROR %q", run.RunError.Message)
	case c.runError != "" && (run.RunError == nil || run.RunError.Message != c.runError):
		t.Errorf("RUN_ERROR %+v, want %q", run.RunError, c.runError)
	}
}
