// Interop of gen/a2a with the A2A Go SDK, github.com/a2aproject/a2a-go/v2
// at v2.4.0, whose package a2a speaks the A2A v1.0 JSON through
// encoding/json and hand-written MarshalJSON methods, and whose a2apb/v1 and
// pbconv packages are its gRPC binding.
//
// For every value, built with the SDK's own constructors:
//
//	(a) json.Marshal(sdk value) → agui UnmarshalJSON (strict: no member the
//	    proto lacks) → Validate → AppendJSON, and the two documents agree
//	    as JSON values except for the differences listed in the case: members
//	    the SDK writes with a default value, which ProtoJSON leaves out, and
//	    timestamps written with an offset or another number of fraction
//	    digits. Anything else fails.
//	(b) agui AppendJSON → json.Unmarshal into the SDK type → equal to the
//	    value we started from.
//	(c) where pbconv converts the type: agui AppendProto → proto.Unmarshal
//	    into a2apb → pbconv.FromProto… → equal to the value we started from,
//	    and pbconv.ToProto… → proto.Marshal → agui UnmarshalProto → the same
//	    JSON as (a).
//
// One difference in the wire format is not a default: the SDK writes a
// SecurityRequirement's scopes as a bare array, {"schemes":{"oauth":["read"]}},
// where ProtoJSON of map<string, StringList> is {"schemes":{"oauth":{"list":
// ["read"]}}} (a2aproject/a2a-java#667 is the same mismatch in the Java SDK).
// agui rejects the SDK's form and the SDK rejects agui's; the tests assert
// both, then rewrite one form into the other (a2aSecurityToProto,
// a2aSecurityToSDK) to check everything else.
//
// The SDK is a test dependency pinned in go.mod and go.sum (the module
// proxy serves v2.4.0 though its version list leaves it out), so `go mod
// download` fetches it like any other module and there is nothing to skip
// at run time.
package interop_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	a2ago "github.com/a2aproject/a2a-go/v2/a2a"
	a2apb "github.com/a2aproject/a2a-go/v2/a2apb/v1"
	"github.com/a2aproject/a2a-go/v2/a2apb/v1/pbconv"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"google.golang.org/protobuf/proto"

	"github.com/agui-gen/agui-gen/gen/a2a"
)

// a2aGenValue is what the tests need of a gen/a2a message.
type a2aGenValue interface {
	a2a.Value
	a2a.ProtoValue
}

type a2aCase struct {
	name  string
	proto string // full name of the gen/a2a message
	value any    // pointer to an a2a-go value
	// defaults are the JSON paths where the SDK writes a default value
	// ("", 0, false, null, [] or {}) that ProtoJSON leaves out.
	defaults []string
	// retimed are the JSON paths of timestamps that the SDK writes as
	// time.Time.MarshalJSON does (local offset, trailing zeros trimmed) and
	// ProtoJSON in UTC with 0, 3, 6 or 9 fraction digits: same instant,
	// other text.
	retimed []string
	// validateErr is the JSON pointer that agui's Validate reports, when
	// the SDK's value breaks a REQUIRED rule of the proto.
	validateErr string
	// pb holds the SDK's gRPC converters, nil where it has none for the
	// type or they cannot carry the value.
	pb *a2aPBConv
}

// a2aPBConv converts between an a2a-go value and its a2apb message.
type a2aPBConv struct {
	to   func(any) (proto.Message, error)
	new  func() proto.Message
	from func(proto.Message) (any, error)
}

