// The A2A v1.0.1 MUSTs a task runtime server keeps, checked with the
// clients of a2a-go v2.4.0 (JSON-RPC, HTTP+JSON, gRPC) and, in
// a2ajs_conformance_test.go, @a2a-js/sdk 1.3.0: idempotent deletes of push
// configs (§3.1.10), the card's capabilities enforced (§3.3.4), ListTasks'
// nextPageToken always present (§3.1.4), the version negotiated before the
// method is looked up (§3.6.2), a subscription to a task waiting for input
// kept open through the answer (§3.1.6), and push notifications that carry
// their token where every receiver looks.
package interop_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	a2ago "github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2aclient"
	"github.com/a2aproject/a2a-go/v2/a2aclient/agentcard"
	"github.com/a2aproject/a2a-go/v2/a2aext"
	a2agrpcgo "github.com/a2aproject/a2a-go/v2/a2agrpc/v1"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/emptypb"

	"github.com/agui-gen/agui-gen/examples/a2a-demo/echo"
	"github.com/agui-gen/agui-gen/gen/a2a"
	"github.com/agui-gen/agui-gen/gen/a2a/a2agrpc"
	"github.com/agui-gen/agui-gen/gen/a2a/a2atask"
	"github.com/agui-gen/agui-gen/gen/a2a/a2av03pb"
)

// requiredExtension is the extension the cards of these tests mark required.
const requiredExtension = "https://example.com/a2a/extensions/consent/v1"

// conformanceExecutor asks for input when told "ask", and otherwise echoes
// the message as an artifact and completes.
var conformanceExecutor = a2atask.ExecutorFunc(func(ctx context.Context, run *a2atask.Run) error {
	said := run.Message.Parts[0].Content.(*a2a.PartText).Text
	if said == "ask" {
		return run.RequireInput(run.AgentMessage(&a2a.Part{Content: &a2a.PartText{Text: "which colour?"}}))
	}
	return run.Artifact(&a2a.Artifact{ArtifactID: "echo", Parts: []*a2a.Part{{Content: &a2a.PartText{Text: said}}}}, false, true)
})

// served is a task runtime server over the three bindings.
type served struct {
	base, grpcAddr string
	card           *a2a.AgentCard
}

// serveRuntime serves the task runtime with push notifications over
// JSON-RPC, HTTP+JSON and gRPC, under the echo card that edit changes.
func serveRuntime(t *testing.T, edit func(*a2a.AgentCard), opts ...a2a.ServerOption) served {
	t.Helper()
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	store := a2atask.NewMemory()
	rt := a2atask.New(conformanceExecutor, store, a2atask.WithLogger(quiet),
		a2atask.WithPushNotifications(store, a2atask.NewPushSender(a2atask.WithPrivateNetworks(), a2atask.WithAttempts(1, 0))))
	t.Cleanup(func() { rt.Close() })
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var h http.Handler
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { h.ServeHTTP(w, r) }))
	t.Cleanup(srv.Close)
	card := echo.Card(srv.URL)
	card.Capabilities.PushNotifications = ptr(true)
	card.SupportedInterfaces = append(card.SupportedInterfaces,
		&a2a.AgentInterface{URL: lis.Addr().String(), ProtocolBinding: a2a.BindingGRPC, ProtocolVersion: a2a.ProtocolVersion})
	if edit != nil {
		edit(card)
	}
	grpcOpts := []a2agrpc.ServerOption{a2agrpc.WithAgentCard(card), a2agrpc.WithLogger(quiet)}
	gs := grpc.NewServer(a2agrpc.UnknownServiceHandler(grpcOpts...))
	a2agrpc.RegisterA2AServiceServer(gs, rt, grpcOpts...)
	go gs.Serve(lis)
	t.Cleanup(gs.Stop)
	if h, err = a2a.NewHandler(a2a.BindA2AService(rt), card, append([]a2a.ServerOption{a2a.WithLogger(quiet)}, opts...)...); err != nil {
		t.Fatal(err)
	}
	return served{base: srv.URL, grpcAddr: lis.Addr().String(), card: card}
}

