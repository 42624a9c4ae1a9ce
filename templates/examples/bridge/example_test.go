package bridge_test

import (
	"context"
	"fmt"
	"log"
	"net/http/httptest"

	a2a "github.com/agui-gen/agui-gen/gen/a2a"
	"github.com/agui-gen/agui-gen/gen/a2a/a2atask"
	agui "github.com/agui-gen/agui-gen/gen/agui"
	"github.com/agui-gen/agui-gen/gen/bridge"
)

// An AG-UI agent served over A2A (Executor, on the task runtime), and an
// A2A agent served over AG-UI (A2AAgent): here both at once, so that an
// AG-UI client reaches the AG-UI agent through A2A and sees the run it
// would see directly.
func ExampleA2AAgent() {
	helper := agui.AgentFunc(func(ctx context.Context, in *agui.RunAgentInput, s *agui.Stream) error {
		if err := s.Reasoning("The user wants the weather."); err != nil {
			return err
		}
		return s.Text("It is sunny in Paris.")
	})
	rt := a2atask.New(&bridge.Executor{Agent: helper}, a2atask.NewMemory())
	defer rt.Close()
	a2aServer := httptest.NewUnstartedServer(nil)
	streaming := true
	card := &a2a.AgentCard{Name: "weather", Description: "Knows the weather.", Version: "1.0.0",
		SupportedInterfaces: a2a.Interfaces("http://" + a2aServer.Listener.Addr().String()),
		Capabilities:        &a2a.AgentCapabilities{Streaming: &streaming}, DefaultInputModes: []string{"text/plain"},
		DefaultOutputModes: []string{"text/plain"},
		Skills:             []*a2a.AgentSkill{{ID: "weather", Name: "Weather", Description: "Tells the weather.", Tags: []string{"weather"}}}}
	h, err := a2a.NewHandler(a2a.BindA2AService(rt), card)
	if err != nil {
		log.Fatal(err)
	}
	a2aServer.Config.Handler = h
	a2aServer.Start()
	defer a2aServer.Close()

	remote := a2a.NewA2AServiceClient(a2a.NewJSONRPCTransport(a2aServer.URL))
	aguiServer := httptest.NewServer(agui.NewHandler(&bridge.A2AAgent{Client: remote, Card: card}))
	defer aguiServer.Close()

	client := &agui.Client{URL: aguiServer.URL}
	run, err := client.Run(context.Background(), &agui.RunAgentInput{ThreadID: "t1", RunID: "r1",
		Messages: []agui.Message{&agui.UserMessage{BaseMessage: agui.BaseMessage{ID: "u1"}, Content: agui.TextContent("What is the weather?")}}})
	if err != nil {
		log.Fatal(err)
	}
	if err := run.Wait(); err != nil {
		log.Fatal(err)
	}
	for _, m := range run.Messages() {
		switch m := m.(type) {
		case *agui.ReasoningMessage:
			fmt.Println("reasoning:", m.Content)
		case *agui.AssistantMessage:
			fmt.Println("assistant:", *m.Content)
		}
	}
	// Output:
	// reasoning: The user wants the weather.
	// assistant: It is sunny in Paris.
}
