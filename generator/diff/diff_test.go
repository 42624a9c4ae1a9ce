package diff_test

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agui-gen/agui-gen/generator/diff"
	"github.com/agui-gen/agui-gen/generator/generate"
)

var update = flag.Bool("update", false, "rewrite the golden reports")

const testdata = "../testdata"

// pairs are the spec upgrades the reports are proven on: the real ones,
// and the rungs of the spec ladder (examples/ladder_test.go), whose
// reports it checks the CLI against.
var pairs = []struct{ name, from, to string }{
	{"a2a-v0.3.0-to-v1.0.1", testdata + "/a2a-v0.3.0.proto", "../../schemas/a2a/a2a.proto"},
	{"a2a-v0.3.0-to-v1.0.0", testdata + "/a2a-v0.3.0.proto", testdata + "/a2a-v1.0.0.proto"},
	{"a2a-v1.0.0-to-v1.0.1", testdata + "/a2a-v1.0.0.proto", "../../schemas/a2a/a2a.proto"},
	{"a2a-v1.0.1-to-dev-1.1", "../../schemas/a2a/a2a.proto", testdata + "/a2a-dev-1.1.proto"},
	{"agui-1.1-to-next", "../../schemas/agui/schema.json", "../generate/testdata/agui-next/schema.json"},
	{"meta-1.0-to-next", "../../schemas/meta/meta-events.schema.json", "../generate/testdata/meta-next/meta-events.schema.json"},
	{"agui-ceb76a8c49f4-to-1.1", testdata + "/agui-history/schema-ceb76a8c49f4.json", "../../schemas/agui/schema.json"},
	{"agui-8cf4b49d2ac0-to-1.1", testdata + "/agui-history/schema-8cf4b49d2ac0.json", "../../schemas/agui/schema.json"},
	{"agui-b5d1810bebc1-to-1.1", testdata + "/agui-history/schema-b5d1810bebc1.json", "../../schemas/agui/schema.json"},
	{"agui-41655f473f46-to-1.1", testdata + "/agui-history/schema-41655f473f46.json", "../../schemas/agui/schema.json"},
}

func pairNamed(t *testing.T, name string) struct{ name, from, to string } {
	t.Helper()
	for _, p := range pairs {
		if p.name == name {
			return p
		}
	}
	t.Fatalf("no pair %s", name)
	return pairs[0]
}

func reports(t *testing.T, from, to string) []*diff.Report {
	t.Helper()
	a, err := generate.LoadSide(context.Background(), from)
	if err != nil {
		t.Fatal(err)
	}
	b, err := generate.LoadSide(context.Background(), to)
	if err != nil {
		t.Fatal(err)
	}
	rs, err := generate.Diff(a, b)
	if err != nil {
		t.Fatal(err)
	}
	return rs
}

func TestGoldenReports(t *testing.T) {
	for _, p := range pairs {
		t.Run(p.name, func(t *testing.T) {
			var text, md bytes.Buffer
			for _, r := range reports(t, p.from, p.to) {
				if err := r.WriteText(&text); err != nil {
					t.Fatal(err)
				}
				if err := r.WriteMarkdown(&md); err != nil {
					t.Fatal(err)
				}
			}
			for ext, got := range map[string][]byte{".txt": text.Bytes(), ".md": md.Bytes()} {
				path := filepath.Join("testdata", p.name+ext)
				if *update {
					if err := os.WriteFile(path, got, 0o644); err != nil {
						t.Fatal(err)
					}
					continue
				}
				want, err := os.ReadFile(path)
				if err != nil {
					t.Fatalf("%v (run with -update)", err)
				}
				if d := cmp.Diff(string(want), string(got)); d != "" {
					t.Errorf("%s differs from the golden report (-golden +now):\n%s", path, d)
				}
			}
		})
	}
}

func find(r *diff.Report, kind, element, path string) *diff.Change {
	for i, c := range r.Changes {
		if c.Kind == kind && c.Element == element && c.Path == path {
			return &r.Changes[i]
		}
	}
	return nil
}

