package wire

import (
	"bytes"
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/structpb"
	"google.golang.org/protobuf/types/known/timestamppb"
)

func TestVarintRoundTrip(t *testing.T) {
	vals := []uint64{0, 1, 2, 127, 128, 129, 255, 256, 300, 16383, 16384, 1<<21 - 1, 1 << 21, 1<<28 - 1, 1 << 28,
		1<<32 - 1, 1 << 32, 1<<35 - 1, 1<<49 - 1, 1<<56 - 1, 1 << 56, 1<<63 - 1, 1 << 63, math.MaxUint64 - 1, math.MaxUint64}
	for i := range 64 {
		vals = append(vals, 1<<i, 1<<i-1)
	}
	rng := rand.New(rand.NewPCG(21, 22))
	for range 1000 {
		vals = append(vals, rng.Uint64()>>rng.IntN(64))
	}
	for _, v := range vals {
		b := AppendVarint([]byte{0xaa}, v)
		if want := protowire.AppendVarint([]byte{0xaa}, v); !bytes.Equal(b, want) {
			t.Fatalf("appendVarint(%d) = %x, protowire %x", v, b, want)
		}
		if varintSize(v) != protowire.SizeVarint(v) {
			t.Fatalf("varintSize(%d) = %d, want %d", v, varintSize(v), protowire.SizeVarint(v))
		}
		w := NewProtoReader(b[1:])
		if got := w.Varint(); got != v || w.err != nil || w.pos != len(b)-1 {
			t.Fatalf("varint(%x) = %d, %v at %d", b[1:], got, w.err, w.pos)
		}
		// Signed: zigzag.
		s := int64(v)
		z := AppendZigzag(nil, s)
		if want := protowire.AppendVarint(nil, protowire.EncodeZigZag(s)); !bytes.Equal(z, want) {
			t.Fatalf("appendZigzag(%d) = %x, protowire %x", s, z, want)
		}
		w = NewProtoReader(z)
		if got := Zigzag(w.Varint()); got != s {
			t.Fatalf("zigzag round trip of %d gave %d", s, got)
		}
		// sint32 as protobuf decodes it.
		s32 := int32(v)
		w = NewProtoReader(AppendZigzag(nil, int64(s32)))
		if got := int32(Zigzag(w.Varint() & 0xffffffff)); got != s32 {
			t.Fatalf("sint32 round trip of %d gave %d", s32, got)
		}
		// Fixed.
		f := AppendFixed64(AppendFixed32(nil, uint32(v)), v)
		if want := protowire.AppendFixed64(protowire.AppendFixed32(nil, uint32(v)), v); !bytes.Equal(f, want) {
			t.Fatalf("fixed %d: %x, protowire %x", v, f, want)
		}
		w = NewProtoReader(f)
		if a, b := w.Fixed32(), w.Fixed64(); a != uint32(v) || b != v || w.err != nil {
			t.Fatalf("fixed round trip of %d gave %d %d %v", v, a, b, w.err)
		}
	}
	for _, s := range []int64{0, -1, 1, -2, math.MinInt64, math.MaxInt64, math.MinInt32, math.MaxInt32} {
		if got := Zigzag(protowire.EncodeZigZag(s)); got != s {
			t.Errorf("zigzag(EncodeZigZag(%d)) = %d", s, got)
		}
	}
}

func TestAppendTagAndLen(t *testing.T) {
	for _, num := range []int32{1, 2, 15, 16, 2047, 2048, 262143, 262144, maxFieldNumber} {
		for _, wt := range []int{WireVarint, WireFixed64, WireBytes, WireFixed32} {
			got := AppendTag(nil, num, wt)
			if want := protowire.AppendTag(nil, protowire.Number(num), protowire.Type(wt)); !bytes.Equal(got, want) {
				t.Errorf("appendTag(%d, %d) = %x, protowire %x", num, wt, got, want)
			}
			w := NewProtoReader(append(got, make([]byte, 8)...))
			if n, typ, ok := w.Next(); !ok || n != num || typ != wt {
				t.Errorf("next on %x = %d %d %v (%v)", got, n, typ, ok, w.err)
			}
		}
	}
	for _, s := range []string{"", "a", strings.Repeat("x", 127), strings.Repeat("y", 128), strings.Repeat("z", 300)} {
		if got, want := AppendLenString([]byte{1}, s), protowire.AppendString([]byte{1}, s); !bytes.Equal(got, want) {
			t.Errorf("appendLenString(len %d) = %x..., want %x...", len(s), got[:4], want[:4])
		}
		if got, want := AppendLenBytes([]byte{1}, []byte(s)), protowire.AppendBytes([]byte{1}, []byte(s)); !bytes.Equal(got, want) {
			t.Errorf("appendLenBytes(len %d) differs", len(s))
		}
	}
}

