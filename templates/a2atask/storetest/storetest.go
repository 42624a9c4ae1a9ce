// Package storetest checks that an a2atask.Store keeps the contract the
// task runtime relies on. Every store's tests run it.
package storetest

import (
	"context"
	"errors"
	"strconv"
	"testing"
	"time"

	"github.com/agui-gen/agui-gen/gen/a2a"
	"github.com/agui-gen/agui-gen/gen/a2a/a2atask"
	"github.com/agui-gen/agui-gen/runtime/postgres/pgtest"
)

func task(id, ctxID string, state a2a.TaskState, at time.Time) *a2a.Task {
	return &a2a.Task{ID: id, ContextID: ctxID, Status: &a2a.TaskStatus{State: state, Timestamp: &at}}
}

func statusEvent(t *a2a.Task) *a2a.StreamResponse {
	return &a2a.StreamResponse{Payload: &a2a.StreamResponseStatusUpdate{StatusUpdate: &a2a.TaskStatusUpdateEvent{
		TaskID: t.ID, ContextID: t.ContextID, Status: t.Status}}}
}

// Run runs the contract tests on stores that open returns, one per test.
// A store that cannot be had (open skips: no server) skips the suite as a
// whole, with open's reason, so that it reports SKIP, not a PASS of
// skipped tests.
func Run(t *testing.T, open func(t *testing.T) a2atask.Store) {
	c := contract{open: open, ctx: context.Background(), base: time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)}
	open(t) // skips here when there is no store to be had

	for _, sub := range []struct {
		name string
		run  func(contract, *testing.T)
	}{
		{"create, update, events", contract.createUpdateEvents},
		{"append", contract.appendEvents},
		{"peek", contract.peek},
		{"watch", contract.watch},
		{"leases", contract.leases},
		{"push configs", contract.pushConfigs},
		{"list", contract.list},
	} {
		t.Run(sub.name, func(t *testing.T) { sub.run(c, t) })
	}
}

// contract is what Run's subtests share: the stores' opener, and a context
// and a time to build tasks at.
type contract struct {
	open func(t *testing.T) a2atask.Store
	ctx  context.Context
	base time.Time
}

// createUpdateEvents creates a task, updates it by generation and reads it
// and its events back; conflicts and missing tasks are their errors, and a
// returned record is the caller's.
func (c contract) createUpdateEvents(t *testing.T) {
	ctx, base, open := c.ctx, c.base, c.open
	s := open(t)
	tk := task("t1", "c1", a2a.TaskStateSubmitted, base)
	if err := s.Create(ctx, "alice", tk, &a2a.StreamResponse{Payload: &a2a.StreamResponseTask{Task: tk}}); err != nil {
		t.Fatal(err)
	}
	if err := s.Create(ctx, "alice", tk, statusEvent(tk)); !errors.Is(err, a2atask.ErrConflict) {
		t.Fatalf("second create: %v", err)
	}
	rec, err := s.Get(ctx, "t1")
	if err != nil || rec.Generation != 1 || rec.Owner != "alice" || rec.Task.Status.State != a2a.TaskStateSubmitted {
		t.Fatalf("get: %v %+v", err, rec)
	}
	rec.Task.ContextID = "changed by the caller"
	if again, _ := s.Get(ctx, "t1"); again.Task.ContextID != "c1" {
		t.Fatal("a returned record shares memory with the store")
	}
	working := task("t1", "c1", a2a.TaskStateWorking, base.Add(time.Second))
	gen, err := s.Update(ctx, working, 1, statusEvent(working))
	if err != nil || gen != 2 {
		t.Fatalf("update: %d %v", gen, err)
	}
	if _, err := s.Update(ctx, working, 1, statusEvent(working)); !errors.Is(err, a2atask.ErrConflict) {
		t.Fatalf("stale update: %v", err)
	}
	if _, err := s.Update(ctx, task("nope", "c", a2a.TaskStateWorking, base), 1, statusEvent(working)); !errors.Is(err, a2atask.ErrNotFound) {
		t.Fatalf("update of a missing task: %v", err)
	}
	if _, err := s.Get(ctx, "nope"); !errors.Is(err, a2atask.ErrNotFound) {
		t.Fatalf("get of a missing task: %v", err)
	}
	if _, err := s.Events(ctx, "nope", 0); !errors.Is(err, a2atask.ErrNotFound) {
		t.Fatalf("events of a missing task: %v", err)
	}
	events, err := s.Events(ctx, "t1", 0)
	if err != nil || len(events) != 2 || events[0].Generation != 1 || events[1].Generation != 2 {
		t.Fatalf("events: %v %+v", err, events)
	}
	if _, ok := events[0].Payload.Payload.(*a2a.StreamResponseTask); !ok {
		t.Fatal("the first event is not the task")
	}
	if after, _ := s.Events(ctx, "t1", 1); len(after) != 1 || after[0].Generation != 2 {
		t.Fatalf("events after 1: %+v", after)
	}
}

