package generate

import (
	"context"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agui-gen/agui-gen/generator/diff"
	"github.com/agui-gen/agui-gen/generator/emit/golang"
	"github.com/agui-gen/agui-gen/internal/longtest"
)

// The report of what the 0.3 ⇄ 1.0 conversion cannot carry names each
// converter's losses and the rule that completes it.
func TestCompatLosses(t *testing.T) {
	t.Parallel()
	specs, err := EmbeddedCompat()
	if err != nil {
		t.Fatal(err)
	}
	side, err := LoadSide(context.Background(), "embedded")
	if err != nil {
		t.Fatal(err)
	}
	losses, err := CompatLosses(specs, side.A2A)
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
	// The conversions of 0.3's proto (gRPC, HTTP+JSON): tasks named by
	// resource name, parts the rules', the renamed field "content".
	if l := find("FromV03ProtoGetTaskRequest"); l.Fix != "fixFromV03ProtoGetTaskRequest" || !slices.Equal(l.Lost, []string{"name"}) ||
		l.From != "0.3 GetTaskRequest" || l.To != "1.0 GetTaskRequest" {
		t.Errorf("%+v", l)
	}
	if l := find("ToV03ProtoPart"); !l.Rule {
		t.Errorf("parts are the rules': %+v", l)
	}
	if l := find("ToV03ProtoMessage"); l.Fix != "fixToV03ProtoMessage" || !slices.Contains(l.Unfilled, "content") {
		t.Errorf("%+v", l)
	}
}

// Each RPC of 0.3's proto is served by the RPC of 1.0 the diff pairs it
// with, renamed ones included.
func TestCompatRPCPairs(t *testing.T) {
	t.Parallel()
	specs, err := EmbeddedCompat()
	if err != nil {
		t.Fatal(err)
	}
	side, err := LoadSide(context.Background(), "embedded")
	if err != nil {
		t.Fatal(err)
	}
	_, protos, err := loadCompat(specs, side.A2A, "a2a.proto")
	if err != nil {
		t.Fatal(err)
	}
	got := diff.RPCPairs(protos["0.3"], side.A2A)
	want := map[string]string{"SendMessage": "SendMessage", "SendStreamingMessage": "SendStreamingMessage", "GetTask": "GetTask",
		"CancelTask": "CancelTask", "TaskSubscription": "SubscribeToTask", "CreateTaskPushNotificationConfig": "CreateTaskPushNotificationConfig",
		"GetTaskPushNotificationConfig": "GetTaskPushNotificationConfig", "ListTaskPushNotificationConfig": "ListTaskPushNotificationConfigs",
		"GetAgentCard": "GetExtendedAgentCard", "DeleteTaskPushNotificationConfig": "DeleteTaskPushNotificationConfig"}
	if !maps.Equal(got, want) {
		t.Errorf("pairs: %v", got)
	}
}

// A compat proto in the package of an embedded one defines that one's
// version (0.3's a2a.v1); one whose package reads as the current version
// must say which version it defines.
func TestCompatProtoNeedsItsVersion(t *testing.T) {
	t.Parallel()
	in, err := Embedded()
	if err != nil {
		t.Fatal(err)
	}
	for i := range in.A2ACompat {
		in.A2ACompat[i].Version = ""
	}
	if _, err = Generate(in, Options{ImportPath: "example.com/gen"}); err != nil {
		t.Errorf("a proto in 0.3's package a2a.v1: %v", err)
	}
	in.A2ACompat[1].Data = []byte(strings.Replace(string(in.A2ACompat[1].Data), "package a2a.v1;", "package example.a2a.v1;", 1))
	_, err = Generate(in, Options{ImportPath: "example.com/gen"})
	if err == nil || !strings.Contains(err.Error(), "--a2a-compat VERSION=a2a-v0.3.0.proto") {
		t.Errorf("a proto whose package reads as 1.0, without its version: %v", err)
	}
	in.A2ACompat = in.A2ACompat[1:] // the proto alone
	in.A2ACompat[0].Version = "0.3"
	if _, err = Generate(in, Options{ImportPath: "example.com/gen"}); err == nil || !strings.Contains(err.Error(), "JSON Schema") {
		t.Errorf("a 0.3 proto without its JSON Schema: %v", err)
	}
}

// Generating without an earlier version removes the package one generated
// before, and --check names its files.
func TestCompatNoneRemovesTheEarlierPackage(t *testing.T) {
	t.Parallel()
	in, err := Embedded()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	files, err := Generate(in, Options{ImportPath: "example.com/gen"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Write(dir, files); err != nil {
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
	if _, err := Write(dir, files); err != nil {
		t.Fatal(err)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "a2a", "a2av03", "*_gen.go")); len(left) > 0 {
		t.Errorf("left behind: %v", left)
	}
}

// An earlier version given by its JSON Schema alone is served over
// JSON-RPC only: the package builds without the rules of its proto.
func TestCompatWithoutItsProto(t *testing.T) {
	t.Parallel()
	longtest.Skip(t, "it vets a generated A2A package")
	in, err := Embedded()
	if err != nil {
		t.Fatal(err)
	}
	in.A2ACompat = in.A2ACompat[:1] // the JSON Schema
	if strings.HasSuffix(in.A2ACompat[0].File, ".proto") {
		t.Fatalf("the first embedded compat spec is %s", in.A2ACompat[0].File)
	}
	// Inside the module, so it builds with this module's dependencies;
	// under testdata, so ./... never sees it.
	dir, err := os.MkdirTemp("testdata", "jsononly-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	importPath := "github.com/agui-gen/agui-gen/generator/generate/" + filepath.ToSlash(dir) + "/gen"
	files, err := Generate(in, Options{ImportPath: importPath})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if strings.Contains(f.Path, "a2av03pb") || strings.Contains(f.Path, "proto_rules") {
			t.Errorf("%s is generated without the proto", f.Path)
		}
	}
	if _, err := Write(filepath.Join(dir, "gen"), files); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("go", "vet", "./"+filepath.ToSlash(filepath.Join(dir, "gen", "a2a"))+"/...").CombinedOutput(); err != nil {
		t.Fatalf("go vet: %v\n%s", err, out)
	}
}
