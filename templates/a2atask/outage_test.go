package a2atask

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	a2a "github.com/agui-gen/agui-gen/gen/a2a"
)

// outageStore is a memory store whose database can be taken down: every
// call then fails with ErrUnavailable. lost makes the next writes take
// effect while their answer is lost, as when a connection breaks after the
// commit was sent; leasesBack, when set, keeps lease renewals failing
// until then (Unix nanoseconds), as for a process that is slow to renew.
type outageStore struct {
	*Memory
	down       atomic.Bool
	lost       atomic.Int32
	leasesBack atomic.Int64
}

var errDown = fmt.Errorf("%w: connection refused", ErrUnavailable)

func (s *outageStore) Update(ctx context.Context, task *a2a.Task, prev int64, event *a2a.StreamResponse) (int64, error) {
	if s.down.Load() {
		return 0, errDown
	}
	gen, err := s.Memory.Update(ctx, task, prev, event)
	if err == nil && s.lost.Add(-1) >= 0 {
		return 0, errDown
	}
	return gen, err
}

func (s *outageStore) Get(ctx context.Context, id string) (*Record, error) {
	if s.down.Load() {
		return nil, errDown
	}
	return s.Memory.Get(ctx, id)
}

func (s *outageStore) Events(ctx context.Context, id string, after int64) ([]Event, error) {
	if s.down.Load() {
		return nil, errDown
	}
	return s.Memory.Events(ctx, id, after)
}

func (s *outageStore) Lease(ctx context.Context, id string, until time.Time) error {
	if s.down.Load() || time.Now().UnixNano() < s.leasesBack.Load() {
		return errDown
	}
	return s.Memory.Lease(ctx, id, until)
}

func (s *outageStore) Orphans(ctx context.Context, at time.Time, limit int) ([]string, error) {
	if s.down.Load() {
		return nil, errDown
	}
	return s.Memory.Orphans(ctx, at, limit)
}

