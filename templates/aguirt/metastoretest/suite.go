// Package metastoretest is the contract every agui.MetaStore keeps, run
// against the memory, SQLite and PostgreSQL stores.
package metastoretest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"

	agui "github.com/agui-gen/agui-gen/gen/agui"
)

func event(id string, ev *agui.MetaEvent) *agui.MetaEvent { ev.ID = &id; return ev }

func seqs(ms []agui.StoredMeta) []int64 {
	var out []int64
	for _, m := range ms {
		out = append(out, m.Seq)
	}
	return out
}

// inParallel runs work(0), …, work(n-1) at once and returns their errors.
func inParallel(n int, work func(w int) error) error {
	var wg sync.WaitGroup
	errs := make([]error, n)
	for w := range n {
		wg.Go(func() { errs[w] = work(w) })
	}
	wg.Wait()
	return errors.Join(errs...)
}

// all reads every event q selects, a page of q.Limit at a time.
func all(ctx context.Context, s agui.MetaStore, q agui.MetaQuery) ([]agui.StoredMeta, error) {
	var out []agui.StoredMeta
	for {
		page, err := s.Meta(ctx, q)
		if err != nil || len(page) == 0 {
			return out, err
		}
		out = append(out, page...)
		q.After = page[len(page)-1].Seq
	}
}

// Run checks a store; open returns a store on fresh storage, and reopen,
// when not nil, the same storage anew (as after a restart).
func Run(t *testing.T, open func(t *testing.T) agui.MetaStore, reopen func(t *testing.T) agui.MetaStore) {
	c := contract{ctx: context.Background(), store: open(t), reopen: reopen}
	first, err := c.store.PutMeta(c.ctx, "t1", "r1", []*agui.MetaEvent{
		event("a", agui.NewThumbsUpMeta("m1")), event("b", agui.NewNoteMeta("n")), event("c", agui.NewRatingMeta("m2", 3))})
	if err != nil {
		t.Fatal(err)
	}
	if s := seqs(first); len(s) != 3 || s[0] >= s[1] || s[1] >= s[2] || first[0].RunID != "r1" || *first[2].Event.ID != "c" {
		t.Fatalf("stored %+v", first)
	}
	c.first = first

	type subtest struct {
		name string
		run  func(contract, *testing.T)
	}
	subtests := []subtest{
		{"the same event again is stored once", contract.resendStoredOnce},
		{"an id twice in a new batch is stored once, and must say the same", contract.idTwiceInABatch},
		{"a forged id fails the batch whole", contract.forgedIDFailsTheBatch},
		{"queries", contract.queries},
		{"concurrent writers lose nothing, and the cursor sees all", contract.concurrentWriters},
		{"a reader paging while writers write misses nothing", contract.readerPagingDuringWrites},
		{"concurrent resends of an id store it once", contract.concurrentResends},
	}
	if reopen != nil {
		subtests = append(subtests,
			subtest{"two stores on the same storage write at once", contract.twoStoresAtOnce},
			subtest{"what was acknowledged survives a restart", contract.survivesARestart})
	}
	for _, sub := range subtests {
		t.Run(sub.name, func(t *testing.T) { sub.run(c, t) })
	}
}

// contract is what Run's subtests share: a context, the one store they all
// write to, reopen (nil when the storage cannot be reopened), and first, the
// three events Run stores on thread t1 up front. The subtests run in order
// on that one store and some count on what came before: the resend and the
// forged batch expect exactly first on t1, and the restart reads it back.
// Each writes to threads of its own otherwise.
type contract struct {
	ctx    context.Context
	store  agui.MetaStore
	reopen func(t *testing.T) agui.MetaStore
	first  []agui.StoredMeta
}

// resendStoredOnce resends the first event of first, twice in one batch:
// both are acknowledged with its seq and run, and t1 still holds three
// events.
func (c contract) resendStoredOnce(t *testing.T) {
	ctx, s, first := c.ctx, c.store, c.first
	again, err := s.PutMeta(ctx, "t1", "", []*agui.MetaEvent{event("a", agui.NewThumbsUpMeta("m1")), event("a", agui.NewThumbsUpMeta("m1"))})
	if err != nil || again[0].Seq != first[0].Seq || again[1].Seq != first[0].Seq || again[0].RunID != "r1" {
		t.Fatalf("resent: %+v %v", again, err)
	}
	all, _ := s.Meta(ctx, agui.MetaQuery{ThreadID: "t1"})
	if len(all) != 3 {
		t.Fatalf("%d events after a resend", len(all))
	}
}

