package aguirt

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"

	agui "github.com/agui-gen/agui-gen/gen/agui"
	"github.com/agui-gen/agui-gen/runtime/aguihttp"
	"github.com/agui-gen/agui-gen/runtime/aguitel"
)

// ErrRunOver is returned by a Stream once its run has finished or failed.
var ErrRunOver = errors.New("agui: the run is over; no more events can be sent")

// ErrSubagentOver is returned by a subagent's stream once the subagent has
// finished or failed.
var ErrSubagentOver = errors.New("agui: the subagent is over; no more events can be attributed to it")

// Stream is how an agent emits the events of one run. Its high-level calls
// (Text, Reasoning, ToolCall, StartStep, StateDelta, …) open and close what
// the protocol requires around them, so the events that reach the wire are a
// valid sequence whatever order the agent calls them in; Emit sends a
// ready-made event, checked by the sequence verifier first. A Stream is safe
// for concurrent use.
type Stream struct {
	mu       *sync.Mutex // shared by every view of the run
	ctx      context.Context
	w        eventSink
	verifier *Verifier
	threadID string
	runID    string

	// metaAsCustom sends META events as the CUSTOM that carries them.
	metaAsCustom bool

	// owner attributes this view's events to a subagent ("" for the agent
	// itself); views share everything else through run.
	owner string
	run   *runState
}

// runState is what every view of one run shares. What is open lives in the
// verifier; this holds what the run's end needs besides.
type runState struct {
	lastAsst   map[string]string // owner → id of the last assistant text message
	interrupts []agui.Interrupt
	parents    map[string]string // subagent run id → the subagent that started it ("" for the agent)
	cancelled  bool
	result     json.RawMessage
	usage      []agui.TokenUsage // one entry per provider and model
	over       bool
	// stopped, once set, is what every call of the agent returns: a cancel
	// closed the stream to it, though the run's end still goes out. It is
	// set without the stream's lock, which a call blocked on a slow client
	// may hold.
	stopped atomic.Pointer[error]
	// halted ends when stopped is set, or when the stream's context does:
	// a call of the agent's that waits for a slow client gives up then,
	// instead of holding the lock the run's end needs.
	halted context.Context
	halt   context.CancelCauseFunc
	// envelope is set while a step of the run's envelope is sending, which
	// a stop does not cut short. Guarded by the stream's lock.
	envelope bool
	// onEnd learns what the run leaves open (its interrupts, or none) just
	// before its terminal event goes out; settled once it has.
	onEnd   func(open []agui.Interrupt)
	settled bool
	// down, when set, rewrites each event for a client of an earlier
	// version, after the run's own checks.
	down *downgrader
	// tel, when set, takes each event sent, for the run's telemetry.
	tel *aguitel.Run
}

func newStream(ctx context.Context, w eventSink, threadID, runID string) *Stream {
	halted, halt := context.WithCancelCause(ctx)
	return &Stream{mu: new(sync.Mutex), ctx: ctx, w: w, verifier: NewVerifier(), threadID: threadID, runID: runID,
		run: &runState{lastAsst: map[string]string{}, parents: map[string]string{}, halted: halted, halt: halt}}
}

// ThreadID and RunID identify the run.
func (s *Stream) ThreadID() string { return s.threadID }
func (s *Stream) RunID() string    { return s.runID }

// NewID returns a fresh identifier with the given prefix, such as "msg".
func NewID(prefix string) string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	return prefix + "_" + hex.EncodeToString(b[:])
}

// send checks and writes one event and tracks what it opens and closes. The
// caller holds s.mu.
func (s *Stream) send(ev agui.Event) error {
	if s.run.over {
		return ErrRunOver
	}
	if s.owner != "" && !s.verifier.subagentActive(s.owner) {
		return ErrSubagentOver
	}
	if err := s.ctx.Err(); err != nil {
		return err
	}
	waitCtx := s.run.halted
	if s.run.envelope {
		waitCtx = s.ctx
	} else if waitCtx.Err() != nil {
		return context.Cause(waitCtx) // stopped in the middle of the agent's call
	}
	if err := ev.Validate(); err != nil {
		return fmt.Errorf("agui: invalid %s event: %w", ev.Type(), err)
	}
	if err := s.verifier.Check(ev); err != nil {
		return err
	}
	s.track(ev)
	sent := ev
	if m, ok := ev.(*agui.MetaEvent); ok && s.metaAsCustom {
		ev = MetaAsCustom(m)
	}
	if s.run.down != nil {
		if ev = s.run.down.event(ev); ev == nil {
			return nil
		}
	}
	if err := s.w.WriteEvent(waitCtx, ev); err != nil {
		return err
	}
	if s.run.tel != nil {
		observe(s.run.tel, sent)
	}
	return nil
}

