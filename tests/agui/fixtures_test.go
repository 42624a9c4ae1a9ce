package agui_test

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agui-gen/agui-gen/gen/agui"
)

// fixtureDir holds the AG-UI schema fixtures, copied verbatim with their
// README (source and licence) from the upstream spec repository.
const fixtureDir = "../testdata/agui-fixtures"

// newValue returns an empty value of the definition a fixture folder names.
func newValue(def string) (agui.Value, bool) {
	constructors := map[string]func() agui.Value{
		"ActivityDeltaEvent":           func() agui.Value { return new(agui.ActivityDeltaEvent) },
		"ActivitySnapshotEvent":        func() agui.Value { return new(agui.ActivitySnapshotEvent) },
		"CustomEvent":                  func() agui.Value { return new(agui.CustomEvent) },
		"Interrupt":                    func() agui.Value { return new(agui.Interrupt) },
		"MessagesSnapshotEvent":        func() agui.Value { return new(agui.MessagesSnapshotEvent) },
		"RawEvent":                     func() agui.Value { return new(agui.RawEvent) },
		"ReasoningEncryptedValueEvent": func() agui.Value { return new(agui.ReasoningEncryptedValueEvent) },
		"ReasoningEndEvent":            func() agui.Value { return new(agui.ReasoningEndEvent) },
		"ReasoningMessageChunkEvent":   func() agui.Value { return new(agui.ReasoningMessageChunkEvent) },
		"ReasoningMessageContentEvent": func() agui.Value { return new(agui.ReasoningMessageContentEvent) },
		"ReasoningMessageEndEvent":     func() agui.Value { return new(agui.ReasoningMessageEndEvent) },
		"ReasoningMessageStartEvent":   func() agui.Value { return new(agui.ReasoningMessageStartEvent) },
		"ReasoningStartEvent":          func() agui.Value { return new(agui.ReasoningStartEvent) },
		"ResumeEntry":                  func() agui.Value { return new(agui.ResumeEntry) },
		"RunAgentInput":                func() agui.Value { return new(agui.RunAgentInput) },
		"RunErrorEvent":                func() agui.Value { return new(agui.RunErrorEvent) },
		"RunFinishedEvent":             func() agui.Value { return new(agui.RunFinishedEvent) },
		"RunStartedEvent":              func() agui.Value { return new(agui.RunStartedEvent) },
		"StateDeltaEvent":              func() agui.Value { return new(agui.StateDeltaEvent) },
		"StateSnapshotEvent":           func() agui.Value { return new(agui.StateSnapshotEvent) },
		"StepFinishedEvent":            func() agui.Value { return new(agui.StepFinishedEvent) },
		"StepStartedEvent":             func() agui.Value { return new(agui.StepStartedEvent) },
		"SubagentErrorEvent":           func() agui.Value { return new(agui.SubagentErrorEvent) },
		"SubagentFinishedEvent":        func() agui.Value { return new(agui.SubagentFinishedEvent) },
		"SubagentStartedEvent":         func() agui.Value { return new(agui.SubagentStartedEvent) },
		"TextMessageChunkEvent":        func() agui.Value { return new(agui.TextMessageChunkEvent) },
		"TextMessageContentEvent":      func() agui.Value { return new(agui.TextMessageContentEvent) },
		"TextMessageEndEvent":          func() agui.Value { return new(agui.TextMessageEndEvent) },
		"TextMessageStartEvent":        func() agui.Value { return new(agui.TextMessageStartEvent) },
		"Tool":                         func() agui.Value { return new(agui.Tool) },
		"ToolCallArgsEvent":            func() agui.Value { return new(agui.ToolCallArgsEvent) },
		"ToolCallChunkEvent":           func() agui.Value { return new(agui.ToolCallChunkEvent) },
		"ToolCallEndEvent":             func() agui.Value { return new(agui.ToolCallEndEvent) },
		"ToolCallResultEvent":          func() agui.Value { return new(agui.ToolCallResultEvent) },
		"ToolCallStartEvent":           func() agui.Value { return new(agui.ToolCallStartEvent) },
		"ToolMessage":                  func() agui.Value { return new(agui.ToolMessage) },
		"UserMessage":                  func() agui.Value { return new(agui.UserMessage) },
	}
	c, ok := constructors[def]
	if !ok {
		return nil, false
	}
	return c(), true
}

