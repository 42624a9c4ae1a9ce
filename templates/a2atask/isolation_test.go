package a2atask

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	"github.com/agui-gen/agui-gen/examples/a2a-demo/echo"
	a2a "github.com/agui-gen/agui-gen/gen/a2a"
	"github.com/agui-gen/agui-gen/gen/a2a/a2aauth"
	"github.com/agui-gen/agui-gen/gen/a2a/a2agrpc"
	"github.com/agui-gen/agui-gen/gen/a2a/a2av03pb"
)

// target names what a call reaches for: a task, one of its push configs,
// its context.
type target struct{ task, config, context string }

// isolationCase is one A2A method as caller B uses it on a target.
type isolationCase struct {
	method string
	// request builds the request message.
	request func(target) a2a.ProtoValue
	// query holds the HTTP+JSON query parameters of a rule without a body.
	query func(target) string
}

func isolationCases() []isolationCase {
	msg := func(tg target) *a2a.Message {
		return &a2a.Message{MessageID: "m-b", Role: a2a.RoleUser, TaskID: tg.task, Parts: []*a2a.Part{text("yes, go ahead")}}
	}
	const hook = "http://127.0.0.1:9/hook"
	none := func(target) string { return "" }
	return []isolationCase{
		{"SendMessage", func(tg target) a2a.ProtoValue { return &a2a.SendMessageRequest{Message: msg(tg)} }, none},
		{"SendStreamingMessage", func(tg target) a2a.ProtoValue { return &a2a.SendMessageRequest{Message: msg(tg)} }, none},
		{"GetTask", func(tg target) a2a.ProtoValue { return &a2a.GetTaskRequest{ID: tg.task} }, none},
		{"ListTasks", func(tg target) a2a.ProtoValue { return &a2a.ListTasksRequest{ContextID: tg.context} },
			func(tg target) string { return "contextId=" + tg.context }},
		{"CancelTask", func(tg target) a2a.ProtoValue { return &a2a.CancelTaskRequest{ID: tg.task} }, none},
		{"SubscribeToTask", func(tg target) a2a.ProtoValue { return &a2a.SubscribeToTaskRequest{ID: tg.task} }, none},
		{"CreateTaskPushNotificationConfig", func(tg target) a2a.ProtoValue {
			return &a2a.TaskPushNotificationConfig{TaskID: tg.task, URL: hook}
		}, none},
		{"GetTaskPushNotificationConfig", func(tg target) a2a.ProtoValue {
			return &a2a.GetTaskPushNotificationConfigRequest{TaskID: tg.task, ID: tg.config}
		}, none},
		{"ListTaskPushNotificationConfigs", func(tg target) a2a.ProtoValue {
			return &a2a.ListTaskPushNotificationConfigsRequest{TaskID: tg.task}
		}, none},
		{"DeleteTaskPushNotificationConfig", func(tg target) a2a.ProtoValue {
			return &a2a.DeleteTaskPushNotificationConfigRequest{TaskID: tg.task, ID: tg.config}
		}, none},
	}
}

// TestCallersAreIsolated is the A2A half of the two-caller isolation
// suite: two callers authenticated by bearer tokens on one server, and
// caller B calls every method of the service on caller A's task, push
// config and context, over JSON-RPC, HTTP+JSON (every route, tenant
// routes too) and gRPC. Each call must be answered exactly as the same
// call on a task, config and context that do not exist: same status, same
// code, same message, same bytes once the ids are masked, so that B
// learns nothing of what A has; and A's task is unchanged after all of it.
// isolated is a server of the task runtime with two callers, alice and
// bob (tokens tok-a and tok-b), on every binding; alice has a task waiting
// for input with one push config, bob a task of his own.
type isolated struct {
	http       string
	conn       *grpc.ClientConn
	alice, bob *a2a.A2AServiceClient
	mine, bobs *a2a.Task
	a, nobody  target
}

