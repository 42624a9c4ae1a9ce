package a2atask

import (
	"encoding/json"
	"strings"
	"testing"

	a2a "github.com/agui-gen/agui-gen/gen/a2a"
)

// TestAppendJoinsText: appended plain text continues the artifact's last
// plain text part; text with metadata, a media type or a filename of its
// own, and parts of other kinds, are parts of their own; a replacement
// replaces; parts read before a join are left as they were.
func TestAppendJoinsText(t *testing.T) {
	update := func(appendParts bool, parts ...*a2a.Part) *a2a.StreamResponse {
		return &a2a.StreamResponse{Payload: &a2a.StreamResponseArtifactUpdate{ArtifactUpdate: &a2a.TaskArtifactUpdateEvent{
			TaskID: "t", Append: appendParts, Artifact: &a2a.Artifact{ArtifactID: "a", Parts: parts}}}}
	}
	noted := text(" (noted)")
	noted.Metadata = json.RawMessage(`{"k":1}`)
	typed := text("# title")
	typed.MediaType = "text/markdown"
	data := &a2a.Part{Content: &a2a.PartData{Data: json.RawMessage(`{"x":1}`)}}
	task := &a2a.Task{ID: "t"}
	for _, step := range []struct {
		ev   *a2a.StreamResponse
		want string
	}{
		{update(false, text("It")), `{"text":"It"}`},
		{update(true, text(" is")), `{"text":"It is"}`},
		{update(true, text(" sunny"), text(".")), `{"text":"It is sunny."}`},
		{update(true, noted), `{"text":"It is sunny."},{"text":" (noted)","metadata":{"k":1}}`},
		{update(true, text(" More")), `{"text":"It is sunny."},{"text":" (noted)","metadata":{"k":1}},{"text":" More"}`},
		{update(true, data, text("!")), `{"text":"It is sunny."},{"text":" (noted)","metadata":{"k":1}},{"text":" More"},{"data":{"x":1}},{"text":"!"}`},
		{update(false, typed), `{"text":"# title","mediaType":"text/markdown"}`},
		{update(true, text(" and")), `{"text":"# title","mediaType":"text/markdown"},{"text":" and"}`},
	} {
		ApplyEvent(task, step.ev)
		var got []string
		for _, p := range task.Artifacts[0].Parts {
			got = append(got, string(p.AppendJSON(nil)))
		}
		if strings.Join(got, ",") != step.want {
			t.Fatalf("after %s: %s, want %s", step.ev.AppendJSON(nil), strings.Join(got, ","), step.want)
		}
	}
	// A reader that holds the task's parts from before a join keeps them.
	task = &a2a.Task{ID: "t"}
	ApplyEvent(task, update(false, text("a")))
	held := task.Artifacts[0].Parts
	ApplyEvent(task, update(true, text("b")))
	if held[0].Content.(*a2a.PartText).Text != "a" || task.Artifacts[0].Parts[0].Content.(*a2a.PartText).Text != "ab" {
		t.Fatalf("held %s, now %s", held[0].AppendJSON(nil), task.Artifacts[0].Parts[0].AppendJSON(nil))
	}
}
