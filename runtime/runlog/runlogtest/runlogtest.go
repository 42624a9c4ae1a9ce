// Package runlogtest is the contract of runlog.Log as a test suite: every
// log (Memory, one on SQL) runs it, so that they are interchangeable under
// AG-UI's handler.
package runlogtest

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agui-gen/agui-gen/runtime/runlog"
)

// Run runs the contract against the logs newLog makes, a new, empty one
// for each subtest. maxRunBytes is the bound of one run's entries the log
// was made with (0: the test of ErrFull is skipped).
func Run(t *testing.T, newLog func(t *testing.T) runlog.Log, maxRunBytes int) {
	c := contract{newLog: newLog, ctx: context.Background(), maxRunBytes: maxRunBytes}

	type subtest struct {
		name string
		run  func(contract, *testing.T)
	}
	subtests := []subtest{
		{"CreateAppendRead", contract.createAppendRead},
		{"End", contract.end},
		{"Find", contract.find},
	}
	if maxRunBytes > 0 {
		subtests = append(subtests, subtest{"Full", contract.full})
	}
	subtests = append(subtests,
		subtest{"Writer", contract.writer},
		subtest{"WatchAndTail", contract.watchAndTail})
	for _, sub := range subtests {
		t.Run(sub.name, func(t *testing.T) { sub.run(c, t) })
	}
}

// contract is what Run's subtests share: the logs' maker, a context, and
// maxRunBytes, the bound of one run's entries the logs were made with (0:
// none to test). Each subtest makes a log of its own, so that none counts
// on what another did.
type contract struct {
	newLog      func(t *testing.T) runlog.Log
	ctx         context.Context
	maxRunBytes int
}

// createAppendRead creates a run (once: a second Create is ErrExists),
// appends to it in batches numbered from 1, and reads it back whole and by
// pages; a run the log does not have is ErrNotFound everywhere.
func (c contract) createAppendRead(t *testing.T) {
	ctx := c.ctx
	l := c.newLog(t)
	key := runlog.NewKey()
	if err := l.Create(ctx, runlog.Run{Key: key, ThreadID: "t", RunID: "r", Owner: "alice", Input: []byte(`{"x":1}`)}); err != nil {
		t.Fatal(err)
	}
	if err := l.Create(ctx, runlog.Run{Key: key}); !errors.Is(err, runlog.ErrExists) {
		t.Errorf("a second Create: %v, want ErrExists", err)
	}
	if last, err := l.Append(ctx, key, []byte("a"), []byte("bb")); err != nil || last != 2 {
		t.Fatalf("Append: %d, %v", last, err)
	}
	if last, err := l.Append(ctx, key, []byte("ccc")); err != nil || last != 3 {
		t.Fatalf("Append: %d, %v", last, err)
	}
	c.getAppended(t, l, key)
	c.readAppended(t, l, key)
	c.unknownRun(t, l)
}

// getAppended checks Get of the run createAppendRead made: what it was
// created with, three entries, not ended, and when it started.
func (c contract) getAppended(t *testing.T, l runlog.Log, key string) {
	run, err := l.Get(c.ctx, key)
	if err != nil || run.Key != key || run.ThreadID != "t" || run.RunID != "r" || run.Owner != "alice" ||
		string(run.Input) != `{"x":1}` || run.Last != 3 || run.Ended || run.Started.IsZero() {
		t.Fatalf("Get: %+v, %v", run, err)
	}
}

// readAppended reads the run createAppendRead made whole, by a page of one
// after a position (into the page it is given), and at its end.
func (c contract) readAppended(t *testing.T, l runlog.Log, key string) {
	ctx := c.ctx
	p, err := l.Read(ctx, key, 0, 10, nil)
	if err != nil || got(p) != "1:a 2:bb 3:ccc" || p.Last != 3 || p.Ended {
		t.Fatalf("Read: %s %+v, %v", got(p), p, err)
	}
	buf := make([]runlog.Entry, 0, 8)
	p, err = l.Read(ctx, key, 1, 1, buf)
	if err != nil || got(p) != "2:bb" || p.Last != 3 {
		t.Fatalf("Read after 1, 1: %s, %v", got(p), err)
	}
	if &p.Entries[:1][0] != &buf[:1][0] {
		t.Error("Read did not reuse the page it was given")
	}
	if p, err := l.Read(ctx, key, 3, 10, nil); err != nil || len(p.Entries) != 0 || p.Last != 3 {
		t.Errorf("Read at the end: %+v, %v", p, err)
	}
}

