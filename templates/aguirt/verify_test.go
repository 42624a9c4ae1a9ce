package aguirt

import (
	"errors"
	"strings"
	"testing"

	agui "github.com/agui-gen/agui-gen/gen/agui"
)

// vEvents decodes events written as JSON, one per string.
func vEvents(t *testing.T, docs ...string) []agui.Event {
	t.Helper()
	out := make([]agui.Event, len(docs))
	for i, d := range docs {
		ev, err := agui.UnmarshalEvent([]byte(d))
		if err != nil {
			t.Fatalf("event %d %s: %v", i, d, err)
		}
		out[i] = ev
	}
	return out
}

// Shorthands for the events the cases use most.
const (
	vStart    = `{"type":"RUN_STARTED","threadId":"t","runId":"r"}`
	vFinish   = `{"type":"RUN_FINISHED","threadId":"t","runId":"r"}`
	vError    = `{"type":"RUN_ERROR","message":"boom"}`
	vMeta     = `{"type":"META","metaType":"thumbs_up","payload":{"messageId":"m"}}`
	vTS       = `{"type":"TEXT_MESSAGE_START","messageId":"m"}`
	vTC       = `{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"x"}`
	vTE       = `{"type":"TEXT_MESSAGE_END","messageId":"m"}`
	vRaw      = `{"type":"RAW","event":{}}`
	vCustom   = `{"type":"CUSTOM","name":"n","value":1}`
	vSubStart = `{"type":"SUBAGENT_STARTED","subagentRunId":"s1","name":"helper"}`
	vSubEnd   = `{"type":"SUBAGENT_FINISHED","subagentRunId":"s1"}`
)

