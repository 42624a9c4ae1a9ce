package a2a_test

import (
	"bytes"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/protobuf/proto"

	"github.com/agui-gen/agui-gen/gen/a2a"
	"github.com/agui-gen/agui-gen/tests/internal/protoref"
)

// TestCloneIsDeep: for randomized messages of every type, Clone is equal to
// the original, encodes to the same bytes, and shares no memory with it.
func TestCloneIsDeep(t *testing.T) {
	f := protoref.Filler{R: rand.New(rand.NewPCG(3, 4))}
	for _, md := range protoref.Messages(descriptor(t)) {
		for range rounds {
			wire, err := proto.Marshal(f.Message(md, 3))
			if err != nil {
				t.Fatal(err)
			}
			orig := a2a.NewMessage(string(md.FullName()))
			if err := orig.UnmarshalProto(wire); err != nil {
				t.Fatal(err)
			}
			clone := reflect.ValueOf(orig).MethodByName("Clone").Call(nil)[0].Interface().(a2a.ProtoValue)
			if diff := cmp.Diff(orig, clone); diff != "" {
				t.Fatalf("%s: the clone differs (-orig +clone):\n%s", md.FullName(), diff)
			}
			if !bytes.Equal(orig.AppendProto(nil), clone.AppendProto(nil)) {
				t.Fatalf("%s: the clone encodes differently", md.FullName())
			}
			if path := shared(reflect.ValueOf(orig), reflect.ValueOf(clone), string(md.Name())); path != "" {
				t.Fatalf("%s: the clone shares %s with the original", md.FullName(), path)
			}
		}
	}
}

// shared is the path of the first memory a and b share (a pointer, or a
// slice's or map's backing store), or "".
func shared(a, b reflect.Value, path string) string {
	switch a.Kind() {
	case reflect.Pointer:
		if a.IsNil() {
			return ""
		}
		if a.Pointer() == b.Pointer() {
			return path
		}
		return shared(a.Elem(), b.Elem(), path)
	case reflect.Interface:
		if a.IsNil() {
			return ""
		}
		return shared(a.Elem(), b.Elem(), path)
	case reflect.Struct:
		for i := range a.NumField() {
			if p := shared(a.Field(i), b.Field(i), path+"."+a.Type().Field(i).Name); p != "" {
				return p
			}
		}
	case reflect.Slice:
		if a.Len() == 0 {
			return ""
		}
		if a.Pointer() == b.Pointer() {
			return path
		}
		for i := range a.Len() {
			if p := shared(a.Index(i), b.Index(i), path+"[]"); p != "" {
				return p
			}
		}
	case reflect.Map:
		if a.Len() == 0 {
			return ""
		}
		if a.Pointer() == b.Pointer() {
			return path
		}
		for _, k := range a.MapKeys() {
			if p := shared(a.MapIndex(k), b.MapIndex(k), path+"["+k.String()+"]"); p != "" {
				return p
			}
		}
	}
	return ""
}
