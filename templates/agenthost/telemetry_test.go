package agenthost_test

import (
	"context"
	"net/http/httptest"
	"testing"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/agui-gen/agui-gen/gen/agenthost"
	"github.com/agui-gen/agui-gen/gen/agui"
)

// TestHostNamesItsAgents: each hosted agent's runs are invoke_agent spans
// named after it.
func TestHostNamesItsAgents(t *testing.T) {
	spans := tracetest.NewInMemoryExporter()
	srv := httptest.NewUnstartedServer(nil)
	host := agenthost.New("http://" + srv.Listener.Addr().String())
	host.AGUIOptions = []agui.Option{agui.WithTelemetry(&agui.Telemetry{TracerProvider: sdktrace.NewTracerProvider(sdktrace.WithSyncer(spans))})}
	for _, name := range []string{"greeter", "helper"} {
		if err := host.Add(agenthost.Agent{Name: name, AGUI: greeter}); err != nil {
			t.Fatal(err)
		}
	}
	srv.Config.Handler = host
	srv.Start()
	defer srv.Close()
	for _, name := range []string{"greeter", "helper"} {
		rs, err := (&agui.Client{URL: srv.URL + agenthost.AgentsPath + "/" + name + "/agui"}).Run(context.Background(), &agui.RunAgentInput{ThreadID: "t", RunID: name})
		if err != nil {
			t.Fatal(err)
		}
		if err := rs.Wait(); err != nil {
			t.Fatal(err)
		}
	}
	named := map[string]bool{}
	for _, s := range spans.GetSpans() {
		named[s.Name] = true
	}
	if !named["invoke_agent greeter"] || !named["invoke_agent helper"] {
		t.Errorf("spans: %v", named)
	}
}
