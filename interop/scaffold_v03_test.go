package interop_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	a2a03 "github.com/a2aproject/a2a-go/a2a"
	client03 "github.com/a2aproject/a2a-go/a2aclient"
	"github.com/a2aproject/a2a-go/a2aclient/agentcard"
	"github.com/google/go-cmp/cmp"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
)

// startScaffold builds examples/server, which is what `agui-gen scaffold`
// writes (generator/scaffold checks that), and runs it as a user would, on
// a free port with a SQLite file of its own and no pause between streamed
// words, serving gRPC too. It returns the base URL the server says it
// serves at.
func startScaffold(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("skipping the scaffold in -short mode: it builds the example server")
	}
	bin := filepath.Join(t.TempDir(), "server")
	if out, err := exec.Command("go", "build", "-o", bin, "../examples/server").CombinedOutput(); err != nil {
		t.Fatalf("go build ../examples/server: %v\n%s", err, out)
	}
	server := exec.Command(bin, "--addr", "127.0.0.1:0", "--grpc-addr", "127.0.0.1:0", "--pace", "0", "--db", filepath.Join(t.TempDir(), "server.db"))
	stderr, err := server.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := server.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { server.Process.Kill(); server.Wait() })
	found := make(chan string, 1)
	go func() {
		serving := regexp.MustCompile(`page=(http://\S+)/`)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if m := serving.FindStringSubmatch(sc.Text()); m != nil {
				found <- m[1]
			}
		}
	}()
	select {
	case base := <-found:
		return base
	case <-time.After(60 * time.Second):
		t.Fatal("the scaffolded server did not say where it serves")
	}
	return ""
}

// TestA2AGoV03ClientAgainstScaffold: a2a-go v0.3.15's client against a
// fresh scaffold, whose agent is an AG-UI agent behind the bridge and the
// task runtime on SQLite, over JSON-RPC and gRPC: the card, a question
// answered with a streamed artifact, the same as a stream, a confirmation
// the agent asks for (input-required) answered while a resubscription
// follows the task, a cancel, and the calls the scaffold does not serve
// (push configs) refused with 0.3's own errors.
func TestA2AGoV03ClientAgainstScaffold(t *testing.T) {
	base := startScaffold(t)
	ctx := context.Background()
	card, err := agentcard.DefaultResolver.Resolve(ctx, base)
	if err != nil {
		t.Fatalf("the 0.3 SDK cannot read the scaffold's card: %v", err)
	}
	if card.URL != base || card.PreferredTransport != a2a03.TransportProtocolJSONRPC || card.ProtocolVersion != "0.3.0" || card.Name != "scripted-agent" {
		t.Fatalf("card as a 0.3 client reads it: url %q, preferredTransport %q, protocolVersion %q, name %q",
			card.URL, card.PreferredTransport, card.ProtocolVersion, card.Name)
	}
	for _, binding := range []a2a03.TransportProtocol{a2a03.TransportProtocolJSONRPC, a2a03.TransportProtocolGRPC} {
		t.Run(string(binding), func(t *testing.T) {
			client, err := client03.NewFromCard(ctx, card, client03.WithConfig(client03.Config{PreferredTransports: []a2a03.TransportProtocol{binding}}),
				client03.WithGRPCTransport(grpc.WithTransportCredentials(insecure.NewCredentials())))
			if err != nil {
				t.Fatal(err)
			}
			defer client.Destroy()
			exerciseScaffoldV03(t, client, binding)
		})
	}
}

