package v03_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	a2a "github.com/agui-gen/agui-gen/gen/a2a"
	"github.com/agui-gen/agui-gen/gen/a2a/a2av03"
	"github.com/agui-gen/agui-gen/gen/a2a/a2av03pb"
)

func ptr[T any](v T) *T { return &v }

// Parts round-trip where both versions can say them; a 1.0 data value that
// is not an object is wrapped, since a 0.3 data part is an object.
func TestParts(t *testing.T) {
	parts := []*a2a.Part{
		{Content: &a2a.PartText{Text: "hi"}, Metadata: json.RawMessage(`{"k":1}`)},
		{Content: &a2a.PartRaw{Raw: []byte{0, 1, 0xff}}, Filename: "a.bin", MediaType: "application/octet-stream"},
		{Content: &a2a.PartURL{URL: "https://example.com/a.pdf"}, MediaType: "application/pdf"},
		{Content: &a2a.PartData{Data: json.RawMessage(`{"a":[1,2]}`)}},
	}
	for _, p := range parts {
		back, err := a2a.FromV03Part(a2a.ToV03Part(p))
		if err != nil {
			t.Fatal(err)
		}
		if !cmp.Equal(p.AppendJSON(nil), back.AppendJSON(nil)) {
			t.Errorf("round trip: %s became %s", p.AppendJSON(nil), back.AppendJSON(nil))
		}
	}
	wrapped := a2a.ToV03Part(&a2a.Part{Content: &a2a.PartData{Data: json.RawMessage(`[1,2]`)}})
	if got := string(wrapped.AppendJSON(nil)); got != `{"data":{"value":[1,2]},"kind":"data"}` {
		t.Errorf("a list as 0.3 data: %s", got)
	}
	if a2a.ToV03Part(&a2a.Part{}) != nil {
		t.Error("a part with no content has no 0.3 form")
	}
}

// A bad value is refused where it is, in the 0.3 request's terms.
func TestBadBytesAreLocated(t *testing.T) {
	var p a2av03.MessageSendParams
	if err := p.UnmarshalJSON([]byte(`{"message":{"kind":"message","messageId":"m","role":"user","parts":[{"kind":"text","text":"x"},{"kind":"file","file":{"bytes":"%%%"}}]}}`)); err != nil {
		t.Fatal(err)
	}
	_, err := a2a.FromV03SendMessageRequest(&p)
	var ce *a2a.CompatError
	if !errors.As(err, &ce) || ce.Path != "/message/parts/1/file/bytes" {
		t.Fatalf("got %v", err)
	}
}

// 0.3's blocking is 1.0's returnImmediately turned over; its push config
// moves into the configuration's task push config.
func TestSendConfiguration(t *testing.T) {
	for _, c := range []struct {
		blocking  *bool
		immediate bool
	}{{nil, false}, {ptr(true), false}, {ptr(false), true}} {
		got, err := a2a.FromV03SendMessageConfiguration(&a2av03.MessageSendConfiguration{Blocking: c.blocking,
			PushNotificationConfig: &a2av03.PushNotificationConfig{URL: "https://client.example.com/hook", Token: ptr("tok")}})
		if err != nil {
			t.Fatal(err)
		}
		if got.ReturnImmediately != c.immediate || got.TaskPushNotificationConfig == nil || got.TaskPushNotificationConfig.Token != "tok" {
			t.Errorf("blocking %v: %s", c.blocking, got.AppendJSON(nil))
		}
	}
}