// appendEvents takes changes as events (a2atask.Appender), with or without
// the task they make.
func (c contract) appendEvents(t *testing.T) {
	ctx, base, open := c.ctx, c.base, c.open
	s := open(t)
	appender, ok := s.(a2atask.Appender)
	if !ok {
		t.Skip("the store takes changes as whole tasks only")
	}
	tk := task("t1", "c1", a2a.TaskStateWorking, base)
	if err := s.Create(ctx, "alice", tk, &a2a.StreamResponse{Payload: &a2a.StreamResponseTask{Task: tk}}); err != nil {
		t.Fatal(err)
	}
	chunk := func(text string, appendParts bool) *a2a.StreamResponse {
		return &a2a.StreamResponse{Payload: &a2a.StreamResponseArtifactUpdate{ArtifactUpdate: &a2a.TaskArtifactUpdateEvent{
			TaskID: "t1", ContextID: "c1", Append: appendParts,
			Artifact: &a2a.Artifact{ArtifactID: "a", Parts: []*a2a.Part{{Content: &a2a.PartText{Text: text}}}}}}}
	}
	t.Run("chunks, a status, conflicts", func(t *testing.T) {
		want := &a2a.Task{ID: "t1", ContextID: "c1", Status: tk.Status}
		for i, ev := range []*a2a.StreamResponse{chunk("one", false), chunk("two", true)} {
			// The first without the task, which the store then reads back
			// for a snapshot; the rest with it.
			a2atask.ApplyEvent(want, ev)
			var with *a2a.Task
			if i > 0 {
				with = want
			}
			gen, err := appender.Append(ctx, "t1", int64(i+1), ev, with)
			if err != nil || gen != int64(i+2) {
				t.Fatalf("append %d: %d %v", i, gen, err)
			}
		}
		done := task("t1", "c1", a2a.TaskStateCompleted, base.Add(time.Second))
		done.Status.Message = &a2a.Message{MessageID: "m1", Role: a2a.RoleAgent, Parts: []*a2a.Part{{Content: &a2a.PartText{Text: "done"}}}}
		if _, err := appender.Append(ctx, "t1", 3, statusEvent(done), nil); err != nil {
			t.Fatal(err)
		}
		a2atask.ApplyEvent(want, statusEvent(done))
		if _, err := appender.Append(ctx, "t1", 3, statusEvent(done), nil); !errors.Is(err, a2atask.ErrConflict) {
			t.Fatalf("stale append: %v", err)
		}
		if _, err := appender.Append(ctx, "nope", 1, statusEvent(done), nil); !errors.Is(err, a2atask.ErrNotFound) {
			t.Fatalf("append to a missing task: %v", err)
		}
		rec, err := s.Get(ctx, "t1")
		if err != nil || rec.Generation != 4 {
			t.Fatalf("get: %v %+v", err, rec)
		}
		if got, w := rec.Task.AppendJSON(nil), want.AppendJSON(nil); string(got) != string(w) {
			t.Errorf("the appended task is\n%s\nwant\n%s", got, w)
		}
		if events, err := s.Events(ctx, "t1", 1); err != nil || len(events) != 3 || events[2].Generation != 4 {
			t.Fatalf("events: %v %+v", err, events)
		}
	})
	t.Run("a long task across snapshots", func(t *testing.T) {
		// A long task, read between snapshots and after them, by Get and
		// List alike.
		long := task("t2", "c2", a2a.TaskStateWorking, base)
		if err := s.Create(ctx, "alice", long, &a2a.StreamResponse{Payload: &a2a.StreamResponseTask{Task: long}}); err != nil {
			t.Fatal(err)
		}
		want := &a2a.Task{ID: "t2", ContextID: "c2", Status: long.Status}
		for i := range 3*a2atask.SnapshotEvery + 7 {
			ev := chunk(strconv.Itoa(i), i > 0)
			ev.Payload.(*a2a.StreamResponseArtifactUpdate).ArtifactUpdate.TaskID = "t2"
			a2atask.ApplyEvent(want, ev)
			var with *a2a.Task
			if i%2 == 0 {
				with = want // every other one with the task, the rest read back
			}
			if _, err := appender.Append(ctx, "t2", int64(i+1), ev, with); err != nil {
				t.Fatal(err)
			}
			if i%50 == 0 || i == 3*a2atask.SnapshotEvery+6 {
				rec, err := s.Get(ctx, "t2")
				if err != nil || rec.Generation != int64(i+2) {
					t.Fatalf("get after %d: %v %+v", i, err, rec)
				}
				if got, w := rec.Task.AppendJSON(nil), want.AppendJSON(nil); string(got) != string(w) {
					t.Fatalf("after %d appends the task is\n%s\nwant\n%s", i+1, got, w)
				}
			}
		}
		page, _, err := s.List(ctx, a2atask.Query{Owner: "alice", ContextID: "c2", Limit: 10})
		if err != nil || len(page) != 1 || string(page[0].Task.AppendJSON(nil)) != string(want.AppendJSON(nil)) {
			t.Fatalf("list: %v %d", err, len(page))
		}
	})
}

