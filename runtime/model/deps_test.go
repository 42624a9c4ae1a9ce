package model_test

import (
	"strings"
	"testing"

	"github.com/agui-gen/agui-gen/runtime/model/internal/sdkdeps"
)

// TestOnlyTheAdaptersLinkAModelSDK: a user who imports the AG-UI package,
// or this one to write a model of their own, takes in no model SDK, and the
// AG-UI package no gRPC either. Each adapter is a module of its own, whose
// TestLinksItsOwnSDKAlone checks that it brings its own SDK and no other
// provider's.
func TestOnlyTheAdaptersLinkAModelSDK(t *testing.T) {
	deps := sdkdeps.Deps(t, "github.com/agui-gen/agui-gen/gen/agui", "github.com/agui-gen/agui-gen/runtime/model")
	for name := range sdkdeps.Linked(deps) {
		t.Errorf("gen/agui or runtime/model links %s's SDK", name)
	}
	for _, dep := range deps {
		if strings.HasPrefix(dep, "google.golang.org/grpc") {
			t.Errorf("gen/agui or runtime/model links %s", dep)
		}
	}
}
