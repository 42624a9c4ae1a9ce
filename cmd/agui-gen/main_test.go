package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"

	"github.com/agui-gen/agui-gen/generator/scaffold"
)

func run(t *testing.T, args ...string) (string, error) {
	t.Helper()
	app := newApp()
	var out bytes.Buffer
	app.Writer, app.ErrWriter = &out, &out
	app.ExitErrHandler = func(*cli.Context, error) {}
	err := app.Run(append([]string{"agui-gen"}, args...))
	return out.String(), err
}

func TestGenerateThenCheck(t *testing.T) {
	dir := t.TempDir()
	if _, err := run(t, "generate", "--out", dir, "--package-path", "example.com/x/gen"); err != nil {
		t.Fatal(err)
	}
	if _, err := run(t, "generate", "--out", dir, "--package-path", "example.com/x/gen", "--check"); err != nil {
		t.Fatalf("fresh output reported stale: %v", err)
	}
	stale := filepath.Join(dir, "agui", "types_gen.go")
	if err := os.WriteFile(stale, []byte("package agui\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := run(t, "generate", "--out", dir, "--package-path", "example.com/x/gen", "--check")
	var exit cli.ExitCoder
	if !errors.As(err, &exit) || exit.ExitCode() != 1 || !strings.Contains(err.Error(), "agui/types_gen.go") {
		t.Fatalf("--check on a stale tree: want exit 1 naming the file, got %v", err)
	}
	if b, _ := os.ReadFile(stale); string(b) != "package agui\n" {
		t.Error("--check wrote files")
	}
}

func TestBadSchemaFileIsAClearError(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "schema.json")
	os.WriteFile(bad, []byte(`{"$id":"urn:x","$defs":{"Metadata":{"type":"object"},"A":{"type":"object","properties":{"p":{"anyOf":[{}]}}}}}`), 0o644)
	_, err := run(t, "generate", "--out", t.TempDir(), "--agui-schema", bad)
	if err == nil || !strings.Contains(err.Error(), "schema.json") || !strings.Contains(err.Error(), "#/$defs/A/properties/p/anyOf") {
		t.Fatalf("want an error naming the file and pointer, got %v", err)
	}
}

func TestHelpHasExamples(t *testing.T) {
	out, err := run(t, "generate", "--help")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"--out", "--check", "go:generate", "Examples"} {
		if !strings.Contains(out, want) {
			t.Errorf("help lacks %q", want)
		}
	}
}

func TestVersion(t *testing.T) {
	out, err := run(t, "version")
	if err != nil || !strings.Contains(out, "https://ag-ui.com/spec/1.1/schema.json") || !strings.Contains(out, "a2a-v0.3.0.proto package a2a.v1") {
		t.Fatalf("version: %v\n%s", err, out)
	}
}

func TestDiffFailOnBreaking(t *testing.T) {
	out, err := run(t, "diff", "--from", "../../generator/testdata/a2a-v1.0.0.proto", "--to", "embedded", "--fail-on-breaking")
	if err != nil || !strings.Contains(out, "no changes") {
		t.Fatalf("v1.0.0 → embedded v1.0.1: %v\n%s", err, out)
	}
	out, err = run(t, "diff", "--from", "../../generator/testdata/a2a-v0.3.0.proto", "--to", "embedded", "--fail-on-breaking", "--format", "markdown")
	var exit cli.ExitCoder
	if !errors.As(err, &exit) || exit.ExitCode() != 1 {
		t.Fatalf("v0.3.0 → v1.0.1 with --fail-on-breaking: want exit 1, got %v", err)
	}
	if !strings.Contains(out, "| ❌ | renamed | rpc | `A2AService.SubscribeToTask` |") {
		t.Errorf("markdown report lacks the SubscribeToTask rename:\n%.2000s", out)
	}
	if _, err := run(t, "diff", "--from", "embedded", "--to", "embedded", "--format", "yaml"); err == nil {
		t.Error("an unknown format was accepted")
	}
}

