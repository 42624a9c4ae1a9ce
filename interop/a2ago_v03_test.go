// Interop of the 0.3 path of our A2A server with the v0.3 Go SDK,
// github.com/a2aproject/a2a-go at v0.3.15 (pinned in go.mod: the module
// proxy serves it though its version list shows v0.3.3 as the newest). The
// SDK speaks A2A 0.3 only: it reads the card's url and preferredTransport,
// sends JSON-RPC methods such as message/send without an A2A-Version
// header, and reads kind-tagged results.
package interop_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	a2a03 "github.com/a2aproject/a2a-go/a2a"
	client03 "github.com/a2aproject/a2a-go/a2aclient"
	"github.com/a2aproject/a2a-go/a2aclient/agentcard"
	grpc03 "github.com/a2aproject/a2a-go/a2agrpc"
	server03 "github.com/a2aproject/a2a-go/a2asrv"
	eventqueue03 "github.com/a2aproject/a2a-go/a2asrv/eventqueue"
	push03 "github.com/a2aproject/a2a-go/a2asrv/push"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/agui-gen/agui-gen/gen/a2a"
	"github.com/agui-gen/agui-gen/gen/a2a/a2agrpc"
)

func TestA2AGoV03ClientAgainstOurServer(t *testing.T) {
	base := serveOurs(t)
	ctx := context.Background()
	card, err := agentcard.DefaultResolver.Resolve(ctx, base)
	if err != nil {
		t.Fatalf("the 0.3 SDK cannot read our card: %v", err)
	}
	if card.URL != base || card.PreferredTransport != a2a03.TransportProtocolJSONRPC || card.ProtocolVersion != "0.3.0" {
		t.Fatalf("card as a 0.3 client reads it: url %q, preferredTransport %q, protocolVersion %q", card.URL, card.PreferredTransport, card.ProtocolVersion)
	}
	if card.Name != "echo" || !card.Capabilities.Streaming || len(card.Skills) != 1 {
		t.Fatalf("card: %+v", card)
	}
	var offered []string
	for _, i := range card.AdditionalInterfaces {
		offered = append(offered, string(i.Transport))
	}
	if want := "JSONRPC HTTP+JSON GRPC"; strings.Join(offered, " ") != want {
		t.Fatalf("interfaces a 0.3 client is offered: %v, want %s", offered, want)
	}
	// The SDK speaks JSON-RPC and gRPC (0.3's a2a.v1.A2AService).
	for _, binding := range []a2a03.TransportProtocol{a2a03.TransportProtocolJSONRPC, a2a03.TransportProtocolGRPC} {
		t.Run(string(binding), func(t *testing.T) {
			client, err := client03.NewFromCard(ctx, card, client03.WithConfig(client03.Config{PreferredTransports: []a2a03.TransportProtocol{binding}}),
				client03.WithGRPCTransport(grpc.WithTransportCredentials(insecure.NewCredentials())))
			if err != nil {
				t.Fatal(err)
			}
			defer client.Destroy()
			exerciseA2AGoV03Client(t, client, binding)
		})
	}
}