func TestA2AGoInterop(t *testing.T) {
	for _, c := range a2aCases() {
		t.Run(c.name, func(t *testing.T) {
			sdkJSON, err := json.Marshal(c.value)
			if err != nil {
				t.Fatalf("a2a-go marshal: %v", err)
			}
			hasSecurity := bytes.Contains(sdkJSON, []byte(`"securityRequirements"`))
			in := sdkJSON
			if hasSecurity {
				if err := a2aDecodeGen(c.proto, sdkJSON); err == nil || !strings.Contains(err.Error(), "securityRequirements") {
					t.Fatalf("agui accepted the SDK's bare-array SecurityRequirement scopes, or failed elsewhere: %v", err)
				}
				in = a2aSecurityToProto(t, sdkJSON)
			}

			// (a) SDK JSON → agui → agui JSON.
			v := a2a.NewMessage(c.proto).(a2aGenValue)
			if err := (a2a.Decoder{Strict: true}).Decode(in, v); err != nil {
				t.Fatalf("agui decode: %v\n%s", err, in)
			}
			switch err := v.Validate(); {
			case c.validateErr == "" && err != nil:
				t.Fatalf("agui Validate: %v", err)
			case c.validateErr != "":
				var e *a2a.Error
				if !errors.As(err, &e) || e.Path != c.validateErr {
					t.Fatalf("agui Validate = %v, want a violation at %s", err, c.validateErr)
				}
			}
			aguiJSON := v.AppendJSON(nil)
			a2aCompareJSON(t, in, aguiJSON, c.defaults, c.retimed)

			// (b) agui JSON → SDK.
			back := aguiJSON
			if hasSecurity {
				if err := json.Unmarshal(aguiJSON, a2aNewLike(c.value)); err == nil {
					t.Fatal("a2a-go accepted ProtoJSON SecurityRequirement scopes ({\"list\": [...]})")
				}
				back = a2aSecurityToSDK(t, aguiJSON)
			}
			got := a2aNewLike(c.value)
			if err := json.Unmarshal(back, got); err != nil {
				t.Fatalf("a2a-go decode of agui JSON: %v\n%s", err, back)
			}
			if d := cmp.Diff(c.value, got, a2aCmpOpts...); d != "" {
				t.Errorf("a2a-go decode of agui JSON differs from the original (-want +got):\n%s", d)
			}

			// (c) binary, through the SDK's gRPC binding.
			if c.pb == nil {
				return
			}
			pb := c.pb.new()
			if err := proto.Unmarshal(v.AppendProto(nil), pb); err != nil {
				t.Fatalf("a2apb unmarshal of agui binary: %v", err)
			}
			gotPB, err := c.pb.from(pb)
			if err != nil {
				t.Fatalf("pbconv from proto: %v", err)
			}
			if d := cmp.Diff(c.value, gotPB, a2aCmpOpts...); d != "" {
				t.Errorf("pbconv of agui binary differs from the original (-want +got):\n%s", d)
			}
			sdkPB, err := c.pb.to(c.value)
			if err != nil {
				t.Fatalf("pbconv to proto: %v", err)
			}
			wire, err := proto.Marshal(sdkPB)
			if err != nil {
				t.Fatal(err)
			}
			v2 := a2a.NewMessage(c.proto)
			if err := v2.UnmarshalProto(wire); err != nil {
				t.Fatalf("agui decode of a2apb binary: %v", err)
			}
			a2aCompareJSON(t, aguiJSON, v2.AppendJSON(nil), nil, nil)
		})
	}
}

func a2aDecodeGen(fullName string, data []byte) error {
	v := a2a.NewMessage(fullName)
	if err := v.UnmarshalJSON(data); err != nil {
		return err
	}
	return v.Validate()
}

// a2aNewLike returns a new zero value of the type v points to.
func a2aNewLike(v any) any { return reflect.New(reflect.TypeOf(v).Elem()).Interface() }

// a2aCmpOpts compare SDK values: time.Time by instant (cmp uses its Equal),
// nil and empty slices and maps alike (the SDK writes nil scopes as null and
// reads [] as empty).
var a2aCmpOpts = []cmp.Option{cmpopts.EquateEmpty()}

// a2aCompareJSON checks that two JSON documents are the same value but for
// the listed default members of want and the listed retimed timestamps.
func a2aCompareJSON(t *testing.T, want, got []byte, defaults, retimed []string) {
	t.Helper()
	var w, g any
	if err := json.Unmarshal(want, &w); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatalf("%v\n%s", err, got)
	}
	var d a2aDeltas
	d.walk("", w, g)
	slices.Sort(d.defaults)
	slices.Sort(d.retimed)
	if len(d.mismatches) > 0 {
		t.Errorf("JSON differs:\n%s\nwant (a2a-go): %s\ngot (agui):    %s", strings.Join(d.mismatches, "\n"), want, got)
	}
	if !slices.Equal(d.defaults, sortedCopy(defaults)) {
		t.Errorf("defaults the SDK writes and ProtoJSON omits:\n got  %q\n want %q", d.defaults, sortedCopy(defaults))
	}
	if !slices.Equal(d.retimed, sortedCopy(retimed)) {
		t.Errorf("timestamps written differently:\n got  %q\n want %q", d.retimed, sortedCopy(retimed))
	}
}