// TestScaffoldNextSteps: after a scaffold into a module, the hint runs the
// package from the module's root, whether --out was absolute (from
// elsewhere: cd to the root first) or relative to the root.
func TestScaffoldNextSteps(t *testing.T) {
	root := filepath.Join(t.TempDir(), "my app")
	if err := os.MkdirAll(root, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "go.mod"), []byte("module example.com/app\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := run(t, "scaffold", "--out", filepath.Join(root, "cmd", "agent"), "--gen", "example.com/app/gen")
	if err != nil {
		t.Fatal(err)
	}
	if want := "next: cd '" + root + "' && go mod tidy && go run ./cmd/agent\n"; !strings.HasSuffix(out, want) {
		t.Errorf("with an absolute --out:\n%s\nwant it to end with %q", out, want)
	}

	t.Chdir(root)
	out, err = run(t, "scaffold", "--out", "cmd/other/", "--gen", "example.com/app/gen")
	if err != nil {
		t.Fatal(err)
	}
	files, _ := scaffold.Files(scaffold.Options{Gen: "example.com/app/gen"})
	if want := fmt.Sprintf("wrote %d files to cmd/other/\nnext: go mod tidy && go run ./cmd/other\n", len(files)); out != want {
		t.Errorf("from the root:\n%s\nwant %q", out, want)
	}
}

// TestScaffoldNewModuleCountsGenerated: a scaffold that generates its
// packages says how many files it wrote of each kind, and where to go.
func TestScaffoldNewModuleCountsGenerated(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "agent")
	out, err := run(t, "scaffold", "--out", dir, "--module", "example.com/agent")
	if err != nil {
		t.Fatal(err)
	}
	gen, err := filepath.Glob(filepath.Join(dir, "gen", "*", "*_gen.go"))
	if err != nil || len(gen) == 0 {
		t.Fatalf("no generated files: %v", err)
	}
	files, _ := scaffold.Files(scaffold.Options{Gen: "example.com/agent/gen", Generate: true, Module: "example.com/agent"})
	for _, want := range []string{fmt.Sprintf("wrote %d files to %s, and ", len(files), dir),
		" generated files to " + filepath.Join(dir, "gen") + "\n",
		"next: cd " + dir + " && go mod tidy && go run .\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("the scaffold said:\n%s\nwhich lacks %q", out, want)
		}
	}
}

func TestPinnableVersion(t *testing.T) {
	for v, want := range map[string]string{
		"v1.4.0":                             "v1.4.0",
		"v0.0.0-20260101120000-abcdef123456": "v0.0.0-20260101120000-abcdef123456",
		"v1.4.1-0.20260101120000-abcdef123456+dirty": "",
		"(devel)": "",
		"":        "",
	} {
		if got := pinnableVersion(v); got != want {
			t.Errorf("pinnableVersion(%q) = %q, want %q", v, got, want)
		}
	}
}

