package interop_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agui-gen/agui-gen/gen/a2a"
	"github.com/agui-gen/agui-gen/templates/a2atask/storetest"
)

// stallingHook is a webhook that records the events it is sent, by name,
// and holds its first post until released: a delivery in flight when its
// sender is killed.
type stallingHook struct {
	mu       sync.Mutex
	got      []string
	first    sync.Once
	stalled  chan struct{} // closed when the first post arrives
	released chan struct{} // the first post waits for it
}

func newStallingHook() *stallingHook {
	return &stallingHook{stalled: make(chan struct{}), released: make(chan struct{})}
}

func (h *stallingHook) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	var ev a2a.StreamResponse
	if err := ev.UnmarshalJSON(body); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	name := "?"
	switch p := ev.Payload.(type) {
	case *a2a.StreamResponseTask:
		name = "task"
	case *a2a.StreamResponseStatusUpdate:
		name = strings.ToLower(strings.TrimPrefix(p.StatusUpdate.Status.State.String(), "TASK_STATE_"))
	case *a2a.StreamResponseArtifactUpdate:
		name = p.ArtifactUpdate.Artifact.ArtifactID
	}
	h.mu.Lock()
	h.got = append(h.got, name)
	h.mu.Unlock()
	h.first.Do(func() {
		close(h.stalled)
		<-h.released
	})
}

func (h *stallingHook) received() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return slices.Clone(h.got)
}

// TestPushOutboxSurvivesKill9: a replica is killed with SIGKILL while it
// posts a task's first notification and the task writes on, owing more;
// replicas started after it on the same store deliver every event, in
// order, with only the one in flight at the kill posted twice, and the
// failure the orphan sweep writes last.
func TestPushOutboxSurvivesKill9(t *testing.T) {
	stores := map[string]func(t *testing.T) string{
		"sqlite":   func(t *testing.T) string { return "sqlite:" + filepath.Join(t.TempDir(), "tasks.db") },
		"postgres": func(t *testing.T) string { return storetest.PostgresDatabase(t) },
	}
	for _, name := range []string{"sqlite", "postgres"} {
		t.Run(name, func(t *testing.T) {
			store := stores[name](t)
			hook := newStallingHook()
			webhook := httptest.NewServer(hook)
			defer webhook.Close()
			defer func() {
				select {
				case <-hook.released:
				default:
					close(hook.released)
				}
			}()
			first := startReplica(t, store, "-steps", "200", "-every", "20ms", "-lease", "600ms", "-push", "2s")
			c := a2a.NewA2AServiceClient(a2a.NewRESTTransport(first.url))
			resp, err := c.SendMessage(context.Background(), &a2a.SendMessageRequest{
				Message: &a2a.Message{MessageID: "m", Role: a2a.RoleUser, Parts: []*a2a.Part{{Content: &a2a.PartText{Text: "x"}}}},
				Configuration: &a2a.SendMessageConfiguration{ReturnImmediately: true,
					TaskPushNotificationConfig: &a2a.TaskPushNotificationConfig{URL: webhook.URL + "/hook"}}})
			if err != nil {
				t.Fatal(err)
			}
			id := resp.Payload.(*a2a.SendMessageResponseTask).Task.ID
			select {
			case <-hook.stalled:
			case <-time.After(10 * time.Second):
				t.Fatal("no notification reached the webhook")
			}
			for deadline := time.Now().Add(10 * time.Second); len(getTask(t, first.url, id).Artifacts) < 5; time.Sleep(20 * time.Millisecond) {
				if time.Now().After(deadline) {
					t.Fatal("the task made no progress")
				}
			}
			first.cmd.Process.Kill() // SIGKILL, with the first post in flight
			first.cmd.Wait()
			close(hook.released)
			if got := hook.received(); len(got) != 1 {
				t.Fatalf("before the kill the webhook got %v, want the first event alone", got)
			}

			// Two replicas on a shared database race for the delivery; a SQLite
			// file is one process's.
			next := []*replica{startReplica(t, store, "-lease", "600ms", "-push", "2s")}
			if name == "postgres" {
				next = append(next, startReplica(t, store, "-lease", "600ms", "-push", "2s"))
			}
			var got []string
			for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(50 * time.Millisecond) {
				got = hook.received()
				if slices.Contains(got, "failed") {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("after the kill the webhook got %d events, none the failure: %v", len(got), got)
				}
			}
			task := getTask(t, next[0].url, id)
			want := []string{"task", "task", "working"} // the first twice: it was in flight
			for _, a := range task.Artifacts {
				want = append(want, a.ArtifactID)
			}
			want = append(want, "failed")
			time.Sleep(200 * time.Millisecond) // nothing more comes
			if got = hook.received(); !slices.Equal(got, want) {
				t.Fatalf("the webhook got\n%v\nwant\n%v", got, want)
			}
			t.Logf("%d events delivered after the kill, in order", len(got)-1)
		})
	}
}
