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
