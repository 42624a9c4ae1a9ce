package a2agrpc_test

import (
	"context"
	"net"
	"strings"
	"testing"

	"google.golang.org/grpc"

	a2a "github.com/agui-gen/agui-gen/gen/a2a"
	"github.com/agui-gen/agui-gen/gen/a2a/a2agrpc"
)

// lastIDAgent refuses every subscription, naming the Last-Event-ID the
// call carried.
type lastIDAgent struct {
	a2a.UnimplementedA2AServiceServer
}

func (lastIDAgent) SubscribeToTask(ctx context.Context, _ *a2a.SubscribeToTaskRequest, _ func(*a2a.StreamResponse) error) error {
	return a2a.NewError(a2a.ErrTaskNotFound, "after ["+a2a.CallInfoFrom(ctx).LastEventID+"]")
}

// TestGRPCLastEventID: a stream called with WithLastEventID sends it as
// last-event-id metadata, which the server reads into CallInfo; a unary
// call or a stream without it sends none.
func TestGRPCLastEventID(t *testing.T) {
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := grpc.NewServer()
	a2agrpc.RegisterA2AServiceServer(s, lastIDAgent{})
	go s.Serve(lis)
	defer s.Stop()
	c := a2agrpc.NewA2AServiceClient(dial(t, lis.Addr().String()))
	for ctx, want := range map[context.Context]string{
		a2a.WithLastEventID(context.Background(), "7"): "after [7]",
		context.Background():                           "after []",
	} {
		for _, err := range c.SubscribeToTask(ctx, &a2a.SubscribeToTaskRequest{ID: "t"}) {
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("want %q, got %v", want, err)
			}
		}
	}
}
