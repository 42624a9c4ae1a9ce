package bridge

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"maps"
	"slices"
	"strings"

	a2a "github.com/agui-gen/agui-gen/gen/a2a"
	"github.com/agui-gen/agui-gen/gen/a2a/a2atask"
	agui "github.com/agui-gen/agui-gen/gen/agui"
)

// StateArtifactID is the artifact an Executor keeps the AG-UI agent's
// shared state in, as a data part: what the agent's state events left it
// at, and what its next run on the task starts from.
const StateArtifactID = "agui-state"

// Executor runs an AG-UI agent as an A2A executor on the task runtime. Each
// message a task receives is one AG-UI run on the thread named by the
// task's context, with the task's history as the conversation:
//
//   - assistant text streams as an artifact per text message (appended
//     chunk by chunk, the last chunk marked);
//   - reasoning, tool calls and tool results are WORKING status messages,
//     with Hector's hints (reasoning as a thinking part, calls and results
//     as data parts in the tool-call convention);
//   - shared state ends up in the StateArtifactID artifact;
//   - an interrupt outcome stops the task for input, its message carrying
//     the interrupts' text and, in a data part, the interrupts; the
//     client's answer becomes the next run's resume;
//   - RUN_ERROR, or a run the agent reports cancelled, fails the task.
type Executor struct {
	Agent agui.Agent
	// Options configure the AG-UI side (WithLogger).
	Options []agui.Option
}

// Execute runs the agent for run's message.
func (e *Executor) Execute(ctx context.Context, run *a2atask.Run) error {
	task := run.Task()
	input := &agui.RunAgentInput{ThreadID: task.ContextID, RunID: agui.NewID("run"), State: stateOf(task)}
	input.Messages = conversation(task.History, run.Message)
	open := openInterrupts(task.History, run.Message)
	if len(open) > 0 {
		input.Resume = resumeEntries(open, run.Message)
	}
	out := &sink{run: run, conv: agui.NewConversation(nil, bytes.Clone(input.State)), state: input.State}
	err := agui.Invoke(ctx, e.Agent, input, out.event, e.Options...)
	var re *agui.RunError
	switch {
	case errors.Is(err, a2atask.ErrCanceled) || ctx.Err() != nil:
		return err
	case err != nil && !errors.As(err, &re) && out.failure == "":
		return err // a write to the task failed: the runtime settles it
	}
	return out.settle()
}

// sink turns the events of a run into changes of the task.
type sink struct {
	run  *a2atask.Run
	conv *agui.Conversation
	// state is the shared state the run started from.
	state json.RawMessage

	// pending holds each open text message's latest delta, sent when the
	// next one comes or, marked as the last chunk, when the message ends.
	pending map[string]*textArtifact
	// calls are the tool calls being streamed, by id.
	calls     map[string]*ToolCall
	reasoning map[string]*strings.Builder

	interrupts []agui.Interrupt
	failure    string
}

type textArtifact struct {
	delta   string
	started bool
}

