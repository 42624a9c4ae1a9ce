package bridge

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"maps"
	"slices"
	"strings"

	a2a "github.com/agui-gen/agui-gen/gen/a2a"
	"github.com/agui-gen/agui-gen/gen/a2a/a2atask"
	agui "github.com/agui-gen/agui-gen/gen/agui"
)

// The artifacts an Executor keeps its AG-UI agent's thread in, each as one
// data part: the shared state its state events left, and the conversation
// as AG-UI messages (a JSON array). The next run on the task starts from
// them.
const (
	StateArtifactID        = "agui-state"
	ConversationArtifactID = "agui-messages"
)

// Executor runs an AG-UI agent as an A2A executor on the task runtime. Each
// message a task receives is one AG-UI run on the thread named by the
// task's context, the conversation being the task's so far:
//
//   - assistant text streams as an artifact per text message (appended
//     chunk by chunk, the last chunk marked);
//   - reasoning, tool calls and tool results are WORKING status messages,
//     with Hector's hints (reasoning as a thinking part, calls and results
//     as data parts in the tool-call convention);
//   - the shared state and the conversation are kept in artifacts
//     (StateArtifactID, ConversationArtifactID);
//   - an interrupt outcome stops the task for input, its message carrying
//     the interrupts' text and, in a data part, the interrupts. The
//     client's answer becomes the next run's resume: the entries of a
//     resume data part when it sends one (A2AAgent does), else every open
//     interrupt resolved with the message's text or data;
//   - RUN_ERROR, or a run the agent reports cancelled, fails the task;
//   - any other event (a step, a custom or raw event, an activity, META, a
//     newer schema's event) is a WORKING status message whose data part
//     carries it verbatim (CarriedPart), which A2AAgent emits as it was;
//   - what a text message's, a reasoning message's, a tool call's or a
//     result's events hold beyond what their part carries (a name,
//     metadata, a newer schema's member) goes in the part's metadata
//     (HintResidual), and A2AAgent adds it back to the events it makes of
//     the part. What other events hold beyond their meaning is logged at
//     debug level, as left out.
type Executor struct {
	Agent agui.Agent
	// Options configure the AG-UI side; of them WithLogger applies, and
	// WithThreadOwners, or WithCheckpoints or WithMetaStore with a store
	// that keeps owners, which holds each AG-UI thread (the task's context)
	// to the task's owner, sharing the owners of an AG-UI handler. A call
	// the A2A side did not authenticate has no owner, and is held to none:
	// authenticate both sides alike.
	Options []agui.Option
	// Logger says, at debug level, what events held that A2A has no place
	// for (default slog.Default()).
	Logger *slog.Logger
}

// Execute runs the agent for run's message.
func (e *Executor) Execute(ctx context.Context, run *a2atask.Run) error {
	task := run.Task()
	input := &agui.RunAgentInput{ThreadID: task.ContextID, RunID: agui.NewID("run"),
		State: artifactData(task, StateArtifactID), Messages: conversation(task, run.Message)}
	if open := openInterrupts(task.History, run.Message); len(open) > 0 {
		input.Resume = resumeEntries(open, run.Message)
	}
	out := &sink{run: run, logger: cmp.Or(e.Logger, slog.Default()), conv: agui.NewConversation(slices.Clone(input.Messages), bytes.Clone(input.State)), state: input.State,
		pending: map[string]*textArtifact{}, calls: map[string]*ToolCall{}, reasoning: map[string]*strings.Builder{},
		callResiduals: map[string][]json.RawMessage{}, reasoningResiduals: map[string][]json.RawMessage{}}
	if run.Principal != nil {
		// The agent's caller, and the thread's owner when Options keep
		// owners, is the task's: an A2A caller is held to its own AG-UI
		// threads as an AG-UI caller is.
		ctx = agui.ContextWithCaller(ctx, run.Owner())
	}
	err := agui.Invoke(ctx, e.Agent, input, out.event, e.Options...)
	var re *agui.RunError
	switch {
	case errors.Is(err, agui.ErrThreadNotFound):
		// The context is another caller's thread: the task fails saying
		// no more than a run on it over AG-UI would.
		return run.Fail(run.AgentMessage(&a2a.Part{Content: &a2a.PartText{Text: "the context's thread was not found"}}))
	case errors.Is(err, a2atask.ErrCanceled) || ctx.Err() != nil:
		// Stopped: never nil, which would complete the task.
		return cmp.Or(err, context.Cause(ctx))
	case err != nil && !errors.As(err, &re) && out.failure == "":
		return err // a write to the task failed: the runtime settles it
	}
	return out.settle()
}