// exerciseA2AGoV03Client makes every call of the 0.3 SDK's client against
// the echo agent.
func exerciseA2AGoV03Client(t *testing.T, client *client03.Client, binding a2a03.TransportProtocol) {
	ctx := context.Background()
	res, err := client.SendMessage(ctx, &a2a03.MessageSendParams{Message: a2a03.NewMessage(a2a03.MessageRoleUser, a2a03.TextPart{Text: "hello 0.3"})})
	if err != nil {
		t.Fatalf("message/send: %v", err)
	}
	task, ok := res.(*a2a03.Task)
	if !ok || task.Status.State != a2a03.TaskStateCompleted || len(task.Artifacts) != 1 {
		t.Fatalf("message/send: %#v", res)
	}
	if text, ok := task.Artifacts[0].Parts[0].(a2a03.TextPart); !ok || text.Text != "hello 0.3" {
		t.Fatalf("artifact: %#v", task.Artifacts[0].Parts)
	}

	one := 1
	got, err := client.GetTask(ctx, &a2a03.TaskQueryParams{ID: task.ID, HistoryLength: &one})
	if err != nil || got.ID != task.ID || len(got.History) != 1 || got.History[0].Role != a2a03.MessageRoleAgent {
		t.Fatalf("tasks/get: %v %+v", err, got)
	}
	if _, err := client.GetTask(ctx, &a2a03.TaskQueryParams{ID: "no-such-task"}); !errors.Is(err, a2a03.ErrTaskNotFound) {
		t.Fatalf("tasks/get of an unknown task: %v", err)
	}
	if _, err := client.CancelTask(ctx, &a2a03.TaskIDParams{ID: task.ID}); !errors.Is(err, a2a03.ErrTaskNotCancelable) {
		t.Fatalf("tasks/cancel of a completed task: %v", err)
	}
	for _, err := range client.ResubscribeToTask(ctx, &a2a03.TaskIDParams{ID: task.ID}) {
		if !errors.Is(err, a2a03.ErrUnsupportedOperation) {
			t.Fatalf("tasks/resubscribe to a completed task: %v", err)
		}
	}
	// The echo agent keeps no push configs: over JSON-RPC 0.3's error says
	// so; over gRPC, whose codes the SDK reads, it is UNIMPLEMENTED, which
	// the SDK reads as an unsupported operation (0.3's table maps both to it).
	wantPush := a2a03.ErrPushNotificationNotSupported
	if binding == a2a03.TransportProtocolGRPC {
		wantPush = a2a03.ErrUnsupportedOperation
	}
	if _, err := client.GetTaskPushConfig(ctx, &a2a03.GetTaskPushConfigParams{TaskID: task.ID}); !errors.Is(err, wantPush) {
		t.Fatalf("tasks/pushNotificationConfig/get: %v", err)
	}

	stream := collectV03(t, client.SendStreamingMessage(ctx, &a2a03.MessageSendParams{Message: a2a03.NewMessage(a2a03.MessageRoleUser, a2a03.TextPart{Text: "stream"})}))
	if want := "task:submitted status:working artifact:stream status:completed(final)"; stream != want {
		t.Fatalf("message/stream: %s, want %s", stream, want)
	}

	// The echo agent keeps its extended card for authenticated callers.
	if _, err := client.GetAgentCard(ctx); err == nil || !strings.Contains(err.Error(), "authenticated callers") {
		t.Fatalf("agent/getAuthenticatedExtendedCard: %v", err)
	}
}

// collectV03 summarises a 0.3 event stream.
func collectV03(t *testing.T, events iter.Seq2[a2a03.Event, error]) string {
	t.Helper()
	var out []string
	for ev, err := range events {
		if err != nil {
			t.Fatalf("stream: %v (after %v)", err, out)
		}
		switch e := ev.(type) {
		case *a2a03.Task:
			out = append(out, "task:"+string(e.Status.State))
		case *a2a03.TaskStatusUpdateEvent:
			s := "status:" + string(e.Status.State)
			if e.Final {
				s += "(final)"
			}
			out = append(out, s)
		case *a2a03.TaskArtifactUpdateEvent:
			text := ""
			if p, ok := e.Artifact.Parts[0].(a2a03.TextPart); ok {
				text = p.Text
			}
			out = append(out, "artifact:"+text)
		case *a2a03.Message:
			out = append(out, "message")
		default:
			out = append(out, fmt.Sprintf("%T", ev))
		}
	}
	return strings.Join(out, " ")
}