func (o *sink) event(ev agui.Event) error {
	if err := o.conv.Apply(ev); err != nil {
		return err
	}
	switch ev := ev.(type) {
	case *agui.TextMessageStartEvent:
		o.open(ev.MessageID)
	case *agui.TextMessageContentEvent:
		return o.text(ev.MessageID, ev.Delta)
	case *agui.TextMessageChunkEvent:
		if ev.MessageID != nil && ev.Delta != nil {
			o.open(*ev.MessageID)
			return o.text(*ev.MessageID, *ev.Delta)
		}
	case *agui.TextMessageEndEvent:
		return o.endText(ev.MessageID)
	case *agui.ReasoningMessageContentEvent:
		if o.reasoning == nil {
			o.reasoning = map[string]*strings.Builder{}
		}
		b, ok := o.reasoning[ev.MessageID]
		if !ok {
			b = new(strings.Builder)
			o.reasoning[ev.MessageID] = b
		}
		b.WriteString(ev.Delta)
	case *agui.ReasoningMessageEndEvent:
		if b := o.reasoning[ev.MessageID]; b != nil && b.Len() > 0 {
			delete(o.reasoning, ev.MessageID)
			return o.run.Working(o.run.AgentMessage(ThinkingPart(b.String(), ev.MessageID, 0)))
		}
	case *agui.ToolCallStartEvent:
		if o.calls == nil {
			o.calls = map[string]*ToolCall{}
		}
		o.calls[ev.ToolCallID] = &ToolCall{ID: ev.ToolCallID, Name: ev.ToolCallName}
	case *agui.ToolCallArgsEvent:
		if c := o.calls[ev.ToolCallID]; c != nil {
			c.Arguments += ev.Delta
		}
	case *agui.ToolCallEndEvent:
		if c := o.calls[ev.ToolCallID]; c != nil {
			delete(o.calls, ev.ToolCallID)
			return o.run.Working(o.run.AgentMessage(ToolCallPart(*c)))
		}
	case *agui.ToolCallResultEvent:
		return o.run.Working(o.run.AgentMessage(ToolResultPart(ToolResult{ToolCallID: ev.ToolCallID, Content: contentText(ev.Content)})))
	case *agui.RunFinishedEvent:
		switch outcome := ev.Outcome.(type) {
		case *agui.RunFinishedInterruptOutcome:
			o.interrupts = outcome.Interrupts
		case *agui.RunFinishedCancelledOutcome:
			o.failure = "the agent cancelled the run"
		}
	case *agui.RunErrorEvent:
		o.failure = ev.Message
	}
	return nil
}

func (o *sink) open(id string) {
	if o.pending == nil {
		o.pending = map[string]*textArtifact{}
	}
	if o.pending[id] == nil {
		o.pending[id] = &textArtifact{}
	}
}

// text sends the message's previous delta and holds this one back, so
// that the message's end can mark its last chunk.
func (o *sink) text(id, delta string) error {
	a := o.pending[id]
	if a == nil {
		return nil
	}
	if a.delta != "" {
		if err := o.sendText(id, a, false); err != nil {
			return err
		}
	}
	a.delta = delta
	return nil
}

func (o *sink) endText(id string) error {
	a := o.pending[id]
	delete(o.pending, id)
	if a == nil || a.delta == "" {
		return nil
	}
	return o.sendText(id, a, true)
}

func (o *sink) sendText(id string, a *textArtifact, last bool) error {
	art := &a2a.Artifact{ArtifactID: id, Parts: []*a2a.Part{{Content: &a2a.PartText{Text: a.delta}}}}
	if !a.started {
		art.Name = "response"
	}
	err := o.run.Artifact(art, a.started, last)
	a.started, a.delta = true, ""
	return err
}

// settle ends the task as the run ended.
func (o *sink) settle() error {
	for _, id := range slices.Sorted(maps.Keys(o.pending)) { // a chunk stream closes with the run
		if err := o.endText(id); err != nil {
			return err
		}
	}
	if o.conv.State != nil && !bytes.Equal(o.conv.State, o.state) {
		art := &a2a.Artifact{ArtifactID: StateArtifactID, Name: "state",
			Parts: []*a2a.Part{{Content: &a2a.PartData{Data: o.conv.State}, MediaType: "application/json"}}}
		if err := o.run.Artifact(art, false, true); err != nil {
			return err
		}
	}
	switch {
	case o.failure != "":
		return o.run.Fail(o.run.AgentMessage(&a2a.Part{Content: &a2a.PartText{Text: o.failure}}))
	case len(o.interrupts) > 0:
		return o.run.RequireInput(interruptMessage(o.run, o.interrupts))
	}
	return o.run.Complete(nil)
}

// interruptMessage asks the client what the interrupts ask: their
// messages as text, for any A2A client, and the interrupts themselves as
// data, for the bridge.
func interruptMessage(run *a2atask.Run, interrupts []agui.Interrupt) *a2a.Message {
	var text []string
	for _, in := range interrupts {
		if in.Message != nil {
			text = append(text, *in.Message)
		}
	}
	data, _ := json.Marshal(map[string]any{"type": dataInterrupts, "interrupts": interrupts})
	parts := []*a2a.Part{{Content: &a2a.PartData{Data: data}, MediaType: "application/json"}}
	if len(text) > 0 {
		parts = append([]*a2a.Part{{Content: &a2a.PartText{Text: strings.Join(text, "\n")}}}, parts...)
	}
	return run.AgentMessage(parts...)
}