// Push configs: 0.3 lists authentication schemes, 1.0 names one, so a
// config with two keeps the first; the rest round-trips.
func TestPushConfigs(t *testing.T) {
	in := &a2av03.TaskPushNotificationConfig{TaskID: "t1", PushNotificationConfig: a2av03.PushNotificationConfig{
		ID: ptr("c1"), URL: "https://client.example.com/hook", Token: ptr("tok"),
		Authentication: &a2av03.PushNotificationAuthenticationInfo{Schemes: []string{"Bearer", "Basic"}, Credentials: ptr("cred")}}}
	v1, err := a2a.FromV03TaskPushNotificationConfig(in)
	if err != nil {
		t.Fatal(err)
	}
	if got := string(v1.AppendJSON(nil)); got != `{"id":"c1","taskId":"t1","url":"https://client.example.com/hook","token":"tok","authentication":{"scheme":"Bearer","credentials":"cred"}}` {
		t.Fatalf("1.0: %s", got)
	}
	back := a2a.ToV03TaskPushNotificationConfig(v1)
	in.PushNotificationConfig.Authentication.Schemes = []string{"Bearer"} // what 1.0 cannot hold
	if !cmp.Equal(in.AppendJSON(nil), back.AppendJSON(nil)) {
		t.Errorf("round trip: %s\nbecame %s", in.AppendJSON(nil), back.AppendJSON(nil))
	}
}

// A status update is final when the stream ends with it: terminal states
// and those that wait for the client.
func TestFinal(t *testing.T) {
	for state, final := range map[a2a.TaskState]bool{a2a.TaskStateWorking: false, a2a.TaskStateSubmitted: false,
		a2a.TaskStateCompleted: true, a2a.TaskStateInputRequired: true, a2a.TaskStateAuthRequired: true, a2a.TaskStateCanceled: true} {
		ev := a2a.ToV03TaskStatusUpdateEvent(&a2a.TaskStatusUpdateEvent{TaskID: "t", ContextID: "c", Status: &a2a.TaskStatus{State: state}})
		if ev.Final != final {
			t.Errorf("%v: final %v", state, ev.Final)
		}
	}
}

// The card a 0.3 client reads: where to call and how, its security in 0.3's
// shape, and what 1.0 has that 0.3 cannot say is left out (the interfaces'
// tenants, a device-code flow).
func TestCard(t *testing.T) {
	card := &a2a.AgentCard{Name: "n", Description: "d", Version: "1",
		SupportedInterfaces: []*a2a.AgentInterface{
			{URL: "https://agent.example.com/rest", ProtocolBinding: "HTTP+JSON", ProtocolVersion: "1.0"},
			{URL: "https://agent.example.com/rpc", ProtocolBinding: "JSONRPC", ProtocolVersion: "1.0", Tenant: "acme"},
		},
		Capabilities: &a2a.AgentCapabilities{Streaming: ptr(true), ExtendedAgentCard: ptr(true)},
		SecuritySchemes: map[string]*a2a.SecurityScheme{
			"key": {Scheme: &a2a.SecuritySchemeAPIKeySecurityScheme{APIKeySecurityScheme: &a2a.APIKeySecurityScheme{Location: "header", Name: "X-Key"}}},
			"dev": {Scheme: &a2a.SecuritySchemeOAuth2SecurityScheme{OAuth2SecurityScheme: &a2a.OAuth2SecurityScheme{
				Flows: &a2a.OAuthFlows{Flow: &a2a.OAuthFlowsDeviceCode{DeviceCode: &a2a.DeviceCodeOAuthFlow{DeviceAuthorizationURL: "https://a", TokenURL: "https://t"}}}}}},
		},
		SecurityRequirements: []*a2a.SecurityRequirement{{Schemes: map[string]*a2a.StringList{"key": {}}}},
		DefaultInputModes:    []string{"text/plain"}, DefaultOutputModes: []string{"text/plain"},
		Skills: []*a2a.AgentSkill{{ID: "s", Name: "s", Description: "s", Tags: []string{"t"}}},
	}
	got := string(a2a.ToV03AgentCard(card).AppendJSON(nil))
	want := `{"additionalInterfaces":[{"transport":"JSONRPC","url":"https://agent.example.com/rpc"}],"capabilities":{"streaming":true},` +
		`"defaultInputModes":["text/plain"],"defaultOutputModes":["text/plain"],"description":"d","name":"n","preferredTransport":"JSONRPC",` +
		`"protocolVersion":"0.3.0","security":[{"key":[]}],"securitySchemes":{"dev":{"flows":{},"type":"oauth2"},"key":{"in":"header","name":"X-Key","type":"apiKey"}},` +
		`"skills":[{"description":"s","id":"s","name":"s","tags":["t"]}],"supportsAuthenticatedExtendedCard":true,"url":"https://agent.example.com/rpc","version":"1"}`
	if got != want {
		t.Errorf("0.3 card:\n got %s\nwant %s", got, want)
	}
	var c a2av03.AgentCard
	if err := c.UnmarshalJSON([]byte(got)); err != nil {
		t.Fatal(err)
	}
	if err := c.Validate(); err != nil {
		t.Errorf("the 0.3 card is invalid to the 0.3 schema: %v", err)
	}
}

