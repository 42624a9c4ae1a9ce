package bridge_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agui-gen/agui-gen/gen/a2a"
	"github.com/agui-gen/agui-gen/gen/a2a/a2atask"
	"github.com/agui-gen/agui-gen/gen/agui"
	"github.com/agui-gen/agui-gen/gen/bridge"
	"github.com/agui-gen/agui-gen/internal/cutproxy"
	"github.com/agui-gen/agui-gen/runtime/sse"
)

// observedRuntime serves the task runtime, counting subscriptions; with
// noIDs its streams name no event (as a server that sends no SSE id).
type observedRuntime struct {
	*a2atask.Runtime
	noIDs         bool
	refuse        bool // refuse every subscription: task not found
	ignoreLastID  bool // answer every subscription with the task's snapshot
	subscriptions atomic.Int32
}

func (o *observedRuntime) strip(ctx context.Context) {
	if info := a2a.CallInfoFrom(ctx); o.noIDs && info != nil {
		info.EventID = nil
	}
}

func (o *observedRuntime) SendStreamingMessage(ctx context.Context, req *a2a.SendMessageRequest, send func(*a2a.StreamResponse) error) error {
	o.strip(ctx)
	return o.Runtime.SendStreamingMessage(ctx, req, send)
}

func (o *observedRuntime) SubscribeToTask(ctx context.Context, req *a2a.SubscribeToTaskRequest, send func(*a2a.StreamResponse) error) error {
	o.subscriptions.Add(1)
	if o.refuse {
		return a2a.NewError(a2a.ErrTaskNotFound, "no task "+req.ID)
	}
	o.strip(ctx)
	if info := a2a.CallInfoFrom(ctx); o.ignoreLastID && info != nil {
		info.LastEventID = ""
	}
	return o.Runtime.SubscribeToTask(ctx, req, send)
}

// partedStory streams 20 words of text per part, as chunks of one
// artifact, waiting before part i+1 for gates[i]() (nil: no wait), then
// completes.
func partedStory(gates ...func() <-chan struct{}) a2atask.Executor {
	return a2atask.ExecutorFunc(func(ctx context.Context, run *a2atask.Run) error {
		for part := range len(gates) + 1 {
			if part > 0 && gates[part-1] != nil {
				select {
				case <-gates[part-1]():
				case <-ctx.Done():
					return ctx.Err()
				}
			}
			for word := range 20 {
				art := &a2a.Artifact{ArtifactID: "answer", Parts: []*a2a.Part{{Content: &a2a.PartText{Text: fmt.Sprintf("w%d.%d ", part, word)}}}}
				if err := run.Artifact(art, part+word > 0, false); err != nil {
					return err
				}
			}
		}
		return run.Complete(nil)
	})
}

// cutA2AServer serves exec on the task runtime behind a proxy that cuts
// its first event streams after cuts bytes each, and returns a client of
// the proxy over binding.
func cutA2AServer(t *testing.T, exec func(*cutproxy.Proxy) a2atask.Executor, noIDs bool, binding string, cuts ...int) (*observedRuntime, *cutproxy.Proxy, *a2a.A2AServiceClient) {
	t.Helper()
	var proxy *cutproxy.Proxy
	rt := &observedRuntime{noIDs: noIDs}
	rt.Runtime = a2atask.New(a2atask.ExecutorFunc(func(ctx context.Context, run *a2atask.Run) error {
		return exec(proxy).Execute(ctx, run)
	}), a2atask.NewMemory())
	t.Cleanup(func() { rt.Close() })
	srv := httptest.NewUnstartedServer(nil)
	card := &a2a.AgentCard{Name: "story", Description: "Tells a story.", Version: "1.0.0",
		SupportedInterfaces: a2a.Interfaces("http://" + srv.Listener.Addr().String()),
		Capabilities:        &a2a.AgentCapabilities{Streaming: ptr(true)},
		DefaultInputModes:   []string{"text/plain"}, DefaultOutputModes: []string{"text/plain"},
		Skills: []*a2a.AgentSkill{{ID: "story", Name: "Story", Description: "Tells a story.", Tags: []string{"story"}}}}
	h, err := a2a.NewHandler(a2a.BindA2AService(rt), card)
	if err != nil {
		t.Fatal(err)
	}
	srv.Config.Handler = h
	srv.Start()
	t.Cleanup(srv.Close)
	target, _ := url.Parse(srv.URL)
	proxy = cutproxy.New(target, cuts...)
	front := httptest.NewServer(proxy)
	t.Cleanup(front.Close)
	transport := a2a.NewJSONRPCTransport(front.URL)
	if binding == a2a.BindingHTTPJSON {
		transport = a2a.NewRESTTransport(front.URL)
	}
	return rt, proxy, a2a.NewA2AServiceClient(transport)
}

// runText is the text of a run's TEXT_MESSAGE_CONTENT events.
func runText(events []agui.Event) string {
	var b strings.Builder
	for _, ev := range events {
		if c, ok := ev.(*agui.TextMessageContentEvent); ok {
			b.WriteString(c.Delta)
		}
	}
	return b.String()
}

