package bridge_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/agui-gen/agui-gen/gen/a2a"
	"github.com/agui-gen/agui-gen/gen/agui"
	"github.com/agui-gen/agui-gen/gen/bridge"
)

// chunks is how many text chunks one benchmark run streams.
const chunks = 1000

const chunk = "The quick brown fox jumps over the lazy dog. "

// streamingAgent answers every message with a task that streams chunks
// text chunks as one artifact and completes: an A2A agent that costs next
// to nothing, so the bridge's own cost shows.
type streamingAgent struct {
	a2a.UnimplementedA2AServiceServer
}

func (streamingAgent) SendStreamingMessage(ctx context.Context, req *a2a.SendMessageRequest, send func(*a2a.StreamResponse) error) error {
	task := &a2a.Task{ID: "task-1", ContextID: req.Message.ContextID, Status: &a2a.TaskStatus{State: a2a.TaskStateWorking}}
	if err := send(&a2a.StreamResponse{Payload: &a2a.StreamResponseTask{Task: task}}); err != nil {
		return err
	}
	for i := range chunks {
		up := &a2a.TaskArtifactUpdateEvent{TaskID: task.ID, ContextID: task.ContextID, Append: i > 0, LastChunk: i == chunks-1,
			Artifact: &a2a.Artifact{ArtifactID: "answer", Parts: []*a2a.Part{{Content: &a2a.PartText{Text: chunk}}}}}
		if err := send(&a2a.StreamResponse{Payload: &a2a.StreamResponseArtifactUpdate{ArtifactUpdate: up}}); err != nil {
			return err
		}
	}
	done := &a2a.TaskStatusUpdateEvent{TaskID: task.ID, ContextID: task.ContextID, Status: &a2a.TaskStatus{State: a2a.TaskStateCompleted}}
	return send(&a2a.StreamResponse{Payload: &a2a.StreamResponseStatusUpdate{StatusUpdate: done}})
}

// directAgent streams the same text as an AG-UI agent.
var directAgent = agui.AgentFunc(func(ctx context.Context, in *agui.RunAgentInput, s *agui.Stream) error {
	for range chunks {
		if err := s.Text(chunk); err != nil {
			return err
		}
	}
	return nil
})

// BenchmarkBridge: AG-UI events per second reaching an AG-UI client,
// directly from an AG-UI agent and through A2AAgent from an A2A agent
// streaming the same text over JSON-RPC (A2A SSE in, AG-UI SSE out).
// Compare the two with benchstat.
func BenchmarkBridge(b *testing.B) {
	a2aSrv := httptest.NewServer(mustHandler(b))
	defer a2aSrv.Close()
	client := a2a.NewA2AServiceClient(a2a.NewJSONRPCTransport(a2aSrv.URL))
	for _, tc := range []struct {
		name  string
		agent agui.Agent
	}{
		{"direct", directAgent},
		{"bridge", &bridge.A2AAgent{Client: client}},
	} {
		b.Run(tc.name, func(b *testing.B) {
			srv := httptest.NewServer(agui.NewHandler(tc.agent))
			defer srv.Close()
			c := &agui.Client{URL: srv.URL}
			ctx := context.Background()
			events := 0
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				rs, err := c.Run(ctx, userInput("thread-bench", "go"))
				if err != nil {
					b.Fatal(err)
				}
				for _, err := range rs.Events() {
					if err != nil {
						b.Fatal(err)
					}
					events++
				}
			}
			b.ReportMetric(float64(events)/b.Elapsed().Seconds(), "events/s")
		})
	}
}

func mustHandler(b *testing.B) http.Handler {
	card := &a2a.AgentCard{Name: "stream", Description: "Streams text.", Version: "1", SupportedInterfaces: a2a.Interfaces("http://127.0.0.1"),
		Capabilities: &a2a.AgentCapabilities{Streaming: new(true)}, DefaultInputModes: []string{"text/plain"}, DefaultOutputModes: []string{"text/plain"},
		Skills: []*a2a.AgentSkill{{ID: "s", Name: "S", Description: "Streams.", Tags: []string{"s"}}}}
	h, err := a2a.NewHandler(a2a.BindA2AService(streamingAgent{}), card)
	if err != nil {
		b.Fatal(err)
	}
	return h
}
