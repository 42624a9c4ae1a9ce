package a2a_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"net/http/httptest"

	a2a "github.com/agui-gen/agui-gen/gen/a2a"
)

// Messages read and write ProtoJSON and protobuf binary without
// reflection, and validate the proto's REQUIRED fields; the service
// descriptor lists each RPC with its gRPC path and HTTP bindings.
func ExampleStreamResponse_UnmarshalJSON() {
	msg := &a2a.Message{MessageID: "m1", Role: a2a.RoleUser, Parts: []*a2a.Part{
		{Content: &a2a.PartText{Text: "What is the weather in Paris?"}},
	}}
	body := (&a2a.SendMessageRequest{Message: msg}).AppendJSON(nil)
	fmt.Println(string(body))

	data := []byte(`{"statusUpdate":{"taskId":"t1","contextId":"c1","status":{"state":"TASK_STATE_WORKING"}}}`)
	var resp a2a.StreamResponse
	if err := resp.UnmarshalJSON(data); err != nil { // accepts snake_case names and enum numbers, ignores unknown fields
		log.Fatal(err)
	}
	if err := resp.Validate(); err != nil { // REQUIRED fields, known enums, int32s in range
		log.Fatal(err)
	}
	switch p := resp.Payload.(type) {
	case *a2a.StreamResponseStatusUpdate:
		fmt.Println(p.StatusUpdate.Status.State)
	}
	wire := resp.AppendProto(nil) // protobuf binary, for the gRPC binding
	fmt.Println(len(wire), "bytes")

	for _, m := range a2a.A2AService.Methods[:2] {
		fmt.Println(m.Name, m.FullMethod, m.HTTP[0].Method, m.HTTP[0].Path)
	}
	// Output:
	// {"message":{"messageId":"m1","role":"ROLE_USER","parts":[{"text":"What is the weather in Paris?"}]}}
	// TASK_STATE_WORKING
	// 14 bytes
	// SendMessage /lf.a2a.v1.A2AService/SendMessage POST /message:send
	// SendStreamingMessage /lf.a2a.v1.A2AService/SendStreamingMessage POST /message:stream
}

// echo answers a message with its own parts.
type echo struct {
	a2a.UnimplementedA2AServiceServer
}

func (echo) SendMessage(ctx context.Context, req *a2a.SendMessageRequest) (*a2a.SendMessageResponse, error) {
	// req is decoded and validated: REQUIRED fields are set, enums known, int32s in range.
	if req.Message.TaskID != "" {
		return nil, fmt.Errorf("task %s: %w", req.Message.TaskID, a2a.ErrTaskNotFound) // -32001, HTTP 404, gRPC NOT_FOUND
	}
	reply := &a2a.Message{MessageID: "re-" + req.Message.MessageID, Role: a2a.RoleAgent, Parts: req.Message.Parts}
	return &a2a.SendMessageResponse{Payload: &a2a.SendMessageResponseMessage{Message: reply}}, nil
}

// A service is served on the agent card's bindings from one handler
// (JSON-RPC at POST /, HTTP+JSON at the proto's paths, the card at
// /.well-known/agent-card.json), and the client finds its way from the
// card; an A2A error arrives as the error value it was sent as.
func ExampleNewHandler() {
	srv := httptest.NewUnstartedServer(nil)
	card := &a2a.AgentCard{Name: "echo", Description: "Echoes.", Version: "1.0.0",
		SupportedInterfaces: a2a.Interfaces("http://" + srv.Listener.Addr().String()),
		Capabilities:        &a2a.AgentCapabilities{}, // echo streams nothing; Streaming: new(true) turns streaming calls on
		DefaultInputModes:   []string{"text/plain"}, DefaultOutputModes: []string{"text/plain"},
		Skills: []*a2a.AgentSkill{{ID: "echo", Name: "Echo", Description: "Says it again.", Tags: []string{"echo"}}}}
	h, err := a2a.NewHandler(a2a.BindA2AService(echo{}), card)
	if err != nil {
		log.Fatal(err)
	}
	srv.Config.Handler = h
	srv.Start()
	defer srv.Close()

	ctx := context.Background()
	resolved, err := a2a.ResolveCard(ctx, srv.URL)
	if err != nil {
		log.Fatal(err)
	}
	t, iface, err := a2a.NewTransportFromCard(resolved)
	if err != nil {
		log.Fatal(err)
	}
	client := a2a.NewA2AServiceClient(t)
	fmt.Println(iface.ProtocolBinding, iface.ProtocolVersion == a2a.ProtocolVersion)

	msg := &a2a.Message{MessageID: "m1", Role: a2a.RoleUser, Parts: []*a2a.Part{{Content: &a2a.PartText{Text: "hello"}}}}
	resp, err := client.SendMessage(ctx, &a2a.SendMessageRequest{Message: msg})
	if err != nil {
		log.Fatal(err)
	}
	reply := resp.GetMessage()
	fmt.Println(reply.GetParts()[0].GetText())

	msg.TaskID = "no-such-task"
	_, err = client.SendMessage(ctx, &a2a.SendMessageRequest{Message: msg})
	fmt.Println(errors.Is(err, a2a.ErrTaskNotFound))
	// Output:
	// JSONRPC true
	// hello
	// true
}
