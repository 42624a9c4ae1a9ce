package a2a_test

import (
	"testing"

	a2a "github.com/agui-gen/agui-gen/gen/a2a"
)

// TestGettersAreNilSafe: a chain of getters reads through nil messages,
// absent optional scalars and oneofs holding another member as zero
// values, and reads the values when they are set.
func TestGettersAreNilSafe(t *testing.T) {
	var task *a2a.Task
	if parts := task.GetStatus().GetMessage().GetParts(); parts != nil {
		t.Fatalf("nil task: parts %v", parts)
	}
	if task.GetID() != "" || task.GetStatus().GetState() != a2a.TaskStateUnspecified {
		t.Fatal("nil task: want zero values")
	}
	var cfg *a2a.SendMessageConfiguration
	if cfg.GetHistoryLength() != 0 || (&a2a.SendMessageConfiguration{}).GetHistoryLength() != 0 {
		t.Fatal("absent history length: want 0")
	}
	n := int32(7)
	if got := (&a2a.SendMessageConfiguration{HistoryLength: &n}).GetHistoryLength(); got != 7 {
		t.Fatalf("history length %d, want 7", got)
	}

	msg := &a2a.Message{MessageID: "m1", Parts: []*a2a.Part{{Content: &a2a.PartText{Text: "hi"}}}}
	task = &a2a.Task{ID: "t1", Status: &a2a.TaskStatus{State: a2a.TaskStateWorking, Message: msg}}
	if task.GetID() != "t1" || task.GetStatus().GetState() != a2a.TaskStateWorking || task.GetStatus().GetMessage().GetMessageID() != "m1" {
		t.Fatalf("set task read as %q, %v, %q", task.GetID(), task.GetStatus().GetState(), task.GetStatus().GetMessage().GetMessageID())
	}
	if got := task.GetStatus().GetMessage().GetParts()[0].GetText(); got != "hi" {
		t.Fatalf("text part %q, want hi", got)
	}

	// A oneof: the member it holds, and zero for the others.
	resp := &a2a.SendMessageResponse{Payload: &a2a.SendMessageResponseTask{Task: task}}
	if resp.GetTask() != task || resp.GetMessage() != nil {
		t.Fatalf("task response: GetTask %p, GetMessage %p", resp.GetTask(), resp.GetMessage())
	}
	var none *a2a.SendMessageResponse
	if none.GetPayload() != nil || none.GetTask() != nil {
		t.Fatal("nil response: want nil payload and task")
	}
}
