package wire

import (
	"encoding/json"
	"slices"
	"testing"
	"unicode/utf8"
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

// TestEscapesAreUndoneWhereTheyAre: the scanner's note of escapes belongs
// to the string it scanned: an escaped key or value next to plain ones
// reads unescaped, and the plain ones as they are.
func TestEscapesAreUndoneWhereTheyAre(t *testing.T) {
	r := NewReader([]byte(`{"a\u0062":"x\u0079","ab":"xy","\u0061b":"plain","ab":"\"q\""}`), Decoder{})
	r.BeginObject()
	var got []string
	for r.NextField() {
		key := string(r.Key())
		got = append(got, key+"="+r.ReadString())
	}
	if err := r.Finish(); err != nil || !slices.Equal(got, []string{"ab=xy", "ab=xy", "ab=plain", `ab="q"`}) {
		t.Errorf("%q, %v", got, err)
	}
}

// FuzzReadStringMatchesEncodingJSON: the string scanner (eight bytes at a
// time, escapes noted as it goes) takes and refuses the strings
// encoding/json does, and reads them alike, keys as values.
func FuzzReadStringMatchesEncodingJSON(f *testing.F) {
	for _, s := range []string{`"plain"`, `"The quick brown fox jumps over the lazy dog."`, `"0123456\"89"`, `"01234567\\n9abcdef"`,
		`"\u00e9t\u00e9 caf\u00e9 and more"`, `"tab	in"`, `"unterminated`, `"bad \x escape"`, "\"\xff\xfe invalid\"", `"\ud83d\ude00"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		var want string
		wantErr := json.Unmarshal(doc, &want)
		r := NewReader(doc, Decoder{})
		got := r.ReadString()
		gotErr := r.Finish()
		if (wantErr == nil) != (gotErr == nil) || wantErr == nil && got != want {
			t.Fatalf("%q: encoding/json %q, %v; ours %q, %v", doc, want, wantErr, got, gotErr)
		}
		if wantErr != nil || !utf8.Valid(doc) {
			return
		}
		// The same string as a key (whose invalid UTF-8 Key leaves as it is).
		obj := append(append([]byte("{"), doc...), ":1}"...)
		r = NewReader(obj, Decoder{})
		r.BeginObject()
		r.NextField()
		key := string(r.Key())
		r.Skip()
		r.NextField() // the end of the object
		if err := r.Finish(); err != nil || key != want {
			t.Fatalf("%s: key %q, %v; want %q", obj, key, err, want)
		}
	})
}
