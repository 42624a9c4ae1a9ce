package model

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// Func is a server-side tool: a Go function the loop runs when the model
// calls it, with the JSON arguments the model wrote. What it returns is the
// tool's result, for the model to read. An error is given to the model as
// the result ("error: …"), so it can try otherwise; it does not end the
// run, unless the run's context has ended.
type Func struct {
	Tool
	Call func(ctx context.Context, args json.RawMessage) (string, error)
}

// DefaultMaxSteps bounds the model calls of one run unless WithMaxSteps
// says otherwise.
const DefaultMaxSteps = 10

// Loop runs a model with tools: model → server-side tools → model, until
// the model answers without calling a server-side tool, calls a front-end
// tool, or has been called MaxSteps times. It is safe for concurrent use
// by several runs.
type Loop struct {
	model    Model
	system   string
	funcs    map[string]*Func
	tools    []Tool // the server-side tools, in the order given
	maxSteps int
	onTurn   func(context.Context, Turn)
}

// Option configures a Loop.
type Option func(*Loop) error

// WithSystem sets the system prompt, placed before any the request brings.
func WithSystem(prompt string) Option {
	return func(l *Loop) error { l.system = prompt; return nil }
}

// WithTools adds server-side tools. Their names must be unique and not
// empty, and each needs its Call.
func WithTools(funcs ...Func) Option {
	return func(l *Loop) error {
		for i := range funcs {
			f := &funcs[i]
			switch {
			case f.Name == "":
				return fmt.Errorf("model: server-side tool %d has no name", i)
			case f.Call == nil:
				return fmt.Errorf("model: server-side tool %q has no Call function", f.Name)
			case l.funcs[f.Name] != nil:
				return fmt.Errorf("model: two server-side tools are named %q", f.Name)
			case f.Parameters != nil && !json.Valid(f.Parameters):
				return fmt.Errorf("model: the parameters schema of server-side tool %q is not valid JSON", f.Name)
			}
			l.funcs[f.Name] = f
			l.tools = append(l.tools, f.Tool)
		}
		return nil
	}
}

// WithMaxSteps bounds the model calls of one run (DefaultMaxSteps
// otherwise): a model that still calls server-side tools at the last step
// ends the run with ErrMaxSteps.
func WithMaxSteps(n int) Option {
	return func(l *Loop) error {
		if n < 1 {
			return fmt.Errorf("model: the step limit must be at least 1, not %d", n)
		}
		l.maxSteps = n
		return nil
	}
}

// WithTurnObserver calls f after each model turn, with its stop reason and
// usage (for metering, logs or a stop reason the protocol cannot carry).
func WithTurnObserver(f func(context.Context, Turn)) Option {
	return func(l *Loop) error { l.onTurn = f; return nil }
}

// NewLoop returns a loop on m.
func NewLoop(m Model, opts ...Option) (*Loop, error) {
	if m == nil {
		return nil, errors.New("model: NewLoop needs a Model (an adapter such as openai.New)")
	}
	l := &Loop{model: m, funcs: map[string]*Func{}, maxSteps: DefaultMaxSteps}
	for _, opt := range opts {
		if err := opt(l); err != nil {
			return nil, err
		}
	}
	return l, nil
}

// ErrMaxSteps ends a run whose model still called server-side tools at the
// loop's last step.
var ErrMaxSteps = errors.New("model: the model was still calling tools at the step limit; raise it with model.WithMaxSteps if the task needs more steps")

// Outcome is how a run of the loop ended.
type Outcome struct {
	// Steps is how many times the model was called.
	Steps int
	// Stop is the last turn's stop reason.
	Stop StopReason
	// Pending are the calls of front-end tools the model made in its last
	// turn: they went out through the sink and the run ends, for the front
	// end to run them and send their results in the next run.
	Pending []ToolCall
}

// Run runs the loop on req, whose Tools are the front end's: the model is
// offered those and the loop's own, and a call of one of the front end's
// ends the run (Outcome.Pending). req is not modified.
func (l *Loop) Run(ctx context.Context, req *Request, sink Sink) (Outcome, error) {
	var out Outcome
	r := Request{System: l.system, Messages: req.Messages, Tools: make([]Tool, 0, len(l.tools)+len(req.Tools))}
	if req.System != "" {
		if r.System != "" {
			r.System += "\n\n"
		}
		r.System += req.System
	}
	r.Tools = append(r.Tools, l.tools...)
	frontend := make(map[string]bool, len(req.Tools))
	for _, t := range req.Tools {
		if l.funcs[t.Name] != nil {
			return out, fmt.Errorf("model: the front end offers a tool named %q, and so does the server; rename one of them", t.Name)
		}
		frontend[t.Name] = true
		r.Tools = append(r.Tools, t)
	}
	// The conversation grows within the run; copy it once so the caller's
	// slice is never written through.
	r.Messages = append(make([]Message, 0, len(req.Messages)+4), req.Messages...)
	for out.Steps < l.maxSteps {
		out.Steps++
		turn, err := l.model.Stream(ctx, &r, sink)
		if err != nil {
			return out, err
		}
		out.Stop = turn.Stop
		if l.onTurn != nil {
			l.onTurn(ctx, turn)
		}
		calls := turn.Message.ToolCalls
		if len(calls) == 0 {
			return out, nil
		}
		r.Messages = append(r.Messages, turn.Message)
		ranServer := false
		for _, c := range calls {
			if frontend[c.Name] {
				out.Pending = append(out.Pending, c)
				continue
			}
			result, err := l.call(ctx, c)
			if err != nil {
				return out, err
			}
			if err := sink.ToolResult(c.ID, result); err != nil {
				return out, err
			}
			r.Messages = append(r.Messages, Message{Role: RoleTool, ToolCallID: c.ID,
				Content: []Part{{Kind: PartText, Text: result}}})
			ranServer = true
		}
		if len(out.Pending) > 0 || !ranServer {
			return out, nil
		}
	}
	return out, ErrMaxSteps
}

// call runs one server-side tool call and returns its result for the
// model; the error is the run's context's, which ends the run.
func (l *Loop) call(ctx context.Context, c ToolCall) (string, error) {
	f := l.funcs[c.Name]
	if f == nil {
		if len(l.tools) == 0 {
			return fmt.Sprintf("error: there is no tool named %q here; answer without it", c.Name), nil
		}
		return fmt.Sprintf("error: there is no tool named %q; the tools are %s", c.Name, l.toolNames()), nil
	}
	args := json.RawMessage(c.Arguments)
	if strings.TrimSpace(c.Arguments) == "" {
		args = json.RawMessage("{}")
	}
	if !json.Valid(args) {
		return "error: the arguments are not valid JSON; call the tool again with a JSON object", nil
	}
	result, err := f.Call(ctx, args)
	if ctx.Err() != nil {
		return "", context.Cause(ctx)
	}
	if err != nil {
		return "error: " + err.Error(), nil
	}
	return result, nil
}

func (l *Loop) toolNames() string {
	names := make([]string, len(l.tools))
	for i, t := range l.tools {
		names[i] = t.Name
	}
	return strings.Join(names, ", ")
}
