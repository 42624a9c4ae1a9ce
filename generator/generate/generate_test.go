package generate_test

import (
	"bytes"
	"go/format"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/agui-gen/agui-gen/generator/generate"
)

const genImport = "github.com/agui-gen/agui-gen/gen"

// testInGenerated generates in into a package tree inside this module (so
// a test there builds with this module's dependencies; under testdata, so
// ./... never sees it), keeps only the packages only names and what they
// import (all when nil), copies testFile (from testdata, "GEN/" standing for
// the tree's import path) into the package pkg ("agui", "a2a/a2atask") and
// runs go test -v there, with env added. It returns go test's output.
func testInGenerated(t *testing.T, in generate.Inputs, only []string, testFile, pkg string, env ...string) string {
	t.Helper()
	dir, err := os.MkdirTemp("testdata", "generated-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	importPath := "github.com/agui-gen/agui-gen/generator/generate/" + filepath.ToSlash(dir) + "/gen"
	out, err := generate.Run(in, generate.Options{ImportPath: importPath, ExtendLedger: true})
	if err != nil {
		t.Fatal(err)
	}
	files := out.Files
	if only != nil {
		if files, err = generate.Select(files, importPath, only); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := generate.Write(filepath.Join(dir, "gen"), files); err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile(filepath.Join("testdata", testFile))
	if err != nil {
		t.Fatal(err)
	}
	src = bytes.ReplaceAll(src, []byte(`"GEN/`), []byte(`"`+importPath+"/"))
	pkgDir := filepath.Join(dir, "gen", filepath.FromSlash(pkg))
	if err := os.WriteFile(filepath.Join(pkgDir, strings.TrimSuffix(filepath.Base(testFile), ".txt")), src, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "test", "-count=1", "-v", "./"+filepath.ToSlash(pkgDir))
	cmd.Env = append(os.Environ(), env...)
	got, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go test in the generated package %s: %v\n%s", pkg, err, got)
	}
	return string(got)
}

func embedded(t *testing.T) generate.Inputs {
	t.Helper()
	in, err := generate.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	return in
}

// TestCheckedInGenIsFresh fails when gen/ differs from a fresh generate:
// gen/ is never edited by hand.
func TestCheckedInGenIsFresh(t *testing.T) {
	t.Parallel()
	files, err := generate.Generate(embedded(t), generate.Options{ImportPath: genImport})
	if err != nil {
		t.Fatal(err)
	}
	stale, err := generate.Stale("../../gen", files)
	if err != nil {
		t.Fatal(err)
	}
	if len(stale) > 0 {
		t.Fatalf("gen/ is stale; run go run ./cmd/agui-gen generate --out gen\n%s", generate.Describe(stale))
	}
}

// TestOutputIsIdenticalAcrossRunsAndFolders writes the output twice, to two
// folders with different import paths, and compares the trees byte for byte.
func TestOutputIsIdenticalAcrossRunsAndFolders(t *testing.T) {
	t.Parallel()
	in := embedded(t)
	dirs := []string{t.TempDir(), t.TempDir()}
	paths := []string{"example.com/a/gen", "example.org/b/out"}
	for i, d := range dirs {
		files, err := generate.Generate(in, generate.Options{ImportPath: paths[i]})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := generate.Write(d, files); err != nil {
			t.Fatal(err)
		}
	}
	a, b := readTree(t, dirs[0]), readTree(t, dirs[1])
	if len(a) == 0 || len(a) != len(b) {
		t.Fatalf("trees have %d and %d files", len(a), len(b))
	}
	for name, content := range a {
		// A subpackage imports its parent by the output's import path; that
		// is the one difference the two outputs may have.
		content = bytes.ReplaceAll(content, []byte(`"`+paths[0]+"/"), []byte(`"`+paths[1]+"/"))
		if !bytes.Equal(content, b[name]) {
			t.Errorf("%s differs between the two outputs", name)
		}
	}
}

func readTree(t *testing.T, dir string) map[string][]byte {
	out := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		out[rel] = b
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestOutputIsFormattedAndSelfContained: every file is gofmt'd, carries the
// header, and imports nothing from agui-gen but its runtime; every package
// asserts the runtime version it needs.
func TestOutputIsFormattedAndSelfContained(t *testing.T) {
	t.Parallel()
	files, err := generate.Generate(embedded(t), generate.Options{ImportPath: genImport})
	if err != nil {
		t.Fatal(err)
	}
	asserts := map[string]bool{} // per package directory

	for _, f := range files {
		if !strings.HasSuffix(f.Path, "_gen.go") && !strings.HasSuffix(f.Path, "/example_gen_test.go") {
			t.Errorf("%s: generated files must end in _gen.go (or be a package's example_gen_test.go)", f.Path)
		}
		formatted, err := format.Source(f.Content)
		if err != nil {
			t.Fatalf("%s: %v", f.Path, err)
		}
		if !bytes.Equal(formatted, f.Content) {
			t.Errorf("%s is not gofmt'd", f.Path)
		}
		if !bytes.HasPrefix(f.Content, []byte("// Code generated by agui-gen. DO NOT EDIT.\n")) {
			t.Errorf("%s lacks the generated-code header", f.Path)
		}
		parsed, err := parser.ParseFile(token.NewFileSet(), f.Path, f.Content, parser.ImportsOnly)
		if err != nil {
			t.Fatalf("%s: %v", f.Path, err)
		}
		for _, imp := range parsed.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			own := p == genImport || strings.HasPrefix(p, genImport+"/") // a subpackage imports its parent
			runtime := strings.HasPrefix(p, "github.com/agui-gen/agui-gen/runtime/")
			if strings.HasPrefix(p, "github.com/agui-gen/agui-gen/") && !own && !runtime {
				t.Errorf("%s imports %s: generated code imports agui-gen's runtime and nothing else of it", f.Path, p)
			}
		}
		if strings.HasSuffix(f.Path, "_test.go") {
			continue
		}
		asserts[path.Dir(f.Path)] = asserts[path.Dir(f.Path)] || bytes.Contains(f.Content, []byte("\nconst _ = version.AtLeast"))
	}
	for dir, ok := range asserts {
		if !ok {
			t.Errorf("%s does not assert the runtime level it needs (const _ = version.AtLeastN)", dir)
		}
	}
}

// TestWriteRemovesOnlyStaleGeneratedFiles: a generated file no longer
// produced is deleted, a hand-written file beside it is kept.
func TestWriteRemovesOnlyStaleGeneratedFiles(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	pkg := filepath.Join(dir, "agui")
	os.MkdirAll(pkg, 0o755)
	os.WriteFile(filepath.Join(pkg, "old_gen.go"), []byte("// Code generated by agui-gen. DO NOT EDIT.\n\npackage agui\n"), 0o644)
	os.WriteFile(filepath.Join(pkg, "mine.go"), []byte("package agui\n"), 0o644)
	os.WriteFile(filepath.Join(pkg, "mocks_gen.go"), []byte("// Code generated by mockgen. DO NOT EDIT.\n\npackage agui\n"), 0o644)
	files, err := generate.Generate(embedded(t), generate.Options{ImportPath: "x/gen"})
	if err != nil {
		t.Fatal(err)
	}
	if stale, _ := generate.Stale(dir, files); len(stale) == 0 {
		t.Fatal("Stale found nothing in a folder that lacks the output")
	}
	if _, err := generate.Write(dir, files); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(pkg, "old_gen.go")); !os.IsNotExist(err) {
		t.Error("stale generated file was kept")
	}
	if _, err := os.Stat(filepath.Join(pkg, "mine.go")); err != nil {
		t.Error("hand-written file was deleted")
	}
	if _, err := os.Stat(filepath.Join(pkg, "mocks_gen.go")); err != nil {
		t.Error("another generator's file was deleted")
	}
	if stale, _ := generate.Stale(dir, files); len(stale) != 0 {
		t.Errorf("fresh output reported stale: %v", stale)
	}
}

