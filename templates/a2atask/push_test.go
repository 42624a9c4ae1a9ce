package a2atask

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	a2a "github.com/agui-gen/agui-gen/gen/a2a"
)

// receiver is a webhook that records what it is sent; it answers the
// first failures posts with 503.
type receiver struct {
	mu       sync.Mutex
	failures int
	events   []string
	headers  []http.Header
}

func (r *receiver) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	body, _ := io.ReadAll(req.Body)
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.failures > 0 {
		r.failures--
		w.WriteHeader(http.StatusServiceUnavailable)
		return
	}
	var ev a2a.StreamResponse
	if err := ev.UnmarshalJSON(body); err != nil {
		w.WriteHeader(http.StatusBadRequest)
		return
	}
	name := ""
	switch p := ev.Payload.(type) {
	case *a2a.StreamResponseTask:
		name = "task"
	case *a2a.StreamResponseStatusUpdate:
		name = short(p.StatusUpdate.Status.State)
	case *a2a.StreamResponseArtifactUpdate:
		name = "artifact"
	}
	r.events, r.headers = append(r.events, name), append(r.headers, req.Header.Clone())
}

func (r *receiver) waitFor(t *testing.T, n int) ([]string, []http.Header) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		r.mu.Lock()
		if len(r.events) >= n {
			defer r.mu.Unlock()
			return append([]string(nil), r.events...), r.headers
		}
		r.mu.Unlock()
	}
	t.Fatalf("the webhook got %d events, want %d", len(r.events), n)
	return nil, nil
}

func TestPushNotifications(t *testing.T) {
	hook := &receiver{failures: 2}
	webhook := httptest.NewServer(hook)
	defer webhook.Close()
	store := NewMemory()
	client, _ := serve(t, echoing, WithPushNotifications(store, NewPushSender(WithPrivateNetworks(), WithAttempts(4, 5*time.Millisecond))))
	c := client("")
	ctx := context.Background()
	task := sendTask(t, c, &a2a.SendMessageRequest{Message: userMessage("ping"), Configuration: &a2a.SendMessageConfiguration{
		TaskPushNotificationConfig: &a2a.TaskPushNotificationConfig{URL: webhook.URL, Token: "s3cret",
			Authentication: &a2a.AuthenticationInfo{Scheme: "Bearer", Credentials: "tok"}}}})
	events, headers := hook.waitFor(t, 4)
	if strings.Join(events, " ") != "task working artifact completed" {
		t.Fatalf("webhook events %v", events)
	}
	// Receivers built on @a2a-js/sdk, a2a-python and Koog read the token from
	// X-A2A-Notification-Token; a2a-go's from A2A-Notification-Token.
	for _, h := range headers {
		if h.Get("A2A-Notification-Token") != "s3cret" || h.Get("X-A2A-Notification-Token") != "s3cret" || h.Get("Authorization") != "Bearer tok" {
			t.Fatalf("headers %v", h)
		}
	}

	cfgs, err := c.ListTaskPushNotificationConfigs(ctx, &a2a.ListTaskPushNotificationConfigsRequest{TaskID: task.ID})
	if err != nil || len(cfgs.Configs) != 1 || cfgs.Configs[0].ID == "" || cfgs.Configs[0].TaskID != task.ID {
		t.Fatalf("list: %v %s", err, cfgs.AppendJSON(nil))
	}
	made, err := c.CreateTaskPushNotificationConfig(ctx, &a2a.TaskPushNotificationConfig{TaskID: task.ID, ID: "second", URL: webhook.URL})
	if err != nil || made.ID != "second" {
		t.Fatalf("create: %v", err)
	}
	page, err := c.ListTaskPushNotificationConfigs(ctx, &a2a.ListTaskPushNotificationConfigsRequest{TaskID: task.ID, PageSize: 1})
	if err != nil || len(page.Configs) != 1 || page.NextPageToken == "" {
		t.Fatalf("page: %v", err)
	}
	rest, err := c.ListTaskPushNotificationConfigs(ctx, &a2a.ListTaskPushNotificationConfigsRequest{TaskID: task.ID, PageSize: 1, PageToken: page.NextPageToken})
	if err != nil || len(rest.Configs) != 1 || rest.NextPageToken != "" || rest.Configs[0].ID == page.Configs[0].ID {
		t.Fatalf("second page: %v", err)
	}
	got, err := c.GetTaskPushNotificationConfig(ctx, &a2a.GetTaskPushNotificationConfigRequest{TaskID: task.ID, ID: "second"})
	if err != nil || got.URL != webhook.URL {
		t.Fatalf("get: %v", err)
	}
	// Deleting is idempotent (A2A §3.1.10): the same delete again, and the
	// delete of a config the task never had, succeed; the config is gone.
	for _, id := range []string{"second", "second", "never-made"} {
		if _, err := c.DeleteTaskPushNotificationConfig(ctx, &a2a.DeleteTaskPushNotificationConfigRequest{TaskID: task.ID, ID: id}); err != nil {
			t.Fatalf("delete %s: %v", id, err)
		}
	}
	if _, err := c.GetTaskPushNotificationConfig(ctx, &a2a.GetTaskPushNotificationConfigRequest{TaskID: task.ID, ID: "second"}); !errors.Is(err, a2a.ErrTaskNotFound) {
		t.Fatalf("get after delete: %v", err)
	}
	// A task the caller cannot see stays not found, deleted config or not.
	for _, who := range []*a2a.A2AServiceClient{client("mallory"), c} {
		_, err := who.DeleteTaskPushNotificationConfig(ctx, &a2a.DeleteTaskPushNotificationConfigRequest{TaskID: "no-such-task", ID: "second"})
		if !errors.Is(err, a2a.ErrTaskNotFound) {
			t.Fatalf("delete on an unknown task: %v", err)
		}
	}
	if _, err := client("mallory").DeleteTaskPushNotificationConfig(ctx, &a2a.DeleteTaskPushNotificationConfigRequest{TaskID: task.ID, ID: cfgs.Configs[0].ID}); !errors.Is(err, a2a.ErrTaskNotFound) {
		t.Fatalf("another caller's delete: %v", err)
	}
	if still, err := c.ListTaskPushNotificationConfigs(ctx, &a2a.ListTaskPushNotificationConfigsRequest{TaskID: task.ID}); err != nil || len(still.Configs) != 1 {
		t.Fatalf("another caller's delete removed a config: %v", err)
	}
	if _, err := c.CreateTaskPushNotificationConfig(ctx, &a2a.TaskPushNotificationConfig{TaskID: "no-such-task", URL: webhook.URL}); !errors.Is(err, a2a.ErrTaskNotFound) {
		t.Fatalf("config of an unknown task: %v", err)
	}
	if _, err := c.CreateTaskPushNotificationConfig(ctx, &a2a.TaskPushNotificationConfig{TaskID: task.ID, URL: "ftp://example.com/x"}); !errors.Is(err, a2a.ErrInvalidParams) {
		t.Fatalf("an ftp webhook: %v", err)
	}
}

