package descriptor

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/descriptorpb"
)

func image(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Image(context.Background(), "a2a.proto", data)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestImageA2A(t *testing.T) {
	b := image(t, "../../schemas/a2a/a2a.proto")
	set := &descriptorpb.FileDescriptorSet{}
	if err := proto.Unmarshal(b, set); err != nil {
		t.Fatal(err)
	}
	// The set must stand alone: protodesc resolves every import within it.
	files, err := protodesc.NewFiles(set)
	if err != nil {
		t.Fatal(err)
	}
	d, err := files.FindDescriptorByName("lf.a2a.v1.A2AService")
	if err != nil {
		t.Fatal(err)
	}
	if svc, ok := d.(protoreflect.ServiceDescriptor); !ok || svc.Methods().Len() == 0 {
		t.Fatalf("lf.a2a.v1.A2AService: got %v", d)
	}

	// Dependencies first, each once; the A2A file last.
	var names []string
	index := map[string]int{}
	for i, f := range set.File {
		if _, dup := index[f.GetName()]; dup {
			t.Errorf("%s appears twice", f.GetName())
		}
		index[f.GetName()] = i
		names = append(names, f.GetName())
	}
	for _, want := range []string{"google/api/annotations.proto", "google/api/http.proto",
		"google/api/field_behavior.proto", "google/api/client.proto", "google/protobuf/descriptor.proto",
		"google/protobuf/timestamp.proto", "google/protobuf/struct.proto", "google/protobuf/empty.proto"} {
		if _, ok := index[want]; !ok {
			t.Errorf("image lacks %s; has %s", want, strings.Join(names, ", "))
		}
	}
	for i, f := range set.File {
		for _, dep := range f.GetDependency() {
			if j, ok := index[dep]; !ok || j >= i {
				t.Errorf("%s imports %s, which is not before it", f.GetName(), dep)
			}
		}
	}
	last := set.File[len(set.File)-1]
	if last.GetName() != "a2a.proto" || last.GetPackage() != "lf.a2a.v1" {
		t.Fatalf("last file: %s (package %s), want a2a.proto (lf.a2a.v1)", last.GetName(), last.GetPackage())
	}

	// Source info, so buf can report positions, with the proto's comments.
	locs := last.GetSourceCodeInfo().GetLocation()
	if len(locs) == 0 {
		t.Fatal("a2a.proto has no source info")
	}
	var comments bool
	for _, l := range locs {
		if strings.TrimSpace(l.GetLeadingComments()) != "" {
			comments = true
			break
		}
	}
	if !comments {
		t.Error("a2a.proto source info has no comments")
	}
}

func TestImageIsDeterministic(t *testing.T) {
	a := image(t, "../../schemas/a2a/a2a.proto")
	b := image(t, "../../schemas/a2a/a2a.proto")
	if !bytes.Equal(a, b) {
		t.Fatal("two runs gave different images")
	}
}

func TestImageV030(t *testing.T) {
	b := image(t, "../testdata/a2a-v0.3.0.proto")
	set := &descriptorpb.FileDescriptorSet{}
	if err := proto.Unmarshal(b, set); err != nil {
		t.Fatal(err)
	}
	if _, err := protodesc.NewFiles(set); err != nil {
		t.Fatal(err)
	}
}

func TestImageErrorHasPosition(t *testing.T) {
	_, err := Image(context.Background(), "bad.proto", []byte("syntax = \"proto3\";\npackage x;\nmessage M { Nope n = 1; }\n"))
	if err == nil || !strings.Contains(err.Error(), "bad.proto:3:") {
		t.Fatalf("want an error at bad.proto:3, got %v", err)
	}
}
