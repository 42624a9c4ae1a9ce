package naming

import "testing"

func TestExported(t *testing.T) {
	for in, want := range map[string]string{
		"messageId": "MessageID", "toolCallId": "ToolCallID", "pendingToolCallIds": "PendingToolCallIDs",
		"documentationUrl": "DocumentationURL", "JsonPatch": "JSONPatch", "UrlSource": "URLSource",
		"TEXT_MESSAGE_START": "TextMessageStart", "tool-call": "ToolCall", "humanInTheLoop": "HumanInTheLoop",
		"JSONPatch": "JSONPatch", "subagentRunId": "SubagentRunID", "type": "Type",
	} {
		if got := Exported(in); got != want {
			t.Errorf("Exported(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestUnexportedEscapesKeywords(t *testing.T) {
	for in, want := range map[string]string{"type": "type_", "metaType": "metaType", "range": "range_", "JsonPointer": "jsonPointer"} {
		if got := Unexported(in); got != want {
			t.Errorf("Unexported(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestScope(t *testing.T) {
	s := NewScope("Error")
	if got := s.Claim("Error"); got != "Error2" {
		t.Errorf("got %q", got)
	}
	if got := s.Claim("Event"); got != "Event" {
		t.Errorf("got %q", got)
	}
}