// TestPushRefusesPrivateTargets: by default a webhook on this machine or
// a private network is refused, when the config is made and when a name
// resolves to such an address at send time.
func TestPushRefusesPrivateTargets(t *testing.T) {
	client, _ := serve(t, echoing, WithPushNotifications(NewMemory(), NewPushSender()))
	c := client("")
	task := sendTask(t, c, &a2a.SendMessageRequest{Message: userMessage("x")})
	for _, target := range []string{"http://127.0.0.1:9/hook", "http://localhost/hook", "http://[::1]/hook", "http://10.1.2.3/hook", "http://169.254.169.254/latest"} {
		_, err := c.CreateTaskPushNotificationConfig(context.Background(), &a2a.TaskPushNotificationConfig{TaskID: task.ID, URL: target})
		if !errors.Is(err, a2a.ErrInvalidParams) {
			t.Errorf("%s: %v", target, err)
		}
	}
	hook := httptest.NewServer(&receiver{})
	defer hook.Close()
	named := strings.Replace(hook.URL, "127.0.0.1", "localhost", 1) // a name, resolved when dialled
	err := NewPushSender(WithAttempts(1, 0)).Send(context.Background(), &a2a.TaskPushNotificationConfig{URL: named},
		&a2a.StreamResponse{Payload: &a2a.StreamResponseTask{Task: task}})
	if !errors.Is(err, errBlockedTarget) {
		t.Fatalf("a name for loopback: %v", err)
	}
}

func TestPushNotSupported(t *testing.T) {
	client, _ := serve(t, echoing)
	_, err := client("").ListTaskPushNotificationConfigs(context.Background(), &a2a.ListTaskPushNotificationConfigsRequest{TaskID: "x"})
	if !errors.Is(err, a2a.ErrPushNotificationNotSupported) {
		t.Fatal(err)
	}
}

// TestPushOrderWithASlowWebhook: a task that writes faster than its webhook
// takes events has every event posted once, in order; the runtime then
// owes nothing and remembers no task, pushed to or not.
func TestPushOrderWithASlowWebhook(t *testing.T) {
	var mu sync.Mutex
	var got []string
	webhook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var ev a2a.StreamResponse
		body, _ := io.ReadAll(r.Body)
		if err := ev.UnmarshalJSON(body); err != nil {
			t.Error(err)
		}
		time.Sleep(time.Millisecond)
		if u, ok := ev.Payload.(*a2a.StreamResponseArtifactUpdate); ok {
			mu.Lock()
			got = append(got, u.ArtifactUpdate.Artifact.ArtifactID)
			mu.Unlock()
		}
	}))
	defer webhook.Close()
	const n = 100
	store := NewMemory()
	client, rt := serve(t, ExecutorFunc(func(ctx context.Context, run *Run) error {
		for i := range n {
			if err := run.Artifact(&a2a.Artifact{ArtifactID: fmt.Sprint(i), Parts: []*a2a.Part{{Content: &a2a.PartText{Text: "x"}}}}, false, true); err != nil {
				return err
			}
		}
		return nil
	}), WithPushNotifications(store, NewPushSender(WithPrivateNetworks())))
	c := client("")
	sendTask(t, c, &a2a.SendMessageRequest{Message: userMessage("pushed"), Configuration: &a2a.SendMessageConfiguration{
		TaskPushNotificationConfig: &a2a.TaskPushNotificationConfig{URL: webhook.URL}}})
	sendTask(t, c, &a2a.SendMessageRequest{Message: userMessage("not pushed")})
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		mu.Lock()
		done := len(got) >= n
		mu.Unlock()
		if done {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the webhook got %d of %d artifacts", len(got), n)
		}
	}
	for i, id := range got {
		if id != fmt.Sprint(i) {
			t.Fatalf("artifact %d posted as the %dth", i, len(got))
		}
	}
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		left := rt.pushes.Local().Len()
		if left == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the runtime still remembers %d tasks", left)
		}
	}
}
