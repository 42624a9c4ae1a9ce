package examples_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/agui-gen/agui-gen/internal/longtest"
)

// TestScaffoldResumable: scaffold --resumable writes a new module whose
// vet and tests pass, among them its TestResumableRun (a run whose
// connection drops is resumed with Last-Event-ID, and the capabilities
// declare transport.resumable), and which builds.
func TestScaffoldResumable(t *testing.T) {
	longtest.Skip(t, "the --resumable scaffold builds, vets and tests a new module")
	resumableServer(t)
}

// resumableServer returns the server scaffold --resumable writes, built
// once for the tests that run it.
func resumableServer(t *testing.T) string {
	t.Helper()
	bin, err := buildResumableServer()
	if err != nil {
		t.Fatal(err)
	}
	return bin
}

var buildResumableServer = sync.OnceValues(func() (string, error) {
	gen, err := buildAGUIGen()
	if err != nil {
		return "", err
	}
	dir := filepath.Join(binDir, "resumable")
	if out, err := exec.Command(gen, "scaffold", "--out", dir, "--module", "example.com/resumable", "--resumable").CombinedOutput(); err != nil {
		return "", fmt.Errorf("agui-gen scaffold --resumable: %v\n%s", err, out)
	}
	bin := filepath.Join(binDir, "resumable-server")
	env := append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	for _, args := range [][]string{{"mod", "tidy"}, {"vet", "./..."}, {"test", "./..."}, {"build", "-o", bin, "."}} {
		cmd := exec.Command("go", args...)
		cmd.Dir, cmd.Env = dir, env
		if out, err := cmd.CombinedOutput(); err != nil {
			return "", fmt.Errorf("go %s in the --resumable scaffold: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	return bin, nil
})
