package metastoretest

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	agui "github.com/agui-gen/agui-gen/gen/agui"
)

// ThreadStore is a store of thread owners and interrupts, as the SQL stores
// and agui.NewMemoryCheckpoints are.
type ThreadStore interface {
	agui.Checkpoints
	agui.ThreadOwners
}

// isolationAgent interrupts a run that answers nothing and carries out
// (records) what a resume approves: the destructive action another caller
// must never trigger.
type isolationAgent struct {
	mu       sync.Mutex
	approved []string // "caller:interrupt" for each approval carried out
	runs     []string // "caller:thread" for each run the agent saw
	block    chan struct{}
}

func (a *isolationAgent) Run(ctx context.Context, in *agui.RunAgentInput, s *agui.Stream) error {
	caller := agui.CallerFrom(ctx)
	a.mu.Lock()
	a.runs = append(a.runs, caller+":"+in.ThreadID)
	a.mu.Unlock()
	if in.RunID == "blocking" {
		select {
		case <-a.block:
		case <-ctx.Done():
		}
		return nil
	}
	if len(in.Resume) == 0 {
		if err := s.Text("Delete everything?"); err != nil {
			return err
		}
		return s.Interrupt(agui.Interrupt{ID: "confirm-" + in.RunID, Reason: "confirmation"})
	}
	for _, e := range in.Resume {
		a.mu.Lock()
		a.approved = append(a.approved, caller+":"+e.InterruptID)
		a.mu.Unlock()
	}
	return s.Text("Deleted.")
}

func (a *isolationAgent) seen() (runs, approved []string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]string(nil), a.runs...), append([]string(nil), a.approved...)
}