func sortedCopy(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	if s == nil {
		s = []string{}
	}
	return s
}

type a2aDeltas struct {
	defaults, retimed, mismatches []string
}

func (d *a2aDeltas) walk(path string, w, g any) {
	switch wv := w.(type) {
	case map[string]any:
		gv, ok := g.(map[string]any)
		if !ok {
			d.mismatches = append(d.mismatches, fmt.Sprintf("%s: %v vs %v", path, w, g))
			return
		}
		for k, x := range wv {
			p := strings.TrimPrefix(path+"."+k, ".")
			y, ok := gv[k]
			switch {
			case ok:
				d.walk(p, x, y)
			case a2aIsDefault(x):
				d.defaults = append(d.defaults, p)
			default:
				d.mismatches = append(d.mismatches, fmt.Sprintf("%s: %v only in a2a-go", p, x))
			}
		}
		for k, y := range gv {
			if _, ok := wv[k]; !ok {
				d.mismatches = append(d.mismatches, fmt.Sprintf("%s: %v only in agui", strings.TrimPrefix(path+"."+k, "."), y))
			}
		}
	case []any:
		gv, ok := g.([]any)
		if !ok || len(gv) != len(wv) {
			d.mismatches = append(d.mismatches, fmt.Sprintf("%s: %v vs %v", path, w, g))
			return
		}
		for i := range wv {
			d.walk(path+"["+strconv.Itoa(i)+"]", wv[i], gv[i])
		}
	case string:
		gv, ok := g.(string)
		if ok && gv != wv {
			tw, errW := time.Parse(time.RFC3339Nano, wv)
			tg, errG := time.Parse(time.RFC3339Nano, gv)
			if errW == nil && errG == nil && tw.Equal(tg) {
				d.retimed = append(d.retimed, path)
				return
			}
		}
		if !ok || gv != wv {
			d.mismatches = append(d.mismatches, fmt.Sprintf("%s: %q vs %v", path, wv, g))
		}
	default:
		if !reflect.DeepEqual(w, g) {
			d.mismatches = append(d.mismatches, fmt.Sprintf("%s: %v vs %v", path, w, g))
		}
	}
}

func a2aIsDefault(v any) bool {
	switch v := v.(type) {
	case nil:
		return true
	case string:
		return v == ""
	case bool:
		return !v
	case float64:
		return v == 0
	case []any:
		return len(v) == 0
	case map[string]any:
		return len(v) == 0
	}
	return false
}

// a2aSecurityToProto rewrites the SDK's SecurityRequirement scopes, bare
// arrays, into ProtoJSON StringList objects; a2aSecurityToSDK undoes it.
func a2aSecurityToProto(t *testing.T, data []byte) []byte {
	return a2aRewriteSecurity(t, data, func(scopes any) any { return map[string]any{"list": scopes} })
}

func a2aSecurityToSDK(t *testing.T, data []byte) []byte {
	return a2aRewriteSecurity(t, data, func(list any) any {
		if l, ok := list.(map[string]any)["list"]; ok {
			return l
		}
		return []any{}
	})
}

func a2aRewriteSecurity(t *testing.T, data []byte, rewrite func(any) any) []byte {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber() // keep numbers as written
	var doc any
	if err := dec.Decode(&doc); err != nil {
		t.Fatal(err)
	}
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				if reqs, ok := x.([]any); ok && k == "securityRequirements" {
					for _, r := range reqs {
						schemes, _ := r.(map[string]any)["schemes"].(map[string]any)
						for name, scopes := range schemes {
							schemes[name] = rewrite(scopes)
						}
					}
					continue
				}
				walk(x)
			}
		case []any:
			for _, x := range v {
				walk(x)
			}
		}
	}
	walk(doc)
	out, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// a2aPB adapts a pair of pbconv functions.