func newIsolated(t *testing.T) *isolated {
	t.Helper()
	card := echo.Card("http://placeholder")
	card.SecuritySchemes = map[string]*a2a.SecurityScheme{"bearer": {Scheme: &a2a.SecuritySchemeHTTPAuthSecurityScheme{
		HTTPAuthSecurityScheme: &a2a.HTTPAuthSecurityScheme{Scheme: "Bearer"}}}}
	card.SecurityRequirements = []*a2a.SecurityRequirement{{Schemes: map[string]*a2a.StringList{"bearer": {}}}}
	auth, err := a2aauth.New(card, a2aauth.Verifiers{Token: a2aauth.StaticTokens(map[string]string{"tok-a": "alice", "tok-b": "bob"})})
	if err != nil {
		t.Fatal(err)
	}
	store := NewMemory()
	rt := New(ExecutorFunc(func(ctx context.Context, run *Run) error {
		return run.RequireInput(run.AgentMessage(text("delete everything?")))
	}), store, WithPushNotifications(store, NewPushSender(WithPrivateNetworks())), WithLogger(quietLogger()))
	t.Cleanup(func() { rt.Close() })

	h, err := a2a.NewHandler(a2a.BindA2AService(rt), card, a2a.WithAuthenticator(auth.HTTP), a2a.WithLogger(quietLogger()))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	gs := grpc.NewServer()
	a2agrpc.RegisterA2AServiceServer(gs, rt, a2agrpc.WithAuthenticator(auth.GRPC), a2agrpc.WithAgentCard(card), a2agrpc.WithLogger(quietLogger()))
	go gs.Serve(lis)
	t.Cleanup(gs.Stop)
	conn, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })

	ctx := context.Background()
	as := func(token string) *a2a.A2AServiceClient {
		return a2a.NewA2AServiceClient(a2a.NewJSONRPCTransport(srv.URL, a2a.WithHeader("Authorization", "Bearer "+token)))
	}
	s := &isolated{http: srv.URL, conn: conn, alice: as("tok-a"), bob: as("tok-b")}
	s.mine = sendTask(t, s.alice, &a2a.SendMessageRequest{Message: userMessage("clean up")})
	cfg, err := s.alice.CreateTaskPushNotificationConfig(ctx, &a2a.TaskPushNotificationConfig{TaskID: s.mine.ID, URL: "http://127.0.0.1:9/alice"})
	if err != nil {
		t.Fatal(err)
	}
	s.bobs = sendTask(t, s.bob, &a2a.SendMessageRequest{Message: userMessage("bob's own")})
	s.a = target{task: s.mine.ID, config: cfg.ID, context: s.mine.ContextID}
	// Ids that exist nowhere, of the same lengths.
	s.nobody = target{task: newID(), config: newID(), context: newID()}
	return s
}

// compare checks one of bob's attempts: on alice's resources and on none
// that exist, call is answered alike once the ids are masked, as not
// found (but for ListTasks), and with nothing of alice's task.
func (s *isolated) compare(t *testing.T, how, method string, call func(target) []byte) {
	t.Helper()
	mask := func(b []byte, tg target) []byte {
		for _, r := range []struct{ id, as string }{{tg.task, "<task>"}, {tg.config, "<config>"}, {tg.context, "<context>"}} {
			b = bytes.ReplaceAll(b, []byte(r.id), []byte(r.as))
		}
		return b
	}
	onA, onNobody := mask(call(s.a), s.a), mask(call(s.nobody), s.nobody)
	if !bytes.Equal(onA, onNobody) {
		t.Errorf("%s: B on A's resources is answered\n%q\nbut on resources that do not exist\n%q", how, onA, onNobody)
	}
	notFound := bytes.Contains(onA, []byte("TASK_NOT_FOUND")) || bytes.HasPrefix(onA, []byte("NotFound ")) || bytes.Contains(onA, []byte(`{"code":-32001,`))
	if method != "ListTasks" && !notFound {
		t.Errorf("%s: B on A's resources is not refused as not found:\n%s", how, onA)
	}
	if bytes.Contains(onA, []byte("delete everything")) || bytes.Contains(onA, []byte("clean up")) {
		t.Errorf("%s: the answer holds A's task:\n%s", how, onA)
	}
}

// unchanged checks that alice's task and config are as she left them.
func (s *isolated) unchanged(t *testing.T) {
	t.Helper()
	ctx := context.Background()
	got, err := s.alice.GetTask(ctx, &a2a.GetTaskRequest{ID: s.mine.ID})
	if err != nil || got.Status.State != a2a.TaskStateInputRequired || len(got.History) != len(s.mine.History) {
		t.Fatalf("A's task after B's attempts: %v %s", err, got.AppendJSON(nil))
	}
	cfgs, err := s.alice.ListTaskPushNotificationConfigs(ctx, &a2a.ListTaskPushNotificationConfigsRequest{TaskID: s.mine.ID})
	if err != nil || len(cfgs.Configs) != 1 || cfgs.Configs[0].URL != "http://127.0.0.1:9/alice" {
		t.Fatalf("A's push configs after B's attempts: %v %s", err, cfgs.AppendJSON(nil))
	}
}