// sink turns the events of a run into changes of the task.
type sink struct {
	run    *a2atask.Run
	logger *slog.Logger
	conv   *agui.Conversation
	// state is the shared state the run started from.
	state json.RawMessage

	// pending holds each open text message's latest delta, sent when the
	// next one comes or, marked as the last chunk, when the message ends.
	pending map[string]*textArtifact
	// calls and reasoning are the tool calls and reasoning messages being
	// streamed, by id.
	calls     map[string]*ToolCall
	reasoning map[string]*strings.Builder
	// callResiduals and reasoningResiduals are what the events of each
	// call and reasoning message hold beyond what its part carries.
	callResiduals, reasoningResiduals map[string][]json.RawMessage
	// The open chunk streams, which a chunk without an id continues and an
	// event of another kind closes.
	chunkText, chunkCall, chunkReasoning string

	interrupts []agui.Interrupt
	failure    string
}

type textArtifact struct {
	delta   string
	started bool
	// What the message's events hold beyond what the artifact carries
	// (residual): its start's, until its first chunk goes; the held
	// delta's content event's; its end's.
	start, content, end json.RawMessage
}

func (o *sink) event(ev agui.Event) error {
	if err := o.conv.Apply(ev); err != nil {
		return err
	}
	if err := o.closeChunks(ev); err != nil {
		return err
	}
	switch ev := ev.(type) {
	case *agui.TextMessageStartEvent:
		o.openText(ev.MessageID).start = residual(ev, "messageId", "role")
	case *agui.TextMessageContentEvent:
		return o.text(ev.MessageID, ev.Delta, residual(ev, "messageId", "delta"))
	case *agui.TextMessageEndEvent:
		if a := o.pending[ev.MessageID]; a != nil {
			a.end = residual(ev, "messageId")
		}
		return o.endText(ev.MessageID)
	case *agui.TextMessageChunkEvent:
		o.chunkText = chunkID(ev.MessageID, o.chunkText)
		o.openText(o.chunkText)
		if ev.Delta != nil {
			// A chunk is a start and a content at once: what it holds
			// beyond them goes with its content.
			return o.text(o.chunkText, *ev.Delta, residual(ev, "messageId", "delta", "role"))
		}
	case *agui.ReasoningMessageStartEvent:
		o.keepReasoningResidual(ev.MessageID, residual(ev, "messageId"))
	case *agui.ReasoningMessageContentEvent:
		o.addReasoning(ev.MessageID, ev.Delta)
		o.keepReasoningResidual(ev.MessageID, residual(ev, "messageId", "delta"))
	case *agui.ReasoningMessageEndEvent:
		o.keepReasoningResidual(ev.MessageID, residual(ev, "messageId"))
		return o.endReasoning(ev.MessageID)
	case *agui.ReasoningMessageChunkEvent:
		o.chunkReasoning = chunkID(ev.MessageID, o.chunkReasoning)
		if ev.Delta != nil {
			o.addReasoning(o.chunkReasoning, *ev.Delta)
		}
		o.keepReasoningResidual(o.chunkReasoning, residual(ev, "messageId", "delta"))
	case *agui.ToolCallStartEvent:
		o.calls[ev.ToolCallID] = &ToolCall{ID: ev.ToolCallID, Name: ev.ToolCallName}
		o.keepResidual(ev.ToolCallID, residual(ev, "toolCallId", "toolCallName"))
	case *agui.ToolCallArgsEvent:
		o.addArgs(ev.ToolCallID, ev.Delta)
		o.keepResidual(ev.ToolCallID, residual(ev, "toolCallId", "delta"))
	case *agui.ToolCallEndEvent:
		o.keepResidual(ev.ToolCallID, residual(ev, "toolCallId"))
		return o.endCall(ev.ToolCallID)
	case *agui.ToolCallChunkEvent:
		o.chunkCall = chunkID(ev.ToolCallID, o.chunkCall)
		if o.calls[o.chunkCall] == nil && ev.ToolCallName != nil {
			o.calls[o.chunkCall] = &ToolCall{ID: o.chunkCall, Name: *ev.ToolCallName}
		}
		if ev.Delta != nil {
			o.addArgs(o.chunkCall, *ev.Delta)
		}
	case *agui.ToolCallResultEvent:
		p := ToolResultPart(ToolResult{ToolCallID: ev.ToolCallID, Content: contentText(ev.Content)})
		setResiduals(p, residual(ev, "toolCallId", "content"))
		return o.run.Working(o.run.AgentMessage(p))
	case *agui.RunFinishedEvent:
		o.leftOut(ev, "threadId", "runId", "outcome")
		switch outcome := ev.Outcome.(type) {
		case *agui.RunFinishedInterruptOutcome:
			o.interrupts = outcome.Interrupts
		case *agui.RunFinishedCancelledOutcome:
			o.failure = "the agent cancelled the run"
		}
	case *agui.RunErrorEvent:
		o.failure = ev.Message
		o.leftOut(ev, "message")
	case *agui.RunStartedEvent:
		o.leftOut(ev, "threadId", "runId", "parentRunId", "input")
	case *agui.ReasoningStartEvent:
		o.leftOut(ev, "messageId")
	case *agui.ReasoningEndEvent:
		o.leftOut(ev, "messageId")
	case *agui.StateSnapshotEvent:
		o.leftOut(ev, "snapshot")
	case *agui.StateDeltaEvent:
		o.leftOut(ev, "delta")
	case *agui.MessagesSnapshotEvent:
		o.leftOut(ev, "messages")
	case *agui.SubagentStartedEvent, *agui.SubagentFinishedEvent, *agui.SubagentErrorEvent:
		// Implied by what the cases above send (a run, reasoning opening),
		// or kept in the state and conversation artifacts when the run
		// settles; a subagent's events are its parent's here.
	default:
		// A2A has nothing for the rest (steps, custom and raw events,
		// activities, META, and any event type a newer schema adds): each
		// crosses as itself in a hinted data part, which A2AAgent sends on.
		return o.run.Working(o.run.AgentMessage(CarriedPart(ev)))
	}
	return nil
}

