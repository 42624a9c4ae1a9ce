package runlog

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestKeysSortByTime: keys made later sort after, from the first
// millisecond to far ahead; keys of one millisecond differ; every key is
// one ParseID takes.
func TestKeysSortByTime(t *testing.T) {
	base := time.Date(2026, 11, 29, 1, 0, 0, 0, time.UTC)
	prev := newKey(time.UnixMilli(0))
	for _, at := range []time.Time{base, base.Add(time.Millisecond), base.Add(61 * time.Millisecond), base.Add(62 * time.Millisecond),
		base.Add(time.Hour), base.AddDate(1000, 0, 0)} {
		key := newKey(at)
		if key <= prev {
			t.Errorf("the key of %v, %s, does not sort after %s", at, key, prev)
		}
		if _, _, err := ParseID(FormatID(key, 1)); err != nil {
			t.Errorf("key %s: %v", key, err)
		}
		prev = key
	}
	seen := map[string]bool{}
	for range 1000 {
		key := newKey(base)
		if seen[key] {
			t.Fatalf("key %s made twice", key)
		}
		seen[key] = true
	}
}

func TestIDRoundTrip(t *testing.T) {
	key := NewKey()
	if len(key) != KeyLen {
		t.Fatalf("key %q has %d characters", key, len(key))
	}
	for _, pos := range []int64{0, 1, 9, 10, 1 << 40, 1<<63 - 1} { // 0: the run's start
		id := FormatID(key, pos)
		k, p, err := ParseID(id)
		if err != nil || k != key || p != pos {
			t.Errorf("ParseID(%q) = %q, %d, %v", id, k, p, err)
		}
		if len(id) > MaxIDLen {
			t.Errorf("%q is longer than MaxIDLen", id)
		}
	}
	for _, bad := range []string{"", "r1.", "r2." + key + ".1", "r1." + key + ".00", "r1." + key + ".01", "r1." + key + ".",
		"r1." + key + ".1a", "r1." + key[:KeyLen-1] + ".1", "r1." + key + "x.1", "r1." + key + ".9223372036854775808",
		"r1." + strings.Repeat("+", KeyLen) + ".1", "r1." + key + ".-1", "r1." + key + ". 1"} {
		if _, _, err := ParseID(bad); !errors.Is(err, ErrBadID) {
			t.Errorf("ParseID(%q) = %v, want ErrBadID", bad, err)
		}
	}
}

// FuzzParseID: ParseID never panics, and what it accepts is exactly what
// FormatID writes.
func FuzzParseID(f *testing.F) {
	key := "AAAAAAAAAAAAAAAAAAAAAA"
	for _, s := range []string{FormatID(key, 1), FormatID(key, 1<<62), "r1." + key + ".0", "r1." + key + ".00", "r1.", "", "r1." + key + ".18446744073709551616", "\xff\xfe", "r1." + key + ".1\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, id string) {
		k, pos, err := ParseID(id)
		if err != nil {
			if !errors.Is(err, ErrBadID) {
				t.Fatalf("ParseID(%q): %v does not wrap ErrBadID", id, err)
			}
			return
		}
		if pos < 0 || len(k) != KeyLen || FormatID(k, pos) != id {
			t.Fatalf("ParseID(%q) accepted %q, %d, which FormatID writes as %q", id, k, pos, FormatID(k, pos))
		}
	})
}

func TestMemoryLog(t *testing.T) {
	ctx := context.Background()
	now := time.Unix(1000, 0)
	m := NewMemory(MemoryOptions{Retention: time.Minute, MaxRunBytes: 10, MaxEndedRuns: 2, Now: func() time.Time { return now }})
	if err := m.Create(ctx, Run{Key: "k1", ThreadID: "t", RunID: "r", Owner: "alice"}); err != nil {
		t.Fatal(err)
	}
	if err := m.Create(ctx, Run{Key: "k1"}); !errors.Is(err, ErrExists) {
		t.Errorf("a second Create of k1: %v", err)
	}
	if last, err := m.Append(ctx, "k1", []byte("abc"), []byte("def")); err != nil || last != 2 {
		t.Fatalf("Append: %d %v", last, err)
	}
	if _, err := m.Append(ctx, "k1", []byte("too long")); !errors.Is(err, ErrFull) {
		t.Errorf("an Append past the bound: %v", err)
	}
	if err := m.End(ctx, "k1", []byte("the end, past the bound")); err != nil {
		t.Fatal(err)
	}
	if _, err := m.Append(ctx, "k1", []byte("x")); !errors.Is(err, ErrEnded) {
		t.Errorf("an Append after the end: %v", err)
	}
	p, err := m.Read(ctx, "k1", 1, 10, nil)
	if err != nil || !p.Ended || p.Last != 3 || len(p.Entries) != 2 || string(p.Entries[0].Data) != "def" || p.Entries[1].Pos != 3 {
		t.Fatalf("Read after 1: %+v %v", p, err)
	}
	if run, err := m.Find(ctx, "t", "r"); err != nil || run.Key != "k1" || run.Owner != "alice" || !run.Ended {
		t.Errorf("Find: %+v %v", run, err)
	}
	// Retention: gone a minute after its end.
	now = now.Add(2 * time.Minute)
	if _, err := m.Get(ctx, "k1"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Get past the retention: %v", err)
	}
	if _, err := m.Find(ctx, "t", "r"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Find past the retention: %v", err)
	}
	// MaxEndedRuns: the oldest ended go first; runs in progress stay.
	for i := range 4 {
		key := fmt.Sprint("e", i)
		m.Create(ctx, Run{Key: key})
		if i < 3 {
			m.End(ctx, key, nil)
		}
	}
	if m.Len() != 3 {
		t.Errorf("%d logs held, want 2 ended and 1 in progress", m.Len())
	}
	if _, err := m.Get(ctx, "e0"); !errors.Is(err, ErrNotFound) {
		t.Errorf("the oldest ended run is still held: %v", err)
	}
}

