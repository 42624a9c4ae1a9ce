package openai_test

import (
	"testing"

	"github.com/agui-gen/agui-gen/runtime/model"
	"github.com/agui-gen/agui-gen/runtime/model/internal/aguiclienttest"
	"github.com/agui-gen/agui-gen/runtime/model/openai"
	"github.com/agui-gen/agui-gen/runtime/model/openai/openaitest"
)

// TestHTTPAgentOnModelAdapter: every replayed stream of this adapter,
// served by ModelAgent through the generated handler, is accepted by
// @ag-ui/client@1.0.0's HttpAgent, which builds the messages the agent
// streamed (aguiclienttest.Run says what is checked).
func TestHTTPAgentOnModelAdapter(t *testing.T) {
	aguiclienttest.Run(t, "testdata", func(t *testing.T, fixtures []string) model.Model {
		var replies []openaitest.Reply
		for _, f := range fixtures {
			replies = append(replies, openaitest.Fixture(t, f))
		}
		return openai.New(openaitest.NewServer(t, replies...).Client(), "gpt-4.1")
	}, []aguiclienttest.Case{
		{Name: "text", Fixtures: []string{"text.sse"}, Text: "Hello! How can I help?"},
		{Name: "reasoning", Fixtures: []string{"reasoning.sse"}, Text: "9.8 is larger."},
		{Name: "tool call in fragments", Fixtures: []string{"tool_call.sse"}, FrontEnd: true,
			Text: "Let me look that up.", Calls: []string{`get_weather {"city":"Paris"}`}},
		{Name: "several tool calls", Fixtures: []string{"tool_calls_parallel.sse"}, FrontEnd: true,
			Calls: []string{`get_weather {"city": "Paris"}`, `get_weather {"city": "Tokyo"}`}},
		{Name: "tool loop", Fixtures: []string{"tool_call.sse", "text.sse"},
			Text: "Let me look that up.Hello! How can I help?", Calls: []string{`get_weather {"city":"Paris"}`},
			Results: []string{"18°C and sunny in Paris"}},
		{Name: "front-end tool", Fixtures: []string{"frontend_tool.sse"}, FrontEnd: true,
			Calls: []string{`confirm_booking {"people":2,"time":"20:00"}`}},
		{Name: "loop then front-end tool", Fixtures: []string{"example_weather.sse", "example_booking.sse"},
			Text: "Sunny, so the terrace.", Results: []string{"18°C and sunny in Paris"},
			Calls: []string{`get_weather {"city":"Paris"}`, `confirm_booking {"people":2,"time":"20:00","terrace":true}`}},
		{Name: "error mid-stream", Fixtures: []string{"error_midstream.sse"}, Text: "The answer is",
			RunError: "openai: The server had an error while processing your request. Sorry about that! (server_error)"},
	})
}