// goClients returns a2a-go clients of s, one per binding, as the SDK builds
// them from the card it resolves.
func goClients(t *testing.T, s served, opts ...a2aclient.FactoryOption) map[string]*a2aclient.Client {
	t.Helper()
	ctx := context.Background()
	card, err := agentcard.DefaultResolver.Resolve(ctx, s.base)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*a2aclient.Client{}
	for _, binding := range []a2ago.TransportProtocol{a2ago.TransportProtocolJSONRPC, a2ago.TransportProtocolHTTPJSON, a2ago.TransportProtocolGRPC} {
		client, err := a2aclient.NewFromCard(ctx, card, append([]a2aclient.FactoryOption{
			a2aclient.WithConfig(a2aclient.Config{PreferredTransports: []a2ago.TransportProtocol{binding}}),
			a2agrpcgo.WithGRPCTransport(grpc.WithTransportCredentials(insecure.NewCredentials()))}, opts...)...)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { client.Destroy() })
		out[string(binding)] = client
	}
	return out
}

func goText(s string) *a2ago.Message {
	return a2ago.NewMessage(a2ago.MessageRoleUser, a2ago.NewTextPart(s))
}

func goTask(t *testing.T, c *a2aclient.Client, msg *a2ago.Message) *a2ago.Task {
	t.Helper()
	res, err := c.SendMessage(context.Background(), &a2ago.SendMessageRequest{Message: msg})
	if err != nil {
		t.Fatal(err)
	}
	task, ok := res.(*a2ago.Task)
	if !ok {
		t.Fatalf("SendMessage answered %T", res)
	}
	return task
}

// TestA2AGoDeletesPushConfigsIdempotently: a2a-go's client deletes the same
// push config twice, and a config its task never had; each succeeds (A2A
// §3.1.10). A task that does not exist stays TASK_NOT_FOUND.
func TestA2AGoDeletesPushConfigsIdempotently(t *testing.T) {
	ctx := context.Background()
	for binding, c := range goClients(t, serveRuntime(t, nil)) {
		task := goTask(t, c, goText("hello"))
		cfg, err := c.CreateTaskPushConfig(ctx, &a2ago.PushConfig{TaskID: task.ID, URL: "http://127.0.0.1:9/hook"})
		if err != nil {
			t.Fatalf("%s: create: %v", binding, err)
		}
		for i, id := range []string{cfg.ID, cfg.ID, "never-made"} {
			if err := c.DeleteTaskPushConfig(ctx, &a2ago.DeleteTaskPushConfigRequest{TaskID: task.ID, ID: id}); err != nil {
				t.Errorf("%s: delete %d of %s: %v", binding, i+1, id, err)
			}
		}
		if err := c.DeleteTaskPushConfig(ctx, &a2ago.DeleteTaskPushConfigRequest{TaskID: "no-such-task", ID: cfg.ID}); !errors.Is(err, a2ago.ErrTaskNotFound) {
			t.Errorf("%s: delete on a task that does not exist: %v", binding, err)
		}
	}
}

