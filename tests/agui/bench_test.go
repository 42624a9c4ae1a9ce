package agui_test

// Benchmarks of gen/agui's reflection-free encoder and one-pass decoder
// against encoding/json on hand-written, tag-annotated structs carrying the
// same data. TestBenchMixRoundTrips proves the two sides are equivalent.
//
// Run, and compare with benchstat pivoting on the impl key:
//
//	go test ./tests/agui/ -run XXX -bench . -benchmem -count 6 > /tmp/bench.txt
//	benchstat -col /impl /tmp/bench.txt
//	benchstat -col '/impl@(encoding_json agui)' -filter '/impl:(encoding_json OR agui)' /tmp/bench.txt
//
// The second form puts the fastest encoding/json baseline first, so the
// delta column reads as agui against it.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agui-gen/agui-gen/gen/agui"
)

func ptr[T any](v T) *T { return &v }

// Identifiers and payloads shared by both sides of the mix.
const (
	mixThread    = "thread_7f3c2a9e"
	mixRun       = "run_01HZX4K9QW8E2R"
	mixUserMsg   = "msg_user_01"
	mixAsstMsg   = "msg_asst_01"
	mixAsstMsg2  = "msg_asst_02"
	mixToolMsg   = "msg_tool_01"
	mixReasonID  = "rs_01"
	mixReasonMsg = "rs_msg_01"
	mixToolCall  = "call_a1b2c3d4"
	mixToolName  = "get_weather"
	mixTS        = int64(1_718_900_000_000) // milliseconds since the epoch

	mixQuestion    = "What's the weather in Zürich right now?"
	mixReasoning   = "The user wants current conditions for Zürich; call get_weather with unit=celsius."
	mixDelta1      = "Let me check "
	mixDelta2      = "the weather in Zürich… ☀️"
	mixArgs1       = `{"city":"Zür`
	mixArgs2       = `ich","unit":"celsius"}`
	mixArgs        = mixArgs1 + mixArgs2
	mixToolResult  = `{"tempC":21,"sky":"clear","wind":"6 km/h"}`
	mixAnswer1     = "It's 21 °C and clear"
	mixAnswer2     = " — enjoy the sunshine! 😀"
	mixAnswerFirst = mixDelta1 + mixDelta2
	mixSnapshot    = `{"city":"Zürich","step":"tool","toolCalls":1,"units":{"temp":"C"}}`
)