// TestA2AGoV03PushConfigs: the 0.3 SDK sets, gets, lists and deletes a
// task's push configs on the task runtime, in 0.3's shape (the config
// nested beside the task id, authentication schemes as a list), and a
// config set over 0.3 is the same config a 1.0 client reads; a task either
// version created, the other reads.
func TestA2AGoV03PushConfigs(t *testing.T) {
	s := serveRuntime(t, nil)
	ctx := context.Background()
	card, err := agentcard.DefaultResolver.Resolve(ctx, s.base)
	if err != nil {
		t.Fatal(err)
	}
	client, err := client03.NewFromCard(ctx, card)
	if err != nil {
		t.Fatal(err)
	}
	defer client.Destroy()
	res, err := client.SendMessage(ctx, &a2a03.MessageSendParams{Message: a2a03.NewMessage(a2a03.MessageRoleUser, a2a03.TextPart{Text: "ask"})})
	if err != nil {
		t.Fatal(err)
	}
	task := res.(*a2a03.Task)
	if task.Status.State != a2a03.TaskStateInputRequired || task.Status.Message == nil {
		t.Fatalf("message/send: %+v", task.Status)
	}
	set, err := client.SetTaskPushConfig(ctx, &a2a03.TaskPushConfig{TaskID: task.ID, Config: a2a03.PushConfig{
		ID: "hook-1", URL: "http://127.0.0.1:9/hook", Token: "secret",
		Auth: &a2a03.PushAuthInfo{Schemes: []string{"Bearer"}, Credentials: "cred"}}})
	if err != nil {
		t.Fatalf("tasks/pushNotificationConfig/set: %v", err)
	}
	if set.TaskID != task.ID || set.Config.ID != "hook-1" || set.Config.Token != "secret" || set.Config.Auth == nil || set.Config.Auth.Schemes[0] != "Bearer" {
		t.Fatalf("set answered %+v", set)
	}
	got, err := client.GetTaskPushConfig(ctx, &a2a03.GetTaskPushConfigParams{TaskID: task.ID, ConfigID: "hook-1"})
	if err != nil || got.Config.URL != "http://127.0.0.1:9/hook" {
		t.Fatalf("tasks/pushNotificationConfig/get: %v %+v", err, got)
	}
	list, err := client.ListTaskPushConfig(ctx, &a2a03.ListTaskPushConfigParams{TaskID: task.ID})
	if err != nil || len(list) != 1 || list[0].Config.ID != "hook-1" {
		t.Fatalf("tasks/pushNotificationConfig/list: %v %+v", err, list)
	}
	// A task one version created is the other's to read.
	if v1 := post(t, s.base, map[string]string{"A2A-Version": "1.0"}, `{"jsonrpc":"2.0","id":1,"method":"GetTask","params":{"id":"`+string(task.ID)+`"}}`); !strings.Contains(string(v1), `"state":"TASK_STATE_INPUT_REQUIRED"`) {
		t.Fatalf("the 0.3 client's task as 1.0 reads it: %s", v1)
	}
	created := post(t, s.base, map[string]string{"A2A-Version": "1.0"}, `{"jsonrpc":"2.0","id":2,"method":"SendMessage","params":{"message":{"messageId":"m-10","role":"ROLE_USER","parts":[{"text":"from 1.0"}]}}}`)
	var sent struct {
		Result struct {
			Task struct{ ID string } `json:"task"`
		} `json:"result"`
	}
	if err := json.Unmarshal(created, &sent); err != nil || sent.Result.Task.ID == "" {
		t.Fatalf("1.0 SendMessage: %v %s", err, created)
	}
	if got, err := client.GetTask(ctx, &a2a03.TaskQueryParams{ID: a2a03.TaskID(sent.Result.Task.ID)}); err != nil || got.Status.State != a2a03.TaskStateCompleted ||
		got.Artifacts[0].Parts[0].(a2a03.TextPart).Text != "from 1.0" {
		t.Fatalf("the 1.0 client's task as 0.3 reads it: %v %+v", err, got)
	}
	// A 1.0 client reads the same config.
	v1 := post(t, s.base, map[string]string{"A2A-Version": "1.0"}, `{"jsonrpc":"2.0","id":1,"method":"GetTaskPushNotificationConfig","params":{"taskId":"`+string(task.ID)+`","id":"hook-1"}}`)
	if !strings.Contains(string(v1), `"authentication":{"scheme":"Bearer","credentials":"cred"}`) {
		t.Fatalf("the config as 1.0 reads it: %s", v1)
	}
	if err := client.DeleteTaskPushConfig(ctx, &a2a03.DeleteTaskPushConfigParams{TaskID: task.ID, ConfigID: "hook-1"}); err != nil {
		t.Fatalf("tasks/pushNotificationConfig/delete: %v", err)
	}
	if list, err := client.ListTaskPushConfig(ctx, &a2a03.ListTaskPushConfigParams{TaskID: task.ID}); err != nil || len(list) != 0 {
		t.Fatalf("list after delete: %v %+v", err, list)
	}
}