// TestA2AGoMeetsTheCardsCapabilities: a card without streaming refuses
// SubscribeToTask, and SendStreamingMessage, with UNSUPPORTED_OPERATION on
// every binding; a card with a required extension refuses a client that
// does not name it in A2A-Extensions with EXTENSION_SUPPORT_REQUIRED, and
// serves one that does (a2a-go's extension activator) (A2A §3.3.4).
//
// JSON-RPC answers the refused stream with one application/json response,
// which a2a-go v2.4.0's JSON-RPC client, reading only SSE, takes for an
// empty stream; with WithStreamRefusalsAsEvents it reads the error.
func TestA2AGoMeetsTheCardsCapabilities(t *testing.T) {
	ctx := context.Background()
	for binding, c := range goClients(t, serveRuntime(t, func(c *a2a.AgentCard) { c.Capabilities.Streaming = nil })) {
		if binding != string(a2ago.TransportProtocolJSONRPC) {
			continue
		}
		task := goTask(t, c, goText("ask"))
		for _, err := range c.SubscribeToTask(ctx, &a2ago.SubscribeToTaskRequest{ID: task.ID}) {
			t.Errorf("a2a-go's JSON-RPC client read a plain refusal of SubscribeToTask as %v: it reads such answers now; drop WithStreamRefusalsAsEvents from the docs' advice", err)
		}
	}
	flat := serveRuntime(t, func(c *a2a.AgentCard) { c.Capabilities.Streaming = nil }, a2a.WithStreamRefusalsAsEvents())
	for binding, c := range goClients(t, flat) {
		task := goTask(t, c, goText("ask"))
		n := 0
		for _, err := range c.SubscribeToTask(ctx, &a2ago.SubscribeToTaskRequest{ID: task.ID}) {
			n++
			if !errors.Is(err, a2ago.ErrUnsupportedOperation) {
				t.Errorf("%s: SubscribeToTask without streaming: %v", binding, err)
			}
		}
		if n == 0 {
			t.Errorf("%s: SubscribeToTask without streaming ended silently", binding)
		}
	}
	// a2a-go's and @a2a-js/sdk's clients send a message plainly to an agent
	// that does not stream; ours asks regardless, and is refused.
	for _, binding := range []string{a2a.BindingJSONRPC, a2a.BindingHTTPJSON, a2a.BindingGRPC} {
		tr, _, err := a2a.NewTransportFromCard(flat.card, a2a.WithPreferredBindings(binding),
			a2agrpc.WithGRPC(grpc.WithTransportCredentials(insecure.NewCredentials())))
		if err != nil {
			t.Fatal(err)
		}
		ours := a2a.NewA2AServiceClient(tr)
		for _, err := range ours.SendStreamingMessage(ctx, &a2a.SendMessageRequest{Message: &a2a.Message{MessageID: "m", Role: a2a.RoleUser,
			Parts: []*a2a.Part{{Content: &a2a.PartText{Text: "hi"}}}}}) {
			if !errors.Is(err, a2a.ErrUnsupportedOperation) {
				t.Errorf("%s: SendStreamingMessage without streaming: %v", binding, err)
			}
		}
	}

	strict := serveRuntime(t, func(c *a2a.AgentCard) {
		c.Capabilities.Extensions = []*a2a.AgentExtension{{URI: requiredExtension, Description: "Asks for consent.", Required: true}}
	})
	for binding, c := range goClients(t, strict) {
		if _, err := c.SendMessage(ctx, &a2ago.SendMessageRequest{Message: goText("hi")}); !errors.Is(err, a2ago.ErrExtensionSupportRequired) {
			t.Errorf("%s: SendMessage without the required extension: %v", binding, err)
		}
		if _, err := c.GetTask(ctx, &a2ago.GetTaskRequest{ID: "t"}); !errors.Is(err, a2ago.ErrExtensionSupportRequired) {
			t.Errorf("%s: GetTask without the required extension: %v", binding, err)
		}
	}
	for binding, c := range goClients(t, strict, a2aclient.WithCallInterceptors(a2aext.NewActivator(requiredExtension))) {
		if task := goTask(t, c, goText("hi")); task.Status.State != a2ago.TaskStateCompleted {
			t.Errorf("%s: with the extension named: %s", binding, task.Status.State)
		}
	}
}

