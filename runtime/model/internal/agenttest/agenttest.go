// Package agenttest is what the tests of agui.ModelAgent on each adapter
// share: a run with every event checked by the AG-UI verifier, events
// summed up as lines to compare, and the front end's next run after one
// that called its tool.
package agenttest

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/agui-gen/agui-gen/gen/agui"
	"github.com/agui-gen/agui-gen/runtime/model"
)

// Run runs agent on in through agui.Invoke and returns the events, each
// checked by a verifier of its own, apart from the stream's.
func Run(t *testing.T, ctx context.Context, agent agui.Agent, in *agui.RunAgentInput, onEvent func(agui.Event)) ([]agui.Event, error) {
	t.Helper()
	v := agui.NewVerifier()
	var got []agui.Event
	err := agui.Invoke(ctx, agent, in, func(ev agui.Event) error {
		if err := v.Check(ev); err != nil {
			t.Errorf("the verifier refuses %s: %v", ev.Type(), err)
		}
		got = append(got, ev)
		if onEvent != nil {
			onEvent(ev)
		}
		return nil
	})
	return got, err
}

// UserInput is a run of thread t1 whose conversation is one user message.
func UserInput(runID, text string, tools ...agui.Tool) *agui.RunAgentInput {
	return &agui.RunAgentInput{ThreadID: "t1", RunID: runID, Tools: tools, Messages: []agui.Message{
		&agui.UserMessage{BaseMessage: agui.BaseMessage{ID: "u1"}, Content: agui.TextContent(text)}}}
}

// Summary is an event as the tests compare it: its type and what matters.
func Summary(ev agui.Event) string {
	switch e := ev.(type) {
	case *agui.TextMessageStartEvent:
		return "TEXT_MESSAGE_START " + e.MessageID
	case *agui.TextMessageContentEvent:
		return "TEXT_MESSAGE_CONTENT " + e.Delta
	case *agui.ReasoningStartEvent:
		return "REASONING_START " + e.MessageID
	case *agui.ReasoningMessageStartEvent:
		return "REASONING_MESSAGE_START " + e.MessageID
	case *agui.ReasoningMessageContentEvent:
		return "REASONING_MESSAGE_CONTENT " + e.Delta
	case *agui.ToolCallStartEvent:
		parent := ""
		if e.ParentMessageID != nil {
			parent = *e.ParentMessageID
		}
		return "TOOL_CALL_START " + e.ToolCallID + " " + e.ToolCallName + " parent=" + parent
	case *agui.ToolCallArgsEvent:
		return "TOOL_CALL_ARGS " + e.ToolCallID + " " + e.Delta
	case *agui.ToolCallEndEvent:
		return "TOOL_CALL_END " + e.ToolCallID
	case *agui.ToolCallResultEvent:
		return "TOOL_CALL_RESULT " + e.ToolCallID + " " + e.Content.Text
	case *agui.ReasoningEncryptedValueEvent:
		typ := ""
		if e.EncryptedValueType != nil {
			typ = " type=" + *e.EncryptedValueType
		}
		return "REASONING_ENCRYPTED_VALUE " + string(e.Subtype) + " " + e.EntityID + " " + e.EncryptedValue + typ
	case *agui.RunFinishedEvent:
		return "RUN_FINISHED" + usageSummary(e.Usage)
	case *agui.RunErrorEvent:
		code := ""
		if e.Code != nil {
			code = *e.Code
		}
		return "RUN_ERROR " + code + ": " + e.Message + usageSummary(e.Usage)
	}
	return string(ev.Type())
}

func usageSummary(us []agui.TokenUsage) string {
	var b strings.Builder
	for _, u := range us {
		j, _ := json.Marshal(u)
		b.WriteString(" usage=")
		b.Write(j)
	}
	return b.String()
}

// Summaries are the Summary of each event, a line each.
func Summaries(evs []agui.Event) string {
	s := make([]string, len(evs))
	for i, ev := range evs {
		s[i] = Summary(ev)
	}
	return strings.Join(s, "\n")
}

// WeatherForFrontEnd is get_weather as a front-end tool: a call of it
// ends the run, and the next run brings the results.
var WeatherForFrontEnd = agui.Tool{Name: "get_weather", Description: "Weather of a city.",
	Parameters: json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}`)}

// Weather is get_weather as a server-side tool, answering answer(city).
func Weather(answer func(city string) string) model.Func {
	return model.Func{
		Tool: model.Tool{Name: WeatherForFrontEnd.Name, Description: WeatherForFrontEnd.Description, Parameters: WeatherForFrontEnd.Parameters},
		Call: func(_ context.Context, args json.RawMessage) (string, error) {
			var a struct{ City string }
			if err := json.Unmarshal(args, &a); err != nil {
				return "", err
			}
			return answer(a.City), nil
		}}
}

// NextRun is the front end's next run after the first: the conversation
// as a client reduces the first run's events, with a result for each call
// of the front-end tool.
func NextRun(t *testing.T, first *agui.RunAgentInput, evs []agui.Event) *agui.RunAgentInput {
	t.Helper()
	conv := agui.NewConversation(first.Messages, nil)
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
