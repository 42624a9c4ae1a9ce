package a2agrpc_test

import (
	"context"
	"errors"
	"net"
	"strings"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/wrapperspb"

	"github.com/agui-gen/agui-gen/examples/a2a-demo/echo"
	a2a "github.com/agui-gen/agui-gen/gen/a2a"
	"github.com/agui-gen/agui-gen/gen/a2a/a2agrpc"
	"github.com/agui-gen/agui-gen/gen/a2a/a2av03pb"
)

// TestGRPCHeldToTheCard: WithAgentCard holds gRPC calls to the card as the
// HTTP bindings are held (A2A §3.3.4), and the version of a call is
// negotiated before anything else, its message and its method included.
func TestGRPCHeldToTheCard(t *testing.T) {
	const ext = "https://example.com/ext/consent/v1"
	card := echo.Card("http://127.0.0.1:1")
	card.Capabilities.Streaming = nil
	card.Capabilities.Extensions = []*a2a.AgentExtension{{URI: ext, Required: true}}
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	// 0.3's service turned off: its calls are refused as the version's.
	opts := []a2agrpc.ServerOption{a2agrpc.WithAgentCard(card), a2agrpc.WithEarlierVersions()}
	s := grpc.NewServer(a2agrpc.UnknownServiceHandler(opts...))
	a2agrpc.RegisterA2AServiceServer(s, echo.New(), opts...)
	go s.Serve(lis)
	t.Cleanup(s.Stop)
	conn := dial(t, lis.Addr().String())
	ctx := context.Background()

	if _, err := a2agrpc.NewA2AServiceClient(conn).GetTask(ctx, &a2a.GetTaskRequest{ID: "x"}); !errors.Is(err, a2a.ErrExtensionSupportRequired) {
		t.Errorf("GetTask without the required extension: %v", err)
	}
	named := a2agrpc.NewA2AServiceClient(conn, a2agrpc.WithMetadata("a2a-extensions", ext))
	if _, err := named.GetTask(ctx, &a2a.GetTaskRequest{ID: "x"}); !errors.Is(err, a2a.ErrTaskNotFound) {
		t.Errorf("GetTask with it: %v", err)
	}
	for _, err := range named.SendStreamingMessage(ctx, &a2a.SendMessageRequest{Message: &a2a.Message{MessageID: "m", Role: a2a.RoleUser,
		Parts: []*a2a.Part{{Content: &a2a.PartText{Text: "hi"}}}}}) {
		if !errors.Is(err, a2a.ErrUnsupportedOperation) {
			t.Errorf("a stream from an agent that does not stream: %v", err)
		}
	}

	// A message GetTaskRequest cannot hold (its tenant is not UTF-8), sent
	// without a2a-version: the version is refused first.
	bad := &wrapperspb.BytesValue{Value: []byte{0xff}}
	err = conn.Invoke(ctx, a2a.A2AService.Methods[2].FullMethod, bad, new(a2a.Task))
	if st, _ := status.FromError(err); st.Code() != codes.FailedPrecondition || !strings.Contains(st.Message(), "names no A2A-Version, which A2A reads as version 0.3 (A2A §3.6.2), and this agent speaks 1.0 here: send the header A2A-Version: 1.0") {
		t.Errorf("an unreadable message without a version: %v", err)
	}
	versioned := metadata.AppendToOutgoingContext(ctx, "a2a-version", "1.0")
	if err := conn.Invoke(versioned, a2a.A2AService.Methods[2].FullMethod, bad, new(a2a.Task)); status.Code(err) != codes.InvalidArgument {
		t.Errorf("an unreadable message at 1.0: %v", err)
	}
	// A v0.3 client's service, and an unknown method of this one.
	for _, method := range []string{"/a2a.v1.A2AService/GetTask", "/lf.a2a.v1.A2AService/NoSuchMethod"} {
		if err := conn.Invoke(ctx, method, bad, new(a2a.Task)); status.Code(err) != codes.FailedPrecondition {
			t.Errorf("%s without a version: %v", method, err)
		}
		if err := conn.Invoke(versioned, method, bad, new(a2a.Task)); status.Code(err) != codes.Unimplemented {
			t.Errorf("%s at 1.0: %v", method, err)
		}
	}
	if err := conn.Invoke(ctx, "/grpc.health.v1.Health/Check", bad, new(a2a.Task)); status.Code(err) != codes.Unimplemented {
		t.Errorf("another service: %v", err)
	}
}