func a2aPB[S any, P proto.Message](to func(*S) (P, error), from func(P) (*S, error)) *a2aPBConv {
	return &a2aPBConv{
		to:   func(v any) (proto.Message, error) { return to(v.(*S)) },
		new:  func() proto.Message { var p P; return p.ProtoReflect().Type().New().Interface() },
		from: func(m proto.Message) (any, error) { return from(m.(P)) },
	}
}

// a2aStreamPB adapts pbconv's StreamResponse functions, which take and
// return the bare event.
var a2aStreamPB = &a2aPBConv{
	to: func(v any) (proto.Message, error) {
		return pbconv.ToProtoStreamResponse(v.(*a2ago.StreamResponse).Event)
	},
	new: func() proto.Message { return new(a2apb.StreamResponse) },
	from: func(m proto.Message) (any, error) {
		ev, err := pbconv.FromProtoStreamResponse(m.(*a2apb.StreamResponse))
		return &a2ago.StreamResponse{Event: ev}, err
	},
}

// a2aSendResponsePB adapts pbconv's SendMessageResponse functions; the SDK's
// JSON-RPC binding writes a SendMessageResult as a StreamResponse.
var a2aSendResponsePB = &a2aPBConv{
	to: func(v any) (proto.Message, error) {
		return pbconv.ToProtoSendMessageResponse(v.(*a2ago.StreamResponse).Event.(a2ago.SendMessageResult))
	},
	new: func() proto.Message { return new(a2apb.SendMessageResponse) },
	from: func(m proto.Message) (any, error) {
		r, err := pbconv.FromProtoSendMessageResponse(m.(*a2apb.SendMessageResponse))
		return &a2ago.StreamResponse{Event: r}, err
	},
}