func TestCallersAreIsolated(t *testing.T) {
	s := newIsolated(t)
	ctx := context.Background()
	covered := map[string]bool{"GetExtendedAgentCard": true} // the agent's, not a caller's
	attempts := 0
	for _, c := range isolationCases() {
		covered[c.method] = true
		desc := methodDesc(t, c.method)
		t.Run(c.method, func(t *testing.T) {
			compare := func(how string, call func(target) []byte) {
				t.Helper()
				attempts++
				s.compare(t, how, c.method, call)
			}
			compare("JSON-RPC", func(tg target) []byte {
				params := c.request(tg).AppendJSON(nil)
				body := []byte(`{"jsonrpc":"2.0","id":7,"method":"` + c.method + `","params":` + string(params) + `}`)
				return roundTrip(t, http.MethodPost, s.http, "tok-b", body, desc.ServerStreaming, "1.0")
			})
			for _, rule := range desc.HTTP {
				for _, verb := range verbs(rule, desc) {
					compare("HTTP+JSON "+verb+" "+rule.Path, func(tg target) []byte {
						path := fillPath(rule.Path, map[string]string{"tenant": "acme", "id": idOf(c, tg), "task_id": tg.task})
						if q := c.query(tg); q != "" && rule.Body == "" {
							path += "?" + q
						}
						var body []byte
						if rule.Body != "" && verb != http.MethodGet {
							body = c.request(tg).AppendJSON(nil)
						}
						return roundTrip(t, verb, s.http+path, "tok-b", body, desc.ServerStreaming, "1.0")
					})
				}
			}
			compare("gRPC", func(tg target) []byte { return grpcCall(t, s.conn, desc, c.request(tg), "1.0") })
		})
	}
	for _, m := range a2a.A2AService.Methods {
		if !covered[m.Name] {
			t.Errorf("%s is not tried by caller B", m.Name)
		}
	}
	t.Logf("%d of caller B's attempts on caller A's resources answered as on none", attempts)

	// B lists its own tasks only.
	list, err := s.bob.ListTasks(ctx, &a2a.ListTasksRequest{})
	if err != nil || len(list.Tasks) != 1 || list.Tasks[0].ID != s.bobs.ID || list.TotalSize != 1 {
		t.Fatalf("B's list: %v %s", err, list.AppendJSON(nil))
	}
	s.unchanged(t)
}

func methodDesc(t *testing.T, name string) *a2a.MethodDesc {
	for i := range a2a.A2AService.Methods {
		if m := &a2a.A2AService.Methods[i]; m.Name == name {
			return m
		}
	}
	t.Fatalf("no method %s", name)
	return nil
}

// idOf is what an {id} path variable holds for a case: the config's id for
// the push config methods, the task's otherwise.
func idOf(c isolationCase, tg target) string {
	if strings.Contains(c.method, "PushNotificationConfig") {
		return tg.config
	}
	return tg.task
}

// verbs are the HTTP methods a rule is served on: a streaming RPC bound to
// GET is served on POST too.
func verbs(rule a2a.HTTPRule, desc *a2a.MethodDesc) []string {
	if desc.ServerStreaming && rule.Method == http.MethodGet {
		return []string{http.MethodGet, http.MethodPost}
	}
	return []string{rule.Method}
}

var pathVar = regexp.MustCompile(`\{([a-z_]+)(=[^}]*)?\}`)

func fillPath(tmpl string, vars map[string]string) string {
	return pathVar.ReplaceAllStringFunc(tmpl, func(v string) string { return vars[pathVar.FindStringSubmatch(v)[1]] })
}