// 0.3's "unknown" is 1.0's unspecified state, both ways; any other value
// without a counterpart is refused.
func TestUnknownState(t *testing.T) {
	if got := a2a.ToV03TaskState(a2a.TaskStateUnspecified); got != a2av03.TaskStateUnknown {
		t.Errorf("unspecified became %q", got)
	}
	if got, err := a2a.FromV03TaskState(a2av03.TaskStateUnknown); err != nil || got != a2a.TaskStateUnspecified {
		t.Errorf("unknown became %v, %v", got, err)
	}
	if _, err := a2a.FromV03TaskState("paused"); err == nil {
		t.Error("a state neither version has was accepted")
	}
}

// Parts of 0.3's proto round-trip where both versions can say them; its
// proto has no place for a part's metadata or a file's name.
func TestProtoParts(t *testing.T) {
	parts := []*a2a.Part{
		{Content: &a2a.PartText{Text: "hi"}},
		{Content: &a2a.PartRaw{Raw: []byte{0, 1, 0xff}}, MediaType: "application/octet-stream"},
		{Content: &a2a.PartURL{URL: "https://example.com/a.pdf"}, MediaType: "application/pdf"},
		{Content: &a2a.PartData{Data: json.RawMessage(`{"a":[1,2]}`)}},
	}
	for _, p := range parts {
		back, err := a2a.FromV03ProtoPart(a2a.ToV03ProtoPart(p))
		if err != nil {
			t.Fatal(err)
		}
		if !cmp.Equal(p.AppendJSON(nil), back.AppendJSON(nil)) {
			t.Errorf("round trip: %s became %s", p.AppendJSON(nil), back.AppendJSON(nil))
		}
	}
	dropped := a2a.ToV03ProtoPart(&a2a.Part{Content: &a2a.PartURL{URL: "u"}, Filename: "a.pdf", Metadata: json.RawMessage(`{"k":1}`)})
	if got := string(dropped.AppendJSON(nil)); got != `{"file":{"fileWithUri":"u"}}` {
		t.Errorf("what 0.3's proto has no place for: %s", got)
	}
	if got := string(a2a.ToV03ProtoPart(&a2a.Part{Content: &a2a.PartData{Data: json.RawMessage(`[1,2]`)}}).AppendJSON(nil)); got != `{"data":{"data":{"value":[1,2]}}}` {
		t.Errorf("a list as 0.3 data: %s", got)
	}
	if _, err := a2a.FromV03ProtoPart(&a2av03pb.Part{Part: &a2av03pb.PartFile{File: &a2av03pb.FilePart{MIMEType: "text/plain"}}}); err == nil {
		t.Error("a file part with neither a URI nor bytes")
	}
}

