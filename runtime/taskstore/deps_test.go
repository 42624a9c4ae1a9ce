package taskstore_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestOnlyTheStoresLinkADriver: the database drivers come in with the
// runtime's SQL stores (runtime/taskstore/sqlitetask, pgtask) and the
// generated packages that open them (a2atask/sqlitestore, pgstore); the
// AG-UI package, the A2A package and the task runtime, which import this
// package for the stores' types, link none.
func TestOnlyTheStoresLinkADriver(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "github.com/agui-gen/agui-gen/gen/agui", "github.com/agui-gen/agui-gen/gen/a2a",
		"github.com/agui-gen/agui-gen/gen/a2a/a2atask", "github.com/agui-gen/agui-gen/runtime/taskstore").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, dep := range strings.Fields(string(out)) {
		for _, banned := range []string{"modernc.org/", "github.com/jackc/", "github.com/agui-gen/agui-gen/runtime/sqlite", "github.com/agui-gen/agui-gen/runtime/postgres"} {
			if strings.HasPrefix(dep, banned) {
				t.Errorf("gen/agui, gen/a2a, gen/a2a/a2atask or runtime/taskstore imports %s", dep)
			}
		}
	}
	for pkg, driver := range map[string]string{"sqlitestore": "modernc.org/sqlite\n", "pgstore": "github.com/jackc/pgx/v5\n"} {
		out, err := exec.Command("go", "list", "-deps", "github.com/agui-gen/agui-gen/gen/a2a/a2atask/"+pkg).CombinedOutput()
		if err != nil || !strings.Contains(string(out), driver) {
			t.Errorf("gen/a2a/a2atask/%s does not link %s: %v", pkg, strings.TrimSpace(driver), err)
		}
	}
}
