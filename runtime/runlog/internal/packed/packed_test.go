package packed

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"slices"
	"testing"

	"github.com/agui-gen/agui-gen/runtime/runlog"
)

// TestSplitDecode: entries packed into rows (small ones together,
// front-coded, one larger than a row alone) come back, each at its
// position, from any position on and up to any limit.
func TestSplitDecode(t *testing.T) {
	var entries [][]byte
	for i := range 300 {
		entries = append(entries, bytes.Repeat([]byte{byte('a' + i%26)}, 1+i*7%400))
	}
	entries = append(entries, make([]byte, MaxRowBytes+5), []byte("after"))
	rows, _ := Split(entries, 10, nil, nil)
	if len(rows) < 3 {
		t.Fatalf("%d rows", len(rows))
	}
	prev := int64(10)
	for _, r := range rows {
		if r.Last-int64(r.Count()) != prev || r.N == 0 || r.N > 1 || (r.N < -1 && len(r.Data) > MaxRowBytes+r.Count()*6) {
			t.Fatalf("row %d of %d entries after %d", r.Last, r.N, prev)
		}
		prev = r.Last
	}
	checkDecode(t, rows, entries, 10)
}

// checkDecode checks that rows, appended after position first-1, decode
// to entries from any position on and up to any limit.
func checkDecode(t *testing.T, rows []Row, entries [][]byte, after int64) {
	t.Helper()
	last := after + int64(len(entries))
	for _, c := range []struct {
		after int64
		limit int
	}{{0, 1000}, {after, 1000}, {after + 1, 5}, {after + 140, 1}, {last - 12, 10}, {last - 1, 2}, {last, 5}} {
		var got []runlog.Entry
		for _, r := range rows {
			var err error
			if got, err = Decode(got, r.Last, r.N, r.Data, c.after, c.limit); err != nil {
				t.Fatal(err)
			}
		}
		first := max(c.after, after) + 1
		want := max(0, min(c.limit, int(last-first+1)))
		if len(got) != want {
			t.Fatalf("after %d limit %d: %d entries, want %d", c.after, c.limit, len(got), want)
		}
		for i, e := range got {
			if e.Pos != first+int64(i) || !bytes.Equal(e.Data, entries[e.Pos-after-1]) {
				t.Fatalf("after %d: entry %d is %d %q", c.after, i, e.Pos, fmt.Sprintf("%.10s", e.Data))
			}
		}
	}
}

// TestFrontCoding: a run's text events, which repeat each other up to
// their delta, are kept in a fraction of their bytes, and come back whole.
func TestFrontCoding(t *testing.T) {
	var entries [][]byte
	size := 0
	for i := range 200 {
		e := fmt.Appendf(nil, `{"type":"TEXT_MESSAGE_CONTENT","messageId":"6f1c2a9e-5b7d-4c1e-9a2f-0d3b8e7c6a51","delta":"word %d "}`, i)
		entries = append(entries, e)
		size += len(e)
	}
	rows, _ := Split(entries, 0, nil, nil)
	if len(rows) != 1 || rows[0].N != -200 {
		t.Fatalf("%d rows, the first of %d entries", len(rows), rows[0].N)
	}
	if got := len(rows[0].Data); got*5 > size {
		t.Errorf("200 text events of %d bytes take %d bytes", size, got)
	}
	checkDecode(t, rows, entries, 0)
}

// TestDecodeEarlierForm: rows of several entries as earlier versions
// wrote them (each entry's length, then its bytes) are still read.
func TestDecodeEarlierForm(t *testing.T) {
	entries := [][]byte{[]byte("one"), []byte(""), []byte("three")}
	var data []byte
	for _, e := range entries {
		data = binary.AppendUvarint(data, uint64(len(e)))
		data = append(data, e...)
	}
	checkDecode(t, []Row{{Last: 7, N: 3, Data: data}}, entries, 4)
}

// TestDecodeCorrupt: rows whose data does not hold the entries they say
// are refused, in either form.
func TestDecodeCorrupt(t *testing.T) {
	for _, c := range []struct {
		name string
		n    int
		data []byte
	}{
		{"a length past the end", 3, []byte{9, 'x'}},
		{"front-coded, a length past the end", -2, []byte{0, 9, 'x'}},
		{"front-coded, the first entry sharing a prefix", -2, []byte{1, 1, 'x', 0, 0}},
		{"front-coded, a prefix longer than the entry before", -2, []byte{0, 1, 'x', 2, 0}},
		{"front-coded, bytes after the last entry", -2, []byte{0, 1, 'x', 1, 0, 'y'}},
		{"front-coded, fewer entries than said", -3, []byte{0, 1, 'x', 1, 0}},
	} {
		if _, err := Decode(nil, 10, c.n, c.data, 0, 10); err != ErrCorrupt {
			t.Errorf("%s: %v", c.name, err)
		}
	}
	// Each entry the one before and one byte more: what they add up to is
	// bounded, not the square of the row's size.
	data := []byte{0, 1, 'x'}
	for i := range 20000 {
		data = binary.AppendUvarint(data, uint64(i+1)) // all of the entry before
		data = append(data, 1, 'x')
	}
	if _, err := Decode(nil, 20001, -20001, data, 0, 10); err != ErrCorrupt {
		t.Errorf("a growing row: %v", err)
	}
}

