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
	srv := httptest.NewServer(isolationHandler(agent, threads, meta))
	t.Cleanup(srv.Close)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	// Thread ids unique to this run of the suite, so stores that outlive
	// it (a database) start from nothing, and of one length, so bodies
	// compare byte for byte once the id is swapped.
	suffix := strconv.FormatInt(time.Now().UnixNano(), 36)
	is := isolation{agent: agent, threads: threads, srv: srv, ctx: ctx,
		aliceThread: "thread-a-" + suffix, noThread: "thread-z-" + suffix, bobThread: "thread-b-" + suffix}

	// Each step builds on the ones before it; a t.Fatal in one ends them all.
	is.bobCannotCancelARunInProgress(t)
	is.aliceRunsAndLeavesFeedback(t)
	is.bobLearnsNothingOfAlicesThread(t)
	is.bobCannotRunOnAlicesThread(t)
	is.bobsOwnThreadIsHis(t)
	is.carolReadsWhatIsSharedWithHer(t)
	is.aliceResumesHerInterrupt(t)
}

// isolationHandler serves agent with its thread owners and interrupts in
// threads and its META in meta, replayed; alice, bob and carol are its
// callers (a bearer token of their name), and carol may use alice's
// threads.
func isolationHandler(agent *isolationAgent, threads ThreadStore, meta agui.MetaStore) http.Handler {
	return agui.NewHandler(agent, agui.WithCheckpoints(threads), agui.WithMetaStore(meta), agui.WithMetaReplay(),
		agui.WithLogger(slog.New(slog.NewTextHandler(io.Discard, nil))),
		agui.WithAuthenticator(func(r *http.Request) (string, error) {
			user, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
			if !ok || (user != "alice" && user != "bob" && user != "carol") {
				return "", errors.New("unknown caller")
			}
			return user, nil
		}),
		agui.WithThreadAccess(func(_ context.Context, caller, owner, _ string) bool { return caller == "carol" && owner == "alice" }))
}

// isolation is what Isolation's steps share: the agent and its server, the
// store of thread owners, a context, and three threads: alice's, bob's and
// one nobody claims, which a refusal on alice's must answer as. The steps
// run in order on this state: alice's thread is claimed, and its interrupt
// confirm-r1 and feedback fb-1 left open, by aliceRunsAndLeavesFeedback
// for the bob and carol steps after it, and aliceResumesHerInterrupt last
// checks that none of them changed it.
type isolation struct {
	agent   *isolationAgent
	threads ThreadStore
	srv     *httptest.Server
	ctx     context.Context

	aliceThread, noThread, bobThread string
}

// answer is a response as a caller sees it, down to its length.
type answer struct {
	status int
	length string
	body   []byte
}

// do sends a request to the agent's route as user. It fails with
// t.Error, not t.Fatal: it also runs on a goroutine of its own.
func (is isolation) do(t *testing.T, user, method, route string, body string) answer {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequestWithContext(is.ctx, method, is.srv.URL+"/agent"+route, rd)
	if err != nil {
		t.Error(err)
		return answer{}
	}
	req.Header.Set("Authorization", "Bearer "+user)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "text/event-stream")
	res, err := is.srv.Client().Do(req)
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

// runBody is a run of thread that resumes the interrupts resume, resolved.
func runBody(thread, run string, resume ...string) string {
	in := &agui.RunAgentInput{ThreadID: thread, RunID: run, Messages: []agui.Message{}}
	for _, id := range resume {
		in.Resume = append(in.Resume, agui.ResumeEntry{InterruptID: id, Status: agui.ResumeEntryStatusResolved})
	}
	return string(in.AppendJSON(nil))
}

// thumbsUp is a META thumbs up with the event id id.
func thumbsUp(id string) string {
	m := agui.NewThumbsUpMeta("msg-1")
	m.ID = &id
	return string(m.AppendJSON(nil))
}

// same checks that what bob gets for alice's thread, he gets for one that
// does not exist. Nothing bob does before his own run claims a thread.
func (is isolation) same(t *testing.T, what string, on func(thread string) answer) {
	t.Helper()
	got, want := on(is.aliceThread), on(is.noThread)
	gotBody := bytes.ReplaceAll(got.body, []byte(is.aliceThread), []byte(is.noThread))
	if got.status != want.status || got.length != want.length || !bytes.Equal(gotBody, want.body) {
		t.Errorf("%s: alice's thread answers %d (length %q) %s\n\tbut a thread that does not exist %d (length %q) %s",
			what, got.status, got.length, got.body, want.status, want.length, want.body)
	}
	if bytes.Contains(got.body, []byte("confirm-")) || bytes.Contains(got.body, []byte("fb-1")) {
		t.Errorf("%s: the answer names alice's interrupt or feedback: %s", what, got.body)
	}
}

