// The A2A bindings against github.com/a2aproject/a2a-go/v2 v2.4.0, both
// ways and over each binding:
//
//   - the SDK's client (card resolver, JSON-RPC, HTTP+JSON and gRPC
//     transports) against the server gen/a2a generates, serving the echo
//     agent;
//   - the client gen/a2a generates against the SDK's server (a2asrv
//     JSON-RPC and REST handlers, a2agrpc/v1), running a small executor.
//
// Both sides must see the same answers: the task completes with its echo,
// a stream is task, WORKING, the artifact, COMPLETED, and the A2A errors
// arrive as the peer's own error values.
package interop_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"iter"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	a2ago "github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2aclient"
	"github.com/a2aproject/a2a-go/v2/a2aclient/agentcard"
	a2agrpcgo "github.com/a2aproject/a2a-go/v2/a2agrpc/v1"
	"github.com/a2aproject/a2a-go/v2/a2asrv"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/agui-gen/agui-gen/examples/a2a-demo/echo"
	"github.com/agui-gen/agui-gen/gen/a2a"
	"github.com/agui-gen/agui-gen/gen/a2a/a2agrpc"
)

// serveOurs serves the echo agent over JSON-RPC, HTTP+JSON and gRPC, and
// returns the base URL whose card lists the three.
func serveOurs(t testing.TB) string {
	t.Helper()
	agent := echo.New()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	gs := grpc.NewServer()
	a2agrpc.RegisterA2AServiceServer(gs, agent)
	go gs.Serve(lis)
	t.Cleanup(gs.Stop)
	var h http.Handler
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { h.ServeHTTP(w, r) }))
	t.Cleanup(srv.Close)
	card := echo.Card(srv.URL)
	agent.ExtendedCard = card
	card.SupportedInterfaces = append(card.SupportedInterfaces,
		&a2a.AgentInterface{URL: lis.Addr().String(), ProtocolBinding: a2a.BindingGRPC, ProtocolVersion: a2a.ProtocolVersion})
	if h, err = a2a.NewHandler(a2a.BindA2AService(agent), card); err != nil {
		t.Fatal(err)
	}
	return srv.URL
}

func TestA2AGoClientAgainstOurServer(t *testing.T) {
	base := serveOurs(t)
	ctx := context.Background()
	card, err := agentcard.DefaultResolver.Resolve(ctx, base)
	if err != nil {
		t.Fatalf("the SDK cannot read our card: %v", err)
	}
	for _, binding := range []a2ago.TransportProtocol{a2ago.TransportProtocolJSONRPC, a2ago.TransportProtocolHTTPJSON, a2ago.TransportProtocolGRPC} {
		t.Run(string(binding), func(t *testing.T) {
			client, err := a2aclient.NewFromCard(ctx, card,
				a2aclient.WithConfig(a2aclient.Config{PreferredTransports: []a2ago.TransportProtocol{binding}}),
				a2agrpcgo.WithGRPCTransport(grpc.WithTransportCredentials(insecure.NewCredentials())))
			if err != nil {
				t.Fatal(err)
			}
			defer client.Destroy()
			msg := a2ago.NewMessage(a2ago.MessageRoleUser, a2ago.NewTextPart("hello "+string(binding)))
			res, err := client.SendMessage(ctx, &a2ago.SendMessageRequest{Message: msg})
			if err != nil {
				t.Fatal(err)
			}
			task, ok := res.(*a2ago.Task)
			if !ok || task.Status.State != a2ago.TaskStateCompleted || len(task.Artifacts) != 1 ||
				task.Artifacts[0].Parts[0].Text() != "hello "+string(binding) {
				t.Fatalf("SendMessage: %#v", res)
			}
			one := 1
			got, err := client.GetTask(ctx, &a2ago.GetTaskRequest{ID: task.ID, HistoryLength: &one})
			if err != nil || got.ID != task.ID || len(got.History) != 1 {
				t.Fatalf("GetTask: %v %+v", err, got)
			}
			list, err := client.ListTasks(ctx, &a2ago.ListTasksRequest{Status: a2ago.TaskStateCompleted, PageSize: 1})
			if err != nil || len(list.Tasks) != 1 || list.Tasks[0].ID != task.ID {
				t.Fatalf("ListTasks: %v %+v", err, list)
			}
			if _, err := client.GetTask(ctx, &a2ago.GetTaskRequest{ID: "no-such-task"}); !errors.Is(err, a2ago.ErrTaskNotFound) {
				t.Fatalf("GetTask of an unknown task: %v", err)
			}
			if _, err := client.CancelTask(ctx, &a2ago.CancelTaskRequest{ID: task.ID}); !errors.Is(err, a2ago.ErrTaskNotCancelable) {
				t.Fatalf("CancelTask: %v", err)
			}
			if err := client.DeleteTaskPushConfig(ctx, &a2ago.DeleteTaskPushConfigRequest{TaskID: task.ID, ID: "p"}); !errors.Is(err, a2ago.ErrPushNotificationNotSupported) {
				t.Fatalf("DeleteTaskPushConfig: %v", err)
			}
			for _, err := range client.SubscribeToTask(ctx, &a2ago.SubscribeToTaskRequest{ID: task.ID}) {
				if !errors.Is(err, a2ago.ErrUnsupportedOperation) {
					t.Fatalf("SubscribeToTask of a completed task: %v", err)
				}
			}
			got2 := collectGo(t, client.SendStreamingMessage(ctx, &a2ago.SendMessageRequest{Message: a2ago.NewMessage(a2ago.MessageRoleUser, a2ago.NewTextPart("stream"))}))
			if want := "task:submitted status:working artifact:stream status:completed"; got2 != want {
				t.Fatalf("stream: %s, want %s", got2, want)
			}
		})
	}
}