func TestTail(t *testing.T) {
	ctx := context.Background()
	m := NewMemory(MemoryOptions{})
	m.Create(ctx, Run{Key: "k"})
	m.Append(ctx, "k", []byte("1"), []byte("2"))
	var got []string
	done := make(chan error, 1)
	flushes := 0
	go func() {
		last, err := Tail(ctx, m, "k", 1, TailConfig{PageSize: 2,
			Emit:  func(e Entry) error { got = append(got, fmt.Sprint(e.Pos, ":", string(e.Data))); return nil },
			Flush: func() error { flushes++; return nil }})
		if err == nil && last != 5 {
			err = fmt.Errorf("last %d", last)
		}
		done <- err
	}()
	for i := 3; i <= 4; i++ {
		time.Sleep(time.Millisecond)
		m.Append(ctx, "k", []byte(fmt.Sprint(i)))
	}
	m.End(ctx, "k", []byte("5"))
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if s := strings.Join(got, " "); s != "2:2 3:3 4:4 5:5" {
		t.Errorf("tailed %s", s)
	}

	// A reader that goes away ends the tail with its cause.
	m.Create(ctx, Run{Key: "k2"})
	cctx, cancel := context.WithCancelCause(ctx)
	gone := errors.New("gone")
	go func() { time.Sleep(5 * time.Millisecond); cancel(gone) }()
	if _, err := Tail(cctx, m, "k2", 0, TailConfig{Emit: func(Entry) error { return nil }, Flush: func() error { return nil }}); !errors.Is(err, gone) {
		t.Errorf("Tail of a reader gone: %v", err)
	}
	if _, err := Tail(ctx, m, "nope", 0, TailConfig{}); !errors.Is(err, ErrNotFound) {
		t.Errorf("Tail of no log: %v", err)
	}
}

func TestLease(t *testing.T) {
	var fired atomic.Int32
	l := NewLease(20*time.Millisecond, func() { fired.Add(1) })
	detach := l.Attach()
	time.Sleep(40 * time.Millisecond)
	if fired.Load() != 0 {
		t.Fatal("a lease with a reader attached expired")
	}
	detach()
	detach() // twice is once
	if l.Attached() != 0 {
		t.Fatalf("%d attached", l.Attached())
	}
	deadline := time.Now().Add(2 * time.Second)
	for fired.Load() == 0 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if fired.Load() != 1 {
		t.Fatal("a lease with no one attached did not expire")
	}
	closed := NewLease(10*time.Millisecond, func() { fired.Add(1) })
	closed.Close()
	time.Sleep(30 * time.Millisecond)
	if fired.Load() != 1 {
		t.Error("a closed lease expired")
	}
}

// TestLeaseAttachedElsewhere: a lease whose run has a reader in another
// process starts its clock again each time it would expire, and expires
// once that reader has gone.
func TestLeaseAttachedElsewhere(t *testing.T) {
	var asked, fired atomic.Int32
	l := NewLease(5*time.Millisecond, func() { fired.Add(1) })
	detach := l.Attach() // the clock stopped while the question is set
	l.AttachedElsewhere(func() bool { return asked.Add(1) <= 3 })
	detach()
	deadline := time.Now().Add(5 * time.Second)
	for fired.Load() == 0 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if fired.Load() != 1 || asked.Load() != 4 {
		t.Fatalf("fired %d times, asked %d times; want once, after 3 answers that a reader is elsewhere and one that none is", fired.Load(), asked.Load())
	}
}