// Requests of 0.3's proto name tasks and configs by resource name; a name
// of another shape is refused, located.
func TestProtoResourceNames(t *testing.T) {
	get, err := a2a.FromV03ProtoGetTaskRequest(&a2av03pb.GetTaskRequest{Name: "tasks/t-1", HistoryLength: 2})
	if err != nil || get.ID != "t-1" || get.HistoryLength == nil || *get.HistoryLength != 2 {
		t.Fatalf("%v %s", err, get.AppendJSON(nil))
	}
	if get, _ := a2a.FromV03ProtoGetTaskRequest(&a2av03pb.GetTaskRequest{Name: "tasks/t-1"}); get.HistoryLength != nil {
		t.Error("a history length of 0 is none asked for")
	}
	cfg, err := a2a.FromV03ProtoDeleteTaskPushNotificationConfigRequest(&a2av03pb.DeleteTaskPushNotificationConfigRequest{Name: "tasks/t-1/pushNotificationConfigs/c-1"})
	if err != nil || cfg.TaskID != "t-1" || cfg.ID != "c-1" {
		t.Fatalf("%v %+v", err, cfg)
	}
	only, err := a2a.FromV03ProtoGetTaskPushNotificationConfigRequest(&a2av03pb.GetTaskPushNotificationConfigRequest{Name: "tasks/t-1/pushNotificationConfigs/"})
	if err != nil || only.TaskID != "t-1" || only.ID != "t-1" {
		t.Fatalf("the task's only config: %v %+v", err, only)
	}
	for _, bad := range []string{"", "t-1", "tasks/", "tasks/a/b", "task/t-1"} {
		_, err := a2a.FromV03ProtoCancelTaskRequest(&a2av03pb.CancelTaskRequest{Name: bad})
		var ce *a2a.CompatError
		if !errors.As(err, &ce) || ce.Path != "/name" {
			t.Errorf("%q: %v", bad, err)
		}
	}
	if _, err := a2a.FromV03ProtoListTaskPushNotificationConfigsRequest(&a2av03pb.ListTaskPushNotificationConfigRequest{Parent: "t-1"}); err == nil || !strings.HasPrefix(err.Error(), "/parent: ") {
		t.Errorf("a list without its task: %v", err)
	}
}

// A push config: 0.3's proto nests it beside its resource name and lists
// authentication schemes; the create request names the task as parent.
func TestProtoPushConfigs(t *testing.T) {
	created, err := a2a.FromV03ProtoTaskPushNotificationConfigOfCreateTaskPushNotificationConfigRequest(&a2av03pb.CreateTaskPushNotificationConfigRequest{Parent: "tasks/t-1",
		Config: &a2av03pb.TaskPushNotificationConfig{PushNotificationConfig: &a2av03pb.PushNotificationConfig{ID: "c-1", URL: "https://hook", Token: "tok",
			Authentication: &a2av03pb.AuthenticationInfo{Schemes: []string{"Bearer", "Basic"}, Credentials: "cred"}}}})
	want := &a2a.TaskPushNotificationConfig{TaskID: "t-1", ID: "c-1", URL: "https://hook", Token: "tok", Authentication: &a2a.AuthenticationInfo{Scheme: "Bearer", Credentials: "cred"}}
	if err != nil || string(created.AppendJSON(nil)) != string(want.AppendJSON(nil)) {
		t.Fatalf("%v %s", err, created.AppendJSON(nil))
	}
	if got := string(a2a.ToV03ProtoTaskPushNotificationConfig(want).AppendJSON(nil)); got !=
		`{"name":"tasks/t-1/pushNotificationConfigs/c-1","pushNotificationConfig":{"id":"c-1","url":"https://hook","token":"tok","authentication":{"schemes":["Bearer"],"credentials":"cred"}}}` {
		t.Errorf("down: %s", got)
	}
	byRequest, err := a2a.FromV03ProtoTaskPushNotificationConfigOfCreateTaskPushNotificationConfigRequest(&a2av03pb.CreateTaskPushNotificationConfigRequest{Parent: "tasks/t-1", ConfigID: "c-2",
		Config: &a2av03pb.TaskPushNotificationConfig{PushNotificationConfig: &a2av03pb.PushNotificationConfig{URL: "https://hook"}}})
	if err != nil || byRequest.ID != "c-2" {
		t.Errorf("the id the request names: %v %+v", err, byRequest)
	}
	if _, err := a2a.FromV03ProtoTaskPushNotificationConfigOfCreateTaskPushNotificationConfigRequest(&a2av03pb.CreateTaskPushNotificationConfigRequest{Parent: "tasks/t-1"}); err == nil {
		t.Error("a create request without a config")
	}
}

