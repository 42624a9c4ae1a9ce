// Package a2av03_test checks the v0.3 package generated from the A2A v0.3.0
// JSON Schema against the JSON that a real v0.3 implementation writes and
// reads: github.com/a2aproject/a2a-go v0.3.15's own types.
package a2av03_test

import (
	"encoding/json"
	"errors"
	"testing"
	"time"

	a2a03 "github.com/a2aproject/a2a-go/a2a"
	"github.com/google/go-cmp/cmp"

	"github.com/agui-gen/agui-gen/gen/a2a/a2av03"
)

var when = time.Date(2026, 11, 25, 9, 30, 15, 0, time.UTC)

func message() *a2a03.Message {
	m := a2a03.NewMessage(a2a03.MessageRoleUser,
		a2a03.TextPart{Text: "Summarise the attached report", Metadata: map[string]any{"lang": "en"}},
		a2a03.FilePart{File: a2a03.FileBytes{FileMeta: a2a03.FileMeta{Name: "report.pdf", MimeType: "application/pdf"}, Bytes: "AAEC/w=="}},
		a2a03.FilePart{File: a2a03.FileURI{FileMeta: a2a03.FileMeta{MimeType: "application/pdf"}, URI: "https://example.com/report.pdf"}},
		a2a03.DataPart{Data: map[string]any{"pages": []any{1.0, 2.0}, "draft": false}},
	)
	m.ID, m.ContextID, m.TaskID = "m1", "ctx", "t1"
	m.ReferenceTasks = []a2a03.TaskID{"t0"}
	m.Extensions = []string{"https://example.com/ext/v1"}
	return m
}

func task() *a2a03.Task {
	reply := a2a03.NewMessage(a2a03.MessageRoleAgent, a2a03.TextPart{Text: "Which year?"})
	reply.ID = "m2"
	return &a2a03.Task{
		ID: "t1", ContextID: "ctx",
		Status:    a2a03.TaskStatus{State: a2a03.TaskStateInputRequired, Message: reply, Timestamp: &when},
		History:   []*a2a03.Message{message()},
		Artifacts: []*a2a03.Artifact{{ID: "a1", Name: "summary", Parts: a2a03.ContentParts{a2a03.TextPart{Text: "…"}}}},
		Metadata:  map[string]any{"priority": "high"},
	}
}

func card() *a2a03.AgentCard {
	return &a2a03.AgentCard{
		Name: "Summariser", Description: "Summarises reports", URL: "https://agent.example.com/a2a",
		Version: "2.1.0", ProtocolVersion: "0.3.0", PreferredTransport: a2a03.TransportProtocolJSONRPC,
		AdditionalInterfaces: []a2a03.AgentInterface{
			{Transport: a2a03.TransportProtocolJSONRPC, URL: "https://agent.example.com/a2a"},
			{Transport: a2a03.TransportProtocolGRPC, URL: "agent.example.com:443"},
		},
		Capabilities:       a2a03.AgentCapabilities{Streaming: true, PushNotifications: true},
		DefaultInputModes:  []string{"text/plain"},
		DefaultOutputModes: []string{"text/plain", "application/json"},
		Skills:             []a2a03.AgentSkill{{ID: "sum", Name: "Summarise", Description: "Summarises", Tags: []string{"text"}}},
		SecuritySchemes: a2a03.NamedSecuritySchemes{
			"bearer": a2a03.HTTPAuthSecurityScheme{Scheme: "bearer", BearerFormat: "JWT"},
			"key":    a2a03.APIKeySecurityScheme{Name: "X-API-Key", In: a2a03.APIKeySecuritySchemeInHeader},
			"oauth": a2a03.OAuth2SecurityScheme{Flows: a2a03.OAuthFlows{ClientCredentials: &a2a03.ClientCredentialsOAuthFlow{
				TokenURL: "https://auth.example.com/token", Scopes: map[string]string{"read": "Read"}}}},
		},
		Security: []a2a03.SecurityRequirements{{"bearer": {}}, {"oauth": {"read"}, "key": {}}},
	}
}

