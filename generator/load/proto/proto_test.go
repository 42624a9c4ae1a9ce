package proto

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/agui-gen/agui-gen/generator/ir"
)

func load(t *testing.T, path string) *ir.Package {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	pkg, err := Load(context.Background(), "a2a", "a2a.proto", data)
	if err != nil {
		t.Fatal(err)
	}
	return pkg
}

func TestLoadA2A(t *testing.T) {
	pkg := load(t, "../../../schemas/a2a/a2a.proto")
	var structs, enums int
	var svc *ir.Service
	for _, d := range pkg.Decls {
		switch d := d.(type) {
		case *ir.Struct:
			structs++
		case *ir.Enum:
			enums++
		case *ir.Service:
			svc = d
		}
	}
	// 44 messages plus google.protobuf.Empty.
	if structs != 45 || enums != 2 {
		t.Errorf("%d structs, %d enums; want 45 and 2", structs, enums)
	}
	if svc == nil || len(svc.Methods) != 11 || svc.FullName != "lf.a2a.v1.A2AService" {
		t.Fatalf("service wrong: %+v", svc)
	}
	for _, m := range svc.Methods {
		if len(m.HTTP) != 2 || !strings.HasPrefix(m.HTTP[1].Path, "/{tenant}") {
			t.Errorf("%s: http rules %+v", m.Name, m.HTTP)
		}
	}
	task := pkg.Lookup("Task").(*ir.Struct)
	if f := task.Fields[0]; f.Name != "id" || !f.Required || f.Number != 1 {
		t.Errorf("Task.id: %+v", f)
	}
	part := pkg.Lookup("Part").(*ir.Struct)
	if len(part.Oneofs) != 1 || len(part.Oneofs[0].Fields) != 4 {
		t.Errorf("Part oneof: %+v", part.Oneofs)
	}
	caps := pkg.Lookup("AgentCapabilities").(*ir.Struct)
	if !caps.Fields[0].Presence {
		t.Error("optional presence lost")
	}
	list := pkg.Lookup("ListTaskPushNotificationConfigsRequest").(*ir.Struct)
	if list.Fields[0].Name != "tenant" || list.Fields[0].Number != 4 {
		t.Error("declaration order and numbers must stay separate")
	}
	if task.Pos.Line == 0 || task.Doc == "" {
		t.Errorf("provenance or doc missing: %v %q", task.Pos, task.Doc)
	}
}

func TestLoadA2Av030(t *testing.T) {
	pkg := load(t, "../../testdata/a2a-v0.3.0.proto")
	if pkg.Proto.Package != "a2a.v1" {
		t.Errorf("package %q", pkg.Proto.Package)
	}
}

func TestParseErrorHasPosition(t *testing.T) {
	_, err := Load(context.Background(), "x", "bad.proto", []byte("syntax = \"proto3\";\nmessage A {\n  strin x = 1;\n}\n"))
	if err == nil || !strings.Contains(err.Error(), "bad.proto:3:") {
		t.Fatalf("want a file:line:col error, got %v", err)
	}
}

// A proto's imports resolve below the import paths given, and the messages
// and enums of an imported file of the proto's own package join its
// package, placed at their own file; without the path, the error says
// which import is missing and how to name its directory.
func TestImportPaths(t *testing.T) {
	data, err := os.ReadFile("testdata/imports/main.proto")
	if err != nil {
		t.Fatal(err)
	}
	_, err = Load(context.Background(), "example", "main.proto", data)
	if err == nil || !strings.Contains(err.Error(), "shared/item.proto") || !strings.Contains(err.Error(), "--proto-path DIR") {
		t.Errorf("without an import path: %v", err)
	}
	pkg, err := Load(context.Background(), "example", "main.proto", data, WithImportPaths("testdata/imports"))
	if err != nil {
		t.Fatal(err)
	}
	item, ok := pkg.Lookup("Item").(*ir.Struct)
	if !ok || item.Pos.File != "shared/item.proto" || item.Doc != "Item is a thing on a shelf, declared in a file of its own." {
		t.Fatalf("Item: %+v", pkg.Lookup("Item"))
	}
	if count, ok := pkg.Lookup("Count").(*ir.Enum); !ok || len(count.Values) != 3 {
		t.Errorf("Count: %+v", pkg.Lookup("Count"))
	}
	req := pkg.Lookup("PutRequest").(*ir.Struct)
	if f := req.Fields[0]; f.Type.Decl != item {
		t.Errorf("PutRequest.item refers to %v", f.Type.Decl)
	}
	if len(pkg.Sources) != 2 || pkg.Sources[1].File != "shared/item.proto" || pkg.Sources[1].SHA256 == "" {
		t.Errorf("sources: %+v", pkg.Sources)
	}
}
