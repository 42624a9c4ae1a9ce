package cardsig_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestOnlyTheSubpackagesLinkJOSE: go-jose and jcs come in with
// gen/a2a/a2acard and gen/a2a/a2aauth, which import runtime/cardsig and
// runtime/auth; the packages every user builds (gen/agui, gen/a2a) import
// none of them, so an AG-UI server or an A2A one without card signatures
// or authentication does not link them.
func TestOnlyTheSubpackagesLinkJOSE(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps",
		"github.com/agui-gen/agui-gen/gen/agui", "github.com/agui-gen/agui-gen/gen/a2a").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, dep := range strings.Fields(string(out)) {
		for _, banned := range []string{"github.com/go-jose/", "github.com/gowebpki/jcs", "github.com/agui-gen/agui-gen/runtime/cardsig", "github.com/agui-gen/agui-gen/runtime/auth"} {
			if strings.HasPrefix(dep, banned) {
				t.Errorf("gen/agui or gen/a2a imports %s", dep)
			}
		}
	}
	out, err = exec.Command("go", "list", "-deps", "github.com/agui-gen/agui-gen/gen/a2a/a2acard").CombinedOutput()
	if err != nil || !strings.Contains(string(out), "github.com/agui-gen/agui-gen/runtime/cardsig\n") {
		t.Errorf("gen/a2a/a2acard does not import runtime/cardsig: %v\n%s", err, out)
	}
}