// roundTrip decodes what a2a-go wrote with our type, validates it, encodes
// it again and checks that a2a-go reads back what it wrote and that the JSON
// is the same, member for member.
func roundTrip[T any, P interface {
	*T
	UnmarshalJSON([]byte) error
	AppendJSON([]byte) []byte
	Validate() error
}](t *testing.T, name string, theirs any, back any) {
	t.Helper()
	wire, err := json.Marshal(theirs)
	if err != nil {
		t.Fatal(err)
	}
	var ours P = new(T)
	if err := ours.UnmarshalJSON(wire); err != nil {
		t.Fatalf("%s: decoding a2a-go's %s: %v", name, wire, err)
	}
	if err := ours.Validate(); err != nil {
		t.Fatalf("%s: a2a-go's %s is invalid to us: %v", name, wire, err)
	}
	again := ours.AppendJSON(nil)
	var x, y any
	_ = json.Unmarshal(wire, &x)
	_ = json.Unmarshal(again, &y)
	if d := cmp.Diff(x, y); d != "" {
		t.Errorf("%s: JSON changed in our round trip (-a2a-go +ours):\n%s", name, d)
	}
	if err := json.Unmarshal(again, back); err != nil {
		t.Fatalf("%s: a2a-go cannot read ours %s: %v", name, again, err)
	}
}

func TestRoundTripsA2AGoV03(t *testing.T) {
	roundTrip[a2av03.Message](t, "message", message(), new(a2a03.Message))
	roundTrip[a2av03.Task](t, "task", task(), new(a2a03.Task))
	roundTrip[a2av03.AgentCard](t, "card", card(), new(a2a03.AgentCard))
	roundTrip[a2av03.TaskStatusUpdateEvent](t, "status update",
		&a2a03.TaskStatusUpdateEvent{TaskID: "t1", ContextID: "ctx", Final: true, Status: a2a03.TaskStatus{State: a2a03.TaskStateCompleted, Timestamp: &when}},
		new(a2a03.TaskStatusUpdateEvent))
	roundTrip[a2av03.TaskArtifactUpdateEvent](t, "artifact update",
		&a2a03.TaskArtifactUpdateEvent{TaskID: "t1", ContextID: "ctx", Append: true, LastChunk: true,
			Artifact: &a2a03.Artifact{ID: "a1", Parts: a2a03.ContentParts{a2a03.DataPart{Data: map[string]any{"k": "v"}}}}},
		new(a2a03.TaskArtifactUpdateEvent))
	limit := 3
	roundTrip[a2av03.MessageSendParams](t, "send params", &a2a03.MessageSendParams{Message: message(),
		Config: &a2a03.MessageSendConfig{AcceptedOutputModes: []string{"text/plain"}, HistoryLength: &limit,
			PushConfig: &a2a03.PushConfig{ID: "p1", URL: "https://client.example.com/hook", Token: "tok",
				Auth: &a2a03.PushAuthInfo{Schemes: []string{"Bearer"}, Credentials: "c"}}}}, new(a2a03.MessageSendParams))
	roundTrip[a2av03.TaskPushNotificationConfig](t, "push config",
		&a2a03.TaskPushConfig{TaskID: "t1", Config: a2a03.PushConfig{URL: "https://client.example.com/hook"}}, new(a2a03.TaskPushConfig))
}

// The JSON-RPC request types carry the method names as the schema's consts:
// one whose method is another's is refused.
func TestRequestsNameTheirMethod(t *testing.T) {
	params, _ := json.Marshal(&a2a03.MessageSendParams{Message: message()})
	body := []byte(`{"jsonrpc":"2.0","id":"r1","method":"message/stream","params":` + string(params) + `}`)
	var send a2av03.SendMessageRequest
	if err := send.UnmarshalJSON(body); err == nil {
		t.Fatal("a message/stream request decoded as message/send")
	}
	var stream a2av03.SendStreamingMessageRequest
	if err := stream.UnmarshalJSON(body); err != nil {
		t.Fatal(err)
	}
	if err := stream.Validate(); err != nil {
		t.Fatal(err)
	}
	if string(stream.ID) != `"r1"` || stream.Params.Message.MessageID != "m1" {
		t.Errorf("decoded %+v", stream)
	}
}

// A file part must say where its content is; the error names the place.
func TestFileWithNeitherBytesNorURI(t *testing.T) {
	var m a2av03.Message
	err := m.UnmarshalJSON([]byte(`{"kind":"message","messageId":"m","role":"user","parts":[{"kind":"text","text":"x"},{"kind":"file","file":{"name":"a.pdf"}}]}`))
	var e *a2av03.Error
	if !errors.As(err, &e) || e.Path != "/parts/1/file" || e.Rule != "oneOf" {
		t.Fatalf("got %v", err)
	}
}
