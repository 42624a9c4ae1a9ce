package wire

import (
	"slices"
	"testing"
	"unsafe"
)

// TestReadStringReusing: a string equal to prev is prev itself; any other
// reads as ReadString reads it (escapes, invalid UTF-8).
func TestReadStringReusing(t *testing.T) {
	prev := string([]byte("task-1")) // memory of its own, not the input's
	for _, tc := range []struct {
		in, want string
		same     bool // the result is prev's memory
	}{
		{`"task-1"`, "task-1", true},
		{`"task\u002d1"`, "task-1", true},
		{`"task-2"`, "task-2", false},
		{`"task-1 "`, "task-1 ", false},
		{`""`, "", false},
		{"\"a\xffb\"", "a\uFFFDb", false},
	} {
		r := NewReader([]byte(tc.in), Decoder{})
		got := r.ReadStringReusing(prev)
		if err := r.Finish(); err != nil || got != tc.want {
			t.Errorf("%s: %q, %v; want %q", tc.in, got, err, tc.want)
		}
		if same := len(got) > 0 && unsafe.StringData(got) == unsafe.StringData(prev); same != tc.same {
			t.Errorf("%s: the result is prev's memory: %v, want %v", tc.in, same, tc.same)
		}
	}
}

// TestReadSliceReusing: elements are read over prev's, in prev's array
// while they fit; an empty array is empty, not nil; null is nil.
func TestReadSliceReusing(t *testing.T) {
	readInto := func(v *string, r *Reader) { *v = r.ReadStringReusing(*v) }
	prev := make([]string, 2, 3)
	prev[0], prev[1] = "a", "b"
	read := func(in string, prev []string) []string {
		r := NewReader([]byte(in), Decoder{})
		out := ReadSliceReusing(r, prev, readInto)
		if err := r.Finish(); err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		return out
	}
	if got := read(`["a","x","y"]`, prev); !slices.Equal(got, []string{"a", "x", "y"}) || &got[0] != &prev[0] {
		t.Errorf("three elements over two, in a capacity of three: %q, same array %v", got, &got[0] == &prev[0])
	}
	if got := read(`["a","x","y","z"]`, prev); !slices.Equal(got, []string{"a", "x", "y", "z"}) {
		t.Errorf("past the capacity: %q", got)
	}
	if got := read(`[]`, prev); got == nil || len(got) != 0 {
		t.Errorf("an empty array: %#v, want empty and not nil", got)
	}
	if got := read(`[]`, nil); got == nil || len(got) != 0 {
		t.Errorf("an empty array over nil: %#v, want empty and not nil", got)
	}
	r := NewReader([]byte(`null`), Decoder{})
	if got := ReadSliceReusing(r, prev, readInto); got != nil {
		t.Errorf("null: %#v, want nil", got)
	}
	r.Release()
}

// TestReadRawText: the text of any value, in the input's memory.
func TestReadRawText(t *testing.T) {
	in := []byte(`{"a": [1, {"b": "c"}], "n": 12}`)
	r := NewReader(in, Decoder{})
	r.BeginObject()
	var got []string
	for r.NextField() {
		got = append(got, string(r.ReadRawText()))
	}
	if err := r.Finish(); err != nil || !slices.Equal(got, []string{`[1, {"b": "c"}]`, `12`}) {
		t.Errorf("%q, %v", got, err)
	}
	r = NewReader([]byte(`[1,`), Decoder{})
	if got := r.ReadRawText(); got != nil || r.Finish() == nil {
		t.Errorf("malformed: %q, want nil and an error", got)
	}
}

// TestPlainWordIsExact: plainWord agrees with a byte-by-byte look at every
// word made of one byte value in each position among plain bytes.
func TestPlainWordIsExact(t *testing.T) {
	special := func(c byte) bool { return c == '"' || c == '\\' || c < 0x20 }
	for c := range 256 {
		for pos := range 8 {
			for _, fill := range []byte{'a', 0x7f, 0x80, 0xff, ' '} {
				var b [8]byte
				for i := range b {
					b[i] = fill
				}
				b[pos] = byte(c)
				w := uint64(0)
				for i := 7; i >= 0; i-- {
					w = w<<8 | uint64(b[i])
				}
				if got, want := plainWord(w), !special(byte(c)) && !special(fill); got != want {
					t.Fatalf("%q: plainWord %v, want %v", b, got, want)
				}
			}
		}
	}
}