// TestExtendLedger: a new schema that adds an event and a field generates
// in one command with --extend-ledger, which writes the ledger (new from
// the embedded one here) and says what it numbered; --check then passes,
// and fails on a ledger that lacks the new slots.
func TestExtendLedger(t *testing.T) {
	const schema = "../../generator/generate/testdata/agui-next/schema.json"
	dir := t.TempDir()
	ledger := filepath.Join(dir, "proto-freeze.txt")
	gen := func(extra ...string) (string, error) {
		return run(t, append([]string{"generate", "--out", filepath.Join(dir, "gen"), "--package-path", "example.com/x/gen", "--agui-schema", schema}, extra...)...)
	}
	if _, err := gen("--extend-ledger"); err == nil || !strings.Contains(err.Error(), "--agui-ledger") {
		t.Errorf("--extend-ledger without a file: %v", err)
	}
	out, err := gen("--agui-ledger", ledger, "--extend-ledger")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "numbered 6 new slots") || !strings.Contains(out, "TextMessageStartEvent.priority = 6") {
		t.Errorf("the summary: %s", out)
	}
	written, err := os.ReadFile(ledger)
	if err != nil || !bytes.Contains(written, []byte("\nEvent.event.notice = 32\n")) {
		t.Fatalf("the ledger: %v\n%.200s", err, written)
	}
	if _, err := gen("--agui-ledger", ledger, "--check"); err != nil {
		t.Errorf("--check after extending: %v", err)
	}
	if out, err := gen("--agui-ledger", ledger, "--extend-ledger"); err != nil || strings.Contains(out, "numbered") {
		t.Errorf("a second extend: %q %v", out, err)
	}
	old := filepath.Join(dir, "old-freeze.txt")
	if err := os.WriteFile(old, bytes.Replace(written, []byte("TextMessageStartEvent.priority = 6\n"), nil, 1), 0o644); err != nil {
		t.Fatal(err)
	}
	var exit cli.ExitCoder
	if _, err := gen("--agui-ledger", old, "--extend-ledger", "--check"); !errors.As(err, &exit) || exit.ExitCode() != 1 || !strings.Contains(err.Error(), "TextMessageStartEvent.priority") {
		t.Errorf("--check on a ledger that lacks a slot: %v", err)
	}
	if _, err := gen("--agui-ledger", old); err == nil || !strings.Contains(err.Error(), "TextMessageStartEvent.priority has no number") {
		t.Errorf("without --extend-ledger: %v", err)
	}
}

// TestMistakesAreShortErrors: a missing required flag, an unknown flag or
// command, and stray arguments each get one short error that says what
// to do (with the likely meant name), exit 2, and no help dump.
func TestMistakesAreShortErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"generate"}, "--out is required"},
		{[]string{"diff", "--from", "embedded"}, "--to is required"},
		{[]string{"generate", "--ou", "x"}, "did you mean --out?"},
		{[]string{"generate", "--pakage-path", "x"}, "did you mean --package-path?"},
		{[]string{"generat"}, `no command "generat": did you mean "generate"?`},
		{[]string{"generate", "--out", t.TempDir(), "extra"}, `takes no arguments, but was given ["extra"]`},
	} {
		out, err := run(t, tc.args...)
		var exit cli.ExitCoder
		if !errors.As(err, &exit) || exit.ExitCode() != 2 || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("agui-gen %s: %v, want exit 2 saying %q", strings.Join(tc.args, " "), err, tc.want)
		}
		if strings.Contains(out, "USAGE:") || strings.Contains(err.Error(), "USAGE:") {
			t.Errorf("agui-gen %s printed its help:\n%s", strings.Join(tc.args, " "), out)
		}
	}
	if out, err := run(t, "--version"); err != nil || !strings.Contains(out, "agui-gen version") {
		t.Errorf("--version: %q %v", out, err)
	}
}

// TestGenerateCompatFromFiles: an earlier version given as files (its JSON
// Schema, and its proto as VERSION=FILE or FILE) generates what the
// embedded specs do, and so does a v0.3 proto given as the main one.
func TestGenerateCompatFromFiles(t *testing.T) {
	dir := t.TempDir()
	schema, proto := "../../schemas/a2a/a2a-v0.3.0.schema.json", "../../schemas/a2a/a2a-v0.3.0.proto"
	args := []string{"generate", "--out", dir, "--package-path", "github.com/agui-gen/agui-gen/gen", "--a2a-compat", schema, "--a2a-compat", "0.3=" + proto}
	out, err := run(t, args...)
	if err != nil {
		t.Fatal(err)
	}
	// A line says what was done: everything written the first time,
	// nothing the second.
	if !regexp.MustCompile(`^generated (\d+) files in \S+: (\d+) written, 0 already up to date, 0 removed\n$`).MatchString(out) {
		t.Errorf("the first generate says %q", out)
	}
	if again, err := run(t, args...); err != nil || !regexp.MustCompile(`: 0 written, \d+ already up to date, 0 removed\n$`).MatchString(again) {
		t.Errorf("the second generate says %q (%v)", again, err)
	}
	for _, f := range []string{"a2a/compat_v03_gen.go", "a2a/a2av03pb/types_gen.go", "a2a/a2av03/types_gen.go"} {
		got, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		want, err := os.ReadFile(filepath.Join("../../gen", f))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s differs from the one the embedded specs generate", f)
		}
	}
	// 0.3's package (a2a.v1) is known: its version need not be named.
	if _, err = run(t, "generate", "--out", t.TempDir(), "--package-path", "example.com/gen", "--a2a-compat", schema, "--a2a-compat", proto); err != nil {
		t.Errorf("a 0.3 proto without its version: %v", err)
	}
	// A v0.3 proto as the main one is served through the adapter, and
	// generate says so.
	dir = t.TempDir()
	if out, err := run(t, "generate", "--out", dir, "--package-path", "github.com/agui-gen/agui-gen/gen", "--a2a-proto", proto); err != nil {
		t.Fatal(err)
	} else if !strings.Contains(out, "agui-gen: a2a-v0.3.0.proto defines A2A 0.3, older than the A2A 1.0 the runtime is written against") {
		t.Errorf("generate does not say how it serves 0.3: %q", out)
	}
	if _, err := run(t, "generate", "--out", dir, "--package-path", "github.com/agui-gen/agui-gen/gen", "--check"); err != nil {
		t.Errorf("--a2a-proto a2a-v0.3.0.proto generates other files than the embedded specs: %v", err)
	}
}

