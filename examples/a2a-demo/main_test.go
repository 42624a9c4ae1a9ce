package main

import (
	"context"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/agui-gen/agui-gen/gen/a2a"
	"github.com/agui-gen/agui-gen/gen/a2a/a2agrpc"
)

// TestDemoServesEveryBinding starts the demo and talks to it through its
// card over each binding it lists.
func TestDemoServesEveryBinding(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	gl, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	path := filepath.Join(t.TempDir(), "tasks.db")
	st, err := openStore(ctx, "sqlite:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	done := make(chan error, 1)
	go func() { done <- serve(ctx, l, gl, st) }()
	var ids []string
	card, err := a2a.ResolveCard(ctx, "http://"+l.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	// Three bindings at 1.0, and the same three again at 0.3, whose
	// clients each of them serves too.
	if len(card.SupportedInterfaces) != 6 || card.SupportedInterfaces[3].ProtocolVersion != "0.3" || card.SupportedInterfaces[5].ProtocolVersion != "0.3" {
		t.Fatalf("interfaces: %s", card.AppendJSON(nil))
	}
	for _, binding := range []string{a2a.BindingGRPC, a2a.BindingJSONRPC, a2a.BindingHTTPJSON} {
		tr, iface, err := a2a.NewTransportFromCard(card, a2a.WithPreferredBindings(binding),
			a2agrpc.WithGRPC(grpc.WithTransportCredentials(insecure.NewCredentials())))
		if err != nil || iface.ProtocolBinding != binding {
			t.Fatalf("%s: %v", binding, err)
		}
		c := a2a.NewA2AServiceClient(tr)
		msg := &a2a.Message{MessageID: "m", Role: a2a.RoleUser, Parts: []*a2a.Part{{Content: &a2a.PartText{Text: binding}}}}
		var last a2a.TaskState
		var echoed string
		var taskID string
		for ev, err := range c.SendStreamingMessage(ctx, &a2a.SendMessageRequest{Message: msg}) {
			if err != nil {
				t.Fatalf("%s: %v", binding, err)
			}
			switch p := ev.Payload.(type) {
			case *a2a.StreamResponseTask:
				taskID = p.Task.ID
			case *a2a.StreamResponseStatusUpdate:
				last = p.StatusUpdate.Status.State
			case *a2a.StreamResponseArtifactUpdate:
				echoed = p.ArtifactUpdate.Artifact.Parts[0].Content.(*a2a.PartText).Text
			}
		}
		if last != a2a.TaskStateCompleted || echoed != binding {
			t.Fatalf("%s: ended in %s, echoed %q", binding, last, echoed)
		}
		if cl, ok := tr.(interface{ Close() error }); ok {
			cl.Close()
		}
		ids = append(ids, taskID)
	}
	// A client that asks for AG-UI events gets them.
	req, _ := http.NewRequest(http.MethodPost, "http://"+l.Addr().String()+"/message:stream?format=agui",
		strings.NewReader(`{"message":{"messageId":"m-agui","role":"ROLE_USER","parts":[{"text":"hello agui"}]}}`))
	req.Header.Set("A2A-Version", "1.0")
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	for _, want := range []string{`"type":"RUN_STARTED"`, `"delta":"hello agui"`, `"type":"RUN_FINISHED"`} {
		if !strings.Contains(string(body), want) {
			t.Errorf("AG-UI stream lacks %s:\n%s", want, body)
		}
	}

	// A restart on the same file still has the tasks.
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	st.Close()
	l2, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx2, cancel2 := context.WithCancel(context.Background())
	defer cancel2()
	st2, err := openStore(ctx2, "sqlite:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer st2.Close()
	go serve(ctx2, l2, nil, st2)
	c := a2a.NewA2AServiceClient(a2a.NewJSONRPCTransport("http://" + l2.Addr().String()))
	for _, id := range ids {
		task, err := c.GetTask(ctx2, &a2a.GetTaskRequest{ID: id})
		if err != nil || task.Status.State != a2a.TaskStateCompleted {
			t.Fatalf("task %s after a restart: %v", id, err)
		}
	}
}