// benchMixEvents builds the mix as gen/agui values: the events of one
// typical run, in order.
func benchMixEvents() []agui.Event {
	ts := func(i int64) agui.BaseEvent { return agui.BaseEvent{Timestamp: ptr(mixTS + i)} }
	assistant := agui.TextMessageRoleAssistant
	return []agui.Event{
		&agui.RunStartedEvent{BaseEvent: ts(0), ThreadID: mixThread, RunID: mixRun, ProtocolVersion: ptr(agui.ProtocolVersion)},
		&agui.StepStartedEvent{BaseEvent: ts(1), StepName: "plan"},
		&agui.ReasoningStartEvent{BaseEvent: ts(2), MessageID: mixReasonID},
		&agui.ReasoningMessageStartEvent{BaseEvent: ts(3), MessageID: mixReasonMsg},
		&agui.ReasoningMessageContentEvent{BaseEvent: ts(4), MessageID: mixReasonMsg, Delta: mixReasoning},
		&agui.ReasoningMessageEndEvent{BaseEvent: ts(5), MessageID: mixReasonMsg},
		&agui.ReasoningEndEvent{BaseEvent: ts(6), MessageID: mixReasonID},
		&agui.StepFinishedEvent{BaseEvent: ts(7), StepName: "plan"},
		&agui.TextMessageStartEvent{BaseEvent: ts(8), MessageID: mixAsstMsg, Role: &assistant},
		&agui.TextMessageContentEvent{BaseEvent: ts(9), MessageID: mixAsstMsg, Delta: mixDelta1},
		&agui.TextMessageContentEvent{BaseEvent: ts(10), MessageID: mixAsstMsg, Delta: mixDelta2},
		&agui.TextMessageEndEvent{BaseEvent: ts(11), MessageID: mixAsstMsg},
		&agui.ToolCallStartEvent{BaseEvent: ts(12), ToolCallID: mixToolCall, ToolCallName: mixToolName, ParentMessageID: ptr(mixAsstMsg)},
		&agui.ToolCallArgsEvent{BaseEvent: ts(13), ToolCallID: mixToolCall, Delta: mixArgs1},
		&agui.ToolCallArgsEvent{BaseEvent: ts(14), ToolCallID: mixToolCall, Delta: mixArgs2},
		&agui.ToolCallEndEvent{BaseEvent: ts(15), ToolCallID: mixToolCall},
		&agui.ToolCallResultEvent{BaseEvent: ts(16), MessageID: mixToolMsg, ToolCallID: mixToolCall, Content: agui.TextContent(mixToolResult), Role: ptr("tool")},
		&agui.StateSnapshotEvent{BaseEvent: ts(17), Snapshot: agui.State(mixSnapshot)},
		&agui.StateDeltaEvent{BaseEvent: ts(18), Delta: agui.JSONPatch{
			&agui.ReplaceOperation{Path: "/step", Value: json.RawMessage(`"answer"`)},
			&agui.AddOperation{Path: "/lastTool", Value: json.RawMessage(`{"name":"get_weather","ok":true}`)},
		}},
		&agui.TextMessageStartEvent{BaseEvent: ts(19), MessageID: mixAsstMsg2, Role: &assistant},
		&agui.TextMessageContentEvent{BaseEvent: ts(20), MessageID: mixAsstMsg2, Delta: mixAnswer1},
		&agui.TextMessageContentEvent{BaseEvent: ts(21), MessageID: mixAsstMsg2, Delta: mixAnswer2},
		&agui.TextMessageEndEvent{BaseEvent: ts(22), MessageID: mixAsstMsg2},
		&agui.MessagesSnapshotEvent{BaseEvent: ts(23), Messages: []agui.Message{
			&agui.UserMessage{BaseMessage: agui.BaseMessage{ID: mixUserMsg}, Content: agui.TextContent(mixQuestion)},
			&agui.AssistantMessage{BaseMessage: agui.BaseMessage{ID: mixAsstMsg}, Content: ptr(mixAnswerFirst), ToolCalls: []agui.ToolCall{
				{ID: mixToolCall, Function: agui.FunctionCall{Name: mixToolName, Arguments: mixArgs}},
			}},
			&agui.ToolMessage{ID: mixToolMsg, Content: agui.TextContent(mixToolResult), ToolCallID: mixToolCall},
		}},
		&agui.RunFinishedEvent{BaseEvent: ts(24), ThreadID: mixThread, RunID: mixRun,
			Outcome: &agui.RunFinishedSuccessOutcome{},
			Usage: []agui.TokenUsage{{
				Provider: ptr("openai"), Model: ptr("gpt-4o-2024-08-06"),
				InputTokens: ptr(int64(1412)), OutputTokens: ptr(int64(187)), TotalTokens: ptr(int64(1599)),
				CachedInputTokens: ptr(int64(1024)),
			}},
		},
	}
}

// The encoding/json baseline: plain structs, one per event type in the mix,
// written the way a hand-rolled AG-UI binding would be. Optional members
// are pointers with omitempty, any-JSON is json.RawMessage, and the
// BaseEvent/Attributable mixins are embedded structs, which encoding/json
// flattens. Unions are flattened too (a message is one struct with every
// role's members; a patch operation one struct with every op's members),
// and content, a string-or-parts union in AG-UI, is a plain string because
// the mix carries text only; both simplifications favour encoding/json.

type JSONBaseEvent struct {
	Type      string          `json:"type"`
	Timestamp *int64          `json:"timestamp,omitempty"`
	RawEvent  json.RawMessage `json:"rawEvent,omitempty"`
	Metadata  json.RawMessage `json:"metadata,omitempty"`
}

