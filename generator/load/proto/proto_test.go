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
