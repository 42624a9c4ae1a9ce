package generate

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	"github.com/agui-gen/agui-gen/generator/emit/golang"
)

// The report of what the 0.3 ⇄ 1.0 conversion cannot carry names each
// converter's losses and the rule that completes it.
func TestCompatLosses(t *testing.T) {
	spec, err := EmbeddedCompat()
	if err != nil {
		t.Fatal(err)
	}
	side, err := LoadSide(context.Background(), "embedded")
	if err != nil {
		t.Fatal(err)
	}
	losses, err := CompatLosses(spec, side.A2A)
	if err != nil {
		t.Fatal(err)
	}
	find := func(name string) golang.CompatLoss {
		i := slices.IndexFunc(losses, func(l golang.CompatLoss) bool { return l.Converter == name })
		if i < 0 {
			t.Fatalf("no %s in %+v", name, losses)
		}
		return losses[i]
	}
	if l := find("FromV03SendMessageConfiguration"); l.Fix != "fixFromV03SendMessageConfiguration" ||
		!slices.Equal(l.Lost, []string{"blocking", "pushNotificationConfig"}) || l.From != "0.3 MessageSendConfiguration" || l.To != "1.0 SendMessageConfiguration" {
		t.Errorf("%+v", l)
	}
	if l := find("ToV03TaskStatusUpdateEvent"); !slices.Equal(l.Unfilled, []string{"final"}) || l.Fix == "" {
		t.Errorf("%+v", l)
	}
	if l := find("FromV03GetTaskRequest"); !slices.Equal(l.Lost, []string{"metadata"}) || l.Fix != "" {
		t.Errorf("0.3's tasks/get metadata has no place in 1.0: %+v", l)
	}
	if l := find("FromV03Part"); !l.Rule {
		t.Errorf("parts are the rules': %+v", l)
	}
	if l := find("ToV03TaskState"); !slices.Equal(l.Lost, []string{"TASK_STATE_UNSPECIFIED"}) {
		t.Errorf("%+v", l)
	}
}

// Generating without an earlier version removes the package one generated
// before, and --check names its files.
func TestCompatNoneRemovesTheEarlierPackage(t *testing.T) {
	in, err := Embedded()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	files, err := Generate(in, Options{ImportPath: "example.com/gen"})
	if err != nil {
		t.Fatal(err)
	}
	if err := Write(dir, files); err != nil {
		t.Fatal(err)
	}
	in.A2ACompat = nil
	if files, err = Generate(in, Options{ImportPath: "example.com/gen"}); err != nil {
		t.Fatal(err)
	}
	stale, err := Stale(dir, files)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(stale, "a2a/a2av03/types_gen.go (no longer generated)") {
		t.Errorf("stale: %v", stale)
	}
	if err := Write(dir, files); err != nil {
		t.Fatal(err)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "a2a", "a2av03", "*_gen.go")); len(left) > 0 {
		t.Errorf("left behind: %v", left)
	}
}
