// Package interop_test checks gen/agui against the official AG-UI packages:
// @ag-ui/encoder output decodes to the values it encoded, and what agui
// encodes passes the official schema (ajv, 2020-12) and @ag-ui/core@1.0.0's
// own validators. The Node side lives in interop/node (npm ci there).
package interop_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agui-gen/agui-gen/gen/agui"
	"github.com/agui-gen/agui-gen/internal/teetest"
)

const nodeDir = "node"

// requireNode skips when the Node peers are not installed, and fails in CI,
// where .ci/run installs them.
func requireNode(t *testing.T) {
	t.Helper()
	_, errNode := exec.LookPath("node")
	_, errMods := os.Stat(filepath.Join(nodeDir, "node_modules", "@ag-ui", "core"))
	if errNode == nil && errMods == nil {
		return
	}
	msg := "Node peers missing: install Node.js and run `npm ci` in interop/node"
	if os.Getenv("CI") != "" {
		t.Fatal(msg)
	}
	t.Skip(msg)
}

func runNode(t *testing.T, stdin []byte, args ...string) []byte {
	t.Helper()
	cmd := exec.Command("node", args...)
	cmd.Dir = nodeDir
	cmd.Env = append(os.Environ(),
		"AGUI_SCHEMA="+mustAbs(t, "../schemas/agui/schema.json"),
		"AGUI_META_SCHEMA="+mustAbs(t, "../schemas/meta/meta-events.schema.json"))
	cmd.Stdin = bytes.NewReader(stdin)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return out
}

func mustAbs(t *testing.T, p string) string {
	abs, err := filepath.Abs(p)
	if err != nil {
		t.Fatal(err)
	}
	return abs
}

func lines(b []byte) [][]byte {
	var out [][]byte
	for _, l := range bytes.Split(bytes.TrimSpace(b), []byte("\n")) {
		if len(l) > 0 {
			out = append(out, l)
		}
	}
	return out
}

func sameJSON(t *testing.T, want, got []byte) {
	t.Helper()
	var w, g any
	if err := json.Unmarshal(want, &w); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatalf("malformed JSON %s: %v", got, err)
	}
	if d := cmp.Diff(w, g); d != "" {
		t.Errorf("values differ (-want +got):\n%s", d)
	}
}

// TestEncoderOutputDecodes: every event @ag-ui/encoder writes as SSE, one of
// each of the 31 types with every optional member set and one with only the
// required ones (plus edge cases), decodes strictly in Go, validates, and
// re-encodes to the value the encoder was given.
func TestEncoderOutputDecodes(t *testing.T) {
	requireNode(t)
	originals := lines(runNode(t, nil, "encode-events.mjs", "--format=json", "--edge-cases"))
	frames := teetest.SSEData(t, runNode(t, nil, "encode-events.mjs", "--edge-cases"))
	if len(frames) != len(originals) || len(frames) < 62 {
		t.Fatalf("%d SSE frames for %d events", len(frames), len(originals))
	}
	types := map[agui.EventType]bool{}
	for i, frame := range frames {
		ev, err := agui.Decoder{Strict: true}.DecodeEvent(frame)
		if err != nil {
			t.Errorf("frame %d: %v\n%s", i, err, frame)
			continue
		}
		if err := ev.Validate(); err != nil {
			t.Errorf("frame %d (%s): %v", i, ev.Type(), err)
		}
		types[ev.Type()] = true
		sameJSON(t, originals[i], ev.AppendJSON(nil))
	}
	if len(types) != 31 {
		t.Errorf("saw %d event types, want all 31", len(types))
	}
}

type verdict struct {
	I   int `json:"i"`
	AJV struct {
		OK     bool            `json:"ok"`
		Errors json.RawMessage `json:"errors"`
	} `json:"ajv"`
	Core struct {
		OK     *bool           `json:"ok"`
		Errors json.RawMessage `json:"errors"`
	} `json:"core"`
}

// TestAguiOutputValidates: what agui encodes passes the official schema and
// @ag-ui/core's validators, for every event type (values built by decoding
// the encoder's maximal and minimal events) and for META events, which ajv
// checks against agui-gen's META definitions.
func TestAguiOutputValidates(t *testing.T) {
	requireNode(t)
	var events []agui.Event
	for _, frame := range teetest.SSEData(t, runNode(t, nil, "encode-events.mjs", "--edge-cases")) {
		ev, err := agui.UnmarshalEvent(frame)
		if err != nil {
			t.Fatal(err)
		}
		events = append(events, ev)
	}
	lines := eventLines(events)
	for _, ev := range metaEvents() {
		if err := ev.Validate(); err != nil {
			t.Fatalf("META event invalid in Go: %v", err)
		}
		lines = append(lines, schemaLine{Schema: "meta", Def: "MetaEvent", Value: ev.AppendJSON(nil)})
	}
	checkSchemaLines(t, lines)
}

// schemaLine is one input line of validate-events.mjs.
type schemaLine struct {
	Schema string          `json:"schema"`
	Def    string          `json:"def"`
	Value  json.RawMessage `json:"value"`
}

// eventLines asks for each event to be checked against its own definition
// and, through the union, as an Event.
func eventLines(events []agui.Event) []schemaLine {
	var lines []schemaLine
	for _, ev := range events {
		lines = append(lines, schemaLine{Schema: "agui", Def: definitionOf(ev), Value: ev.AppendJSON(nil)},
			schemaLine{Schema: "agui", Def: "Event", Value: ev.AppendJSON(nil)})
	}
	return lines
}

