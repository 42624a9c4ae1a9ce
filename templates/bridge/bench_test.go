package bridge_test

import (
	"context"
	"iter"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"

	"github.com/agui-gen/agui-gen/gen/a2a"
	"github.com/agui-gen/agui-gen/gen/agui"
	"github.com/agui-gen/agui-gen/gen/bridge"
)

// chunks is how many text chunks one benchmark run streams.
const chunks = 1000

const chunk = "The quick brown fox jumps over the lazy dog. "

// streamingAgent answers every message with a task that streams chunks
// text chunks as one artifact and completes. With prebuilt set it sends
// responses built once per context and never changed, an A2A agent that
// costs next to nothing, so the bridge's own cost shows (as directAgent's
// does); without, it builds each response as it sends it, as an agent that
// makes its answer does (7 allocations an event).
type streamingAgent struct {
	a2a.UnimplementedA2AServiceServer
	prebuilt bool
	built    sync.Map // context id → []*a2a.StreamResponse
}

func (a *streamingAgent) SendStreamingMessage(ctx context.Context, req *a2a.SendMessageRequest, send func(*a2a.StreamResponse) error) error {
	if !a.prebuilt {
		for resp := range answer(req.Message.ContextID) {
			if err := send(resp); err != nil {
				return err
			}
		}
		return nil
	}
	built, ok := a.built.Load(req.Message.ContextID)
	if !ok {
		built, _ = a.built.LoadOrStore(req.Message.ContextID, slices.Collect(answer(req.Message.ContextID)))
	}
	for _, resp := range built.([]*a2a.StreamResponse) {
		if err := send(resp); err != nil {
			return err
		}
	}
	return nil
}

// answer yields the responses of one answer, each built as it is asked for.
func answer(contextID string) iter.Seq[*a2a.StreamResponse] {
	return func(yield func(*a2a.StreamResponse) bool) {
		task := &a2a.Task{ID: "task-1", ContextID: contextID, Status: &a2a.TaskStatus{State: a2a.TaskStateWorking}}
		if !yield(&a2a.StreamResponse{Payload: &a2a.StreamResponseTask{Task: task}}) {
			return
		}
		for i := range chunks {
			up := &a2a.TaskArtifactUpdateEvent{TaskID: task.ID, ContextID: task.ContextID, Append: i > 0, LastChunk: i == chunks-1,
				Artifact: &a2a.Artifact{ArtifactID: "answer", Parts: []*a2a.Part{{Content: &a2a.PartText{Text: chunk}}}}}
			if !yield(&a2a.StreamResponse{Payload: &a2a.StreamResponseArtifactUpdate{ArtifactUpdate: up}}) {
				return
			}
		}
		done := &a2a.TaskStatusUpdateEvent{TaskID: task.ID, ContextID: task.ContextID, Status: &a2a.TaskStatus{State: a2a.TaskStateCompleted}}
		yield(&a2a.StreamResponse{Payload: &a2a.StreamResponseStatusUpdate{StatusUpdate: done}})
	}
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
// streaming the same text over JSON-RPC (A2A SSE in, AG-UI SSE out):
// bridge, from an agent that sends prebuilt responses, is the bridge's own
// cost beside direct's; bridge-building adds what an A2A agent spends
// making its responses. Compare them with benchstat.
func BenchmarkBridge(b *testing.B) {
	prebuilt := httptest.NewServer(mustHandler(b, &streamingAgent{prebuilt: true}))
	defer prebuilt.Close()
	building := httptest.NewServer(mustHandler(b, &streamingAgent{}))
	defer building.Close()
	for _, tc := range []struct {
		name  string
		agent agui.Agent
	}{
		{"direct", directAgent},
		{"bridge", &bridge.A2AAgent{Client: a2a.NewA2AServiceClient(a2a.NewJSONRPCTransport(prebuilt.URL))}},
		{"bridge-building", &bridge.A2AAgent{Client: a2a.NewA2AServiceClient(a2a.NewJSONRPCTransport(building.URL))}},
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

func mustHandler(b *testing.B, agent *streamingAgent) http.Handler {
	card := &a2a.AgentCard{Name: "stream", Description: "Streams text.", Version: "1", SupportedInterfaces: a2a.Interfaces("http://127.0.0.1"),
		Capabilities: &a2a.AgentCapabilities{Streaming: new(true)}, DefaultInputModes: []string{"text/plain"}, DefaultOutputModes: []string{"text/plain"},
		Skills: []*a2a.AgentSkill{{ID: "s", Name: "S", Description: "Streams.", Tags: []string{"s"}}}}
	h, err := a2a.NewHandler(a2a.BindA2AService(agent), card)
	if err != nil {
		b.Fatal(err)
	}
	return h
}