// Isolation checks, through an AG-UI handler whose callers are
// authenticated and whose thread owners, interrupts and META live in
// threads and meta, that a second caller can neither see nor change the
// first one's thread: its runs, resumes, cancels, META intake, queries and
// replay. Every refusal must be the answer for a thread that does not
// exist, to the byte (status, body and length), and name no run or
// interrupt of the owner's. A caller the application shares the thread
// with (WithThreadAccess) may use it.
func Isolation(t *testing.T, threads ThreadStore, meta agui.MetaStore) {
	agent := &isolationAgent{block: make(chan struct{})}
	defer close(agent.block)
	h := agui.NewHandler(agent, agui.WithCheckpoints(threads), agui.WithMetaStore(meta), agui.WithMetaReplay(),
		agui.WithLogger(slog.New(slog.NewTextHandler(io.Discard, nil))),
		agui.WithAuthenticator(func(r *http.Request) (string, error) {
			user, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
			if !ok || (user != "alice" && user != "bob" && user != "carol") {
				return "", errors.New("unknown caller")
			}
			return user, nil
		}),
		agui.WithThreadAccess(func(_ context.Context, caller, owner, _ string) bool { return caller == "carol" && owner == "alice" }))
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	// Thread ids unique to this run of the suite, so stores that outlive
	// it (a database) start from nothing, and of one length, so bodies
	// compare byte for byte once the id is swapped.
	suffix := strconv.FormatInt(time.Now().UnixNano(), 36)
	aliceThread, noThread, bobThread := "thread-a-"+suffix, "thread-z-"+suffix, "thread-b-"+suffix

	type answer struct {
		status int
		length string
		body   []byte
	}
	do := func(user, method, route string, body string) answer {
		t.Helper()
		var rd io.Reader
		if body != "" {
			rd = strings.NewReader(body)
		}
		req, err := http.NewRequestWithContext(ctx, method, srv.URL+"/agent"+route, rd)
		if err != nil {
			t.Error(err)
			return answer{}
		}
		req.Header.Set("Authorization", "Bearer "+user)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "text/event-stream")
		// t.Error, not t.Fatal: do also runs on a goroutine of its own.
		res, err := srv.Client().Do(req)
		if err != nil {
			t.Error(err)
			return answer{}
		}
		defer res.Body.Close()
		b, err := io.ReadAll(res.Body)
		if err != nil {
			t.Error(err)
		}
		return answer{res.StatusCode, res.Header.Get("Content-Length"), b}
	}
	runBody := func(thread, run string, resume ...string) string {
		in := &agui.RunAgentInput{ThreadID: thread, RunID: run, Messages: []agui.Message{}}
		for _, id := range resume {
			in.Resume = append(in.Resume, agui.ResumeEntry{InterruptID: id, Status: agui.ResumeEntryStatusResolved})
		}
		return string(in.AppendJSON(nil))
	}
	thumbs := func(id string) string {
		m := agui.NewThumbsUpMeta("msg-1")
		m.ID = &id
		return string(m.AppendJSON(nil))
	}

	// What bob gets for alice's thread, he gets for one that does not
	// exist. Nothing bob does before his own run claims a thread.
	same := func(what string, on func(thread string) answer) {
		t.Helper()
		got, want := on(aliceThread), on(noThread)
		gotBody := bytes.ReplaceAll(got.body, []byte(aliceThread), []byte(noThread))
		if got.status != want.status || got.length != want.length || !bytes.Equal(gotBody, want.body) {
			t.Errorf("%s: alice's thread answers %d (length %q) %s\n\tbut a thread that does not exist %d (length %q) %s",
				what, got.status, got.length, got.body, want.status, want.length, want.body)
		}
		if bytes.Contains(got.body, []byte("confirm-")) || bytes.Contains(got.body, []byte("fb-1")) {
			t.Errorf("%s: the answer names alice's interrupt or feedback: %s", what, got.body)
		}
	}

	// A run of alice's in progress: bob cannot cancel it, and learns
	// nothing of it.
	running := make(chan answer, 1)
	go func() { running <- do("alice", http.MethodPost, "", runBody(aliceThread, "blocking")) }()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if runs, _ := agent.seen(); len(runs) > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("alice's blocking run never started")
		}
	}
	same("a cancel of a run in progress", func(th string) answer {
		return do("bob", http.MethodPost, "/cancel", `{"threadId":"`+th+`","runId":"blocking"}`)
	})
	agent.block <- struct{}{}
	if a := <-running; a.status != http.StatusOK {
		t.Fatalf("alice's blocking run: %d %s", a.status, a.body)
	}

	// Alice runs on her thread: it stops for a confirmation, which stays
	// open, and she leaves feedback on it.
	if a := do("alice", http.MethodPost, "", runBody(aliceThread, "r1")); a.status != http.StatusOK || !bytes.Contains(a.body, []byte(`"confirm-r1"`)) {
		t.Fatalf("alice's first run: %d %s", a.status, a.body)
	}
	if a := do("alice", http.MethodPost, "/meta?threadId="+aliceThread+"&runId=r1", thumbs("fb-1")); a.status != http.StatusOK {
		t.Fatalf("alice's feedback: %d %s", a.status, a.body)
	}

	same("a META query", func(th string) answer { return do("bob", http.MethodGet, "/meta?threadId="+th, "") })
	same("a META query with a HEAD", func(th string) answer { return do("bob", http.MethodHead, "/meta?threadId="+th, "") })
	same("a META query by type", func(th string) answer {
		return do("bob", http.MethodGet, "/meta?threadId="+th+"&metaType=thumbs_up&runId=r1", "")
	})
	same("META intake", func(th string) answer { return do("bob", http.MethodPost, "/meta?threadId="+th, thumbs("fb-2")) })
	same("META intake reusing alice's event id", func(th string) answer {
		return do("bob", http.MethodPost, "/meta?threadId="+th, thumbs("fb-1"))
	})
	same("a cancel of a finished run", func(th string) answer {
		return do("bob", http.MethodPost, "/cancel", `{"threadId":"`+th+`","runId":"r1"}`)
	})

	// Bob's runs on alice's thread, resuming her interrupt or not, are
	// refused before the agent sees them, saying nothing of what is open.
	for _, body := range []string{runBody(aliceThread, "b1", "confirm-r1"), runBody(aliceThread, "b2")} {
		a := do("bob", http.MethodPost, "", body)
		if a.status != http.StatusNotFound || bytes.Contains(a.body, []byte("confirm-")) || bytes.Contains(a.body, []byte("r1")) {
			t.Errorf("bob's run on alice's thread: %d %s", a.status, a.body)
		}
	}
	runs, approved := agent.seen()
	for _, r := range runs {
		if strings.HasPrefix(r, "bob:") {
			t.Errorf("the agent ran for bob on %s", r)
		}
	}
	if len(approved) > 0 {
		t.Fatalf("the agent carried out approvals %v", approved)
	}

	// Bob's own thread is his: his run sees none of alice's feedback, and
	// alice cannot use it either.
	a := do("bob", http.MethodPost, "", runBody(bobThread, "r1"))
	if a.status != http.StatusOK || bytes.Contains(a.body, []byte("fb-1")) {
		t.Errorf("bob's run on his own thread: %d %s", a.status, a.body)
	}
	if a := do("alice", http.MethodGet, "/meta?threadId="+bobThread, ""); a.status != http.StatusNotFound {
		t.Errorf("alice reads bob's thread's META: %d %s", a.status, a.body)
	}

	// Carol, with whom the application shares alice's threads, may read
	// them; alice's own resume still works and replays her feedback.
	if a := do("carol", http.MethodGet, "/meta?threadId="+aliceThread, ""); a.status != http.StatusOK || !bytes.Contains(a.body, []byte("fb-1")) {
		t.Errorf("carol reads alice's shared thread: %d %s", a.status, a.body)
	}
	if a := do("carol", http.MethodGet, "/meta?threadId="+bobThread, ""); a.status != http.StatusNotFound {
		t.Errorf("carol reads bob's thread: %d %s", a.status, a.body)
	}
	a = do("alice", http.MethodPost, "", runBody(aliceThread, "r2", "confirm-r1"))
	if a.status != http.StatusOK || !bytes.Contains(a.body, []byte("fb-1")) || !bytes.Contains(a.body, []byte("Deleted.")) {
		t.Errorf("alice's resume: %d %s", a.status, a.body)
	}
	if _, approved := agent.seen(); strings.Join(approved, ",") != "alice:confirm-r1" {
		t.Errorf("approvals carried out: %v", approved)
	}
	if owner, ok, err := threads.ThreadOwner(ctx, aliceThread); err != nil || !ok || owner != "alice" {
		t.Errorf("the store says %s is %q's (%v, %v)", aliceThread, owner, ok, err)
	}
	if _, ok, err := threads.ThreadOwner(ctx, noThread); err != nil || ok {
		t.Errorf("bob's refused requests made %s someone's (%v)", noThread, err)
	}
}

