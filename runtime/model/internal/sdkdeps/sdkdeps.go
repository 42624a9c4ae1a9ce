// Package sdkdeps is what the dependency tests of runtime/model and of each
// adapter module share: the model SDKs, of which each adapter may link its
// own alone, and the packages a build links.
package sdkdeps

import (
	"os/exec"
	"strings"
	"testing"
)

// SDKs are the model SDKs by adapter: each a module path prefix.
var SDKs = map[string]string{
	"openai":    "github.com/openai/openai-go/",
	"anthropic": "github.com/anthropics/anthropic-sdk-go/",
	"gemini":    "google.golang.org/genai",
}

// Deps are the packages pkgs link, as go list -deps reports them in the
// module of the current directory.
func Deps(t testing.TB, pkgs ...string) []string {
	t.Helper()
	out, err := exec.Command("go", append([]string{"list", "-deps"}, pkgs...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps %s: %v\n%s", strings.Join(pkgs, " "), err, out)
	}
	return strings.Fields(string(out))
}

// Linked are the adapters whose SDK one of deps is in.
func Linked(deps []string) map[string]bool {
	linked := map[string]bool{}
	for _, dep := range deps {
		for name, sdk := range SDKs {
			if strings.HasPrefix(dep, sdk) {
				linked[name] = true
			}
		}
	}
	return linked
}

// CheckAdapter fails t unless runtime/model/ADAPTER links its own SDK and
// no other provider's: a user who imports one adapter takes in one SDK.
func CheckAdapter(t *testing.T, adapter string) {
	t.Helper()
	linked := Linked(Deps(t, "github.com/agui-gen/agui-gen/runtime/model/"+adapter))
	for name := range linked {
		if name != adapter {
			t.Errorf("runtime/model/%s links %s's SDK", adapter, name)
		}
	}
	if !linked[adapter] {
		t.Errorf("runtime/model/%s does not link %s", adapter, SDKs[adapter])
	}
}
