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
	"testing"

	a2a03 "github.com/a2aproject/a2a-go/a2a"
	client03 "github.com/a2aproject/a2a-go/a2aclient"
	"github.com/a2aproject/a2a-go/a2aclient/agentcard"
	a2ago "github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2acompat/a2av0"
	grpcv0 "github.com/a2aproject/a2a-go/v2/a2agrpc/v0"
	"github.com/a2aproject/a2a-go/v2/a2asrv"
	"github.com/a2aproject/a2a-go/v2/a2asrv/push"
	"github.com/google/go-cmp/cmp"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/agui-gen/agui-gen/examples/a2a-demo/echo"
)

// askExecutor is an a2a-go v2 executor that behaves as conformanceExecutor
// does: it asks for input when told "ask", and otherwise echoes.
type askExecutor struct{}

func (askExecutor) Execute(ctx context.Context, ec *a2asrv.ExecutorContext) iter.Seq2[a2ago.Event, error] {
	return func(yield func(a2ago.Event, error) bool) {
		text := ec.Message.Parts[0].Text()
		if ec.StoredTask == nil && !yield(a2ago.NewSubmittedTask(ec, ec.Message), nil) {
			return
		}
		if text == "ask" {
			yield(a2ago.NewStatusUpdateEvent(ec, a2ago.TaskStateInputRequired, a2ago.NewMessageForTask(a2ago.MessageRoleAgent, ec, a2ago.NewTextPart("which colour?"))), nil)
			return
		}
		if !yield(a2ago.NewArtifactEvent(ec, a2ago.NewTextPart(text)), nil) {
			return
		}
		yield(a2ago.NewStatusUpdateEvent(ec, a2ago.TaskStateCompleted, nil), nil)
	}
}

func (askExecutor) Cancel(ctx context.Context, ec *a2asrv.ExecutorContext) iter.Seq2[a2ago.Event, error] {
	return func(yield func(a2ago.Event, error) bool) {
		yield(a2ago.NewStatusUpdateEvent(ec, a2ago.TaskStateCanceled, nil), nil)
	}
}

// serveA2AGoCompat serves askExecutor with a2a-go v2.4.0's v0.3 layers:
// its 0.3 JSON-RPC handler (a2acompat/a2av0) at /v03, its 0.3 gRPC service
// (a2agrpc/v0), and the card its compat producer writes for them.
func serveA2AGoCompat(t *testing.T) string {
	t.Helper()
	// The SDK logs what it refuses at ERROR through slog's default logger;
	// the refusals are what the test asks for.
	prev := slog.Default()
	slog.SetDefault(slog.New(slog.NewTextHandler(io.Discard, nil)))
	t.Cleanup(func() { slog.SetDefault(prev) })
	handler := a2asrv.NewHandler(askExecutor{}, a2asrv.WithPushNotifications(push.NewInMemoryStore(), push.NewHTTPPushSender(nil)))
	mux := http.NewServeMux()
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	var card a2ago.AgentCard
	if err := json.Unmarshal(echo.Card(srv.URL).AppendJSON(nil), &card); err != nil {
		t.Fatal(err)
	}
	card.Capabilities.PushNotifications = true
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	gs := grpc.NewServer()
	grpcv0.NewHandler(handler).RegisterWith(gs)
	go gs.Serve(lis)
	t.Cleanup(gs.Stop)
	card.SupportedInterfaces = []*a2ago.AgentInterface{
		{URL: srv.URL + "/v03", ProtocolBinding: a2ago.TransportProtocolJSONRPC, ProtocolVersion: a2av0.Version},
		{URL: lis.Addr().String(), ProtocolBinding: a2ago.TransportProtocolGRPC, ProtocolVersion: a2av0.Version},
	}
	mux.Handle("/v03", a2av0.NewJSONRPCHandler(handler))
	mux.Handle("/.well-known/agent-card.json", a2asrv.NewAgentCardHandler(a2av0.NewStaticAgentCardProducer(&card)))
	return srv.URL
}