// chunkID is the id a chunk belongs to: its own, or the open stream's.
func chunkID(id *string, open string) string {
	if id != nil {
		return *id
	}
	return open
}

// closeChunks ends the chunk streams an event of another kind closes.
func (o *sink) closeChunks(ev agui.Event) error {
	var err error
	if _, ok := ev.(*agui.TextMessageChunkEvent); !ok && o.chunkText != "" {
		err = o.endText(o.chunkText)
		o.chunkText = ""
	}
	if _, ok := ev.(*agui.ReasoningMessageChunkEvent); !ok && o.chunkReasoning != "" && err == nil {
		err = o.endReasoning(o.chunkReasoning)
		o.chunkReasoning = ""
	}
	if _, ok := ev.(*agui.ToolCallChunkEvent); !ok && o.chunkCall != "" && err == nil {
		err = o.endCall(o.chunkCall)
		o.chunkCall = ""
	}
	return err
}

func (o *sink) openText(id string) *textArtifact {
	if o.pending[id] == nil {
		o.pending[id] = &textArtifact{}
	}
	return o.pending[id]
}

// text sends the message's previous delta and holds this one back, so
// that the message's end can mark its last chunk. rest is what the
// content event holds beyond its delta.
func (o *sink) text(id, delta string, rest json.RawMessage) error {
	a := o.pending[id]
	if a == nil || delta == "" && rest == nil {
		return nil
	}
	if a.delta != "" || a.content != nil {
		if err := o.sendText(id, a, false); err != nil {
			return err
		}
	}
	a.delta, a.content = delta, rest
	return nil
}

