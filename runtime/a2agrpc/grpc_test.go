// The tests of this package exercise it through gen/a2a/a2agrpc, as users
// call it: regenerate (agui-gen generate --out gen) after changing the
// generator's emitGRPCBinding.

package a2agrpc_test

import (
	"context"
	"errors"
	"net"
	"strings"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	"github.com/agui-gen/agui-gen/examples/a2a-demo/echo"
	a2a "github.com/agui-gen/agui-gen/gen/a2a"
	"github.com/agui-gen/agui-gen/gen/a2a/a2agrpc"
)

// serveGRPC serves the echo agent over gRPC on loopback and returns its
// address.
func serveGRPC(t *testing.T, opts ...a2agrpc.ServerOption) string {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := grpc.NewServer()
	a2agrpc.RegisterA2AServiceServer(s, echo.New(), opts...)
	go s.Serve(lis)
	t.Cleanup(s.Stop)
	return lis.Addr().String()
}

func dial(t *testing.T, addr string) *grpc.ClientConn {
	t.Helper()
	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return conn
}

func TestGRPCRoundTrip(t *testing.T) {
	addr := serveGRPC(t)
	c := a2agrpc.NewA2AServiceClient(dial(t, addr))
	ctx := context.Background()
	msg := &a2a.Message{MessageID: "m1", Role: a2a.RoleUser, Parts: []*a2a.Part{{Content: &a2a.PartText{Text: "over grpc"}}}}
	resp, err := c.SendMessage(ctx, &a2a.SendMessageRequest{Message: msg})
	if err != nil {
		t.Fatal(err)
	}
	task := resp.Payload.(*a2a.SendMessageResponseTask).Task
	if task.Status.State != a2a.TaskStateCompleted || task.Artifacts[0].Parts[0].Content.(*a2a.PartText).Text != "over grpc" {
		t.Fatalf("task %s", task.AppendJSON(nil))
	}
	if _, err := c.GetTask(ctx, &a2a.GetTaskRequest{ID: "missing"}); !errors.Is(err, a2a.ErrTaskNotFound) {
		t.Fatalf("GetTask: %v", err)
	}
	if _, err := c.GetTask(ctx, &a2a.GetTaskRequest{}); !errors.Is(err, a2a.ErrInvalidParams) {
		t.Fatalf("GetTask without id: %v", err)
	} else if re := new(a2a.RPCError); !errors.As(err, &re) || len(re.Violations) != 1 || re.Violations[0].Field != "id" {
		t.Fatalf("violations: %+v", re)
	}
	var states []string
	for ev, err := range c.SendStreamingMessage(ctx, &a2a.SendMessageRequest{Message: msg}) {
		if err != nil {
			t.Fatal(err)
		}
		if u, ok := ev.Payload.(*a2a.StreamResponseStatusUpdate); ok {
			states = append(states, u.StatusUpdate.Status.State.String())
		}
	}
	if strings.Join(states, " ") != "TASK_STATE_WORKING TASK_STATE_COMPLETED" {
		t.Fatalf("states %v", states)
	}
	for _, err := range c.SubscribeToTask(ctx, &a2a.SubscribeToTaskRequest{ID: task.ID}) {
		if !errors.Is(err, a2a.ErrUnsupportedOperation) {
			t.Fatalf("SubscribeToTask: %v", err)
		}
	}
}

func TestGRPCStatusAndVersion(t *testing.T) {
	addr := serveGRPC(t)
	conn := dial(t, addr)
	// A raw call without a2a-version is a 0.3 call, which this server refuses.
	err := conn.Invoke(context.Background(), a2a.A2AService.Methods[2].FullMethod, &a2a.GetTaskRequest{ID: "x"}, new(a2a.Task))
	st, _ := status.FromError(err)
	if st.Code() != codes.FailedPrecondition || !strings.Contains(st.Message(), "names no A2A-Version, which A2A reads as version 0.3 (A2A §3.6.2), and this agent speaks 1.0 here: send the header A2A-Version: 1.0") {
		t.Fatalf("no version: %v", err)
	}
	if len(st.Details()) != 1 {
		t.Fatalf("details: %v", st.Details())
	}
	_, err = a2agrpc.NewA2AServiceClient(conn).GetTask(context.Background(), &a2a.GetTaskRequest{ID: "x"})
	st, _ = status.FromError(err)
	if !errors.Is(err, a2a.ErrTaskNotFound) {
		t.Fatalf("GetTask: %v (%v)", err, st)
	}
}

func TestGRPCFromCard(t *testing.T) {
	addr := serveGRPC(t, a2agrpc.WithAuthenticator(func(ctx context.Context, md metadata.MD) (any, error) {
		if v := md.Get("authorization"); len(v) != 1 || v[0] != "Bearer k" {
			return nil, errors.New("no key")
		}
		return "bot", nil
	}))
	card := echo.Card("http://127.0.0.1:1")
	card.SupportedInterfaces = append([]*a2a.AgentInterface{{URL: addr, ProtocolBinding: a2a.BindingGRPC, ProtocolVersion: "1.0"}}, card.SupportedInterfaces...)
	// The client's headers go as metadata.
	tr, iface, err := a2a.NewTransportFromCard(card, a2agrpc.WithGRPC(grpc.WithTransportCredentials(insecure.NewCredentials())),
		a2a.WithHeader("Authorization", "Bearer k"))
	if err != nil || iface.ProtocolBinding != a2a.BindingGRPC {
		t.Fatalf("%v %v", err, iface)
	}
	defer tr.(interface{ Close() error }).Close()
	_, err = a2a.NewA2AServiceClient(tr).GetTask(context.Background(), &a2a.GetTaskRequest{ID: "x"})
	if !errors.Is(err, a2a.ErrTaskNotFound) {
		t.Fatalf("GetTask: %v", err)
	}
}