func a2aCases() []a2aCase {
	ts := time.Date(2026, 3, 14, 15, 9, 26, 535000000, time.UTC)
	// A status time in another zone with a fraction that ProtoJSON pads.
	tsZone := time.Date(2026, 3, 14, 17, 10, 0, 500000000, time.FixedZone("CEST", 2*60*60))

	card := a2aAgentCard()
	task := a2aTask(ts)
	userMsg := task.History[0]
	agentMsg := task.History[1]
	// Data parts whose value is not an object: google.protobuf.Value allows
	// any JSON value, and the SDK's JSON does too, but its gRPC converters
	// refuse them (ToProto) or read them as {} (FromProto), so they stay out
	// of the cases that go through pbconv.
	values := a2ago.NewMessageForTask(a2ago.MessageRoleAgent, task,
		a2ago.NewDataPart([]any{1.0, "two", true, nil, []any{}, map[string]any{}}),
		a2ago.NewDataPart("just a string"),
		a2ago.NewDataPart(-2.5e-7),
		a2ago.NewDataPart(false))

	status := a2ago.NewStatusUpdateEvent(task, a2ago.TaskStateInputRequired,
		a2ago.NewMessageForTask(a2ago.MessageRoleAgent, task, a2ago.NewTextPart("Which quarter?")))
	status.Status.Timestamp = &tsZone
	status.SetMeta("sequence", 4.0)

	newArtifact := a2ago.NewArtifactEvent(task, a2ago.NewTextPart("## Q1 summary\n"))
	newArtifact.Artifact.Name = "summary.md"
	chunk := a2ago.NewArtifactUpdateEvent(task, newArtifact.Artifact.ID,
		a2ago.NewTextPart("Revenue grew 12%."), a2ago.NewDataPart(map[string]any{"revenueGrowth": 0.12}))
	chunk.LastChunk = true
	chunk.SetMeta("chunk", 2.0)

	historyLength := 0
	send := &a2ago.SendMessageRequest{
		Tenant: "acme",
		Config: &a2ago.SendMessageConfig{
			AcceptedOutputModes: []string{"text/plain", "application/json"},
			ReturnImmediately:   true,
			HistoryLength:       &historyLength, // zero, but set: optional int32 keeps it
			PushConfig: &a2ago.PushConfig{
				ID:    "push-1",
				URL:   "https://client.example.com/a2a/push",
				Token: "opaque-token",
				Auth:  &a2ago.PushAuthInfo{Scheme: "Bearer", Credentials: "s3cr3t"},
			},
		},
		Message:  a2ago.NewMessage(a2ago.MessageRoleUser, a2ago.NewTextPart("Summarise the attached report.")),
		Metadata: map[string]any{"traceId": "4bf92f3577b34da6a3ce929d0e0e4736"},
	}

	hl := 5
	after := ts.Add(-time.Hour)
	pushCfg := &a2ago.PushConfig{
		Tenant: "acme", TaskID: task.ID, ID: "push-2", URL: "https://client.example.com/hook",
		Auth: &a2ago.PushAuthInfo{Scheme: "Basic"},
	}

	stream := func(name string, ev a2ago.Event, retimed ...string) a2aCase {
		return a2aCase{
			name: name, proto: "lf.a2a.v1.StreamResponse", value: &a2ago.StreamResponse{Event: ev},
			retimed: retimed, pb: a2aStreamPB,
		}
	}

	cases := []a2aCase{
		// No pb: pbconv.ToProtoAgentCard takes OAuth flows as pointers
		// (*a2a.AuthorizationCodeOAuthFlow), which the SDK's MarshalJSON
		// refuses and its UnmarshalJSON never produces (it yields values); it
		// also drops pkceRequired and sets documentationUrl, iconUrl and the
		// capability flags even when empty or false.
		{name: "AgentCard", proto: "lf.a2a.v1.AgentCard", value: card,
			// The SDK writes a requirement's empty scopes as [] and nil ones as
			// null, {"list": []} and {"list": null} in ProtoJSON form: an empty
			// repeated field, which ProtoJSON omits.
			defaults: []string{
				"securityRequirements[0].schemes.apiKeyHeader.list",
				"securityRequirements[1].schemes.mtls.list",
				"securityRequirements[2].schemes.bearer.list",
			}},
		{name: "Task", proto: "lf.a2a.v1.Task", value: task, pb: a2aPB(pbconv.ToProtoTask, pbconv.FromProtoTask)},
		{name: "Message", proto: "lf.a2a.v1.Message", value: agentMsg},
		{name: "Message/user", proto: "lf.a2a.v1.Message", value: userMsg},
		{name: "Message/dataValues", proto: "lf.a2a.v1.Message", value: values},
		stream("StreamResponse/task", task),
		stream("StreamResponse/message", agentMsg),
		{name: "StreamResponse/message/dataValues", proto: "lf.a2a.v1.StreamResponse", value: &a2ago.StreamResponse{Event: values}},
		stream("StreamResponse/statusUpdate", status, "statusUpdate.status.timestamp"),
		stream("StreamResponse/artifactUpdate/new", newArtifact),
		stream("StreamResponse/artifactUpdate/chunk", chunk),
		// message:send answers with the same wrapper as a stream event.
		{name: "SendMessageResponse/task", proto: "lf.a2a.v1.SendMessageResponse", value: &a2ago.StreamResponse{Event: task}, pb: a2aSendResponsePB},
		{name: "SendMessageResponse/message", proto: "lf.a2a.v1.SendMessageResponse", value: &a2ago.StreamResponse{Event: agentMsg}, pb: a2aSendResponsePB},
		{name: "SendMessageRequest", proto: "lf.a2a.v1.SendMessageRequest", value: send,
			// PushConfig.TaskID has no omitempty; in a send request it is empty.
			defaults: []string{"configuration.taskPushNotificationConfig.taskId"},
			pb:       a2aPB(pbconv.ToProtoSendMessageRequest, pbconv.FromProtoSendMessageRequest)},
		{name: "GetTaskRequest", proto: "lf.a2a.v1.GetTaskRequest",
			value: &a2ago.GetTaskRequest{Tenant: "acme", ID: task.ID, HistoryLength: &hl},
			pb:    a2aPB(pbconv.ToProtoGetTaskRequest, pbconv.FromProtoGetTaskRequest)},
		{name: "ListTasksRequest", proto: "lf.a2a.v1.ListTasksRequest",
			value: &a2ago.ListTasksRequest{
				Tenant: "acme", ContextID: task.ContextID, Status: a2ago.TaskStateWorking, PageSize: 25,
				PageToken: "page-2", HistoryLength: &hl, StatusTimestampAfter: &after, IncludeArtifacts: true,
			},
			pb: a2aPB(pbconv.ToProtoListTasksRequest, pbconv.FromProtoListTasksRequest)},
		{name: "ListTasksResponse", proto: "lf.a2a.v1.ListTasksResponse",
			value: &a2ago.ListTasksResponse{Tasks: []*a2ago.Task{task}, TotalSize: 51, PageSize: 50, NextPageToken: "page-2"},
			pb:    a2aPB(pbconv.ToProtoListTasksResponse, pbconv.FromProtoListTasksResponse)},
		// The last page has no next page token, which the proto marks
		// REQUIRED: the SDK and gen/a2a both write it, as "" (A2A §3.1.4), and
		// the page size, REQUIRED too, as 0.
		{name: "ListTasksResponse/lastPage", proto: "lf.a2a.v1.ListTasksResponse",
			value:       &a2ago.ListTasksResponse{Tasks: []*a2ago.Task{task}, TotalSize: 1, PageSize: 0},
			validateErr: "/nextPageToken"},
		{name: "CancelTaskRequest", proto: "lf.a2a.v1.CancelTaskRequest",
			value: &a2ago.CancelTaskRequest{Tenant: "acme", ID: task.ID, Metadata: map[string]any{"reason": "user abort"}},
			pb:    a2aPB(pbconv.ToProtoCancelTaskRequest, pbconv.FromProtoCancelTaskRequest)},
		{name: "SubscribeToTaskRequest", proto: "lf.a2a.v1.SubscribeToTaskRequest",
			value: &a2ago.SubscribeToTaskRequest{ID: task.ID},
			pb:    a2aPB(pbconv.ToProtoSubscribeToTaskRequest, pbconv.FromProtoSubscribeToTaskRequest)},
		{name: "TaskPushNotificationConfig", proto: "lf.a2a.v1.TaskPushNotificationConfig", value: pushCfg,
			pb: a2aPB(pbconv.ToProtoTaskPushConfig, pbconv.FromProtoTaskPushConfig)},
		{name: "GetTaskPushNotificationConfigRequest", proto: "lf.a2a.v1.GetTaskPushNotificationConfigRequest",
			value: &a2ago.GetTaskPushConfigRequest{Tenant: "acme", TaskID: task.ID, ID: "push-2"},
			pb:    a2aPB(pbconv.ToProtoGetTaskPushConfigRequest, pbconv.FromProtoGetTaskPushConfigRequest)},
		{name: "DeleteTaskPushNotificationConfigRequest", proto: "lf.a2a.v1.DeleteTaskPushNotificationConfigRequest",
			value: &a2ago.DeleteTaskPushConfigRequest{TaskID: task.ID, ID: "push-2"},
			pb:    a2aPB(pbconv.ToProtoDeleteTaskPushConfigRequest, pbconv.FromProtoDeleteTaskPushConfigRequest)},
		{name: "ListTaskPushNotificationConfigsRequest", proto: "lf.a2a.v1.ListTaskPushNotificationConfigsRequest",
			value: &a2ago.ListTaskPushConfigRequest{Tenant: "acme", TaskID: task.ID, PageSize: 10, PageToken: "p1"},
			pb:    a2aPB(pbconv.ToProtoListTaskPushConfigRequest, pbconv.FromProtoListTaskPushConfigRequest)},
		{name: "ListTaskPushNotificationConfigsResponse", proto: "lf.a2a.v1.ListTaskPushNotificationConfigsResponse",
			value: &a2ago.ListTaskPushConfigResponse{Configs: []*a2ago.PushConfig{pushCfg}, NextPageToken: "p2"},
			pb:    a2aPB(pbconv.ToProtoListTaskPushConfigResponse, pbconv.FromProtoListTaskPushConfigResponse)},
		{name: "GetExtendedAgentCardRequest", proto: "lf.a2a.v1.GetExtendedAgentCardRequest",
			value: &a2ago.GetExtendedAgentCardRequest{Tenant: "acme"},
			pb:    a2aPB(pbconv.ToProtoGetExtendedAgentCardRequest, pbconv.FromProtoGetExtendedAgentCardRequest)},
	}
	return cases
}