// stateOf is the state the task's last run left, if any.
func stateOf(task *a2a.Task) json.RawMessage {
	for _, art := range task.Artifacts {
		if art.ArtifactID == StateArtifactID && len(art.Parts) > 0 {
			if d, ok := art.Parts[0].Content.(*a2a.PartData); ok {
				return d.Data
			}
		}
	}
	return nil
}

// conversation is the task's history as AG-UI messages, ending with the
// message being answered.
func conversation(history []*a2a.Message, current *a2a.Message) []agui.Message {
	if n := len(history); n == 0 || history[n-1].MessageID != current.MessageID {
		history = append(slices.Clip(history), current)
	}
	msgs := []agui.Message{}
	for _, m := range history {
		msgs = append(msgs, messagesOf(m)...)
	}
	return msgs
}

// messagesOf turns one A2A message into AG-UI messages: a user message,
// or an assistant message with its tool calls, followed by a tool message
// per result.
func messagesOf(m *a2a.Message) []agui.Message {
	var text strings.Builder
	var calls []agui.ToolCall
	var results []agui.Message
	for _, p := range m.Parts {
		if call, ok := ToolCallOf(p); ok {
			calls = append(calls, agui.ToolCall{ID: call.ID, Function: agui.FunctionCall{Name: call.Name, Arguments: call.Arguments}})
			continue
		}
		if r, ok := ToolResultOf(p); ok {
			results = append(results, &agui.ToolMessage{ID: agui.NewID("msg"), ToolCallID: r.ToolCallID, Content: agui.TextContent(r.Content)})
			continue
		}
		if t, ok := p.Content.(*a2a.PartText); ok && !IsThinking(p) {
			text.WriteString(t.Text)
		}
	}
	id := m.MessageID
	var out []agui.Message
	switch {
	case m.Role == a2a.RoleUser && text.Len() > 0:
		out = append(out, &agui.UserMessage{BaseMessage: agui.BaseMessage{ID: id}, Content: agui.TextContent(text.String())})
	case m.Role == a2a.RoleAgent && (text.Len() > 0 || len(calls) > 0):
		am := &agui.AssistantMessage{BaseMessage: agui.BaseMessage{ID: id}, ToolCalls: calls}
		if text.Len() > 0 {
			s := text.String()
			am.Content = &s
		}
		out = append(out, am)
	}
	return append(out, results...)
}

// openInterrupts are the interrupts the task stopped on: those its last
// agent message before current carries.
func openInterrupts(history []*a2a.Message, current *a2a.Message) []agui.Interrupt {
	for i := len(history) - 1; i >= 0; i-- {
		m := history[i]
		if m.MessageID == current.MessageID || m.Role != a2a.RoleAgent {
			continue
		}
		return carriedInterrupts(m)
	}
	return nil
}

// resumeEntries answer the open interrupts from the client's message: the
// entries its resume data part gives (the bridge's A2AAgent sends one),
// else every interrupt resolved with the message's text, or its data, as
// the payload.
func resumeEntries(open []agui.Interrupt, msg *a2a.Message) []agui.ResumeEntry {
	given := map[string]agui.ResumeEntry{}
	var answer json.RawMessage
	for _, p := range msg.Parts {
		switch c := p.Content.(type) {
		case *a2a.PartData:
			if dataType(p) == dataResume {
				var v struct {
					Resume []agui.ResumeEntry `json:"resume"`
				}
				if json.Unmarshal(c.Data, &v) == nil {
					for _, e := range v.Resume {
						given[e.InterruptID] = e
					}
				}
			} else if answer == nil {
				answer = c.Data
			}
		case *a2a.PartText:
			if answer == nil {
				answer = jsonString(c.Text)
			}
		}
	}
	entries := make([]agui.ResumeEntry, 0, len(open))
	for _, in := range open {
		e, ok := given[in.ID]
		if !ok {
			e = agui.ResumeEntry{InterruptID: in.ID, Status: agui.ResumeEntryStatusResolved, Payload: answer}
		}
		entries = append(entries, e)
	}
	return entries
}
