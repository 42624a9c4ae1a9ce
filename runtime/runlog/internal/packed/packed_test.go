package packed

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/agui-gen/agui-gen/runtime/runlog"
)

// TestSplitDecode: entries packed into rows (small ones together, one
// larger than a row alone) come back, each at its position, from any
// position on and up to any limit.
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
		if r.Last-int64(r.Count) != prev || r.Count < 1 || (r.Count > 1 && len(r.Data) > MaxRowBytes+r.Count*3) {
			t.Fatalf("row %+v after %d", r.Last, prev)
		}
		prev = r.Last
	}
	for _, c := range []struct {
		after int64
		limit int
	}{{0, 1000}, {10, 1000}, {11, 5}, {150, 1}, {300, 10}, {311, 2}, {312, 5}} {
		var got []runlog.Entry
		for _, r := range rows {
			var err error
			if got, err = Decode(got, r.Last, r.Count, r.Data, c.after, c.limit); err != nil {
				t.Fatal(err)
			}
		}
		first := max(c.after, 10) + 1
		want := min(c.limit, int(10+int64(len(entries))-first+1))
		if len(got) != want {
			t.Fatalf("after %d limit %d: %d entries, want %d", c.after, c.limit, len(got), want)
		}
		for i, e := range got {
			if e.Pos != first+int64(i) || !bytes.Equal(e.Data, entries[e.Pos-11]) {
				t.Fatalf("after %d: entry %d is %d %q", c.after, i, e.Pos, fmt.Sprintf("%.10s", e.Data))
			}
		}
	}
	if _, err := Decode(nil, 5, 3, []byte{9, 'x'}, 0, 10); err != ErrCorrupt {
		t.Errorf("a short row: %v", err)
	}
}