// roundTrip makes one HTTP request as the holder of token, naming version
// (0.3 clients name none), and returns what a client sees of the answer:
// status, content type and body.
func roundTrip(t *testing.T, verb, url, token string, body []byte, streams bool, version string) []byte {
	t.Helper()
	req, err := http.NewRequest(verb, url, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+token)
	if version != "" {
		req.Header.Set("A2A-Version", version)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if streams {
		req.Header.Set("Accept", "text/event-stream")
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	data, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Appendf(nil, "%d %s\n%s", res.StatusCode, res.Header.Get("Content-Type"), data)
}

// grpcCall makes one gRPC call as caller B and returns its answer: the
// response in JSON, or the status's code and message, and the whole status
// in protobuf.
func grpcCall(t *testing.T, conn *grpc.ClientConn, desc *a2a.MethodDesc, req a2a.ProtoValue, version string) []byte {
	t.Helper()
	ctx := metadata.AppendToOutgoingContext(context.Background(), "authorization", "Bearer tok-b")
	if version != "" {
		ctx = metadata.AppendToOutgoingContext(ctx, "a2a-version", version)
	}
	resp := desc.NewResponse()
	var err error
	if desc.ServerStreaming {
		var stream grpc.ClientStream
		stream, err = conn.NewStream(ctx, &grpc.StreamDesc{ServerStreams: true}, desc.FullMethod)
		if err == nil {
			if err = stream.SendMsg(req); err == nil {
				stream.CloseSend()
				err = stream.RecvMsg(resp)
			}
		}
	} else {
		err = conn.Invoke(ctx, desc.FullMethod, req, resp)
	}
	if err == nil {
		return resp.AppendJSON([]byte("OK "))
	}
	st, _ := status.FromError(err)
	details, _ := proto.MarshalOptions{Deterministic: true}.Marshal(st.Proto())
	return fmt.Appendf(nil, "%s %q\n%s", st.Code(), st.Message(), details)
}

// isolationCaseV03 is one RPC of A2A 0.3 as caller B uses it on a target,
// on each binding 0.3 clients call: its JSON-RPC method and params, its
// HTTP+JSON path and body, its gRPC request.
type isolationCaseV03 struct {
	rpc     string // the 0.3 proto's RPC
	method  string // the JSON-RPC method
	params  func(target) string
	verb    string
	path    func(target) string
	body    func(target) string
	request func(target) a2a.ProtoValue
}

func isolationCasesV03() []isolationCaseV03 {
	msg := func(tg target) *a2av03pb.Message {
		return &a2av03pb.Message{MessageID: "m-b", Role: a2av03pb.RoleUser, TaskID: tg.task, Content: []*a2av03pb.Part{{Part: &a2av03pb.PartText{Text: "yes, go ahead"}}}}
	}
	jsonMsg := func(tg target) string {
		return `{"message":{"kind":"message","messageId":"m-b","role":"user","taskId":"` + tg.task + `","parts":[{"kind":"text","text":"yes, go ahead"}]}}`
	}
	protoMsg := func(tg target) string {
		return string((&a2av03pb.SendMessageRequest{Request: msg(tg)}).AppendJSON(nil))
	}
	const hook = "http://127.0.0.1:9/hook"
	taskID := func(tg target) string { return `{"id":"` + tg.task + `"}` }
	configID := func(tg target) string {
		return `{"id":"` + tg.task + `","pushNotificationConfigId":"` + tg.config + `"}`
	}
	task := func(suffix string) func(target) string {
		return func(tg target) string { return "/v1/tasks/" + tg.task + suffix }
	}
	config := func(tg target) string { return "/v1/tasks/" + tg.task + "/pushNotificationConfigs/" + tg.config }
	configName := func(tg target) string { return "tasks/" + tg.task + "/pushNotificationConfigs/" + tg.config }
	none := func(target) string { return "" }
	return []isolationCaseV03{
		{"SendMessage", "message/send", jsonMsg, http.MethodPost, func(target) string { return "/v1/message:send" }, protoMsg,
			func(tg target) a2a.ProtoValue { return &a2av03pb.SendMessageRequest{Request: msg(tg)} }},
		{"SendStreamingMessage", "message/stream", jsonMsg, http.MethodPost, func(target) string { return "/v1/message:stream" }, protoMsg,
			func(tg target) a2a.ProtoValue { return &a2av03pb.SendMessageRequest{Request: msg(tg)} }},
		{"GetTask", "tasks/get", taskID, http.MethodGet, task(""), none,
			func(tg target) a2a.ProtoValue { return &a2av03pb.GetTaskRequest{Name: "tasks/" + tg.task} }},
		{"CancelTask", "tasks/cancel", taskID, http.MethodPost, task(":cancel"), none,
			func(tg target) a2a.ProtoValue { return &a2av03pb.CancelTaskRequest{Name: "tasks/" + tg.task} }},
		{"TaskSubscription", "tasks/resubscribe", taskID, http.MethodPost, task(":subscribe"), none,
			func(tg target) a2a.ProtoValue { return &a2av03pb.TaskSubscriptionRequest{Name: "tasks/" + tg.task} }},
		{"CreateTaskPushNotificationConfig", "tasks/pushNotificationConfig/set",
			func(tg target) string {
				return `{"taskId":"` + tg.task + `","pushNotificationConfig":{"url":"` + hook + `"}}`
			},
			http.MethodPost, task("/pushNotificationConfigs"), func(target) string { return `{"pushNotificationConfig":{"url":"` + hook + `"}}` },
			func(tg target) a2a.ProtoValue {
				return &a2av03pb.CreateTaskPushNotificationConfigRequest{Parent: "tasks/" + tg.task,
					Config: &a2av03pb.TaskPushNotificationConfig{PushNotificationConfig: &a2av03pb.PushNotificationConfig{URL: hook}}}
			}},
		{"GetTaskPushNotificationConfig", "tasks/pushNotificationConfig/get", configID, http.MethodGet, config, none,
			func(tg target) a2a.ProtoValue {
				return &a2av03pb.GetTaskPushNotificationConfigRequest{Name: configName(tg)}
			}},
		{"ListTaskPushNotificationConfig", "tasks/pushNotificationConfig/list", taskID, http.MethodGet, task("/pushNotificationConfigs"), none,
			func(tg target) a2a.ProtoValue {
				return &a2av03pb.ListTaskPushNotificationConfigRequest{Parent: "tasks/" + tg.task}
			}},
		{"DeleteTaskPushNotificationConfig", "tasks/pushNotificationConfig/delete", configID, http.MethodDelete, config, none,
			func(tg target) a2a.ProtoValue {
				return &a2av03pb.DeleteTaskPushNotificationConfigRequest{Name: configName(tg)}
			}},
	}
}

// TestCallersAreIsolatedV03: the same, for a 0.3 client (no A2A-Version)
// calling every 0.3 RPC but the agent's card over JSON-RPC, HTTP+JSON (0.3's
// /v1/… paths) and gRPC (a2a.v1.A2AService): each attempt of B on A's
// resources is answered exactly as on resources that do not exist.
func TestCallersAreIsolatedV03(t *testing.T) {
	s := newIsolated(t)
	v03 := a2a.CompatVersions()[0].Proto
	covered := map[string]bool{"GetAgentCard": true} // the agent's, not a caller's
	for _, c := range isolationCasesV03() {
		covered[c.rpc] = true
		var desc *a2a.MethodDesc
		for i := range v03.Methods {
			if v03.Methods[i].Name == c.rpc {
				desc = &v03.Methods[i]
			}
		}
		if desc == nil {
			t.Fatalf("0.3 has no RPC %s", c.rpc)
		}
		t.Run(c.rpc, func(t *testing.T) {
			s.compare(t, "JSON-RPC "+c.method, c.rpc, func(tg target) []byte {
				body := []byte(`{"jsonrpc":"2.0","id":7,"method":"` + c.method + `","params":` + c.params(tg) + `}`)
				return roundTrip(t, http.MethodPost, s.http, "tok-b", body, desc.ServerStreaming, "")
			})
			s.compare(t, "HTTP+JSON "+c.verb+" "+c.path(target{task: "{id}", config: "{config}"}), c.rpc, func(tg target) []byte {
				var body []byte
				if b := c.body(tg); b != "" {
					body = []byte(b)
				}
				return roundTrip(t, c.verb, s.http+c.path(tg), "tok-b", body, desc.ServerStreaming, "")
			})
			s.compare(t, "gRPC "+desc.FullMethod, c.rpc, func(tg target) []byte { return grpcCall(t, s.conn, desc, c.request(tg), "") })
		})
	}
	for _, m := range v03.Methods {
		if !covered[m.Name] {
			t.Errorf("%s is not tried by caller B", m.Name)
		}
	}
	s.unchanged(t)
}
