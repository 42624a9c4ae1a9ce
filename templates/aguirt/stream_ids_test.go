package aguirt

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	agui "github.com/agui-gen/agui-gen/gen/agui"
)

// invokeEvents runs agent through Invoke and returns its events as JSON,
// after checking that they reduce to a conversation without warnings.
func invokeEvents(t *testing.T, agent AgentFunc) ([]string, *Conversation) {
	t.Helper()
	var events []string
	conv := &Conversation{}
	in := &agui.RunAgentInput{ThreadID: "t1", RunID: "r1", Messages: []agui.Message{}}
	err := Invoke(context.Background(), agent, in, func(ev agui.Event) error {
		events = append(events, string(ev.AppendJSON(nil)))
		return conv.Apply(ev)
	}, WithLogger(quietLogger()))
	if err != nil {
		t.Fatal(err)
	}
	conv.Sync()
	if len(conv.Warnings) > 0 {
		t.Errorf("the conversation warns: %v", conv.Warnings)
	}
	return events[1 : len(events)-1], conv // without RUN_STARTED and RUN_FINISHED
}

// A model's own ids reach the wire: its reasoning's, its message's, and its
// tool call's, whose arguments stream as deltas; naming the open message
// again adds nothing.
func TestStreamModelIDs(t *testing.T) {
	events, conv := invokeEvents(t, func(ctx context.Context, in *agui.RunAgentInput, s *Stream) error {
		for _, step := range []func() error{
			func() error { return s.StartReasoning("rs_1") },
			func() error { return s.Reasoning("The user wants ") },
			func() error { return s.StartReasoning("rs_1") },
			func() error { return s.Reasoning("the weather.") },
			func() error { return s.StartText("msg_1") },
			func() error { return s.Text("Let me check.") },
			func() error { return s.StartText("msg_1") },
			func() error { return s.Text(" One moment.") },
		} {
			if err := step(); err != nil {
				return err
			}
		}
		id, err := s.StartToolCall("get_weather", ToolCallID("call_abc"))
		if err != nil || id != "call_abc" {
			t.Errorf("StartToolCall with the model's id: %q %v", id, err)
		}
		for _, delta := range []string{`{"ci`, `ty":"Pa`, `ris"}`} {
			if err := s.ToolCallArgs(id, delta); err != nil {
				return err
			}
		}
		return s.EndToolCall(id)
	})
	want := []string{
		`{"type":"REASONING_START","messageId":"rs_1"}`,
		`{"type":"REASONING_MESSAGE_START","messageId":"rs_1","role":"reasoning"}`,
		`{"type":"REASONING_MESSAGE_CONTENT","messageId":"rs_1","delta":"The user wants "}`,
		`{"type":"REASONING_MESSAGE_CONTENT","messageId":"rs_1","delta":"the weather."}`,
		`{"type":"REASONING_MESSAGE_END","messageId":"rs_1"}`,
		`{"type":"REASONING_END","messageId":"rs_1"}`,
		`{"type":"TEXT_MESSAGE_START","messageId":"msg_1","role":"assistant"}`,
		`{"type":"TEXT_MESSAGE_CONTENT","messageId":"msg_1","delta":"Let me check."}`,
		`{"type":"TEXT_MESSAGE_CONTENT","messageId":"msg_1","delta":" One moment."}`,
		`{"type":"TEXT_MESSAGE_END","messageId":"msg_1"}`,
		`{"type":"TOOL_CALL_START","toolCallId":"call_abc","toolCallName":"get_weather","parentMessageId":"msg_1"}`,
		`{"type":"TOOL_CALL_ARGS","toolCallId":"call_abc","delta":"{\"ci"}`,
		`{"type":"TOOL_CALL_ARGS","toolCallId":"call_abc","delta":"ty\":\"Pa"}`,
		`{"type":"TOOL_CALL_ARGS","toolCallId":"call_abc","delta":"ris\"}"}`,
		`{"type":"TOOL_CALL_END","toolCallId":"call_abc"}`,
	}
	if strings.Join(events, "\n") != strings.Join(want, "\n") {
		t.Fatalf("events:\n%s\nwant:\n%s", strings.Join(events, "\n"), strings.Join(want, "\n"))
	}
	// The client's view: the assistant message under the model's id holds
	// the text and the tool call, with its whole arguments.
	var asst *agui.AssistantMessage
	for _, m := range conv.Messages {
		if a, ok := m.(*agui.AssistantMessage); ok {
			asst = a
		}
	}
	if asst == nil || asst.ID != "msg_1" || asst.Content == nil || *asst.Content != "Let me check. One moment." ||
		len(asst.ToolCalls) != 1 || asst.ToolCalls[0].ID != "call_abc" || asst.ToolCalls[0].Function.Arguments != `{"city":"Paris"}` {
		data, _ := json.Marshal(conv.Messages)
		t.Errorf("the conversation: %s", data)
	}
}

