// Package a2a_test checks gen/a2a against the protobuf reference
// implementation: for randomized messages built from the same descriptors
// (dynamicpb), ProtoJSON and binary encodings agree with protojson and
// proto.Marshal in both directions.
package a2a_test

import (
	"encoding/json"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/dynamicpb"

	"github.com/agui-gen/agui-gen/gen/a2a"
	"github.com/agui-gen/agui-gen/tests/internal/protoref"
)

var compiled struct {
	once sync.Once
	fd   protoreflect.FileDescriptor
	err  error
}

// descriptor compiles the embedded a2a.proto, the file gen/a2a came from,
// once per test binary.
func descriptor(t testing.TB) protoreflect.FileDescriptor {
	t.Helper()
	compiled.once.Do(func() { compiled.fd, compiled.err = protoref.Compile("../../schemas/a2a/a2a.proto") })
	if compiled.err != nil {
		t.Fatal(compiled.err)
	}
	return compiled.fd
}

func TestEveryMessageHasAType(t *testing.T) {
	for _, md := range protoref.Messages(descriptor(t)) {
		if a2a.NewMessage(string(md.FullName())) == nil {
			t.Errorf("no Go type for %s", md.FullName())
		}
	}
}

const rounds = 60

func TestBinaryEquivalence(t *testing.T) {
	fd := descriptor(t)
	f := protoref.Filler{R: rand.New(rand.NewPCG(1, 2))}
	for _, md := range protoref.Messages(fd) {
		for i := 0; i < rounds; i++ {
			want := f.Message(md, 3)
			wire, err := proto.Marshal(want)
			if err != nil {
				t.Fatal(err)
			}
			ours := a2a.NewMessage(string(md.FullName()))
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
	f := protoref.Filler{R: rand.New(rand.NewPCG(3, 4))}
	for _, md := range protoref.Messages(fd) {
		for i := 0; i < rounds; i++ {
			want := f.Message(md, 3)
			text, err := protojson.Marshal(want)
			if err != nil {
				t.Fatal(err)
			}
			ours := a2a.NewMessage(string(md.FullName()))
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
			// The two encoders write the same JSON value, but for the REQUIRED
			// fields protojson leaves out when they are zero.
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