// bobCannotCancelARunInProgress: while a run of alice's is in progress,
// bob cannot cancel it, and learns nothing of it; the run then ends as it
// would have.
func (is isolation) bobCannotCancelARunInProgress(t *testing.T) {
	running := make(chan answer, 1)
	go func() { running <- is.do(t, "alice", http.MethodPost, "", runBody(is.aliceThread, "blocking")) }()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if runs, _ := is.agent.seen(); len(runs) > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("alice's blocking run never started")
		}
	}
	is.same(t, "a cancel of a run in progress", func(th string) answer {
		return is.do(t, "bob", http.MethodPost, "/cancel", `{"threadId":"`+th+`","runId":"blocking"}`)
	})
	is.agent.block <- struct{}{}
	if a := <-running; a.status != http.StatusOK {
		t.Fatalf("alice's blocking run: %d %s", a.status, a.body)
	}
}

// aliceRunsAndLeavesFeedback: alice runs on her thread: it stops for a
// confirmation, which stays open, and she leaves feedback on it.
func (is isolation) aliceRunsAndLeavesFeedback(t *testing.T) {
	if a := is.do(t, "alice", http.MethodPost, "", runBody(is.aliceThread, "r1")); a.status != http.StatusOK || !bytes.Contains(a.body, []byte(`"confirm-r1"`)) {
		t.Fatalf("alice's first run: %d %s", a.status, a.body)
	}
	if a := is.do(t, "alice", http.MethodPost, "/meta?threadId="+is.aliceThread+"&runId=r1", thumbsUp("fb-1")); a.status != http.StatusOK {
		t.Fatalf("alice's feedback: %d %s", a.status, a.body)
	}
}

// bobLearnsNothingOfAlicesThread: bob's META queries (GET and HEAD, by
// type and run), his META intake (even under alice's event id) and his
// cancel of her finished run answer as for a thread that does not exist.
func (is isolation) bobLearnsNothingOfAlicesThread(t *testing.T) {
	is.same(t, "a META query", func(th string) answer { return is.do(t, "bob", http.MethodGet, "/meta?threadId="+th, "") })
	is.same(t, "a META query with a HEAD", func(th string) answer {
		return is.do(t, "bob", http.MethodHead, "/meta?threadId="+th, "")
	})
	is.same(t, "a META query by type", func(th string) answer {
		return is.do(t, "bob", http.MethodGet, "/meta?threadId="+th+"&metaType=thumbs_up&runId=r1", "")
	})
	is.same(t, "META intake", func(th string) answer {
		return is.do(t, "bob", http.MethodPost, "/meta?threadId="+th, thumbsUp("fb-2"))
	})
	is.same(t, "META intake reusing alice's event id", func(th string) answer {
		return is.do(t, "bob", http.MethodPost, "/meta?threadId="+th, thumbsUp("fb-1"))
	})
	is.same(t, "a cancel of a finished run", func(th string) answer {
		return is.do(t, "bob", http.MethodPost, "/cancel", `{"threadId":"`+th+`","runId":"r1"}`)
	})
}

// bobCannotRunOnAlicesThread: bob's runs on alice's thread, resuming her
// interrupt or not, are refused before the agent sees them, saying nothing
// of what is open, and carry out no approval.
func (is isolation) bobCannotRunOnAlicesThread(t *testing.T) {
	for _, body := range []string{runBody(is.aliceThread, "b1", "confirm-r1"), runBody(is.aliceThread, "b2")} {
		a := is.do(t, "bob", http.MethodPost, "", body)
		if a.status != http.StatusNotFound || bytes.Contains(a.body, []byte("confirm-")) || bytes.Contains(a.body, []byte("r1")) {
			t.Errorf("bob's run on alice's thread: %d %s", a.status, a.body)
		}
	}
	runs, approved := is.agent.seen()
	for _, r := range runs {
		if strings.HasPrefix(r, "bob:") {
			t.Errorf("the agent ran for bob on %s", r)
		}
	}
	if len(approved) > 0 {
		t.Fatalf("the agent carried out approvals %v", approved)
	}
}

// bobsOwnThreadIsHis: bob's run on a thread of his own sees none of
// alice's feedback, and alice cannot read his thread's META.
func (is isolation) bobsOwnThreadIsHis(t *testing.T) {
	a := is.do(t, "bob", http.MethodPost, "", runBody(is.bobThread, "r1"))
	if a.status != http.StatusOK || bytes.Contains(a.body, []byte("fb-1")) {
		t.Errorf("bob's run on his own thread: %d %s", a.status, a.body)
	}
	if a := is.do(t, "alice", http.MethodGet, "/meta?threadId="+is.bobThread, ""); a.status != http.StatusNotFound {
		t.Errorf("alice reads bob's thread's META: %d %s", a.status, a.body)
	}
}

