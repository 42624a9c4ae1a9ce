package generate_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agui-gen/agui-gen/generator/diff"
	"github.com/agui-gen/agui-gen/generator/generate"
	"github.com/agui-gen/agui-gen/generator/load/freeze"
)

// nextSchema is a synthetic next AG-UI schema: 1.1 with a NOTICE event and
// an optional priority on TextMessageStartEvent.
const nextSchema = "testdata/agui-next/schema.json"

// TestExtendLedger: a schema that adds an event and a field cannot be
// generated on the old ledger; extended, the ledger numbers exactly what
// was added, with the next free numbers, moving and reusing none; a second
// run on the ledger it wrote adds nothing and writes the same code.
func TestExtendLedger(t *testing.T) {
	t.Parallel()
	in := embedded(t)
	var err error
	if in.AGUISchema, err = generate.ReadSpec(nextSchema); err != nil {
		t.Fatal(err)
	}
	if _, err := generate.Run(in, generate.Options{ImportPath: genImport}); err == nil || !strings.Contains(err.Error(), "--extend-ledger") {
		t.Fatalf("the old ledger numbered the new schema: %v", err)
	}
	old, err := freeze.Parse(in.AGUIProtoLedger.File, in.AGUIProtoLedger.Data)
	if err != nil {
		t.Fatal(err)
	}
	first, err := generate.Run(in, generate.Options{ImportPath: genImport, ExtendLedger: true})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"Event.event.notice", "EventType.NOTICE", "NoticeEvent.base_event", "NoticeEvent.subagent_run_id", "NoticeEvent.text", "TextMessageStartEvent.priority"}
	if got := first.Ledger.Added(); !slices.Equal(got, want) {
		t.Fatalf("numbered %v, want %v", got, want)
	}
	for key, n := range map[string]int{"Event.event.notice": 32, "EventType.NOTICE": 31, "TextMessageStartEvent.priority": 6, "NoticeEvent.base_event": 1} {
		if got, _ := first.Ledger.Number(key); got != n {
			t.Errorf("%s = %d, want %d", key, got, n)
		}
	}
	for _, c := range diff.Ledgers(old, first.Ledger) {
		if c.IsBreaking() || c.Kind != "added" {
			t.Errorf("extending changed the ledger: %+v", c)
		}
	}
	written := first.Ledger.Format()
	if !bytes.HasPrefix(written, []byte("# @generated")) || !bytes.Contains(written, []byte("\nTextMessageStartEvent.priority = 6\n")) {
		t.Errorf("the ledger written:\n%.300s", written)
	}

	in.AGUIProtoLedger = generate.Spec{File: "proto-freeze.txt", Data: written}
	second, err := generate.Run(in, generate.Options{ImportPath: genImport, ExtendLedger: true})
	if err != nil {
		t.Fatal(err)
	}
	if added := second.Ledger.Added(); len(added) != 0 || !bytes.Equal(second.Ledger.Format(), written) {
		t.Errorf("a second run numbered %v", added)
	}
	if len(first.Files) != len(second.Files) {
		t.Fatalf("%d files, then %d", len(first.Files), len(second.Files))
	}
	for i := range first.Files {
		if first.Files[i].Path != second.Files[i].Path || !bytes.Equal(first.Files[i].Content, second.Files[i].Content) {
			t.Errorf("%s differs between the extending run and the run on the ledger it wrote", first.Files[i].Path)
		}
	}
}