// TestEarlierMajorAsTheMainProto: a v0.3 proto given as the main one
// (--a2a-proto a2a-v0.3.0.proto, its version read from its package a2a.v1)
// generates the runtime from the embedded v1.0 proto and serves 0.3's
// clients through the adapter, with the given proto as 0.3's: the output
// is the checked-in gen/, which compiles, and whose 0.3 service the interop
// tests run with a2a-go v0.3.15's and @a2a-js/sdk 0.3.14's clients. The
// run says what it decided.
func TestEarlierMajorAsTheMainProto(t *testing.T) {
	t.Parallel()
	in := embedded(t)
	var err error
	if in.A2AProto, err = generate.ReadSpec("../testdata/a2a-v0.3.0.proto"); err != nil {
		t.Fatal(err)
	}
	in.A2AVersion = ""
	out, err := generate.Run(in, generate.Options{ImportPath: genImport})
	if err != nil {
		t.Fatal(err)
	}
	stale, err := generate.Stale("../../gen", out.Files)
	if err != nil {
		t.Fatal(err)
	}
	if len(stale) > 0 {
		t.Errorf("a v0.3 main proto generates other files than gen/:\n%s", generate.Describe(stale))
	}
	if len(out.Notes) != 1 || !strings.Contains(out.Notes[0], "a2a-v0.3.0.proto defines A2A 0.3, older than the A2A 1.0 the runtime is written against") {
		t.Errorf("notes: %q", out.Notes)
	}

	// Without 0.3's JSON Schema there is no JSON-RPC wire to serve it on.
	in.A2ACompat = nil
	if _, err := generate.Run(in, generate.Options{ImportPath: genImport}); err == nil ||
		!strings.Contains(err.Error(), "its JSON-RPC wire is its JSON Schema: give it with --a2a-compat FILE") {
		t.Errorf("no 0.3 schema: %v", err)
	}
}
