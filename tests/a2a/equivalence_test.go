// Package a2a_test checks gen/a2a against the protobuf reference
// implementation: for randomized messages built from the same descriptors
// (dynamicpb), ProtoJSON and binary encodings agree with protojson and
// proto.Marshal in both directions.
package a2a_test

import (
	"context"
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"sync"
	"testing"

	"github.com/bufbuild/protocompile"
	"github.com/google/go-cmp/cmp"
	"google.golang.org/genproto/googleapis/api/annotations" // also registers google/api/*.proto
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/descriptorpb"
	"google.golang.org/protobuf/types/dynamicpb"

	"github.com/agui-gen/agui-gen/gen/a2a"
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
	compiled.once.Do(func() { compiled.fd, compiled.err = compileA2A() })
	if compiled.err != nil {
		t.Fatal(compiled.err)
	}
	return compiled.fd
}

func compileA2A() (protoreflect.FileDescriptor, error) {
	data, err := os.ReadFile("../../schemas/a2a/a2a.proto")
	if err != nil {
		return nil, err
	}
	registry := protocompile.ResolverFunc(func(path string) (protocompile.SearchResult, error) {
		d, err := protoregistry.GlobalFiles.FindFileByPath(path)
		if err != nil {
			return protocompile.SearchResult{}, err
		}
		return protocompile.SearchResult{Proto: protodesc.ToFileDescriptorProto(d)}, nil
	})
	c := protocompile.Compiler{Resolver: protocompile.WithStandardImports(protocompile.CompositeResolver{
		&protocompile.SourceResolver{Accessor: protocompile.SourceAccessorFromMap(map[string]string{"a2a.proto": string(data)})},
		registry,
	})}
	files, err := c.Compile(context.Background(), "a2a.proto")
	if err != nil {
		return nil, err
	}
	return files[0], nil
}

// filler builds random messages: every field set with probability 1/2,
// oneofs set to a random member, recursion bounded by depth.
type filler struct{ r *rand.Rand }

func (f filler) message(md protoreflect.MessageDescriptor, depth int) *dynamicpb.Message {
	m := dynamicpb.NewMessage(md)
	f.fill(m, depth)
	return m
}

func (f filler) fill(m protoreflect.Message, depth int) {
	md := m.Descriptor()
	switch md.FullName() {
	case "google.protobuf.Timestamp":
		m.Set(md.Fields().ByName("seconds"), protoreflect.ValueOfInt64(f.r.Int64N(253402300799-(-62135596800))+(-62135596800)))
		m.Set(md.Fields().ByName("nanos"), protoreflect.ValueOfInt32([]int32{0, 1000000, 123000, 5}[f.r.IntN(4)]))
		return
	case "google.protobuf.Struct":
		fields := m.Mutable(md.Fields().ByName("fields")).Map()
		for i := 0; i < f.r.IntN(3); i++ {
			v := dynamicpb.NewMessage(md.Fields().ByName("fields").MapValue().Message())
			f.jsonValue(v, depth-1)
			fields.Set(protoreflect.ValueOfString(f.str()).MapKey(), protoreflect.ValueOfMessage(v))
		}
		return
	case "google.protobuf.Value":
		f.jsonValue(m, depth)
		return
	}
	seenOneof := map[protoreflect.FullName]bool{}
	for i := 0; i < md.Fields().Len(); i++ {
		fd := md.Fields().Get(i)
		if o := fd.ContainingOneof(); o != nil && !o.IsSynthetic() {
			if seenOneof[o.FullName()] {
				continue
			}
			seenOneof[o.FullName()] = true
			fd = o.Fields().Get(f.r.IntN(o.Fields().Len()))
		} else if f.r.IntN(2) == 0 {
			continue
		}
		if fd.Kind() == protoreflect.MessageKind && depth <= 0 && fd.Cardinality() != protoreflect.Repeated && !fd.IsMap() {
			if fd.ContainingOneof() == nil {
				continue
			}
		}
		switch {
		case fd.IsMap():
			mp := m.Mutable(fd).Map()
			for j := 0; j < f.r.IntN(3); j++ {
				mp.Set(f.scalar(fd.MapKey()).MapKey(), f.value(fd.MapValue(), m.NewField(fd).Map().NewValue, depth))
			}
		case fd.IsList():
			l := m.Mutable(fd).List()
			for j := 0; j < f.r.IntN(3); j++ {
				l.Append(f.value(fd, l.NewElement, depth))
			}
		default:
			m.Set(fd, f.value(fd, func() protoreflect.Value { return m.NewField(fd) }, depth))
		}
	}
}