// FuzzDecode: any row decodes to entries or ErrCorrupt, without a panic,
// and rows Split makes decode to what was split.
func FuzzDecode(f *testing.F) {
	f.Add([]byte(`{"type":"A","delta":"x"}`), []byte(`{"type":"A","delta":"y"}`), -2, []byte{0, 1, 'x', 1, 1, 'y'})
	f.Add([]byte(""), []byte("abc"), 2, []byte{1, 'a', 0})
	f.Fuzz(func(t *testing.T, a, b []byte, n int, data []byte) {
		n = max(min(n, 64), -64)
		if got, err := Decode(nil, 100, n, data, 0, 100); err != nil && err != ErrCorrupt {
			t.Fatalf("%v (%d entries)", err, len(got))
		}
		entries := [][]byte{a, b, a, b[:len(b)/2]}
		rows, _ := Split(entries, 5, nil, nil)
		var got []runlog.Entry
		for _, r := range rows {
			var err error
			if got, err = Decode(got, r.Last, r.N, r.Data, 5, 10); err != nil {
				t.Fatal(err)
			}
		}
		if len(got) != len(entries) {
			t.Fatalf("%d entries", len(got))
		}
		for i, e := range got {
			if e.Pos != int64(6+i) || !bytes.Equal(e.Data, entries[i]) {
				t.Fatalf("entry %d: %d %q, want %q", i, e.Pos, e.Data, entries[i])
			}
		}
	})
}

// TestCommonPrefix: the shared prefix, wherever the first difference is
// (in a word or in the bytes after the last whole one) and however long
// either is.
func TestCommonPrefix(t *testing.T) {
	a := []byte("0123456789abcdefghijklmnopqrstuv")
	for n := 0; n <= len(a); n++ {
		for diff := 0; diff <= n; diff++ {
			b := bytes.Clone(a[:n])
			if diff < n {
				b[diff] ^= 0x40
			}
			if got := commonPrefix(a, b); got != diff {
				t.Fatalf("%q and %q share %d bytes, not %d", a, b, got, diff)
			}
			if got := commonPrefix(b, a[:diff]); got != diff {
				t.Fatalf("%q and %q share %d bytes, not %d", b, a[:diff], got, diff)
			}
		}
	}
}

// BenchmarkSplit: packing a run's 200 text events into a row.
func BenchmarkSplit(b *testing.B) {
	var entries [][]byte
	for i := range 200 {
		entries = append(entries, fmt.Appendf(nil, `{"type":"TEXT_MESSAGE_CONTENT","messageId":"6f1c2a9e-5b7d-4c1e-9a2f-0d3b8e7c6a51","delta":"word %d "}`, i))
	}
	final := []byte(`{"type":"RUN_FINISHED","threadId":"t","runId":"r"}`)
	var bufs Buffers
	b.ReportAllocs()
	for b.Loop() {
		bufs.Split(entries, final, 0)
	}
}

// TestSplitFinal: a batch's final entry is packed after its entries, as if
// it were one more, and packing it allocates nothing once the buffers have
// grown.
func TestSplitFinal(t *testing.T) {
	entries := [][]byte{[]byte(`{"a":1}`), []byte(`{"a":2}`), []byte(`{"a":3}`)}
	final := []byte(`{"end":true}`)
	var bufs Buffers
	got := slices.Clone(bufs.Split(entries, final, 7))
	want, _ := Split(append(slices.Clone(entries), final), 7, nil, nil)
	if len(got) != len(want) {
		t.Fatalf("%d rows, want %d", len(got), len(want))
	}
	for i := range want {
		if got[i].Last != want[i].Last || got[i].N != want[i].N || !bytes.Equal(got[i].Data, want[i].Data) {
			t.Errorf("row %d: %+v, want %+v", i, got[i], want[i])
		}
	}
	if allocs := testing.AllocsPerRun(10, func() { bufs.Split(entries, final, 7) }); allocs != 0 {
		t.Errorf("%v allocations per batch", allocs)
	}
	if rows := bufs.Split(entries, nil, 7); rows[len(rows)-1].Last != 10 {
		t.Errorf("without a final entry the last row ends at %d, want 10", rows[len(rows)-1].Last)
	}
}
