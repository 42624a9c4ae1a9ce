package main

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"slices"
	"testing"

	"github.com/agui-gen/agui-gen/gen/agui"
)

// TestDemoUsesEveryEventFamily runs the demo agent through the generated
// handler and client, over both transports.
func TestDemoUsesEveryEventFamily(t *testing.T) {
	srv := httptest.NewServer(agui.NewHandler(demoAgent{}))
	defer srv.Close()
	for _, protobuf := range []bool{false, true} {
		c := agui.Client{URL: srv.URL, Protobuf: protobuf}
		rs, err := c.Run(context.Background(), &agui.RunAgentInput{ThreadID: "t", RunID: "r", Messages: []agui.Message{
			&agui.UserMessage{BaseMessage: agui.BaseMessage{ID: "u"}, Content: agui.TextContent("Paris")},
		}})
		if err != nil {
			t.Fatal(err)
		}
		var seen []agui.EventType
		for ev, err := range rs.Events() {
			if err != nil {
				t.Fatalf("protobuf=%v: %v", protobuf, err)
			}
			seen = append(seen, ev.Type())
		}
		for _, want := range []agui.EventType{
			agui.EventTypeRunStarted, agui.EventTypeStepStarted, agui.EventTypeReasoningMessageContent,
			agui.EventTypeTextMessageContent, agui.EventTypeToolCallStart, agui.EventTypeToolCallResult,
			agui.EventTypeStateSnapshot, agui.EventTypeStateDelta, agui.EventTypeActivitySnapshot,
			agui.EventTypeActivityDelta, agui.EventTypeSubagentStarted, agui.EventTypeSubagentFinished,
			agui.EventTypeRunFinished,
		} {
			if !slices.Contains(seen, want) {
				t.Errorf("protobuf=%v: the demo sent no %s", protobuf, want)
			}
		}
		if w := rs.Warnings(); len(w) > 0 {
			t.Errorf("protobuf=%v: warnings %q", protobuf, w)
		}
		var state map[string]any
		if err := json.Unmarshal(rs.State(), &state); err != nil || state["status"] != "done" || state["lookups"] != 1.0 {
			t.Errorf("protobuf=%v: final state %s", protobuf, rs.State())
		}
	}
}