// diff --format json names every member in lowerCamel, and an empty report
// lists no changes as [], not null.
func TestDiffJSONKeys(t *testing.T) {
	out, err := run(t, "diff", "--from", "../../generator/testdata/a2a-v1.0.0.proto", "--to", "embedded", "--format", "json")
	if err != nil {
		t.Fatal(err)
	}
	var report struct {
		From    []map[string]any `json:"from"`
		Changes []any            `json:"changes"`
	}
	if err := json.Unmarshal([]byte(out), &report); err != nil || len(report.From) != 1 || report.Changes == nil || len(report.Changes) != 0 {
		t.Fatalf("%v\n%s", err, out)
	}
	for key := range report.From[0] {
		if key != strings.ToLower(key[:1])+key[1:] {
			t.Errorf("member %q is not lowerCamel", key)
		}
	}
	if report.From[0]["file"] != "a2a-v1.0.0.proto" || report.From[0]["sha256"] == nil {
		t.Errorf("from: %v", report.From[0])
	}
}

// Outside a module and without --package-path, generate refuses to write
// packages whose imports could not resolve, and says what to do.
func TestGenerateOutsideAModule(t *testing.T) {
	dir := t.TempDir()
	_, err := run(t, "generate", "--out", filepath.Join(dir, "gen"))
	if err == nil || !strings.Contains(err.Error(), "in no Go module") || !strings.Contains(err.Error(), "--package-path") {
		t.Fatalf("generate outside a module: %v", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("it wrote %d entries", len(entries))
	}
}

// --only generates the packages named and those they import, as their
// imports say: AG-UI alone takes in none of A2A's, nor the META stores'.
func TestGenerateOnly(t *testing.T) {
	dir := t.TempDir()
	generated := func() []string {
		var pkgs []string
		filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(p, "_gen.go") {
				rel, _ := filepath.Rel(dir, filepath.Dir(p))
				if !slices.Contains(pkgs, filepath.ToSlash(rel)) {
					pkgs = append(pkgs, filepath.ToSlash(rel))
				}
			}
			return nil
		})
		slices.Sort(pkgs)
		return pkgs
	}
	gen := func(only ...string) error {
		args := []string{"generate", "--out", dir, "--package-path", "example.com/app/gen"}
		for _, o := range only {
			args = append(args, "--only", o)
		}
		_, err := run(t, args...)
		return err
	}
	if err := gen("agui"); err != nil {
		t.Fatal(err)
	}
	if got := generated(); !slices.Equal(got, []string{"agui"}) {
		t.Errorf("--only agui: %v", got)
	}
	if err := gen("bridge"); err != nil {
		t.Fatal(err)
	}
	if got := generated(); !slices.Contains(got, "bridge") || !slices.Contains(got, "a2a") || slices.Contains(got, "a2a/a2agrpc") || slices.Contains(got, "agenthost") {
		t.Errorf("--only bridge: %v", got)
	}
	if err := gen("no-such"); err == nil || !strings.Contains(err.Error(), "the packages are a2a,") {
		t.Errorf("--only no-such: %v", err)
	}
}