func TestBeginEndLen(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 24))
	for _, n := range []int{0, 1, 127, 128, 129, 300, 16383, 16384, 16385, 1<<21 - 1, 1 << 21, 1<<21 + 1} {
		payload := make([]byte, n)
		for i := range payload {
			payload[i] = byte(rng.Uint32())
		}
		prefix := []byte{0x0a, 0x0b, 0x0c}
		b, at := BeginLen(append([]byte{}, prefix...))
		if at != len(prefix) {
			t.Fatalf("beginLen returned %d, want %d", at, len(prefix))
		}
		b = append(b, payload...)
		b = EndLen(b, at)
		want := protowire.AppendBytes(append([]byte{}, prefix...), payload)
		if !bytes.Equal(b, want) {
			t.Fatalf("length %d: beginLen/endLen wrote %d bytes, differing from protowire's %d", n, len(b), len(want))
		}
		// Nested: the outer length counts the inner one's grown prefix.
		b, outer := BeginLen(nil)
		b = AppendTag(b, 7, WireBytes)
		b, inner := BeginLen(b)
		b = append(b, payload...)
		b = EndLen(b, inner)
		b = AppendVarint(b, 5)
		b = EndLen(b, outer)
		innerWant := protowire.AppendVarint(protowire.AppendBytes(protowire.AppendTag(nil, 7, protowire.BytesType), payload), 5)
		if want := protowire.AppendBytes(nil, innerWant); !bytes.Equal(b, want) {
			t.Fatalf("nested length %d differs from protowire", n)
		}
		w := NewProtoReader(b)
		outerBody := w.LenBytes()
		if w.err != nil || w.pos != len(b) {
			t.Fatalf("length %d: lenBytes: %v", n, w.err)
		}
		w = NewProtoReader(outerBody)
		if num, wt, ok := w.Next(); !ok || num != 7 || wt != WireBytes {
			t.Fatalf("length %d: inner tag %d %d %v", n, num, wt, ok)
		}
		if got := w.LenBytes(); !bytes.Equal(got, payload) {
			t.Fatalf("length %d: inner payload differs", n)
		}
		if w.Varint() != 5 || w.err != nil {
			t.Fatalf("length %d: trailing varint: %v", n, w.err)
		}
		if _, _, ok := w.Next(); ok || w.err != nil {
			t.Fatalf("length %d: next at the end: %v %v", n, ok, w.err)
		}
	}
}

func TestWireReaderReadsProtoMarshal(t *testing.T) {
	s, err := structpb.NewStruct(map[string]any{"a": 1.5, "b": "x", "c": true, "d": nil, "e": []any{1.0, "y"}, "f": map[string]any{}})
	if err != nil {
		t.Fatal(err)
	}
	data, err := proto.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	w := NewProtoReader(data)
	n := 0
	for {
		num, wt, ok := w.Next()
		if !ok {
			break
		}
		if num != 1 || wt != WireBytes {
			t.Fatalf("field %d type %d", num, wt)
		}
		w.Skip(wt)
		n++
	}
	if w.err != nil || n != 6 {
		t.Fatalf("read %d entries, error %v", n, w.err)
	}
	data, _ = proto.Marshal(timestamppb.New(timestamppb.Now().AsTime()))
	w = NewProtoReader(data)
	for {
		_, wt, ok := w.Next()
		if !ok {
			break
		}
		w.Skip(wt)
	}
	if w.err != nil || w.pos != len(data) {
		t.Fatalf("timestamp: %v", w.err)
	}
}