// TestA2AGoFollowsAnInputRequiredTask: a2a-go's client subscribes to a task
// that waits for input; a second message answers it; the subscriber sees
// the task work and complete, then the stream end (A2A §3.1.6).
func TestA2AGoFollowsAnInputRequiredTask(t *testing.T) {
	ctx := context.Background()
	for binding, c := range goClients(t, serveRuntime(t, nil)) {
		task := goTask(t, c, goText("ask"))
		if task.Status.State != a2ago.TaskStateInputRequired {
			t.Fatalf("%s: %s", binding, task.Status.State)
		}
		first, seen := make(chan struct{}), make(chan string, 1)
		go func() {
			var out []string
			for ev, err := range c.SubscribeToTask(ctx, &a2ago.SubscribeToTaskRequest{ID: task.ID}) {
				if err != nil {
					out = append(out, "error:"+err.Error())
					break
				}
				switch e := ev.(type) {
				case *a2ago.Task:
					out = append(out, "task:"+shortState(string(e.Status.State)))
					close(first)
				case *a2ago.TaskStatusUpdateEvent:
					out = append(out, "status:"+shortState(string(e.Status.State)))
				case *a2ago.TaskArtifactUpdateEvent:
					out = append(out, "artifact:"+e.Artifact.Parts[0].Text())
				}
			}
			seen <- strings.Join(out, " ")
		}()
		select {
		case <-first:
		case <-time.After(5 * time.Second):
			t.Fatalf("%s: the subscription got nothing", binding)
		}
		answer := goText("blue")
		answer.TaskID = task.ID
		if done := goTask(t, c, answer); done.Status.State != a2ago.TaskStateCompleted {
			t.Fatalf("%s: the answer left the task %s", binding, done.Status.State)
		}
		select {
		case got := <-seen:
			if want := "task:input_required status:working artifact:blue status:completed"; got != want {
				t.Errorf("%s: the subscriber saw %q, want %q", binding, got, want)
			}
		case <-time.After(5 * time.Second):
			t.Errorf("%s: the subscription did not end with the task", binding)
		}
	}
}

// TestListTasksLastPageToken: the last page of ListTasks carries
// "nextPageToken": "" on both JSON bindings, as the proto's REQUIRED and
// A2A §3.1.4 ask, and a2a-go's client pages through to it on every binding.
func TestListTasksLastPageToken(t *testing.T) {
	s := serveRuntime(t, nil)
	ctx := context.Background()
	for binding, c := range goClients(t, s) {
		goTask(t, c, goText("one "+binding))
		pages, token := 0, ""
		for {
			resp, err := c.ListTasks(ctx, &a2ago.ListTasksRequest{PageSize: 1, PageToken: token})
			if err != nil {
				t.Fatalf("%s: %v", binding, err)
			}
			pages++
			if token = resp.NextPageToken; token == "" {
				break
			}
		}
		if pages < 1 {
			t.Fatalf("%s: no page", binding)
		}
	}
	rpc := post(t, s.base, map[string]string{"A2A-Version": "1.0"}, `{"jsonrpc":"2.0","id":1,"method":"ListTasks","params":{"pageSize":100}}`)
	rest := get(t, s.base+"/tasks?pageSize=100", map[string]string{"A2A-Version": "1.0"})
	for name, body := range map[string][]byte{"JSON-RPC": rpc, "HTTP+JSON": rest} {
		var resp struct {
			Result *map[string]json.RawMessage `json:"result"`
		}
		members := map[string]json.RawMessage{}
		if name == "JSON-RPC" {
			if err := json.Unmarshal(body, &resp); err != nil || resp.Result == nil {
				t.Fatalf("%s: %s", name, body)
			}
			members = *resp.Result
		} else if err := json.Unmarshal(body, &members); err != nil {
			t.Fatalf("%s: %s", name, body)
		}
		if string(members["nextPageToken"]) != `""` || string(members["totalSize"]) != "3" {
			t.Errorf("%s: the last page is %s", name, body)
		}
	}
}

