package model_test

import (
	"context"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agui-gen/agui-gen/runtime/model"
	"github.com/agui-gen/agui-gen/runtime/model/internal/sinktest"
)

// The assembler keeps the sink's order (opening an item closes the other
// kind), gives later items ids of their own, streams signatures as
// encrypted values once their item is there, and assembles the message:
// one text part, the reasoning with its signatures and what was kept
// unstreamed, the calls with their arguments ("{}" for none).
func TestAssemblerTurn(t *testing.T) {
	rec := &sinktest.Recorder{}
	var a model.Assembler
	a.Reset(rec, "p")
	a.SetMessageID("m")
	steps := []func() error{
		func() error { return a.Reasoning("think") },
		func() error { return a.Reasoning("ing") },
		func() error { return a.Text("Hel") },
		func() error { return a.Text("lo") },
		func() error { return a.StartToolCall("c1", "f") },
		func() error { return a.ToolCallArgs("c1", `{"x":`) },
		func() error { return a.StartToolCall("c2", "g") },
		func() error { return a.ToolCallArgs("c1", `1}`) },
		func() error { return a.EndToolCall("c1") },
		func() error { return a.SignToolCall("c2", "p.call", "sig-c2") },
		func() error { a.KeepReasoning(model.Reasoning{Signature: "redacted", Type: "p.redacted"}); return nil },
		func() error { return a.Reasoning("again") },
		func() error { return a.EndReasoning("sig-2", "p.thinking") },
		func() error { return a.Text("!") },
		func() error { a.SetUsage(model.Usage{Provider: "p", InputTokens: 1}); return nil },
		func() error { a.SetUsage(model.Usage{Provider: "p", InputTokens: 3, OutputTokens: 4}); return nil },
	}
	for i, step := range steps {
		if err := step(); err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
	}
	turn, err := a.Finish(model.StopToolCalls, "tool_use")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"reasoning-start m-reasoning", `reasoning "think"`, `reasoning "ing"`, "reasoning-end",
		"text-start m", `text "Hel"`, `text "lo"`, "text-end",
		"call-start m c1 f", `call-args c1 "{\"x\":"`, "call-start m c2 g", `call-args c1 "1}"`, "call-end c1",
		`encrypted call c2 p.call "sig-c2"`,
		"reasoning-start m-reasoning-1", `reasoning "again"`, "reasoning-end", `encrypted reasoning m-reasoning-1 p.thinking "sig-2"`,
		"text-start m-text-1", `text "!"`, "text-end",
		`call-args c2 "{}"`, "call-end c2",
		"usage p  in=3 out=4 reasoning=0 cached=0",
	}
	if d := cmp.Diff(want, rec.Calls); d != "" {
		t.Errorf("sink calls (-want +got):\n%s", d)
	}
	wantTurn := model.Turn{
		Message: model.Message{Role: model.RoleAssistant,
			Content:   []model.Part{{Kind: model.PartText, Text: "Hello!"}},
			ToolCalls: []model.ToolCall{{ID: "c1", Name: "f", Arguments: `{"x":1}`}, {ID: "c2", Name: "g", Arguments: "{}"}},
			Reasoning: []model.Reasoning{{ID: "m-reasoning", Text: "thinking"}, {ID: "c2", Signature: "sig-c2", Type: "p.call"},
				{Signature: "redacted", Type: "p.redacted"}, {ID: "m-reasoning-1", Text: "again", Signature: "sig-2", Type: "p.thinking"}}},
		MessageID: "m", Stop: model.StopToolCalls, ProviderStop: "tool_use",
		Usage: model.Usage{Provider: "p", InputTokens: 3, OutputTokens: 4},
	}
	if d := cmp.Diff(wantTurn, turn); d != "" {
		t.Errorf("turn (-want +got):\n%s", d)
	}
}

// Items opened under the adapter's own ids stay open across fragments;
// arguments of a call that ended or was never started are dropped.
func TestAssemblerExplicitIDs(t *testing.T) {
	rec := &sinktest.Recorder{}
	var a model.Assembler
	a.Reset(rec, "p")
	a.SetMessageID("m")
	for _, err := range []error{
		a.StartText("m"), a.StartText("ignored, open"), a.Text("a"),
		a.StartReasoning("m-reasoning-1"), a.Reasoning("r"),
		a.StartText("m-text-2"), a.Text("b"),
		a.ToolCallArgs("nobody", "x"),
		a.StartToolCall("c", "f"), a.EndToolCall("c"), a.ToolCallArgs("c", "late"), a.EndToolCall("c"),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	if _, err := a.Finish(model.StopEnd, "stop"); err != nil {
		t.Fatal(err)
	}
	want := []string{"text-start m", `text "a"`, "text-end", "reasoning-start m-reasoning-1", `reasoning "r"`, "reasoning-end",
		"text-start m-text-2", `text "b"`, "text-end", "call-start m c f", `call-args c "{}"`, "call-end c"}
	if d := cmp.Diff(want, rec.Calls); d != "" {
		t.Errorf("sink calls (-want +got):\n%s", d)
	}
}

// A sink's error stops the turn where it happened and is returned as it is.
func TestAssemblerSinkError(t *testing.T) {
	gone := errors.New("the client went away")
	rec := &sinktest.Recorder{Fail: func(call string) error {
		if call == "text-end" {
			return gone
		}
		return nil
	}}
	var a model.Assembler
	a.Reset(rec, "p")
	a.SetMessageID("m")
	if err := a.Text("a"); err != nil {
		t.Fatal(err)
	}
	if err := a.StartToolCall("c", "f"); !errors.Is(err, gone) {
		t.Errorf("StartToolCall: %v", err)
	}
	if d := cmp.Diff([]string{"text-start m", `text "a"`, "text-end"}, rec.Calls); d != "" {
		t.Errorf("sink calls (-want +got):\n%s", d)
	}
}

func TestAssemblerIncomplete(t *testing.T) {
	var a model.Assembler
	a.Reset(&sinktest.Recorder{}, "p")
	var me *model.Error
	err := a.Incomplete("no finish_reason")
	if !errors.As(err, &me) || me.Code != "incomplete_stream" ||
		err.Error() != "p: the stream ended before the model finished its answer (no finish_reason) (incomplete_stream)" {
		t.Errorf("error %v", err)
	}
}

func TestStreamError(t *testing.T) {
	sdkErr := errors.New("sdk: connection reset")
	asProvider := func(err error) error { return &model.Error{Provider: "p", Message: "broke", Err: err} }
	if err := model.StreamError(context.Background(), sdkErr, asProvider); !errors.Is(err, sdkErr) {
		t.Errorf("a live context: %v", err)
	}
	cause := errors.New("the run was cancelled")
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(cause)
	if err := model.StreamError(ctx, sdkErr, asProvider); err != cause {
		t.Errorf("an ended context: %v, want its cause", err)
	}
}