// v03Outcomes makes the calls of a 0.3 client (a2a-go v0.3.15's, over
// binding) and says what came of each.
func v03Outcomes(t *testing.T, base string, binding a2a03.TransportProtocol) map[string]string {
	ctx := context.Background()
	out := map[string]string{}
	outcome := func(err error) string {
		for _, e := range []error{a2a03.ErrTaskNotFound, a2a03.ErrTaskNotCancelable, a2a03.ErrUnsupportedOperation, a2a03.ErrPushNotificationNotSupported} {
			if errors.Is(err, e) {
				return e.Error()
			}
		}
		if err != nil {
			return "error: " + err.Error()
		}
		return "ok"
	}
	card, err := agentcard.DefaultResolver.Resolve(ctx, base)
	if out["card"] = outcome(err); err != nil {
		return out
	}
	client, err := client03.NewFromCard(ctx, card, client03.WithConfig(client03.Config{PreferredTransports: []a2a03.TransportProtocol{binding}}),
		client03.WithGRPCTransport(grpc.WithTransportCredentials(insecure.NewCredentials())))
	if out["client"] = outcome(err); err != nil {
		return out
	}
	defer client.Destroy()
	send := func(text string) *a2a03.Task {
		res, err := client.SendMessage(ctx, &a2a03.MessageSendParams{Message: a2a03.NewMessage(a2a03.MessageRoleUser, a2a03.TextPart{Text: text})})
		out["send "+text] = outcome(err)
		if task, ok := res.(*a2a03.Task); ok {
			out["send "+text] = string(task.Status.State)
			return task
		}
		return nil
	}
	task := send("hello")
	if task == nil {
		return out
	}
	_, err = client.GetTask(ctx, &a2a03.TaskQueryParams{ID: task.ID})
	out["get"] = outcome(err)
	_, err = client.GetTask(ctx, &a2a03.TaskQueryParams{ID: "no-such-task"})
	out["get unknown"] = outcome(err)
	_, err = client.CancelTask(ctx, &a2a03.TaskIDParams{ID: task.ID})
	out["cancel completed"] = outcome(err)
	out["stream"] = ""
	for ev, err := range client.SendStreamingMessage(ctx, &a2a03.MessageSendParams{Message: a2a03.NewMessage(a2a03.MessageRoleUser, a2a03.TextPart{Text: "stream"})}) {
		if err != nil {
			out["stream"] += "error: " + err.Error()
			break
		}
		if s, ok := ev.(*a2a03.TaskStatusUpdateEvent); ok && s.Final {
			out["stream"] += "final:" + string(s.Status.State)
		}
	}
	asked := send("ask")
	if asked == nil {
		return out
	}
	_, err = client.SetTaskPushConfig(ctx, &a2a03.TaskPushConfig{TaskID: asked.ID, Config: a2a03.PushConfig{ID: "c1", URL: "http://127.0.0.1:9/hook"}})
	out["push set"] = outcome(err)
	_, err = client.GetTaskPushConfig(ctx, &a2a03.GetTaskPushConfigParams{TaskID: asked.ID, ConfigID: "c1"})
	out["push get"] = outcome(err)
	list, err := client.ListTaskPushConfig(ctx, &a2a03.ListTaskPushConfigParams{TaskID: asked.ID})
	out["push list"] = outcome(err)
	if err == nil && len(list) != 1 {
		out["push list"] = "wrong length"
	}
	err = client.DeleteTaskPushConfig(ctx, &a2a03.DeleteTaskPushConfigParams{TaskID: asked.ID, ConfigID: "c1"})
	out["push delete"] = outcome(err)
	canceled, err := client.CancelTask(ctx, &a2a03.TaskIDParams{ID: asked.ID})
	out["cancel input-required"] = outcome(err)
	if err == nil {
		out["cancel input-required"] = string(canceled.Status.State)
	}
	return out
}

// TestV03AgainstA2AGoCompat makes the same 0.3 calls against our server and
// a2a-go v2.4.0's v0.3 layers, over JSON-RPC and gRPC, and holds ours to
// every call passing. Where the two differ, the test says how (go test -v
// shows it).
func TestV03AgainstA2AGoCompat(t *testing.T) {
	ourBase, theirBase := serveRuntime(t, nil).base, serveA2AGoCompat(t)
	for _, binding := range []a2a03.TransportProtocol{a2a03.TransportProtocolJSONRPC, a2a03.TransportProtocolGRPC} {
		t.Run(string(binding), func(t *testing.T) {
			ours := v03Outcomes(t, ourBase, binding)
			theirs := v03Outcomes(t, theirBase, binding)
			want := map[string]string{
				"card": "ok", "client": "ok", "send hello": "completed", "get": "ok", "get unknown": "task not found",
				"cancel completed": "task cannot be canceled", "stream": "final:completed", "send ask": "input-required",
				"push set": "ok", "push get": "ok", "push list": "ok", "push delete": "ok", "cancel input-required": "canceled",
			}
			if d := cmp.Diff(want, ours); d != "" {
				t.Errorf("our server, to a2a-go v0.3.15's client over %s (-want +got):\n%s", binding, d)
			}
			if d := cmp.Diff(ours, theirs); d != "" {
				t.Logf("a2a-go v2.4.0's v0.3 layer over %s differs from ours (-ours +theirs):\n%s", binding, d)
			}
		})
	}
}