// exerciseScaffoldV03 makes the 0.3 SDK's calls against the scaffold.
func exerciseScaffoldV03(t *testing.T, client *client03.Client, binding a2a03.TransportProtocol) {
	ctx := context.Background()
	say := func(text string, taskID a2a03.TaskID) *a2a03.MessageSendParams {
		m := a2a03.NewMessage(a2a03.MessageRoleUser, a2a03.TextPart{Text: text})
		m.TaskID = taskID
		return &a2a03.MessageSendParams{Message: m}
	}

	res, err := client.SendMessage(ctx, say("What is the weather in Paris?", ""))
	if err != nil {
		t.Fatalf("message/send: %v", err)
	}
	task, ok := res.(*a2a03.Task)
	if !ok || task.Status.State != a2a03.TaskStateCompleted {
		t.Fatalf("message/send: %#v", res)
	}
	// Beside the answer, the bridge keeps the AG-UI state and conversation
	// as data artifacts, for the task's next run.
	if answer := answerV03(task); !strings.Contains(answer, "sunny in Paris") {
		t.Fatalf("the answer: %q", answer)
	}
	got, err := client.GetTask(ctx, &a2a03.TaskQueryParams{ID: task.ID})
	if err != nil || got.ID != task.ID || got.Status.State != a2a03.TaskStateCompleted || len(got.Artifacts) != len(task.Artifacts) {
		t.Fatalf("tasks/get: %v %+v", err, got)
	}
	if _, err := client.GetTask(ctx, &a2a03.TaskQueryParams{ID: "no-such-task"}); !errors.Is(err, a2a03.ErrTaskNotFound) {
		t.Fatalf("tasks/get of an unknown task: %v", err)
	}
	if _, err := client.CancelTask(ctx, &a2a03.TaskIDParams{ID: task.ID}); !errors.Is(err, a2a03.ErrTaskNotCancelable) {
		t.Fatalf("tasks/cancel of a completed task: %v", err)
	}

	// The stream: the reasoning and the tool call are working updates, the
	// answer is one artifact appended word by word, the end is final.
	var kinds []string
	var answer strings.Builder
	for ev, err := range client.SendStreamingMessage(ctx, say("And tomorrow?", "")) {
		if err != nil {
			t.Fatalf("message/stream: %v (after %v)", err, kinds)
		}
		switch e := ev.(type) {
		case *a2a03.Task:
			kinds = appendOnce(kinds, "task:"+string(e.Status.State))
		case *a2a03.TaskStatusUpdateEvent:
			s := "status:" + string(e.Status.State)
			if e.Final {
				s += "(final)"
			}
			kinds = appendOnce(kinds, s)
		case *a2a03.TaskArtifactUpdateEvent:
			kinds = appendOnce(kinds, "artifact")
			answer.WriteString(artifactTextV03(e.Artifact))
		default:
			t.Fatalf("message/stream: unexpected %T", ev)
		}
	}
	if want := []string{"task:submitted", "status:working", "artifact", "status:completed(final)"}; !cmp.Equal(kinds, want) {
		t.Fatalf("message/stream: %v, want %v", kinds, want)
	}
	if !strings.Contains(answer.String(), "sunny in Paris") {
		t.Fatalf("the streamed answer: %q", answer.String())
	}

	// A confirmation: the task waits for input; a resubscription follows it
	// through the answer to its end.
	res, err = client.SendMessage(ctx, say("Delete the draft", ""))
	asked, ok := res.(*a2a03.Task)
	if err != nil || !ok || asked.Status.State != a2a03.TaskStateInputRequired || asked.Status.Message == nil {
		t.Fatalf("a question: %v %#v", err, res)
	}
	if q := messageTextV03(asked.Status.Message); !strings.Contains(q, "Delete the draft?") {
		t.Fatalf("the question: %q", q)
	}
	followed := make(chan []string, 1)
	subscribed := make(chan struct{})
	go func() {
		var states []string
		for ev, err := range client.ResubscribeToTask(ctx, &a2a03.TaskIDParams{ID: asked.ID}) {
			if err != nil {
				states = append(states, "error:"+err.Error())
				break
			}
			switch e := ev.(type) {
			case *a2a03.Task:
				states = appendOnce(states, "task:"+string(e.Status.State))
				close(subscribed)
			case *a2a03.TaskStatusUpdateEvent:
				if len(states) == 0 {
					close(subscribed)
				}
				s := "status:" + string(e.Status.State)
				if e.Final {
					s += "(final)"
				}
				states = appendOnce(states, s)
			case *a2a03.TaskArtifactUpdateEvent:
				states = appendOnce(states, "artifact")
			}
		}
		followed <- states
	}()
	select {
	case <-subscribed:
	case <-time.After(10 * time.Second):
		t.Fatal("tasks/resubscribe sent nothing for the waiting task")
	}
	res, err = client.SendMessage(ctx, say("no", asked.ID))
	kept, ok := res.(*a2a03.Task)
	if err != nil || !ok || kept.ID != asked.ID || kept.Status.State != a2a03.TaskStateCompleted {
		t.Fatalf("the answer: %v %#v", err, res)
	}
	if text := answerV03(kept); text != "Kept the draft." {
		t.Fatalf("the answer's artifact: %q", text)
	}
	select {
	case states := <-followed:
		if states[0] != "task:input-required" || states[len(states)-1] != "status:completed(final)" || !slices.Contains(states, "artifact") {
			t.Fatalf("tasks/resubscribe followed: %v", states)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("tasks/resubscribe did not end with the task")
	}

	// Another confirmation, cancelled.
	res, err = client.SendMessage(ctx, say("Delete it all", ""))
	if asked, ok = res.(*a2a03.Task); err != nil || !ok || asked.Status.State != a2a03.TaskStateInputRequired {
		t.Fatalf("a second question: %v %#v", err, res)
	}
	canceled, err := client.CancelTask(ctx, &a2a03.TaskIDParams{ID: asked.ID})
	if err != nil || canceled.Status.State != a2a03.TaskStateCanceled {
		t.Fatalf("tasks/cancel: %v %+v", err, canceled)
	}

	// The scaffold's card offers no push notifications. Over gRPC 0.3's
	// code for that is UNIMPLEMENTED, which the SDK reads as an
	// unsupported operation.
	wantPush := a2a03.ErrPushNotificationNotSupported
	if binding == a2a03.TransportProtocolGRPC {
		wantPush = a2a03.ErrUnsupportedOperation
	}
	config := &a2a03.TaskPushConfig{TaskID: task.ID, Config: a2a03.PushConfig{ID: "hook", URL: "http://127.0.0.1:9/hook"}}
	if _, err := client.SetTaskPushConfig(ctx, config); !errors.Is(err, wantPush) {
		t.Fatalf("tasks/pushNotificationConfig/set: %v", err)
	}
	if _, err := client.GetTaskPushConfig(ctx, &a2a03.GetTaskPushConfigParams{TaskID: task.ID}); !errors.Is(err, wantPush) {
		t.Fatalf("tasks/pushNotificationConfig/get: %v", err)
	}
	if _, err := client.ListTaskPushConfig(ctx, &a2a03.ListTaskPushConfigParams{TaskID: task.ID}); !errors.Is(err, wantPush) {
		t.Fatalf("tasks/pushNotificationConfig/list: %v", err)
	}
	if err := client.DeleteTaskPushConfig(ctx, &a2a03.DeleteTaskPushConfigParams{TaskID: task.ID, ConfigID: "hook"}); !errors.Is(err, wantPush) {
		t.Fatalf("tasks/pushNotificationConfig/delete: %v", err)
	}
}

// TestA2AJSV03ClientAgainstScaffold: @a2a-js/sdk 0.3.14's client against a
// fresh scaffold over JSON-RPC and HTTP+JSON, the same calls as a2a-go's
// above.
func TestA2AJSV03ClientAgainstScaffold(t *testing.T) {
	requireA2AJSV03(t)
	base := startScaffold(t)
	for _, binding := range []string{"JSONRPC", "HTTP+JSON"} {
		t.Run(binding, func(t *testing.T) {
			var got map[string]any
			if err := json.Unmarshal(runNode(t, nil, "a2a-client-v03-scaffold.mjs", base, binding), &got); err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(scaffoldWantV03(base, binding), got); d != "" {
				t.Fatalf("@a2a-js/sdk 0.3.14 client against the scaffold over %s (-want +got):\n%s", binding, d)
			}
		})
	}
}

// scaffoldWantV03 is what @a2a-js/sdk 0.3.14's client sees of the scaffold.
func scaffoldWantV03(base, binding string) map[string]any {
	// Its REST transport names its errors without "JSONRPC".
	kind := map[string]string{"JSONRPC": "JSONRPC", "HTTP+JSON": ""}[binding]
	return map[string]any{
		"card":     map[string]any{"url": base, "preferredTransport": "JSONRPC", "protocolVersion": "0.3.0", "name": "scripted-agent"},
		"send":     map[string]any{"kind": "task", "state": "completed", "sunny": true},
		"get":      map[string]any{"kind": "task", "same": true, "state": "completed"},
		"stream":   []any{"task:submitted", "status:working", "artifact", "status:completed(final)"},
		"protocol": binding,
		"errors": map[string]any{
			"getUnknown":      "TaskNotFound" + kind + "Error",
			"cancelCompleted": "TaskNotCancelable" + kind + "Error",
			// The SDK refuses set, get and list itself, since the card
			// offers no push notifications; delete it sends, and the
			// server refuses it with 0.3's error.
			"pushSet":    "PushNotificationNotSupportedError",
			"pushGet":    "PushNotificationNotSupportedError",
			"pushList":   "PushNotificationNotSupportedError",
			"pushDelete": "PushNotificationNotSupported" + kind + "Error",
		},
		"ask":         map[string]any{"state": "input-required", "question": true},
		"resubscribe": map[string]any{"first": "task:input-required", "last": "status:completed(final)", "artifact": true},
		"answer":      map[string]any{"state": "completed", "text": "Kept the draft."},
		"cancel":      "canceled",
		"warnings":    []any{},
	}
}

// appendOnce appends s unless it is the last element already: a stream of
// many working updates or artifact chunks reads as one step.
func appendOnce(list []string, s string) []string {
	if len(list) > 0 && list[len(list)-1] == s {
		return list
	}
	return append(list, s)
}

// answerV03 is the text of a task's artifacts.
func answerV03(task *a2a03.Task) string {
	var b strings.Builder
	for _, a := range task.Artifacts {
		b.WriteString(artifactTextV03(a))
	}
	return b.String()
}

func artifactTextV03(a *a2a03.Artifact) string {
	var b strings.Builder
	for _, p := range a.Parts {
		if text, ok := p.(a2a03.TextPart); ok {
			b.WriteString(text.Text)
		}
	}
	return b.String()
}

func messageTextV03(m *a2a03.Message) string {
	var b strings.Builder
	for _, p := range m.Parts {
		if text, ok := p.(a2a03.TextPart); ok {
			b.WriteString(text.Text)
		}
	}
	return b.String()
}