// unknownRun checks that Append, Get, Read, End and Find of a run the log
// does not have are ErrNotFound.
func (c contract) unknownRun(t *testing.T, l runlog.Log) {
	ctx := c.ctx
	for _, f := range []func() error{
		func() error { _, err := l.Append(ctx, "nope", []byte("x")); return err },
		func() error { _, err := l.Get(ctx, "nope"); return err },
		func() error { _, err := l.Read(ctx, "nope", 0, 1, nil); return err },
		func() error { return l.End(ctx, "nope", nil) },
		func() error { _, err := l.Find(ctx, "no", "such"); return err },
	} {
		if err := f(); !errors.Is(err, runlog.ErrNotFound) {
			t.Errorf("an unknown run: %v, want ErrNotFound", err)
		}
	}
}

// end ends a run with a last entry (a second End is no error, an Append
// after it is ErrEnded) and reads it back ended; a run ended with no entry
// is ended with none.
func (c contract) end(t *testing.T) {
	ctx := c.ctx
	l := c.newLog(t)
	key := runlog.NewKey()
	mustCreate(t, l, runlog.Run{Key: key, ThreadID: "t", RunID: "r"})
	l.Append(ctx, key, []byte("a"))
	if err := l.End(ctx, key, []byte("end")); err != nil {
		t.Fatal(err)
	}
	if err := l.End(ctx, key, []byte("again")); err != nil {
		t.Errorf("a second End: %v", err)
	}
	if _, err := l.Append(ctx, key, []byte("x")); !errors.Is(err, runlog.ErrEnded) {
		t.Errorf("Append after the end: %v, want ErrEnded", err)
	}
	p, err := l.Read(ctx, key, 0, 10, nil)
	if err != nil || got(p) != "1:a 2:end" || !p.Ended || p.Last != 2 {
		t.Errorf("Read of an ended run: %s %+v, %v", got(p), p, err)
	}
	key2 := runlog.NewKey()
	mustCreate(t, l, runlog.Run{Key: key2})
	if err := l.End(ctx, key2, nil); err != nil {
		t.Fatal(err)
	}
	if run, err := l.Get(ctx, key2); err != nil || !run.Ended || run.Last != 0 {
		t.Errorf("a run ended with no entry: %+v, %v", run, err)
	}
}

// find checks that Find of a thread's run, created twice, is the newer.
func (c contract) find(t *testing.T) {
	l := c.newLog(t)
	older, newer := runlog.NewKey(), runlog.NewKey()
	mustCreate(t, l, runlog.Run{Key: older, ThreadID: "t", RunID: "r"})
	time.Sleep(2 * time.Millisecond)
	mustCreate(t, l, runlog.Run{Key: newer, ThreadID: "t", RunID: "r"})
	mustCreate(t, l, runlog.Run{Key: runlog.NewKey(), ThreadID: "t", RunID: "other"})
	if run, err := l.Find(c.ctx, "t", "r"); err != nil || run.Key != newer {
		t.Errorf("Find: %+v, %v, want the newer run", run, err)
	}
}

// full checks that an Append, or a batch, past maxRunBytes is ErrFull and
// adds nothing, and that End still takes the run's last entry.
func (c contract) full(t *testing.T) {
	ctx, maxRunBytes := c.ctx, c.maxRunBytes
	l := c.newLog(t)
	key := runlog.NewKey()
	mustCreate(t, l, runlog.Run{Key: key})
	if _, err := l.Append(ctx, key, make([]byte, maxRunBytes+1)); !errors.Is(err, runlog.ErrFull) {
		t.Errorf("an Append past the bound: %v, want ErrFull", err)
	}
	if _, err := l.Append(ctx, key, make([]byte, maxRunBytes), []byte("x")); !errors.Is(err, runlog.ErrFull) {
		t.Errorf("a batch past the bound: %v, want ErrFull", err)
	}
	if run, _ := l.Get(ctx, key); run.Last != 0 {
		t.Errorf("a refused Append added %d entries", run.Last)
	}
	if err := l.End(ctx, key, []byte("the end, which a full log takes")); err != nil {
		t.Fatal(err)
	}
	if p, _ := l.Read(ctx, key, 0, 10, nil); got(p) != "1:the end, which a full log takes" {
		t.Errorf("Read: %s", got(p))
	}
}