type JSONAttributable struct {
	SubagentRunID *string `json:"subagentRunId,omitempty"`
}

type jsonRunStarted struct {
	JSONBaseEvent
	ThreadID        string          `json:"threadId"`
	RunID           string          `json:"runId"`
	ProtocolVersion *string         `json:"protocolVersion,omitempty"`
	ParentRunID     *string         `json:"parentRunId,omitempty"`
	Input           json.RawMessage `json:"input,omitempty"` // RunAgentInput; not in the mix
}

type jsonStepStarted struct {
	JSONBaseEvent
	JSONAttributable
	StepName string `json:"stepName"`
}

type jsonStepFinished struct {
	JSONBaseEvent
	JSONAttributable
	StepName string `json:"stepName"`
}

type jsonReasoningStart struct {
	JSONBaseEvent
	JSONAttributable
	MessageID string `json:"messageId"`
}

type jsonReasoningMessageStart struct {
	JSONBaseEvent
	JSONAttributable
	MessageID string `json:"messageId"`
	Role      string `json:"role"` // always "reasoning"
}

type jsonReasoningMessageContent struct {
	JSONBaseEvent
	JSONAttributable
	MessageID string `json:"messageId"`
	Delta     string `json:"delta"`
}

type jsonReasoningMessageEnd struct {
	JSONBaseEvent
	JSONAttributable
	MessageID string `json:"messageId"`
}

type jsonReasoningEnd struct {
	JSONBaseEvent
	JSONAttributable
	MessageID string `json:"messageId"`
}

type jsonTextMessageStart struct {
	JSONBaseEvent
	JSONAttributable
	MessageID string  `json:"messageId"`
	Role      *string `json:"role,omitempty"`
	Name      *string `json:"name,omitempty"`
}

type jsonTextMessageContent struct {
	JSONBaseEvent
	JSONAttributable
	MessageID string `json:"messageId"`
	Delta     string `json:"delta"`
}

type jsonTextMessageEnd struct {
	JSONBaseEvent
	JSONAttributable
	MessageID string `json:"messageId"`
}

type jsonToolCallStart struct {
	JSONBaseEvent
	JSONAttributable
	ToolCallID      string  `json:"toolCallId"`
	ToolCallName    string  `json:"toolCallName"`
	ParentMessageID *string `json:"parentMessageId,omitempty"`
}

type jsonToolCallArgs struct {
	JSONBaseEvent
	JSONAttributable
	ToolCallID string `json:"toolCallId"`
	Delta      string `json:"delta"`
}

type jsonToolCallEnd struct {
	JSONBaseEvent
	JSONAttributable
	ToolCallID string `json:"toolCallId"`
}

type jsonToolCallResult struct {
	JSONBaseEvent
	JSONAttributable
	MessageID  string  `json:"messageId"`
	ToolCallID string  `json:"toolCallId"`
	Content    string  `json:"content"`
	Role       *string `json:"role,omitempty"`
}

type jsonStateSnapshot struct {
	JSONBaseEvent
	JSONAttributable
	Snapshot json.RawMessage `json:"snapshot"`
}

type jsonPatchOp struct {
	Op    string          `json:"op"`
	From  *string         `json:"from,omitempty"`
	Path  string          `json:"path"`
	Value json.RawMessage `json:"value,omitempty"`
}

type jsonStateDelta struct {
	JSONBaseEvent
	JSONAttributable
	Delta []jsonPatchOp `json:"delta"`
}