func TestWireReaderErrors(t *testing.T) {
	long := append(bytes.Repeat([]byte{0xff}, 9), 0x01)
	for _, c := range []struct {
		name string
		data []byte
		read func(w *ProtoReader)
		msg  string
	}{
		{"truncated varint", []byte{0x80}, func(w *ProtoReader) { w.Varint() }, "truncated"},
		{"truncated tag", []byte{0x08, 0x01, 0x88}, func(w *ProtoReader) { w.Next(); w.Varint(); w.Next() }, "truncated"},
		{"11-byte varint", append(bytes.Repeat([]byte{0x80}, 10), 0x00), func(w *ProtoReader) { w.Varint() }, "overflows"},
		{"10th byte above 1", append(bytes.Repeat([]byte{0xff}, 9), 0x02), func(w *ProtoReader) { w.Varint() }, "overflows"},
		{"field number 0", []byte{0x00, 0x00}, func(w *ProtoReader) { w.Next() }, "field number"},
		{"field number 2^29", protowire.AppendTag(nil, 1<<29, protowire.VarintType), func(w *ProtoReader) { w.Next() }, "field number"},
		{"start group", []byte{0x0b}, func(w *ProtoReader) { w.Next() }, "group"},
		{"end group", []byte{0x0c}, func(w *ProtoReader) { w.Next() }, "group"},
		{"wire type 6", []byte{0x0e}, func(w *ProtoReader) { w.Next() }, "wire type"},
		{"wire type 7", []byte{0x0f}, func(w *ProtoReader) { w.Next() }, "wire type"},
		{"length past end", []byte{0x0a, 0x05, 1, 2, 3, 4}, func(w *ProtoReader) { w.Next(); w.LenBytes() }, "past the end"},
		{"huge length", append([]byte{0x0a}, long...), func(w *ProtoReader) { w.Next(); w.LenBytes() }, "past the end"},
		{"truncated fixed32", []byte{0x0d, 1, 2, 3}, func(w *ProtoReader) { w.Next(); w.Fixed32() }, "truncated"},
		{"truncated fixed64", []byte{0x09, 1, 2, 3, 4, 5, 6, 7}, func(w *ProtoReader) { w.Next(); w.Fixed64() }, "truncated"},
		{"skip truncated", []byte{0x09, 1}, func(w *ProtoReader) { _, wt, _ := w.Next(); w.Skip(wt) }, "truncated"},
		{"skip bad type", []byte{0x08, 0x01}, func(w *ProtoReader) { w.Next(); w.Skip(3) }, "wire type"},
	} {
		w := NewProtoReader(c.data)
		c.read(w)
		if w.err == nil || !strings.Contains(w.err.Msg, c.msg) || w.err.Rule != "syntax" || !errors.Is(w.err, ErrSyntax) {
			t.Errorf("%s: error %#v, want one about %q", c.name, w.err, c.msg)
			continue
		}
		// Sticky: everything after returns zero.
		if _, _, ok := w.Next(); ok || w.Varint() != 0 || w.Fixed64() != 0 || w.LenBytes() != nil {
			t.Errorf("%s: reads continue after the error", c.name)
		}
	}
	w := NewProtoReader(long)
	if v := w.Varint(); v != math.MaxUint64 || w.err != nil {
		t.Errorf("max 10-byte varint: %d %v", v, w.err)
	}
	w = NewProtoReader([]byte{0x0a, 0x02, 1, 2, 0x10})
	w.Next()
	w.LenBytes()
	w.Fail("boom")
	if w.err.Offset != 4 || w.err.Path != "" || w.err.Msg != "boom" {
		t.Errorf("fail recorded %#v", w.err)
	}
}