// Threads checks a store of thread owners and interrupts: the first claim
// of a thread wins, also among concurrent claims; interrupts are kept per
// thread and cleared; and both survive reopening the store (reopen gives
// a new store on the same data).
func Threads(t *testing.T, open, reopen func(t *testing.T) ThreadStore) {
	ctx := context.Background()
	s := open(t)
	suffix := strconv.FormatInt(time.Now().UnixNano(), 36)
	t1, t2 := "t1-"+suffix, "t2-"+suffix
	if _, ok, err := s.ThreadOwner(ctx, t1); err != nil || ok {
		t.Fatalf("an unknown thread has an owner (%v)", err)
	}
	var wg sync.WaitGroup
	owners := make([]string, 8)
	for i := range owners {
		wg.Go(func() {
			owner, err := s.ClaimThread(ctx, t1, "caller-"+strconv.Itoa(i))
			if err != nil {
				t.Error(err)
			}
			owners[i] = owner
		})
	}
	wg.Wait()
	for _, o := range owners {
		if o != owners[0] || o == "" {
			t.Fatalf("concurrent claims saw owners %v", owners)
		}
	}
	if owner, err := s.ClaimThread(ctx, t1, "late"); err != nil || owner != owners[0] {
		t.Errorf("a later claim: %q %v", owner, err)
	}
	// Interrupts kept before the thread had an owner do not stop a claim.
	msg := "Delete?"
	open2 := []agui.Interrupt{{ID: "i1", Reason: "confirmation", Message: &msg}, {ID: "i2", Reason: "input"}}
	if err := s.SetInterrupts(ctx, t2, open2); err != nil {
		t.Fatal(err)
	}
	if owner, err := s.ClaimThread(ctx, t2, "alice"); err != nil || owner != "alice" {
		t.Errorf("claiming a thread with interrupts: %q %v", owner, err)
	}
	s = reopen(t)
	if owner, ok, err := s.ThreadOwner(ctx, t1); err != nil || !ok || owner != owners[0] {
		t.Errorf("after reopening, %s is %q's (%v, %v)", t1, owner, ok, err)
	}
	got, err := s.Interrupts(ctx, t2)
	if err != nil || len(got) != 2 || !bytes.Equal(got[0].AppendJSON(nil), open2[0].AppendJSON(nil)) || got[1].ID != "i2" {
		t.Errorf("after reopening, %s's interrupts: %v %v", t2, got, err)
	}
	if err := s.SetInterrupts(ctx, t2, nil); err != nil {
		t.Fatal(err)
	}
	if got, err := s.Interrupts(ctx, t2); err != nil || len(got) != 0 {
		t.Errorf("cleared interrupts: %v %v", got, err)
	}
	if owner, ok, err := s.ThreadOwner(ctx, t2); err != nil || !ok || owner != "alice" {
		t.Errorf("clearing the interrupts lost the owner: %q %v %v", owner, ok, err)
	}
	if got, err := s.Interrupts(ctx, "never-seen-"+suffix); err != nil || got != nil {
		t.Errorf("an unknown thread's interrupts: %v %v", got, err)
	}
}