// writer is the contract of a run written through runlog.CreateWriter:
// on a BatchLog the log appears with its first batch and ends with its
// last, and a reader of the writer's Log (this process's) and one of the
// log itself (another's) get the same entries. With a bound
// (maxRunBytes), the end of a run whose last batch is refused still ends
// it.
func (c contract) writer(t *testing.T) {
	ctx := c.ctx
	l := c.newLog(t)
	key := runlog.NewKey()
	w, err := runlog.CreateWriter(ctx, l, runlog.Run{Key: key, ThreadID: "t", RunID: "w", Owner: "alice", Input: []byte(`{}`)})
	if err != nil {
		t.Fatal(err)
	}
	if _, batches := l.(runlog.BatchLog); batches {
		if _, err := l.Get(ctx, key); !errors.Is(err, runlog.ErrNotFound) {
			t.Errorf("Get before the first batch: %v, want ErrNotFound", err)
		}
	}
	local := tailAll(ctx, w.Log(), key)
	want := c.writeEntries(t, l, w, key)
	remote := tailAll(ctx, l, key)
	if err := w.End([]byte("end")); err != nil {
		t.Fatal(err)
	}
	if err := w.End(nil); err != nil {
		t.Errorf("a second End: %v", err)
	}
	want = append(want, "301:end")
	tailedAll(t, strings.Join(want, " "), map[string]<-chan string{"the writer's Log": local, "the log": remote})
	if err := w.Add(func(b []byte) []byte { return b }); !errors.Is(err, runlog.ErrEnded) {
		t.Errorf("Add after End: %v, want ErrEnded", err)
	}
	if run, err := l.Get(ctx, key); err != nil || !run.Ended || run.Last != 301 {
		t.Errorf("Get: %+v, %v", run, err)
	}
	if c.maxRunBytes > 0 {
		c.writerEndsFull(t, l)
	}
}

// writeEntries adds entries 1 to 300 through w, the run key of l, pausing
// now and then; once the first is added, w.Created makes the run, which l
// then has. It returns the entries a Tail of the run gets, position:data.
func (c contract) writeEntries(t *testing.T, l runlog.Log, w *runlog.Writer, key string) []string {
	var want []string
	for i := 1; i <= 300; i++ {
		if err := w.Add(func(b []byte) []byte { return fmt.Append(b, i) }); err != nil {
			t.Fatal(err)
		}
		want = append(want, fmt.Sprint(i, ":", i))
		if i == 1 {
			if err := w.Created(c.ctx); err != nil {
				t.Fatal(err)
			}
			if run, err := l.Get(c.ctx, key); err != nil || run.ThreadID != "t" || run.RunID != "w" || run.Owner != "alice" {
				t.Fatalf("Get once created: %+v, %v", run, err)
			}
		}
		if i%50 == 0 {
			time.Sleep(time.Millisecond)
		}
	}
	return want
}

// writerEndsFull checks that the end of a run written to l whose last batch
// is refused (past maxRunBytes) still ends it.
func (c contract) writerEndsFull(t *testing.T, l runlog.Log) {
	ctx := c.ctx
	key := runlog.NewKey()
	w, err := runlog.CreateWriter(ctx, l, runlog.Run{Key: key})
	if err != nil {
		t.Fatal(err)
	}
	w.Add(func(b []byte) []byte { return append(b, "1"...) })
	if err := w.Created(ctx); err != nil {
		t.Fatal(err)
	}
	w.Add(func(b []byte) []byte { return append(b, make([]byte, c.maxRunBytes)...) })
	if err := w.End([]byte("end")); err != nil {
		t.Fatal(err)
	}
	// The refused batch may have held the first entry too.
	if p, err := w.Log().Read(ctx, key, 0, 10, nil); err != nil || got(p) != "1:1 2:end" && got(p) != "1:end" || !p.Ended {
		t.Errorf("Read: %s, ended %v, %v", got(p), p.Ended, err)
	}
}