// wireFields walks data with protowire, as proto.Unmarshal reads unknown
// fields. groups reports whether it met a group, which ProtoReader refuses.
func wireFields(data []byte) (fields [][3]uint64, groups, ok bool) {
	for len(data) > 0 {
		num, typ, n := protowire.ConsumeTag(data)
		if n < 0 || num > protowire.MaxValidNumber {
			return nil, groups, false
		}
		if typ == protowire.StartGroupType || typ == protowire.EndGroupType {
			groups = true
		}
		m := protowire.ConsumeFieldValue(num, typ, data[n:])
		if m < 0 {
			return nil, groups, false
		}
		fields = append(fields, [3]uint64{uint64(num), uint64(typ), uint64(n + m)})
		data = data[n+m:]
	}
	return fields, groups, true
}

func FuzzWireReader(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte{0x08, 0x96, 0x01, 0x12, 0x03, 'a', 'b', 'c', 0x1d, 1, 2, 3, 4, 0x21, 1, 2, 3, 4, 5, 6, 7, 8})
	f.Add(append([]byte{0x08}, bytes.Repeat([]byte{0xff}, 10)...))
	f.Add([]byte{0x0b, 0x0c})
	f.Add([]byte{0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f})
	f.Fuzz(func(t *testing.T, data []byte) {
		w := NewProtoReader(data)
		var fields [][3]uint64
		for {
			start := w.pos
			num, wt, ok := w.Next()
			if !ok {
				break
			}
			if num < 1 || num > maxFieldNumber {
				t.Fatalf("next returned field number %d", num)
			}
			switch wt {
			case WireVarint:
				w.Varint()
			case WireFixed64:
				w.Fixed64()
			case WireFixed32:
				w.Fixed32()
			case WireBytes:
				v := w.LenBytes()
				if w.err == nil && len(v) > 0 && &v[0] != &data[w.pos-len(v)] {
					t.Fatal("lenBytes does not alias the input")
				}
			default:
				t.Fatalf("next returned wire type %d", wt)
			}
			if w.err == nil {
				fields = append(fields, [3]uint64{uint64(num), uint64(wt), uint64(w.pos - start)})
			}
			if w.pos > len(data) {
				t.Fatalf("position %d past the end %d", w.pos, len(data))
			}
		}
		want, groups, ok := wireFields(data)
		switch {
		case w.err == nil && !ok:
			t.Fatalf("wireReader accepts %x, protowire refuses", data)
		case w.err == nil && len(fields) != len(want):
			t.Fatalf("wireReader read %v, protowire %v", fields, want)
		case w.err == nil:
			for i := range fields {
				if fields[i] != want[i] {
					t.Fatalf("wireReader read %v, protowire %v", fields, want)
				}
			}
		case ok && !groups:
			t.Fatalf("wireReader refuses %x (%v), protowire accepts", data, w.err)
		}
		if w.err != nil && (w.err.Offset < 0 || w.err.Offset > len(data)) {
			t.Fatalf("error offset %d outside the data", w.err.Offset)
		}
	})
}

// TestNextTagSwitches reads fields the way generated readers do: a case per
// number and wire type, a field in another wire type skipped whole.
func TestNextTagSwitches(t *testing.T) {
	var b []byte
	b = AppendTag(b, 1, WireBytes)
	b = AppendLenString(b, "kept")
	b = AppendTag(b, 2, WireBytes) // field 2 is a varint: skipped
	b = AppendLenString(b, "wrong type")
	b = AppendTag(b, 2, WireVarint)
	b = AppendVarint(b, 300)
	b = AppendTag(b, 1<<20, WireFixed64) // unknown, large number
	b = AppendFixed64(b, 7)
	w := NewProtoReader(b)
	var s string
	var n uint64
	var skipped int
	for tag, ok := w.NextTag(); ok; tag, ok = w.NextTag() {
		switch tag {
		case 1<<3 | WireBytes:
			s = WireString(w)
		case 2<<3 | WireVarint:
			n = w.Varint()
		default:
			skipped++
			w.SkipTag(tag)
		}
	}
	if w.Err() != nil || s != "kept" || n != 300 || skipped != 2 {
		t.Fatalf("read %q, %d, skipped %d, err %v; want \"kept\", 300, skipped 2, no error", s, n, skipped, w.Err())
	}
}
