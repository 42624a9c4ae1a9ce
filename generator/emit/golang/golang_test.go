package golang_test

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agui-gen/agui-gen/generator/emit/golang"
	"github.com/agui-gen/agui-gen/generator/load/jsonschema"
	protoload "github.com/agui-gen/agui-gen/generator/load/proto"
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

// emitA2Av030 emits the A2A v0.3.0 proto, the version users upgrade from,
// into a second golden package.
func emitA2Av030(t *testing.T) []golang.File {
	t.Helper()
	data, err := os.ReadFile("../../testdata/a2a-v0.3.0.proto")
	if err != nil {
		t.Fatal(err)
	}
	pkg, err := protoload.Load(context.Background(), "a2a", "a2a-v0.3.0.proto", data)
	if err != nil {
		t.Fatal(err)
	}
	pkg.Sources[0].Version = "0.3" // the release the proto came from; the proto does not say
	files, err := golang.ProtoPackage(pkg, golang.Options{PackageName: "a2av030",
		ImportPath: "github.com/agui-gen/agui-gen/generator/emit/golang/internal/golden/a2av030"})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func TestGolden(t *testing.T) {
	checkGolden(t, goldenDir, emitShapes(t))
}

func TestGoldenA2Av030(t *testing.T) {
	checkGolden(t, "internal/golden/a2av030", emitA2Av030(t))
}

func checkGolden(t *testing.T, goldenDir string, files []golang.File) {
	t.Helper()
	if *update {
		os.MkdirAll(goldenDir, 0o755)
	}
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

// TestNameClashesAreErrors: a property whose Go name would collide with a
// generated method or field is an error naming it, not code that fails to
// compile or a silently renamed type.
func TestNameClashesAreErrors(t *testing.T) {
	for name, doc := range map[string]string{
		"method": `{"$id": "urn:t", "$defs": {"A": {"type": "object", "properties": {"validate": {"type": "string"}}, "unevaluatedProperties": false}}}`,
		"extra":  `{"$id": "urn:t", "$defs": {"A": {"type": "object", "properties": {"extra": {"type": "string"}}}}}`,
	} {
		pkg, err := jsonschema.Load("t", jsonschema.Document{File: "t.json", Data: []byte(doc)})
		if err != nil {
			t.Fatal(err)
		}
		_, err = golang.Package(pkg, golang.Options{PackageName: "t", ImportPath: "t"})
		if err == nil || !strings.Contains(err.Error(), "which is taken") {
			t.Errorf("%s: want a name clash error, got %v", name, err)
		}
	}
}