// collectGo summarises an SDK event stream.
func collectGo(t *testing.T, events iter.Seq2[a2ago.Event, error]) string {
	t.Helper()
	var out []string
	for ev, err := range events {
		if err != nil {
			t.Fatal(err)
		}
		switch e := ev.(type) {
		case *a2ago.Task:
			out = append(out, "task:"+shortState(string(e.Status.State)))
		case *a2ago.TaskStatusUpdateEvent:
			out = append(out, "status:"+shortState(string(e.Status.State)))
		case *a2ago.TaskArtifactUpdateEvent:
			out = append(out, "artifact:"+e.Artifact.Parts[0].Text())
		case *a2ago.Message:
			out = append(out, "message")
		}
	}
	return strings.Join(out, " ")
}

func shortState(s string) string { return strings.ToLower(strings.TrimPrefix(s, "TASK_STATE_")) }

// goExecutor is an a2a-go executor that behaves as the echo agent does.
type goExecutor struct{}

func (goExecutor) Execute(ctx context.Context, ec *a2asrv.ExecutorContext) iter.Seq2[a2ago.Event, error] {
	return func(yield func(a2ago.Event, error) bool) {
		text := ""
		for _, p := range ec.Message.Parts {
			text += p.Text()
		}
		if !yield(a2ago.NewSubmittedTask(ec, ec.Message), nil) {
			return
		}
		if !yield(a2ago.NewStatusUpdateEvent(ec, a2ago.TaskStateWorking, nil), nil) {
			return
		}
		if !yield(a2ago.NewArtifactEvent(ec, a2ago.NewTextPart(text)), nil) {
			return
		}
		yield(a2ago.NewStatusUpdateEvent(ec, a2ago.TaskStateCompleted, nil), nil)
	}
}

func (goExecutor) Cancel(ctx context.Context, ec *a2asrv.ExecutorContext) iter.Seq2[a2ago.Event, error] {
	return func(yield func(a2ago.Event, error) bool) {
		yield(a2ago.NewStatusUpdateEvent(ec, a2ago.TaskStateCanceled, nil), nil)
	}
}

// serveTheirs serves goExecutor with a2a-go over JSON-RPC (at /jsonrpc),
// REST (at /rest) and gRPC, and returns the card listing the three.
func serveTheirs(t testing.TB) *a2a.AgentCard {
	t.Helper()
	// The SDK logs what it refuses (a cancel of a completed task) at ERROR
	// through slog's default logger; the refusals are what the test asks for.
	prev := slog.Default()
	slog.SetDefault(slog.New(slog.NewTextHandler(io.Discard, nil)))
	t.Cleanup(func() { slog.SetDefault(prev) })
	handler := a2asrv.NewHandler(goExecutor{})
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	gs := grpc.NewServer()
	a2agrpcgo.NewHandler(handler).RegisterWith(gs)
	go gs.Serve(lis)
	t.Cleanup(gs.Stop)
	mux := http.NewServeMux()
	mux.Handle("/jsonrpc", a2asrv.NewJSONRPCHandler(handler))
	mux.Handle("/rest/", http.StripPrefix("/rest", a2asrv.NewRESTHandler(handler)))
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	card := echo.Card(srv.URL)
	card.SupportedInterfaces = []*a2a.AgentInterface{
		{URL: srv.URL + "/jsonrpc", ProtocolBinding: a2a.BindingJSONRPC, ProtocolVersion: "1.0"},
		{URL: srv.URL + "/rest", ProtocolBinding: a2a.BindingHTTPJSON, ProtocolVersion: "1.0"},
		{URL: lis.Addr().String(), ProtocolBinding: a2a.BindingGRPC, ProtocolVersion: "1.0"},
	}
	return card
}

