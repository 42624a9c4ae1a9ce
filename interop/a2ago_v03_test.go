// Interop of the 0.3 path of our A2A server with the v0.3 Go SDK,
// github.com/a2aproject/a2a-go at v0.3.15 (pinned in go.mod: the module
// proxy serves it though its version list shows v0.3.3 as the newest). The
// SDK speaks A2A 0.3 only: it reads the card's url and preferredTransport,
// sends JSON-RPC methods such as message/send without an A2A-Version
// header, and reads kind-tagged results.
package interop_test

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"strings"
	"testing"

	a2a03 "github.com/a2aproject/a2a-go/a2a"
	client03 "github.com/a2aproject/a2a-go/a2aclient"
	"github.com/a2aproject/a2a-go/a2aclient/agentcard"
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
	client, err := client03.NewFromCard(ctx, card)
	if err != nil {
		t.Fatal(err)
	}
	defer client.Destroy()

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
	if _, err := client.GetTaskPushConfig(ctx, &a2a03.GetTaskPushConfigParams{TaskID: task.ID}); !errors.Is(err, a2a03.ErrPushNotificationNotSupported) {
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
// config set over 0.3 is the same config a 1.0 client reads.
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