// a2aAgentCard is a card with every kind of security scheme and OAuth flow,
// skills, capabilities, interfaces and signatures.
func a2aAgentCard() *a2ago.AgentCard {
	tenanted := a2ago.NewAgentInterface("https://agents.example.com/acme/a2a", a2ago.TransportProtocolHTTPJSON)
	tenanted.Tenant = "acme"
	return &a2ago.AgentCard{
		Name:        "Report Agent",
		Description: "Summarises financial reports and answers questions about them.",
		Version:     "2.4.0",
		SupportedInterfaces: []*a2ago.AgentInterface{
			a2ago.NewAgentInterface("https://agents.example.com/a2a/jsonrpc", a2ago.TransportProtocolJSONRPC),
			a2ago.NewAgentInterface("grpc.agents.example.com:443", a2ago.TransportProtocolGRPC),
			tenanted,
		},
		Provider:         &a2ago.AgentProvider{Org: "Example Corp", URL: "https://example.com"},
		DocumentationURL: "https://docs.example.com/report-agent",
		IconURL:          "https://example.com/icon.png",
		Capabilities: a2ago.AgentCapabilities{
			Streaming:         true,
			PushNotifications: true,
			ExtendedAgentCard: true,
			Extensions: []a2ago.AgentExtension{{
				URI:         "https://example.com/ext/citations/v1",
				Description: "Adds citations to answers.",
				Required:    true,
				Params:      map[string]any{"style": "apa", "maxCitations": 5.0},
			}, {URI: "https://example.com/ext/traces/v1"}},
		},
		DefaultInputModes:  []string{"text/plain", "application/pdf"},
		DefaultOutputModes: []string{"text/plain", "text/markdown", "application/json"},
		SecuritySchemes: a2ago.NamedSecuritySchemes{
			"apiKeyHeader": a2ago.APIKeySecurityScheme{Description: "API key in a header", Location: a2ago.APIKeySecuritySchemeLocationHeader, Name: "X-API-Key"},
			"apiKeyQuery":  a2ago.APIKeySecurityScheme{Location: a2ago.APIKeySecuritySchemeLocationQuery, Name: "api_key"},
			"apiKeyCookie": a2ago.APIKeySecurityScheme{Location: a2ago.APIKeySecuritySchemeLocationCookie, Name: "session"},
			"bearer":       a2ago.HTTPAuthSecurityScheme{Scheme: "Bearer", BearerFormat: "JWT", Description: "JWT bearer token"},
			"basic":        a2ago.HTTPAuthSecurityScheme{Scheme: "Basic"},
			"oauthCode": a2ago.OAuth2SecurityScheme{
				Description:       "Authorization code with PKCE",
				Oauth2MetadataURL: "https://auth.example.com/.well-known/oauth-authorization-server",
				Flows: a2ago.AuthorizationCodeOAuthFlow{
					AuthorizationURL: "https://auth.example.com/authorize",
					TokenURL:         "https://auth.example.com/token",
					RefreshURL:       "https://auth.example.com/refresh",
					Scopes:           map[string]string{"reports:read": "Read reports", "reports:write": "Write reports"},
					PKCERequired:     true,
				},
			},
			"oauthClient": a2ago.OAuth2SecurityScheme{Flows: a2ago.ClientCredentialsOAuthFlow{
				TokenURL: "https://auth.example.com/token",
				Scopes:   map[string]string{"agents": "Call agents"},
			}},
			"oauthImplicit": a2ago.OAuth2SecurityScheme{Flows: a2ago.ImplicitOAuthFlow{
				AuthorizationURL: "https://auth.example.com/authorize",
				RefreshURL:       "https://auth.example.com/refresh",
				Scopes:           map[string]string{"reports:read": "Read reports"},
			}},
			"oauthPassword": a2ago.OAuth2SecurityScheme{Flows: a2ago.PasswordOAuthFlow{
				TokenURL: "https://auth.example.com/token",
				Scopes:   map[string]string{"reports:read": "Read reports"},
			}},
			"oauthDevice": a2ago.OAuth2SecurityScheme{Flows: a2ago.DeviceCodeOAuthFlow{
				DeviceAuthorizationURL: "https://auth.example.com/device",
				TokenURL:               "https://auth.example.com/token",
				Scopes:                 map[string]string{"reports:read": "Read reports"},
			}},
			"oidc": a2ago.OpenIDConnectSecurityScheme{Description: "Corporate SSO", OpenIDConnectURL: "https://auth.example.com/.well-known/openid-configuration"},
			"mtls": a2ago.MutualTLSSecurityScheme{Description: "Client certificate"},
		},
		SecurityRequirements: a2ago.SecurityRequirementsOptions{
			{"oauthCode": {"reports:read"}, "apiKeyHeader": {}},
			{"mtls": {}},
			{"bearer": nil},
		},
		Skills: []a2ago.AgentSkill{{
			ID:          "summarise",
			Name:        "Summarise report",
			Description: "Summarises a financial report.",
			Tags:        []string{"finance", "summary"},
			Examples:    []string{"Summarise Q1 2026", "What changed since last quarter?"},
			InputModes:  []string{"application/pdf"},
			OutputModes: []string{"text/markdown"},
			SecurityRequirements: a2ago.SecurityRequirementsOptions{
				{"oauthClient": {"agents"}},
			},
		}, {
			ID: "chart", Name: "Chart", Description: "Draws charts.", Tags: []string{"charts"},
		}},
		Signatures: []a2ago.AgentCardSignature{{
			Protected: "eyJhbGciOiJFUzI1NiIsImtpZCI6ImtleS0xIn0",
			Signature: "MEUCIQDx3yK1lYw5bXzZ0bJ7k2",
			Header:    map[string]any{"kid": "key-1", "jku": "https://example.com/jwks.json"},
		}},
	}
}

