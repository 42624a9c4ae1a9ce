// Package longtest gates the tests that build and test whole modules or
// generated packages, which take minutes: they run when AGUI_GEN_LONG or
// CI is set (.ci/run sets both), and otherwise skip saying how to run them,
// so go test ./... on a laptop stays quick while CI runs everything.
package longtest

import (
	"os"
	"testing"
)

// Env is the variable that turns the long tests on.
const Env = "AGUI_GEN_LONG"

// Enabled reports whether the long tests run: AGUI_GEN_LONG or CI is set
// (to anything but "" or "0").
func Enabled() bool {
	for _, v := range []string{Env, "CI"} {
		if s := os.Getenv(v); s != "" && s != "0" {
			return true
		}
	}
	return false
}

// Skip skips t unless the long tests run, or in -short mode; what says
// what the test builds, for the skip message.
func Skip(t testing.TB, what string) {
	t.Helper()
	if testing.Short() {
		t.Skipf("skipping in -short mode: %s", what)
	}
	if !Enabled() {
		t.Skipf("skipping a long test (%s); set %s=1 (or CI) to run it", what, Env)
	}
}