// v03Executor is an agent of the 0.3 SDK: it asks for input when told
// "ask", and otherwise echoes the message as an artifact and completes.
type v03Executor struct{}

func (v03Executor) Execute(ctx context.Context, rc *server03.RequestContext, q eventqueue03.Queue) error {
	said := rc.Message.Parts[0].(a2a03.TextPart).Text
	if rc.StoredTask == nil {
		if err := q.Write(ctx, a2a03.NewSubmittedTask(rc, rc.Message)); err != nil {
			return err
		}
	}
	if said == "ask" {
		ev := a2a03.NewStatusUpdateEvent(rc, a2a03.TaskStateInputRequired, a2a03.NewMessageForTask(a2a03.MessageRoleAgent, rc, a2a03.TextPart{Text: "which colour?"}))
		ev.Final = true
		return q.Write(ctx, ev)
	}
	if err := q.Write(ctx, a2a03.NewArtifactEvent(rc, a2a03.TextPart{Text: said})); err != nil {
		return err
	}
	ev := a2a03.NewStatusUpdateEvent(rc, a2a03.TaskStateCompleted, nil)
	ev.Final = true
	return q.Write(ctx, ev)
}

func (v03Executor) Cancel(ctx context.Context, rc *server03.RequestContext, q eventqueue03.Queue) error {
	ev := a2a03.NewStatusUpdateEvent(rc, a2a03.TaskStateCanceled, nil)
	ev.Final = true
	return q.Write(ctx, ev)
}

// serveV03 serves v03Executor with the 0.3 SDK's JSON-RPC server and card,
// push notifications on.
func serveV03(t *testing.T) string {
	t.Helper()
	var card a2a03.AgentCard
	mux := http.NewServeMux()
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	card = a2a03.AgentCard{Name: "echo 0.3", Description: "A 0.3 agent", URL: srv.URL + "/rpc", Version: "1",
		ProtocolVersion: "0.3.0", PreferredTransport: a2a03.TransportProtocolJSONRPC,
		AdditionalInterfaces: []a2a03.AgentInterface{{Transport: a2a03.TransportProtocolJSONRPC, URL: srv.URL + "/rpc"},
			{Transport: a2a03.TransportProtocolGRPC, URL: lis.Addr().String()}},
		Capabilities:      a2a03.AgentCapabilities{Streaming: true, PushNotifications: true},
		DefaultInputModes: []string{"text/plain"}, DefaultOutputModes: []string{"text/plain"},
		Skills: []a2a03.AgentSkill{{ID: "echo", Name: "Echo", Description: "Echoes", Tags: []string{"echo"}}}}
	handler := server03.NewHandler(v03Executor{},
		server03.WithPushNotifications(push03.NewInMemoryStore(), push03.NewHTTPPushSender(nil)))
	mux.Handle("/rpc", server03.NewJSONRPCHandler(handler))
	mux.Handle("/.well-known/agent-card.json", server03.NewStaticAgentCardHandler(&card))
	gs := grpc.NewServer()
	grpc03.NewHandler(handler).RegisterWith(gs)
	go gs.Serve(lis)
	t.Cleanup(gs.Stop)
	return srv.URL
}

