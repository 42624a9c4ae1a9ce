package aguirt

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"

	agui "github.com/agui-gen/agui-gen/gen/agui"
)

// TestBearerSchemeInAnyCase: RFC 9110 makes the scheme case-insensitive,
// as the A2A side already takes it.
func TestBearerSchemeInAnyCase(t *testing.T) {
	h := NewHandler(AgentFunc(func(context.Context, *agui.RunAgentInput, *Stream) error { return nil }),
		WithBearerToken("s3cret"), WithLogger(quietLogger()))
	for auth, want := range map[string]int{
		"Bearer s3cret": http.StatusOK, "bearer s3cret": http.StatusOK, "BEARER s3cret": http.StatusOK,
		"Bearer S3CRET": http.StatusUnauthorized, "Basic s3cret": http.StatusUnauthorized, "s3cret": http.StatusUnauthorized,
		"Bearer": http.StatusUnauthorized, "": http.StatusUnauthorized,
	} {
		if got := post(t, h, runInput, map[string]string{"Authorization": auth}).Code; got != want {
			t.Errorf("Authorization %q: %d, want %d", auth, got, want)
		}
	}
}

// TestInvokeHoldsTheThreadToItsCaller: a run started in process for a
// caller (the bridge's A2A principal) is held to the thread's owner as a
// handler's run is.
func TestInvokeHoldsTheThreadToItsCaller(t *testing.T) {
	owners := agui.NewMemoryCheckpoints()
	ran := 0
	agent := AgentFunc(func(ctx context.Context, in *agui.RunAgentInput, s *Stream) error {
		ran++
		if agui.CallerFrom(ctx) != "alice" {
			t.Errorf("the agent's caller is %q", agui.CallerFrom(ctx))
		}
		return nil
	})
	invoke := func(ctx context.Context) error {
		return Invoke(ctx, agent, runInThread("t1", NewID("run")), func(agui.Event) error { return nil }, WithCheckpoints(owners))
	}
	if err := invoke(agui.ContextWithCaller(context.Background(), "alice")); err != nil {
		t.Fatal(err)
	}
	if err := invoke(agui.ContextWithCaller(context.Background(), "bob")); !errors.Is(err, agui.ErrThreadNotFound) {
		t.Errorf("bob's run on alice's thread: %v", err)
	}
	// Without a caller nothing is held: the in-process caller decides.
	if err := Invoke(context.Background(), AgentFunc(func(context.Context, *agui.RunAgentInput, *Stream) error { return nil }),
		runInThread("t1", "r"), func(agui.Event) error { return nil }, WithCheckpoints(owners)); err != nil {
		t.Errorf("a run without a caller: %v", err)
	}
	if ran != 1 {
		t.Errorf("the agent ran %d times", ran)
	}
}

// TestRunThreadIDsAStoreCannotKeep: with state kept per thread, a thread
// id no store could keep as a key (too long, or holding NUL) is the
// request's fault, 400, not the store's 500.
func TestRunThreadIDsAStoreCannotKeep(t *testing.T) {
	h := NewHandler(AgentFunc(func(context.Context, *agui.RunAgentInput, *Stream) error { return nil }),
		WithCheckpoints(agui.NewMemoryCheckpoints()), WithLogger(quietLogger()))
	for _, id := range []string{strings.Repeat("t", MaxMetaKeyBytes+1), "t\x00"} {
		body := string((&agui.RunAgentInput{ThreadID: id, RunID: "r", Messages: []agui.Message{}}).AppendJSON(nil))
		if rec := post(t, h, body, nil); rec.Code != http.StatusBadRequest || !strings.Contains(rec.Body.String(), `"path":"/threadId"`) {
			t.Errorf("thread id %.20q: %d %s", id, rec.Code, rec.Body)
		}
	}
	if rec := post(t, h, runInput, nil); rec.Code != http.StatusOK {
		t.Errorf("an ordinary run: %d", rec.Code)
	}
}
