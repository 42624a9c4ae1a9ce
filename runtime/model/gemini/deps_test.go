package gemini_test

import (
	"testing"

	"github.com/agui-gen/agui-gen/runtime/model/internal/sdkdeps"
)

// TestLinksItsOwnSDKAlone: a program on this adapter takes in its
// provider's SDK and no other's.
func TestLinksItsOwnSDKAlone(t *testing.T) {
	sdkdeps.CheckAdapter(t, "gemini")
}