func TestOurClientAgainstA2AGoServer(t *testing.T) {
	card := serveTheirs(t)
	for _, binding := range []string{a2a.BindingJSONRPC, a2a.BindingHTTPJSON, a2a.BindingGRPC} {
		t.Run(binding, func(t *testing.T) {
			// a2a-go lists only an authenticated caller's tasks, and answers a
			// subscription to a terminal task with TASK_NOT_FOUND where the spec
			// says UNSUPPORTED_OPERATION, as it keeps no execution to attach to
			// (a2aproject/a2a-go#439) — unless the execution has not been torn
			// down yet, when it replays the finished task. Its refusals must
			// arrive as the A2A errors they are.
			exerciseOurClient(t, card, binding, peerAnswers{listTasks: a2a.ErrUnauthenticated, subscribeTerminal: a2a.ErrTaskNotFound,
				subscribeMayReplay: true})
		})
	}
}

// peerAnswers are the errors a peer's server answers where servers differ;
// a nil listTasks means ListTasks succeeds.
type peerAnswers struct {
	listTasks         *a2a.RPCError
	subscribeTerminal *a2a.RPCError
	// subscribeMayReplay allows the subscription to a terminal task to
	// replay that task, in its terminal state, instead of refusing.
	subscribeMayReplay bool
}

// exerciseOurClient runs the generated client against a peer's echo agent
// over one binding of its card.
func exerciseOurClient(t *testing.T, card *a2a.AgentCard, binding string, want peerAnswers) {
	ctx := context.Background()
	tr, _, err := a2a.NewTransportFromCard(card, a2a.WithPreferredBindings(binding),
		a2agrpc.WithGRPC(grpc.WithTransportCredentials(insecure.NewCredentials())))
	if err != nil {
		t.Fatal(err)
	}
	if c, ok := tr.(interface{ Close() error }); ok {
		defer c.Close()
	}
	c := a2a.NewA2AServiceClient(tr)
	msg := &a2a.Message{MessageID: "m-" + binding, Role: a2a.RoleUser, Parts: []*a2a.Part{{Content: &a2a.PartText{Text: "hi " + binding}}}}
	resp, err := c.SendMessage(ctx, &a2a.SendMessageRequest{Message: msg})
	if err != nil {
		t.Fatal(err)
	}
	task := resp.Payload.(*a2a.SendMessageResponseTask).Task
	if task.Status.State != a2a.TaskStateCompleted || task.Artifacts[0].Parts[0].Content.(*a2a.PartText).Text != "hi "+binding {
		t.Fatalf("SendMessage: %s", task.AppendJSON(nil))
	}
	one := int32(1)
	got, err := c.GetTask(ctx, &a2a.GetTaskRequest{ID: task.ID, HistoryLength: &one})
	if err != nil || got.ID != task.ID {
		t.Fatalf("GetTask: %v", err)
	}
	yes := true
	list, err := c.ListTasks(ctx, &a2a.ListTasksRequest{IncludeArtifacts: &yes})
	switch {
	case want.listTasks != nil && !errors.Is(err, want.listTasks):
		t.Fatalf("ListTasks: %v, want %v", err, want.listTasks)
	case want.listTasks == nil && (err != nil || len(list.Tasks) == 0):
		t.Fatalf("ListTasks: %v", err)
	}
	if _, err := c.GetTask(ctx, &a2a.GetTaskRequest{ID: "no-such-task"}); !errors.Is(err, a2a.ErrTaskNotFound) {
		t.Fatalf("GetTask of an unknown task: %v", err)
	}
	if _, err := c.CancelTask(ctx, &a2a.CancelTaskRequest{ID: task.ID}); !errors.Is(err, a2a.ErrTaskNotCancelable) {
		t.Fatalf("CancelTask of a completed task: %v", err)
	}
	for ev, err := range c.SubscribeToTask(ctx, &a2a.SubscribeToTaskRequest{ID: task.ID}) {
		if err == nil && want.subscribeMayReplay {
			switch p := ev.Payload.(type) {
			case *a2a.StreamResponseTask:
				if p.Task.Status.State == a2a.TaskStateCompleted {
					continue
				}
			case *a2a.StreamResponseStatusUpdate:
				if p.StatusUpdate.Status.State == a2a.TaskStateCompleted {
					continue
				}
			}
		}
		if !errors.Is(err, want.subscribeTerminal) {
			t.Fatalf("SubscribeToTask of a completed task: %v %v, want %v", ev, err, want.subscribeTerminal)
		}
	}
	var kinds []string
	for ev, err := range c.SendStreamingMessage(ctx, &a2a.SendMessageRequest{Message: msg}) {
		if err != nil {
			t.Fatal(err)
		}
		switch p := ev.Payload.(type) {
		case *a2a.StreamResponseTask:
			kinds = append(kinds, "task:"+shortState(p.Task.Status.State.String()))
		case *a2a.StreamResponseStatusUpdate:
			kinds = append(kinds, "status:"+shortState(p.StatusUpdate.Status.State.String()))
		case *a2a.StreamResponseArtifactUpdate:
			kinds = append(kinds, "artifact:"+p.ArtifactUpdate.Artifact.Parts[0].Content.(*a2a.PartText).Text)
		}
	}
	if got, want := strings.Join(kinds, " "), "task:submitted status:working artifact:hi "+binding+" status:completed"; got != want {
		t.Fatalf("stream: %s, want %s", got, want)
	}
}