// tailAll tails the run key of log from its start, in the background, and
// sends what it got when the Tail returns: the entries, position:data,
// space-separated, and its error, if any, after them.
func tailAll(ctx context.Context, log runlog.Log, key string) <-chan string {
	out := make(chan string, 1)
	go func() {
		var tailed []string
		_, err := runlog.Tail(ctx, log, key, 0, runlog.TailConfig{
			Emit: func(e runlog.Entry) error {
				tailed = append(tailed, fmt.Sprint(e.Pos, ":", string(e.Data)))
				return nil
			},
			Flush: func() error { return nil }})
		if err != nil {
			tailed = append(tailed, err.Error())
		}
		out <- strings.Join(tailed, " ")
	}()
	return out
}

// tailedAll checks that each of tails (from tailAll, by the name of what it
// tails) ends, within 10s, having got want.
func tailedAll(t *testing.T, want string, tails map[string]<-chan string) {
	for name, ch := range tails {
		select {
		case g := <-ch:
			if g != want {
				t.Errorf("%s tailed %s\nwant %s", name, g, want)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("a Tail of %s did not end with the log", name)
		}
	}
}

// watchAndTail checks that Watch signals an Append, and that a Tail, by
// small pages, of a run appended to as it goes gets every entry in order
// and returns with the run's end.
func (c contract) watchAndTail(t *testing.T) {
	ctx := c.ctx
	l := c.newLog(t)
	key := runlog.NewKey()
	mustCreate(t, l, runlog.Run{Key: key})
	signal, stop := l.Watch(key)
	defer stop()
	l.Append(ctx, key, []byte("1"))
	select {
	case <-signal:
	case <-time.After(5 * time.Second):
		t.Fatal("no signal after an Append")
	}
	var mu sync.Mutex
	var tailed []string
	done := make(chan error, 1)
	go func() {
		_, err := runlog.Tail(ctx, l, key, 0, runlog.TailConfig{PageSize: 3,
			Emit: func(e runlog.Entry) error {
				mu.Lock()
				defer mu.Unlock()
				tailed = append(tailed, fmt.Sprint(e.Pos, ":", string(e.Data)))
				return nil
			},
			Flush: func() error { return nil }})
		done <- err
	}()
	var want []string
	want = append(want, "1:1")
	for i := 2; i <= 20; i++ {
		if i%5 == 0 {
			time.Sleep(time.Millisecond)
		}
		l.Append(ctx, key, []byte(fmt.Sprint(i)))
		want = append(want, fmt.Sprint(i, ":", i))
	}
	l.End(ctx, key, []byte("end"))
	want = append(want, "21:end")
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Tail did not end with the log")
	}
	mu.Lock()
	defer mu.Unlock()
	if g, w := strings.Join(tailed, " "), strings.Join(want, " "); g != w {
		t.Errorf("tailed %s\nwant   %s", g, w)
	}
}

func mustCreate(t *testing.T, l runlog.Log, run runlog.Run) {
	t.Helper()
	if err := l.Create(context.Background(), run); err != nil {
		t.Fatal(err)
	}
}

// got is a page's entries, position:data, space-separated.
func got(p runlog.Page) string {
	s := make([]string, len(p.Entries))
	for i, e := range p.Entries {
		s[i] = fmt.Sprint(e.Pos, ":", string(e.Data))
	}
	return strings.Join(s, " ")
}

// Replica is a handle on a log shared by processes (a database), which
// Close lets go as a process that stops would: it renews nothing after.
type Replica interface {
	runlog.Log
	runlog.Liveness
	runlog.Readers
	Close() error
}

// Liveness runs the contracts of runlog.Liveness and runlog.Readers
// against the handles open makes, all on one database: a reader's mark on
// one handle is seen on another until it runs out; a run whose writer goes on is never found
// lost, however long it waits between appends; one whose writer is closed
// is, once its mark lapses, and of the readers that race to end it on
// several handles exactly one does: the log has the run's entries, then
// one final entry, and Tail hands them over and returns.
func Liveness(t *testing.T, open func(t *testing.T) Replica) {
	writer, reader, other := open(t), open(t), open(t)
	c := liveness{ctx: context.Background(), open: open, writer: writer, reader: reader, other: other, lapse: reader.Lapse()}
	alive := c.writerGoesOn(t)
	c.readerMarks(t, alive)
	lost := c.writerStops(t)
	c.endLostOnce(t, lost)
	c.tailLost(t, lost)
	c.tailEndsLost(t)
}