// a2aTask is a completed task: a user message with every kind of part, the
// agent's answer, a status with a message and a timestamp, two artifacts.
func a2aTask(ts time.Time) *a2ago.Task {
	text := a2ago.NewTextPart("Summarise the attached report and chart revenue by region.")
	text.SetMeta("lang", "en")
	file := a2ago.NewFileURLPart("https://files.example.com/reports/q1.pdf", "application/pdf")
	file.Filename = "q1.pdf"
	raw := a2ago.NewRawPart([]byte("%PDF-1.7\n\x00\x01\x02\xff binary"))
	raw.Filename = "appendix.pdf"
	raw.MediaType = "application/pdf"
	raw.SetMeta("pages", 3.0)
	data := a2ago.NewDataPart(map[string]any{
		"regions":  []any{"EMEA", "APAC", "AMER"},
		"currency": "EUR",
		"limits":   map[string]any{"maxRows": 100.0, "includeForecast": false, "note": nil},
	})
	data.MediaType = "application/json"

	user := a2ago.NewMessage(a2ago.MessageRoleUser, text, file, raw, data)
	user.Extensions = []string{"https://example.com/ext/citations/v1"}
	user.SetMeta("client", map[string]any{"name": "cli", "version": "1.2.3"})

	task := a2ago.NewSubmittedTask(a2ago.TaskInfo{}, user)
	user.TaskID, user.ContextID = task.ID, task.ContextID

	answer := a2ago.NewMessageForTask(a2ago.MessageRoleAgent, task,
		a2ago.NewTextPart("Here is the summary and the chart."),
		a2ago.NewDataPart(map[string]any{"rows": 3.0, "total": 1234567.89}))
	answer.ReferenceTasks = []a2ago.TaskID{"task-earlier-1", "task-earlier-2"}
	task.History = append(task.History, answer)

	done := a2ago.NewMessageForTask(a2ago.MessageRoleAgent, task, a2ago.NewTextPart("Done."))
	task.Status = a2ago.TaskStatus{State: a2ago.TaskStateCompleted, Message: done, Timestamp: &ts}

	summary := a2ago.NewArtifactEvent(task,
		a2ago.NewTextPart("# Q1 2026\nRevenue grew 12% — EMEA led."),
		a2ago.NewDataPart(map[string]any{"growth": 0.12})).Artifact
	summary.Name = "summary.md"
	summary.Description = "Executive summary"
	summary.Extensions = []string{"https://example.com/ext/citations/v1"}
	summary.SetMeta("wordCount", 212.0)
	chart := a2ago.NewArtifactEvent(task,
		&a2ago.Part{Content: a2ago.Raw([]byte{0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'}), Filename: "revenue.png", MediaType: "image/png"},
		a2ago.NewFileURLPart("https://files.example.com/charts/revenue.svg", "image/svg+xml")).Artifact
	chart.Name = "revenue chart"
	task.Artifacts = []*a2ago.Artifact{summary, chart}
	task.SetMeta("costUsd", 0.0042)
	task.SetMeta("model", "example-large")
	return task
}