// TestVersionBeforeMethod: a call without A2A-Version is a v0.3 client's
// (A2A §3.6.2). It is served as 0.3, on every binding, unless the server
// is told not to (WithEarlierVersions()); then it is told its version is not
// served before anyone looks for its method. WithMissingVersionAs still
// serves such clients at the version it names.
func TestVersionBeforeMethod(t *testing.T) {
	s := serveRuntime(t, nil)
	if res := post(t, s.base, nil, `{"jsonrpc":"2.0","id":1,"method":"tasks/get","params":{"id":"t"}}`); !bytes.Contains(res, []byte(`{"code":-32001,"message":"task \"t\" not found"}`)) {
		t.Errorf("JSON-RPC tasks/get without A2A-Version, served as 0.3: %s", res)
	}
	if res := get(t, s.base+"/v1/tasks/t", nil); string(res) != `{"code":-32001,"message":"task \"t\" not found"}` {
		t.Errorf("REST /v1/tasks/t without A2A-Version, served as 0.3: %s", res)
	}
	off := serveRuntime(t, nil, a2a.WithEarlierVersions())
	legacy := post(t, off.base, nil, `{"jsonrpc":"2.0","id":1,"method":"tasks/get","params":{"id":"t"}}`)
	if !bytes.Contains(legacy, []byte(`"code":-32009`)) {
		t.Errorf("JSON-RPC tasks/get without A2A-Version, 0.3 not served: %s", legacy)
	}
	if res := get(t, off.base+"/v1/card", nil); !bytes.Contains(res, []byte(`"VERSION_NOT_SUPPORTED"`)) {
		t.Errorf("REST /v1/card without A2A-Version, 0.3 not served: %s", res)
	}
	conn, err := grpc.NewClient(s.grpcAddr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	err = conn.Invoke(context.Background(), "/a2a.v1.A2AService/GetTask", &a2av03pb.GetTaskRequest{Name: "tasks/t"}, new(a2av03pb.Task))
	if st, _ := status.FromError(err); st.Code() != codes.NotFound {
		t.Errorf("gRPC a2a.v1.A2AService/GetTask without a2a-version, served as 0.3: %v", err)
	}
	ctx := metadata.AppendToOutgoingContext(context.Background(), "a2a-version", "1.0")
	err = conn.Invoke(ctx, "/a2a.v1.A2AService/GetTask", &a2av03pb.GetTaskRequest{Name: "tasks/t"}, new(a2av03pb.Task))
	if st, _ := status.FromError(err); st.Code() != codes.FailedPrecondition || !strings.Contains(st.Message(), "version") {
		t.Errorf("gRPC a2a.v1.A2AService/GetTask at version 1.0: %v", err)
	}
	err = conn.Invoke(context.Background(), "/grpc.health.v1.Health/Check", &emptypb.Empty{}, &emptypb.Empty{})
	if st, _ := status.FromError(err); st.Code() != codes.Unimplemented {
		t.Errorf("another service is none of A2A's business: %v", err)
	}

	lenient := serveRuntime(t, nil, a2a.WithMissingVersionAs("1.0"), a2a.WithEarlierVersions())
	if res := post(t, lenient.base, nil, `{"jsonrpc":"2.0","id":1,"method":"tasks/get","params":{"id":"t"}}`); !bytes.Contains(res, []byte(`"code":-32601`)) {
		t.Errorf("tasks/get served as 1.0: %s", res)
	}
	if res := post(t, lenient.base, nil, `{"jsonrpc":"2.0","id":1,"method":"GetTask","params":{"id":"t"}}`); !bytes.Contains(res, []byte(`"code":-32001`)) {
		t.Errorf("GetTask served as 1.0: %s", res)
	}
}

// post sends a JSON-RPC request body with headers and returns the answer.
func post(t *testing.T, url string, headers map[string]string, body string) []byte {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	return do(t, req, headers)
}

func get(t *testing.T, url string, headers map[string]string) []byte {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	return do(t, req, headers)
}

func do(t *testing.T, req *http.Request, headers map[string]string) []byte {
	t.Helper()
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	return body
}
