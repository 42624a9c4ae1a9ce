package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/types/descriptorpb"
)

func readImage(t *testing.T, file string) *descriptorpb.FileDescriptorSet {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	set := &descriptorpb.FileDescriptorSet{}
	if err := proto.Unmarshal(b, set); err != nil {
		t.Fatal(err)
	}
	return set
}

func TestDescriptorEmbedded(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.binpb"), filepath.Join(dir, "b.binpb")
	for _, out := range []string{a, b} {
		if _, err := run(t, "descriptor", "--out", out); err != nil {
			t.Fatal(err)
		}
	}
	ab, _ := os.ReadFile(a)
	bb, _ := os.ReadFile(b)
	if len(ab) == 0 || !bytes.Equal(ab, bb) {
		t.Fatal("two runs wrote different (or empty) images")
	}
	files, err := protodesc.NewFiles(readImage(t, a))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := files.FindDescriptorByName("lf.a2a.v1.A2AService"); err != nil {
		t.Fatal(err)
	}
	if _, err := files.FindFileByPath("google/api/annotations.proto"); err != nil {
		t.Fatal(err)
	}
}

func TestDescriptorFromFile(t *testing.T) {
	out := filepath.Join(t.TempDir(), "old.binpb")
	if _, err := run(t, "descriptor", "--out", out, "--a2a-proto", "../../generator/testdata/a2a-v0.3.0.proto"); err != nil {
		t.Fatal(err)
	}
	set := readImage(t, out)
	// The file keeps the embedded proto's name, so buf breaking compares the
	// two versions file to file.
	last := set.File[len(set.File)-1]
	if last.GetName() != "a2a.proto" || last.GetPackage() != "a2a.v1" {
		t.Fatalf("last file: %s (package %s), want a2a.proto (a2a.v1)", last.GetName(), last.GetPackage())
	}
}

func TestDescriptorBadProtoNamesTheFile(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.proto")
	if err := os.WriteFile(bad, []byte("syntax = \"proto3\";\nmessage M { Nope n = 1; }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "x.binpb")
	_, err := run(t, "descriptor", "--out", out, "--a2a-proto", bad)
	if err == nil || !strings.Contains(err.Error(), bad) || !strings.Contains(err.Error(), ":2:") {
		t.Fatalf("want an error naming %s and line 2, got %v", bad, err)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Error("a failed run wrote its output")
	}
}

func TestDescriptorNeedsOut(t *testing.T) {
	if _, err := run(t, "descriptor"); err == nil || !strings.Contains(err.Error(), "out") {
		t.Fatalf("want a missing --out error, got %v", err)
	}
}