func TestVerifierRules(t *testing.T) {
	cases := []struct {
		name   string
		events []string
		rule   string // "" = every event passes
		at     int    // index of the failing event
	}{
		{"a plain run", []string{vStart, vTS, vTC, vTE, vFinish}, "", 0},
		{"two runs in sequence", []string{vStart, vFinish, vStart, vTS, vTE, vFinish}, "", 0},
		{"first event is content", []string{vTS}, RuleFirstEvent, 0},
		{"first event is RUN_FINISHED", []string{vFinish}, RuleFirstEvent, 0},
		{"META before, between and after runs", []string{vMeta, vStart, vMeta, vFinish, vMeta, vError, vMeta}, "", 0},
		{"RUN_ERROR first, then a run", []string{vError, vStart, vFinish}, "", 0},
		{"nested RUN_STARTED", []string{vStart, vStart}, RuleNestedRun, 1},
		{"content after RUN_FINISHED", []string{vStart, vFinish, vTS}, RuleAfterFinished, 2},
		{"late RUN_ERROR after RUN_FINISHED", []string{vStart, vFinish, vError, vStart, vFinish}, "", 0},
		{"RUN_FINISHED after RUN_FINISHED", []string{vStart, vFinish, vFinish}, RuleAfterFinished, 2},
		{"content after RUN_ERROR", []string{vStart, vError, vTS}, RuleAfterError, 2},
		{"RUN_ERROR after RUN_ERROR", []string{vStart, vError, vError}, RuleAfterError, 2},
		{"RUN_ERROR with things open, then a clean run", []string{vStart, vTS, `{"type":"STEP_STARTED","stepName":"s"}`, vSubStart, vError,
			vStart, vFinish}, "", 0},

		{"open text message at finish", []string{vStart, vTS, vFinish}, RuleOpenAtFinish, 2},
		{"open tool call at finish", []string{vStart, `{"type":"TOOL_CALL_START","toolCallId":"c","toolCallName":"f"}`, vFinish}, RuleOpenAtFinish, 2},
		{"open reasoning message at finish", []string{vStart, `{"type":"REASONING_MESSAGE_START","messageId":"m","role":"reasoning"}`, vFinish}, RuleOpenAtFinish, 2},
		{"open reasoning span at finish", []string{vStart, `{"type":"REASONING_START","messageId":"s"}`, vFinish}, RuleOpenAtFinish, 2},
		{"open step at finish", []string{vStart, `{"type":"STEP_STARTED","stepName":"s"}`, vFinish}, RuleOpenAtFinish, 2},
		{"active subagent at finish", []string{vStart, vSubStart, vFinish}, RuleOpenAtFinish, 2},

		{"text message started twice", []string{vStart, vTS, vTS}, RuleAlreadyOpen, 2},
		{"closed text message reopened", []string{vStart, vTS, vTC, vTE, vTS, vTC, vTE, vFinish}, "", 0},
		{"text content without start", []string{vStart, vTC}, RuleContentWithoutStart, 1},
		{"text end without start", []string{vStart, vTE}, RuleEndWithoutStart, 1},
		{"text content after end", []string{vStart, vTS, vTE, vTC}, RuleContentWithoutStart, 3},
		{"tool call started twice", []string{vStart, `{"type":"TOOL_CALL_START","toolCallId":"c","toolCallName":"f"}`,
			`{"type":"TOOL_CALL_START","toolCallId":"c","toolCallName":"f"}`}, RuleAlreadyOpen, 2},
		{"tool args without start", []string{vStart, `{"type":"TOOL_CALL_ARGS","toolCallId":"c","delta":"{}"}`}, RuleContentWithoutStart, 1},
		{"tool end without start", []string{vStart, `{"type":"TOOL_CALL_END","toolCallId":"c"}`}, RuleEndWithoutStart, 1},
		{"tool result needs no open call", []string{vStart, `{"type":"TOOL_CALL_RESULT","messageId":"t1","toolCallId":"c","content":"ok"}`, vFinish}, "", 0},
		{"reasoning content without start", []string{vStart, `{"type":"REASONING_MESSAGE_CONTENT","messageId":"m","delta":"x"}`}, RuleContentWithoutStart, 1},
		{"reasoning message end without start", []string{vStart, `{"type":"REASONING_MESSAGE_END","messageId":"m"}`}, RuleEndWithoutStart, 1},
		{"reasoning span started twice", []string{vStart, `{"type":"REASONING_START","messageId":"s"}`, `{"type":"REASONING_START","messageId":"s"}`}, RuleAlreadyOpen, 2},
		{"reasoning span end without start", []string{vStart, `{"type":"REASONING_END","messageId":"s"}`}, RuleEndWithoutStart, 1},
		{"reasoning span and message are separate", []string{vStart, `{"type":"REASONING_START","messageId":"x"}`,
			`{"type":"REASONING_MESSAGE_START","messageId":"x","role":"reasoning"}`, `{"type":"REASONING_MESSAGE_END","messageId":"x"}`,
			`{"type":"REASONING_END","messageId":"x"}`, vFinish}, "", 0},

		{"step started twice", []string{vStart, `{"type":"STEP_STARTED","stepName":"s"}`, `{"type":"STEP_STARTED","stepName":"s"}`}, RuleAlreadyOpen, 2},
		{"step finished without start", []string{vStart, `{"type":"STEP_FINISHED","stepName":"s"}`}, RuleEndWithoutStart, 1},
		{"one step name, two owners", []string{vStart, `{"type":"STEP_STARTED","stepName":"s"}`, `{"type":"STEP_STARTED","stepName":"s","subagentRunId":"a"}`,
			`{"type":"STEP_FINISHED","stepName":"s","subagentRunId":"a"}`, `{"type":"STEP_FINISHED","stepName":"s"}`, vFinish}, "", 0},
		{"step finished by another owner", []string{vStart, `{"type":"STEP_STARTED","stepName":"s","subagentRunId":"a"}`,
			`{"type":"STEP_FINISHED","stepName":"s"}`}, RuleEndWithoutStart, 2},

		{"continuation tagged by another subagent", []string{vStart, `{"type":"TEXT_MESSAGE_START","messageId":"m","subagentRunId":"a"}`,
			`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"x","subagentRunId":"b"}`}, RuleAttributionMismatch, 2},
		{"untagged continuation agrees", []string{vStart, `{"type":"TEXT_MESSAGE_START","messageId":"m","subagentRunId":"a"}`,
			vTC, `{"type":"TEXT_MESSAGE_END","messageId":"m","subagentRunId":"a"}`, vFinish}, "", 0},
		{"tagged continuation of an untagged opener", []string{vStart, vTS,
			`{"type":"TEXT_MESSAGE_END","messageId":"m","subagentRunId":"a"}`}, RuleAttributionMismatch, 2},
		{"reopened by another subagent", []string{vStart, `{"type":"TEXT_MESSAGE_START","messageId":"m","subagentRunId":"a"}`, vTE,
			`{"type":"TEXT_MESSAGE_START","messageId":"m","subagentRunId":"b"}`}, RuleAttributionMismatch, 3},
		{"owner seeded by MESSAGES_SNAPSHOT", []string{vStart,
			`{"type":"MESSAGES_SNAPSHOT","messages":[{"id":"m","role":"assistant","content":"x","subagentRunId":"a"}]}`,
			`{"type":"TEXT_MESSAGE_START","messageId":"m","subagentRunId":"b"}`}, RuleAttributionMismatch, 2},
		{"owner seeded by RUN_STARTED.input", []string{
			`{"type":"RUN_STARTED","threadId":"t","runId":"r","input":{"threadId":"t","runId":"r","messages":[{"id":"m","role":"assistant","content":"x","subagentRunId":"a"}]}}`,
			`{"type":"TOOL_CALL_START","toolCallId":"c","toolCallName":"f","parentMessageId":"m","subagentRunId":"b"}`}, RuleAttributionMismatch, 1},
		{"tool call inherits its parent's owner", []string{vStart, `{"type":"TEXT_MESSAGE_START","messageId":"m","subagentRunId":"a"}`, vTE,
			`{"type":"TOOL_CALL_START","toolCallId":"c","toolCallName":"f","parentMessageId":"m"}`,
			`{"type":"TOOL_CALL_END","toolCallId":"c","subagentRunId":"b"}`}, RuleAttributionMismatch, 4},

		{"subagent without a name", []string{vStart, `{"type":"SUBAGENT_STARTED","subagentRunId":"s1","name":""}`}, RuleSubagentInvalid, 1},
		{"subagent started twice", []string{vStart, vSubStart, vSubStart}, RuleSubagentActive, 2},
		{"subagent id reused in the run", []string{vStart, vSubStart, vSubEnd, vSubStart}, RuleSubagentReused, 3},
		{"subagent id reused in the next run", []string{vStart, vSubStart, vSubEnd, vFinish, vStart, vSubStart, vSubEnd, vFinish}, "", 0},
		{"subagent under an unknown parent", []string{vStart, `{"type":"SUBAGENT_STARTED","subagentRunId":"s2","name":"n","parentSubagentRunId":"s1"}`}, RuleSubagentUnknownParent, 1},
		{"subagent under an active parent", []string{vStart, vSubStart, `{"type":"SUBAGENT_STARTED","subagentRunId":"s2","name":"n","parentSubagentRunId":"s1"}`,
			`{"type":"SUBAGENT_ERROR","subagentRunId":"s2","message":"x"}`, vSubEnd, vFinish}, "", 0},
		{"subagent finished, never started", []string{vStart, vSubEnd}, RuleSubagentNotActive, 1},
		{"subagent error, never started", []string{vStart, `{"type":"SUBAGENT_ERROR","subagentRunId":"s1","message":"x"}`}, RuleSubagentNotActive, 1},

		{"first chunk without an id", []string{vStart, `{"type":"TEXT_MESSAGE_CHUNK","delta":"x"}`}, RuleChunkMissingID, 1},
		{"first tool chunk without a name", []string{vStart, `{"type":"TOOL_CALL_CHUNK","toolCallId":"c","delta":"{}"}`}, RuleChunkMissingName, 1},
		{"first reasoning chunk without an id", []string{vStart, `{"type":"REASONING_MESSAGE_CHUNK","delta":"x"}`}, RuleChunkMissingID, 1},
		{"chunks assemble and RUN_FINISHED closes them", []string{vStart, `{"type":"TEXT_MESSAGE_CHUNK","messageId":"m","delta":"a"}`,
			`{"type":"TEXT_MESSAGE_CHUNK","delta":"b"}`, `{"type":"TEXT_MESSAGE_CHUNK","messageId":"m","role":"assistant","delta":"c"}`, vFinish}, "", 0},
		{"chunk contradicts the role", []string{vStart, `{"type":"TEXT_MESSAGE_CHUNK","messageId":"m","delta":"a"}`,
			`{"type":"TEXT_MESSAGE_CHUNK","role":"user","delta":"b"}`}, RuleChunkConflict, 2},
		{"chunk adds a name", []string{vStart, `{"type":"TEXT_MESSAGE_CHUNK","messageId":"m","delta":"a"}`,
			`{"type":"TEXT_MESSAGE_CHUNK","name":"bob","delta":"b"}`}, RuleChunkConflict, 2},
		{"tool chunk renames the call", []string{vStart, `{"type":"TOOL_CALL_CHUNK","toolCallId":"c","toolCallName":"f"}`,
			`{"type":"TOOL_CALL_CHUNK","toolCallName":"g"}`}, RuleChunkConflict, 2},
		{"tool chunk moves the call", []string{vStart, `{"type":"TOOL_CALL_CHUNK","toolCallId":"c","toolCallName":"f","parentMessageId":"p"}`,
			`{"type":"TOOL_CALL_CHUNK","parentMessageId":"q"}`}, RuleChunkConflict, 2},
		{"RAW does not close a chunk stream", []string{vStart, `{"type":"TEXT_MESSAGE_CHUNK","messageId":"m","delta":"a"}`, vRaw,
			`{"type":"TEXT_MESSAGE_CHUNK","delta":"b"}`, vFinish}, "", 0},
		{"META does not close a chunk stream", []string{vStart, `{"type":"TEXT_MESSAGE_CHUNK","messageId":"m","delta":"a"}`, vMeta,
			`{"type":"TEXT_MESSAGE_CHUNK","delta":"b"}`, vFinish}, "", 0},
		{"CUSTOM closes a chunk stream", []string{vStart, `{"type":"TEXT_MESSAGE_CHUNK","messageId":"m","delta":"a"}`, vCustom,
			`{"type":"TEXT_MESSAGE_CHUNK","delta":"b"}`}, RuleChunkMissingID, 3},
		{"an event of another lane does not close it", []string{vStart, `{"type":"TEXT_MESSAGE_CHUNK","messageId":"m","delta":"a"}`,
			`{"type":"CUSTOM","name":"n","value":1,"subagentRunId":"a"}`, `{"type":"TEXT_MESSAGE_CHUNK","delta":"b"}`, vFinish}, "", 0},
		{"an end event finds a chunk stream already closed", []string{vStart, `{"type":"TEXT_MESSAGE_CHUNK","messageId":"m","delta":"a"}`, vTE}, RuleEndWithoutStart, 2},
		{"a chunk of another kind closes the stream", []string{vStart, `{"type":"TEXT_MESSAGE_CHUNK","messageId":"m","delta":"a"}`,
			`{"type":"TOOL_CALL_CHUNK","toolCallId":"c","toolCallName":"f"}`, `{"type":"TEXT_MESSAGE_CHUNK","delta":"b"}`}, RuleChunkMissingID, 3},
		{"a chunk opening an id the triad holds open", []string{vStart, vTS, `{"type":"TEXT_MESSAGE_CHUNK","messageId":"m","delta":"a"}`}, RuleAlreadyOpen, 2},
		{"a chunk stream per lane", []string{vStart, vSubStart, `{"type":"TEXT_MESSAGE_CHUNK","messageId":"m1","delta":"a"}`,
			`{"type":"TEXT_MESSAGE_CHUNK","messageId":"m2","delta":"a","subagentRunId":"s1"}`,
			`{"type":"TEXT_MESSAGE_CHUNK","delta":"b","subagentRunId":"s1"}`,
			`{"type":"TEXT_MESSAGE_CHUNK","messageId":"m1","delta":"b"}`, vSubEnd, vFinish}, "", 0},
		{"an untagged id-less chunk with two lanes open", []string{vStart, `{"type":"TEXT_MESSAGE_CHUNK","messageId":"m1","delta":"a"}`,
			`{"type":"TEXT_MESSAGE_CHUNK","messageId":"m2","delta":"a","subagentRunId":"s1"}`,
			`{"type":"TEXT_MESSAGE_CHUNK","delta":"b"}`}, RuleChunkAmbiguous, 3},
		{"an untagged id-less chunk continues the one open lane", []string{vStart, vSubStart,
			`{"type":"TEXT_MESSAGE_CHUNK","messageId":"m2","delta":"a","subagentRunId":"s1"}`,
			`{"type":"TEXT_MESSAGE_CHUNK","delta":"b"}`, vSubEnd, vFinish}, "", 0},
		{"a subagent's end closes its lane", []string{vStart, vSubStart,
			`{"type":"TEXT_MESSAGE_CHUNK","messageId":"m2","delta":"a","subagentRunId":"s1"}`, vSubEnd,
			`{"type":"TEXT_MESSAGE_CHUNK","delta":"b","subagentRunId":"s1"}`}, RuleChunkMissingID, 4},
		{"MESSAGES_SNAPSHOT closes every lane", []string{vStart, `{"type":"TEXT_MESSAGE_CHUNK","messageId":"m","delta":"a"}`,
			`{"type":"MESSAGES_SNAPSHOT","messages":[]}`, `{"type":"TEXT_MESSAGE_CHUNK","delta":"b"}`}, RuleChunkMissingID, 3},
		{"a chunk opened by another subagent", []string{vStart, `{"type":"TEXT_MESSAGE_START","messageId":"m","subagentRunId":"a"}`, vTE,
			`{"type":"TEXT_MESSAGE_CHUNK","messageId":"m","delta":"x","subagentRunId":"b"}`}, RuleAttributionMismatch, 3},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			v := NewVerifier()
			for i, ev := range vEvents(t, tc.events...) {
				err := v.Check(ev)
				if tc.rule != "" && i == tc.at {
					var se *SequenceError
					if !errors.As(err, &se) {
						t.Fatalf("event %d (%s): %v; want a SequenceError breaking %s", i, ev.Type(), err, tc.rule)
					}
					if se.Rule != tc.rule || se.Index != i || se.Type != ev.Type() {
						t.Fatalf("event %d: %+v; want rule %s at %d", i, se, tc.rule, i)
					}
					if !strings.Contains(se.Error(), tc.rule) {
						t.Errorf("Error() = %q lacks the rule", se.Error())
					}
					return
				}
				if err != nil {
					t.Fatalf("event %d (%s): %v", i, ev.Type(), err)
				}
			}
			if tc.rule != "" {
				t.Fatalf("no violation; want %s at %d", tc.rule, tc.at)
			}
		})
	}
}