func (o *sink) endText(id string) error {
	a := o.pending[id]
	delete(o.pending, id)
	if a == nil || a.delta == "" && a.content == nil && (!a.started || a.end == nil) {
		return nil // nothing to send; a message without text shows nothing
	}
	return o.sendText(id, a, true)
}

func (o *sink) sendText(id string, a *textArtifact, last bool) error {
	part := &a2a.Part{Content: &a2a.PartText{Text: a.delta}}
	var start, end json.RawMessage
	if !a.started {
		start = a.start
	}
	if last {
		end = a.end
	}
	setResiduals(part, start, a.content, end)
	art := &a2a.Artifact{ArtifactID: id, Parts: []*a2a.Part{part}}
	if !a.started {
		art.Name = "response"
	}
	err := o.run.Artifact(art, a.started, last)
	a.started, a.delta, a.content = true, "", nil
	return err
}

func (o *sink) addReasoning(id, delta string) {
	b := o.reasoning[id]
	if b == nil {
		b = new(strings.Builder)
		o.reasoning[id] = b
	}
	b.WriteString(delta)
}

func (o *sink) endReasoning(id string) error {
	b := o.reasoning[id]
	rest := o.reasoningResiduals[id]
	delete(o.reasoning, id)
	delete(o.reasoningResiduals, id)
	if b == nil || b.Len() == 0 {
		return nil
	}
	p := ThinkingPart(b.String(), id, 0)
	setResiduals(p, rest...)
	return o.run.Working(o.run.AgentMessage(p))
}

// keepReasoningResidual holds what a reasoning message's event carries
// beyond its text, for the part the message becomes.
func (o *sink) keepReasoningResidual(id string, r json.RawMessage) {
	if r != nil {
		o.reasoningResiduals[id] = append(o.reasoningResiduals[id], r)
	}
}

func (o *sink) addArgs(id, delta string) {
	if c := o.calls[id]; c != nil {
		c.Arguments += delta
	}
}

func (o *sink) endCall(id string) error {
	c := o.calls[id]
	delete(o.calls, id)
	if c == nil {
		return nil
	}
	p := ToolCallPart(*c)
	setResiduals(p, o.callResiduals[id]...)
	delete(o.callResiduals, id)
	return o.run.Working(o.run.AgentMessage(p))
}

// leftOut logs, at debug level, the members of an event whose meaning the
// task carries (a run's start and end, reasoning's span, the state and the
// conversation) that A2A has no place for, so that none is dropped
// without a word. Nothing is read unless the log takes debug records: a
// snapshot can be large.
func (o *sink) leftOut(ev agui.Event, carried ...string) {
	if !o.logger.Enabled(context.Background(), slog.LevelDebug) {
		return
	}
	if r := residual(ev, carried...); r != nil {
		o.logger.LogAttrs(context.Background(), slog.LevelDebug, "bridge: left out members A2A has no place for",
			slog.String("type", string(ev.Type())), slog.String("members", string(r)))
	}
}

// keepResidual holds what a tool call's event carries beyond the call, for
// the part the call becomes.
func (o *sink) keepResidual(id string, r json.RawMessage) {
	if r != nil && o.calls[id] != nil {
		o.callResiduals[id] = append(o.callResiduals[id], r)
	}
}

