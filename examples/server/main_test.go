package main

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agui-gen/agui-gen/gen/a2a"
	"github.com/agui-gen/agui-gen/gen/agui"
)

// startServer runs the server on a free port with its data in a temporary
// SQLite file, and returns its base URL; it stops when the test ends.
func startServer(t *testing.T, token string) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	addrs := make(chan string, 1)
	done := make(chan error, 1)
	cfg := config{addr: "127.0.0.1:0", db: filepath.Join(t.TempDir(), "server.db"), token: token}
	go func() { done <- run(ctx, cfg, slog.New(slog.DiscardHandler), func(addr string) { addrs <- addr }) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("shutdown: %v", err)
		}
	})
	select {
	case addr := <-addrs:
		return "http://" + addr
	case err := <-done:
		t.Fatalf("the server did not start: %v", err)
	}
	return ""
}

func TestAGUI(t *testing.T) {
	base := startServer(t, "secret")
	c := agui.Client{URL: base + "/agui", Header: http.Header{"Authorization": {"Bearer secret"}}}
	ctx := context.Background()

	rs, err := c.Run(ctx, &agui.RunAgentInput{ThreadID: "t1", RunID: "r1", Messages: []agui.Message{
		&agui.UserMessage{BaseMessage: agui.BaseMessage{ID: "u1"}, Content: agui.TextContent("What is the weather in Paris?")}}})
	if err != nil {
		t.Fatal(err)
	}
	if err := rs.Wait(); err != nil {
		t.Fatal(err)
	}
	msgs := rs.Messages()
	last, ok := msgs[len(msgs)-1].(*agui.AssistantMessage)
	if !ok || last.Content == nil || !strings.Contains(*last.Content, "sunny") {
		t.Fatalf("answer: %+v", msgs)
	}

	// Feedback on the answer, then a run that asks before deleting and the
	// run that answers it.
	if _, err := c.SendMeta(ctx, "t1", "r1", agui.NewThumbsUpMeta(last.ID)); err != nil {
		t.Fatal(err)
	}
	if page, err := c.Meta(ctx, agui.MetaQuery{ThreadID: "t1"}); err != nil || len(page.Events) != 1 {
		t.Fatalf("stored feedback: %+v %v", page, err)
	}
	ask := &agui.RunAgentInput{ThreadID: "t2", RunID: "r2", Messages: []agui.Message{
		&agui.UserMessage{BaseMessage: agui.BaseMessage{ID: "u2"}, Content: agui.TextContent("Delete the draft")}}}
	if outcome := finish(t, &c, ask); outcome == nil || len(outcome.Interrupts) != 1 {
		t.Fatalf("want an interrupt, got %+v", outcome)
	}
	resume := &agui.RunAgentInput{ThreadID: "t2", RunID: "r3", Messages: ask.Messages,
		Resume: []agui.ResumeEntry{{InterruptID: "confirm-delete", Status: agui.ResumeEntryStatusResolved, Payload: []byte("true")}}}
	finish(t, &c, resume)

	if _, err := (&agui.Client{URL: base + "/agui"}).Capabilities(ctx); err == nil {
		t.Error("a caller without the token was served")
	}
}

// finish runs in to its end and returns its interrupt outcome, if any.
func finish(t *testing.T, c *agui.Client, in *agui.RunAgentInput) *agui.RunFinishedInterruptOutcome {
	t.Helper()
	rs, err := c.Run(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	var outcome *agui.RunFinishedInterruptOutcome
	for {
		ev, err := rs.Next()
		if errors.Is(err, io.EOF) {
			return outcome
		}
		if err != nil {
			t.Fatal(err)
		}
		if f, ok := ev.(*agui.RunFinishedEvent); ok {
			outcome, _ = f.Outcome.(*agui.RunFinishedInterruptOutcome)
		}
	}
}

func TestA2A(t *testing.T) {
	base := startServer(t, "secret")
	ctx := context.Background()
	card, err := a2a.ResolveCard(ctx, base)
	if err != nil {
		t.Fatal(err)
	}
	for _, transport := range []a2a.Transport{
		a2a.NewJSONRPCTransport(base, a2a.WithHeader("Authorization", "Bearer secret")),
		a2a.NewRESTTransport(base, a2a.WithHeader("Authorization", "Bearer secret")),
	} {
		c := a2a.NewA2AServiceClient(transport)
		var text strings.Builder
		var state a2a.TaskState
		for ev, err := range c.SendStreamingMessage(ctx, &a2a.SendMessageRequest{Message: &a2a.Message{
			MessageID: "m1", Role: a2a.RoleUser, Parts: []*a2a.Part{{Content: &a2a.PartText{Text: "What is the weather in Paris?"}}}}}) {
			if err != nil {
				t.Fatal(err)
			}
			switch ev := ev.Payload.(type) {
			case *a2a.StreamResponseArtifactUpdate:
				for _, p := range ev.ArtifactUpdate.Artifact.Parts {
					if tp, ok := p.Content.(*a2a.PartText); ok {
						text.WriteString(tp.Text)
					}
				}
			case *a2a.StreamResponseStatusUpdate:
				state = ev.StatusUpdate.Status.State
			}
		}
		if state != a2a.TaskStateCompleted || !strings.Contains(text.String(), "sunny") {
			t.Errorf("%s: %v %q", card.Name, state, text.String())
		}
	}
	_, err = a2a.NewA2AServiceClient(a2a.NewJSONRPCTransport(base)).GetTask(ctx, &a2a.GetTaskRequest{ID: "x"})
	if err == nil {
		t.Error("a caller without the token was served")
	}
}
