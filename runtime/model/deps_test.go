package model_test

import (
	"os/exec"
	"strings"
	"testing"
)

// sdks are the model SDKs, each of which only its own adapter may link.
var sdks = map[string]string{
	"openai":    "github.com/openai/openai-go/",
	"anthropic": "github.com/anthropics/anthropic-sdk-go/",
	"gemini":    "google.golang.org/genai",
}

func deps(t *testing.T, pkgs ...string) []string {
	t.Helper()
	out, err := exec.Command("go", append([]string{"list", "-deps"}, pkgs...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps %s: %v\n%s", strings.Join(pkgs, " "), err, out)
	}
	return strings.Fields(string(out))
}

// TestOnlyTheAdaptersLinkAModelSDK: a user who imports the AG-UI package,
// or this one to write a model of their own, takes in no model SDK, and
// the AG-UI package no gRPC either; each adapter brings its own SDK and no
// other provider's.
func TestOnlyTheAdaptersLinkAModelSDK(t *testing.T) {
	for _, dep := range deps(t, "github.com/agui-gen/agui-gen/gen/agui", "github.com/agui-gen/agui-gen/runtime/model") {
		for _, sdk := range sdks {
			if strings.HasPrefix(dep, sdk) {
				t.Errorf("gen/agui or runtime/model links %s", dep)
			}
		}
		if strings.HasPrefix(dep, "google.golang.org/grpc") {
			t.Errorf("gen/agui or runtime/model links %s", dep)
		}
	}
	for adapter, own := range sdks {
		linked := map[string]bool{}
		for _, dep := range deps(t, "github.com/agui-gen/agui-gen/runtime/model/"+adapter) {
			for name, sdk := range sdks {
				if strings.HasPrefix(dep, sdk) {
					linked[name] = true
				}
			}
		}
		for name := range linked {
			if name != adapter {
				t.Errorf("runtime/model/%s links %s's SDK", adapter, name)
			}
		}
		if !linked[adapter] {
			t.Errorf("runtime/model/%s does not link %s", adapter, own)
		}
	}
}
