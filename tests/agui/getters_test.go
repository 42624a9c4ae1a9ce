package agui_test

import (
	"testing"

	"github.com/agui-gen/agui-gen/gen/agui"
)

// TestGettersAreNilSafe: the getters of optional members read through nil
// values and absent members as zero values, and read the values when set;
// a mixin's getters serve the events that embed it.
func TestGettersAreNilSafe(t *testing.T) {
	var caps *agui.AgentCapabilities
	if caps.GetTransport().GetResumable() || caps.GetIdentity().GetName() != "" {
		t.Fatal("nil capabilities: want zero values")
	}
	yes := true
	caps = &agui.AgentCapabilities{Transport: &agui.TransportCapabilities{Resumable: &yes}}
	if !caps.GetTransport().GetResumable() || caps.GetTransport().GetStreaming() {
		t.Fatalf("transport read as resumable %v, streaming %v", caps.GetTransport().GetResumable(), caps.GetTransport().GetStreaming())
	}

	var started *agui.RunStartedEvent
	if started.GetInput().GetParentRunID() != "" || started.GetParentRunID() != "" {
		t.Fatal("nil RUN_STARTED: want zero values")
	}
	parent, ts := "run-0", int64(1700000000000)
	started = &agui.RunStartedEvent{Input: &agui.RunAgentInput{ParentRunID: &parent}}
	started.Timestamp = &ts
	if got := started.GetInput().GetParentRunID(); got != "run-0" {
		t.Fatalf("input's parent run %q, want run-0", got)
	}
	if got := started.GetTimestamp(); got != ts {
		t.Fatalf("timestamp %d, want %d (BaseEvent's getter, promoted)", got, ts)
	}

	code := "rate_limited"
	if got := (&agui.RunErrorEvent{Code: &code}).GetCode(); got != code {
		t.Fatalf("code %q, want %q", got, code)
	}
	if got := (&agui.TextMessageStartEvent{}).GetRole(); got != "" {
		t.Fatalf("absent role %q, want the zero value", got)
	}
}
