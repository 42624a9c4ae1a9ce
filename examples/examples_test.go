// Package examples_test checks the example modules below examples/. Each
// example is a module of its own, so the main module's go test does not see
// it; this test builds and runs it the way a downstream user would.
package examples_test

import (
	"bytes"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/agui-gen/agui-gen/internal/longtest"
)

// binDir holds the agui-gen binary the tests share, built once.
var binDir string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "examples-bin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binDir = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// buildAGUIGen builds ../cmd/agui-gen once for all the tests that run it, as
// go run would have built it for each.
var buildAGUIGen = sync.OnceValues(func() (string, error) {
	bin := filepath.Join(binDir, "agui-gen")
	if out, err := exec.Command("go", "build", "-o", bin, "../cmd/agui-gen").CombinedOutput(); err != nil {
		return "", fmt.Errorf("building agui-gen: %v\n%s", err, out)
	}
	return bin, nil
})

// aguiGen returns the path of the agui-gen binary built from this checkout.
func aguiGen(t *testing.T) string {
	t.Helper()
	bin, err := buildAGUIGen()
	if err != nil {
		t.Fatal(err)
	}
	return bin
}

const (
	downstreamDir = "downstream"
	generatedDir  = "gen"
)

// TestDownstream copies examples/downstream to a temporary directory, points
// its replace directive at this checkout, regenerates its AG-UI package with
// go generate, builds, vets and runs it, and checks that the regenerated files
// are identical to the checked-in ones, so a stale example fails the suite.
func TestDownstream(t *testing.T) {
	longtest.Skip(t, "the downstream example compiles agui-gen and runs go generate, go build, go vet and go run in a copy of examples/downstream")
	t.Parallel()
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("skipping the downstream example: no go command on PATH: %v", err)
	}
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}

	dir := filepath.Join(t.TempDir(), "downstream")
	if err := os.CopyFS(dir, os.DirFS(downstreamDir)); err != nil {
		t.Fatalf("copying %s: %v", downstreamDir, err)
	}
	// Generated files are rewritten in place; make the copies writable
	// whatever mode the checkout gave them.
	if err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		mode := os.FileMode(0o644)
		if d.IsDir() {
			mode = 0o755
		}
		return os.Chmod(path, mode)
	}); err != nil {
		t.Fatal(err)
	}

	// -mod=mod lets the copy fill go.sum gaps instead of failing on them;
	// GOWORK=off keeps a go.work above the temporary directory out of it.
	env := append(os.Environ(), "GOWORK=off", "GOFLAGS="+strings.TrimSpace(os.Getenv("GOFLAGS")+" -mod=mod"))
	run := func(args ...string) (stdout []byte) {
		t.Helper()
		cmd := exec.Command(goBin, args...)
		cmd.Dir = dir
		cmd.Env = env
		var out, errOut bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errOut
		if err := cmd.Run(); err != nil {
			t.Fatalf("go %s: %v\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), err, out.Bytes(), errOut.Bytes())
		}
		if errOut.Len() > 0 {
			t.Logf("go %s: stderr:\n%s", strings.Join(args, " "), errOut.Bytes())
		}
		return out.Bytes()
	}

	run("mod", "edit", "-replace=github.com/agui-gen/agui-gen="+root)

	stale := slices.Collect(maps.Keys(readGenerated(t, filepath.Join(dir, generatedDir))))
	if len(stale) == 0 {
		t.Fatalf("%s/%s holds no *_gen.go files: run go generate ./... in %s", downstreamDir, generatedDir, downstreamDir)
	}
	for _, f := range stale {
		if err := os.Remove(filepath.Join(dir, generatedDir, f)); err != nil {
			t.Fatal(err)
		}
	}

	run("generate", "./...")
	run("build", "./...")
	run("vet", "./...")
	out := run("run", ".")
	if !bytes.HasPrefix(out, []byte("data: {")) {
		t.Errorf("go run . printed %q, want server-sent events starting with %q", firstLine(out), "data: {")
	}

	want := readGenerated(t, filepath.Join(downstreamDir, generatedDir))
	got := readGenerated(t, filepath.Join(dir, generatedDir))
	for _, name := range slices.Sorted(maps.Keys(want)) {
		g, ok := got[name]
		switch {
		case !ok:
			t.Errorf("%s/%s/%s is checked in but go generate no longer writes it", downstreamDir, generatedDir, name)
		case !bytes.Equal(g, want[name]):
			t.Errorf("%s/%s/%s is stale: it differs from what go generate writes", downstreamDir, generatedDir, name)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(got)) {
		if _, ok := want[name]; !ok {
			t.Errorf("go generate writes %s/%s/%s, which is not checked in", downstreamDir, generatedDir, name)
		}
	}
	if t.Failed() {
		t.Logf("to update the example: cd examples/%s && go generate ./...", downstreamDir)
	}
}

// readGenerated returns the contents of the *_gen.go files below dir, by
// their slash-separated paths relative to dir.
func readGenerated(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, "_gen.go") {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		files[filepath.ToSlash(rel)] = b
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func firstLine(b []byte) []byte {
	line, _, _ := bytes.Cut(b, []byte("\n"))
	return line
}

// TestScaffoldNewModule runs agui-gen scaffold the way a new user would,
// into an empty directory as a new module, then go mod tidy, go vet and
// go test there: the scaffold's own tests serve AG-UI and A2A on packages
// generated into its gen directory, and its go:generate line regenerates
// them. A second scaffold refuses to overwrite.
func TestScaffoldNewModule(t *testing.T) {
	longtest.Skip(t, "the scaffold builds, vets and tests a new module")
	t.Parallel()
	bin := aguiGen(t)
	dir := filepath.Join(t.TempDir(), "myagent")
	scaffold := func() ([]byte, error) {
		return exec.Command(bin, "scaffold", "--out", dir, "--module", "example.com/myagent").CombinedOutput()
	}
	if out, err := scaffold(); err != nil {
		t.Fatalf("agui-gen scaffold: %v\n%s", err, out)
	}
	env := append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	for _, args := range [][]string{{"mod", "tidy"}, {"vet", "./..."}, {"test", "./..."}} {
		cmd := exec.Command("go", args...)
		cmd.Dir, cmd.Env = dir, env
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go %s in the scaffold: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	// The scaffold's own go:generate line regenerates what scaffold wrote,
	// byte for byte, through the agui-gen its go.mod requires.
	before := readGenerated(t, filepath.Join(dir, "gen"))
	cmd := exec.Command("go", "generate", "./...")
	cmd.Dir, cmd.Env = dir, env
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go generate in the scaffold: %v\n%s", err, out)
	}
	if after := readGenerated(t, filepath.Join(dir, "gen")); !maps.EqualFunc(before, after, bytes.Equal) {
		t.Error("go generate in the scaffold wrote other packages than agui-gen scaffold did")
	}
	if out, err := scaffold(); err == nil || !bytes.Contains(out, []byte("main.go")) {
		t.Errorf("a second scaffold over the first: %v\n%s", err, out)
	}
}

// TestScaffoldAGUIOnly: scaffold --only agui writes an AG-UI server on the
// agui package and its META stores alone: its module takes in no A2A and
// no card signing, and its own vet and tests pass.
func TestScaffoldAGUIOnly(t *testing.T) {
	longtest.Skip(t, "the AG-UI-only scaffold builds, vets and tests a new module")
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "uionly")
	if out, err := exec.Command(aguiGen(t), "scaffold", "--out", dir, "--module", "example.com/uionly", "--only", "agui").CombinedOutput(); err != nil {
		t.Fatalf("agui-gen scaffold --only agui: %v\n%s", err, out)
	}
	if _, err := os.Stat(filepath.Join(dir, "gen", "a2a")); err == nil {
		t.Error("gen/a2a was generated for an AG-UI server")
	}
	env := append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	for _, args := range [][]string{{"mod", "tidy"}, {"vet", "./..."}, {"test", "./..."}} {
		cmd := exec.Command("go", args...)
		cmd.Dir, cmd.Env = dir, env
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go %s in the scaffold: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	mod, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	// gRPC comes in with the OTLP exporters (their protobuf packages import
	// it), not with anything of A2A's.
	for _, dep := range []string{"go-jose", "gowebpki/jcs"} {
		if bytes.Contains(mod, []byte(dep)) {
			t.Errorf("the AG-UI server's go.mod takes in %s:\n%s", dep, mod)
		}
	}
}