// peek tells a task's generation and state without reading it
// (a2atask.Peeker).
func (c contract) peek(t *testing.T) {
	ctx, base, open := c.ctx, c.base, c.open
	s := open(t)
	peeker, ok := s.(a2atask.Peeker)
	if !ok {
		t.Skip("the store tells a task's generation and state only by reading it")
	}
	tk := task("t1", "c1", a2a.TaskStateSubmitted, base)
	if err := s.Create(ctx, "alice", tk, &a2a.StreamResponse{Payload: &a2a.StreamResponseTask{Task: tk}}); err != nil {
		t.Fatal(err)
	}
	working := task("t1", "c1", a2a.TaskStateWorking, base.Add(time.Second))
	if _, err := s.Update(ctx, working, 1, statusEvent(working)); err != nil {
		t.Fatal(err)
	}
	if gen, state, err := peeker.Peek(ctx, "t1"); err != nil || gen != 2 || state != a2a.TaskStateWorking {
		t.Errorf("peek: %d %v %v", gen, state, err)
	}
	if _, _, err := peeker.Peek(ctx, "nope"); !errors.Is(err, a2atask.ErrNotFound) {
		t.Errorf("peek of a missing task: %v", err)
	}
}

// watch signals a write to a watched task.
func (c contract) watch(t *testing.T) {
	ctx, base, open := c.ctx, c.base, c.open
	s := open(t)
	tk := task("w", "c", a2a.TaskStateSubmitted, base)
	s.Create(ctx, "", tk, statusEvent(tk))
	signal, stop := s.Watch("w")
	defer stop()
	go func() {
		time.Sleep(10 * time.Millisecond)
		next := task("w", "c", a2a.TaskStateWorking, base)
		s.Update(ctx, next, 1, statusEvent(next))
	}()
	deadline := time.After(5 * time.Second)
	for {
		select {
		case gen := <-signal:
			if gen < 0 || gen > 2 {
				t.Fatalf("signalled generation %d, want one written (or 0, unknown)", gen)
			}
			if rec, _ := s.Get(ctx, "w"); rec.Generation == 2 {
				return
			}
		case <-deadline:
			t.Fatal("no signal after a write")
		}
	}
}