// carolReadsWhatIsSharedWithHer: carol, with whom the application shares
// alice's threads, may read their META, and bob's not.
func (is isolation) carolReadsWhatIsSharedWithHer(t *testing.T) {
	if a := is.do(t, "carol", http.MethodGet, "/meta?threadId="+is.aliceThread, ""); a.status != http.StatusOK || !bytes.Contains(a.body, []byte("fb-1")) {
		t.Errorf("carol reads alice's shared thread: %d %s", a.status, a.body)
	}
	if a := is.do(t, "carol", http.MethodGet, "/meta?threadId="+is.bobThread, ""); a.status != http.StatusNotFound {
		t.Errorf("carol reads bob's thread: %d %s", a.status, a.body)
	}
}

// aliceResumesHerInterrupt: after all of the above, alice's own resume
// still works, replays her feedback and carries out her approval, the
// only one; the store has her as her thread's owner, and the thread that
// does not exist still has none.
func (is isolation) aliceResumesHerInterrupt(t *testing.T) {
	a := is.do(t, "alice", http.MethodPost, "", runBody(is.aliceThread, "r2", "confirm-r1"))
	if a.status != http.StatusOK || !bytes.Contains(a.body, []byte("fb-1")) || !bytes.Contains(a.body, []byte("Deleted.")) {
		t.Errorf("alice's resume: %d %s", a.status, a.body)
	}
	if _, approved := is.agent.seen(); strings.Join(approved, ",") != "alice:confirm-r1" {
		t.Errorf("approvals carried out: %v", approved)
	}
	if owner, ok, err := is.threads.ThreadOwner(is.ctx, is.aliceThread); err != nil || !ok || owner != "alice" {
		t.Errorf("the store says %s is %q's (%v, %v)", is.aliceThread, owner, ok, err)
	}
	if _, ok, err := is.threads.ThreadOwner(is.ctx, is.noThread); err != nil || ok {
		t.Errorf("bob's refused requests made %s someone's (%v)", is.noThread, err)
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
	winner := firstClaimWins(t, ctx, s, t1)
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
	if owner, ok, err := s.ThreadOwner(ctx, t1); err != nil || !ok || owner != winner {
		t.Errorf("after reopening, %s is %q's (%v, %v)", t1, owner, ok, err)
	}
	interruptsKeptAndCleared(t, ctx, s, t2, open2, "never-seen-"+suffix)
}

// firstClaimWins has eight callers claim thread at once: all are told the
// same owner, one of them, and so is a later claim. It returns the owner.
func firstClaimWins(t *testing.T, ctx context.Context, s ThreadStore, thread string) string {
	var wg sync.WaitGroup
	owners := make([]string, 8)
	for i := range owners {
		wg.Go(func() {
			owner, err := s.ClaimThread(ctx, thread, "caller-"+strconv.Itoa(i))
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
	if owner, err := s.ClaimThread(ctx, thread, "late"); err != nil || owner != owners[0] {
		t.Errorf("a later claim: %q %v", owner, err)
	}
	return owners[0]
}

// interruptsKeptAndCleared checks, on a reopened store, that thread's
// interrupts are want, as they were set; that clearing them keeps the
// thread's owner, alice; and that a thread never seen has none.
func interruptsKeptAndCleared(t *testing.T, ctx context.Context, s ThreadStore, thread string, want []agui.Interrupt, neverSeen string) {
	got, err := s.Interrupts(ctx, thread)
	if err != nil || len(got) != 2 || !bytes.Equal(got[0].AppendJSON(nil), want[0].AppendJSON(nil)) || got[1].ID != "i2" {
		t.Errorf("after reopening, %s's interrupts: %v %v", thread, got, err)
	}
	if err := s.SetInterrupts(ctx, thread, nil); err != nil {
		t.Fatal(err)
	}
	if got, err := s.Interrupts(ctx, thread); err != nil || len(got) != 0 {
		t.Errorf("cleared interrupts: %v %v", got, err)
	}
	if owner, ok, err := s.ThreadOwner(ctx, thread); err != nil || !ok || owner != "alice" {
		t.Errorf("clearing the interrupts lost the owner: %q %v %v", owner, ok, err)
	}
	if got, err := s.Interrupts(ctx, neverSeen); err != nil || got != nil {
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
