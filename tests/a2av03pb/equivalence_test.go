// Package a2av03pb_test checks gen/a2a/a2av03pb, generated from A2A 0.3's
// proto, against the protobuf reference implementation, as tests/a2a does
// for 1.0: for randomized messages of the same descriptors, its ProtoJSON
// (the HTTP+JSON bodies of 0.3) and binary (gRPC) encodings agree with
// protojson and proto.Marshal in both directions.
package a2av03pb_test

import (
	"encoding/json"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/dynamicpb"

	"github.com/agui-gen/agui-gen/gen/a2a/a2av03pb"
	"github.com/agui-gen/agui-gen/tests/internal/protoref"
)

const rounds = 60

func descriptor(t *testing.T) protoreflect.FileDescriptor {
	t.Helper()
	fd, err := protoref.Compile("../../schemas/a2a/a2a-v0.3.0.proto")
	if err != nil {
		t.Fatal(err)
	}
	if fd.Package() != "a2a.v1" {
		t.Fatalf("package %s", fd.Package())
	}
	return fd
}

func TestEveryMessageHasAType(t *testing.T) {
	for _, md := range protoref.Messages(descriptor(t)) {
		if a2av03pb.NewMessage(string(md.FullName())) == nil {
			t.Errorf("no Go type for %s", md.FullName())
		}
	}
}

func TestBinaryEquivalence(t *testing.T) {
	fd := descriptor(t)
	f := protoref.Filler{R: rand.New(rand.NewPCG(5, 6))}
	for _, md := range protoref.Messages(fd) {
		for range rounds {
			want := f.Message(md, 3)
			wire, err := proto.Marshal(want)
			if err != nil {
				t.Fatal(err)
			}
			ours := a2av03pb.NewMessage(string(md.FullName()))
			if err := ours.UnmarshalProto(wire); err != nil {
				t.Fatalf("%s: UnmarshalProto of proto.Marshal output: %v", md.FullName(), err)
			}
			got := dynamicpb.NewMessage(md)
			if err := proto.Unmarshal(ours.AppendProto(nil), got); err != nil {
				t.Fatalf("%s: proto.Unmarshal of AppendProto output: %v", md.FullName(), err)
			}
			if !proto.Equal(want, got) {
				t.Fatalf("%s: binary round trip differs\nwant %v\ngot  %v", md.FullName(), want, got)
			}
		}
	}
}

func TestJSONEquivalence(t *testing.T) {
	fd := descriptor(t)
	f := protoref.Filler{R: rand.New(rand.NewPCG(7, 8))}
	for _, md := range protoref.Messages(fd) {
		for range rounds {
			want := f.Message(md, 3)
			text, err := protojson.Marshal(want)
			if err != nil {
				t.Fatal(err)
			}
			ours := a2av03pb.NewMessage(string(md.FullName()))
			if err := ours.UnmarshalJSON(text); err != nil {
				t.Fatalf("%s: UnmarshalJSON of protojson output: %v\n%s", md.FullName(), err, text)
			}
			out := ours.AppendJSON(nil)
			got := dynamicpb.NewMessage(md)
			if err := protojson.Unmarshal(out, got); err != nil {
				t.Fatalf("%s: protojson.Unmarshal of AppendJSON output: %v\n%s", md.FullName(), err, out)
			}
			if !proto.Equal(want, got) {
				t.Fatalf("%s: JSON round trip differs\nprotojson %s\nours      %s", md.FullName(), text, out)
			}
			var a, b any
			_ = json.Unmarshal(text, &a)
			_ = json.Unmarshal(out, &b)
			protoref.AddRequiredZeros(md, a)
			if d := cmp.Diff(a, b); d != "" {
				t.Fatalf("%s: JSON differs from protojson (-protojson +ours):\n%s", md.FullName(), d)
			}
		}
	}
}
