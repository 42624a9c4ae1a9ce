package a2agrpc_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	a2a "github.com/agui-gen/agui-gen/gen/a2a"
	"github.com/agui-gen/agui-gen/gen/a2a/a2agrpc"
)

// serveBounded serves srv on a server built with ServerOptions(opts...),
// registered with register, and returns its address.
func serveBounded(t *testing.T, srv a2a.A2AServiceServer, opts []a2agrpc.ServerOption, register ...a2agrpc.ServerOption) string {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := grpc.NewServer(a2agrpc.ServerOptions(opts...)...)
	a2agrpc.RegisterA2AServiceServer(s, srv, register...)
	go s.Serve(lis)
	t.Cleanup(s.Stop)
	return lis.Addr().String()
}

// principalAgent answers GetTask with TASK_NOT_FOUND naming the principal
// of the call.
type principalAgent struct {
	a2a.UnimplementedA2AServiceServer
}

func (principalAgent) GetTask(ctx context.Context, _ *a2a.GetTaskRequest) (*a2a.Task, error) {
	return nil, a2a.NewError(a2a.ErrTaskNotFound, fmt.Sprintf("principal %v", a2a.CallInfoFrom(ctx).Principal))
}

// TestServerOptionsAuthenticateFirst: with ServerOptions, a call without
// credentials is refused as soon as its headers arrive, before the client
// has sent its message, even by a binding registered without the
// authenticator; a call with them is authenticated once, the binding
// taking the principal found then, whether or not it has the
// authenticator too; a message over the HTTP body limit is refused.
func TestServerOptionsAuthenticateFirst(t *testing.T) {
	var calls atomic.Int32
	auth := a2agrpc.WithAuthenticator(func(ctx context.Context, md metadata.MD) (any, error) {
		calls.Add(1)
		if v := md.Get("authorization"); len(v) != 1 || v[0] != "Bearer k" {
			return nil, errors.New("no key")
		}
		return "bot", nil
	})
	for name, register := range map[string][]a2agrpc.ServerOption{"the binding without it": nil, "the binding with it": {auth}} {
		t.Run(name, func(t *testing.T) {
			conn := dial(t, serveBounded(t, principalAgent{}, []a2agrpc.ServerOption{auth}, register...))
			ctx := metadata.AppendToOutgoingContext(context.Background(), "a2a-version", a2a.ProtocolVersion)

			// A stream opened on a unary method, whose message is never sent.
			stream, err := conn.NewStream(ctx, &grpc.StreamDesc{ClientStreams: true, ServerStreams: true}, a2a.A2AService.Methods[2].FullMethod)
			if err != nil {
				t.Fatal(err)
			}
			if err := stream.RecvMsg(new(a2a.Task)); status.Code(err) != codes.Unauthenticated || !strings.Contains(err.Error(), "no key") {
				t.Errorf("a call without credentials, its message unsent: %v", err)
			}
			if _, err := a2agrpc.NewA2AServiceClient(conn).GetTask(ctx, &a2a.GetTaskRequest{ID: "x"}); !errors.Is(err, a2a.ErrUnauthenticated) {
				t.Errorf("a call without credentials through the client: %v", err)
			}

			calls.Store(0)
			authed := a2agrpc.NewA2AServiceClient(conn, a2agrpc.WithMetadata("authorization", "Bearer k"))
			if _, err := authed.GetTask(ctx, &a2a.GetTaskRequest{ID: "x"}); !errors.Is(err, a2a.ErrTaskNotFound) || !strings.Contains(err.Error(), "principal bot") {
				t.Errorf("an authenticated call: %v", err)
			}
			if n := calls.Load(); n != 1 {
				t.Errorf("the call was authenticated %d times", n)
			}

			big := &a2a.SendMessageRequest{Message: &a2a.Message{MessageID: "m", Role: a2a.RoleUser,
				Parts: []*a2a.Part{{Content: &a2a.PartText{Text: strings.Repeat("a", a2agrpc.DefaultMaxRecvMsgSize)}}}}}
			if _, err := authed.SendMessage(ctx, big); err == nil || !strings.Contains(err.Error(), "larger than max") {
				t.Errorf("a message over the limit: %v", err)
			}
		})
	}
}

// blockingAgent streams nothing until release.
type blockingAgent struct {
	a2a.UnimplementedA2AServiceServer
	started, release chan struct{}
}

func (a *blockingAgent) SendStreamingMessage(ctx context.Context, _ *a2a.SendMessageRequest, _ func(*a2a.StreamResponse) error) error {
	a.started <- struct{}{}
	select {
	case <-a.release:
	case <-ctx.Done():
	}
	return nil
}

// TestMaxStreams: a streaming call over the binding's cap is refused with
// UNAVAILABLE; once a stream ends, its slot serves the next.
func TestMaxStreams(t *testing.T) {
	agent := &blockingAgent{started: make(chan struct{}, 2), release: make(chan struct{})}
	addr := serveBounded(t, agent, nil, a2agrpc.WithMaxStreams(1))
	c := a2agrpc.NewA2AServiceClient(dial(t, addr))
	req := &a2a.SendMessageRequest{Message: &a2a.Message{MessageID: "m", Role: a2a.RoleUser, Parts: []*a2a.Part{{Content: &a2a.PartText{Text: "hi"}}}}}

	first := make(chan error, 1)
	go func() {
		var last error
		for _, err := range c.SendStreamingMessage(context.Background(), req) {
			last = err
		}
		first <- last
	}()
	<-agent.started
	// Bounded, so that a stream admitted over the cap fails the test
	// instead of waiting for the release.
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	var over error
	for _, err := range c.SendStreamingMessage(ctx, req) {
		if over = err; err != nil {
			break
		}
	}
	if over == nil || !strings.Contains(over.Error(), "as many streams") {
		t.Errorf("a stream over the cap: %v", over)
	}
	close(agent.release)
	if err := <-first; err != nil {
		t.Fatalf("the first stream: %v", err)
	}
	for _, err := range c.SendStreamingMessage(context.Background(), req) {
		t.Errorf("a stream once the first ended: %v", err)
	}
}
