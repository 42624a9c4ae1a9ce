package jsonschema

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/agui-gen/agui-gen/generator/ir"
)

func TestLoadsAllAGUIDefinitions(t *testing.T) {
	data, err := os.ReadFile("../../../schemas/agui/schema.json")
	if err != nil {
		t.Fatal(err)
	}
	pkg, err := Load("agui", Document{File: "schema.json", Data: data})
	if err != nil {
		t.Fatal(err)
	}
	// 98 definitions plus one synthesized enum (ResumeEntry.status).
	if len(pkg.Decls) != 99 {
		t.Errorf("%d declarations, want 99", len(pkg.Decls))
	}
	ev, ok := pkg.Lookup("Event").(*ir.Union)
	if !ok || ev.Tag != "type" || len(ev.Members) != 31 || ev.TagType == nil || ev.TagType.Name != "EventType" {
		t.Fatalf("Event union wrong: %+v", ev)
	}
	for name, tag := range map[string]string{"Message": "role", "ContentPart": "type", "PartSource": "type",
		"RunFinishedOutcome": "type", "SubagentFinishedOutcome": "type", "JsonPatchOperation": "op"} {
		u, ok := pkg.Lookup(name).(*ir.Union)
		if !ok || u.Tag != tag {
			t.Errorf("%s: want a union told apart by %s", name, tag)
		}
	}
	if pkg.Decls[0].DeclName() != "Event" || pkg.Decls[1].DeclName() != "EventType" {
		t.Error("declarations are not in document order")
	}
	st := pkg.Lookup("TextMessageStartEvent").(*ir.Struct)
	if st.Pos.Line == 0 || st.Pos.Pointer != "#/$defs/TextMessageStartEvent" {
		t.Errorf("provenance missing: %v", st.Pos)
	}
}

func TestUnsupportedConstructNamesFileAndPointer(t *testing.T) {
	doc := `{"$id": "urn:t", "$defs": {
  "A": {"type": "object", "properties": {"x": {"anyOf": [{"type": "string"}]}}}
}}`
	_, err := Load("t", Document{File: "t.json", Data: []byte(doc)})
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("want *Error, got %v", err)
	}
	if e.Pos.File != "t.json" || e.Pos.Pointer != "#/$defs/A/properties/x/anyOf" || e.Pos.Line != 2 {
		t.Errorf("error located at %v", e.Pos)
	}
	if !strings.Contains(err.Error(), "anyOf") {
		t.Errorf("message does not name the keyword: %v", err)
	}
}

func TestMissingIDIsAnError(t *testing.T) {
	_, err := Load("t", Document{File: "t.json", Data: []byte(`{"$defs": {}}`)})
	if err == nil || !strings.Contains(err.Error(), "$id") {
		t.Errorf("want an error about $id, got %v", err)
	}
}

// TestExtensionFollowsANewBaseVersion: META refers to the AG-UI 1.1 schema
// by $id; given an AG-UI schema with another $id it still loads against it.
func TestExtensionFollowsANewBaseVersion(t *testing.T) {
	base, err := os.ReadFile("../../../schemas/agui/schema.json")
	if err != nil {
		t.Fatal(err)
	}
	meta, err := os.ReadFile("../../../schemas/meta/meta-events.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	newer := []byte(strings.Replace(string(base), "https://ag-ui.com/spec/1.1/schema.json", "https://ag-ui.com/spec/1.2/schema.json", 1))
	pkg, err := Load("agui", Document{File: "schema.json", Data: newer}, Document{File: "meta.json", Data: meta})
	if err != nil {
		t.Fatal(err)
	}
	if pkg.Sources[0].Version != "1.2" {
		t.Errorf("version %q", pkg.Sources[0].Version)
	}
	ev := pkg.Lookup("Event").(*ir.Union)
	if last := ev.Members[len(ev.Members)-1]; last.Value != "META" {
		t.Errorf("META not appended to Event: %s", last.Value)
	}
	et := pkg.Lookup("EventType").(*ir.Enum)
	if et.Values[len(et.Values)-1].Value != "META" {
		t.Error("META not appended to EventType")
	}
}