// TestDiffReadsLedgers: diff compares the two sides' ledgers. The new
// schema's slots show with the number --extend-ledger would give them, as
// compatible; a number moved, or given to another slot, is breaking on the
// protobuf wire.
func TestDiffReadsLedgers(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	from, err := generate.LoadSide(ctx, "embedded")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	schema, err := os.ReadFile(nextSchema)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "schema.json"), schema, 0o644); err != nil {
		t.Fatal(err)
	}
	ledger := from.AGUILedger.Format()
	if err := os.WriteFile(filepath.Join(dir, "proto-freeze.txt"), ledger, 0o644); err != nil {
		t.Fatal(err)
	}
	report := func() map[string]diff.Change {
		t.Helper()
		to, err := generate.LoadSide(ctx, dir)
		if err != nil {
			t.Fatal(err)
		}
		reports, err := generate.Diff(from, to)
		if err != nil {
			t.Fatal(err)
		}
		numbers := map[string]diff.Change{}
		for _, c := range reports[0].Changes {
			if c.Element == "field number" {
				numbers[c.Path] = c
			}
		}
		return numbers
	}
	got := report()
	if c := got["TextMessageStartEvent.priority"]; c.Kind != "added" || c.IsBreaking() || !strings.Contains(c.Detail, "numbered 6") || !strings.Contains(c.Detail, "--extend-ledger") {
		t.Errorf("the new field's number: %+v", c)
	}
	if c := got["Event.event.notice"]; c.Kind != "added" || !strings.Contains(c.Detail, "numbered 32") {
		t.Errorf("the new event's arm: %+v", c)
	}

	// A ledger that moves one number and gives another's to a new slot.
	edited := bytes.Replace(ledger, []byte("TextMessageStartEvent.name = 4\n"), []byte("TextMessageStartEvent.name = 9\n"), 1)
	edited = append(edited, "TextMessageStartEvent.priority = 3\n"...)
	if bytes.Equal(edited[:len(ledger)], ledger) {
		t.Fatal("the ledger has no TextMessageStartEvent.name = 4 to move")
	}
	if err := os.WriteFile(filepath.Join(dir, "proto-freeze.txt"), edited, 0o644); err != nil {
		t.Fatal(err)
	}
	got = report()
	if c := got["TextMessageStartEvent.name"]; c.Kind != "changed" || !slices.Equal(c.Breaking, []diff.Surface{diff.ProtoWire}) {
		t.Errorf("a moved number: %+v", c)
	}
	if c := got["TextMessageStartEvent.priority"]; !slices.Equal(c.Breaking, []diff.Surface{diff.ProtoWire}) || !strings.Contains(c.Detail, "TextMessageStartEvent.") {
		t.Errorf("a reused number: %+v", c)
	}
}

// TestAddedRPCBreaksNoImplementation: generated servers must embed their
// Unimplemented type, so an RPC a new proto adds is compatible for the Go
// API, and diff says so.
func TestAddedRPCBreaksNoImplementation(t *testing.T) {
	t.Parallel()
	in := embedded(t)
	proto := strings.Replace(string(in.A2AProto.Data), "  rpc DeleteTaskPushNotificationConfig(",
		"  rpc PingTask(GetTaskRequest) returns (Task) {\n    option (google.api.http) = {get: \"/tasks/{id=*}:ping\"};\n  }\n\n  rpc DeleteTaskPushNotificationConfig(", 1)
	if proto == string(in.A2AProto.Data) {
		t.Fatal("the proto has no DeleteTaskPushNotificationConfig to insert before")
	}
	file := filepath.Join(t.TempDir(), "a2a.proto")
	if err := os.WriteFile(file, []byte(proto), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	from, err := generate.LoadSide(ctx, "embedded")
	if err != nil {
		t.Fatal(err)
	}
	to, err := generate.LoadSide(ctx, file)
	if err != nil {
		t.Fatal(err)
	}
	reports, err := generate.Diff(from, to)
	if err != nil {
		t.Fatal(err)
	}
	var server *diff.Change
	for _, r := range reports {
		for i, c := range r.Changes {
			if c.Path == "a2a.A2AServiceServer" {
				server = &r.Changes[i]
			}
			if c.IsBreaking() {
				t.Errorf("breaking: %+v", c)
			}
		}
	}
	if server == nil || !strings.Contains(server.Detail, "PingTask") {
		t.Errorf("the server interface's change: %+v", server)
	}
}