// settle keeps the thread and ends the task as the run ended.
func (o *sink) settle() error {
	if err := o.closeChunks(nil); err != nil {
		return err
	}
	for _, id := range slices.Sorted(maps.Keys(o.pending)) { // what the run left open closes with it
		if err := o.endText(id); err != nil {
			return err
		}
	}
	if o.conv.State != nil && !bytes.Equal(o.conv.State, o.state) {
		if err := o.keep(StateArtifactID, "state", o.conv.State); err != nil {
			return err
		}
	}
	if err := o.keep(ConversationArtifactID, "conversation", appendMessages(nil, o.conv.Messages)); err != nil {
		return err
	}
	switch {
	case o.failure != "":
		return o.run.Fail(o.run.AgentMessage(&a2a.Part{Content: &a2a.PartText{Text: o.failure}}))
	case len(o.interrupts) > 0:
		return o.run.RequireInput(interruptMessage(o.run, o.interrupts))
	}
	return o.run.Complete(nil)
}

// keep writes data as the whole of an artifact.
func (o *sink) keep(id, name string, data json.RawMessage) error {
	return o.run.Artifact(&a2a.Artifact{ArtifactID: id, Name: name,
		Parts: []*a2a.Part{{Content: &a2a.PartData{Data: data}, MediaType: "application/json"}}}, false, true)
}

// appendMessages appends messages as a JSON array.
func appendMessages(b []byte, messages []agui.Message) []byte {
	b = append(b, '[')
	for i, m := range messages {
		if i > 0 {
			b = append(b, ',')
		}
		b = m.AppendJSON(b)
	}
	return append(b, ']')
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

// artifactData is the data part of one of the artifacts an Executor keeps.
func artifactData(task *a2a.Task, id string) json.RawMessage {
	for _, art := range task.Artifacts {
		if art.ArtifactID == id && len(art.Parts) > 0 {
			if d, ok := art.Parts[0].Content.(*a2a.PartData); ok {
				return d.Data
			}
		}
	}
	return nil
}

// conversation is the thread so far, ending with the message being
// answered: the conversation the task keeps, when an earlier run left it,
// else the task's history.
func conversation(task *a2a.Task, current *a2a.Message) []agui.Message {
	msgs := []agui.Message{}
	if kept := artifactData(task, ConversationArtifactID); kept != nil {
		var raw []json.RawMessage
		if json.Unmarshal(kept, &raw) == nil {
			for _, r := range raw {
				if m, err := agui.UnmarshalMessage(r); err == nil {
					msgs = append(msgs, m)
				}
			}
			return append(msgs, messagesOf(current)...)
		}
	}
	history := task.History
	if n := len(history); n == 0 || history[n-1].MessageID != current.MessageID {
		history = append(slices.Clip(history), current)
	}
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
		switch kind, call, res := classify(p); kind {
		case partToolCall:
			calls = append(calls, agui.ToolCall{ID: call.ID, Function: agui.FunctionCall{Name: call.Name, Arguments: call.Arguments}})
		case partToolResult:
			results = append(results, &agui.ToolMessage{ID: agui.NewID("msg"), ToolCallID: res.ToolCallID, Content: agui.TextContent(res.Content)})
		case partText:
			text.WriteString(p.Content.(*a2a.PartText).Text)
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
// entries of its resume data part, when it has one (an interrupt they
// leave out stays unanswered, for the agent to see); else every interrupt
// resolved with the message's text, or its data, as the payload.
func resumeEntries(open []agui.Interrupt, msg *a2a.Message) []agui.ResumeEntry {
	var answer json.RawMessage
	for _, p := range msg.Parts {
		switch c := p.Content.(type) {
		case *a2a.PartData:
			var v struct {
				Type   string             `json:"type"`
				Resume []agui.ResumeEntry `json:"resume"`
			}
			if json.Unmarshal(c.Data, &v) == nil && v.Type == dataResume {
				return v.Resume
			}
			if answer == nil {
				answer = c.Data
			}
		case *a2a.PartText:
			if answer == nil {
				answer = jsonString(c.Text)
			}
		}
	}
	entries := make([]agui.ResumeEntry, len(open))
	for i, in := range open {
		entries[i] = agui.ResumeEntry{InterruptID: in.ID, Status: agui.ResumeEntryStatusResolved, Payload: answer}
	}
	return entries
}