// OwnersWithTheFeedback checks that a handler whose callers are
// authenticated, given a META store that keeps owners and no checkpoints,
// keeps the owners of threads there, with their feedback: a second handler
// on the same store (a restart, a replica) still answers another caller as
// for a thread that does not exist.
func OwnersWithTheFeedback(t *testing.T, store interface {
	agui.MetaStore
	agui.ThreadOwners
}) {
	newHandler := func() *httptest.Server {
		srv := httptest.NewServer(agui.NewHandler(agui.AgentFunc(func(ctx context.Context, _ *agui.RunAgentInput, s *agui.Stream) error {
			return s.Text("hello")
		}), agui.WithMetaStore(store), agui.WithMetaReplay(), agui.WithLogger(slog.New(slog.NewTextHandler(io.Discard, nil))),
			agui.WithAuthenticator(func(r *http.Request) (string, error) {
				return strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer "), nil
			})))
		t.Cleanup(srv.Close)
		return srv
	}
	as := func(srv *httptest.Server, user string) *agui.Client {
		return &agui.Client{URL: srv.URL, Header: http.Header{"Authorization": {"Bearer " + user}}}
	}
	ctx := context.Background()
	thread := "thread-" + strconv.FormatInt(time.Now().UnixNano(), 36)
	first := newHandler()
	rs, err := as(first, "alice").Run(ctx, &agui.RunAgentInput{ThreadID: thread, RunID: "r1", Messages: []agui.Message{}})
	if err != nil {
		t.Fatal(err)
	}
	if err := rs.Wait(); err != nil {
		t.Fatal(err)
	}
	if _, err := as(first, "alice").SendMeta(ctx, thread, "r1", agui.NewThumbsUpMeta("m1")); err != nil {
		t.Fatal(err)
	}
	second := newHandler()
	var he *agui.HTTPError
	if _, err := as(second, "bob").Run(ctx, &agui.RunAgentInput{ThreadID: thread, RunID: "r2", Messages: []agui.Message{}}); !errors.As(err, &he) || he.StatusCode != http.StatusNotFound {
		t.Errorf("bob's run on alice's thread, on a second handler: %v", err)
	}
	if _, err := as(second, "bob").Meta(ctx, agui.MetaQuery{ThreadID: thread}); !errors.As(err, &he) || he.StatusCode != http.StatusNotFound {
		t.Errorf("bob's query of alice's feedback, on a second handler: %v", err)
	}
	if page, err := as(second, "alice").Meta(ctx, agui.MetaQuery{ThreadID: thread}); err != nil || len(page.Events) != 1 {
		t.Errorf("alice's feedback, on a second handler: %+v %v", page, err)
	}
}