func TestA2AMajorUpgrade(t *testing.T) {
	p := pairNamed(t, "a2a-v0.3.0-to-v1.0.1")
	r := reports(t, p.from, p.to)[0]
	if !r.HasBreaking() {
		t.Fatal("v0.3.0 → v1.0.1 reports nothing breaking")
	}
	for _, want := range []struct{ kind, element, path string }{
		{"changed", "package", "lf.a2a.v1"},
		{"renamed", "rpc", "A2AService.SubscribeToTask"},
		{"renamed", "rpc", "A2AService.GetExtendedAgentCard"},
		{"renamed", "rpc", "A2AService.ListTaskPushNotificationConfigs"},
		{"added", "rpc", "A2AService.ListTasks"},
		{"removed", "definition", "DataPart"},
		{"removed", "definition", "FilePart"},
		{"added", "definition", "ListTasksRequest"},
		{"renamed", "definition", "SecurityRequirement"},
		{"renamed", "field", "Message.parts"},
		{"changed", "field number", "Artifact.name"},
		{"renamed", "enum value", "TaskState.TASK_STATE_CANCELED"},
	} {
		if c := find(r, want.kind, want.element, want.path); c == nil {
			t.Errorf("no %s %s %s", want.kind, want.element, want.path)
		}
	}
	if c := find(r, "changed", "field number", "Artifact.name"); c != nil && !strings.Contains(strings.Join(surfaces(c.Breaking), ","), "protobuf") {
		t.Errorf("a renumbered field must break the protobuf wire: %+v", c)
	}
}

func surfaces(ss []diff.Surface) []string {
	var out []string
	for _, s := range ss {
		out = append(out, string(s))
	}
	return out
}

func TestA2APatchUpgradeIsCompatible(t *testing.T) {
	p := pairNamed(t, "a2a-v1.0.0-to-v1.0.1")
	r := reports(t, p.from, p.to)[0]
	if r.HasBreaking() {
		var b bytes.Buffer
		_ = r.WriteText(&b)
		t.Fatalf("v1.0.0 → v1.0.1 (comments only) reports breaking changes:\n%s", b.String())
	}
}

// TestMetaDefinitionsDiff: a change to agui-gen's META definitions is
// reported like any other schema change, when both sides carry META.
func TestMetaDefinitionsDiff(t *testing.T) {
	meta, err := os.ReadFile("../../schemas/meta/meta-events.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	changed := strings.Replace(string(meta), `"required": [
        "messageId",
        "rating"
      ]`, `"required": [
        "messageId",
        "rating",
        "maxRating"
      ]`, 1)
	changed = strings.Replace(changed, `"enum": [
            "flag",
            "hide",
            "remove",
            "allow"
          ]`, `"enum": [
            "flag",
            "hide",
            "remove",
            "allow",
            "escalate"
          ]`, 1)
	if changed == string(meta) {
		t.Fatal("the edits did not apply; the test needs updating with the META file")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "meta-events.schema.json")
	if err := os.WriteFile(path, []byte(changed), 0o644); err != nil {
		t.Fatal(err)
	}
	r := reports(t, "embedded", path)[0]
	if c := find(r, "changed", "field", "RatingPayload.maxRating"); c == nil || !c.IsBreaking() {
		t.Errorf("maxRating made required: %+v", c)
	}
	if c := find(r, "added", "enum value", "ModerationPayloadAction.escalate"); c == nil || c.IsBreaking() {
		t.Errorf("a new moderation action: %+v", c)
	}
}

// The docs' sample report (docs/spec-changes.md) is the golden report's
// beginning, so it cannot drift from what the tool prints.
func TestReadmeSampleIsTheGolden(t *testing.T) {
	readme, err := os.ReadFile("../../docs/spec-changes.md")
	if err != nil {
		t.Fatal(err)
	}
	golden, err := os.ReadFile("testdata/a2a-v0.3.0-to-v1.0.1.txt")
	if err != nil {
		t.Fatal(err)
	}
	const intro = "v1.0.1, for example, starts:\n\n```text\n"
	_, sample, ok := strings.Cut(string(readme), intro)
	if !ok {
		t.Fatalf("docs/spec-changes.md has no sample after %q", intro)
	}
	sample, _, _ = strings.Cut(sample, "  …\n```")
	if !strings.HasPrefix(string(golden), sample) || strings.Count(sample, "\n") < 3 {
		t.Errorf("the README's sample is not the beginning of testdata/a2a-v0.3.0-to-v1.0.1.txt:\n%s", sample)
	}
}
