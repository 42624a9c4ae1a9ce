package a2a_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/dynamicpb"

	"github.com/agui-gen/agui-gen/gen/a2a"
)

func ptr[T any](v T) *T { return &v }

var when = time.Date(2026, 11, 22, 9, 30, 15, 123000000, time.UTC)

func userMessage() *a2a.Message {
	return &a2a.Message{MessageID: "m1", ContextID: "ctx", Role: a2a.RoleUser, Parts: []*a2a.Part{
		{Content: &a2a.PartText{Text: "Summarise the attached report"}},
		{Content: &a2a.PartRaw{Raw: []byte{0, 1, 2, 0xff}}, Filename: "report.pdf", MediaType: "application/pdf"},
		{Content: &a2a.PartURL{URL: "https://example.com/report.pdf"}, MediaType: "application/pdf"},
		{Content: &a2a.PartData{Data: json.RawMessage(`{"pages":[1,2],"draft":false}`)}, Metadata: json.RawMessage(`{"source":"upload"}`)},
	}, Extensions: []string{"https://example.com/ext/v1"}}
}

func task() *a2a.Task {
	return &a2a.Task{
		ID: "t1", ContextID: "ctx",
		Status: &a2a.TaskStatus{State: a2a.TaskStateCompleted, Timestamp: &when,
			Message: &a2a.Message{MessageID: "m3", Role: a2a.RoleAgent, Parts: []*a2a.Part{{Content: &a2a.PartText{Text: "Done."}}}}},
		Artifacts: []*a2a.Artifact{{ArtifactID: "a1", Name: "summary", Parts: []*a2a.Part{{Content: &a2a.PartText{Text: "Short summary"}}}}},
		History:   []*a2a.Message{userMessage()},
		Metadata:  json.RawMessage(`{"priority":1}`),
	}
}

func agentCard() *a2a.AgentCard {
	scopes := map[string]string{"read": "Read tasks"}
	return &a2a.AgentCard{
		Name: "Reporter", Description: "Summarises reports", Version: "1.0.0",
		SupportedInterfaces: []*a2a.AgentInterface{{URL: "https://agent.example.com/a2a", ProtocolBinding: "JSONRPC", ProtocolVersion: "1.0"}},
		Capabilities:        &a2a.AgentCapabilities{Streaming: ptr(true), PushNotifications: ptr(false)},
		SecuritySchemes: map[string]*a2a.SecurityScheme{
			"key":    {Scheme: &a2a.SecuritySchemeAPIKeySecurityScheme{APIKeySecurityScheme: &a2a.APIKeySecurityScheme{Location: "header", Name: "X-Key"}}},
			"bearer": {Scheme: &a2a.SecuritySchemeHTTPAuthSecurityScheme{HTTPAuthSecurityScheme: &a2a.HTTPAuthSecurityScheme{Scheme: "Bearer", BearerFormat: "JWT"}}},
			"oauth": {Scheme: &a2a.SecuritySchemeOAuth2SecurityScheme{OAuth2SecurityScheme: &a2a.OAuth2SecurityScheme{Flows: &a2a.OAuthFlows{
				Flow: &a2a.OAuthFlowsAuthorizationCode{AuthorizationCode: &a2a.AuthorizationCodeOAuthFlow{
					AuthorizationURL: "https://id.example.com/auth", TokenURL: "https://id.example.com/token", Scopes: scopes, PkceRequired: true}}}}}},
			"device": {Scheme: &a2a.SecuritySchemeOAuth2SecurityScheme{OAuth2SecurityScheme: &a2a.OAuth2SecurityScheme{Flows: &a2a.OAuthFlows{
				Flow: &a2a.OAuthFlowsDeviceCode{DeviceCode: &a2a.DeviceCodeOAuthFlow{
					DeviceAuthorizationURL: "https://id.example.com/device", TokenURL: "https://id.example.com/token", Scopes: scopes}}}}}},
			"oidc": {Scheme: &a2a.SecuritySchemeOpenIDConnectSecurityScheme{OpenIDConnectSecurityScheme: &a2a.OpenIDConnectSecurityScheme{OpenIDConnectURL: "https://id.example.com/.well-known/openid-configuration"}}},
			"mtls": {Scheme: &a2a.SecuritySchemeMTLSSecurityScheme{MTLSSecurityScheme: &a2a.MutualTLSSecurityScheme{Description: "client certificates"}}},
		},
		SecurityRequirements: []*a2a.SecurityRequirement{{Schemes: map[string]*a2a.StringList{"oauth": {List: []string{"read"}}}}},
		DefaultInputModes:    []string{"text/plain"}, DefaultOutputModes: []string{"text/plain"},
		Skills: []*a2a.AgentSkill{{ID: "summarise", Name: "Summarise", Description: "Summarises documents", Tags: []string{"docs"}}},
	}
}

