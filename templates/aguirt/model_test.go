package aguirt

import (
	"encoding/json"
	"testing"

	agui "github.com/agui-gen/agui-gen/gen/agui"
)

// ModelAgent on each adapter is tested in the adapter's module
// (runtime/model/PROVIDER/agent_test.go), which takes in its SDK.

func TestModelRequestMapsTheConversation(t *testing.T) {
	call := "call_1"
	text := "Checking."
	errText := "timeout"
	in := &agui.RunAgentInput{
		Context: []agui.Context{{Description: "The user's city", Value: "Paris"}},
		Messages: []agui.Message{
			&agui.SystemMessage{Content: "Be brief."},
			&agui.DeveloperMessage{Content: "Metric units."},
			&agui.UserMessage{Content: agui.PartsContent(&agui.TextPart{Text: "This?"},
				&agui.ImagePart{Source: &agui.DataSource{Value: "iVBORw0KGgo=", MIMEType: "image/png"}},
				&agui.DocumentPart{Source: &agui.FileSource{Value: "file-abc"}})},
			&agui.AssistantMessage{Content: &text, ToolCalls: []agui.ToolCall{{ID: call,
				Function: agui.FunctionCall{Name: "look", Arguments: `{"q":1}`}}}},
			&agui.ToolMessage{ToolCallID: call, Content: agui.TextContent(""), Error: &errText},
			&agui.ReasoningMessage{Content: "not sent"},
		},
		Tools: []agui.Tool{{Name: "look", Description: "Looks.", Parameters: json.RawMessage(`{"type":"object"}`)}},
	}
	req := ModelRequest(in)
	got, _ := json.Marshal(req)
	want := `{"System":"Context from the application:\n\nThe user's city:\nParis","Messages":[` +
		`{"Role":"system","Content":[{"Kind":0,"Text":"Be brief.","MIMEType":"","Data":"","URL":"","FileID":""}],"ToolCalls":null,"ToolCallID":"","Reasoning":null},` +
		`{"Role":"developer","Content":[{"Kind":0,"Text":"Metric units.","MIMEType":"","Data":"","URL":"","FileID":""}],"ToolCalls":null,"ToolCallID":"","Reasoning":null},` +
		`{"Role":"user","Content":[{"Kind":0,"Text":"This?","MIMEType":"","Data":"","URL":"","FileID":""},{"Kind":1,"Text":"","MIMEType":"image/png","Data":"iVBORw0KGgo=","URL":"","FileID":""},{"Kind":4,"Text":"","MIMEType":"","Data":"","URL":"","FileID":"file-abc"}],"ToolCalls":null,"ToolCallID":"","Reasoning":null},` +
		`{"Role":"assistant","Content":[{"Kind":0,"Text":"Checking.","MIMEType":"","Data":"","URL":"","FileID":""}],"ToolCalls":[{"ID":"call_1","Name":"look","Arguments":"{\"q\":1}"}],"ToolCallID":"","Reasoning":null},` +
		`{"Role":"tool","Content":[{"Kind":0,"Text":"error: timeout","MIMEType":"","Data":"","URL":"","FileID":""},{"Kind":0,"Text":"","MIMEType":"","Data":"","URL":"","FileID":""}],"ToolCalls":null,"ToolCallID":"call_1","Reasoning":null}],` +
		`"Tools":[{"Name":"look","Description":"Looks.","Parameters":{"type":"object"}}]}`
	if string(got) != want {
		t.Errorf("request\n%s\nwant\n%s", got, want)
	}
}