// TestOurClientAgainstA2AGoV03Server: our client reads a 0.3 agent's card,
// picks its JSON-RPC interface at 0.3, and makes every call through the
// generated conversion: send, stream, get, cancel, resubscribe, push
// configs.
func TestOurClientAgainstA2AGoV03Server(t *testing.T) {
	base := serveV03(t)
	ctx := context.Background()
	card, err := a2a.ResolveCard(ctx, base)
	if err != nil {
		t.Fatalf("reading the 0.3 card: %v", err)
	}
	grpcAddr := card.SupportedInterfaces[len(card.SupportedInterfaces)-1].URL
	for _, binding := range []struct{ name, url string }{{a2a.BindingJSONRPC, base + "/rpc"}, {a2a.BindingGRPC, grpcAddr}} {
		t.Run(binding.name, func(t *testing.T) {
			exerciseV03Server(t, base, binding.name, binding.url, a2agrpc.WithGRPC(grpc.WithTransportCredentials(insecure.NewCredentials())))
		})
	}
}

// exerciseV03Server runs our client against a 0.3 agent at base whose card
// offers binding at url, through every call.
func exerciseV03Server(t *testing.T, base, binding, url string, opts ...a2a.ClientOption) {
	exerciseV03ServerCreating(t, base, binding, url, nil, opts...)
}