// leases reports as orphans the unfinished tasks whose lease has run out, or
// that have none.
func (c contract) leases(t *testing.T) {
	ctx, base, open := c.ctx, c.base, c.open
	s := open(t)
	for _, tk := range []*a2a.Task{task("running", "c", a2a.TaskStateWorking, base), task("done", "c", a2a.TaskStateCompleted, base),
		task("waiting", "c", a2a.TaskStateInputRequired, base), task("leased", "c", a2a.TaskStateSubmitted, base)} {
		if err := s.Create(ctx, "", tk, statusEvent(tk)); err != nil {
			t.Fatal(err)
		}
	}
	now := time.Now()
	if err := s.Lease(ctx, "leased", now.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	if err := s.Lease(ctx, "nope", now); !errors.Is(err, a2atask.ErrNotFound) {
		t.Fatalf("lease of a missing task: %v", err)
	}
	ids, err := s.Orphans(ctx, now, 10)
	if err != nil || join(ids) != "running" {
		t.Fatalf("orphans now: %v %v", ids, err)
	}
	if ids, _ := s.Orphans(ctx, now.Add(2*time.Minute), 10); join(ids) != "leased running" {
		t.Fatalf("orphans later: %v", ids)
	}
	// A task created with its lease is no orphan until the lease ends.
	if lc, ok := s.(a2atask.LeasedCreator); ok {
		tk := task("born-leased", "c", a2a.TaskStateSubmitted, base)
		if err := lc.CreateLeased(ctx, "", tk, statusEvent(tk), now.Add(time.Minute)); err != nil {
			t.Fatal(err)
		}
		if ids, _ := s.Orphans(ctx, now, 10); join(ids) != "running" {
			t.Errorf("orphans now, with a task created leased: %v", ids)
		}
		if ids, _ := s.Orphans(ctx, now.Add(2*time.Minute), 10); join(ids) != "born-leased leased running" {
			t.Errorf("orphans later, with a task created leased: %v", ids)
		}
	}
}

// pushConfigs keeps push notification configs per task, replaced by ID,
// deleted idempotently.
func (c contract) pushConfigs(t *testing.T) {
	ctx, open := c.ctx, c.open
	s, ok := open(t).(a2atask.PushConfigs)
	if !ok {
		t.Skip("the store keeps no push notification configs")
	}
	for _, id := range []string{"b", "a"} {
		if err := s.SavePushConfig(ctx, &a2a.TaskPushNotificationConfig{TaskID: "t", ID: id, URL: "https://hook.example/" + id}); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.SavePushConfig(ctx, &a2a.TaskPushNotificationConfig{TaskID: "t", ID: "b", URL: "https://hook.example/new", Token: "x"}); err != nil {
		t.Fatal(err)
	}
	cfgs, err := s.PushConfigs(ctx, "t")
	if err != nil || len(cfgs) != 2 || cfgs[0].ID != "a" || cfgs[1].URL != "https://hook.example/new" || cfgs[1].Token != "x" {
		t.Fatalf("configs: %v %v", err, cfgs)
	}
	if found, err := s.DeletePushConfig(ctx, "t", "a"); err != nil || !found {
		t.Fatalf("delete: %v %v", found, err)
	}
	// Deleting what is gone is no error: the runtime's delete is
	// idempotent (A2A §3.1.10).
	if found, err := s.DeletePushConfig(ctx, "t", "a"); found || err != nil {
		t.Fatalf("deleted twice: %v %v", found, err)
	}
	if found, err := s.DeletePushConfig(ctx, "no-configs", "a"); found || err != nil {
		t.Fatalf("delete on a task without configs: %v %v", found, err)
	}
	if cfgs, _ := s.PushConfigs(ctx, "other"); len(cfgs) != 0 {
		t.Fatal("another task's configs")
	}
}

// list lists an owner's tasks newest first, in pages, filtered by state,
// context and time.
func (c contract) list(t *testing.T) {
	ctx, base, open := c.ctx, c.base, c.open
	s := open(t)
	for i := range 7 {
		owner, state := "alice", a2a.TaskStateCompleted
		if i == 3 {
			owner = "bob"
		}
		if i%2 == 0 {
			state = a2a.TaskStateWorking
		}
		tk := task("l"+strconv.Itoa(i), "ctx"+strconv.Itoa(i%3), state, base.Add(time.Duration(i%5)*time.Minute))
		if err := s.Create(ctx, owner, tk, statusEvent(tk)); err != nil {
			t.Fatal(err)
		}
	}
	var ids []string
	var after *a2atask.Cursor
	for {
		page, total, err := s.List(ctx, a2atask.Query{Owner: "alice", Limit: 4, After: after})
		if err != nil || total != 6 {
			t.Fatalf("list: %v, total %d", err, total)
		}
		for _, r := range page {
			ids = append(ids, r.Task.ID)
		}
		if len(page) < 4 {
			break
		}
		last := page[len(page)-1].Task
		after = &a2atask.Cursor{Updated: *last.Status.Timestamp, ID: last.ID}
	}
	// Newest status first; l6 and l1 share a time, and the larger ID comes first.
	want := "l4 l2 l6 l1 l5 l0"
	if got := join(ids); got != want {
		t.Fatalf("order %s, want %s", got, want)
	}
	page, total, _ := s.List(ctx, a2atask.Query{Owner: "alice", State: a2a.TaskStateWorking, ContextID: "ctx0", Limit: 10})
	if total != 2 || join(ids2(page)) != "l6 l0" {
		t.Fatalf("filtered: %d %s", total, join(ids2(page)))
	}
	page, total, _ = s.List(ctx, a2atask.Query{Owner: "alice", UpdatedAfter: base.Add(time.Minute), Limit: 10})
	if total != 2 || join(ids2(page)) != "l4 l2" {
		t.Fatalf("updated after: %d %s", total, join(ids2(page)))
	}
}
func ids2(recs []*a2atask.Record) []string {
	var out []string
	for _, r := range recs {
		out = append(out, r.Task.ID)
	}
	return out
}

func join(s []string) string {
	out := ""
	for i, v := range s {
		if i > 0 {
			out += " "
		}
		out += v
	}
	return out
}

// PostgresDSN is the server the Postgres tests use: A2A_TEST_POSTGRES, or
// the role .ci/postgres creates on the local cluster (pgtest.DSN).
func PostgresDSN() string { return pgtest.DSN() }

// PostgresDatabase creates an empty database for one test, dropped when it
// ends, and returns its DSN. It skips the test when there is no server, and
// fails it when CI is set (pgtest.Database).
func PostgresDatabase(t testing.TB) string { return pgtest.Database(t) }

// OutboxStore is a store that keeps the push outbox.
type OutboxStore interface {
	a2atask.Store
	a2atask.PushOutbox
}

// RunOutbox runs the contract tests of the push outbox on stores that open
// returns, one per test; as Run, it skips as a whole when open skips.
func RunOutbox(t *testing.T, open func(t *testing.T) OutboxStore) {
	c := outboxContract{open: open, ctx: context.Background(), base: time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC), hour: time.Now().Add(time.Hour)}
	open(t) // skips here when there is no store to be had

	for _, sub := range []struct {
		name string
		run  func(outboxContract, *testing.T)
	}{
		{"every event of a task with configs is owed, from its first", outboxContract.owedFromTheFirst},
		{"a claim that runs out passes to another holder", outboxContract.claimRunsOut},
		{"a config added to a task owes the events after it", outboxContract.configAddedLater},
	} {
		t.Run(sub.name, func(t *testing.T) { sub.run(c, t) })
	}
}

// outboxContract is what RunOutbox's subtests share: the stores' opener, a
// context, a time to build tasks at, and a claim's deadline an hour away.
type outboxContract struct {
	open func(t *testing.T) OutboxStore
	ctx  context.Context
	base time.Time
	hour time.Time
}

func (c outboxContract) config(taskID, id string) *a2a.TaskPushNotificationConfig {
	return &a2a.TaskPushNotificationConfig{TaskID: taskID, ID: id, URL: "https://example.com/" + id}
}

func (c outboxContract) create(t *testing.T, s OutboxStore, id string) *a2a.Task {
	t.Helper()
	tk := task(id, "c", a2a.TaskStateSubmitted, c.base)
	if err := s.Create(c.ctx, "alice", tk, &a2a.StreamResponse{Payload: &a2a.StreamResponseTask{Task: tk}}); err != nil {
		t.Fatal(err)
	}
	return tk
}

// write appends a status event at prev+1, as an Appender when the store is
// one (every other event), else as an Update.
func (c outboxContract) write(t *testing.T, s OutboxStore, tk *a2a.Task, prev int64) {
	t.Helper()
	tk.Status = &a2a.TaskStatus{State: a2a.TaskStateWorking, Timestamp: &c.base}
	var err error
	if a, ok := s.(a2atask.Appender); ok && prev%2 == 0 {
		_, err = a.Append(c.ctx, tk.ID, prev, statusEvent(tk), nil)
	} else {
		_, err = s.Update(c.ctx, tk, prev, statusEvent(tk))
	}
	if err != nil {
		t.Fatal(err)
	}
}

func (c outboxContract) claim(t *testing.T, s OutboxStore, id, holder string, until time.Time) (int64, bool) {
	t.Helper()
	delivered, ok, err := s.ClaimPushes(c.ctx, id, holder, until)
	if err != nil {
		t.Fatal(err)
	}
	return delivered, ok
}

// owed lists the tasks owing pushes at a time, joined.
func (c outboxContract) owed(t *testing.T, s OutboxStore, at time.Time) string {
	t.Helper()
	ids, err := s.OwedPushes(c.ctx, at, 10)
	if err != nil {
		t.Fatal(err)
	}
	return join(ids)
}

// owedFromTheFirst: a task with a config owes every event from its first;
// a claim holds it for one holder until its deliveries are recorded and it
// is released, and a new event makes it owed again.
func (c outboxContract) owedFromTheFirst(t *testing.T) {
	ctx, hour := c.ctx, c.hour
	s := c.open(t)
	// SendMessage saves the config of a new task before the task.
	if err := s.SavePushConfig(ctx, c.config("p1", "a")); err != nil {
		t.Fatal(err)
	}
	tk := c.create(t, s, "p1")
	c.create(t, s, "quiet") // no config: owes nothing
	c.write(t, s, tk, 1)
	if got := c.owed(t, s, time.Now()); got != "p1" {
		t.Fatalf("owed: %q", got)
	}
	if _, ok := c.claim(t, s, "quiet", "h1", hour); ok {
		t.Fatal("claimed a task that owes nothing")
	}
	delivered, ok := c.claim(t, s, "p1", "h1", hour)
	if !ok || delivered != 0 {
		t.Fatalf("claim: %v, delivered %d", ok, delivered)
	}
	if _, ok := c.claim(t, s, "p1", "h2", hour); ok {
		t.Fatal("a second holder claimed a held task")
	}
	if got := c.owed(t, s, time.Now()); got != "" {
		t.Fatalf("a held task is listed as free: %q", got)
	}
	if ok, err := s.PushesDelivered(ctx, "p1", "h1", 1, hour); err != nil || !ok {
		t.Fatalf("delivered 1: %v %v", ok, err)
	}
	if released, err := s.ReleasePushes(ctx, "p1", "h1"); err != nil || released {
		t.Fatalf("released with event 2 owed: %v %v", released, err)
	}
	if delivered, ok := c.claim(t, s, "p1", "h1", hour); !ok || delivered != 1 {
		t.Fatalf("claim again: %v, delivered %d", ok, delivered)
	}
	if ok, _ := s.PushesDelivered(ctx, "p1", "h1", 2, hour); !ok {
		t.Fatal("delivered 2")
	}
	if released, err := s.ReleasePushes(ctx, "p1", "h1"); err != nil || !released {
		t.Fatalf("release: %v %v", released, err)
	}
	if _, ok := c.claim(t, s, "p1", "h2", hour); ok {
		t.Fatal("claimed a task with nothing owed")
	}
	c.write(t, s, tk, 2) // owed again
	if delivered, ok := c.claim(t, s, "p1", "h2", hour); !ok || delivered != 2 {
		t.Fatalf("claim after a new event: %v, delivered %d", ok, delivered)
	}
}

// claimRunsOut: a holder that stops renewing loses the task to another,
// and, back, records and releases nothing.
func (c outboxContract) claimRunsOut(t *testing.T) {
	ctx, hour := c.ctx, c.hour
	s := c.open(t)
	if err := s.SavePushConfig(ctx, c.config("p2", "a")); err != nil {
		t.Fatal(err)
	}
	c.create(t, s, "p2")
	soon := time.Now().Add(50 * time.Millisecond)
	if _, ok := c.claim(t, s, "p2", "dead", soon); !ok {
		t.Fatal("claim")
	}
	if got := c.owed(t, s, soon.Add(time.Millisecond)); got != "p2" {
		t.Fatalf("owed once the claim ran out: %q", got)
	}
	time.Sleep(time.Until(soon) + 5*time.Millisecond)
	if delivered, ok := c.claim(t, s, "p2", "alive", hour); !ok || delivered != 0 {
		t.Fatalf("takeover: %v, delivered %d", ok, delivered)
	}
	// The first holder, back, records nothing and releases nothing.
	if ok, err := s.PushesDelivered(ctx, "p2", "dead", 1, hour); err != nil || ok {
		t.Fatalf("a lost claim recorded a delivery: %v %v", ok, err)
	}
	if released, _ := s.ReleasePushes(ctx, "p2", "dead"); released {
		t.Fatal("a lost claim released the task")
	}
	if delivered, ok := c.claim(t, s, "p2", "alive", hour); !ok || delivered != 0 {
		t.Fatalf("the holder's claim: %v, delivered %d", ok, delivered)
	}
}

// configAddedLater: a config saved after a task's events owes only the
// events after it, and saving another (or the same again) changes nothing
// owed.
func (c outboxContract) configAddedLater(t *testing.T) {
	ctx := c.ctx
	s := c.open(t)
	tk := c.create(t, s, "p3")
	c.write(t, s, tk, 1)
	c.write(t, s, tk, 2)
	if err := s.SavePushConfig(ctx, c.config("p3", "a")); err != nil {
		t.Fatal(err)
	}
	if got := c.owed(t, s, time.Now()); got != "" {
		t.Fatalf("events before the config are owed: %q", got)
	}
	for _, id := range []string{"b", "a"} {
		if err := s.SavePushConfig(ctx, c.config("p3", id)); err != nil {
			t.Fatal(err)
		}
	}
	c.write(t, s, tk, 3)
	if delivered, ok := c.claim(t, s, "p3", "h", c.hour); !ok || delivered != 3 {
		t.Fatalf("claim: %v, delivered %d", ok, delivered)
	}
	if cfgs, err := s.PushConfigs(ctx, "p3"); err != nil || len(cfgs) != 2 {
		t.Fatalf("configs: %d %v", len(cfgs), err)
	}
}