// idTwiceInABatch stores an id that a new batch holds twice once, in the
// place of its first; an id that stands for two different events in one
// batch is a conflict, and nothing of that batch is stored.
func (c contract) idTwiceInABatch(t *testing.T) {
	ctx, s := c.ctx, c.store
	twice, err := s.PutMeta(ctx, "dup", "", []*agui.MetaEvent{event("x", agui.NewShareMeta()), event("y", agui.NewCopyMeta("m")), event("x", agui.NewShareMeta())})
	if err != nil || twice[0].Seq != twice[2].Seq || twice[0].Seq >= twice[1].Seq {
		t.Fatalf("%+v %v", twice, err)
	}
	_, err = s.PutMeta(ctx, "dup-forged", "", []*agui.MetaEvent{event("x", agui.NewShareMeta()), event("x", agui.NewCopyMeta("m"))})
	if !errors.Is(err, agui.ErrMetaConflict) {
		t.Fatalf("one id, two events: %v", err)
	}
	if all, _ := s.Meta(ctx, agui.MetaQuery{ThreadID: "dup-forged"}); len(all) != 0 {
		t.Fatalf("the refused batch left %d events", len(all))
	}
}

// forgedIDFailsTheBatch sends a batch of a new event and a different event
// under first's id "a" (a forgery): the batch is a conflict as a whole, and
// its new event is not stored either.
func (c contract) forgedIDFailsTheBatch(t *testing.T) {
	ctx, s := c.ctx, c.store
	_, err := s.PutMeta(ctx, "t1", "", []*agui.MetaEvent{event("d", agui.NewShareMeta()), event("a", agui.NewThumbsDownMeta("m1"))})
	if !errors.Is(err, agui.ErrMetaConflict) {
		t.Fatalf("a forged id: %v", err)
	}
	if all, _ := s.Meta(ctx, agui.MetaQuery{ThreadID: "t1"}); len(all) != 3 {
		t.Fatalf("the refused batch left %d events", len(all))
	}
}

// queries selects first's events by thread, META type, message, run, a
// cursor and a limit; an id is per thread, so "a" on t2 is an event of its
// own.
func (c contract) queries(t *testing.T) {
	ctx, s, first := c.ctx, c.store, c.first
	if _, err := s.PutMeta(ctx, "t2", "", []*agui.MetaEvent{event("a", agui.NewThumbsDownMeta("m9"))}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		q    agui.MetaQuery
		want []int64
	}{
		{agui.MetaQuery{ThreadID: "t1"}, seqs(first)},
		{agui.MetaQuery{ThreadID: "t1", MetaType: "note"}, seqs(first[1:2])},
		{agui.MetaQuery{ThreadID: "t1", MessageID: "m2"}, seqs(first[2:])},
		{agui.MetaQuery{ThreadID: "t1", RunID: "r1", After: first[0].Seq}, seqs(first[1:])},
		{agui.MetaQuery{ThreadID: "t1", Limit: 2}, seqs(first[:2])},
		{agui.MetaQuery{ThreadID: "nobody"}, nil},
	} {
		got, err := s.Meta(ctx, tc.q)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(seqs(got), tc.want) {
			t.Errorf("%+v: %v, want %v", tc.q, seqs(got), tc.want)
		}
	}
	t2, _ := s.Meta(ctx, agui.MetaQuery{ThreadID: "t2"})
	if len(t2) != 1 || t2[0].Event.MessageID() != "m9" {
		t.Errorf("thread t2: %+v", t2)
	}
}

