package taskstore

import (
	"slices"
	"strconv"
	"testing"
	"time"
)

// TestListFilter: the count leaves the cursor out, the page adds it, and
// each placeholder is the driver's, numbered in the order of the
// arguments.
func TestListFilter(t *testing.T) {
	at := time.Unix(0, 5)
	q := Query[int32]{Owner: "o", ContextID: "c", State: 3, UpdatedAfter: time.Unix(0, 2), After: &Cursor{Updated: at, ID: "x"}, Limit: 10}
	dollar := func(n int) string { return "$" + strconv.Itoa(n) }
	count, countArgs, page, pageArgs := ListFilter(q, dollar)
	if count != "owner = $1 AND context_id = $2 AND state = $3 AND updated > $4" {
		t.Errorf("count: %s", count)
	}
	if page != count+" AND (updated < $5 OR (updated = $6 AND id < $7))" {
		t.Errorf("page: %s", page)
	}
	if !slices.Equal(countArgs, []any{"o", "c", int32(3), int64(2)}) || !slices.Equal(pageArgs, append(countArgs[:4:4], int64(5), int64(5), "x")) {
		t.Errorf("arguments: %v %v", countArgs, pageArgs)
	}
	count, countArgs, page, _ = ListFilter(Query[int32]{Owner: "o"}, func(int) string { return "?" })
	if count != "owner = ?" || page != count || len(countArgs) != 1 {
		t.Errorf("owner alone: %s %s %v", count, page, countArgs)
	}
}

type msg struct{ b []byte }

func (m *msg) AppendProto(b []byte) []byte   { return append(b, m.b...) }
func (m *msg) UnmarshalProto(b []byte) error { m.b = b; return nil }

// TestSnapshotDue: a settling event always brings a snapshot; otherwise
// one comes after as many events as the snapshot's generation, at least
// SnapshotEvery.
func TestSnapshotDue(t *testing.T) {
	sp := Spec[*msg, *msg, *msg, int32]{
		Status:  func(e *msg) (int32, time.Time, bool) { return int32(len(e.b)), time.Time{}, len(e.b) > 0 },
		Settled: func(s int32) bool { return s == 2 },
	}
	plain, settling := &msg{}, &msg{b: []byte{1, 2}}
	for _, c := range []struct {
		snapshot, gen int64
		event         *msg
		want          bool
	}{
		{1, 2, settling, true},
		{1, 2, plain, false},
		{1, SnapshotEvery, plain, false},
		{1, SnapshotEvery + 1, plain, true},
		{100, 199, plain, false},
		{100, 200, plain, true},
	} {
		if got := sp.SnapshotDue(c.snapshot, c.gen, c.event); got != c.want {
			t.Errorf("SnapshotDue(%d, %d, %v) = %v", c.snapshot, c.gen, c.event.b, got)
		}
	}
	if st, up := sp.StatusColumns(plain); st != nil || up != nil {
		t.Error("a plain event sets columns")
	}
	if st, up := sp.StatusColumns(&msg{b: []byte{1}}); st == nil || *st != 1 || up != nil {
		t.Errorf("a status without a time: %v %v", st, up)
	}
}
