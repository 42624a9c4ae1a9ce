package bridge_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/agui-gen/agui-gen/gen/a2a"
	"github.com/agui-gen/agui-gen/gen/a2a/a2atask"
	"github.com/agui-gen/agui-gen/gen/agui"
	"github.com/agui-gen/agui-gen/gen/bridge"
)

// TestThreadsAcrossProtocols: one agent over AG-UI and, through the
// bridge, over A2A, with its thread owners shared. A task's context is an
// AG-UI thread, so an A2A caller is held to its own threads: bob cannot
// reach alice's AG-UI thread by naming it as his message's context, and
// the agent learns who its caller is on both sides.
func TestThreadsAcrossProtocols(t *testing.T) {
	var mu sync.Mutex
	var seen []string
	agent := agui.AgentFunc(func(ctx context.Context, in *agui.RunAgentInput, s *agui.Stream) error {
		mu.Lock()
		seen = append(seen, agui.CallerFrom(ctx)+":"+in.ThreadID)
		mu.Unlock()
		return s.Text("ok")
	})
	caller := func(r *http.Request) (string, error) {
		user, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		if !ok || (user != "alice" && user != "bob") {
			return "", errors.New("unknown caller")
		}
		return user, nil
	}
	threads := agui.NewMemoryCheckpoints()
	aguiSrv := httptest.NewServer(agui.NewHandler(agent, agui.WithAuthenticator(caller), agui.WithCheckpoints(threads)))
	t.Cleanup(aguiSrv.Close)

	rt := a2atask.New(&bridge.Executor{Agent: agent, Options: []agui.Option{agui.WithCheckpoints(threads)}}, a2atask.NewMemory())
	t.Cleanup(func() { rt.Close() })
	a2aSrv := httptest.NewUnstartedServer(nil)
	card := &a2a.AgentCard{Name: "ok", Description: "Says ok.", Version: "1.0.0",
		SupportedInterfaces: a2a.Interfaces("http://" + a2aSrv.Listener.Addr().String()),
		Capabilities:        &a2a.AgentCapabilities{}, DefaultInputModes: []string{"text/plain"}, DefaultOutputModes: []string{"text/plain"},
		Skills: []*a2a.AgentSkill{{ID: "ok", Name: "OK", Description: "Says ok.", Tags: []string{"ok"}}}}
	h, err := a2a.NewHandler(a2a.BindA2AService(rt), card,
		a2a.WithAuthenticator(func(r *http.Request) (any, error) { return caller(r) }))
	if err != nil {
		t.Fatal(err)
	}
	a2aSrv.Config.Handler = h
	a2aSrv.Start()
	t.Cleanup(a2aSrv.Close)
	as := func(user string) *a2a.A2AServiceClient {
		return a2a.NewA2AServiceClient(a2a.NewJSONRPCTransport(a2aSrv.URL, a2a.WithHeader("Authorization", "Bearer "+user)))
	}
	ctx := context.Background()

	rs, err := (&agui.Client{URL: aguiSrv.URL, Header: http.Header{"Authorization": {"Bearer alice"}}}).Run(ctx,
		&agui.RunAgentInput{ThreadID: "alice-thread", RunID: "r1", Messages: []agui.Message{}})
	if err != nil {
		t.Fatal(err)
	}
	if err := rs.Wait(); err != nil {
		t.Fatal(err)
	}
	send := func(user, contextID string) *a2a.Task {
		t.Helper()
		msg := textMessage("hello", "")
		msg.ContextID = contextID
		resp, err := as(user).SendMessage(ctx, &a2a.SendMessageRequest{Message: msg})
		if err != nil {
			t.Fatal(err)
		}
		task, ok := resp.Payload.(*a2a.SendMessageResponseTask)
		if !ok {
			t.Fatalf("%s's message was answered with %T", user, resp.Payload)
		}
		return task.Task
	}
	if task := send("bob", "alice-thread"); task.Status.State != a2a.TaskStateFailed ||
		!strings.Contains(string(task.Status.Message.Parts[0].AppendJSON(nil)), "not found") {
		t.Errorf("bob's task on alice's thread: %s", task.AppendJSON(nil))
	}
	if task := send("alice", "alice-thread"); task.Status.State != a2a.TaskStateCompleted {
		t.Errorf("alice's task on her thread: %s", task.AppendJSON(nil))
	}
	if task := send("bob", "bob-thread"); task.Status.State != a2a.TaskStateCompleted {
		t.Errorf("bob's task on his own context: %s", task.AppendJSON(nil))
	}
	mu.Lock()
	defer mu.Unlock()
	if got := strings.Join(seen, " "); got != "alice:alice-thread alice:alice-thread bob:bob-thread" {
		t.Errorf("the agent ran for %s", got)
	}
}
