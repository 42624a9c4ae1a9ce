package a2agrpc_test

import (
	"context"
	"net"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/test/bufconn"

	a2a "github.com/agui-gen/agui-gen/gen/a2a"
	"github.com/agui-gen/agui-gen/gen/a2a/a2agrpc"
)

// benchAgent answers from memory, so that the benchmarks measure the
// binding: a call's admission, codec, invocation and status.
type benchAgent struct {
	a2a.UnimplementedA2AServiceServer
	task   *a2a.Task
	events int
}

func (a *benchAgent) GetTask(context.Context, *a2a.GetTaskRequest) (*a2a.Task, error) {
	return a.task, nil
}

func (a *benchAgent) SendStreamingMessage(_ context.Context, _ *a2a.SendMessageRequest, send func(*a2a.StreamResponse) error) error {
	ev := &a2a.StreamResponse{Payload: &a2a.StreamResponseStatusUpdate{StatusUpdate: &a2a.TaskStatusUpdateEvent{
		TaskID: a.task.ID, ContextID: a.task.ContextID, Status: a.task.Status}}}
	for range a.events {
		if err := send(ev); err != nil {
			return err
		}
	}
	return nil
}

// benchClient serves agent in memory (bufconn) and returns a client of it.
func benchClient(b *testing.B, agent *benchAgent) *a2a.A2AServiceClient {
	b.Helper()
	lis := bufconn.Listen(1 << 20)
	s := grpc.NewServer()
	a2agrpc.RegisterA2AServiceServer(s, agent)
	go s.Serve(lis)
	b.Cleanup(s.Stop)
	conn, err := grpc.NewClient("passthrough:///bufnet", grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) { return lis.DialContext(ctx) }))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { conn.Close() })
	return a2agrpc.NewA2AServiceClient(conn)
}

func benchTask() *a2a.Task {
	return &a2a.Task{ID: "t1", ContextID: "c1", Status: &a2a.TaskStatus{State: a2a.TaskStateWorking}}
}

// BenchmarkGRPCUnary is one GetTask round trip.
func BenchmarkGRPCUnary(b *testing.B) {
	c := benchClient(b, &benchAgent{task: benchTask()})
	ctx := context.Background()
	req := &a2a.GetTaskRequest{ID: "t1"}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.GetTask(ctx, req); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkGRPCStream is one SendStreamingMessage call of 100 events.
func BenchmarkGRPCStream(b *testing.B) {
	c := benchClient(b, &benchAgent{task: benchTask(), events: 100})
	ctx := context.Background()
	req := &a2a.SendMessageRequest{Message: &a2a.Message{MessageID: "m", Role: a2a.RoleUser,
		Parts: []*a2a.Part{{Content: &a2a.PartText{Text: "hi"}}}}}
	b.ReportAllocs()
	for b.Loop() {
		for _, err := range c.SendStreamingMessage(ctx, req) {
			if err != nil {
				b.Fatal(err)
			}
		}
	}
}
