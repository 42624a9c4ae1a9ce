package examples_test

import (
	"context"
	"net/http"
	"strings"
	"syscall"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/agui-gen/agui-gen/gen/a2a"
	"github.com/agui-gen/agui-gen/gen/a2a/a2agrpc"
	"github.com/agui-gen/agui-gen/gen/agui"
	"github.com/agui-gen/agui-gen/templates/a2atask/storetest"
)

// TestExampleServerOnPostgres runs the scaffolded server on PostgreSQL
// (--db postgres://…) with gRPC on: an A2A task over gRPC and feedback over
// AG-UI are there after a restart, read over JSON-RPC and AG-UI.
func TestExampleServerOnPostgres(t *testing.T) {
	if testing.Short() {
		t.Skip("skipping the example server on PostgreSQL in -short mode")
	}
	dsn := storetest.PostgresDatabase(t)
	ctx := context.Background()
	server, base := startExampleServer(t, "--db", dsn, "--grpc-addr", "127.0.0.1:0", "--pace", "0")

	card, err := a2a.ResolveCard(ctx, base)
	if err != nil {
		t.Fatal(err)
	}
	var grpcAddr string
	for _, i := range card.SupportedInterfaces {
		if i.ProtocolBinding == a2a.BindingGRPC {
			grpcAddr = i.URL
		}
	}
	if grpcAddr == "" {
		t.Fatalf("the card lists no gRPC interface: %+v", card.SupportedInterfaces)
	}
	conn, err := grpc.NewClient(grpcAddr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	resp, err := a2agrpc.NewA2AServiceClient(conn).SendMessage(ctx, &a2a.SendMessageRequest{Message: &a2a.Message{
		MessageID: "m1", Role: a2a.RoleUser, Parts: []*a2a.Part{{Content: &a2a.PartText{Text: "What is the weather in Paris?"}}}}})
	if err != nil {
		t.Fatal(err)
	}
	task, ok := resp.Payload.(*a2a.SendMessageResponseTask)
	if !ok || task.Task.Status.State != a2a.TaskStateCompleted {
		t.Fatalf("over gRPC: %+v", resp.Payload)
	}
	c := agui.Client{URL: base + "/agui"}
	if _, err := c.SendMeta(ctx, "t1", "", agui.NewRatingMeta("a1", 5)); err != nil {
		t.Fatal(err)
	}

	server.Process.Signal(syscall.SIGTERM)
	if err := server.Wait(); err != nil {
		t.Fatalf("the server's exit after SIGTERM: %v", err)
	}
	_, base = startExampleServer(t, "--db", dsn)
	got, err := a2a.NewA2AServiceClient(a2a.NewJSONRPCTransport(base)).GetTask(ctx, &a2a.GetTaskRequest{ID: task.Task.ID})
	if err != nil || got.Status.State != a2a.TaskStateCompleted {
		t.Fatalf("the task after a restart: %+v %v", got, err)
	}
	var answer strings.Builder
	for _, art := range got.Artifacts {
		for _, p := range art.Parts {
			if tp, ok := p.Content.(*a2a.PartText); ok {
				answer.WriteString(tp.Text)
			}
		}
	}
	if !strings.Contains(answer.String(), "sunny") {
		t.Errorf("the task's artifacts: %q", answer.String())
	}
	page, err := (&agui.Client{URL: base + "/agui", HTTPClient: http.DefaultClient}).Meta(ctx, agui.MetaQuery{ThreadID: "t1"})
	if err != nil || len(page.Events) != 1 {
		t.Errorf("feedback after a restart: %+v %v", page, err)
	}
}