// liveness is what Liveness's steps share: a context, open, three handles
// on one database (writer, reader and other) and lapse, the reader's. The
// steps run in order, one after the other on the test's goroutine, and
// count on what came before: readerMarks marks the run writerGoesOn made;
// writerStops closes writer, for good, and returns the run it lost, which
// endLostOnce ends and tailLost then reads; tailEndsLost opens a writer of
// its own.
type liveness struct {
	ctx                   context.Context
	open                  func(t *testing.T) Replica
	writer, reader, other Replica
	lapse                 time.Duration
}

// writerGoesOn checks that a run whose writer goes on (renewing its mark
// with no append) is neither lapsed nor ended after two lapses, and that
// EndLost leaves it be. It returns the run.
func (c liveness) writerGoesOn(t *testing.T) string {
	ctx := c.ctx
	alive := runlog.NewKey()
	mustCreate(t, c.writer, runlog.Run{Key: alive, ThreadID: "t", RunID: "alive"})
	c.writer.Append(ctx, alive, []byte("a"))
	time.Sleep(2 * c.lapse) // the writer renews its mark with no append
	if p, err := c.reader.Read(ctx, alive, 0, 10, nil); err != nil || p.Lapsed || p.Ended {
		t.Fatalf("a run whose writer goes on: %+v, %v", p, err)
	}
	if ended, err := c.reader.EndLost(ctx, alive, []byte("lost")); err != nil || ended {
		t.Fatalf("EndLost of a run whose writer goes on: %v, %v", ended, err)
	}
	return alive
}

// readerMarks checks that a reader's mark on one handle (on the run alive)
// is seen on another, until it runs out, and that HasReader of an unknown
// run is ErrNotFound.
func (c liveness) readerMarks(t *testing.T, alive string) {
	ctx, writer, lapse := c.ctx, c.writer, c.lapse
	if yes, err := writer.HasReader(ctx, alive); err != nil || yes {
		t.Fatalf("HasReader with no reader: %v, %v", yes, err)
	}
	if err := c.reader.MarkReader(ctx, alive, lapse); err != nil {
		t.Fatal(err)
	}
	if yes, err := writer.HasReader(ctx, alive); err != nil || !yes {
		t.Fatalf("HasReader after a mark: %v, %v", yes, err)
	}
	time.Sleep(lapse + lapse/2)
	if yes, err := writer.HasReader(ctx, alive); err != nil || yes {
		t.Fatalf("HasReader after the mark ran out: %v, %v", yes, err)
	}
	if _, err := writer.HasReader(ctx, "nope"); !errors.Is(err, runlog.ErrNotFound) {
		t.Errorf("HasReader of an unknown run: %v", err)
	}
}

// writerStops makes a run of two entries, closes its writer (c.writer),
// and checks that the reader finds it lapsed within three lapses (and 5s).
// It returns the run.
func (c liveness) writerStops(t *testing.T) string {
	ctx, lapse := c.ctx, c.lapse
	lost := runlog.NewKey()
	mustCreate(t, c.writer, runlog.Run{Key: lost, ThreadID: "t", RunID: "lost"})
	c.writer.Append(ctx, lost, []byte("1"), []byte("2"))
	if err := c.writer.Close(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(3*lapse + 5*time.Second)
	for {
		p, err := c.reader.Read(ctx, lost, 0, 10, nil)
		if err != nil {
			t.Fatal(err)
		}
		if p.Lapsed {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("a run whose writer stopped %s ago is not found lost: %+v", 3*lapse, p)
		}
		time.Sleep(lapse / 4)
	}
	return lost
}

// endLostOnce has readers on two handles race to end the run lost with
// EndLost: each is told it is ended, and the log has the run's two
// entries, then exactly one final entry, one of theirs.
func (c liveness) endLostOnce(t *testing.T, lost string) {
	ctx := c.ctx
	var wg sync.WaitGroup
	for i, l := range []Replica{c.reader, c.other, c.reader, c.other} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if ended, err := l.EndLost(ctx, lost, []byte(fmt.Sprint("lost by ", i))); err != nil || !ended {
				t.Errorf("EndLost: %v, %v", ended, err)
			}
		}()
	}
	wg.Wait()
	p, err := c.other.Read(ctx, lost, 0, 10, nil)
	if err != nil || !p.Ended || p.Lapsed || len(p.Entries) != 3 || got(runlog.Page{Entries: p.Entries[:2]}) != "1:1 2:2" ||
		!strings.HasPrefix(string(p.Entries[2].Data), "lost by ") {
		t.Fatalf("the lost run's log: %s %+v, %v", got(p), p, err)
	}
}