// exerciseV03ServerCreating is exerciseV03Server with the push config
// created by create, when it is not nil, rather than over binding.
func exerciseV03ServerCreating(t *testing.T, base, binding, url string, create func(*a2a.TaskPushNotificationConfig) (*a2a.TaskPushNotificationConfig, error), opts ...a2a.ClientOption) {
	ctx := context.Background()
	card, err := a2a.ResolveCard(ctx, base)
	if err != nil {
		t.Fatalf("reading the 0.3 card: %v", err)
	}
	offered := slices.ContainsFunc(card.SupportedInterfaces, func(i *a2a.AgentInterface) bool {
		return i.ProtocolBinding == binding && i.URL == url && i.ProtocolVersion == "0.3"
	})
	if !offered {
		t.Fatalf("the 0.3 card as we read it offers no %s at %s: %s", binding, url, card.AppendJSON(nil))
	}
	tr, iface, err := a2a.NewTransportFromCard(card, append(opts, a2a.WithPreferredBindings(binding))...)
	if err != nil || iface.ProtocolVersion != "0.3" || iface.ProtocolBinding != binding {
		t.Fatalf("transport: %v %v", err, iface)
	}
	c := a2a.NewA2AServiceClient(tr)
	text := func(s string) *a2a.Message {
		return &a2a.Message{MessageID: "m-" + s, Role: a2a.RoleUser, Parts: []*a2a.Part{{Content: &a2a.PartText{Text: s}}}}
	}
	res, err := c.SendMessage(ctx, &a2a.SendMessageRequest{Message: text("hello")})
	if err != nil {
		t.Fatalf("SendMessage: %v", err)
	}
	task := taskOf(res)
	if task == nil || task.Status.State != a2a.TaskStateCompleted || len(task.Artifacts) != 1 ||
		task.Artifacts[0].Parts[0].Content.(*a2a.PartText).Text != "hello" {
		t.Fatalf("SendMessage: %s", res.AppendJSON(nil))
	}
	got, err := c.GetTask(ctx, &a2a.GetTaskRequest{ID: task.ID})
	if err != nil || got.ID != task.ID || got.Status.State != a2a.TaskStateCompleted {
		t.Fatalf("GetTask: %v %s", err, got.AppendJSON(nil))
	}
	if _, err := c.GetTask(ctx, &a2a.GetTaskRequest{ID: "no-such-task"}); !errors.Is(err, a2a.ErrTaskNotFound) {
		t.Fatalf("GetTask of an unknown task: %v", err)
	}
	if _, err := c.CancelTask(ctx, &a2a.CancelTaskRequest{ID: task.ID}); !errors.Is(err, a2a.ErrTaskNotCancelable) {
		t.Fatalf("CancelTask of a completed task: %v", err)
	}
	var events []string
	for ev, err := range c.SendStreamingMessage(ctx, &a2a.SendMessageRequest{Message: text("stream")}) {
		if err != nil {
			t.Fatalf("stream: %v", err)
		}
		events = append(events, summary(ev))
	}
	if want := "task:TASK_STATE_SUBMITTED artifact:stream status:TASK_STATE_COMPLETED"; strings.Join(events, " ") != want {
		t.Fatalf("stream: %v, want %s", events, want)
	}

	res, err = c.SendMessage(ctx, &a2a.SendMessageRequest{Message: text("ask")})
	if err != nil || taskOf(res) == nil || taskOf(res).Status.State != a2a.TaskStateInputRequired {
		t.Fatalf("ask: %v %s", err, res.AppendJSON(nil))
	}
	asked := taskOf(res).ID
	if create == nil {
		create = func(cfg *a2a.TaskPushNotificationConfig) (*a2a.TaskPushNotificationConfig, error) {
			return c.CreateTaskPushNotificationConfig(ctx, cfg)
		}
	}
	set, err := create(&a2a.TaskPushNotificationConfig{TaskID: asked, ID: "hook-1", URL: "http://127.0.0.1:9/hook", Token: "secret",
		Authentication: &a2a.AuthenticationInfo{Scheme: "Bearer", Credentials: "cred"}})
	if err != nil || set.ID != "hook-1" || set.Authentication == nil || set.Authentication.Scheme != "Bearer" {
		t.Fatalf("CreateTaskPushNotificationConfig: %v %s", err, set.AppendJSON(nil))
	}
	one, err := c.GetTaskPushNotificationConfig(ctx, &a2a.GetTaskPushNotificationConfigRequest{TaskID: asked, ID: "hook-1"})
	if err != nil || one.URL != "http://127.0.0.1:9/hook" || one.Token != "secret" {
		t.Fatalf("GetTaskPushNotificationConfig: %v %s", err, one.AppendJSON(nil))
	}
	list, err := c.ListTaskPushNotificationConfigs(ctx, &a2a.ListTaskPushNotificationConfigsRequest{TaskID: asked})
	if err != nil || len(list.Configs) != 1 || list.Configs[0].ID != "hook-1" {
		t.Fatalf("ListTaskPushNotificationConfigs: %v %s", err, list.AppendJSON(nil))
	}
	if _, err := c.DeleteTaskPushNotificationConfig(ctx, &a2a.DeleteTaskPushNotificationConfigRequest{TaskID: asked, ID: "hook-1"}); err != nil {
		t.Fatalf("DeleteTaskPushNotificationConfig: %v", err)
	}
	// a2a-go v0.3.15 refuses a cancel that meets the execution which
	// stopped the task for input still winding down (ErrTaskNotCancelable;
	// its TODO in internal/taskexec/local_manager.go): under load the
	// cancel comes that soon. Asked again a moment later, it cancels.
	var canceled *a2a.Task
	for try := 0; ; try++ {
		canceled, err = c.CancelTask(ctx, &a2a.CancelTaskRequest{ID: asked})
		if !errors.Is(err, a2a.ErrTaskNotCancelable) || try == 50 {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err != nil || canceled.Status.State != a2a.TaskStateCanceled {
		t.Fatalf("CancelTask: %v %s", err, canceled.AppendJSON(nil))
	}
	for _, err := range c.SubscribeToTask(ctx, &a2a.SubscribeToTaskRequest{ID: asked}) {
		if err == nil {
			continue
		}
		if !errors.Is(err, a2a.ErrUnsupportedOperation) && !errors.Is(err, a2a.ErrTaskNotFound) {
			t.Fatalf("SubscribeToTask of a canceled task: %v", err)
		}
	}
}

// taskOf is the task a SendMessage answered with, or nil.
func taskOf(res *a2a.SendMessageResponse) *a2a.Task {
	if p, ok := res.Payload.(*a2a.SendMessageResponseTask); ok {
		return p.Task
	}
	return nil
}

// summary names one event of a 1.0 stream.
func summary(ev *a2a.StreamResponse) string {
	switch p := ev.Payload.(type) {
	case *a2a.StreamResponseTask:
		return "task:" + p.Task.Status.State.String()
	case *a2a.StreamResponseStatusUpdate:
		return "status:" + p.StatusUpdate.Status.State.String()
	case *a2a.StreamResponseArtifactUpdate:
		return "artifact:" + p.ArtifactUpdate.Artifact.Parts[0].Content.(*a2a.PartText).Text
	case *a2a.StreamResponseMessage:
		return "message"
	}
	return "?"
}

// bearer adds an Authorization header to every request.
type bearer struct{ token string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

// TestA2AGoV03ClientAuthenticated: the 0.3 path is behind the same
// authenticator. Refused before its body is read, a 0.3 client still gets
// an error it can decode (0.3's error object, not 1.0's details list); and
// a task is its caller's on 0.3 as on 1.0.
func TestA2AGoV03ClientAuthenticated(t *testing.T) {
	s := serveRuntime(t, nil, a2a.WithAuthenticator(func(r *http.Request) (any, error) {
		switch r.Header.Get("Authorization") {
		case "Bearer good":
			return "alice", nil
		case "Bearer other":
			return "bob", nil
		}
		return nil, errors.New("no valid token")
	}))
	ctx := context.Background()
	card, err := agentcard.DefaultResolver.Resolve(ctx, s.base)
	if err != nil {
		t.Fatal(err)
	}
	params := &a2a03.MessageSendParams{Message: a2a03.NewMessage(a2a03.MessageRoleUser, a2a03.TextPart{Text: "hi"})}
	anonymous, err := client03.NewFromCard(ctx, card)
	if err != nil {
		t.Fatal(err)
	}
	defer anonymous.Destroy()
	if _, err := anonymous.SendMessage(ctx, params); err == nil || strings.Contains(err.Error(), "decode") || !strings.Contains(err.Error(), "no valid token") {
		t.Fatalf("without a token: %v", err)
	}
	authed, err := client03.NewFromCard(ctx, card, client03.WithJSONRPCTransport(&http.Client{Transport: bearer{"good"}}))
	if err != nil {
		t.Fatal(err)
	}
	defer authed.Destroy()
	res, err := authed.SendMessage(ctx, params)
	if err != nil {
		t.Fatalf("with a token: %v", err)
	}
	task, ok := res.(*a2a03.Task)
	if !ok || task.Status.State != a2a03.TaskStateCompleted {
		t.Fatalf("with a token: %#v", res)
	}
	// Another caller is answered as if the task did not exist, over 0.3 as
	// over 1.0.
	other, err := client03.NewFromCard(ctx, card, client03.WithJSONRPCTransport(&http.Client{Transport: bearer{"other"}}))
	if err != nil {
		t.Fatal(err)
	}
	defer other.Destroy()
	_, errTheirs := other.GetTask(ctx, &a2a03.TaskQueryParams{ID: task.ID})
	_, errNone := other.GetTask(ctx, &a2a03.TaskQueryParams{ID: "no-such-task"})
	if !errors.Is(errTheirs, a2a03.ErrTaskNotFound) || !errors.Is(errNone, a2a03.ErrTaskNotFound) {
		t.Fatalf("another caller's task: %v; no task: %v", errTheirs, errNone)
	}
	if _, err := other.CancelTask(ctx, &a2a03.TaskIDParams{ID: task.ID}); !errors.Is(err, a2a03.ErrTaskNotFound) {
		t.Fatalf("another caller cancels: %v", err)
	}
}