// detachTelemetry stops the run's events reaching its telemetry, which
// then ends, whatever goroutines the agent left behind still call.
func (s *Stream) detachTelemetry() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.run.tel = nil
}

// attributable is the owner tag for this view's events.
func (s *Stream) attributable() agui.Attributable {
	if s.owner == "" {
		return agui.Attributable{}
	}
	owner := s.owner
	return agui.Attributable{SubagentRunID: &owner}
}

func ownerOf(a agui.Attributable) string {
	if a.SubagentRunID == nil {
		return ""
	}
	return *a.SubagentRunID
}

// track remembers the last assistant text message of each owner, the
// parent of the tool calls that follow it.
func (s *Stream) track(ev agui.Event) {
	if e, ok := ev.(*agui.TextMessageStartEvent); ok && (e.Role == nil || *e.Role == agui.TextMessageRoleAssistant) {
		s.run.lastAsst[ownerOf(e.Attributable)] = e.MessageID
	}
}

// open returns the id of the item of kind that owner has open (not a chunk
// stream, which closes by itself).
func (s *Stream) open(kind OpenKind, owner string) (string, bool) {
	return s.verifier.openID(kind, owner)
}

// closeOwned closes, newest first, what owner has open: text and
// reasoning, tool calls, steps, and the subagents it started (each after its
// own work); with all set, everything in the run. Chunk streams are left to
// close by themselves.
func (s *Stream) closeOwned(owner string, all bool) error {
	items := s.verifier.Open().Items
	for i := len(items) - 1; i >= 0; i-- {
		it := items[i]
		if it.Chunk || (!all && it.SubagentRunID != owner) {
			continue
		}
		tag := agui.Attributable{}
		if it.SubagentRunID != "" {
			o := it.SubagentRunID
			tag.SubagentRunID = &o
		}
		var ev agui.Event
		switch it.Kind {
		case OpenTextMessage:
			ev = &agui.TextMessageEndEvent{Attributable: tag, MessageID: it.ID}
		case OpenReasoningMessage:
			ev = &agui.ReasoningMessageEndEvent{Attributable: tag, MessageID: it.ID}
		case OpenReasoning:
			ev = &agui.ReasoningEndEvent{Attributable: tag, MessageID: it.ID}
		case OpenToolCall:
			ev = &agui.ToolCallEndEvent{Attributable: tag, ToolCallID: it.ID}
		case OpenStep:
			ev = &agui.StepFinishedEvent{Attributable: tag, StepName: it.ID}
		case OpenSubagent:
			if !all {
				// A subagent owner started: finish its own work first.
				if err := s.closeOwned(it.ID, false); err != nil {
					return err
				}
			}
			ev = s.subagentFinished(it.ID)
		default:
			continue
		}
		if err := s.send(ev); err != nil {
			return err
		}
	}
	return nil
}

// closeText ends this view's open text message, if any.
func (s *Stream) closeText() error {
	if id, ok := s.open(OpenTextMessage, s.owner); ok {
		return s.send(&agui.TextMessageEndEvent{Attributable: s.attributable(), MessageID: id})
	}
	return nil
}

// closeReasoning ends this view's open reasoning message and span.
func (s *Stream) closeReasoning() error {
	if id, ok := s.open(OpenReasoningMessage, s.owner); ok {
		if err := s.send(&agui.ReasoningMessageEndEvent{Attributable: s.attributable(), MessageID: id}); err != nil {
			return err
		}
	}
	if id, ok := s.open(OpenReasoning, s.owner); ok {
		return s.send(&agui.ReasoningEndEvent{Attributable: s.attributable(), MessageID: id})
	}
	return nil
}

// locked runs one of the agent's calls with the stream locked; once the
// stream is stopped, it returns the cause instead.
func (s *Stream) locked(f func() error) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if cause := s.run.stopped.Load(); cause != nil {
		return *cause
	}
	return f()
}