func streamResponses() []*a2a.StreamResponse {
	return []*a2a.StreamResponse{
		{Payload: &a2a.StreamResponseTask{Task: task()}},
		{Payload: &a2a.StreamResponseMessage{Message: userMessage()}},
		{Payload: &a2a.StreamResponseStatusUpdate{StatusUpdate: &a2a.TaskStatusUpdateEvent{TaskID: "t1", ContextID: "ctx",
			Status: &a2a.TaskStatus{State: a2a.TaskStateWorking, Timestamp: &when}}}},
		{Payload: &a2a.StreamResponseArtifactUpdate{ArtifactUpdate: &a2a.TaskArtifactUpdateEvent{TaskID: "t1", ContextID: "ctx",
			Artifact: &a2a.Artifact{ArtifactID: "a1", Parts: []*a2a.Part{{Content: &a2a.PartText{Text: "chunk"}}}}, Append: true, LastChunk: true}}},
	}
}

// roundTrip checks a value through both encodings of ours and through the
// protobuf reference for the same descriptor.
func roundTrip(t *testing.T, fullName string, v a2a.ProtoValue) {
	t.Helper()
	if err := v.Validate(); err != nil {
		t.Fatalf("%s does not validate: %v", fullName, err)
	}
	text := v.AppendJSON(nil)
	back := a2a.NewMessage(fullName)
	if err := back.UnmarshalJSON(text); err != nil {
		t.Fatalf("%s: %v\n%s", fullName, err, text)
	}
	if d := cmp.Diff(v, back, rawJSONByValue); d != "" {
		t.Errorf("%s: JSON round trip differs:\n%s", fullName, d)
	}
	bin := a2a.NewMessage(fullName)
	if err := bin.UnmarshalProto(v.AppendProto(nil)); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(v, bin, rawJSONByValue); d != "" {
		t.Errorf("%s: binary round trip differs:\n%s", fullName, d)
	}
	md := descriptor(t).Messages().ByName(protoreflectName(fullName))
	ref := dynamicpb.NewMessage(md)
	if err := protojson.Unmarshal(text, ref); err != nil {
		t.Fatalf("%s: protojson rejects our JSON: %v\n%s", fullName, err, text)
	}
	refBin := dynamicpb.NewMessage(md)
	if err := proto.Unmarshal(v.AppendProto(nil), refBin); err != nil {
		t.Fatal(err)
	}
	if !proto.Equal(ref, refBin) {
		t.Errorf("%s: our JSON and our binary decode to different messages in the reference", fullName)
	}
}

// rawJSONByValue compares raw JSON as values: a Struct is a map on the
// protobuf wire, so its member order is not kept.
var rawJSONByValue = cmp.Transformer("json", func(r json.RawMessage) any {
	var v any
	if err := json.Unmarshal(r, &v); err != nil {
		return string(r)
	}
	return v
})

func TestRealisticRoundTrips(t *testing.T) {
	roundTrip(t, "lf.a2a.v1.Task", task())
	roundTrip(t, "lf.a2a.v1.AgentCard", agentCard())
	for _, r := range streamResponses() {
		roundTrip(t, "lf.a2a.v1.StreamResponse", r)
	}
	roundTrip(t, "lf.a2a.v1.SendMessageRequest", &a2a.SendMessageRequest{Message: userMessage(),
		Configuration: &a2a.SendMessageConfiguration{AcceptedOutputModes: []string{"text/plain"}, HistoryLength: ptr(int32(0))}})
}

func TestProtoJSONReading(t *testing.T) {
	var tk a2a.Task
	in := `{"id":"t1","context_id":"ctx","status":{"state":3,"timestamp":"2026-11-22T10:30:15.123+01:00"},
		"artifacts":null,"unknownField":{"x":[1,2]},"metadata":{"a":null}}`
	if err := tk.UnmarshalJSON([]byte(in)); err != nil {
		t.Fatal(err)
	}
	if tk.ContextID != "ctx" || tk.Status.State != a2a.TaskStateCompleted || !tk.Status.Timestamp.Equal(when) || tk.Artifacts != nil {
		t.Errorf("decoded %+v", tk)
	}
	if got := string(tk.AppendJSON(nil)); got != `{"id":"t1","contextId":"ctx","status":{"state":"TASK_STATE_COMPLETED","timestamp":"2026-11-22T09:30:15.123Z"},"metadata":{"a":null}}` {
		t.Errorf("re-encoded as %s", got)
	}
}