// checkSchemaLines validates values against the official AG-UI schema (Ajv)
// and @ag-ui/core's validators, and fails the test for each rejection.
func checkSchemaLines(t *testing.T, values []schemaLine) {
	t.Helper()
	var input bytes.Buffer
	enc := json.NewEncoder(&input)
	for _, l := range values {
		enc.Encode(l)
	}
	out := lines(runNode(t, input.Bytes(), "validate-events.mjs"))
	if len(out) != len(values) {
		t.Fatalf("%d verdicts for %d values", len(out), len(values))
	}
	for i, l := range out {
		var v verdict
		if err := json.Unmarshal(l, &v); err != nil {
			t.Fatal(err)
		}
		if !v.AJV.OK {
			t.Errorf("value %d (%s): ajv rejects it: %s", i, values[i].Def, v.AJV.Errors)
		}
		if v.Core.OK != nil && !*v.Core.OK {
			t.Errorf("value %d (%s): @ag-ui/core rejects it: %s", i, values[i].Def, v.Core.Errors)
		}
	}
}

// definitionOf names the schema definition of an event: its Go type name,
// which the generator derives from the definition name.
func definitionOf(ev agui.Event) string { return reflect.TypeOf(ev).Elem().Name() }

func metaEvents() []*agui.MetaEvent {
	ts := int64(1732252800000)
	return []*agui.MetaEvent{
		{Payload: &agui.ThumbsUpPayload{MessageID: "m1"}},
		{Timestamp: &ts, Metadata: agui.Metadata(`{"source":"widget"}`),
			Payload: &agui.ThumbsDownPayload{MessageID: "m1", UserID: ptr("u1"), Reason: ptr("inaccurate"), Comment: ptr("wrong date")}},
		{Payload: &agui.NotePayload{Text: "follow up", RelatedID: ptr("run_1"), Author: ptr("ops")}},
		{Payload: &agui.TagPayload{Tags: []string{"billing", "urgent"}, TargetID: "m2"}},
		{Payload: &agui.BookmarkPayload{MessageID: "m2", Label: ptr("recipe")}},
		{Payload: &agui.CopyPayload{MessageID: "m2", Length: ptr(int64(120))}},
		{Payload: &agui.SharePayload{Channel: ptr("link")}},
		{Payload: &agui.RatingPayload{MessageID: "m3", Rating: 4.5, MaxRating: ptr(5.0)}},
		{Payload: &agui.AnalyticsPayload{Event: "suggestion_clicked", Properties: json.RawMessage(`{"position":2}`)}},
		{Payload: &agui.ModerationPayload{Action: agui.ModerationPayloadActionHide, Category: "harassment", Confidence: ptr(0.93)}},
		{RawEvent: json.RawMessage(`{"kind":"vote"}`), Payload: &agui.OtherMetaPayload{Tag: "upvote", Raw: json.RawMessage(`{"count":3}`)}},
	}
}

func ptr[T any](v T) *T { return &v }

// TestRuntimeOutcomesValidate: the run endings the runtime writes (an
// interrupt raised in a nested subagent, which suspends it and its parent,
// a result, and a cancelled run) pass the official schema and @ag-ui/core.
func TestRuntimeOutcomesValidate(t *testing.T) {
	requireNode(t)
	var events []agui.Event
	collect := func(ev agui.Event) error { events = append(events, ev); return nil }
	input := &agui.RunAgentInput{ThreadID: "t1", RunID: "r1", Messages: []agui.Message{}}
	interrupting := agui.AgentFunc(func(_ context.Context, _ *agui.RunAgentInput, s *agui.Stream) error {
		outer, err := s.Subagent("planner")
		if err != nil {
			return err
		}
		inner, err := outer.Subagent("booker")
		if err != nil {
			return err
		}
		if err := inner.Text("Booking needs your approval."); err != nil {
			return err
		}
		message := "Book the 9:40 train?"
		s.SetResult(json.RawMessage(`{"draft":true}`))
		return inner.Interrupt(agui.Interrupt{ID: "approve", Reason: "confirmation", Message: &message,
			ResponseSchema: json.RawMessage(`{"type":"boolean"}`)})
	})
	if err := agui.Invoke(context.Background(), interrupting, input, collect); err != nil {
		t.Fatal(err)
	}
	cancelled := agui.AgentFunc(func(_ context.Context, _ *agui.RunAgentInput, s *agui.Stream) error {
		s.SetResult(json.RawMessage(`{"partial":true}`)) // dropped: the run did not complete
		s.MarkCancelled()
		return s.Text("Stopping.")
	})
	if err := agui.Invoke(context.Background(), cancelled, input, collect); err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, ev := range events {
		if f, ok := ev.(*agui.SubagentFinishedEvent); ok && f.Outcome != nil {
			kinds = append(kinds, "suspended")
		}
		if f, ok := ev.(*agui.RunFinishedEvent); ok {
			kinds = append(kinds, string(f.AppendJSON(nil)))
		}
	}
	if len(kinds) != 4 || !strings.Contains(kinds[2], `"outcome":{"type":"interrupt"`) || !strings.Contains(kinds[3], `"outcome":{"type":"cancelled"}`) || strings.Contains(kinds[3], "partial") {
		t.Fatalf("endings %q", kinds)
	}
	checkSchemaLines(t, eventLines(events))
}