// envelope runs a step of the run's envelope (its start and end) with the
// stream locked, stopped or not.
func (s *Stream) envelope(f func() error) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.run.envelope = true
	defer func() { s.run.envelope = false }()
	return f()
}

// stop closes the stream to the agent: its calls return cause from now on,
// and one waiting for a slow client returns it at once.
func (s *Stream) stop(cause error) {
	if s.run.stopped.CompareAndSwap(nil, &cause) {
		s.run.halt(cause)
	}
}

// Emit sends a ready-made event. The sequence verifier checks it first; an
// event that would break the protocol's ordering rules is not sent and its
// violation is returned.
func (s *Stream) Emit(ev agui.Event) error {
	return s.locked(func() error { return s.send(ev) })
}

// Text streams a fragment of the assistant's answer. The first fragment
// opens a text message (ending any open reasoning first); later ones extend
// it, until EndText, a tool call, a step end or the end of the run closes it.
func (s *Stream) Text(delta string) error {
	if delta == "" {
		return nil
	}
	return s.locked(func() error {
		if err := s.closeReasoning(); err != nil {
			return err
		}
		id, open := s.open(OpenTextMessage, s.owner)
		if !open {
			id = NewID("msg")
			role := agui.TextMessageRoleAssistant
			if err := s.send(&agui.TextMessageStartEvent{Attributable: s.attributable(), MessageID: id, Role: &role}); err != nil {
				return err
			}
		}
		return s.send(&agui.TextMessageContentEvent{Attributable: s.attributable(), MessageID: id, Delta: delta})
	})
}

// StartText opens an assistant text message under messageID, the id a
// model gave its message, for Text to extend (closing the open text or
// reasoning first); an empty messageID makes one up. When that message is
// open already it does nothing, so a model's stream can name its message
// on every fragment:
//
//	s.StartText(chunk.MessageID)
//	s.Text(chunk.Delta)
//
// Without it, Text opens a message with an id of its own.
func (s *Stream) StartText(messageID string) error {
	return s.locked(func() error {
		if id, open := s.open(OpenTextMessage, s.owner); open && id == messageID {
			return nil
		}
		if err := s.closeReasoning(); err != nil {
			return err
		}
		if err := s.closeText(); err != nil {
			return err
		}
		if messageID == "" {
			messageID = NewID("msg")
		}
		role := agui.TextMessageRoleAssistant
		return s.send(&agui.TextMessageStartEvent{Attributable: s.attributable(), MessageID: messageID, Role: &role})
	})
}

// EndText closes the open text message, if any, so the next Text starts a
// new one.
func (s *Stream) EndText() error { return s.locked(s.closeText) }

// Reasoning streams a fragment of visible reasoning. It opens a reasoning
// span and a reasoning message as needed, and closes the open text message
// first; Text and EndReasoning close them again.
func (s *Stream) Reasoning(delta string) error {
	if delta == "" {
		return nil
	}
	return s.locked(func() error {
		if err := s.closeText(); err != nil {
			return err
		}
		span, ok := s.open(OpenReasoning, s.owner)
		if !ok {
			span = NewID("rsn")
			if err := s.send(&agui.ReasoningStartEvent{Attributable: s.attributable(), MessageID: span}); err != nil {
				return err
			}
		}
		id, ok := s.open(OpenReasoningMessage, s.owner)
		if !ok {
			id = NewID("msg")
			if err := s.send(&agui.ReasoningMessageStartEvent{Attributable: s.attributable(), MessageID: id}); err != nil {
				return err
			}
		}
		return s.send(&agui.ReasoningMessageContentEvent{Attributable: s.attributable(), MessageID: id, Delta: delta})
	})
}

// StartReasoning opens a reasoning span and a reasoning message, both
// under messageID, the id a model gave its reasoning, for Reasoning to
// extend (closing the open text, and reasoning under another id, first);
// an empty messageID makes one up. When that reasoning is open already it
// does nothing, as StartText.
func (s *Stream) StartReasoning(messageID string) error {
	return s.locked(func() error {
		if id, open := s.open(OpenReasoningMessage, s.owner); open && id == messageID {
			return nil
		}
		if err := s.closeText(); err != nil {
			return err
		}
		if err := s.closeReasoning(); err != nil {
			return err
		}
		if messageID == "" {
			messageID = NewID("msg")
		}
		if err := s.send(&agui.ReasoningStartEvent{Attributable: s.attributable(), MessageID: messageID}); err != nil {
			return err
		}
		return s.send(&agui.ReasoningMessageStartEvent{Attributable: s.attributable(), MessageID: messageID})
	})
}