// TestA2AGoClientSeesOurRefusals: a call our server refuses before it runs
// (the caller, or the protocol version) reaches a2a-go's client as the A2A
// error, unary or streaming, on both HTTP bindings; never as a transport
// failure or a silently empty stream. A refused JSON-RPC stream is one
// application/json response, which a2a-go v2.4.0 reads only with
// WithStreamRefusalsAsEvents (see TestA2AGoMeetsTheCardsCapabilities).
func TestA2AGoClientSeesOurRefusals(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name string
		opt  a2a.ServerOption
		want error
	}{
		{"caller", a2a.WithAuthenticator(func(*http.Request) (any, error) { return nil, errors.New("no credentials") }), a2ago.ErrUnauthenticated},
		{"version", a2a.WithProtocolVersions("1.1"), a2ago.ErrVersionNotSupported},
	} {
		h, err := a2a.NewHandler(a2a.BindA2AService(echo.New()), echo.Card("http://placeholder"), tc.opt, a2a.WithStreamRefusalsAsEvents())
		if err != nil {
			t.Fatal(err)
		}
		srv := httptest.NewServer(h)
		defer srv.Close()
		card := echo.Card(srv.URL)
		for _, binding := range []a2ago.TransportProtocol{a2ago.TransportProtocolJSONRPC, a2ago.TransportProtocolHTTPJSON} {
			cardGo := new(a2ago.AgentCard)
			if err := json.Unmarshal(card.AppendJSON(nil), cardGo); err != nil {
				t.Fatal(err)
			}
			client, err := a2aclient.NewFromCard(ctx, cardGo, a2aclient.WithConfig(a2aclient.Config{PreferredTransports: []a2ago.TransportProtocol{binding}}))
			if err != nil {
				t.Fatal(err)
			}
			if _, err := client.GetTask(ctx, &a2ago.GetTaskRequest{ID: "t"}); !errors.Is(err, tc.want) {
				t.Errorf("%s, %s, unary: %v, want %v", tc.name, binding, err, tc.want)
			}
			n := 0
			for _, err := range client.SendStreamingMessage(ctx, &a2ago.SendMessageRequest{Message: a2ago.NewMessage(a2ago.MessageRoleUser, a2ago.NewTextPart("hi"))}) {
				n++
				if !errors.Is(err, tc.want) {
					t.Errorf("%s, %s, stream: %v, want %v", tc.name, binding, err, tc.want)
				}
			}
			if n == 0 {
				t.Errorf("%s, %s: the refused stream ended silently", tc.name, binding)
			}
			client.Destroy()
		}
	}
}
