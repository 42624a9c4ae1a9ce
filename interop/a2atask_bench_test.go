package interop_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/agui-gen/agui-gen/gen/a2a"
	"github.com/agui-gen/agui-gen/gen/a2a/a2atask"
	"github.com/agui-gen/agui-gen/gen/a2a/a2atask/pgstore"
	"github.com/agui-gen/agui-gen/gen/a2a/a2atask/sqlitestore"
)

// benchStores opens each store for a benchmark.
func benchStores(b *testing.B) map[string]a2atask.Store {
	ctx := context.Background()
	stores := map[string]a2atask.Store{"memory": a2atask.NewMemory()}
	sq, err := sqlitestore.Open(ctx, filepath.Join(b.TempDir(), "bench.db"))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { sq.Close() })
	stores["sqlite"] = sq
	if dsn := benchPostgres(b); dsn != "" {
		pg, err := pgstore.Open(ctx, dsn)
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { pg.Close() })
		stores["postgres"] = pg
	}
	return stores
}

// BenchmarkA2ATaskStream measures events per second through one
// subscribed stream over HTTP+JSON: an executor writes artifacts as fast as
// its store takes them, and a subscriber reads them as SSE. One op is one
// event.
//
//	go test ./interop -run XXX -bench A2ATaskStream -benchtime 2000x -count 5
func BenchmarkA2ATaskStream(b *testing.B) {
	for _, name := range []string{"memory", "sqlite", "postgres"} {
		b.Run("store="+name, func(b *testing.B) {
			store, ok := benchStores(b)[name]
			if !ok {
				b.Skip("no " + name)
			}
			n := b.N
			rt := a2atask.New(a2atask.ExecutorFunc(func(ctx context.Context, run *a2atask.Run) error {
				for i := range n {
					if err := run.Artifact(&a2a.Artifact{ArtifactID: "a" + strconv.Itoa(i), Parts: run.Message.Parts}, false, i == n-1); err != nil {
						return err
					}
				}
				return nil
			}), store)
			defer rt.Close()
			h, err := a2a.NewRESTHandler(a2a.BindA2AService(rt))
			if err != nil {
				b.Fatal(err)
			}
			srv := httptest.NewServer(h)
			defer srv.Close()
			c := a2a.NewA2AServiceClient(a2a.NewRESTTransport(srv.URL))
			b.ResetTimer()
			start := time.Now()
			artifacts := 0
			for ev, err := range c.SendStreamingMessage(context.Background(), &a2a.SendMessageRequest{Message: &a2a.Message{
				MessageID: "m", Role: a2a.RoleUser, Parts: []*a2a.Part{{Content: &a2a.PartText{Text: "an artifact of a few words"}}}}}) {
				if err != nil {
					b.Fatal(err)
				}
				if _, ok := ev.Payload.(*a2a.StreamResponseArtifactUpdate); ok {
					artifacts++
				}
			}
			b.StopTimer()
			if artifacts != n {
				b.Fatalf("%d artifacts of %d", artifacts, n)
			}
			b.ReportMetric(float64(n)/time.Since(start).Seconds(), "events/s")
		})
	}
}

// BenchmarkA2ATaskList measures one ListTasks page of 100 among 10,000
// tasks of one owner, the newest first, with the task runtime on each
// store.
func BenchmarkA2ATaskList(b *testing.B) {
	const tasks = 10000
	for _, name := range []string{"memory", "sqlite", "postgres"} {
		b.Run("store="+name, func(b *testing.B) {
			store, ok := benchStores(b)[name]
			if !ok {
				b.Skip("no " + name)
			}
			ctx := context.Background()
			base := time.Date(2026, 11, 24, 0, 0, 0, 0, time.UTC)
			for i := range tasks {
				at := base.Add(time.Duration(i) * time.Second)
				t := &a2a.Task{ID: fmt.Sprintf("task-%05d", i), ContextID: "c", Status: &a2a.TaskStatus{State: a2a.TaskStateCompleted, Timestamp: &at},
					History: []*a2a.Message{{MessageID: "m", Role: a2a.RoleUser, Parts: []*a2a.Part{{Content: &a2a.PartText{Text: "hello"}}}}}}
				if err := store.Create(ctx, "", t, &a2a.StreamResponse{Payload: &a2a.StreamResponseTask{Task: t}}); err != nil {
					b.Fatal(err)
				}
			}
			rt := a2atask.New(a2atask.ExecutorFunc(func(context.Context, *a2atask.Run) error { return nil }), store)
			defer rt.Close()
			size := int32(100)
			b.ResetTimer()
			for b.Loop() {
				resp, err := rt.ListTasks(ctx, &a2a.ListTasksRequest{PageSize: &size})
				if err != nil || len(resp.Tasks) != 100 || resp.TotalSize != tasks {
					b.Fatalf("%v", err)
				}
			}
		})
	}
}