// EndReasoning closes the open reasoning message and span.
func (s *Stream) EndReasoning() error { return s.locked(s.closeReasoning) }

// ToolCallOption sets what StartToolCall and ToolCall would otherwise
// choose themselves.
type ToolCallOption func(*toolCallStart)

type toolCallStart struct{ id, parent string }

// ToolCallID gives a tool call the id a model gave it (OpenAI's call_…,
// Anthropic's toolu_…), in place of a made-up one: the id the client
// answers with a ToolMessage's toolCallId when the tool is the front
// end's. An empty id makes one up.
func ToolCallID(id string) ToolCallOption { return func(o *toolCallStart) { o.id = id } }

// ParentMessageID names the assistant message a tool call belongs to (its
// parentMessageId), in place of the run's last assistant text message: a
// model's message that holds only tool calls, say.
func ParentMessageID(messageID string) ToolCallOption {
	return func(o *toolCallStart) { o.parent = messageID }
}

// StartToolCall opens a tool call and returns its id; stream its arguments
// with ToolCallArgs and close it with EndToolCall. Open text and reasoning
// are closed first. Its id is made up unless ToolCallID gives the model's,
// and its parent is the run's last assistant text message unless
// ParentMessageID names another.
func (s *Stream) StartToolCall(name string, opts ...ToolCallOption) (string, error) {
	var o toolCallStart
	for _, opt := range opts {
		opt(&o)
	}
	id := o.id
	if id == "" {
		id = NewID("call")
	}
	err := s.locked(func() error {
		if err := s.closeText(); err != nil {
			return err
		}
		if err := s.closeReasoning(); err != nil {
			return err
		}
		ev := &agui.ToolCallStartEvent{Attributable: s.attributable(), ToolCallID: id, ToolCallName: name}
		if o.parent != "" {
			ev.ParentMessageID = &o.parent
		} else if parent, ok := s.run.lastAsst[s.owner]; ok {
			ev.ParentMessageID = &parent
		}
		return s.send(ev)
	})
	return id, err
}

// ToolCallArgs streams a fragment of a tool call's JSON arguments.
func (s *Stream) ToolCallArgs(toolCallID, delta string) error {
	if delta == "" {
		return nil
	}
	return s.locked(func() error {
		return s.send(&agui.ToolCallArgsEvent{Attributable: s.attributable(), ToolCallID: toolCallID, Delta: delta})
	})
}

// EndToolCall closes a tool call.
func (s *Stream) EndToolCall(toolCallID string) error {
	return s.locked(func() error {
		return s.send(&agui.ToolCallEndEvent{Attributable: s.attributable(), ToolCallID: toolCallID})
	})
}

// ToolCall sends a whole tool call with its arguments and returns its id;
// opts are StartToolCall's.
func (s *Stream) ToolCall(name, args string, opts ...ToolCallOption) (string, error) {
	id, err := s.StartToolCall(name, opts...)
	if err != nil {
		return "", err
	}
	if err := s.ToolCallArgs(id, args); err != nil {
		return id, err
	}
	return id, s.EndToolCall(id)
}

// ToolResult reports what a tool call returned, as a tool message.
func (s *Stream) ToolResult(toolCallID, content string) error {
	return s.locked(func() error {
		if err := s.closeText(); err != nil {
			return err
		}
		role := "tool"
		return s.send(&agui.ToolCallResultEvent{Attributable: s.attributable(), MessageID: NewID("msg"),
			ToolCallID: toolCallID, Content: agui.TextContent(content), Role: &role})
	})
}

// StartStep opens a named step.
func (s *Stream) StartStep(name string) error {
	return s.locked(func() error {
		return s.send(&agui.StepStartedEvent{Attributable: s.attributable(), StepName: name})
	})
}