// TestGRPCEarlierVersion: 0.3's service, a2a.v1.A2AService, is served
// beside 1.0's by default, its messages 0.3's proto (tasks named
// "tasks/{id}"), with the same service behind it, held to the same card.
func TestGRPCEarlierVersion(t *testing.T) {
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	card := echo.Card("http://127.0.0.1:1")
	card.Capabilities.Streaming = nil
	s := grpc.NewServer(a2agrpc.UnknownServiceHandler())
	a2agrpc.RegisterA2AServiceServer(s, echo.New(), a2agrpc.WithAgentCard(card))
	go s.Serve(lis)
	t.Cleanup(s.Stop)
	conn := dial(t, lis.Addr().String())
	ctx := context.Background()

	sent := new(a2av03pb.SendMessageResponse)
	req := &a2av03pb.SendMessageRequest{Request: &a2av03pb.Message{MessageID: "m-1", Role: a2av03pb.RoleUser,
		Content: []*a2av03pb.Part{{Part: &a2av03pb.PartText{Text: "hello"}}}}}
	if err := conn.Invoke(ctx, "/a2a.v1.A2AService/SendMessage", req, sent); err != nil {
		t.Fatalf("SendMessage at 0.3: %v", err)
	}
	task, ok := sent.Payload.(*a2av03pb.SendMessageResponseTask)
	if !ok || task.Task.Status.State != a2av03pb.TaskStateCompleted || len(task.Task.Artifacts) != 1 {
		t.Fatalf("SendMessage at 0.3: %s", sent.AppendJSON(nil))
	}
	got := new(a2av03pb.Task)
	if err := conn.Invoke(ctx, "/a2a.v1.A2AService/GetTask", &a2av03pb.GetTaskRequest{Name: "tasks/" + task.Task.ID}, got); err != nil || got.ID != task.Task.ID {
		t.Fatalf("GetTask at 0.3: %v %s", err, got.AppendJSON(nil))
	}
	for name, code := range map[string]codes.Code{"tasks/no-such-task": codes.NotFound, "no-such-task": codes.InvalidArgument} {
		err := conn.Invoke(ctx, "/a2a.v1.A2AService/GetTask", &a2av03pb.GetTaskRequest{Name: name}, new(a2av03pb.Task))
		if st, _ := status.FromError(err); st.Code() != code || (code == codes.InvalidArgument && !strings.Contains(st.Message(), "/name")) {
			t.Errorf("GetTask of %q: %v", name, err)
		}
	}
	stream, err := conn.NewStream(ctx, &grpc.StreamDesc{ServerStreams: true}, "/a2a.v1.A2AService/SendStreamingMessage")
	if err != nil {
		t.Fatal(err)
	}
	if err := stream.SendMsg(req); err != nil {
		t.Fatal(err)
	}
	stream.CloseSend()
	if err := stream.RecvMsg(new(a2av03pb.StreamResponse)); status.Code(err) != codes.Unimplemented {
		t.Errorf("a stream from an agent whose card does not stream: %v", err)
	}
	versioned := metadata.AppendToOutgoingContext(ctx, "a2a-version", "1.0")
	if err := conn.Invoke(versioned, "/a2a.v1.A2AService/GetTask", &a2av03pb.GetTaskRequest{Name: "tasks/x"}, new(a2av03pb.Task)); status.Code(err) != codes.FailedPrecondition {
		t.Errorf("0.3's service called at 1.0: %v", err)
	}
}