// concurrentWriters has four writers store 200 events on t3 at once, and
// pages through them afterwards, seven at a time: every one is there.
func (c contract) concurrentWriters(t *testing.T) {
	ctx, s := c.ctx, c.store
	err := inParallel(4, func(w int) error {
		for i := range 25 {
			_, err := s.PutMeta(ctx, "t3", "", []*agui.MetaEvent{
				event(fmt.Sprintf("w%d-%d", w, i), agui.NewAnalyticsMeta("e")), event(fmt.Sprintf("w%d-%d-b", w, i), agui.NewShareMeta())})
			if err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	paged, err := all(ctx, s, agui.MetaQuery{ThreadID: "t3", Limit: 7})
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, m := range paged {
		seen[*m.Event.ID] = true
	}
	if len(seen) != 200 {
		t.Errorf("paged through %d of 200 events", len(seen))
	}
}

// readerPagingDuringWrites pages through t4 by cursor while four writers
// store on it: a seq is never handed out below one a reader has already
// passed, so the reader sees every event once the writers are done.
func (c contract) readerPagingDuringWrites(t *testing.T) {
	ctx, s := c.ctx, c.store
	const writers, each = 4, 60
	var writeErr error
	writing := make(chan struct{})
	go func() {
		defer close(writing)
		writeErr = inParallel(writers, func(w int) error {
			for i := range each {
				if _, err := s.PutMeta(ctx, "t4", "", []*agui.MetaEvent{event(fmt.Sprintf("w%d-%d", w, i), agui.NewShareMeta())}); err != nil {
					return err
				}
			}
			return nil
		})
	}()
	seen := map[string]bool{}
	q := agui.MetaQuery{ThreadID: "t4", Limit: 5}
	for done := false; ; {
		select {
		case <-writing:
			done = true
		default:
		}
		page, err := s.Meta(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range page {
			seen[*m.Event.ID] = true
			q.After = m.Seq
		}
		if done && len(page) == 0 {
			break
		}
	}
	if writeErr != nil {
		t.Fatal(writeErr)
	}
	if len(seen) != writers*each {
		t.Errorf("a reader paging during the writes saw %d of %d events", len(seen), writers*each)
	}
}

// concurrentResends sends five ids forty times at once on t5: each is
// stored once, and every send of it is acknowledged with its one seq.
func (c contract) concurrentResends(t *testing.T) {
	ctx, s := c.ctx, c.store
	acked := make([]int64, 40)
	err := inParallel(40, func(i int) error {
		stored, err := s.PutMeta(ctx, "t5", "", []*agui.MetaEvent{event(fmt.Sprint("id", i%5), agui.NewBookmarkMeta("m"))})
		if err == nil {
			acked[i] = stored[0].Seq
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	distinct := map[int64]bool{}
	for _, seq := range acked {
		distinct[seq] = true
	}
	all, _ := s.Meta(ctx, agui.MetaQuery{ThreadID: "t5"})
	if len(distinct) != 5 || len(all) != 5 {
		t.Errorf("40 sends of 5 ids: %d seqs acknowledged, %d events stored", len(distinct), len(all))
	}
}

// twoStoresAtOnce has the store and a second one on the same storage (two
// processes, or replicas) each write 100 events on t6 at once: all 200 are
// stored. Run only when the storage can be reopened.
func (c contract) twoStoresAtOnce(t *testing.T) {
	ctx := c.ctx
	other := c.reopen(t)
	stores := []agui.MetaStore{c.store, other}
	err := inParallel(len(stores), func(w int) error {
		for i := range 100 {
			if _, err := stores[w].PutMeta(ctx, "t6", "", []*agui.MetaEvent{event(fmt.Sprintf("s%d-%d", w, i), agui.NewCopyMeta("m"))}); err != nil {
				return fmt.Errorf("store %d, put %d: %w", w, i, err)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	q := agui.MetaQuery{ThreadID: "t6", Limit: 1000}
	if all, _ := other.Meta(ctx, q); len(all) != 200 {
		t.Errorf("%d of 200 events stored", len(all))
	}
}

// survivesARestart reopens the storage and reads first back, seqs and
// payloads as they were acknowledged. Run only when the storage can be
// reopened.
func (c contract) survivesARestart(t *testing.T) {
	again := c.reopen(t)
	all, err := again.Meta(c.ctx, agui.MetaQuery{ThreadID: "t1"})
	if err != nil || !slices.Equal(seqs(all), seqs(c.first)) || all[1].Event.Payload.(*agui.NotePayload).Text != "n" {
		t.Fatalf("after a restart: %+v %v", all, err)
	}
}
