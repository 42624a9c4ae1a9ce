// Package sinktest holds the model.Sink implementations the adapters' tests
// and benchmarks share: one that writes each call down, one that drops
// them.
package sinktest

import (
	"fmt"

	"github.com/agui-gen/agui-gen/runtime/model"
)

// Recorder writes down each call it gets, as a line ("text-start ID",
// `text "delta"`, "call-args ID …"), for a test to compare with the calls
// it expects.
type Recorder struct {
	Calls []string
	// Fail, when set, gives each call's error: a sink whose client went
	// away.
	Fail func(call string) error
}

func (r *Recorder) add(format string, args ...any) error {
	c := fmt.Sprintf(format, args...)
	r.Calls = append(r.Calls, c)
	if r.Fail != nil {
		return r.Fail(c)
	}
	return nil
}

func (r *Recorder) StartText(id string) error      { return r.add("text-start %s", id) }
func (r *Recorder) Text(d string) error            { return r.add("text %q", d) }
func (r *Recorder) EndText() error                 { return r.add("text-end") }
func (r *Recorder) StartReasoning(id string) error { return r.add("reasoning-start %s", id) }
func (r *Recorder) Reasoning(d string) error       { return r.add("reasoning %q", d) }
func (r *Recorder) EndReasoning() error            { return r.add("reasoning-end") }
func (r *Recorder) StartToolCall(mid, id, name string) error {
	return r.add("call-start %s %s %s", mid, id, name)
}
func (r *Recorder) ToolCallArgs(id, d string) error { return r.add("call-args %s %q", id, d) }
func (r *Recorder) EndToolCall(id string) error     { return r.add("call-end %s", id) }
func (r *Recorder) ToolResult(id, c string) error   { return r.add("result %s %q", id, c) }
func (r *Recorder) EncryptedValue(v model.EncryptedValue) error {
	on := "reasoning"
	if v.ToolCall {
		on = "call"
	}
	return r.add("encrypted %s %s %s %q", on, v.EntityID, v.Type, v.Value)
}
func (r *Recorder) Usage(u model.Usage) error {
	return r.add("usage %s %s in=%d out=%d reasoning=%d cached=%d", u.Provider, u.Model, u.InputTokens, u.OutputTokens,
		u.ReasoningTokens, u.CachedInputTokens)
}

// Discard drops every call, for benchmarks of an adapter's own work.
type Discard struct{}

func (Discard) StartText(string) error                     { return nil }
func (Discard) Text(string) error                          { return nil }
func (Discard) EndText() error                             { return nil }
func (Discard) StartReasoning(string) error                { return nil }
func (Discard) Reasoning(string) error                     { return nil }
func (Discard) EndReasoning() error                        { return nil }
func (Discard) StartToolCall(string, string, string) error { return nil }
func (Discard) ToolCallArgs(string, string) error          { return nil }
func (Discard) EndToolCall(string) error                   { return nil }
func (Discard) ToolResult(string, string) error            { return nil }
func (Discard) EncryptedValue(model.EncryptedValue) error  { return nil }
func (Discard) Usage(model.Usage) error                    { return nil }

var (
	_ model.Sink = (*Recorder)(nil)
	_ model.Sink = Discard{}
)