// 0.3's proto: "blocking" when a configuration is sent, content as parts,
// "final" on status updates, and the card's 0.3 members.
func TestProtoMessagesAndCard(t *testing.T) {
	req, err := a2a.FromV03ProtoSendMessageRequest(&a2av03pb.SendMessageRequest{
		Request:       &a2av03pb.Message{MessageID: "m", Role: a2av03pb.RoleUser, Content: []*a2av03pb.Part{{Part: &a2av03pb.PartText{Text: "hi"}}}},
		Configuration: &a2av03pb.SendMessageConfiguration{Blocking: false, HistoryLength: 3}})
	if err != nil {
		t.Fatal(err)
	}
	if got := string(req.AppendJSON(nil)); got != `{"message":{"messageId":"m","role":"ROLE_USER","parts":[{"text":"hi"}]},"configuration":{"historyLength":3,"returnImmediately":true}}` {
		t.Errorf("up: %s", got)
	}
	if _, err := a2a.FromV03ProtoSendMessageRequest(&a2av03pb.SendMessageRequest{Request: &a2av03pb.Message{Content: []*a2av03pb.Part{{}, {}}}}); err == nil || !strings.HasPrefix(err.Error(), "/message/content/0: ") {
		t.Errorf("an empty part, located: %v", err)
	}
	ev := a2a.ToV03ProtoTaskStatusUpdateEvent(&a2a.TaskStatusUpdateEvent{TaskID: "t", Status: &a2a.TaskStatus{State: a2a.TaskStateInputRequired}})
	if !ev.Final || ev.Status.State != a2av03pb.TaskStateInputRequired {
		t.Errorf("an update that waits for the client: %s", ev.AppendJSON(nil))
	}
	if st := a2a.ToV03ProtoTaskState(a2a.TaskStateCanceled); st != a2av03pb.TaskStateCancelled {
		t.Errorf("canceled, as 0.3 spells it: %v", st)
	}
	yes := true
	card := a2a.ToV03ProtoAgentCard(&a2a.AgentCard{Name: "n", Capabilities: &a2a.AgentCapabilities{ExtendedAgentCard: &yes},
		SupportedInterfaces: []*a2a.AgentInterface{
			{URL: "h:1", ProtocolBinding: "GRPC", ProtocolVersion: "0.3"},
			{URL: "http://h", ProtocolBinding: "JSONRPC", ProtocolVersion: "0.3"},
			{URL: "http://h/v1", ProtocolBinding: "JSONRPC", ProtocolVersion: "1.0"}},
		SecurityRequirements: []*a2a.SecurityRequirement{{Schemes: map[string]*a2a.StringList{"bearer": {}}}}})
	if card.URL != "http://h" || card.PreferredTransport != "JSONRPC" || card.ProtocolVersion != "0.3.0" || len(card.AdditionalInterfaces) != 2 ||
		card.AdditionalInterfaces[1].Transport != "GRPC" || !card.SupportsAuthenticatedExtendedCard || len(card.Security) != 1 {
		t.Errorf("the card: %s", card.AppendJSON(nil))
	}
}

// A 0.3 card, as its proto has it, read as 1.0's: its url and preferred
// transport, then its additional interfaces, each once at the card's
// version; its security and extended card moved back.
func TestProtoCardRead(t *testing.T) {
	card, err := a2a.FromV03ProtoAgentCard(&a2av03pb.AgentCard{Name: "n", ProtocolVersion: "0.3.0", URL: "h:1", PreferredTransport: "GRPC",
		AdditionalInterfaces:              []*a2av03pb.AgentInterface{{URL: "h:1", Transport: "GRPC"}, {URL: "http://h", Transport: "JSONRPC"}},
		SupportsAuthenticatedExtendedCard: true,
		Security:                          []*a2av03pb.Security{{Schemes: map[string]*a2av03pb.StringList{"oauth": {List: []string{"read"}}}}}})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, i := range card.SupportedInterfaces {
		got = append(got, i.ProtocolBinding+" "+i.URL+" "+i.ProtocolVersion)
	}
	if !cmp.Equal(got, []string{"GRPC h:1 0.3", "JSONRPC http://h 0.3"}) || card.Capabilities == nil || card.Capabilities.ExtendedAgentCard == nil ||
		len(card.SecurityRequirements) != 1 || card.SecurityRequirements[0].Schemes["oauth"].List[0] != "read" {
		t.Errorf("%v %s", got, card.AppendJSON(nil))
	}
}