func TestVerifierSubagentWithoutIDOrName(t *testing.T) {
	// The decoder requires both; a server building events by hand may not.
	v := NewVerifier()
	if err := v.Check(&agui.RunStartedEvent{ThreadID: "t", RunID: "r"}); err != nil {
		t.Fatal(err)
	}
	for _, ev := range []agui.Event{&agui.SubagentStartedEvent{Name: "n"}, &agui.SubagentStartedEvent{SubagentRunID: "s"}} {
		var se *SequenceError
		if err := v.Check(ev); !errors.As(err, &se) || se.Rule != RuleSubagentInvalid {
			t.Errorf("%+v: %v; want %s", ev, err, RuleSubagentInvalid)
		}
	}
}

func TestVerifierRejectedEventChangesNothing(t *testing.T) {
	v := NewVerifier()
	evs := vEvents(t, vStart,
		`{"type":"TEXT_MESSAGE_CHUNK","messageId":"m","delta":"a"}`,
		// Would close the chunk stream, but fails: nothing is open as "x".
		`{"type":"TEXT_MESSAGE_CONTENT","messageId":"x","delta":"b"}`,
		// So the stream is still open and this continues it.
		`{"type":"TEXT_MESSAGE_CHUNK","delta":"c"}`,
		vFinish)
	for i, ev := range evs {
		err := v.Check(ev)
		if (err != nil) != (i == 2) {
			t.Fatalf("event %d: %v", i, err)
		}
	}
}