// diff --compat lists what the adapter between two versions of one major
// drops, from their protos alone.
func TestDiffCompatSameMajor(t *testing.T) {
	out, err := run(t, "diff", "--compat", "--from", "../../generator/testdata/a2a-v1.0.0.proto",
		"--to", "../../generator/testdata/a2a-dev-1.1.proto", "--to-version", "1.1")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"(10 converters)", "ToV10ProtoTask (1.1 Task → 1.0 Task)\n  dropped:  generation",
		"FromV10ProtoSendMessageConfiguration (1.0 SendMessageConfiguration → 1.1 SendMessageConfiguration)\n  unfilled: if_generation_match"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in:\n%s", want, out)
		}
	}
}

// --proto-path resolves a proto's own imports, for diff and descriptor.
func TestProtoPath(t *testing.T) {
	const dir = "../../generator/load/proto/testdata/imports"
	if _, err := run(t, "diff", "--from", dir+"/main.proto", "--to", dir+"/main.proto"); err == nil || !strings.Contains(err.Error(), "--proto-path DIR") {
		t.Errorf("diff without --proto-path: %v", err)
	}
	out, err := run(t, "diff", "--from", dir+"/main.proto", "--to", dir+"/main.proto", "--proto-path", dir)
	if err != nil || !strings.Contains(out, "no changes") {
		t.Errorf("diff: %v\n%s", err, out)
	}
	image := filepath.Join(t.TempDir(), "image.binpb")
	if _, err := run(t, "descriptor", "--out", image, "--a2a-proto", dir+"/main.proto", "--proto-path", dir); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(image); err != nil || !bytes.Contains(b, []byte("shared/item.proto")) {
		t.Errorf("the image lacks the imported file (%v)", err)
	}
}

// scaffold --only takes agui, and says what else there is.
func TestScaffoldOnly(t *testing.T) {
	_, err := run(t, "scaffold", "--out", t.TempDir(), "--module", "example.com/x", "--only", "a2a")
	var exit cli.ExitCoder
	if !errors.As(err, &exit) || exit.ExitCode() != 2 || !strings.Contains(err.Error(), "--only agui") {
		t.Errorf("scaffold --only a2a: %v", err)
	}
	dir := t.TempDir()
	if _, err := run(t, "scaffold", "--out", dir, "--module", "example.com/x", "--only", "agui", "--gen", "example.com/x/gen"); err != nil {
		t.Fatal(err)
	}
	main, err := os.ReadFile(filepath.Join(dir, "main.go"))
	if err != nil || bytes.Contains(main, []byte("/a2a")) || bytes.Contains(main, []byte("grpc")) {
		t.Errorf("the AG-UI server's main.go imports A2A or gRPC (%v)", err)
	}
}