// FinishStep closes a named step, closing the open text message first.
func (s *Stream) FinishStep(name string) error {
	return s.locked(func() error {
		if err := s.closeText(); err != nil {
			return err
		}
		return s.send(&agui.StepFinishedEvent{Attributable: s.attributable(), StepName: name})
	})
}

// StateSnapshot replaces the shared state with state (any JSON).
func (s *Stream) StateSnapshot(state json.RawMessage) error {
	return s.locked(func() error {
		return s.send(&agui.StateSnapshotEvent{Attributable: s.attributable(), Snapshot: agui.State(state)})
	})
}

// StateDelta changes the shared state with RFC 6902 operations.
func (s *Stream) StateDelta(ops ...agui.JSONPatchOperation) error {
	return s.locked(func() error {
		return s.send(&agui.StateDeltaEvent{Attributable: s.attributable(), Delta: agui.JSONPatch(ops)})
	})
}

// MessagesSnapshot replaces the conversation with messages.
func (s *Stream) MessagesSnapshot(messages ...agui.Message) error {
	return s.locked(func() error {
		if messages == nil {
			messages = []agui.Message{}
		}
		return s.send(&agui.MessagesSnapshotEvent{Messages: messages})
	})
}

// ActivitySnapshot shows an activity (a progress card, a plan…) as the
// message id, replacing what that message showed before.
func (s *Stream) ActivitySnapshot(messageID, activityType string, content json.RawMessage) error {
	return s.locked(func() error {
		return s.send(&agui.ActivitySnapshotEvent{Attributable: s.attributable(), MessageID: messageID,
			ActivityType: activityType, Content: content})
	})
}

// ActivityDelta changes an activity's content with RFC 6902 operations.
func (s *Stream) ActivityDelta(messageID, activityType string, ops ...agui.JSONPatchOperation) error {
	return s.locked(func() error {
		return s.send(&agui.ActivityDeltaEvent{Attributable: s.attributable(), MessageID: messageID,
			ActivityType: activityType, Patch: agui.JSONPatch(ops)})
	})
}

// Custom sends an application-defined event.
func (s *Stream) Custom(name string, value json.RawMessage) error {
	return s.locked(func() error {
		return s.send(&agui.CustomEvent{Attributable: s.attributable(), Name: name, Value: value})
	})
}

// Raw passes a provider's native event through, for consumers that need it.
func (s *Stream) Raw(event json.RawMessage, source string) error {
	return s.locked(func() error {
		ev := &agui.RawEvent{Attributable: s.attributable(), Event: event}
		if source != "" {
			ev.Source = &source
		}
		return s.send(ev)
	})
}

// Meta sends a META event (feedback, a note, tags, a rating…).
func (s *Stream) Meta(payload agui.MetaPayload) error {
	return s.locked(func() error { return s.send(&agui.MetaEvent{Payload: payload}) })
}

// Interrupt ends the run, when the agent returns, with an interrupt outcome:
// the run pauses for the client to answer the interrupts in a new run's
// resume. An interrupt that does not validate, or whose id the run already
// used, is an error, and none of interrupts is kept. On a subagent's view,
// an interrupt is the subagent's (subagentRunId), and the subagent, with
// the subagents above it, ends suspended rather than successful.
func (s *Stream) Interrupt(interrupts ...agui.Interrupt) error {
	return s.locked(func() error {
		if s.run.over {
			return ErrRunOver
		}
		used := map[string]bool{}
		for _, in := range s.run.interrupts {
			used[in.ID] = true
		}
		interrupts = slices.Clone(interrupts)
		for i := range interrupts {
			if s.owner != "" && interrupts[i].SubagentRunID == nil {
				owner := s.owner
				interrupts[i].SubagentRunID = &owner
			}
			if o := interrupts[i].SubagentRunID; o != nil && !s.verifier.subagentActive(*o) {
				// Its SUBAGENT_FINISHED (or ERROR) has gone out: it cannot
				// end suspended now.
				return fmt.Errorf("%w: interrupt %q names subagent %q", ErrSubagentOver, interrupts[i].ID, *o)
			}
			id := interrupts[i].ID
			if err := interrupts[i].Validate(); err != nil {
				return fmt.Errorf("agui: invalid interrupt %q: %w", id, err)
			}
			if used[id] {
				return fmt.Errorf("agui: the run already has an interrupt with id %q", id)
			}
			used[id] = true
		}
		s.run.interrupts = append(s.run.interrupts, interrupts...)
		return nil
	})
}