func TestVerifierOpen(t *testing.T) {
	v := NewVerifier()
	if o := v.Open(); o.Run || len(o.Items) != 0 {
		t.Fatalf("fresh verifier: %+v", o)
	}
	evs := vEvents(t, vStart,
		`{"type":"STEP_STARTED","stepName":"plan"}`,
		vSubStart,
		`{"type":"REASONING_START","messageId":"span","subagentRunId":"s1"}`,
		`{"type":"REASONING_MESSAGE_START","messageId":"rm","role":"reasoning","subagentRunId":"s1"}`,
		`{"type":"TEXT_MESSAGE_START","messageId":"m"}`,
		`{"type":"TOOL_CALL_START","toolCallId":"c","toolCallName":"f","parentMessageId":"m"}`,
		`{"type":"TOOL_CALL_CHUNK","toolCallId":"c2","toolCallName":"g","subagentRunId":"s1"}`,
		`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"x"}`,
	)
	for i, ev := range evs {
		if err := v.Check(ev); err != nil {
			t.Fatalf("event %d: %v", i, err)
		}
	}
	o := v.Open()
	want := []OpenItem{
		{Kind: OpenStep, ID: "plan"},
		{Kind: OpenSubagent, ID: "s1"},
		{Kind: OpenReasoning, ID: "span", SubagentRunID: "s1"},
		{Kind: OpenReasoningMessage, ID: "rm", SubagentRunID: "s1"},
		{Kind: OpenTextMessage, ID: "m"},
		{Kind: OpenToolCall, ID: "c"},
		{Kind: OpenToolCall, ID: "c2", SubagentRunID: "s1", Chunk: true},
	}
	if !o.Run || o.ThreadID != "t" || o.RunID != "r" || len(o.Items) != len(want) {
		t.Fatalf("Open() = %+v", o)
	}
	for i := range want {
		if o.Items[i] != want[i] {
			t.Errorf("item %d = %+v; want %+v", i, o.Items[i], want[i])
		}
	}

	// Closing in reverse order, chunk streams excepted, makes RUN_FINISHED
	// legal.
	for i := len(o.Items) - 1; i >= 0; i-- {
		it := o.Items[i]
		var ev agui.Event
		switch it.Kind {
		case OpenToolCall:
			if it.Chunk {
				continue
			}
			ev = &agui.ToolCallEndEvent{ToolCallID: it.ID}
		case OpenTextMessage:
			ev = &agui.TextMessageEndEvent{MessageID: it.ID}
		case OpenReasoningMessage:
			ev = &agui.ReasoningMessageEndEvent{MessageID: it.ID}
		case OpenReasoning:
			ev = &agui.ReasoningEndEvent{MessageID: it.ID}
		case OpenSubagent:
			ev = &agui.SubagentFinishedEvent{SubagentRunID: it.ID}
		case OpenStep:
			ev = &agui.StepFinishedEvent{StepName: it.ID}
		}
		if err := v.Check(ev); err != nil {
			t.Fatalf("closing %+v: %v", it, err)
		}
	}
	if err := v.Check(&agui.RunFinishedEvent{ThreadID: "t", RunID: "r"}); err != nil {
		t.Fatal(err)
	}
	if o := v.Open(); o.Run || len(o.Items) != 0 {
		t.Fatalf("after RUN_FINISHED: %+v", o)
	}
}

func TestVerifierOpenAfterRunError(t *testing.T) {
	v := NewVerifier()
	for _, ev := range vEvents(t, vStart, vTS, vError) {
		if err := v.Check(ev); err != nil {
			t.Fatal(err)
		}
	}
	if o := v.Open(); o.Run || len(o.Items) != 0 {
		t.Fatalf("after RUN_ERROR: %+v", o)
	}
}