// TestA2AAgentResubscribes: an AG-UI run through A2AAgent whose A2A stream
// is cut in the middle of its task, once or twice, over JSON-RPC and
// HTTP+JSON, resubscribes to the task after the last event it received
// and ends as a run whose stream was never cut does: the same events, the
// same text, nothing twice, the task completed.
func TestA2AAgentResubscribes(t *testing.T) {
	ctx := context.Background()
	// The run as it is without a cut.
	_, _, client := cutA2AServer(t, func(*cutproxy.Proxy) a2atask.Executor { return partedStory(nil, nil) }, false, a2a.BindingJSONRPC)
	whole := httptest.NewServer(agui.NewHandler(&bridge.A2AAgent{Client: client}))
	defer whole.Close()
	want, _ := aguiRun(t, ctx, whole.URL, userInput("thread-whole", "a story"))
	if text := runText(want); !strings.HasPrefix(text, "w0.0 ") || !strings.HasSuffix(text, "w2.19 ") {
		t.Fatalf("the uncut run's text %q", text)
	}

	for _, binding := range []string{a2a.BindingJSONRPC, a2a.BindingHTTPJSON} {
		for _, cuts := range [][]int{{1200}, {1200, 800}} {
			t.Run(fmt.Sprintf("%s/%d cuts", binding, len(cuts)), func(t *testing.T) {
				// Each part waits for a cut, so that the cut falls in the
				// middle of the task, the part before it streamed.
				story := func(p *cutproxy.Proxy) a2atask.Executor {
					gates := []func() <-chan struct{}{nil, nil}
					for i := range cuts {
						gates[i] = func() <-chan struct{} { return p.Cut(i) }
					}
					return partedStory(gates...)
				}
				rt, proxy, client := cutA2AServer(t, story, false, binding, cuts...)
				bridged := httptest.NewServer(agui.NewHandler(&bridge.A2AAgent{Client: client, ResubscribeBackoff: time.Millisecond}))
				defer bridged.Close()
				events, _ := aguiRun(t, ctx, bridged.URL, userInput("thread-cut", "a story"))
				if proxy.Cuts() != len(cuts) {
					t.Fatalf("%d cuts, want %d", proxy.Cuts(), len(cuts))
				}
				if got, wantText := runText(events), runText(want); got != wantText {
					t.Errorf("text across the cuts\n got %q\nwant %q", got, wantText)
				}
				if got, wantTypes := types(events), types(want); !slices.Equal(got, wantTypes) {
					t.Errorf("events across the cuts\n got %s\nwant %s", got, wantTypes)
				}
				if fin := finished(t, events); fin.Outcome != nil {
					t.Errorf("outcome %T, want success", fin.Outcome)
				}
				if n := rt.subscriptions.Load(); n < int32(len(cuts)) {
					t.Errorf("%d subscriptions for %d cuts", n, len(cuts))
				}
				tasks, err := client.ListTasks(ctx, &a2a.ListTasksRequest{ContextID: "thread-cut"})
				if err != nil || len(tasks.Tasks) != 1 || tasks.Tasks[0].GetStatus().GetState() != a2a.TaskStateCompleted {
					t.Errorf("the run's task: %v %v", tasks, err)
				}
			})
		}
	}
}

// TestA2AAgentCutWithoutEventIDs: a cut against a server that names no
// events fails the run, saying so, with no subscription: the task's
// snapshot would show the run's text again.
func TestA2AAgentCutWithoutEventIDs(t *testing.T) {
	story := func(p *cutproxy.Proxy) a2atask.Executor {
		return partedStory(func() <-chan struct{} { return p.Cut(0) })
	}
	rt, _, client := cutA2AServer(t, story, true, a2a.BindingJSONRPC, 1200)
	bridged := httptest.NewServer(agui.NewHandler(&bridge.A2AAgent{Client: client, ResubscribeBackoff: time.Millisecond}))
	defer bridged.Close()
	r := readRun(t, post(t, bridged.URL, userInput("thread-noids", "a story")), "")
	if r.outcome != "RUN_ERROR" {
		t.Fatalf("the run ended %q: %s", r.outcome, r.types)
	}
	t.Logf("the run's error: %s", r.errMessage)
	if n := rt.subscriptions.Load(); n != 0 {
		t.Errorf("%d subscriptions without event ids", n)
	}
}

// TestA2AAgentResubscriptionIgnored: a server that answers the
// resubscription with the task's snapshot, not the events after the id it
// was sent, fails the run rather than show the task's text twice.
func TestA2AAgentResubscriptionIgnored(t *testing.T) {
	// The task works on for a while after the cut, so that the
	// subscription has a task to follow.
	story := func(p *cutproxy.Proxy) a2atask.Executor {
		return partedStory(func() <-chan struct{} { return p.Cut(0) }, func() <-chan struct{} { return after(2 * time.Second) })
	}
	rt, _, client := cutA2AServer(t, story, false, a2a.BindingJSONRPC, 1200)
	rt.ignoreLastID = true
	bridged := httptest.NewServer(agui.NewHandler(&bridge.A2AAgent{Client: client, ResubscribeBackoff: time.Millisecond}))
	defer bridged.Close()
	r := readRun(t, post(t, bridged.URL, userInput("thread-ignored", "a story")), "")
	if r.outcome != "RUN_ERROR" || !strings.Contains(r.errMessage, "answered the resubscription") {
		t.Fatalf("the run ended %q (%s): %s", r.outcome, r.errMessage, r.types)
	}
	if n := strings.Count(r.text, "w0.0 "); n != 1 {
		t.Errorf("the first word shown %d times: %q", n, r.text)
	}
}

