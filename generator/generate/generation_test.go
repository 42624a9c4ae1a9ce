package generate_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agui-gen/agui-gen/generator/generate"
)

// TestGenerationTemplateIsTheEmbeddedProtosOutput: templates/a2atask's
// generation.go, which lets the template package compile, is what the
// generator emits for the embedded proto.
func TestGenerationTemplateIsTheEmbeddedProtosOutput(t *testing.T) {
	files, err := generate.Generate(embedded(t), generate.Options{ImportPath: genImport})
	if err != nil {
		t.Fatal(err)
	}
	template, err := os.ReadFile("../../templates/a2atask/generation.go")
	if err != nil {
		t.Fatal(err)
	}
	body := func(src []byte) []byte { return src[bytes.Index(src, []byte("\nimport ")):] }
	for _, f := range files {
		if f.Path == "a2a/a2atask/generation_gen.go" {
			if !bytes.Equal(body(f.Content), body(template)) {
				t.Errorf("templates/a2atask/generation.go differs from what the generator emits for the embedded proto:\n%s", f.Content)
			}
			return
		}
	}
	t.Fatal("no a2a/a2atask/generation_gen.go in the output")
}

// TestDevProtoGeneration generates from the dev-1.1 proto, whose tasks and
// events carry a generation, with the v1.0.0 proto as an earlier version,
// into a package inside this module, and runs a test there
// (testdata/generation) against its runtime with our client and a2a-go's,
// as 1.1 and 1.0 clients.
func TestDevProtoGeneration(t *testing.T) {
	if testing.Short() {
		t.Skip("skipping the dev-1.1 generation in -short mode: it builds a generated A2A package")
	}
	in := embedded(t)
	var err error
	if in.A2AProto, err = generate.ReadSpec("../testdata/a2a-dev-1.1.proto"); err != nil {
		t.Fatal(err)
	}
	in.A2AVersion = "1.1"
	// 1.0's clients are served beside 1.1's through the adapter generated
	// from the two protos (no rules: the generated conversions carry it all).
	v10, err := generate.ReadSpec("../testdata/a2a-v1.0.0.proto")
	if err != nil {
		t.Fatal(err)
	}
	in.A2ACompat = append(in.A2ACompat, v10)
	// Inside the module, so the test there builds with this module's
	// dependencies; under testdata, so ./... never sees it.
	dir, err := os.MkdirTemp("testdata", "dev11-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	importPath := "github.com/agui-gen/agui-gen/generator/generate/" + filepath.ToSlash(dir) + "/gen"
	files, err := generate.Generate(in, generate.Options{ImportPath: importPath})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := generate.Write(filepath.Join(dir, "gen"), files); err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile("testdata/generation/generation_test.go.txt")
	if err != nil {
		t.Fatal(err)
	}
	src = bytes.ReplaceAll(src, []byte(`"GEN/`), []byte(`"`+importPath+"/"))
	if err := os.WriteFile(filepath.Join(dir, "gen", "a2a", "a2atask", "generation_test.go"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("go", "test", "-count=1", "./"+filepath.ToSlash(filepath.Join(dir, "gen", "a2a", "a2atask"))).CombinedOutput()
	if err != nil {
		t.Fatalf("go test in the dev-1.1 package: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "ok") {
		t.Errorf("go test printed %s", out)
	}
}
