package agenthost_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"

	a2a "github.com/agui-gen/agui-gen/gen/a2a"
	"github.com/agui-gen/agui-gen/gen/a2a/a2atask"
	"github.com/agui-gen/agui-gen/gen/agenthost"
	agui "github.com/agui-gen/agui-gen/gen/agui"
	"github.com/agui-gen/agui-gen/gen/bridge"
)

// Several agents on one server, each under /v1/agents/{name}/: over A2A
// (its card, JSON-RPC, HTTP+JSON) and over AG-UI, with a listing at
// GET /v1/agents.
func ExampleHost() {
	greeter := agui.AgentFunc(func(ctx context.Context, in *agui.RunAgentInput, s *agui.Stream) error {
		return s.Text("Hello!")
	})
	rt := a2atask.New(&bridge.Executor{Agent: greeter}, a2atask.NewMemory())
	defer rt.Close()
	streaming := true
	card := &a2a.AgentCard{Name: "greeter", Description: "Greets.", Version: "1.0.0",
		Capabilities: &a2a.AgentCapabilities{Streaming: &streaming}, DefaultInputModes: []string{"text/plain"},
		DefaultOutputModes: []string{"text/plain"},
		Skills:             []*a2a.AgentSkill{{ID: "greet", Name: "Greet", Description: "Says hello.", Tags: []string{"greeting"}}}}

	srv := httptest.NewUnstartedServer(nil)
	host := agenthost.New("http://" + srv.Listener.Addr().String())
	if err := host.Add(agenthost.Agent{Name: "greeter", Card: card, A2A: a2a.BindA2AService(rt), AGUI: greeter}); err != nil {
		log.Fatal(err)
	}
	srv.Config = agui.NewServer(host) // bounded headers, reads and idle connections
	srv.Start()
	defer srv.Close()

	resp, err := http.Get(srv.URL + agenthost.AgentsPath)
	if err != nil {
		log.Fatal(err)
	}
	defer resp.Body.Close()
	var listing struct {
		Agents []struct {
			Name    string `json:"name"`
			AGUIURL string `json:"aguiUrl"`
		} `json:"agents"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&listing); err != nil {
		log.Fatal(err)
	}
	a := listing.Agents[0]
	fmt.Println(a.Name, a.AGUIURL == srv.URL+agenthost.AgentsPath+"/greeter"+agenthost.AGUIPath)

	card, err = a2a.ResolveCard(context.Background(), srv.URL+agenthost.AgentsPath+"/greeter/")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(card.Name, card.SupportedInterfaces[0].URL == srv.URL+agenthost.AgentsPath+"/greeter")
	// Output:
	// greeter true
	// greeter true
}