// TestA2AAgentResubscribeGivesUp: a run whose resubscriptions all drop
// before an event gives up after ResubscribeAttempts of them; one whose
// resubscription is refused gives up at once, with the refusal.
func TestA2AAgentResubscribeGivesUp(t *testing.T) {
	story := func(p *cutproxy.Proxy) a2atask.Executor {
		return partedStory(func() <-chan struct{} { return p.Cut(0) }, func() <-chan struct{} { return nil })
	}
	t.Run("attempts", func(t *testing.T) {
		rt, proxy, client := cutA2AServer(t, story, false, a2a.BindingJSONRPC, 1200, 0, 0, 0, 0)
		bridged := httptest.NewServer(agui.NewHandler(&bridge.A2AAgent{Client: client, ResubscribeAttempts: 2, ResubscribeBackoff: time.Millisecond}))
		defer bridged.Close()
		r := readRun(t, post(t, bridged.URL, userInput("thread-attempts", "a story")), "")
		if r.outcome != "RUN_ERROR" || rt.subscriptions.Load() != 2 || proxy.Cuts() != 3 {
			t.Errorf("the run ended %q (%s) after %d subscriptions, %d cuts", r.outcome, r.errMessage, rt.subscriptions.Load(), proxy.Cuts())
		}
	})
	t.Run("refused", func(t *testing.T) {
		rt, _, client := cutA2AServer(t, story, false, a2a.BindingHTTPJSON, 1200)
		rt.refuse = true
		bridged := httptest.NewServer(agui.NewHandler(&bridge.A2AAgent{Client: client, ResubscribeBackoff: time.Millisecond}))
		defer bridged.Close()
		r := readRun(t, post(t, bridged.URL, userInput("thread-refused", "a story")), "")
		if r.outcome != "RUN_ERROR" || !strings.Contains(r.errMessage, "no task") || rt.subscriptions.Load() != 1 {
			t.Errorf("the run ended %q (%s) after %d subscriptions", r.outcome, r.errMessage, rt.subscriptions.Load())
		}
	})
}

// TestA2AAgentCancelledDoesNotResubscribe: a run whose client goes away
// while it waits to resubscribe stops there: no subscription, and its
// task is cancelled.
func TestA2AAgentCancelledDoesNotResubscribe(t *testing.T) {
	story := func(*cutproxy.Proxy) a2atask.Executor {
		return partedStory(func() <-chan struct{} { return nil }) // waits until cancelled
	}
	rt, proxy, client := cutA2AServer(t, story, false, a2a.BindingJSONRPC, 1200)
	bridged := httptest.NewServer(agui.NewHandler(&bridge.A2AAgent{Client: client, ResubscribeBackoff: time.Minute}))
	defer bridged.Close()
	res := post(t, bridged.URL, userInput("thread-gone", "a story"))
	first := readRunUntil(t, res, "TEXT_MESSAGE_CONTENT")
	<-proxy.Cut(0)
	res.Body.Close()
	ctx := context.Background()
	if state := settledState(ctx, t, client, first.taskID); state != a2a.TaskStateCanceled {
		t.Errorf("the abandoned run's task is %v", state)
	}
	if n := rt.subscriptions.Load(); n != 1 { // settledState's own
		t.Errorf("%d subscriptions, want settledState's only", n)
	}
}

// readRunUntil reads an AG-UI stream until an event of type until,
// leaving it open.
func readRunUntil(t *testing.T, res *http.Response, until string) runRead {
	t.Helper()
	var r runRead
	events := sse.NewReader(res.Body, 1<<20)
	for {
		raw, err := events.Next()
		if err != nil {
			t.Fatalf("after %s: %v", r.types, err)
		}
		ev, err := agui.UnmarshalEvent(raw.Data)
		if err != nil {
			t.Fatal(err)
		}
		r.types = append(r.types, string(ev.Type()))
		if s, ok := ev.(*agui.StateSnapshotEvent); ok && r.taskID == "" {
			var state struct {
				A2A struct {
					TaskID string `json:"taskId"`
				} `json:"a2a"`
			}
			if json.Unmarshal(s.Snapshot, &state) == nil {
				r.taskID = state.A2A.TaskID
			}
		}
		if string(ev.Type()) == until {
			return r
		}
	}
}

// after returns a channel closed after d.
func after(d time.Duration) <-chan struct{} {
	c := make(chan struct{})
	time.AfterFunc(d, func() { close(c) })
	return c
}
