// Package protoref builds the protobuf reference the generated A2A
// packages are checked against: a proto compiled to descriptors, random
// messages of them (dynamicpb), and protojson's rendering adjusted for what
// the generated packages write that it does not.
package protoref

import (
	"context"
	"math"
	"math/rand/v2"
	"os"
	"strings"

	"github.com/bufbuild/protocompile"
	"google.golang.org/genproto/googleapis/api/annotations" // also registers google/api/*.proto
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/descriptorpb"
	"google.golang.org/protobuf/types/dynamicpb"
)

// Compile compiles the proto file at path, which imports only the
// well-known types and google/api's annotations.
func Compile(path string) (protoreflect.FileDescriptor, error) {
	data, err := os.ReadFile(path)
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

// Filler builds random messages: every field set with probability 1/2,
// oneofs set to a random member, recursion bounded by depth.
type Filler struct{ R *rand.Rand }

func (f Filler) Message(md protoreflect.MessageDescriptor, depth int) *dynamicpb.Message {
	m := dynamicpb.NewMessage(md)
	f.fill(m, depth)
	return m
}

func (f Filler) fill(m protoreflect.Message, depth int) {
	md := m.Descriptor()
	switch md.FullName() {
	case "google.protobuf.Timestamp":
		m.Set(md.Fields().ByName("seconds"), protoreflect.ValueOfInt64(f.R.Int64N(253402300799-(-62135596800))+(-62135596800)))
		m.Set(md.Fields().ByName("nanos"), protoreflect.ValueOfInt32([]int32{0, 1000000, 123000, 5}[f.R.IntN(4)]))
		return
	case "google.protobuf.Struct":
		fields := m.Mutable(md.Fields().ByName("fields")).Map()
		for i := 0; i < f.R.IntN(3); i++ {
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
			fd = o.Fields().Get(f.R.IntN(o.Fields().Len()))
		} else if f.R.IntN(2) == 0 {
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
			for j := 0; j < f.R.IntN(3); j++ {
				mp.Set(f.scalar(fd.MapKey()).MapKey(), f.value(fd.MapValue(), m.NewField(fd).Map().NewValue, depth))
			}
		case fd.IsList():
			l := m.Mutable(fd).List()
			for j := 0; j < f.R.IntN(3); j++ {
				l.Append(f.value(fd, l.NewElement, depth))
			}
		default:
			m.Set(fd, f.value(fd, func() protoreflect.Value { return m.NewField(fd) }, depth))
		}
	}
}

func (f Filler) value(fd protoreflect.FieldDescriptor, newMsg func() protoreflect.Value, depth int) protoreflect.Value {
	if fd.Kind() == protoreflect.MessageKind {
		v := newMsg()
		f.fill(v.Message(), depth-1)
		return v
	}
	return f.scalar(fd)
}

func (f Filler) str() string {
	return []string{"", "a", "héllo wörld", "line\nbreak \"quoted\" \\", "😀 emoji", "tab\t<html>&"}[f.R.IntN(6)]
}

func (f Filler) scalar(fd protoreflect.FieldDescriptor) protoreflect.Value {
	switch fd.Kind() {
	case protoreflect.StringKind:
		return protoreflect.ValueOfString(f.str())
	case protoreflect.BytesKind:
		b := make([]byte, f.R.IntN(8))
		for i := range b {
			b[i] = byte(f.R.IntN(256))
		}
		return protoreflect.ValueOfBytes(b)
	case protoreflect.BoolKind:
		return protoreflect.ValueOfBool(f.R.IntN(2) == 0)
	case protoreflect.Int32Kind, protoreflect.Sint32Kind, protoreflect.Sfixed32Kind:
		return protoreflect.ValueOfInt32([]int32{0, 1, -1, math.MaxInt32, math.MinInt32, 300}[f.R.IntN(6)])
	case protoreflect.Int64Kind, protoreflect.Sint64Kind, protoreflect.Sfixed64Kind:
		return protoreflect.ValueOfInt64([]int64{0, 1, -1, math.MaxInt64, math.MinInt64, 1 << 40}[f.R.IntN(6)])
	case protoreflect.Uint32Kind, protoreflect.Fixed32Kind:
		return protoreflect.ValueOfUint32([]uint32{0, 1, math.MaxUint32}[f.R.IntN(3)])
	case protoreflect.Uint64Kind, protoreflect.Fixed64Kind:
		return protoreflect.ValueOfUint64([]uint64{0, 1, math.MaxUint64}[f.R.IntN(3)])
	case protoreflect.FloatKind:
		return protoreflect.ValueOfFloat32([]float32{0, 1.5, -2.25, math.MaxFloat32}[f.R.IntN(4)])
	case protoreflect.DoubleKind:
		return protoreflect.ValueOfFloat64([]float64{0, 1.5, -1e-7, 1e21, math.Inf(1), math.NaN()}[f.R.IntN(6)])
	case protoreflect.EnumKind:
		vals := fd.Enum().Values()
		return protoreflect.ValueOfEnum(vals.Get(f.R.IntN(vals.Len())).Number())
	}
	panic("unsupported kind " + fd.Kind().String())
}

// jsonValue fills a google.protobuf.Value with a JSON value ProtoJSON can
// carry (finite numbers only).
func (f Filler) jsonValue(m protoreflect.Message, depth int) {
	md := m.Descriptor()
	kinds := 4
	if depth > 0 {
		kinds = 6
	}
	switch f.R.IntN(kinds) {
	case 0:
		m.Set(md.Fields().ByName("null_value"), protoreflect.ValueOfEnum(0))
	case 1:
		m.Set(md.Fields().ByName("number_value"), protoreflect.ValueOfFloat64([]float64{0, 1, -2.5, 1e21, 123456789}[f.R.IntN(5)]))
	case 2:
		m.Set(md.Fields().ByName("string_value"), protoreflect.ValueOfString(f.str()))
	case 3:
		m.Set(md.Fields().ByName("bool_value"), protoreflect.ValueOfBool(f.R.IntN(2) == 0))
	case 4:
		fd := md.Fields().ByName("struct_value")
		v := m.NewField(fd)
		f.fill(v.Message(), depth-1)
		m.Set(fd, v)
	case 5:
		fd := md.Fields().ByName("list_value")
		v := m.NewField(fd)
		l := v.Message().Mutable(fd.Message().Fields().ByName("values")).List()
		for i := 0; i < f.R.IntN(3); i++ {
			e := l.NewElement()
			f.jsonValue(e.Message(), depth-1)
			l.Append(e)
		}
		m.Set(fd, v)
	}
}

// Messages lists every message of the file.
func Messages(fd protoreflect.FileDescriptor) []protoreflect.MessageDescriptor {
	var out []protoreflect.MessageDescriptor
	for i := 0; i < fd.Messages().Len(); i++ {
		out = append(out, fd.Messages().Get(i))
	}
	return out
}

// AddRequiredZeros adds to v, protojson's rendering of a message of md, the
// fields marked field_behavior REQUIRED that protojson leaves out because
// they hold their zero value: the generated packages write them (A2A §3.1.4 wants
// ListTasksResponse.nextPageToken present as "" on the last page). Fields
// with presence (messages, oneof members, optional scalars) are left as
// protojson has them, as they leave them.
func AddRequiredZeros(md protoreflect.MessageDescriptor, v any) {
	obj, ok := v.(map[string]any)
	if !ok || strings.HasPrefix(string(md.ParentFile().Package()), "google.protobuf") {
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
					AddRequiredZeros(fd.MapValue().Message(), e)
				}
			}
		case fd.IsList():
			if fd.Kind() == protoreflect.MessageKind {
				for _, e := range val.([]any) {
					AddRequiredZeros(fd.Message(), e)
				}
			}
		case fd.Kind() == protoreflect.MessageKind:
			AddRequiredZeros(fd.Message(), val)
		}
	}
}

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
