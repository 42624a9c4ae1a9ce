package a2atask

import (
	"context"
	"fmt"
	"strings"
	"testing"

	a2a "github.com/agui-gen/agui-gen/gen/a2a"
)

// TestAddArtifactOptions: ArtifactOptions go on the wire as the update's
// append and lastChunk, chunks under one ID make one artifact, and an
// artifact without Append replaces the one of its ID.
func TestAddArtifactOptions(t *testing.T) {
	client, _ := serve(t, ExecutorFunc(func(ctx context.Context, run *Run) error {
		steps := []struct {
			id, text string
			o        ArtifactOptions
		}{
			{"forecast", "It is ", ArtifactOptions{}},
			{"forecast", "sunny ", ArtifactOptions{Append: true}},
			{"forecast", "in Paris.", ArtifactOptions{Append: true, LastChunk: true}},
			{"draft", "first", ArtifactOptions{LastChunk: true}},
			{"draft", "second", ArtifactOptions{LastChunk: true}},
		}
		for _, s := range steps {
			if err := run.AddArtifact(&a2a.Artifact{ArtifactID: s.id, Parts: []*a2a.Part{text(s.text)}}, s.o); err != nil {
				return err
			}
		}
		return nil
	}))
	var updates []string
	var task *a2a.Task
	for ev, err := range client("").SendStreamingMessage(context.Background(), &a2a.SendMessageRequest{Message: userMessage("weather")}) {
		if err != nil {
			t.Fatal(err)
		}
		switch p := ev.Payload.(type) {
		case *a2a.StreamResponseArtifactUpdate:
			u := p.ArtifactUpdate
			updates = append(updates, fmt.Sprintf("%s append=%t last=%t", u.Artifact.ArtifactID, u.Append, u.LastChunk))
		case *a2a.StreamResponseTask:
			task = p.Task
		}
	}
	want := "forecast append=false last=false, forecast append=true last=false, forecast append=true last=true, " +
		"draft append=false last=true, draft append=false last=true"
	if got := strings.Join(updates, ", "); got != want {
		t.Fatalf("updates:\n%s\nwant:\n%s", got, want)
	}
	got, err := client("").GetTask(context.Background(), &a2a.GetTaskRequest{ID: task.ID})
	if err != nil {
		t.Fatal(err)
	}
	var arts []string
	for _, a := range got.Artifacts {
		var parts []string
		for _, p := range a.Parts {
			parts = append(parts, p.Content.(*a2a.PartText).Text)
		}
		arts = append(arts, a.ArtifactID+"="+strings.Join(parts, "|"))
	}
	// The appended text continues the artifact's text part: one part.
	if strings.Join(arts, " ") != "forecast=It is sunny in Paris. draft=second" {
		t.Errorf("artifacts: %v", arts)
	}
}
