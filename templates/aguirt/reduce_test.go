package aguirt

import (
	"encoding/json"
	"errors"
	"reflect"
	"runtime"
	"strings"
	"testing"

	agui "github.com/agui-gen/agui-gen/gen/agui"
)

// applyAll applies events written as JSON and returns the messages as one
// JSON array.
func applyAll(t *testing.T, c *Conversation, docs ...string) string {
	t.Helper()
	for i, ev := range vEvents(t, docs...) {
		if err := c.Apply(ev); err != nil {
			t.Fatalf("event %d: %v", i, err)
		}
	}
	c.Sync()
	return messagesJSON(c.Messages)
}

func messagesJSON(msgs []agui.Message) string {
	b := []byte{'['}
	for i, m := range msgs {
		if i > 0 {
			b = append(b, ',')
		}
		b = m.AppendJSON(b)
	}
	return string(append(b, ']'))
}

func sameJSON(t *testing.T, got, want string) {
	t.Helper()
	var g, w any
	if err := json.Unmarshal([]byte(got), &g); err != nil {
		t.Fatalf("%v: %s", err, got)
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatalf("%v: %s", err, want)
	}
	if !reflect.DeepEqual(g, w) {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func TestConversationMessages(t *testing.T) {
	c := new(Conversation)
	got := applyAll(t, c,
		`{"type":"TEXT_MESSAGE_START","messageId":"u","role":"user","name":"ann"}`,
		`{"type":"TEXT_MESSAGE_CONTENT","messageId":"u","delta":"hi"}`,
		`{"type":"TEXT_MESSAGE_END","messageId":"u"}`,
		`{"type":"TEXT_MESSAGE_START","messageId":"s","role":"system"}`,
		`{"type":"TEXT_MESSAGE_CONTENT","messageId":"s","delta":"be nice"}`,
		`{"type":"TEXT_MESSAGE_START","messageId":"d","role":"developer","subagentRunId":"sa"}`,
		`{"type":"TEXT_MESSAGE_START","messageId":"a"}`,
		`{"type":"TEXT_MESSAGE_CONTENT","messageId":"a","delta":"Hel"}`,
		`{"type":"TEXT_MESSAGE_CONTENT","messageId":"a","delta":"lo"}`,
		`{"type":"TEXT_MESSAGE_END","messageId":"a"}`,
		`{"type":"TOOL_CALL_START","toolCallId":"c1","toolCallName":"search","parentMessageId":"a"}`,
		`{"type":"TOOL_CALL_ARGS","toolCallId":"c1","delta":"{\"q\":"}`,
		`{"type":"TOOL_CALL_ARGS","toolCallId":"c1","delta":"1}"}`,
		`{"type":"TOOL_CALL_END","toolCallId":"c1"}`,
		`{"type":"TOOL_CALL_START","toolCallId":"c2","toolCallName":"lookup"}`,
		`{"type":"TOOL_CALL_END","toolCallId":"c2"}`,
		`{"type":"TOOL_CALL_START","toolCallId":"c1","toolCallName":"search","parentMessageId":"a"}`,
		`{"type":"TOOL_CALL_ARGS","toolCallId":"c1","delta":" "}`,
		`{"type":"TOOL_CALL_RESULT","messageId":"t1","toolCallId":"c1","content":[{"type":"text","text":"found"}],"subagentRunId":"sa"}`,
		`{"type":"REASONING_START","messageId":"span"}`,
		`{"type":"REASONING_MESSAGE_START","messageId":"r","role":"reasoning"}`,
		`{"type":"REASONING_MESSAGE_CONTENT","messageId":"r","delta":"hmm"}`,
		`{"type":"REASONING_MESSAGE_END","messageId":"r"}`,
		`{"type":"REASONING_END","messageId":"span"}`,
		`{"type":"REASONING_ENCRYPTED_VALUE","subtype":"message","entityId":"r","encryptedValue":"e1","encryptedValueType":"sig"}`,
		`{"type":"REASONING_ENCRYPTED_VALUE","subtype":"tool-call","entityId":"c2","encryptedValue":"e2"}`,
	)
	sameJSON(t, got, `[
		{"id":"u","role":"user","name":"ann","content":"hi"},
		{"id":"s","role":"system","content":"be nice"},
		{"id":"d","role":"developer","content":"","subagentRunId":"sa"},
		{"id":"a","role":"assistant","content":"Hello","toolCalls":[{"id":"c1","type":"function","function":{"name":"search","arguments":"{\"q\":1} "}}]},
		{"id":"c2","role":"assistant","toolCalls":[{"id":"c2","type":"function","function":{"name":"lookup","arguments":""},"encryptedValue":"e2"}]},
		{"id":"t1","role":"tool","toolCallId":"c1","content":[{"type":"text","text":"found"}],"subagentRunId":"sa"},
		{"id":"r","role":"reasoning","content":"hmm","encryptedValue":"e1","encryptedValueType":"sig"}]`)
	if len(c.Warnings) != 0 {
		t.Errorf("warnings %q", c.Warnings)
	}
}

func TestConversationChunks(t *testing.T) {
	c := new(Conversation)
	got := applyAll(t, c,
		`{"type":"TEXT_MESSAGE_CHUNK","messageId":"a","role":"assistant","delta":"He","metadata":{"k":1}}`,
		`{"type":"RAW","event":{}}`,
		`{"type":"TEXT_MESSAGE_CHUNK","delta":"llo"}`,
		`{"type":"TOOL_CALL_CHUNK","toolCallId":"c","toolCallName":"f","parentMessageId":"a","delta":"{"}`,
		`{"type":"TOOL_CALL_CHUNK","delta":"}"}`,
		`{"type":"REASONING_MESSAGE_CHUNK","messageId":"r","delta":"x","subagentRunId":"s"}`,
		`{"type":"REASONING_MESSAGE_CHUNK","delta":"y","subagentRunId":"s"}`,
		`{"type":"TEXT_MESSAGE_CHUNK","messageId":"u","role":"user","delta":"q"}`,
	)
	sameJSON(t, got, `[
		{"id":"a","role":"assistant","content":"Hello","metadata":{"k":1},"toolCalls":[{"id":"c","type":"function","function":{"name":"f","arguments":"{}"}}]},
		{"id":"r","role":"reasoning","content":"xy","subagentRunId":"s"},
		{"id":"u","role":"user","content":"q"}]`)

	var se *SequenceError
	err := c.Apply(vEvents(t, `{"type":"CUSTOM","name":"n","value":1}`)[0])
	if err == nil {
		err = c.Apply(vEvents(t, `{"type":"TEXT_MESSAGE_CHUNK","delta":"z"}`)[0])
	}
	if !errors.As(err, &se) || se.Rule != RuleChunkMissingID || se.Index != 9 {
		t.Errorf("a continuation with nothing open: %v", err)
	}
}

func TestConversationSnapshotKeepsActivities(t *testing.T) {
	c := new(Conversation)
	applyAll(t, c,
		`{"type":"ACTIVITY_SNAPSHOT","messageId":"act0","activityType":"plan","content":{"n":0}}`,
		`{"type":"TEXT_MESSAGE_START","messageId":"a"}`,
		`{"type":"ACTIVITY_SNAPSHOT","messageId":"act1","activityType":"search","content":{"n":1}}`,
		`{"type":"TEXT_MESSAGE_START","messageId":"b"}`,
		`{"type":"TEXT_MESSAGE_START","messageId":"gone"}`,
		`{"type":"ACTIVITY_SNAPSHOT","messageId":"act2","activityType":"search","content":{"n":2}}`,
	)
	got := applyAll(t, c, `{"type":"MESSAGES_SNAPSHOT","messages":[
		{"id":"b","role":"assistant","content":"B"},{"id":"a","role":"assistant","content":"A"},{"id":"c","role":"user","content":"C"}]}`)
	sameJSON(t, got, `[
		{"id":"act0","role":"activity","activityType":"plan","content":{"n":0}},
		{"id":"b","role":"assistant","content":"B"},
		{"id":"act2","role":"activity","activityType":"search","content":{"n":2}},
		{"id":"a","role":"assistant","content":"A"},
		{"id":"act1","role":"activity","activityType":"search","content":{"n":1}},
		{"id":"c","role":"user","content":"C"}]`)
	// The index follows the replacement.
	got = applyAll(t, c, `{"type":"TEXT_MESSAGE_START","messageId":"a"}`, `{"type":"TEXT_MESSAGE_CONTENT","messageId":"a","delta":"!"}`)
	if !strings.Contains(got, `"content":"A!"`) || strings.Count(got, `"id":"a"`) != 1 {
		t.Errorf("after the snapshot: %s", got)
	}
}

func TestConversationActivity(t *testing.T) {
	c := new(Conversation)
	got := applyAll(t, c,
		`{"type":"ACTIVITY_SNAPSHOT","messageId":"x","activityType":"search","content":{"q":"a","hits":[]}}`,
		`{"type":"ACTIVITY_DELTA","messageId":"x","activityType":"search","patch":[{"op":"add","path":"/hits/-","value":1}]}`,
		`{"type":"ACTIVITY_DELTA","messageId":"x","activityType":"search","patch":[{"op":"add","path":"/hits/-","value":2},{"op":"remove","path":"/nope"}]}`,
		`{"type":"ACTIVITY_SNAPSHOT","messageId":"x","activityType":"other","content":{"z":1},"replace":false}`,
		`{"type":"ACTIVITY_DELTA","messageId":"missing","activityType":"search","patch":[]}`,
	)
	sameJSON(t, got, `[{"id":"x","role":"activity","activityType":"search","content":{"q":"a","hits":[1]}}]`)
	if len(c.Warnings) != 2 || !strings.Contains(c.Warnings[0], "activity patch") || !strings.Contains(c.Warnings[1], "missing") {
		t.Errorf("warnings %q", c.Warnings)
	}
	got = applyAll(t, c, `{"type":"ACTIVITY_SNAPSHOT","messageId":"x","activityType":"other","content":{"z":1}}`)
	sameJSON(t, got, `[{"id":"x","role":"activity","activityType":"other","content":{"z":1}}]`)
}

func TestConversationState(t *testing.T) {
	var warned []string
	c := &Conversation{OnWarning: func(w string) { warned = append(warned, w) }}
	applyAll(t, c, `{"type":"STATE_DELTA","delta":[{"op":"add","path":"/a","value":1}]}`)
	sameJSON(t, string(c.State), `{"a":1}`)
	applyAll(t, c, `{"type":"STATE_DELTA","delta":[{"op":"add","path":"/b","value":"<&>"},{"op":"test","path":"/a","value":2}]}`)
	sameJSON(t, string(c.State), `{"a":1}`)
	applyAll(t, c, `{"type":"STATE_SNAPSHOT","snapshot":[1,2,3]}`,
		`{"type":"STATE_DELTA","delta":[{"op":"remove","path":"/-1"}]}`,
		`{"type":"STATE_DELTA","delta":[{"op":"move","from":"/0","path":"/2"},{"op":"copy","from":"/0","path":"/-"}]}`)
	sameJSON(t, string(c.State), `[2,3,1,2]`)
	applyAll(t, c, `{"type":"STATE_SNAPSHOT","snapshot":"text"}`, `{"type":"STATE_DELTA","delta":[{"op":"add","path":"/a","value":1}]}`)
	sameJSON(t, string(c.State), `"text"`)
	if len(warned) != 3 || len(c.Warnings) != 3 || !strings.HasPrefix(warned[0], "Failed to apply state patch") {
		t.Errorf("warnings %q, %q", warned, c.Warnings)
	}
	applyAll(t, c, `{"type":"STATE_SNAPSHOT","snapshot":{"s":"<&>"}}`, `{"type":"STATE_DELTA","delta":[{"op":"add","path":"/t","value":"<&>"}]}`)
	if string(c.State) != `{"s":"<&>","t":"<&>"}` {
		t.Errorf("state %s", c.State)
	}
}

func TestConversationUnknownTargets(t *testing.T) {
	c := new(Conversation)
	applyAll(t, c,
		`{"type":"TEXT_MESSAGE_CONTENT","messageId":"nope","delta":"x"}`,
		`{"type":"TOOL_CALL_ARGS","toolCallId":"nope","delta":"x"}`,
		`{"type":"REASONING_ENCRYPTED_VALUE","subtype":"message","entityId":"nope","encryptedValue":"x"}`,
		`{"type":"REASONING_ENCRYPTED_VALUE","subtype":"tool-call","entityId":"nope","encryptedValue":"x"}`,
		`{"type":"TOOL_CALL_RESULT","messageId":"t","toolCallId":"c","content":"x"}`,
		`{"type":"TEXT_MESSAGE_CONTENT","messageId":"t","delta":"x"}`,
	)
	if len(c.Messages) != 1 || len(c.Warnings) != 5 {
		t.Errorf("messages %s, warnings %q", messagesJSON(c.Messages), c.Warnings)
	}
}

func TestConversationFromOutside(t *testing.T) {
	// Messages set, appended to and replaced by the caller between events.
	c := NewConversation([]agui.Message{&agui.UserMessage{BaseMessage: agui.BaseMessage{ID: "u"}, Content: agui.TextContent("q")}}, nil)
	applyAll(t, c, `{"type":"TEXT_MESSAGE_START","messageId":"a"}`)
	c.Messages = append(c.Messages, &agui.AssistantMessage{BaseMessage: agui.BaseMessage{ID: "b"}})
	applyAll(t, c, `{"type":"TEXT_MESSAGE_CONTENT","messageId":"b","delta":"x"}`)
	c.Messages[1] = &agui.AssistantMessage{BaseMessage: agui.BaseMessage{ID: "z"}}
	got := applyAll(t, c, `{"type":"TEXT_MESSAGE_CONTENT","messageId":"z","delta":"y"}`,
		`{"type":"TEXT_MESSAGE_START","messageId":"u","role":"user"}`,
		`{"type":"TEXT_MESSAGE_CONTENT","messageId":"u","delta":"!"}`)
	sameJSON(t, got, `[{"id":"u","role":"user","content":"q!"},{"id":"z","role":"assistant","content":"y"},{"id":"b","role":"assistant","content":"x"}]`)
	if len(c.Warnings) != 0 {
		t.Errorf("warnings %q", c.Warnings)
	}
}

func TestMergeMetadata(t *testing.T) {
	cases := []struct{ dst, src, want string }{
		{``, `{"a":1}`, `{"a":1}`},
		{`{"a":1}`, ``, `{"a":1}`},
		{`{"a":1,"b":{"x":1},"c":[1,2]}`, `{"b":{"y":2},"d":null,"a":3,"c":[3]}`, `{"a":3,"b":{"y":2},"c":[3],"d":null}`},
		{`{"k/<>":1}`, `{"k/<>":2}`, `{"k/\u003c\u003e":2}`},
	}
	for _, c := range cases {
		got, err := MergeMetadata(agui.Metadata(c.dst), agui.Metadata(c.src))
		if err != nil || string(got) != c.want {
			t.Errorf("MergeMetadata(%s, %s) = %s, %v; want %s", c.dst, c.src, got, err, c.want)
		}
	}
	if _, err := MergeMetadata(agui.Metadata(`[1]`), agui.Metadata(`{"a":1}`)); err == nil {
		t.Error("merging into an array: no error")
	}
}

func TestApplyJSONPatch(t *testing.T) {
	doc := json.RawMessage(`{"a":[1,2]}`)
	ops := func(s string) agui.JSONPatch {
		ev, err := agui.UnmarshalEvent([]byte(`{"type":"STATE_DELTA","delta":` + s + `}`))
		if err != nil {
			t.Fatal(err)
		}
		return ev.(*agui.StateDeltaEvent).Delta
	}
	if out, err := ApplyJSONPatch(doc, ops(`[{"op":"remove","path":"/a/0","value":"leftover"}]`)); err != nil || string(out) != `{"a":[2]}` {
		t.Errorf("remove with a leftover member: %s, %v", out, err)
	}
	if out, err := ApplyJSONPatch(doc, ops(`[{"op":"replace","path":"/a/0","value":9},{"op":"remove","path":"/a/5"}]`)); err == nil || string(out) != string(doc) {
		t.Errorf("a failing patch: %s, %v", out, err)
	}
	if _, err := ApplyJSONPatch(doc, ops(`[{"op":"remove","path":"/a/-1"}]`)); err == nil {
		t.Error("a negative index applied")
	}
	if out, err := ApplyJSONPatch(doc, nil); err != nil || string(out) != string(doc) {
		t.Errorf("an empty patch: %s, %v", out, err)
	}
	if _, err := ApplyJSONPatch(nil, ops(`[{"op":"add","path":"/a","value":1}]`)); err == nil {
		t.Error("patching nothing: no error")
	}
}

// TestDeltasGatherUntilRead: fragments gather without copying the message
// each time; Sync, and any other event, writes them back.
func TestDeltasGatherUntilRead(t *testing.T) {
	c := new(Conversation)
	for i, ev := range vEvents(t,
		`{"type":"TEXT_MESSAGE_START","messageId":"a"}`,
		`{"type":"TEXT_MESSAGE_CONTENT","messageId":"a","delta":"x"}`,
		`{"type":"TEXT_MESSAGE_CONTENT","messageId":"a","delta":"y"}`,
	) {
		if err := c.Apply(ev); err != nil {
			t.Fatalf("event %d: %v", i, err)
		}
	}
	if got := messagesJSON(c.Messages); strings.Contains(got, "xy") {
		t.Errorf("deltas were copied into the message before Sync: %s", got)
	}
	if got := applyAll(t, c, `{"type":"TEXT_MESSAGE_END","messageId":"a"}`); !strings.Contains(got, `"content":"xy"`) {
		t.Errorf("after the end event: %s", got)
	}
}

func TestGatheringSurvivesOtherEvents(t *testing.T) {
	c := new(Conversation)
	got := applyAll(t, c,
		`{"type":"TEXT_MESSAGE_START","messageId":"a"}`,
		`{"type":"TEXT_MESSAGE_CONTENT","messageId":"a","delta":"x"}`,
		`{"type":"META","metaType":"note","payload":{"text":"n"}}`,
		`{"type":"TEXT_MESSAGE_CONTENT","messageId":"a","delta":"y"}`,
		// Two tool calls on one message: the second moves the first in
		// memory, and its arguments must follow.
		`{"type":"TOOL_CALL_START","toolCallId":"c1","toolCallName":"f","parentMessageId":"a"}`,
		`{"type":"TOOL_CALL_ARGS","toolCallId":"c1","delta":"{\"a\":"}`,
		`{"type":"TOOL_CALL_START","toolCallId":"c2","toolCallName":"g","parentMessageId":"a"}`,
		`{"type":"TOOL_CALL_ARGS","toolCallId":"c1","delta":"1}"}`,
		`{"type":"TOOL_CALL_ARGS","toolCallId":"c2","delta":"{}"}`,
		`{"type":"TOOL_CALL_END","toolCallId":"c1"}`,
		`{"type":"TOOL_CALL_END","toolCallId":"c2"}`,
		`{"type":"TEXT_MESSAGE_CONTENT","messageId":"a","delta":"z"}`)
	sameJSON(t, got, `[{"id":"a","role":"assistant","content":"xyz","toolCalls":[
		{"id":"c1","type":"function","function":{"name":"f","arguments":"{\"a\":1}"}},
		{"id":"c2","type":"function","function":{"name":"g","arguments":"{}"}}]}]`)

	// Text the caller sets between events is what the next delta extends.
	*c.Messages[0].(*agui.AssistantMessage).Content = "edited "
	got = applyAll(t, c, `{"type":"TEXT_MESSAGE_CONTENT","messageId":"a","delta":"w"}`)
	if !strings.Contains(got, `"content":"edited w"`) {
		t.Errorf("after an edit from outside: %s", got)
	}
}

// TestInterleavedStreamIsLinear: a message streamed in 4,000 deltas with
// another event after each costs memory in its length, not its square
// (copying the text at each event would allocate ~500 times its length).
func TestInterleavedStreamIsLinear(t *testing.T) {
	const deltas = 4000
	delta := strings.Repeat("x", 64)
	events := []agui.Event{&agui.TextMessageStartEvent{MessageID: "a"}}
	for range deltas {
		events = append(events, &agui.TextMessageContentEvent{MessageID: "a", Delta: delta},
			&agui.MetaEvent{Payload: &agui.NotePayload{Text: "n"}})
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	c := new(Conversation)
	for _, ev := range events {
		if err := c.Apply(ev); err != nil {
			t.Fatal(err)
		}
	}
	c.Sync()
	runtime.ReadMemStats(&after)
	text := deltas * len(delta)
	if got := len(*c.Messages[0].(*agui.AssistantMessage).Content); got != text {
		t.Fatalf("%d bytes of text, want %d", got, text)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 8*uint64(text) {
		t.Errorf("allocated %d bytes for %d bytes of text", alloc, text)
	}
}
