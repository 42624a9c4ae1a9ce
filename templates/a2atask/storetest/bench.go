package storetest

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/agui-gen/agui-gen/gen/a2a"
	"github.com/agui-gen/agui-gen/gen/a2a/a2atask"
)

// Bench measures a store's operations on their own, without the task
// runtime or a transport in the way: what a change to a store costs or
// saves. open returns an empty store.
func Bench(b *testing.B, open func(b *testing.B) a2atask.Store) {
	ctx := context.Background()
	base := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	artifact := func(i int) *a2a.StreamResponse {
		return &a2a.StreamResponse{Payload: &a2a.StreamResponseArtifactUpdate{ArtifactUpdate: &a2a.TaskArtifactUpdateEvent{
			TaskID: "t", ContextID: "c", Append: i > 0, Artifact: &a2a.Artifact{ArtifactID: "a", Parts: []*a2a.Part{{Content: &a2a.PartText{Text: "a few words "}}}}}}}
	}
	b.Run("op=create", func(b *testing.B) {
		s := open(b)
		i := 0
		for b.Loop() {
			tk := task("t"+strconv.Itoa(i), "c", a2a.TaskStateSubmitted, base)
			if err := s.Create(ctx, "o", tk, &a2a.StreamResponse{Payload: &a2a.StreamResponseTask{Task: tk}}); err != nil {
				b.Fatal(err)
			}
			i++
		}
	})
	// One task's artifact, streamed: the writes of a run's executor.
	b.Run("op=append", func(b *testing.B) {
		s := open(b)
		tk := task("t", "c", a2a.TaskStateWorking, base)
		if err := s.Create(ctx, "o", tk, &a2a.StreamResponse{Payload: &a2a.StreamResponseTask{Task: tk}}); err != nil {
			b.Fatal(err)
		}
		gen, i := int64(1), 0
		for b.Loop() {
			var err error
			if gen, err = s.(a2atask.Appender).Append(ctx, "t", gen, artifact(i), nil); err != nil {
				b.Fatal(err)
			}
			i++
		}
	})
	// A task read back: its snapshot and the events after it.
	b.Run("op=get", func(b *testing.B) {
		s := open(b)
		tk := task("t", "c", a2a.TaskStateWorking, base)
		if err := s.Create(ctx, "o", tk, &a2a.StreamResponse{Payload: &a2a.StreamResponseTask{Task: tk}}); err != nil {
			b.Fatal(err)
		}
		gen := int64(1)
		for i := range 100 {
			var err error
			if gen, err = s.(a2atask.Appender).Append(ctx, "t", gen, artifact(i), nil); err != nil {
				b.Fatal(err)
			}
		}
		for b.Loop() {
			if rec, err := s.Get(ctx, "t"); err != nil || rec.Generation != gen {
				b.Fatal(err)
			}
		}
	})
	b.Run("op=list", func(b *testing.B) {
		s := open(b)
		for i := range 200 {
			tk := task("t"+strconv.Itoa(i), "c", a2a.TaskStateCompleted, base.Add(time.Duration(i)*time.Second))
			if err := s.Create(ctx, "o", tk, &a2a.StreamResponse{Payload: &a2a.StreamResponseTask{Task: tk}}); err != nil {
				b.Fatal(err)
			}
		}
		for b.Loop() {
			if page, total, err := s.List(ctx, a2atask.Query{Owner: "o", Limit: 20}); err != nil || len(page) != 20 || total != 200 {
				b.Fatal(err)
			}
		}
	})
}