// TestMemoryPacksEntries: entries of every size, small ones in shared
// blocks, larger ones in blocks that double, the largest alone, read back
// as they were appended, none reaching into the next.
func TestMemoryPacksEntries(t *testing.T) {
	ctx := context.Background()
	m := NewMemory(MemoryOptions{MaxRunBytes: 64 << 20})
	if err := m.Create(ctx, Run{Key: "k"}); err != nil {
		t.Fatal(err)
	}
	var want [][]byte
	for i, size := range []int{10, 900, 4200, 4200, 20 << 10, 3, 16 << 10, 4200, 70 << 10, 1500, 1} {
		for j := range 20 {
			d := []byte(strings.Repeat(string(rune('a'+(i+j)%26)), size))
			want = append(want, d)
			if _, err := m.Append(ctx, "k", d); err != nil {
				t.Fatal(err)
			}
		}
	}
	p, err := m.Read(ctx, "k", 0, len(want), nil)
	if err != nil || len(p.Entries) != len(want) {
		t.Fatalf("Read: %d entries, %v", len(p.Entries), err)
	}
	for i, e := range p.Entries {
		if e.Pos != int64(i+1) || string(e.Data) != string(want[i]) || cap(e.Data) != len(e.Data) {
			t.Fatalf("entry %d: pos %d, %d bytes (cap %d), want %d", i, e.Pos, len(e.Data), cap(e.Data), len(want[i]))
		}
	}
}

// TestMemoryTakesPackedBatches: a Writer's batches go into Memory as
// their buffer (appendPacked): batches of small entries, one entry at a
// time, of a few KiB, and larger than a block holds, all read back as
// they were added, none reaching into the next; a run that logs an entry
// at a time still shares blocks.
func TestMemoryTakesPackedBatches(t *testing.T) {
	ctx := context.Background()
	m := NewMemory(MemoryOptions{MaxRunBytes: 64 << 20})
	if err := m.Create(ctx, Run{Key: "k"}); err != nil {
		t.Fatal(err)
	}
	var want []string
	add := func(entries ...string) {
		var data []byte
		var ends []int
		for _, e := range entries {
			data = append(data, e...)
			ends = append(ends, len(data))
			want = append(want, e)
		}
		if last, err := m.appendPacked("k", data, ends); err != nil || last != int64(len(want)) {
			t.Fatalf("appendPacked: %d, %v", last, err)
		}
	}
	for i := range 50 {
		add(strings.Repeat("a", i+1)) // one at a time
	}
	m.mu.Lock()
	blocks := len(m.runs["k"].blocks)
	m.mu.Unlock()
	if blocks > 3 {
		t.Errorf("50 small entries, each a batch, in %d blocks", blocks)
	}
	var batch []string
	for i := range 200 {
		batch = append(batch, fmt.Sprintf(`{"type":"TEXT_MESSAGE_CONTENT","delta":"word %d"}`, i))
	}
	add(batch...)
	add(strings.Repeat("b", 5000), "c", strings.Repeat("d", 3000))
	add(strings.Repeat("e", maxChunk), strings.Repeat("f", 10), strings.Repeat("g", 70<<10))
	add("h")
	p, err := m.Read(ctx, "k", 0, len(want), nil)
	if err != nil || len(p.Entries) != len(want) {
		t.Fatalf("Read: %d entries, %v", len(p.Entries), err)
	}
	for i, e := range p.Entries {
		if e.Pos != int64(i+1) || string(e.Data) != want[i] || cap(e.Data) != len(e.Data) {
			t.Fatalf("entry %d: pos %d, %d bytes (cap %d), want %d", i, e.Pos, len(e.Data), cap(e.Data), len(want[i]))
		}
	}
	if _, err := m.appendPacked("nope", []byte("x"), []int{1}); !errors.Is(err, ErrNotFound) {
		t.Errorf("a batch for no run: %v", err)
	}
}

// TestTailFlushes: Tail writes the pages it reads one after another in
// one Flush, once caught up; before it first waits it flushes (the reader
// learns the stream is open), unless the run is Starting, whose first
// entries then go out with that first write.
func TestTailFlushes(t *testing.T) {
	ctx := context.Background()
	for _, starting := range []bool{false, true} {
		m := NewMemory(MemoryOptions{})
		m.Create(ctx, Run{Key: "k"})
		var events []string // "e" for an entry emitted, "f" for a flush
		var mu sync.Mutex
		record := func(s string) {
			mu.Lock()
			events = append(events, s)
			mu.Unlock()
		}
		done := make(chan error, 1)
		go func() {
			_, err := Tail(ctx, m, "k", 0, TailConfig{PageSize: 2, Starting: starting,
				Emit:  func(Entry) error { record("e"); return nil },
				Flush: func() error { record("f"); return nil }})
			done <- err
		}()
		time.Sleep(20 * time.Millisecond) // Tail waits for the first entries
		m.Append(ctx, "k", []byte("1"), []byte("2"), []byte("3"), []byte("4"), []byte("5"))
		m.End(ctx, "k", nil)
		if err := <-done; err != nil {
			t.Fatal(err)
		}
		want := "f e e e e e f"
		if starting {
			want = "e e e e e f"
		}
		if got := strings.Join(events, " "); got != want {
			t.Errorf("starting %v: %s, want %s", starting, got, want)
		}
	}
}
