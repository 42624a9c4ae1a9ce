// Command agui-demo serves a scripted AG-UI agent at POST /agent, built on
// the generated package: no model and no network needed. Each run streams
// every event family a frontend renders: a step, reasoning, text, a tool
// call with its result, state snapshots and deltas, an activity card and a
// subagent.
//
//	go run ./examples/agui-demo --addr 127.0.0.1:8000
//	curl -N -H 'Content-Type: application/json' -d '{"threadId":"t","runId":"r","messages":[]}' http://127.0.0.1:8000/agent
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"os/signal"
	"time"

	"github.com/agui-gen/agui-gen/gen/agui"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:8000", "address to listen on (a bare :port binds 127.0.0.1)")
	delay := flag.Duration("delay", 40*time.Millisecond, "pause between text fragments, to look like a model")
	flag.Parse()

	mux := http.NewServeMux()
	mux.Handle("POST /agent", agui.NewHandler(demoAgent{delay: *delay}, agui.WithKeepAlive(15*time.Second)))
	l, err := agui.Listen(*addr)
	if err != nil {
		fmt.Fprintln(os.Stderr, "agui-demo:", err)
		os.Exit(1)
	}
	slog.Info("agui-demo: serving", "url", "http://"+l.Addr().String()+"/agent")
	// Headers, reading a request and idle connections are bounded; writing
	// is bounded by the handler, write by write, since a stream lasts as
	// long as its run.
	srv := agui.NewServer(mux)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	go func() {
		<-ctx.Done()
		shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(shutdown)
	}()
	if err := srv.Serve(l); err != nil && err != http.ErrServerClosed {
		fmt.Fprintln(os.Stderr, "agui-demo:", err)
		os.Exit(1)
	}
}

// demoAgent answers every run with the same script, adapted to the last
// user message.
type demoAgent struct{ delay time.Duration }

func (a demoAgent) Run(ctx context.Context, in *agui.RunAgentInput, s *agui.Stream) error {
	question := "the weather"
	for _, m := range in.Messages {
		if u, ok := m.(*agui.UserMessage); ok && u.Content.Text != "" {
			question = u.Content.Text
		}
	}
	pause := func() error {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(a.delay):
			return nil
		}
	}
	steps := []func() error{
		func() error { return s.StateSnapshot(json.RawMessage(`{"status":"planning","lookups":0}`)) },
		func() error { return s.StartStep("plan") },
		func() error { return s.Reasoning("The user asked about " + question + ". ") },
		func() error { return s.Reasoning("I will look it up, then answer.") },
		func() error {
			return s.ActivitySnapshot("activity_lookup", "progress", json.RawMessage(`{"title":"Looking up","percent":0}`))
		},
		func() error {
			id, err := s.ToolCall("lookup", `{"query":`+string(mustJSON(question))+`}`)
			if err != nil {
				return err
			}
			return s.ToolResult(id, `{"answer":"sunny, 21°C"}`)
		},
		func() error {
			return s.ActivityDelta("activity_lookup", "progress", &agui.ReplaceOperation{Path: "/percent", Value: json.RawMessage(`100`)})
		},
		func() error {
			return s.StateDelta(
				&agui.ReplaceOperation{Path: "/status", Value: json.RawMessage(`"answering"`)},
				&agui.ReplaceOperation{Path: "/lookups", Value: json.RawMessage(`1`)})
		},
		func() error { return s.FinishStep("plan") },
		func() error {
			sub, err := s.Subagent("fact-checker")
			if err != nil {
				return err
			}
			if err := sub.Text("Checked against a second source."); err != nil {
				return err
			}
			return sub.Finish()
		},
	}
	for _, step := range steps {
		if err := step(); err != nil {
			return err
		}
		if err := pause(); err != nil {
			return err
		}
	}
	for _, word := range []string{"About ", question, ": ", "it is ", "sunny ", "and ", "21°C."} {
		if err := s.Text(word); err != nil {
			return err
		}
		if err := pause(); err != nil {
			return err
		}
	}
	return s.StateDelta(&agui.ReplaceOperation{Path: "/status", Value: json.RawMessage(`"done"`)})
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}
