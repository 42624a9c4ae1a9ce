package anthropic_test

import (
	"testing"

	"github.com/agui-gen/agui-gen/runtime/model"
	"github.com/agui-gen/agui-gen/runtime/model/anthropic"
	"github.com/agui-gen/agui-gen/runtime/model/anthropic/anthropictest"
	"github.com/agui-gen/agui-gen/runtime/model/internal/aguiclienttest"
)

// TestHTTPAgentOnModelAdapter: every replayed stream of this adapter,
// served by ModelAgent through the generated handler, is accepted by
// @ag-ui/client@1.0.0's HttpAgent, which builds the messages the agent
// streamed (aguiclienttest.Run says what is checked).
func TestHTTPAgentOnModelAdapter(t *testing.T) {
	aguiclienttest.Run(t, "testdata", func(t *testing.T, fixtures []string) model.Model {
		var replies []anthropictest.Reply
		for _, f := range fixtures {
			replies = append(replies, anthropictest.Fixture(t, f))
		}
		return anthropic.New(anthropictest.NewServer(t, replies...).Client(), "claude-sonnet-4-5")
	}, []aguiclienttest.Case{
		{Name: "text", Fixtures: []string{"text.sse"}, Text: "Hello!"},
		{Name: "thinking", Fixtures: []string{"thinking.sse"}, Text: "The greatest common divisor of 1071 and 462 is **21**.",
			Encrypted: []string{"reasoning EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds"}},
		{Name: "tool call in fragments", Fixtures: []string{"tool_use.sse"}, FrontEnd: true,
			Text: "Okay, let's check the weather for San Francisco, CA:", Calls: []string{`get_weather {"location": "San Francisco, CA"}`}},
		{Name: "several tool calls", Fixtures: []string{"tool_use_parallel.sse"}, FrontEnd: true,
			Calls:     []string{`get_weather {"city": "Paris"}`, `get_weather {"city": "Tokyo"}`},
			Encrypted: []string{"reasoning ErUBCkYIBxgCIkB0c2ln"}},
		{Name: "tool loop", Fixtures: []string{"tool_use_parallel.sse", "text.sse"}, Text: "Hello!",
			Calls:     []string{`get_weather {"city": "Paris"}`, `get_weather {"city": "Tokyo"}`},
			Results:   []string{"18°C and sunny in Paris", "18°C and sunny in Tokyo"},
			Encrypted: []string{"reasoning ErUBCkYIBxgCIkB0c2ln"}},
		{Name: "loop then front-end tool", Fixtures: []string{"example_weather.sse", "example_booking.sse"},
			Text: "Sunny, so the terrace.", Results: []string{"18°C and sunny in Paris"},
			Calls: []string{`get_weather {"city": "Paris"}`, `confirm_booking {"people": 2, "time": "20:00", "terrace": true}`}},
		{Name: "error mid-stream", Fixtures: []string{"error_midstream.sse"}, Text: "The answer is",
			RunError: "anthropic: Overloaded (overloaded_error)"},
	})
}