// tailLost checks that a Tail of the run lost, ended by endLostOnce, hands
// over its entries after the first, ends nothing more, and returns.
func (c liveness) tailLost(t *testing.T, lost string) {
	var tailed []string
	last, err := runlog.Tail(c.ctx, c.reader, lost, 1, runlog.TailConfig{
		Emit:  func(e runlog.Entry) error { tailed = append(tailed, string(e.Data)); return nil },
		Flush: func() error { return nil },
		Lost:  func() []byte { return []byte("never") },
	})
	if err != nil || last != 3 || len(tailed) != 2 || tailed[0] != "2" {
		t.Errorf("Tail of a lost run: %v %d %v", tailed, last, err)
	}
}

// tailEndsLost checks that Tail itself ends a run found lost while it
// waits, with what cfg.Lost makes, and returns.
func (c liveness) tailEndsLost(t *testing.T) {
	ctx, lapse := c.ctx, c.lapse
	writer2 := c.open(t)
	lost2 := runlog.NewKey()
	mustCreate(t, writer2, runlog.Run{Key: lost2})
	writer2.Append(ctx, lost2, []byte("x"))
	writer2.Close()
	var tailed []string
	done := make(chan error, 1)
	go func() {
		_, err := runlog.Tail(ctx, c.other, lost2, 0, runlog.TailConfig{
			Emit:  func(e runlog.Entry) error { tailed = append(tailed, string(e.Data)); return nil },
			Flush: func() error { return nil },
			Lost:  func() []byte { return []byte("lost") },
		})
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil || strings.Join(tailed, " ") != "x lost" {
			t.Errorf("Tail of a run lost while it waited: %v, %v", tailed, err)
		}
	case <-time.After(3*lapse + 10*time.Second):
		t.Fatal("Tail of a run whose writer stopped did not end")
	}
}

// Expiry checks that a shared log drops, past its retention, the logs of
// ended runs and those of runs lost with their writer that no reader
// ended, and keeps a run in progress. open's handles must have a retention
// and a lapse of at most 200ms.
func Expiry(t *testing.T, open func(t *testing.T) Replica) {
	ctx := context.Background()
	writer, dead := open(t), open(t)
	ended, lost, going := runlog.NewKey(), runlog.NewKey(), runlog.NewKey()
	mustCreate(t, writer, runlog.Run{Key: ended})
	if err := writer.End(ctx, ended, []byte("end")); err != nil {
		t.Fatal(err)
	}
	mustCreate(t, writer, runlog.Run{Key: going})
	mustCreate(t, dead, runlog.Run{Key: lost})
	dead.Append(ctx, lost, []byte("x"))
	dead.Close()
	time.Sleep(time.Second) // past the retention, and the lapse and the retention
	// A handle's first Create sweeps.
	mustCreate(t, open(t), runlog.Run{Key: runlog.NewKey()})
	for _, key := range []string{ended, lost} {
		if _, err := writer.Get(ctx, key); !errors.Is(err, runlog.ErrNotFound) {
			t.Errorf("a run past its retention: %v, want ErrNotFound", err)
		}
		if p, err := writer.Read(ctx, key, 0, 10, nil); !errors.Is(err, runlog.ErrNotFound) {
			t.Errorf("reading a run past its retention: %+v, %v", p, err)
		}
	}
	if _, err := writer.Get(ctx, going); err != nil {
		t.Errorf("a run in progress: %v", err)
	}
}
