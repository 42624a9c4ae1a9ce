package golang_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agui-gen/agui-gen/generator/emit/golang"
	"github.com/agui-gen/agui-gen/generator/load/jsonschema"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// goldenDir holds the emitter's output for testdata/shapes.schema.json as a
// real package, so the goldens compile and are tested themselves.
const goldenDir = "internal/golden/shapes"

func emitShapes(t *testing.T) []golang.File {
	t.Helper()
	data, err := os.ReadFile("testdata/shapes.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	pkg, err := jsonschema.Load("shapes", jsonschema.Document{File: "shapes.schema.json", Data: data})
	if err != nil {
		t.Fatal(err)
	}
	files, err := golang.Package(pkg, golang.Options{PackageName: "shapes",
		ImportPath: "github.com/agui-gen/agui-gen/generator/emit/golang/" + goldenDir})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func TestGolden(t *testing.T) {
	files := emitShapes(t)
	for _, f := range files {
		path := filepath.Join(goldenDir, f.Name)
		if *update {
			if err := os.WriteFile(path, f.Content, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (run go test ./generator/... -update)", err)
		}
		if diff := cmp.Diff(string(want), string(f.Content)); diff != "" {
			t.Errorf("%s differs from the golden file (-golden +emitted); run with -update if intended:\n%s", f.Name, diff)
		}
	}
	existing, _ := filepath.Glob(filepath.Join(goldenDir, "*_gen.go"))
	if !*update && len(existing) != len(files) {
		t.Errorf("golden folder has %d files, the emitter writes %d", len(existing), len(files))
	}
}

func TestDeterministic(t *testing.T) {
	a, b := emitShapes(t), emitShapes(t)
	if len(a) != len(b) {
		t.Fatal("different file counts")
	}
	for i := range a {
		if a[i].Name != b[i].Name || !bytes.Equal(a[i].Content, b[i].Content) {
			t.Errorf("%s differs between two runs", a[i].Name)
		}
	}
}

func TestHeader(t *testing.T) {
	for _, f := range emitShapes(t) {
		if !bytes.HasPrefix(f.Content, []byte("// "+golang.Header+"\n// Source: ")) {
			t.Errorf("%s lacks the generated-code header", f.Name)
		}
	}
}