// TestGenerateNamesWhatGoModLacks: in a module whose go.mod does not yet
// require what the generated packages import (a first generate, or an
// agui-gen whose output imports a new module), generate says to run go mod
// tidy and names the imports; once go.mod requires them, it says nothing.
func TestGenerateNamesWhatGoModLacks(t *testing.T) {
	root := t.TempDir()
	gomod := filepath.Join(root, "go.mod")
	if err := os.WriteFile(gomod, []byte("module example.com/app\n\ngo 1.26\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := run(t, "generate", "--out", filepath.Join(root, "gen"), "--only", "agui")
	if err != nil {
		t.Fatal(err)
	}
	// The generated packages import agui-gen's runtime, which go mod tidy
	// cannot find while agui-gen is unpublished: generate names the
	// command that requires this build's checkout.
	if !strings.Contains(out, "go mod edit -require=github.com/agui-gen/agui-gen@v0.0.0 -replace=github.com/agui-gen/agui-gen=") ||
		!strings.Contains(out, "&& go mod tidy") || !strings.Contains(out, "github.com/agui-gen/agui-gen/runtime/wire") ||
		!strings.Contains(out, "go.opentelemetry.io/otel/trace") || strings.Contains(out, "example.com/app") {
		t.Fatalf("generate in a module that requires nothing:\n%s", out)
	}
	requires := "module example.com/app\n\ngo 1.26\n\nrequire (\n\tgithub.com/agui-gen/agui-gen v0.0.0\n\tgithub.com/evanphx/json-patch/v5 v5.9.11\n\tgithub.com/rs/cors v1.11.1\n\tgo.opentelemetry.io/otel v1.47.0\n\tgo.opentelemetry.io/otel/metric v1.47.0\n\tgo.opentelemetry.io/otel/trace v1.47.0\n)\n"
	if err := os.WriteFile(gomod, []byte(requires), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := run(t, "generate", "--out", filepath.Join(root, "gen"), "--only", "agui"); err != nil || strings.Contains(out, "go mod tidy") {
		t.Fatalf("generate once go.mod requires it all: %v\n%s", err, out)
	}
}

// TestNotAnAGUISchemaIsNamed: generate --agui-schema on a file that is not an
// AG-UI JSON Schema says so at once, and what it is instead, as does --meta
// on a file that is not META definitions; nothing is written.
func TestNotAnAGUISchemaIsNamed(t *testing.T) {
	dir := t.TempDir()
	pkg := filepath.Join(dir, "package.json")
	os.WriteFile(pkg, []byte(`{"name":"my-app","version":"1.0.0"}`), 0o644)
	text := filepath.Join(dir, "notes.json")
	os.WriteFile(text, []byte("not JSON at all"), 0o644)
	for _, c := range []struct {
		flag, file, want string
	}{
		{"--agui-schema", pkg, "--agui-schema package.json is not an AG-UI JSON Schema: it has no $defs"},
		{"--agui-schema", text, "--agui-schema notes.json is not an AG-UI JSON Schema: it is not JSON"},
		{"--agui-schema", "../../schemas/meta/meta-events.schema.json", "is not an AG-UI JSON Schema: it is META event definitions; pass it with --meta"},
		{"--agui-schema", "../../schemas/a2a/a2a-v0.3.0.schema.json", "is not an AG-UI JSON Schema: it is an A2A JSON Schema; pass it with --a2a-compat"},
		{"--agui-schema", "../../schemas/a2a/a2a.proto", "is not an AG-UI JSON Schema: it is a proto; pass it with --a2a-proto"},
		{"--meta", "../../schemas/agui/schema.json", "--meta schema.json is not META event definitions: it is an AG-UI JSON Schema; pass it with --agui-schema"},
		{"--meta", pkg, "--meta package.json is not META event definitions: it does not name the schema it extends in x-agui-extends"},
	} {
		out := filepath.Join(dir, "gen")
		_, err := run(t, "generate", "--out", out, "--package-path", "example.com/x/gen", c.flag, c.file)
		var exit cli.ExitCoder
		if !errors.As(err, &exit) || exit.ExitCode() != 2 || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %s: %v, want exit 2 saying %q", c.flag, c.file, err, c.want)
		}
		if _, err := os.Stat(out); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s %s: something was written", c.flag, c.file)
		}
	}
}

// TestHelp: agui-gen help, and help for a command, print the help; every
// line of every command's help fits in helpWidth columns.
func TestHelp(t *testing.T) {
	out, err := run(t, "help")
	if err != nil || !strings.Contains(out, "COMMANDS:") || !strings.Contains(out, "generate") {
		t.Fatalf("agui-gen help: %v\n%s", err, out)
	}
	out, err = run(t, "help", "generate")
	if err != nil || !strings.Contains(out, "--agui-schema") {
		t.Fatalf("agui-gen help generate: %v\n%s", err, out)
	}
	for _, args := range [][]string{{"--help"}, {"generate", "--help"}, {"scaffold", "--help"}, {"diff", "--help"},
		{"descriptor", "--help"}, {"version", "--help"}} {
		out, err := run(t, args...)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(out, "\n") {
			if len([]rune(line)) > helpWidth {
				t.Errorf("%s: a line of %d characters: %s", strings.Join(args, " "), len([]rune(line)), line)
			}
		}
	}
}

// TestGenerateHelpSaysWherePackagesGo: --out's help names every package
// directory below DIR, and generate's help shows the go:generate line the
// README does.
func TestGenerateHelpSaysWherePackagesGo(t *testing.T) {
	out, err := run(t, "generate", "--help")
	if err != nil {
		t.Fatal(err)
	}
	flat := strings.Join(strings.Fields(out), " ")
	if !strings.Contains(flat, "each package is written below it (DIR/agui, DIR/a2a, DIR/bridge, DIR/agenthost)") {
		t.Errorf("--out's help does not say where packages go:\n%s", out)
	}
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	line := regexp.MustCompile(`//go:generate [^\n]*`)
	inReadme, inHelp := line.FindString(string(readme)), line.FindString(out)
	if inReadme == "" || inReadme != inHelp {
		t.Errorf("the README's go:generate line %q, generate's help's %q", inReadme, inHelp)
	}
}

// TestProtoBeyondItsVersion: an A2A proto that adds to the embedded
// version's, given without --a2a-version, is generated, and generate says
// which version it is served as, what it adds, and which flag to pass;
// with --a2a-version, or for the embedded proto, it says nothing of it.
func TestProtoBeyondItsVersion(t *testing.T) {
	dir := t.TempDir()
	gen := func(extra ...string) string {
		t.Helper()
		out, err := run(t, append([]string{"generate", "--out", filepath.Join(dir, "gen"), "--package-path", "example.com/x/gen"}, extra...)...)
		if err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		return out
	}
	out := gen("--a2a-proto", "../../generator/testdata/a2a-dev-1.1.proto")
	for _, want := range []string{"a2a-dev-1.1.proto has 5 elements the embedded A2A 1.0 proto lacks (field ", "Task.generation",
		"its package (lf.a2a.v1) names no later version, so it is served as A2A 1.0 and A2A 1.0 clients are sent what it adds",
		"name it with --a2a-version (such as --a2a-version 1.1)"} {
		if !strings.Contains(out, want) {
			t.Errorf("without --a2a-version, generate does not say %q:\n%s", want, out)
		}
	}
	for _, args := range [][]string{{"--a2a-proto", "../../generator/testdata/a2a-dev-1.1.proto", "--a2a-version", "1.1"}, {"--a2a-proto", "../../schemas/a2a/a2a.proto"}} {
		if out := gen(args...); strings.Contains(out, "--a2a-version") {
			t.Errorf("%v: %s", args, out)
		}
	}
}

// scaffold --model takes PROVIDER:NAME of a known provider, and says so
// otherwise; a good one writes model.go.
func TestScaffoldModel(t *testing.T) {
	for _, bad := range []string{"gpt-4.1", "mistral:large", "openai:"} {
		_, err := run(t, "scaffold", "--out", t.TempDir(), "--module", "example.com/x", "--model", bad)
		var exit cli.ExitCoder
		if !errors.As(err, &exit) || exit.ExitCode() != 2 || !strings.Contains(err.Error(), scaffold.ModelForm) {
			t.Errorf("scaffold --model %s: %v", bad, err)
		}
	}
	dir := t.TempDir()
	if _, err := run(t, "scaffold", "--out", dir, "--module", "example.com/x", "--gen", "example.com/x/gen", "--model", "anthropic:claude-sonnet-4-5"); err != nil {
		t.Fatal(err)
	}
	m, err := os.ReadFile(filepath.Join(dir, "model.go"))
	if err != nil || !bytes.Contains(m, []byte(`const modelName = "claude-sonnet-4-5"`)) || !bytes.Contains(m, []byte("ANTHROPIC_API_KEY")) {
		t.Errorf("model.go (%v):\n%s", err, m)
	}
}