// MarkCancelled ends the run, when the agent returns, with a cancelled
// outcome: the run was stopped on purpose before it completed, and the next
// run on the thread is an ordinary one, not a resume. It overrides
// Interrupt. It stops nothing itself: the agent returns.
func (s *Stream) MarkCancelled() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.run.cancelled = true
}

// SetResult sets the run's result, sent in RUN_FINISHED unless the run is
// cancelled. A result that is not valid there ends the run with RUN_ERROR.
func (s *Stream) SetResult(result json.RawMessage) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.run.result = result
}

// AddUsage adds the token counts of a model call to the run's usage,
// sent in RUN_FINISHED or RUN_ERROR: counts of the same provider and model
// are summed into one entry, as the protocol asks. Counts that would pass
// the JSON safe-integer range make the run's end fail validation, which
// turns it into RUN_ERROR.
func (s *Stream) AddUsage(u agui.TokenUsage) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := range s.run.usage {
		if e := &s.run.usage[i]; sameLabel(e.Provider, u.Provider) && sameLabel(e.Model, u.Model) {
			sumUsage(e, &u)
			return
		}
	}
	e := agui.TokenUsage{Provider: u.Provider, Model: u.Model}
	sumUsage(&e, &u)
	s.run.usage = append(s.run.usage, e)
}

// sumUsage adds src's counts to dst's.
func sumUsage(dst, src *agui.TokenUsage) {
	dst.InputTokens = addCount(dst.InputTokens, src.InputTokens)
	dst.OutputTokens = addCount(dst.OutputTokens, src.OutputTokens)
	dst.TotalTokens = addCount(dst.TotalTokens, src.TotalTokens)
	dst.ReasoningTokens = addCount(dst.ReasoningTokens, src.ReasoningTokens)
	dst.CachedInputTokens = addCount(dst.CachedInputTokens, src.CachedInputTokens)
	dst.CacheWriteInputTokens = addCount(dst.CacheWriteInputTokens, src.CacheWriteInputTokens)
}

func sameLabel(a, b *string) bool { return (a == nil) == (b == nil) && (a == nil || *a == *b) }

// addCount is a+b with either absent; a fresh pointer, so no count is
// shared with the caller's.
func addCount(a, b *int64) *int64 {
	if a == nil && b == nil {
		return nil
	}
	var n int64
	if a != nil {
		n = *a
	}
	if b != nil {
		n += *b
	}
	return &n
}

// withTotals is usage with each entry's totalTokens set to its input plus
// output, the protocol's accounting, where both are known.
func withTotals(usage []agui.TokenUsage) []agui.TokenUsage {
	for i := range usage {
		u := &usage[i]
		if u.InputTokens != nil && u.OutputTokens != nil {
			n := *u.InputTokens + *u.OutputTokens
			u.TotalTokens = &n
		}
	}
	return usage
}

// Subagent starts a subagent run and returns a view of the stream whose
// events are attributed to it. Finish it with Subagent.Finish or Fail; one
// still running when the parent run ends is finished then.
func (s *Stream) Subagent(name string) (*Subagent, error) {
	id := NewID("sub")
	err := s.locked(func() error {
		s.run.parents[id] = s.owner
		ev := &agui.SubagentStartedEvent{SubagentRunID: id, Name: name}
		if s.owner != "" {
			parent := s.owner
			ev.ParentSubagentRunID = &parent
		}
		return s.send(ev)
	})
	if err != nil {
		return nil, err
	}
	view := *s
	view.owner = id
	return &Subagent{Stream: &view, parent: s}, nil
}

// Subagent is the stream view of a running subagent.
type Subagent struct {
	*Stream
	parent *Stream
}

// ID is the subagent run's id.
func (a *Subagent) ID() string { return a.owner }

// Finish closes what the subagent has open and ends it successfully.
func (a *Subagent) Finish() error {
	return a.parent.locked(func() error {
		if err := a.parent.closeOwned(a.owner, false); err != nil {
			return err
		}
		return a.parent.send(a.parent.subagentFinished(a.owner))
	})
}