// changedUnder11 lists the draft fixtures whose verdict the 1.1 schema
// reverses (fixture README): valid in the draft, invalid under 1.1.
var changedUnder11 = map[string]string{
	"TextMessageEndEvent/valid/raw-event-null.json": "not",
}

type expectation struct {
	Keyword          string `json:"keyword"`
	InstanceLocation string `json:"instanceLocation"`
}

// decodeStrict decodes and validates one document as the schema does:
// undeclared members are errors.
func decodeStrict(def string, data []byte) (agui.Value, error) {
	v, ok := newValue(def)
	if !ok {
		return nil, errors.New("no Go type for definition " + def)
	}
	if err := (agui.Decoder{Strict: true}).Decode(data, v); err != nil {
		return nil, err
	}
	return v, v.Validate()
}

func TestSchemaFixtures(t *testing.T) {
	docs, err := filepath.Glob(filepath.Join(fixtureDir, "*", "*", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	counted := 0
	for _, doc := range docs {
		if strings.HasSuffix(doc, ".expect.json") {
			continue
		}
		rel, _ := filepath.Rel(fixtureDir, doc)
		rel = filepath.ToSlash(rel)
		parts := strings.Split(rel, "/")
		def, verdict := parts[0], parts[1]
		counted++
		t.Run(rel, func(t *testing.T) {
			data, err := os.ReadFile(doc)
			if err != nil {
				t.Fatal(err)
			}
			v, err := decodeStrict(def, data)
			if rule, ok := changedUnder11[rel]; ok {
				var e *agui.Error
				if !errors.As(err, &e) || e.Rule != rule {
					t.Fatalf("1.1 rejects this draft-valid document by %q; got %v", rule, err)
				}
				return
			}
			if verdict == "valid" {
				if err != nil {
					t.Fatalf("valid document rejected: %v", err)
				}
				assertSameJSON(t, data, v.AppendJSON(nil))
				return
			}
			var want expectation
			raw, err2 := os.ReadFile(strings.TrimSuffix(doc, ".json") + ".expect.json")
			if err2 != nil {
				t.Fatal(err2)
			}
			if err := json.Unmarshal(raw, &want); err != nil {
				t.Fatal(err)
			}
			if err == nil {
				t.Fatalf("invalid document accepted (want %s at %q)", want.Keyword, want.InstanceLocation)
			}
			var e *agui.Error
			if !errors.As(err, &e) {
				t.Fatalf("error is %T, not *agui.Error: %v", err, err)
			}
			if !sameLocation(e, want) {
				t.Errorf("error at %q (%s): %v; want %s at %q", e.Path, e.Rule, err, want.Keyword, want.InstanceLocation)
			}
		})
	}
	if counted != 179 {
		t.Errorf("read %d fixture documents, want 179", counted)
	}
}

// sameLocation compares an error with a JSON Schema output unit. A schema
// validator reports "required" and "unevaluatedProperties" at the object,
// where agui names the member itself, one step deeper; and it reports a
// failed oneOf at the union value, where agui names the tag member. For a
// union without unevaluatedProperties (JSON Patch operations) ajv blames
// the tag's const instead of the oneOf; agui says oneOf either way.
func sameLocation(e *agui.Error, want expectation) bool {
	if e.Rule == "oneOf" && want.Keyword == "const" && e.Path == want.InstanceLocation {
		return true
	}
	if e.Rule != want.Keyword {
		return false
	}
	if e.Path == want.InstanceLocation {
		return true
	}
	parent := e.Path[:strings.LastIndex(e.Path, "/")]
	switch e.Rule {
	case "required", "unevaluatedProperties", "oneOf":
		return parent == want.InstanceLocation
	}
	return false
}

func assertSameJSON(t *testing.T, want, got []byte) {
	t.Helper()
	var w, g any
	if err := json.Unmarshal(want, &w); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatalf("re-encoded JSON is malformed: %v\n%s", err, got)
	}
	if diff := cmp.Diff(w, g); diff != "" {
		t.Errorf("re-encoded value differs (-fixture +agui):\n%s\n%s", diff, got)
	}
}

// TestEnumErrorsListTheValues: Validate names the values an enum allows.
func TestEnumErrorsListTheValues(t *testing.T) {
	role := agui.TextMessageRole("robot")
	err := (&agui.TextMessageStartEvent{MessageID: "m", Role: &role}).Validate()
	want := `/role: "robot" is not one of the allowed values: "developer", "system", "assistant", "user"`
	if err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
}