// Another id closes the open message and opens one under it; an empty id
// opens one with a made-up id; ToolCall takes the model's ids too, and
// ParentMessageID names a message that holds only tool calls.
func TestStreamStartSwitchesMessages(t *testing.T) {
	events, _ := invokeEvents(t, func(ctx context.Context, in *agui.RunAgentInput, s *Stream) error {
		s.StartText("msg_1")
		s.Text("One.")
		s.StartText("msg_2")
		s.Text("Two.")
		s.StartText("")
		s.Text("Three.")
		s.StartReasoning("rs_1")
		s.Reasoning("Hm.")
		s.StartReasoning("rs_2")
		s.Reasoning("Ah.")
		if id, err := s.ToolCall("lookup", `{}`, ToolCallID("call_1"), ParentMessageID("msg_9")); err != nil || id != "call_1" {
			t.Errorf("ToolCall with the model's ids: %q %v", id, err)
		}
		id, err := s.ToolCall("lookup", `{}`) // as before: an id of its own
		if err != nil || !strings.HasPrefix(id, "call_") || id == "call_1" {
			t.Errorf("ToolCall without options: %q %v", id, err)
		}
		return nil
	})
	var types, ids []string
	for _, e := range events {
		var ev struct{ Type, MessageID, ToolCallID, ParentMessageID string }
		json.Unmarshal([]byte(e), &ev)
		types = append(types, ev.Type)
		ids = append(ids, ev.MessageID+ev.ToolCallID+"^"+ev.ParentMessageID)
	}
	wantTypes := "TEXT_MESSAGE_START TEXT_MESSAGE_CONTENT TEXT_MESSAGE_END TEXT_MESSAGE_START TEXT_MESSAGE_CONTENT TEXT_MESSAGE_END " +
		"TEXT_MESSAGE_START TEXT_MESSAGE_CONTENT TEXT_MESSAGE_END REASONING_START REASONING_MESSAGE_START REASONING_MESSAGE_CONTENT " +
		"REASONING_MESSAGE_END REASONING_END REASONING_START REASONING_MESSAGE_START REASONING_MESSAGE_CONTENT REASONING_MESSAGE_END " +
		"REASONING_END TOOL_CALL_START TOOL_CALL_ARGS TOOL_CALL_END TOOL_CALL_START TOOL_CALL_ARGS TOOL_CALL_END"
	if got := strings.Join(types, " "); got != wantTypes {
		t.Fatalf("types:\n%s\nwant:\n%s", got, wantTypes)
	}
	if ids[0] != "msg_1^" || ids[3] != "msg_2^" || ids[10] != "rs_1^" || ids[15] != "rs_2^" || ids[19] != "call_1^msg_9" {
		t.Errorf("ids: %v", ids)
	}
	if third := strings.TrimSuffix(ids[6], "^"); !strings.HasPrefix(third, "msg_") || third == "msg_1" || third == "msg_2" {
		t.Errorf("StartText(\"\") opened %q", third)
	}
	// Without ParentMessageID, a tool call's parent is the last assistant
	// text message, as before.
	if !strings.HasPrefix(ids[22], "call_") || !strings.HasSuffix(ids[22], "^"+strings.TrimSuffix(ids[6], "^")) {
		t.Errorf("the second tool call: %s", ids[22])
	}
}

// An id the run has open already is refused by the verifier, and nothing
// is sent.
func TestStreamModelIDConflict(t *testing.T) {
	invokeEvents(t, func(ctx context.Context, in *agui.RunAgentInput, s *Stream) error {
		if _, err := s.StartToolCall("a", ToolCallID("call_1")); err != nil {
			return err
		}
		if _, err := s.StartToolCall("b", ToolCallID("call_1")); err == nil {
			t.Error("a second open tool call under the same id was sent")
		}
		return s.EndToolCall("call_1")
	})
}