// subagentFinished ends a subagent's segment of the run: suspended when it,
// or a subagent below it, raised an interrupt, else successfully. The
// caller holds s.mu.
func (s *Stream) subagentFinished(id string) *agui.SubagentFinishedEvent {
	ev := &agui.SubagentFinishedEvent{SubagentRunID: id}
	var own []string
	suspended := false
	for _, in := range s.run.interrupts {
		if in.SubagentRunID == nil {
			continue
		}
		for o := *in.SubagentRunID; o != ""; o = s.run.parents[o] {
			if o == id {
				suspended = true
				if o == *in.SubagentRunID {
					own = append(own, in.ID)
				}
				break
			}
		}
	}
	if suspended {
		ev.Outcome = &agui.SubagentFinishedSuspendedOutcome{InterruptIDs: own}
	}
	return ev
}

// Fail closes what the subagent has open and ends it with an error.
func (a *Subagent) Fail(err error) error {
	return a.parent.locked(func() error {
		if err := a.parent.closeOwned(a.owner, false); err != nil {
			return err
		}
		return a.parent.send(&agui.SubagentErrorEvent{SubagentRunID: a.owner, Message: err.Error()})
	})
}

// start sends RUN_STARTED. For a client that declared no version and gets
// its events rewritten for an earlier one, it declares that one.
func (s *Stream) start(input *agui.RunAgentInput) error {
	version := declaredVersion(input.ProtocolVersion)
	if input.ProtocolVersion == nil && s.run.down != nil {
		version = s.run.down.version
	}
	ev := &agui.RunStartedEvent{ThreadID: s.threadID, RunID: s.runID, ProtocolVersion: &version, ParentRunID: input.ParentRunID}
	return s.envelope(func() error { return s.send(ev) })
}

// finish closes everything still open, newest first (so a subagent's work
// closes before the subagent, and inner items before outer ones), and sends
// RUN_FINISHED. When it fails the run is not over: fail ends it. A
// RUN_FINISHED that does not validate keeps nothing; one that cannot be
// written (the client left) still keeps the run's interrupts, which were
// raised, for the client to answer when it comes back.
func (s *Stream) finish() error {
	return s.envelope(func() error {
		ev := &agui.RunFinishedEvent{ThreadID: s.threadID, RunID: s.runID, Usage: withTotals(s.run.usage)}
		var open []agui.Interrupt
		switch {
		case s.run.cancelled:
			// No result: the run did not complete.
			ev.Outcome = &agui.RunFinishedCancelledOutcome{}
		case len(s.run.interrupts) > 0:
			ev.Outcome = &agui.RunFinishedInterruptOutcome{Interrupts: s.run.interrupts}
			ev.Result, open = s.run.result, s.run.interrupts
		default:
			ev.Result = s.run.result
		}
		// Checked before anything is closed or kept: a result the agent set
		// that cannot go out ends the run with RUN_ERROR instead.
		if err := ev.Validate(); err != nil {
			return fmt.Errorf("agui: invalid RUN_FINISHED: %w", err)
		}
		s.settle(open)
		if err := s.closeOwned("", true); err != nil {
			return err
		}
		err := s.send(ev)
		s.run.over = err == nil
		return err
	})
}

// fail sends RUN_ERROR and ends the run.
func (s *Stream) fail(message, code string) error {
	return s.envelope(func() error {
		s.settle(nil)
		ev := &agui.RunErrorEvent{Message: message, Usage: withTotals(s.run.usage)}
		if code != "" {
			ev.Code = &code
		}
		err := s.send(ev)
		s.run.over = true
		return err
	})
}

// settle tells onEnd, once, what the run leaves open. The caller holds
// s.mu.
func (s *Stream) settle(open []agui.Interrupt) {
	if s.run.settled {
		return
	}
	s.run.settled = true
	if s.run.onEnd != nil {
		s.run.onEnd(open)
	}
}

// declaredVersion is the version RUN_STARTED declares: ours, or the
// consumer's when it speaks an older minor of our major version, since a
// producer may downgrade for an older peer and declares the version it then
// speaks.
func declaredVersion(consumer *string) string {
	if consumer == nil {
		return protocolVersion
	}
	c, ok1 := aguihttp.ParseMajorMinor(*consumer)
	o, ok2 := aguihttp.ParseMajorMinor(protocolVersion)
	if ok1 && ok2 && c[0] == o[0] && c[1] < o[1] {
		return *consumer
	}
	return protocolVersion
}
