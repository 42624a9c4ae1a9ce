package gemini_test

import (
	"testing"

	"github.com/agui-gen/agui-gen/runtime/model"
	"github.com/agui-gen/agui-gen/runtime/model/gemini"
	"github.com/agui-gen/agui-gen/runtime/model/gemini/geminitest"
	"github.com/agui-gen/agui-gen/runtime/model/internal/aguiclienttest"
)

// TestHTTPAgentOnModelAdapter: every replayed stream of this adapter,
// served by ModelAgent through the generated handler, is accepted by
// @ag-ui/client@1.0.0's HttpAgent, which builds the messages the agent
// streamed (aguiclienttest.Run says what is checked).
func TestHTTPAgentOnModelAdapter(t *testing.T) {
	aguiclienttest.Run(t, "testdata", func(t *testing.T, fixtures []string) model.Model {
		var replies []geminitest.Reply
		for _, f := range fixtures {
			replies = append(replies, geminitest.Fixture(t, f))
		}
		return gemini.New(geminitest.NewServer(t, replies...).Client(t), "gemini-2.5-flash")
	}, []aguiclienttest.Case{
		{Name: "text", Fixtures: []string{"text.sse"}, Text: "Hello! How can I help?"},
		{Name: "thoughts and several tool calls", Fixtures: []string{"thought_function_calls.sse"}, FrontEnd: true,
			Calls:     []string{`get_weather {"city":"Paris"}`, `get_weather {"city":"Tokyo"}`},
			Encrypted: []string{"call c2lnbmF0dXJl"}},
		{Name: "tool loop", Fixtures: []string{"thought_function_calls.sse", "text.sse"}, Text: "Hello! How can I help?",
			Calls:     []string{`get_weather {"city":"Paris"}`, `get_weather {"city":"Tokyo"}`},
			Results:   []string{"18°C and sunny in Paris", "18°C and sunny in Tokyo"},
			Encrypted: []string{"call c2lnbmF0dXJl"}},
		{Name: "loop then front-end tool", Fixtures: []string{"example_weather.sse", "example_booking.sse"},
			Text: "Sunny, so the terrace.", Results: []string{"18°C and sunny in Paris"},
			Calls:     []string{`get_weather {"city":"Paris"}`, `confirm_booking {"people":2,"terrace":true,"time":"20:00"}`},
			Encrypted: []string{"call c2lnbmF0dXJlLTE=", "call c2lnbmF0dXJlLTI="}},
		{Name: "error mid-stream", Fixtures: []string{"error_midstream.sse"}, Text: "The answer is",
			RunError: "gemini: The model is overloaded. Please try again later. (UNAVAILABLE)"},
	})
}
