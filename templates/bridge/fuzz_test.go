package bridge_test

import (
	"bytes"
	"context"
	"encoding/json"
	"iter"
	"testing"

	"github.com/agui-gen/agui-gen/gen/a2a"
	"github.com/agui-gen/agui-gen/gen/agui"
	"github.com/agui-gen/agui-gen/gen/bridge"
)

// FuzzPartHints: the hint readers take any part without panicking, and a
// part they read as a tool call or result has the ids a UI needs.
func FuzzPartHints(f *testing.F) {
	for _, seed := range []string{hectorText, hectorThinking, hectorCall, hectorResult,
		`{"data":{"type":"tool-call","id":"c","name":"n","arguments":"{\"a\":1}"}}`,
		`{"data":{"type":"tool-result","toolCallId":"c","payload":{"x":[1,2]}}}`,
		`{"data":{"data":{"data":{"id":1}}},"metadata":{"agui_event_type":7}}`,
		`{"text":"x","metadata":{"agui_block_index":"zero","agui_is_error":"no"}}`, `{"data":null}`, `{"data":[]}`} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p := new(a2a.Part)
		if p.UnmarshalJSON(data) != nil {
			return
		}
		bridge.HintOf(p)
		bridge.IsThinking(p)
		if c, ok := bridge.ToolCallOf(p); ok && (c.ID == "" || c.Name == "") {
			t.Fatalf("tool call without id or name: %+v", c)
		}
		if r, ok := bridge.ToolResultOf(p); ok && r.ToolCallID == "" {
			t.Fatalf("tool result without a call id: %+v", r)
		}
		bridge.SetHint(p, bridge.Hint{EventType: bridge.EventThinking})
		if !bridge.IsThinking(p) {
			t.Fatalf("SetHint did not take: %s", p.Metadata)
		}
	})
}

// replayTransport answers SendStreamingMessage with fixed responses and
// everything else with an empty answer.
type replayTransport struct {
	responses []*a2a.StreamResponse
	sent      []a2a.ProtoValue
}

func (r *replayTransport) Call(ctx context.Context, m *a2a.MethodDesc, req, resp a2a.ProtoValue) error {
	r.sent = append(r.sent, req)
	return nil
}

func (r *replayTransport) Stream(ctx context.Context, m *a2a.MethodDesc, req a2a.ProtoValue) iter.Seq2[a2a.ProtoValue, error] {
	r.sent = append(r.sent, req)
	return func(yield func(a2a.ProtoValue, error) bool) {
		for _, resp := range r.responses {
			if !yield(resp, nil) {
				return
			}
		}
	}
}

// FuzzA2AStream: whatever an A2A agent streams, and whatever a resume
// names, the bridge turns into an AG-UI run that passes the sequence
// verifier and the schema, or ends it with RUN_ERROR; it never panics.
func FuzzA2AStream(f *testing.F) {
	f.Add([]byte(`{"task":{"id":"t","contextId":"c","status":{"state":"TASK_STATE_WORKING"}}}
{"artifactUpdate":{"taskId":"t","artifactId":"x","artifact":{"artifactId":"a","parts":[{"text":"hi"}]},"append":true}}
{"artifactUpdate":{"taskId":"t","artifact":{"artifactId":"a/~b","parts":[{"data":{"k":1}},{"url":"http://x"}]}}}
{"statusUpdate":{"taskId":"t","status":{"state":"TASK_STATE_INPUT_REQUIRED","message":{"messageId":"m","role":"ROLE_AGENT","parts":[{"text":"?"},{"data":{"type":"agui.interrupts","interrupts":[{"id":"i","reason":"r"}]}}]}}}}`), "a2a/t/i")
	f.Add([]byte(`{"message":{"messageId":"m","role":"ROLE_AGENT","parts":[`+hectorThinking+`,`+hectorCall+`,`+hectorResult+`,`+hectorText+`]}}
{"statusUpdate":{"taskId":"t","status":{"state":"TASK_STATE_FAILED"}}}`), "a2a/%zz")
	f.Add([]byte(`{"statusUpdate":{"taskId":"t","status":{"state":"TASK_STATE_CANCELED"}}}`), "elsewhere")
	f.Fuzz(func(t *testing.T, stream []byte, interruptID string) {
		replay := &replayTransport{}
		for _, line := range bytes.Split(stream, []byte("\n")) {
			resp := new(a2a.StreamResponse)
			if resp.UnmarshalJSON(line) == nil {
				replay.responses = append(replay.responses, resp)
			}
		}
		input := userInput("thread", "hello")
		input.Resume = []agui.ResumeEntry{{InterruptID: interruptID, Status: agui.ResumeEntryStatusResolved, Payload: json.RawMessage(`"x"`)}}
		if input.Validate() != nil {
			return
		}
		agent := &bridge.A2AAgent{Client: a2a.NewA2AServiceClient(replay)}
		var events []agui.Event
		_ = agui.Invoke(context.Background(), agent, input, func(ev agui.Event) error {
			if err := ev.Validate(); err != nil {
				t.Fatalf("invalid %s: %v", ev.Type(), err)
			}
			events = append(events, ev)
			return nil
		})
		switch events[len(events)-1].(type) {
		case *agui.RunFinishedEvent, *agui.RunErrorEvent:
		default:
			t.Fatalf("the run ended with %s", events[len(events)-1].Type())
		}
		for _, req := range replay.sent {
			if err := req.Validate(); err != nil {
				t.Fatalf("the bridge sent an invalid %T: %v", req, err)
			}
		}
	})
}