func TestProtoJSONErrorsNameThePath(t *testing.T) {
	for in, want := range map[string]string{
		`{"id":"t1","status":{"state":"TASK_STATE_DONE"}}`:               "/status/state",
		`{"id":"t1","history":[{"messageId":"m","parts":[{"text":5}]}]}`: "/history/0/parts/0/text",
		`{"id":"t1","history":[{"parts":[{"text":"a","url":"b"}]}]}`:     "/history/0/parts/0/url",
		`{"id":"t1","status":{"timestamp":"yesterday"}}`:                 "/status/timestamp",
		`{"id":"t1","artifacts":[{"parts":[{"raw":"not base64!"}]}]}`:    "/artifacts/0/parts/0/raw",
		`{"id":"t1","metadata":[1]}`:                                     "/metadata",
	} {
		var tk a2a.Task
		err := tk.UnmarshalJSON([]byte(in))
		var e *a2a.Error
		if !errors.As(err, &e) || e.Path != want {
			t.Errorf("%s: got %v, want an error at %s", in, err, want)
		}
	}
}

// TestEnumErrorsListTheValues: a value outside an enum is answered with the
// values to send instead, as a client that guessed v0.3's "user" needs.
func TestEnumErrorsListTheValues(t *testing.T) {
	var m a2a.Message
	err := m.UnmarshalJSON([]byte(`{"messageId":"m","role":"user","parts":[{"text":"hi"}]}`))
	want := `/role: "user" is not a Role value: send one of "ROLE_UNSPECIFIED", "ROLE_USER", "ROLE_AGENT", or its number`
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("got %v, want %s", err, want)
	}
}

func TestValidateRequired(t *testing.T) {
	cases := map[string]struct {
		v    a2a.ProtoValue
		path string
	}{
		"task id":       {&a2a.Task{Status: &a2a.TaskStatus{State: a2a.TaskStateWorking}}, "/id"},
		"status state":  {&a2a.Task{ID: "t", Status: &a2a.TaskStatus{}}, "/status/state"},
		"message parts": {&a2a.Task{ID: "t", Status: &a2a.TaskStatus{State: 1}, History: []*a2a.Message{userMessage(), {MessageID: "m", Role: a2a.RoleUser}}}, "/history/1/parts"},
		"card skills":   {func() *a2a.AgentCard { c := agentCard(); c.Skills = nil; return c }(), "/skills"},
		"oauth flow scope": {func() *a2a.AgentCard {
			c := agentCard()
			c.SecuritySchemes["device"] = &a2a.SecurityScheme{Scheme: &a2a.SecuritySchemeOAuth2SecurityScheme{OAuth2SecurityScheme: &a2a.OAuth2SecurityScheme{Flows: &a2a.OAuthFlows{Flow: &a2a.OAuthFlowsDeviceCode{DeviceCode: &a2a.DeviceCodeOAuthFlow{TokenURL: "x", DeviceAuthorizationURL: "y"}}}}}}
			return c
		}(), "/securitySchemes/device/oauth2SecurityScheme/flows/deviceCode/scopes"},
	}
	for name, c := range cases {
		err := c.v.Validate()
		var e *a2a.Error
		if !errors.As(err, &e) || e.Path != c.path || e.Rule != "required" {
			t.Errorf("%s: got %v, want required at %s", name, err, c.path)
		}
	}
	if err := task().Validate(); err != nil {
		t.Errorf("valid task rejected: %v", err)
	}
}

func TestServiceDescription(t *testing.T) {
	svc := a2a.A2AService
	if svc.Name != "lf.a2a.v1.A2AService" || len(svc.Methods) != 11 {
		t.Fatalf("%s with %d methods", svc.Name, len(svc.Methods))
	}
	m := svc.Methods[1]
	if m.Name != "SendStreamingMessage" || !m.ServerStreaming || m.FullMethod != "/lf.a2a.v1.A2AService/SendStreamingMessage" {
		t.Errorf("%+v", m)
	}
	if _, ok := m.NewResponse().(*a2a.StreamResponse); !ok {
		t.Error("NewResponse has the wrong type")
	}
	if len(m.HTTP) != 2 || m.HTTP[0].Method != "POST" || m.HTTP[0].Path != "/message:stream" || m.HTTP[0].Body != "*" {
		t.Errorf("http rules %+v", m.HTTP)
	}
}

func protoreflectName(full string) protoreflect.Name {
	return protoreflect.Name(full[len("lf.a2a.v1."):])
}