// TestWritesOutlastAnOutage: a run's writes wait for an unavailable store
// instead of failing the task; a write the store took but whose answer was
// lost is not written twice; the leases that ran out during the outage do
// not get the live task swept as an orphan, by this runtime or another
// one on the same store; and a caller that waits longer than the store's
// patience is told that the store is unavailable.
func TestWritesOutlastAnOutage(t *testing.T) {
	store := &outageStore{Memory: NewMemory()}
	lease := 300 * time.Millisecond
	proceed := make(chan struct{})
	rt := New(ExecutorFunc(func(ctx context.Context, run *Run) error {
		if err := run.Working(nil); err != nil {
			return err
		}
		<-proceed
		time.Sleep(lease) // past the renewals' return
		for i := range 3 {
			if err := run.Artifact(&a2a.Artifact{ArtifactID: "a", Parts: []*a2a.Part{text(fmt.Sprint(i))}}, i > 0, i == 2); err != nil {
				return err
			}
		}
		return nil
	}), store, WithLease(lease), WithStorePatience(100*time.Millisecond), WithLogger(quietLogger()))
	defer rt.Close()
	other := New(ExecutorFunc(func(context.Context, *Run) error { return nil }), store, WithLease(lease), WithLogger(quietLogger()))
	defer other.Close()
	ctx := context.Background()
	resp, err := rt.SendMessage(ctx, &a2a.SendMessageRequest{Message: userMessage("go"), Configuration: &a2a.SendMessageConfiguration{ReturnImmediately: true}})
	if err != nil {
		t.Fatal(err)
	}
	id := resp.Payload.(*a2a.SendMessageResponseTask).Task.ID
	waitStored(t, store.Memory, id, a2a.TaskStateWorking)

	subscribed, told := make(chan struct{}, 1), make(chan error, 1)
	go func() {
		told <- rt.SubscribeToTask(ctx, &a2a.SubscribeToTaskRequest{ID: id}, func(*a2a.StreamResponse) error {
			subscribed <- struct{}{}
			return nil
		})
	}()
	<-subscribed

	store.down.Store(true)
	store.lost.Store(1) // the first write after the outage is stored, and its answer lost
	close(proceed)
	// A stream that has nothing to read waits through an outage; one that
	// is woken reads, and is told once the store's patience runs out.
	store.Memory.signals.Notify(id, 0)
	if _, err := rt.GetTask(ctx, &a2a.GetTaskRequest{ID: id}); !isUnavailable(err) {
		t.Errorf("GetTask during the outage: %v", err)
	}
	select {
	case err := <-told:
		if !isUnavailable(err) {
			t.Errorf("a subscription that outwaited the store's patience was told %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Error("a subscription waited for the store past its patience")
	}
	time.Sleep(3 * lease) // the lease runs out; the sweepers run
	// Back, but for this runtime's renewals for half a lease more: the sweeps
	// wait a lease after the outage for live runtimes to renew theirs.
	store.leasesBack.Store(time.Now().Add(lease / 2).UnixNano())
	store.down.Store(false)

	rec := waitStored(t, store.Memory, id, a2a.TaskStateCompleted)
	if parts := rec.Task.Artifacts[0].Parts; len(parts) != 1 || textOf(&a2a.Message{Parts: parts}) != "012" {
		t.Fatalf("artifact after the outage: %s", rec.Task.AppendJSON(nil))
	}
	events, _ := store.Memory.Events(ctx, id, 0)
	var kinds []string
	for _, e := range events {
		kinds = append(kinds, summary(t, func(yield func(*a2a.StreamResponse, error) bool) { yield(e.Payload, nil) }))
	}
	if got := strings.Join(kinds, " "); got != "task:submitted working artifact:a artifact:a artifact:a completed" {
		t.Fatalf("events %s", got)
	}
}

// waitStored waits for a task to reach a state in the store itself.
func waitStored(t *testing.T, m *Memory, id string, want a2a.TaskState) *Record {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		if rec, err := m.Get(context.Background(), id); err == nil && rec.Task.Status.State == want {
			return rec
		}
	}
	rec, _ := m.Get(context.Background(), id)
	t.Fatalf("task %s never reached %s: %s", id, want, rec.Task.AppendJSON(nil))
	return nil
}

// isUnavailable reports whether err is what a caller is told while the
// store is unavailable: an internal error that says so.
func isUnavailable(err error) bool {
	var re *a2a.RPCError
	return errors.As(err, &re) && errors.Is(err, a2a.ErrInternal) && strings.Contains(re.Message, "the task store is unavailable")
}

func quietLogger() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

// lostLeases is a memory store whose lease renewals never land.
type lostLeases struct{ *Memory }

func (lostLeases) Lease(context.Context, string, time.Time) error { return nil }

// TestSweepSparesItsOwnRuns: a task whose lease has run out looks
// orphaned, but the runtime that runs it knows it is alive and does not
// fail it.
func TestSweepSparesItsOwnRuns(t *testing.T) {
	store := lostLeases{NewMemory()}
	lease := 50 * time.Millisecond
	rt := New(ExecutorFunc(func(ctx context.Context, run *Run) error {
		if err := run.Working(nil); err != nil {
			return err
		}
		time.Sleep(6 * lease)
		return nil
	}), store, WithLease(lease), WithLogger(quietLogger()))
	defer rt.Close()
	resp, err := rt.SendMessage(context.Background(), &a2a.SendMessageRequest{Message: userMessage("go")})
	if err != nil {
		t.Fatal(err)
	}
	if task := resp.Payload.(*a2a.SendMessageResponseTask).Task; task.Status.State != a2a.TaskStateCompleted {
		t.Fatalf("%s", task.AppendJSON(nil))
	}
}

// TestOutageOverHTTP: while the store is unavailable, HTTP+JSON answers a
// call that cannot wait for it with 503 Service Unavailable, UNAVAILABLE and
// a Retry-After header, unary or streaming, so that clients and proxies
// retry it; JSON-RPC says the same in its body.
func TestOutageOverHTTP(t *testing.T) {
	store := &outageStore{Memory: NewMemory()}
	store.down.Store(true)
	rt := New(ExecutorFunc(func(context.Context, *Run) error { return nil }), store,
		WithStorePatience(50*time.Millisecond), WithLogger(quietLogger()))
	defer rt.Close()
	rest, err := a2a.NewRESTHandler(a2a.BindA2AService(rt), a2a.WithLogger(quietLogger()))
	if err != nil {
		t.Fatal(err)
	}
	restSrv := httptest.NewServer(rest)
	defer restSrv.Close()
	rpcSrv := httptest.NewServer(a2a.NewJSONRPCHandler(a2a.BindA2AService(rt), a2a.WithLogger(quietLogger())))
	defer rpcSrv.Close()
	do := func(method, url, body string) (*http.Response, string) {
		req, _ := http.NewRequest(method, url, strings.NewReader(body))
		req.Header.Set("A2A-Version", "1.0")
		if body != "" {
			req.Header.Set("Content-Type", "application/json")
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		data, _ := io.ReadAll(res.Body)
		return res, string(data)
	}
	for _, path := range []string{"/tasks/t1", "/tasks/t1:subscribe"} {
		res, body := do(http.MethodGet, restSrv.URL+path, "")
		if res.StatusCode != http.StatusServiceUnavailable || res.Header.Get("Retry-After") != "1" ||
			!strings.Contains(body, `"code":503,"status":"UNAVAILABLE","message":"the task store is unavailable: try again shortly"`) {
			t.Errorf("GET %s during an outage: %d Retry-After %q %s", path, res.StatusCode, res.Header.Get("Retry-After"), body)
		}
	}
	res, body := do(http.MethodPost, rpcSrv.URL, `{"jsonrpc":"2.0","id":1,"method":"GetTask","params":{"id":"t1"}}`)
	if res.StatusCode != http.StatusOK || !strings.Contains(body, `"error":{"code":-32603,"message":"the task store is unavailable: try again shortly"`) {
		t.Errorf("JSON-RPC GetTask during an outage: %d %s", res.StatusCode, body)
	}
	// The client reads it as the error it is.
	c := a2a.NewA2AServiceClient(a2a.NewRESTTransport(restSrv.URL))
	if _, err := c.GetTask(context.Background(), &a2a.GetTaskRequest{ID: "t1"}); !isUnavailable(err) {
		t.Errorf("our REST client during an outage: %v", err)
	}
}
