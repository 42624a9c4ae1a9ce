package generate_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agui-gen/agui-gen/generator/generate"
	"github.com/agui-gen/agui-gen/internal/longtest"
)

// TestEarlierAGUIVersionsGetTheirOwnStream generates the AG-UI package from
// a synthetic next schema (1.2) into a package inside this module, with the
// embedded 1.1 schema as the earlier version (the default), and runs a test
// there (testdata/downgrade): each client gets the events and members of
// its own version, @ag-ui/client 1.0.0 reads the 1.2 server's stream
// without a warning, and the new event and member cross the A2A bridge.
func TestEarlierAGUIVersionsGetTheirOwnStream(t *testing.T) {
	t.Parallel()
	longtest.Skip(t, "it builds a generated AG-UI package and runs its tests")
	in := embedded(t)
	var err error
	if in.AGUISchema, err = generate.ReadSpec("testdata/agui-next/schema.json"); err != nil {
		t.Fatal(err)
	}
	var env []string
	nodeDir, _ := filepath.Abs("../../interop/node")
	_, errNode := exec.LookPath("node")
	_, errMods := os.Stat(filepath.Join(nodeDir, "node_modules", "@ag-ui", "client"))
	switch {
	case errNode == nil && errMods == nil:
		env = []string{"AGUI_NODE_DIR=" + nodeDir}
	case os.Getenv("CI") != "":
		t.Fatal("Node peers missing: install Node.js and run `npm ci` in interop/node")
	default:
		t.Log("Node peers missing (install Node.js and run `npm ci` in interop/node): @ag-ui/client's part is skipped")
	}
	got := testInGenerated(t, in, []string{"agui", "bridge"}, "downgrade/downgrade_test.go.txt", "agui", env...)
	for _, test := range []string{"TestEachClientGetsItsOwnVersion", "TestHTTPAgent100ReadsItsOwnVersion", "TestTheBridgeCarriesTheNewEventAndMember"} {
		if !strings.Contains(got, "--- PASS: "+test) && (test != "TestHTTPAgent100ReadsItsOwnVersion" || env != nil) {
			t.Errorf("%s did not pass:\n%s", test, got)
		}
	}
}

// An earlier AG-UI schema must be earlier, and name its version; the
// embedded default is skipped for a schema older than it.
func TestEarlierAGUISchemasAreChecked(t *testing.T) {
	t.Parallel()
	next, err := generate.ReadSpec("testdata/agui-next/schema.json")
	if err != nil {
		t.Fatal(err)
	}
	draft, err := generate.ReadSpec("../testdata/agui-history/schema-41655f473f46.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		earlier []generate.Spec
		want    string
	}{
		{[]generate.Spec{next}, "defines AG-UI 1.2, not earlier than schema.json's 1.1"},
		{[]generate.Spec{draft}, "names no protocol version"},
	} {
		in := embedded(t)
		in.AGUIEarlier = c.earlier
		if _, err := generate.Generate(in, generate.Options{ImportPath: genImport}); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("want %q, got %v", c.want, err)
		}
	}
}
