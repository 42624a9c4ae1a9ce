package model_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/agui-gen/agui-gen/runtime/model"
)

// scripted answers each call with the next of its turns, and keeps the
// requests it was sent.
type scripted struct {
	turns []model.Turn
	seen  []model.Request
}

func (m *scripted) Stream(_ context.Context, req *model.Request, sink model.Sink) (model.Turn, error) {
	r := *req
	r.Messages = append([]model.Message(nil), req.Messages...)
	m.seen = append(m.seen, r)
	if len(m.turns) == 0 {
		return model.Turn{}, errors.New("scripted: no turn left")
	}
	t := m.turns[0]
	m.turns = m.turns[1:]
	for _, c := range t.Message.ToolCalls {
		if err := sink.StartToolCall("m", c.ID, c.Name); err != nil {
			return t, err
		}
		if err := sink.EndToolCall(c.ID); err != nil {
			return t, err
		}
	}
	return t, nil
}

type results struct {
	nopSink
	got []string
}

func (r *results) ToolResult(id, content string) error {
	r.got = append(r.got, id+"="+content)
	return nil
}

type nopSink struct{}

func (nopSink) StartText(string) error                     { return nil }
func (nopSink) Text(string) error                          { return nil }
func (nopSink) EndText() error                             { return nil }
func (nopSink) StartReasoning(string) error                { return nil }
func (nopSink) Reasoning(string) error                     { return nil }
func (nopSink) EndReasoning() error                        { return nil }
func (nopSink) StartToolCall(string, string, string) error { return nil }
func (nopSink) ToolCallArgs(string, string) error          { return nil }
func (nopSink) EndToolCall(string) error                   { return nil }
func (nopSink) ToolResult(string, string) error            { return nil }
func (nopSink) EncryptedValue(model.EncryptedValue) error  { return nil }
func (nopSink) Usage(model.Usage) error                    { return nil }

func calls(cs ...model.ToolCall) model.Turn {
	return model.Turn{Stop: model.StopToolCalls, Message: model.Message{Role: model.RoleAssistant, ToolCalls: cs}}
}

var answer = model.Turn{Stop: model.StopEnd, Message: model.Text(model.RoleAssistant, "done")}

var add = model.Func{Tool: model.Tool{Name: "add", Parameters: json.RawMessage(`{"type":"object"}`)},
	Call: func(_ context.Context, args json.RawMessage) (string, error) {
		var a struct{ X, Y int }
		if err := json.Unmarshal(args, &a); err != nil {
			return "", err
		}
		if a.X < 0 {
			return "", errors.New("negative")
		}
		return strings.Repeat("I", a.X+a.Y), nil
	}}

func TestLoopRunsServerToolsUntilTheModelAnswers(t *testing.T) {
	m := &scripted{turns: []model.Turn{
		calls(model.ToolCall{ID: "c1", Name: "add", Arguments: `{"X":1,"Y":2}`}, model.ToolCall{ID: "c2", Name: "add", Arguments: `{"X":-1}`}),
		calls(model.ToolCall{ID: "c3", Name: "nope"}, model.ToolCall{ID: "c4", Name: "add", Arguments: `{"X":`}),
		answer,
	}}
	loop, err := model.NewLoop(m, model.WithSystem("sys"), model.WithTools(add))
	if err != nil {
		t.Fatal(err)
	}
	sink := &results{}
	req := &model.Request{System: "ctx", Messages: []model.Message{model.Text(model.RoleUser, "hi")}}
	out, err := loop.Run(context.Background(), req, sink)
	if err != nil || out.Steps != 3 || out.Stop != model.StopEnd || len(out.Pending) != 0 {
		t.Fatalf("%+v %v", out, err)
	}
	want := []string{"c1=III", "c2=error: negative",
		`c3=error: there is no tool named "nope"; the tools are add`,
		"c4=error: the arguments are not valid JSON; call the tool again with a JSON object"}
	if strings.Join(sink.got, "\n") != strings.Join(want, "\n") {
		t.Errorf("results:\n%s", strings.Join(sink.got, "\n"))
	}
	last := m.seen[2]
	if last.System != "sys\n\nctx" || len(last.Tools) != 1 || len(last.Messages) != 7 {
		t.Fatalf("third request %+v", last)
	}
	if r := last.Messages[2]; r.Role != model.RoleTool || r.ToolCallID != "c1" || r.TextOf() != "III" {
		t.Errorf("tool result message %+v", r)
	}
	if len(req.Messages) != 1 {
		t.Errorf("the caller's request was changed: %d messages", len(req.Messages))
	}
}

func TestLoopEndsAtAFrontEndTool(t *testing.T) {
	m := &scripted{turns: []model.Turn{calls(model.ToolCall{ID: "c1", Name: "add", Arguments: `{"X":1}`},
		model.ToolCall{ID: "c2", Name: "confirm", Arguments: `{}`})}}
	loop, _ := model.NewLoop(m, model.WithTools(add))
	sink := &results{}
	out, err := loop.Run(context.Background(), &model.Request{Tools: []model.Tool{{Name: "confirm"}}}, sink)
	if err != nil || out.Steps != 1 || len(out.Pending) != 1 || out.Pending[0].ID != "c2" {
		t.Fatalf("%+v %v", out, err)
	}
	if strings.Join(sink.got, ",") != "c1=I" {
		t.Errorf("results %v", sink.got)
	}
	if names := []string{m.seen[0].Tools[0].Name, m.seen[0].Tools[1].Name}; names[0] != "add" || names[1] != "confirm" {
		t.Errorf("tools offered %v", names)
	}
}

func TestLoopStepLimit(t *testing.T) {
	c := calls(model.ToolCall{ID: "c", Name: "add", Arguments: `{}`})
	loop, _ := model.NewLoop(&scripted{turns: []model.Turn{c, c, c}}, model.WithTools(add), model.WithMaxSteps(2))
	out, err := loop.Run(context.Background(), &model.Request{}, nopSink{})
	if !errors.Is(err, model.ErrMaxSteps) || out.Steps != 2 {
		t.Fatalf("%+v %v", out, err)
	}
}

func TestLoopRefusesBadConfiguration(t *testing.T) {
	for _, tc := range []struct {
		opts []model.Option
		want string
	}{
		{[]model.Option{model.WithTools(add, add)}, `two server-side tools are named "add"`},
		{[]model.Option{model.WithTools(model.Func{Tool: model.Tool{Name: "x"}})}, `tool "x" has no Call function`},
		{[]model.Option{model.WithMaxSteps(0)}, "at least 1"},
	} {
		if _, err := model.NewLoop(&scripted{}, tc.opts...); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("error %v, want %q", err, tc.want)
		}
	}
	loop, _ := model.NewLoop(&scripted{}, model.WithTools(add))
	_, err := loop.Run(context.Background(), &model.Request{Tools: []model.Tool{{Name: "add"}}}, nopSink{})
	if err == nil || !strings.Contains(err.Error(), `the front end offers a tool named "add", and so does the server`) {
		t.Errorf("error %v", err)
	}
}