func (f filler) value(fd protoreflect.FieldDescriptor, newMsg func() protoreflect.Value, depth int) protoreflect.Value {
	if fd.Kind() == protoreflect.MessageKind {
		v := newMsg()
		f.fill(v.Message(), depth-1)
		return v
	}
	return f.scalar(fd)
}

func (f filler) str() string {
	return []string{"", "a", "héllo wörld", "line\nbreak \"quoted\" \\", "😀 emoji", "tab\t<html>&"}[f.r.IntN(6)]
}

func (f filler) scalar(fd protoreflect.FieldDescriptor) protoreflect.Value {
	switch fd.Kind() {
	case protoreflect.StringKind:
		return protoreflect.ValueOfString(f.str())
	case protoreflect.BytesKind:
		b := make([]byte, f.r.IntN(8))
		for i := range b {
			b[i] = byte(f.r.IntN(256))
		}
		return protoreflect.ValueOfBytes(b)
	case protoreflect.BoolKind:
		return protoreflect.ValueOfBool(f.r.IntN(2) == 0)
	case protoreflect.Int32Kind, protoreflect.Sint32Kind, protoreflect.Sfixed32Kind:
		return protoreflect.ValueOfInt32([]int32{0, 1, -1, math.MaxInt32, math.MinInt32, 300}[f.r.IntN(6)])
	case protoreflect.Int64Kind, protoreflect.Sint64Kind, protoreflect.Sfixed64Kind:
		return protoreflect.ValueOfInt64([]int64{0, 1, -1, math.MaxInt64, math.MinInt64, 1 << 40}[f.r.IntN(6)])
	case protoreflect.Uint32Kind, protoreflect.Fixed32Kind:
		return protoreflect.ValueOfUint32([]uint32{0, 1, math.MaxUint32}[f.r.IntN(3)])
	case protoreflect.Uint64Kind, protoreflect.Fixed64Kind:
		return protoreflect.ValueOfUint64([]uint64{0, 1, math.MaxUint64}[f.r.IntN(3)])
	case protoreflect.FloatKind:
		return protoreflect.ValueOfFloat32([]float32{0, 1.5, -2.25, math.MaxFloat32}[f.r.IntN(4)])
	case protoreflect.DoubleKind:
		return protoreflect.ValueOfFloat64([]float64{0, 1.5, -1e-7, 1e21, math.Inf(1), math.NaN()}[f.r.IntN(6)])
	case protoreflect.EnumKind:
		vals := fd.Enum().Values()
		return protoreflect.ValueOfEnum(vals.Get(f.r.IntN(vals.Len())).Number())
	}
	panic("unsupported kind " + fd.Kind().String())
}

// jsonValue fills a google.protobuf.Value with a JSON value ProtoJSON can
// carry (finite numbers only).
func (f filler) jsonValue(m protoreflect.Message, depth int) {
	md := m.Descriptor()
	kinds := 4
	if depth > 0 {
		kinds = 6
	}
	switch f.r.IntN(kinds) {
	case 0:
		m.Set(md.Fields().ByName("null_value"), protoreflect.ValueOfEnum(0))
	case 1:
		m.Set(md.Fields().ByName("number_value"), protoreflect.ValueOfFloat64([]float64{0, 1, -2.5, 1e21, 123456789}[f.r.IntN(5)]))
	case 2:
		m.Set(md.Fields().ByName("string_value"), protoreflect.ValueOfString(f.str()))
	case 3:
		m.Set(md.Fields().ByName("bool_value"), protoreflect.ValueOfBool(f.r.IntN(2) == 0))
	case 4:
		fd := md.Fields().ByName("struct_value")
		v := m.NewField(fd)
		f.fill(v.Message(), depth-1)
		m.Set(fd, v)
	case 5:
		fd := md.Fields().ByName("list_value")
		v := m.NewField(fd)
		l := v.Message().Mutable(fd.Message().Fields().ByName("values")).List()
		for i := 0; i < f.r.IntN(3); i++ {
			e := l.NewElement()
			f.jsonValue(e.Message(), depth-1)
			l.Append(e)
		}
		m.Set(fd, v)
	}
}

