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

func loadA2AV03(t *testing.T, roots ...string) *ir.Package {
	t.Helper()
	data, err := os.ReadFile("../../../schemas/a2a/a2a-v0.3.0.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	pkg, err := Load("a2av03", Document{File: "a2a.json", Data: data, ID: "urn:test:a2a.json", Version: "0.3", Roots: roots})
	if err != nil {
		t.Fatal(err)
	}
	return pkg
}

// The A2A v0.3 JSON Schema is draft-07: "definitions", anyOf unions, const
// with type, typed maps, a list of types for JSON-RPC ids.
func TestLoadsDraft07A2ASchema(t *testing.T) {
	pkg := loadA2AV03(t, "AgentCard", "SendMessageRequest", "SendStreamingMessageSuccessResponse", "GetTaskPushNotificationConfigRequest")
	if pkg.Lookup("JSONRPCErrorResponse") != nil || pkg.Lookup("A2AError") != nil {
		t.Error("definitions the roots do not reach were loaded")
	}
	part, ok := pkg.Lookup("Part").(*ir.Union)
	if !ok || part.Tag != "kind" || len(part.Members) != 3 || part.Members[1].Value != "file" {
		t.Fatalf("Part: %+v", part)
	}
	file, ok := pkg.Lookup("FilePartFile").(*ir.Union)
	if !ok || file.Tag != "" || file.Members[0].Value != "bytes" || file.Members[1].Value != "uri" {
		t.Fatalf("FilePart.file should be told apart by its bytes or uri member: %+v", file)
	}
	get := pkg.Lookup("GetTaskPushNotificationConfigRequest").(*ir.Struct)
	if params := fieldOf(get, "params"); params.Type.Decl.DeclName() != "GetTaskPushNotificationConfigParams" {
		t.Errorf("params anyOf [TaskIdParams, GetTaskPushNotificationConfigParams] should be the second, which holds the first: %s", params.Type.Decl.DeclName())
	}
	if pkg.Lookup("GetTaskPushNotificationConfigRequestParams") != nil {
		t.Error("the subsumed inline union is still declared")
	}
	card := pkg.Lookup("AgentCard").(*ir.Struct)
	sec := fieldOf(card, "security").Type
	if sec.Kind != ir.KindArray || sec.Elem.Kind != ir.KindMap || sec.Elem.Elem.Kind != ir.KindArray {
		t.Errorf("security should be an array of maps of arrays: %+v", sec)
	}
	if f := fieldOf(card, "protocolVersion"); f.Default != `"0.3.0"` {
		t.Errorf("protocolVersion default %s", f.Default)
	}
	send := pkg.Lookup("SendMessageRequest").(*ir.Struct)
	if m := fieldOf(send, "method"); m.Const == nil || m.Const.String != "message/send" {
		t.Errorf("method const: %+v", m.Const)
	}
	if id := fieldOf(send, "id"); id.Type.Kind != ir.KindAny || !id.Type.NotNull {
		t.Errorf("id: %+v", id.Type)
	}
	if send.Pos.Pointer != "#/definitions/SendMessageRequest" || send.Pos.Line == 0 {
		t.Errorf("provenance should point into the file as written: %v", send.Pos)
	}
	if pkg.Sources[0].Version != "0.3" {
		t.Errorf("version %q", pkg.Sources[0].Version)
	}
}

func fieldOf(st *ir.Struct, name string) *ir.Field {
	for _, f := range st.AllFields() {
		if f.Name == name {
			return f
		}
	}
	return nil
}

// A union whose members nothing tells apart is refused, at its place.
func TestUntellableAnyOfIsRefused(t *testing.T) {
	doc := `{"definitions": {
  "A": {"type": "object", "properties": {"x": {"type": "string"}}},
  "B": {"type": "object", "properties": {"y": {"type": "string"}}},
  "C": {"type": "object", "properties": {"v": {"anyOf": [{"$ref": "#/definitions/A"}, {"$ref": "#/definitions/B"}]}}}
}}`
	_, err := Load("t", Document{File: "t.json", Data: []byte(doc), ID: "urn:t"})
	if err == nil || !strings.Contains(err.Error(), "t.json:4") || !strings.Contains(err.Error(), "CV") {
		t.Fatalf("got %v", err)
	}
}

// Errors name the line and column of what they are about, in the file as
// given: a syntax error, each dangling $ref at its own line, and a $ref to
// a file agui-gen was not given.
func TestErrorsHavePositions(t *testing.T) {
	data, err := os.ReadFile("../../../schemas/agui/schema.json")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	// withRef replaces the n-th '"$ref": "#/$defs/BaseEvent"' with ref and
	// returns the document and that line's number.
	withRef := func(n int, ref string) ([]byte, int) {
		out := append([]string(nil), lines...)
		seen := 0
		for i, l := range out {
			if strings.Contains(l, `"$ref": "#/$defs/BaseEvent"`) {
				if seen == n {
					out[i] = strings.Replace(l, "#/$defs/BaseEvent", ref, 1)
					return []byte(strings.Join(out, "\n")), i + 1
				}
				seen++
			}
		}
		t.Fatalf("no %d-th BaseEvent reference", n)
		return nil, 0
	}
	at := func(err error) (line, col int) {
		var e *Error
		if !errors.As(err, &e) {
			t.Fatalf("%v is no *Error", err)
		}
		return e.Pos.Line, e.Pos.Col
	}
	for _, n := range []int{0, 5} {
		doc, line := withRef(n, "#/$defs/NoSuchThing")
		_, err := Load("agui", Document{File: "bad.json", Data: doc})
		if got, _ := at(err); got != line || !strings.Contains(err.Error(), `"#/$defs/NoSuchThing" names no definition`) {
			t.Errorf("a dangling $ref on line %d: %v", line, err)
		}
	}
	doc, line := withRef(2, "other.json#/$defs/BaseEvent")
	_, err = Load("agui", Document{File: "bad.json", Data: doc})
	if got, col := at(err); got != line || col != strings.Index(lines[line-1], `"#/$defs`)+1 || !strings.Contains(err.Error(), `"other.json#/$defs/BaseEvent" names a document agui-gen was not given`) {
		t.Errorf("a $ref to another file on line %d: %v", line, err)
	}
	_, err = Load("agui", Document{File: "bad.json", Data: []byte("{\n  \"$id\": \"x\",\n  \"$defs\": {\n    \"A\": {\"type\": \"object\",\n  }\n}\n")})
	if line, col := at(err); line != 5 || col != 3 || !strings.HasPrefix(err.Error(), "bad.json:5:3: not a JSON Schema document") {
		t.Errorf("a syntax error: %v (%d:%d)", err, line, col)
	}
}