type jsonFunctionCall struct {
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

type jsonToolCall struct {
	ID                 string           `json:"id"`
	Type               string           `json:"type"` // always "function"
	Function           jsonFunctionCall `json:"function"`
	EncryptedValue     *string          `json:"encryptedValue,omitempty"`
	EncryptedValueType *string          `json:"encryptedValueType,omitempty"`
	Metadata           json.RawMessage  `json:"metadata,omitempty"`
}

type jsonMessage struct {
	JSONAttributable
	ID                 string          `json:"id"`
	Role               string          `json:"role"`
	Name               *string         `json:"name,omitempty"`
	Content            *string         `json:"content,omitempty"`
	ToolCalls          []jsonToolCall  `json:"toolCalls,omitempty"`
	ToolCallID         *string         `json:"toolCallId,omitempty"`
	Error              *string         `json:"error,omitempty"`
	ActivityType       *string         `json:"activityType,omitempty"`
	EncryptedValue     *string         `json:"encryptedValue,omitempty"`
	EncryptedValueType *string         `json:"encryptedValueType,omitempty"`
	Metadata           json.RawMessage `json:"metadata,omitempty"`
}

type jsonMessagesSnapshot struct {
	JSONBaseEvent
	Messages []jsonMessage `json:"messages"`
}

type jsonOutcome struct {
	Type               string          `json:"type"`
	PendingToolCallIDs []string        `json:"pendingToolCallIds,omitempty"`
	Interrupts         json.RawMessage `json:"interrupts,omitempty"`
}

type jsonTokenUsage struct {
	Provider              *string `json:"provider,omitempty"`
	Model                 *string `json:"model,omitempty"`
	InputTokens           *int64  `json:"inputTokens,omitempty"`
	OutputTokens          *int64  `json:"outputTokens,omitempty"`
	TotalTokens           *int64  `json:"totalTokens,omitempty"`
	ReasoningTokens       *int64  `json:"reasoningTokens,omitempty"`
	CachedInputTokens     *int64  `json:"cachedInputTokens,omitempty"`
	CacheWriteInputTokens *int64  `json:"cacheWriteInputTokens,omitempty"`
}

type jsonRunFinished struct {
	JSONBaseEvent
	ThreadID string           `json:"threadId"`
	RunID    string           `json:"runId"`
	Result   json.RawMessage  `json:"result,omitempty"`
	Outcome  *jsonOutcome     `json:"outcome,omitempty"`
	Usage    []jsonTokenUsage `json:"usage,omitempty"`
}

// benchMixBaseline builds the same mix as benchMixEvents, independently, as
// baseline structs (pointers, as json.Marshal would be handed them).
func benchMixBaseline() []any {
	b := func(typ string, i int64) JSONBaseEvent {
		return JSONBaseEvent{Type: typ, Timestamp: ptr(mixTS + i)}
	}
	return []any{
		&jsonRunStarted{JSONBaseEvent: b("RUN_STARTED", 0), ThreadID: mixThread, RunID: mixRun, ProtocolVersion: ptr("1.1")},
		&jsonStepStarted{JSONBaseEvent: b("STEP_STARTED", 1), StepName: "plan"},
		&jsonReasoningStart{JSONBaseEvent: b("REASONING_START", 2), MessageID: mixReasonID},
		&jsonReasoningMessageStart{JSONBaseEvent: b("REASONING_MESSAGE_START", 3), MessageID: mixReasonMsg, Role: "reasoning"},
		&jsonReasoningMessageContent{JSONBaseEvent: b("REASONING_MESSAGE_CONTENT", 4), MessageID: mixReasonMsg, Delta: mixReasoning},
		&jsonReasoningMessageEnd{JSONBaseEvent: b("REASONING_MESSAGE_END", 5), MessageID: mixReasonMsg},
		&jsonReasoningEnd{JSONBaseEvent: b("REASONING_END", 6), MessageID: mixReasonID},
		&jsonStepFinished{JSONBaseEvent: b("STEP_FINISHED", 7), StepName: "plan"},
		&jsonTextMessageStart{JSONBaseEvent: b("TEXT_MESSAGE_START", 8), MessageID: mixAsstMsg, Role: ptr("assistant")},
		&jsonTextMessageContent{JSONBaseEvent: b("TEXT_MESSAGE_CONTENT", 9), MessageID: mixAsstMsg, Delta: mixDelta1},
		&jsonTextMessageContent{JSONBaseEvent: b("TEXT_MESSAGE_CONTENT", 10), MessageID: mixAsstMsg, Delta: mixDelta2},
		&jsonTextMessageEnd{JSONBaseEvent: b("TEXT_MESSAGE_END", 11), MessageID: mixAsstMsg},
		&jsonToolCallStart{JSONBaseEvent: b("TOOL_CALL_START", 12), ToolCallID: mixToolCall, ToolCallName: mixToolName, ParentMessageID: ptr(mixAsstMsg)},
		&jsonToolCallArgs{JSONBaseEvent: b("TOOL_CALL_ARGS", 13), ToolCallID: mixToolCall, Delta: mixArgs1},
		&jsonToolCallArgs{JSONBaseEvent: b("TOOL_CALL_ARGS", 14), ToolCallID: mixToolCall, Delta: mixArgs2},
		&jsonToolCallEnd{JSONBaseEvent: b("TOOL_CALL_END", 15), ToolCallID: mixToolCall},
		&jsonToolCallResult{JSONBaseEvent: b("TOOL_CALL_RESULT", 16), MessageID: mixToolMsg, ToolCallID: mixToolCall, Content: mixToolResult, Role: ptr("tool")},
		&jsonStateSnapshot{JSONBaseEvent: b("STATE_SNAPSHOT", 17), Snapshot: json.RawMessage(mixSnapshot)},
		&jsonStateDelta{JSONBaseEvent: b("STATE_DELTA", 18), Delta: []jsonPatchOp{
			{Op: "replace", Path: "/step", Value: json.RawMessage(`"answer"`)},
			{Op: "add", Path: "/lastTool", Value: json.RawMessage(`{"name":"get_weather","ok":true}`)},
		}},
		&jsonTextMessageStart{JSONBaseEvent: b("TEXT_MESSAGE_START", 19), MessageID: mixAsstMsg2, Role: ptr("assistant")},
		&jsonTextMessageContent{JSONBaseEvent: b("TEXT_MESSAGE_CONTENT", 20), MessageID: mixAsstMsg2, Delta: mixAnswer1},
		&jsonTextMessageContent{JSONBaseEvent: b("TEXT_MESSAGE_CONTENT", 21), MessageID: mixAsstMsg2, Delta: mixAnswer2},
		&jsonTextMessageEnd{JSONBaseEvent: b("TEXT_MESSAGE_END", 22), MessageID: mixAsstMsg2},
		&jsonMessagesSnapshot{JSONBaseEvent: b("MESSAGES_SNAPSHOT", 23), Messages: []jsonMessage{
			{ID: mixUserMsg, Role: "user", Content: ptr(mixQuestion)},
			{ID: mixAsstMsg, Role: "assistant", Content: ptr(mixAnswerFirst), ToolCalls: []jsonToolCall{
				{ID: mixToolCall, Type: "function", Function: jsonFunctionCall{Name: mixToolName, Arguments: mixArgs}},
			}},
			{ID: mixToolMsg, Role: "tool", Content: ptr(mixToolResult), ToolCallID: ptr(mixToolCall)},
		}},
		&jsonRunFinished{JSONBaseEvent: b("RUN_FINISHED", 24), ThreadID: mixThread, RunID: mixRun,
			Outcome: &jsonOutcome{Type: "success"},
			Usage: []jsonTokenUsage{{
				Provider: ptr("openai"), Model: ptr("gpt-4o-2024-08-06"),
				InputTokens: ptr(int64(1412)), OutputTokens: ptr(int64(187)), TotalTokens: ptr(int64(1599)),
				CachedInputTokens: ptr(int64(1024)),
			}},
		},
	}
}

// encodeMix returns the agui encoding of every event, and their total size.
func encodeMix(evs []agui.Event) (docs [][]byte, total int) {
	for _, ev := range evs {
		d := ev.AppendJSON(nil)
		docs = append(docs, d)
		total += len(d)
	}
	return docs, total
}

// decodeBaseline is the encoding/json counterpart of agui.UnmarshalEvent:
// read the type, then unmarshal into the struct it names.
func decodeBaseline(data []byte) (any, error) {
	var probe struct {
		Type string `json:"type"`
	}
	if err := json.Unmarshal(data, &probe); err != nil {
		return nil, err
	}
	var v any
	switch probe.Type {
	case "RUN_STARTED":
		v = new(jsonRunStarted)
	case "RUN_FINISHED":
		v = new(jsonRunFinished)
	case "STEP_STARTED":
		v = new(jsonStepStarted)
	case "STEP_FINISHED":
		v = new(jsonStepFinished)
	case "REASONING_START":
		v = new(jsonReasoningStart)
	case "REASONING_MESSAGE_START":
		v = new(jsonReasoningMessageStart)
	case "REASONING_MESSAGE_CONTENT":
		v = new(jsonReasoningMessageContent)
	case "REASONING_MESSAGE_END":
		v = new(jsonReasoningMessageEnd)
	case "REASONING_END":
		v = new(jsonReasoningEnd)
	case "TEXT_MESSAGE_START":
		v = new(jsonTextMessageStart)
	case "TEXT_MESSAGE_CONTENT":
		v = new(jsonTextMessageContent)
	case "TEXT_MESSAGE_END":
		v = new(jsonTextMessageEnd)
	case "TOOL_CALL_START":
		v = new(jsonToolCallStart)
	case "TOOL_CALL_ARGS":
		v = new(jsonToolCallArgs)
	case "TOOL_CALL_END":
		v = new(jsonToolCallEnd)
	case "TOOL_CALL_RESULT":
		v = new(jsonToolCallResult)
	case "STATE_SNAPSHOT":
		v = new(jsonStateSnapshot)
	case "STATE_DELTA":
		v = new(jsonStateDelta)
	case "MESSAGES_SNAPSHOT":
		v = new(jsonMessagesSnapshot)
	default:
		return nil, fmt.Errorf("baseline: unknown event type %q", probe.Type)
	}
	if err := json.Unmarshal(data, v); err != nil {
		return nil, err
	}
	return v, nil
}

func sameJSONValue(a, b []byte) (string, error) {
	var va, vb any
	if err := json.Unmarshal(a, &va); err != nil {
		return "", err
	}
	if err := json.Unmarshal(b, &vb); err != nil {
		return "", err
	}
	return cmp.Diff(va, vb), nil
}

func TestBenchMixRoundTrips(t *testing.T) {
	evs := benchMixEvents()
	base := benchMixBaseline()
	if len(evs) != len(base) {
		t.Fatalf("mix has %d agui events but %d baseline events", len(evs), len(base))
	}
	docs, total := encodeMix(evs)
	t.Logf("mix: %d events, %d bytes of JSON", len(evs), total)
	for i, ev := range evs {
		t.Run(fmt.Sprintf("%02d_%s", i, ev.Type()), func(t *testing.T) {
			data := docs[i]
			if err := ev.Validate(); err != nil {
				t.Fatalf("built event is invalid: %v\n%s", err, data)
			}

			// agui: decode back and re-encode to the same bytes.
			got, err := agui.UnmarshalEvent(data)
			if err != nil {
				t.Fatalf("UnmarshalEvent: %v\n%s", err, data)
			}
			if err := got.Validate(); err != nil {
				t.Fatalf("decoded event is invalid: %v\n%s", err, data)
			}
			if got.Type() != ev.Type() {
				t.Fatalf("decoded type %s, want %s", got.Type(), ev.Type())
			}
			if re := got.AppendJSON(nil); !bytes.Equal(re, data) {
				t.Fatalf("re-encoding differs:\n got %s\nwant %s", re, data)
			}

			// The baseline's own encoding is the same JSON value.
			bj, err := json.Marshal(base[i])
			if err != nil {
				t.Fatal(err)
			}
			diff, err := sameJSONValue(data, bj)
			if err != nil {
				t.Fatal(err)
			}
			if diff != "" {
				t.Fatalf("baseline encoding differs (-agui +encoding/json):\n%s\nagui: %s\njson: %s", diff, data, bj)
			}

			// The baseline decoder reads the agui encoding back to the
			// same value, so the decode benchmark compares like with like.
			bv, err := decodeBaseline(data)
			if err != nil {
				t.Fatalf("baseline decode: %v", err)
			}
			if diff := cmp.Diff(base[i], bv); diff != "" {
				t.Fatalf("baseline decode differs (-built +decoded):\n%s", diff)
			}
		})
	}
}

var (
	sinkInt   int
	sinkEvent agui.Event
	sinkAny   any
)

func BenchmarkEncode(b *testing.B) {
	evs := benchMixEvents()
	base := benchMixBaseline()
	_, total := encodeMix(evs)

	b.Run("impl=agui", func(b *testing.B) {
		b.SetBytes(int64(total))
		b.ReportAllocs()
		buf := make([]byte, 0, 4096)
		for b.Loop() {
			for _, ev := range evs {
				buf = ev.AppendJSON(buf[:0])
				sinkInt += len(buf)
			}
		}
	})

	// The encoding/json baseline is the faster of the two ways tried: one
	// json.Encoder with SetEscapeHTML(false) writing into a reused
	// bytes.Buffer (it appends a newline per event, 1 byte each). The other,
	// json.Marshal per event, allocates a fresh slice every time and is
	// kept, slower, as impl=encoding_json_marshal.
	b.Run("impl=encoding_json", func(b *testing.B) {
		b.SetBytes(int64(total))
		b.ReportAllocs()
		var buf bytes.Buffer
		buf.Grow(4096)
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		for b.Loop() {
			for _, v := range base {
				buf.Reset()
				if err := enc.Encode(v); err != nil {
					b.Fatal(err)
				}
				sinkInt += buf.Len()
			}
		}
	})

	b.Run("impl=encoding_json_marshal", func(b *testing.B) {
		b.SetBytes(int64(total))
		b.ReportAllocs()
		for b.Loop() {
			for _, v := range base {
				out, err := json.Marshal(v)
				if err != nil {
					b.Fatal(err)
				}
				sinkInt += len(out)
			}
		}
	})
}

func BenchmarkDecode(b *testing.B) {
	docs, total := encodeMix(benchMixEvents())

	b.Run("impl=agui", func(b *testing.B) {
		b.SetBytes(int64(total))
		b.ReportAllocs()
		for b.Loop() {
			for _, d := range docs {
				ev, err := agui.UnmarshalEvent(d)
				if err != nil {
					b.Fatal(err)
				}
				if err := ev.Validate(); err != nil {
					b.Fatal(err)
				}
				sinkEvent = ev
			}
		}
	})

	b.Run("impl=encoding_json", func(b *testing.B) {
		b.SetBytes(int64(total))
		b.ReportAllocs()
		for b.Loop() {
			for _, d := range docs {
				v, err := decodeBaseline(d)
				if err != nil {
					b.Fatal(err)
				}
				sinkAny = v
			}
		}
	})
}

// BenchmarkProto encodes and decodes the mix in the protobuf transport's
// form (the events that have one), so a change to the protobuf emitter can
// be compared with the commit before it.
func BenchmarkProto(b *testing.B) {
	var evs []agui.Event
	var frames [][]byte
	total := 0
	for _, ev := range benchMixEvents() {
		if data, ok := agui.AppendEventProto(nil, ev); ok {
			evs = append(evs, ev)
			frames = append(frames, data)
			total += len(data)
		}
	}
	if len(evs) == 0 {
		b.Fatal("no event of the mix has a protobuf form")
	}
	b.Run("op=encode", func(b *testing.B) {
		b.SetBytes(int64(total))
		b.ReportAllocs()
		buf := make([]byte, 0, 4096)
		for b.Loop() {
			for _, ev := range evs {
				buf, _ = agui.AppendEventProto(buf[:0], ev)
				sinkInt += len(buf)
			}
		}
	})
	b.Run("op=decode", func(b *testing.B) {
		b.SetBytes(int64(total))
		b.ReportAllocs()
		for b.Loop() {
			for _, f := range frames {
				ev, err := agui.UnmarshalEventProto(f)
				if err != nil {
					b.Fatal(err)
				}
				sinkEvent = ev
			}
		}
	})
}