// messages lists every message of the file.
func messages(fd protoreflect.FileDescriptor) []protoreflect.MessageDescriptor {
	var out []protoreflect.MessageDescriptor
	for i := 0; i < fd.Messages().Len(); i++ {
		out = append(out, fd.Messages().Get(i))
	}
	return out
}

func TestEveryMessageHasAType(t *testing.T) {
	for _, md := range messages(descriptor(t)) {
		if a2a.NewMessage(string(md.FullName())) == nil {
			t.Errorf("no Go type for %s", md.FullName())
		}
	}
}

const rounds = 60

func TestBinaryEquivalence(t *testing.T) {
	fd := descriptor(t)
	f := filler{rand.New(rand.NewPCG(1, 2))}
	for _, md := range messages(fd) {
		for i := 0; i < rounds; i++ {
			want := f.message(md, 3)
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
	f := filler{rand.New(rand.NewPCG(3, 4))}
	for _, md := range messages(fd) {
		for i := 0; i < rounds; i++ {
			want := f.message(md, 3)
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
			addRequiredZeros(md, a)
			if d := cmp.Diff(a, b); d != "" {
				t.Fatalf("%s: JSON differs from protojson (-protojson +ours):\n%s", md.FullName(), d)
			}
		}
	}
}

// addRequiredZeros adds to v, protojson's rendering of a message of md, the
// fields marked field_behavior REQUIRED that protojson leaves out because
// they hold their zero value: gen/a2a writes them (A2A §3.1.4 wants
// ListTasksResponse.nextPageToken present as "" on the last page). Fields
// with presence (messages, oneof members, optional scalars) are left as
// protojson has them, as gen/a2a leaves them.
func addRequiredZeros(md protoreflect.MessageDescriptor, v any) {
	obj, ok := v.(map[string]any)
	if !ok || md.ParentFile().Package() != descriptorPackage {
		return // a well-known type, which has its own JSON form
	}
	for i := 0; i < md.Fields().Len(); i++ {
		fd := md.Fields().Get(i)
		val, present := obj[fd.JSONName()]
		switch {
		case !present:
			if required(fd) && !fd.HasPresence() {
				obj[fd.JSONName()] = zeroJSON(fd)
			}
		case fd.IsMap():
			if fd.MapValue().Kind() == protoreflect.MessageKind {
				for _, e := range val.(map[string]any) {
					addRequiredZeros(fd.MapValue().Message(), e)
				}
			}
		case fd.IsList():
			if fd.Kind() == protoreflect.MessageKind {
				for _, e := range val.([]any) {
					addRequiredZeros(fd.Message(), e)
				}
			}
		case fd.Kind() == protoreflect.MessageKind:
			addRequiredZeros(fd.Message(), val)
		}
	}
}

const descriptorPackage = "lf.a2a.v1"

// required reads a field's google.api.field_behavior, which protocompile
// leaves as unknown fields of the options until they are read again with
// the registered extension.
func required(fd protoreflect.FieldDescriptor) bool {
	raw, err := proto.Marshal(fd.Options())
	if err != nil {
		return false
	}
	opts := &descriptorpb.FieldOptions{}
	if err := (proto.UnmarshalOptions{Resolver: protoregistry.GlobalTypes}).Unmarshal(raw, opts); err != nil {
		return false
	}
	for _, b := range proto.GetExtension(opts, annotations.E_FieldBehavior).([]annotations.FieldBehavior) {
		if b == annotations.FieldBehavior_REQUIRED {
			return true
		}
	}
	return false
}

// zeroJSON is a field's zero value as encoding/json reads it back.
func zeroJSON(fd protoreflect.FieldDescriptor) any {
	switch {
	case fd.IsMap():
		return map[string]any{}
	case fd.IsList():
		return []any{}
	}
	switch fd.Kind() {
	case protoreflect.StringKind, protoreflect.BytesKind:
		return ""
	case protoreflect.BoolKind:
		return false
	case protoreflect.EnumKind:
		return string(fd.Enum().Values().ByNumber(0).Name())
	case protoreflect.Int64Kind, protoreflect.Sint64Kind, protoreflect.Sfixed64Kind, protoreflect.Uint64Kind, protoreflect.Fixed64Kind:
		return "0"
	}
	return float64(0)
}
