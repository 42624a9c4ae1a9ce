// Command a2areplica is one replica of an A2A server on the task runtime,
// for the replica and restart tests (interop/a2atask_test.go): it serves
// JSON-RPC and HTTP+JSON on loopback over a shared store, prints its URL,
// and serves until it is killed or its stdin closes.
//
//	a2areplica -store postgres://… | -store sqlite:/path/tasks.db  [-steps 40 -every 50ms] [-push 5s]
//
// Its executor writes one artifact per step and completes, so a test can
// watch a task run for a while, from any replica. With -push it sends push
// notifications (to any address: the tests' webhooks are on loopback),
// one attempt each, timed out after the given time.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/agui-gen/agui-gen/gen/a2a"
	"github.com/agui-gen/agui-gen/gen/a2a/a2atask"
	"github.com/agui-gen/agui-gen/gen/a2a/a2atask/pgstore"
	"github.com/agui-gen/agui-gen/gen/a2a/a2atask/sqlitestore"
)

func main() {
	storeURL := flag.String("store", "", "postgres://… DSN, or sqlite:PATH")
	steps := flag.Int("steps", 40, "artifacts each task writes")
	every := flag.Duration("every", 50*time.Millisecond, "pause between artifacts")
	lease := flag.Duration("lease", 30*time.Second, "task lease: orphaned tasks fail after it")
	push := flag.Duration("push", 0, "send push notifications, each timed out after this (0: none)")
	flag.Parse()
	slog.SetDefault(slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err := run(*storeURL, *steps, *every, *lease, *push); err != nil {
		fmt.Fprintln(os.Stderr, "a2areplica:", err)
		os.Exit(1)
	}
}

func run(storeURL string, steps int, every, lease, push time.Duration) error {
	ctx := context.Background()
	var store a2atask.Store
	var err error
	switch {
	case strings.HasPrefix(storeURL, "sqlite:"):
		store, err = sqlitestore.Open(ctx, strings.TrimPrefix(storeURL, "sqlite:"), sqlitestore.WithPollInterval(20*time.Millisecond))
	case strings.HasPrefix(storeURL, "postgres"):
		store, err = pgstore.Open(ctx, storeURL)
	default:
		err = fmt.Errorf("-store %q: want postgres://… or sqlite:PATH", storeURL)
	}
	if err != nil {
		return err
	}
	exec := a2atask.ExecutorFunc(func(ctx context.Context, r *a2atask.Run) error {
		if err := r.Working(nil); err != nil {
			return err
		}
		for i := range steps {
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(every):
			}
			if err := r.Artifact(&a2a.Artifact{ArtifactID: "step-" + strconv.Itoa(i),
				Parts: []*a2a.Part{{Content: &a2a.PartText{Text: strconv.Itoa(i)}}}}, false, true); err != nil {
				return err
			}
		}
		return nil
	})
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	base := "http://" + l.Addr().String()
	card := &a2a.AgentCard{Name: "replica", Description: "a replica of the task runtime", Version: "1",
		SupportedInterfaces: a2a.Interfaces(base), Capabilities: &a2a.AgentCapabilities{Streaming: new(true)},
		DefaultInputModes: []string{"text/plain"}, DefaultOutputModes: []string{"text/plain"},
		Skills: []*a2a.AgentSkill{{ID: "steps", Name: "steps", Description: "writes artifacts", Tags: []string{"test"}}}}
	opts := []a2atask.Option{a2atask.WithLease(lease)}
	if push > 0 {
		opts = append(opts, a2atask.WithPushNotifications(store.(a2atask.PushOutbox),
			a2atask.NewPushSender(a2atask.WithPrivateNetworks(), a2atask.WithAttempts(1, 0), a2atask.WithPushTimeout(push))))
		card.Capabilities.PushNotifications = new(true)
	}
	h, err := a2a.NewHandler(a2a.BindA2AService(a2atask.New(exec, store, opts...)), card)
	if err != nil {
		return err
	}
	fmt.Println(base)
	go func() {
		io.Copy(io.Discard, os.Stdin)
		os.Exit(0)
	}()
	return http.Serve(l, h)
}
