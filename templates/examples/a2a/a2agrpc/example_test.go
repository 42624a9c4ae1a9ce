package a2agrpc_test

import (
	"context"
	"fmt"
	"log"
	"net"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	a2a "github.com/agui-gen/agui-gen/gen/a2a"
	"github.com/agui-gen/agui-gen/gen/a2a/a2agrpc"
)

// echo answers a message with its own parts.
type echo struct {
	a2a.UnimplementedA2AServiceServer
}

func (echo) SendMessage(ctx context.Context, req *a2a.SendMessageRequest) (*a2a.SendMessageResponse, error) {
	reply := &a2a.Message{MessageID: "re-" + req.Message.MessageID, Role: a2a.RoleAgent, Parts: req.Message.Parts}
	return &a2a.SendMessageResponse{Payload: &a2a.SendMessageResponseMessage{Message: reply}}, nil
}

// The same service over gRPC: its server bounded by ServerOptions (an
// authenticator among the options runs before a message is read), and a
// client over the connection, or picked from a card that lists gRPC.
func ExampleRegisterA2AServiceServer() {
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Fatal(err)
	}
	grpcServer := grpc.NewServer(a2agrpc.ServerOptions()...)
	a2agrpc.RegisterA2AServiceServer(grpcServer, echo{})
	go grpcServer.Serve(lis)
	defer grpcServer.Stop()

	card := &a2a.AgentCard{SupportedInterfaces: []*a2a.AgentInterface{
		{URL: lis.Addr().String(), ProtocolBinding: a2a.BindingGRPC, ProtocolVersion: a2a.ProtocolVersion}}}
	t, _, err := a2a.NewTransportFromCard(card, a2agrpc.WithGRPC(grpc.WithTransportCredentials(insecure.NewCredentials())))
	if err != nil {
		log.Fatal(err)
	}
	client := a2a.NewA2AServiceClient(t)
	msg := &a2a.Message{MessageID: "m1", Role: a2a.RoleUser, Parts: []*a2a.Part{{Content: &a2a.PartText{Text: "weather?"}}}}
	resp, err := client.SendMessage(context.Background(), &a2a.SendMessageRequest{Message: msg})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(resp.GetMessage().GetParts()[0].GetText())
	// Output: weather?
}
