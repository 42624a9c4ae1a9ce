package a2atask

// This file is what agui-gen emits as generation_gen.go for the embedded
// proto (a2a.proto v1.0.1, which has no generation fields), so that this
// template package compiles; the generator writes its own for each proto
// (generator/emit/golang/proto_generation.go), and a test keeps the two
// the same.

import "github.com/agui-gen/agui-gen/gen/a2a"

// stampTask writes the task's generation where the proto has a field for it.
func stampTask(*a2a.Task, int64) {}

// stampEvent writes, into an event of a task's stream, the generation the task had once the
// event was applied, where the proto has a field for it.
func stampEvent(*a2a.StreamResponse, int64) {}

// generationMatch returns the generation a message requires its task to be at, when it requires one.
func generationMatch(*a2a.SendMessageConfiguration) (int64, bool) {
	return 0, false
}

// awaitedGeneration returns the generation a GetTask waits for its task to pass, when it waits.
func awaitedGeneration(*a2a.GetTaskRequest) (int64, bool) {
	return 0, false
}
