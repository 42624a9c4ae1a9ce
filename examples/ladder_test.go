package examples_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agui-gen/agui-gen/internal/longtest"
)

// rung is one step of the spec ladder: a version the repository holds, or
// an upgrade from the one before. Its report (diff, when the rung is an
// upgrade) must be the golden one in generator/diff/testdata; then the
// scaffold is regenerated from the rung's specs (generate) and its own
// vet and tests must pass.
type rung struct {
	name     string
	diff     []string // the diff's --from and --to, in the scaffold's directory
	golden   string   // the report's golden, below generator/diff/testdata
	generate []string // generate's spec flags; none for the embedded specs
}

// ladder is every consecutive pair of spec versions the repository holds,
// A2A 0.3.0 → 1.0.0 → 1.0.1 → the dev-1.1 draft, AG-UI 1.1 → a synthetic
// next version, META 1.0 → a synthetic next one, each served beside the
// clients of the version before: the adapter from the earlier A2A proto,
// the AG-UI downgrade from the earlier schema. The AG-UI drafts (and the
// 1.0 schema, which upstream did not publish) only reach 1.1 by diff: their
// $id names no version, which the runtime declares on every run, so they
// are no generate's input; TestDraftsReachTheCurrentSchema checks their
// reports.
var ladder = []rung{
	{name: "A2A 0.3.0", generate: []string{"--a2a-proto", "specs/a2a-v0.3.0.proto"}},
	{name: "A2A 0.3.0 → 1.0.0", diff: []string{"specs/a2a-v0.3.0.proto", "specs/a2a-v1.0.0.proto"}, golden: "a2a-v0.3.0-to-v1.0.0",
		generate: []string{"--a2a-proto", "specs/a2a-v1.0.0.proto"}},
	{name: "A2A 1.0.0 → 1.0.1", diff: []string{"specs/a2a-v1.0.0.proto", "specs/a2a.proto"}, golden: "a2a-v1.0.0-to-v1.0.1",
		generate: []string{"--a2a-proto", "specs/a2a.proto"}},
	{name: "A2A 1.0.1 → dev-1.1", diff: []string{"specs/a2a.proto", "specs/a2a-dev-1.1.proto"}, golden: "a2a-v1.0.1-to-dev-1.1",
		generate: []string{"--a2a-proto", "specs/a2a-dev-1.1.proto", "--a2a-version", "1.1",
			"--a2a-compat", "specs/a2a-v0.3.0.schema.json", "--a2a-compat", "specs/a2a-v0.3.0.proto", "--a2a-compat", "specs/a2a.proto"}},
	{name: "AG-UI 1.1 → next", diff: []string{"specs/agui-1.1/schema.json", "specs/agui-next/schema.json"}, golden: "agui-1.1-to-next",
		generate: []string{"--agui-schema", "specs/agui-next/schema.json", "--agui-ledger", "specs/agui-next/proto-freeze.txt", "--extend-ledger"}},
	{name: "META 1.0 → next", diff: []string{"specs/meta-1.0/meta-events.schema.json", "specs/meta-next/meta-events.schema.json"}, golden: "meta-1.0-to-next",
		generate: []string{"--meta", "specs/meta-next/meta-events.schema.json"}},
}

// ladderSpecs are the spec files the rungs read, by their path in the
// scaffold, from this checkout.
var ladderSpecs = map[string]string{
	"specs/a2a-v0.3.0.proto":                  "../schemas/a2a/a2a-v0.3.0.proto",
	"specs/a2a-v0.3.0.schema.json":            "../schemas/a2a/a2a-v0.3.0.schema.json",
	"specs/a2a-v1.0.0.proto":                  "../generator/testdata/a2a-v1.0.0.proto",
	"specs/a2a.proto":                         "../schemas/a2a/a2a.proto",
	"specs/a2a-dev-1.1.proto":                 "../generator/testdata/a2a-dev-1.1.proto",
	"specs/agui-1.1/schema.json":              "../schemas/agui/schema.json",
	"specs/agui-next/schema.json":             "../generator/generate/testdata/agui-next/schema.json",
	"specs/meta-1.0/meta-events.schema.json":  "../schemas/meta/meta-events.schema.json",
	"specs/meta-next/meta-events.schema.json": "../generator/generate/testdata/meta-next/meta-events.schema.json",
}

// TestSpecLadder climbs the ladder on one scaffold, with the agui-gen CLI
// as a user runs it: for each rung, diff (its report the golden one),
// generate, then the scaffold's go vet and go test.
func TestSpecLadder(t *testing.T) {
	longtest.Skip(t, "the spec ladder regenerates, vets and tests a scaffold for each spec version")
	t.Parallel()
	bin := aguiGen(t)
	dir := filepath.Join(t.TempDir(), "ladder")
	if out, err := exec.Command(bin, "scaffold", "--out", dir, "--module", "example.com/ladder").CombinedOutput(); err != nil {
		t.Fatalf("agui-gen scaffold: %v\n%s", err, out)
	}
	for to, from := range ladderSpecs {
		data, err := os.ReadFile(from)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, to)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, to), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	env := append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	run := func(t *testing.T, name string, args ...string) []byte {
		t.Helper()
		cmd := exec.Command(name, args...)
		cmd.Dir, cmd.Env = dir, env
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s %s in the scaffold: %v\n%s", filepath.Base(name), strings.Join(args, " "), err, out)
		}
		return out
	}
	run(t, "go", "mod", "tidy")
	for _, r := range ladder {
		t.Run(r.name, func(t *testing.T) {
			if r.diff != nil {
				got := run(t, bin, "diff", "--from", r.diff[0], "--to", r.diff[1])
				want, err := os.ReadFile(filepath.Join("../generator/diff/testdata", r.golden+".txt"))
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got, want) {
					t.Errorf("agui-gen diff %s → %s differs from generator/diff/testdata/%s.txt:\n%s", r.diff[0], r.diff[1], r.golden, got)
				}
			}
			run(t, bin, append([]string{"generate", "--out", "gen"}, r.generate...)...)
			run(t, "go", "vet", "./...")
			run(t, "go", "test", "./...")
		})
	}
	if b, err := os.ReadFile(filepath.Join(dir, "specs", "agui-next", "proto-freeze.txt")); err != nil || !bytes.Contains(b, []byte("NoticeEvent.text = ")) {
		t.Errorf("the AG-UI rung left no extended ledger (%v)", err)
	}
}

// TestDraftsReachTheCurrentSchema: each AG-UI draft the repository holds is
// diffed to 1.1 by the CLI, its report the golden one. Their order among
// themselves is not known (upstream's commit dates are not), so each is a
// rung to 1.1 of its own.
func TestDraftsReachTheCurrentSchema(t *testing.T) {
	if testing.Short() {
		t.Skip("skipping the drafts' diffs in -short mode: it builds agui-gen")
	}
	t.Parallel()
	bin := aguiGen(t)
	for _, draft := range []string{"ceb76a8c49f4", "8cf4b49d2ac0", "b5d1810bebc1", "41655f473f46"} {
		out, err := exec.Command(bin, "diff",
			"--from", "../generator/testdata/agui-history/schema-"+draft+".json", "--to", "../schemas/agui/schema.json").CombinedOutput()
		if err != nil {
			t.Fatalf("diff of draft %s: %v\n%s", draft, err, out)
		}
		want, err := os.ReadFile("../generator/diff/testdata/agui-" + draft + "-to-1.1.txt")
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(out, want) {
			t.Errorf("the diff of draft %s to 1.1 differs from its golden:\n%s", draft, out)
		}
	}
}
