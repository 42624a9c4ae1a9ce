package aguirt

import (
	"fmt"
	"slices"
	"strings"

	agui "github.com/agui-gen/agui-gen/gen/agui"
)

// Rules a SequenceError can name. Each is a short, stable identifier for one
// of the AG-UI sequence rules, for programs to match on.
const (
	// RuleFirstEvent: the first event (META aside) must be RUN_STARTED or
	// RUN_ERROR.
	RuleFirstEvent = "first-event"
	// RuleNestedRun: RUN_STARTED while a run is still active.
	RuleNestedRun = "nested-run"
	// RuleAfterFinished: after RUN_FINISHED only RUN_STARTED or a late
	// RUN_ERROR may follow.
	RuleAfterFinished = "after-finished"
	// RuleAfterError: after RUN_ERROR only RUN_STARTED may follow.
	RuleAfterError = "after-error"
	// RuleOpenAtFinish: RUN_FINISHED while something the run opened (a text
	// message, tool call, reasoning message or span, step or subagent) is
	// still open.
	RuleOpenAtFinish = "open-at-finish"
	// RuleAlreadyOpen: a start event for an id (or step name) that is
	// already open.
	RuleAlreadyOpen = "already-open"
	// RuleContentWithoutStart: a content or args event for an id that is
	// not open.
	RuleContentWithoutStart = "content-without-start"
	// RuleEndWithoutStart: an end event for an id (or step name) that is
	// not open.
	RuleEndWithoutStart = "end-without-start"
	// RuleAttributionMismatch: an event's subagentRunId disagrees with the
	// owner of what it continues or closes.
	RuleAttributionMismatch = "attribution-mismatch"
	// RuleChunkMissingID: a chunk that opens a stream lacks its id.
	RuleChunkMissingID = "chunk-missing-id"
	// RuleChunkMissingName: a TOOL_CALL_CHUNK that opens a call lacks
	// toolCallName.
	RuleChunkMissingName = "chunk-missing-name"
	// RuleChunkConflict: a continuation chunk repeats an opener field with a
	// different value.
	RuleChunkConflict = "chunk-conflict"
	// RuleChunkAmbiguous: an untagged chunk without an id while chunk
	// streams of its kind are open in several lanes.
	RuleChunkAmbiguous = "chunk-ambiguous"
	// RuleSubagentInvalid: SUBAGENT_STARTED without a subagentRunId or
	// name.
	RuleSubagentInvalid = "subagent-invalid"
	// RuleSubagentActive: SUBAGENT_STARTED for an invocation already active.
	RuleSubagentActive = "subagent-active"
	// RuleSubagentReused: SUBAGENT_STARTED for an invocation that already
	// finished in this run.
	RuleSubagentReused = "subagent-reused"
	// RuleSubagentUnknownParent: SUBAGENT_STARTED whose
	// parentSubagentRunId is not an active invocation.
	RuleSubagentUnknownParent = "subagent-unknown-parent"
	// RuleSubagentNotActive: SUBAGENT_FINISHED or SUBAGENT_ERROR for an
	// invocation that is not active.
	RuleSubagentNotActive = "subagent-not-active"
)

// SequenceError is a violation of the AG-UI event sequence rules: the event
// at Index breaks Rule. A consumer treats it as fatal to the stream.
type SequenceError struct {
	// Index is the event's position among the events checked, from 0.
	Index int
	// Type is the event's type.
	Type agui.EventType
	// Rule is the rule broken, one of the Rule constants.
	Rule string
	// Msg says what is wrong, for a person.
	Msg string
}

func (e *SequenceError) Error() string {
	return fmt.Sprintf("agui: event %d (%s): %s [%s]", e.Index, e.Type, e.Msg, e.Rule)
}

// OpenKind is the kind of an OpenItem.
type OpenKind string

// The kinds of thing a run opens and must close before RUN_FINISHED.
const (
	OpenTextMessage      OpenKind = "text-message"
	OpenToolCall         OpenKind = "tool-call"
	OpenReasoningMessage OpenKind = "reasoning-message"
	OpenReasoning        OpenKind = "reasoning" // a reasoning span (REASONING_START)
	OpenStep             OpenKind = "step"
	OpenSubagent         OpenKind = "subagent"
)

// OpenItem is one thing that is open.
type OpenItem struct {
	Kind OpenKind
	// ID is the message id, tool call id, reasoning span id, step name or
	// subagentRunId.
	ID string
	// SubagentRunID is the owner: the subagent the item belongs to, "" for
	// the agent itself. For a subagent it is its parentSubagentRunId.
	SubagentRunID string
	// Chunk is set for a text message, tool call or reasoning message
	// opened by a *_CHUNK event. Such a stream closes implicitly (at the
	// next event of its lane, or at RUN_FINISHED); it must not be closed
	// with an end event, which would find it already closed.
	Chunk bool
}

// OpenItems describes the state of the run a Verifier is following.
type OpenItems struct {
	// Run is set while a run is active: RUN_STARTED was seen and neither
	// RUN_FINISHED nor RUN_ERROR has followed.
	Run bool
	// ThreadID and RunID are the last RUN_STARTED's.
	ThreadID, RunID string
	// Items are what is open, in the order it was opened; closing them in
	// reverse order closes inner things first.
	Items []OpenItem
}

// Verifier checks a stream of events against the AG-UI 1.1 sequence rules,
// one event at a time. It serves both ends: a server can check what it
// emits, a client what it receives. It checks sequence only; whether each
// event is well formed is Validate's job.
//
// The rules: the first event is RUN_STARTED or RUN_ERROR; runs do not nest;
// after RUN_FINISHED only RUN_STARTED or a late RUN_ERROR, after RUN_ERROR
// only RUN_STARTED; text messages, tool calls, reasoning messages and
// reasoning spans are bracketed by start and end events matched by id
// (re-opening a closed id is allowed and continues it), steps by name and
// owner; RUN_FINISHED is rejected while any of them, or a subagent, is
// open; a continuation or end event whose subagentRunId disagrees with its
// opener's is rejected (an absent one always agrees); SUBAGENT_STARTED
// needs a name and a fresh id whose parent, if given, is active, and
// SUBAGENT_FINISHED and SUBAGENT_ERROR an active id. META events are not
// part of any run and are accepted anywhere.
//
// Chunks (TEXT_MESSAGE_CHUNK, TOOL_CALL_CHUNK, REASONING_MESSAGE_CHUNK) are
// checked as the start, content and end events they stand for. Chunk
// streams run in lanes, one per owner (subagentRunId, or none); each lane
// has at most one open chunk stream. The chunk that opens a stream must
// carry its id (and a tool call's name); a continuation may omit the id,
// and may repeat opener fields only with the same values. An untagged chunk
// without an id continues the one open stream of its kind, whatever its
// lane, and is ambiguous if there are several. A lane's stream is closed by
// a chunk opening another stream in that lane, by any other event of the
// lane except RAW (including CUSTOM), by the subagent's SUBAGENT_FINISHED
// or SUBAGENT_ERROR, and in every lane by RUN_STARTED, RUN_FINISHED,
// RUN_ERROR and MESSAGES_SNAPSHOT. An event's lane is its subagentRunId,
// or the agent's own lane when it has none.
//
// The zero value is not ready for use; call NewVerifier. A Verifier is not
// safe for concurrent use.
type Verifier struct {
	n     int // events checked
	phase runPhase
	seq   uint64

	threadID, runID string

	text      map[string]*verifierEntry // open text messages by id
	tools     map[string]*verifierEntry // open tool calls by id
	reasoning map[string]*verifierEntry // open reasoning messages by id
	spans     map[string]*verifierEntry // open reasoning spans by id
	steps     map[verifierStep]*verifierEntry
	subagents map[string]*verifierEntry // active subagents by id
	finished  map[string]bool           // subagents that ended in this run

	owners     map[string]string // message id → owner, for every message seen
	toolOwners map[string]string // tool call id → owner

	chunks chunkLanes
}

type runPhase uint8

const (
	phaseNone runPhase = iota
	phaseActive
	phaseFinished
	phaseErrored
)

type verifierEntry struct {
	owner string
	seq   uint64
	chunk bool
}

type verifierStep struct{ owner, name string }

// NewVerifier returns a Verifier expecting the start of a stream.
func NewVerifier() *Verifier {
	v := &Verifier{
		owners:     map[string]string{},
		toolOwners: map[string]string{},
		chunks:     chunkLanes{open: map[string]*chunkStream{}},
	}
	v.resetRun()
	return v
}

func (v *Verifier) resetRun() {
	v.text = map[string]*verifierEntry{}
	v.tools = map[string]*verifierEntry{}
	v.reasoning = map[string]*verifierEntry{}
	v.spans = map[string]*verifierEntry{}
	v.steps = map[verifierStep]*verifierEntry{}
	v.subagents = map[string]*verifierEntry{}
	v.finished = map[string]bool{}
	clear(v.chunks.open)
}

// subagentActive reports whether the subagent run id has started and not
// yet finished or failed.
func (v *Verifier) subagentActive(id string) bool {
	_, ok := v.subagents[id]
	return ok
}

// openID returns the id of the item of kind that owner has open, not a chunk
// stream; the stream builder asks this before every text fragment, so it
// looks in one map and allocates nothing.
func (v *Verifier) openID(kind OpenKind, owner string) (string, bool) {
	var m map[string]*verifierEntry
	switch kind {
	case OpenTextMessage:
		m = v.text
	case OpenReasoningMessage:
		m = v.reasoning
	case OpenReasoning:
		m = v.spans
	case OpenToolCall:
		m = v.tools
	default:
		for _, it := range v.Open().Items {
			if it.Kind == kind && it.SubagentRunID == owner && !it.Chunk {
				return it.ID, true
			}
		}
		return "", false
	}
	for id, e := range m {
		if e.owner == owner && !e.chunk {
			return id, true
		}
	}
	return "", false
}

// Open reports what is open in the current run.
func (v *Verifier) Open() OpenItems {
	o := OpenItems{Run: v.phase == phaseActive, ThreadID: v.threadID, RunID: v.runID}
	type ordered struct {
		item OpenItem
		seq  uint64
	}
	var all []ordered
	add := func(kind OpenKind, id string, e *verifierEntry) {
		all = append(all, ordered{OpenItem{Kind: kind, ID: id, SubagentRunID: e.owner, Chunk: e.chunk}, e.seq})
	}
	for id, e := range v.text {
		add(OpenTextMessage, id, e)
	}
	for id, e := range v.tools {
		add(OpenToolCall, id, e)
	}
	for id, e := range v.reasoning {
		add(OpenReasoningMessage, id, e)
	}
	for id, e := range v.spans {
		add(OpenReasoning, id, e)
	}
	for k, e := range v.steps {
		add(OpenStep, k.name, e)
	}
	for id, e := range v.subagents {
		add(OpenSubagent, id, e)
	}
	slices.SortFunc(all, func(a, b ordered) int {
		switch {
		case a.seq < b.seq:
			return -1
		case a.seq > b.seq:
			return 1
		}
		return 0
	})
	for _, x := range all {
		o.Items = append(o.Items, x.item)
	}
	return o
}

// Check checks the next event of the stream. It returns a *SequenceError
// if the event breaks a rule, and then leaves the Verifier as it was, so
// the event can be dropped and checking can go on; otherwise it records
// what the event opens and closes.
func (v *Verifier) Check(ev agui.Event) error {
	idx := v.n
	v.n++
	fail := func(rule, format string, args ...any) error {
		return &SequenceError{Index: idx, Type: ev.Type(), Rule: rule, Msg: fmt.Sprintf(format, args...)}
	}
	t := ev.Type()
	if t == agui.EventTypeMeta {
		return nil
	}

	// The run lifecycle.
	switch v.phase {
	case phaseNone:
		if t != agui.EventTypeRunStarted && t != agui.EventTypeRunError {
			return fail(RuleFirstEvent, "First event must be 'RUN_STARTED' (or 'RUN_ERROR'), not '%s'", t)
		}
	case phaseActive:
		if t == agui.EventTypeRunStarted {
			return fail(RuleNestedRun, "Cannot send 'RUN_STARTED' while a run is still active. The previous run must be finished with 'RUN_FINISHED' before starting a new run")
		}
	case phaseFinished:
		if t != agui.EventTypeRunStarted && t != agui.EventTypeRunError {
			return fail(RuleAfterFinished, "Cannot send event type '%s': The run has already finished with 'RUN_FINISHED'. Start a new run with 'RUN_STARTED'", t)
		}
	case phaseErrored:
		if t != agui.EventTypeRunStarted {
			return fail(RuleAfterError, "Cannot send event type '%s': The run has already errored with 'RUN_ERROR'. No further events can be sent", t)
		}
	}

	// Chunk streams the event closes implicitly, or the stream a chunk
	// belongs to. Closes are applied now and undone if the event fails.
	step, cerr := v.chunks.resolve(ev)
	if cerr != nil {
		return fail(cerr.rule, "%s", cerr.msg)
	}
	undo := v.applyCloses(step.closed)
	if err := v.check(ev, step, fail); err != nil {
		undo()
		return err
	}
	v.chunks.commit(step)
	v.record(ev, step)
	return nil
}

// applyCloses ends the chunk streams a step closes and returns how to
// restore them.
func (v *Verifier) applyCloses(closed []*chunkStream) (undo func()) {
	if len(closed) == 0 {
		return func() {} // the common case: nothing to close, nothing to allocate
	}
	type saved struct {
		m  map[string]*verifierEntry
		id string
		e  *verifierEntry
		s  *chunkStream
	}
	var done []saved
	for _, s := range closed {
		m := v.chunkMap(s.kind)
		done = append(done, saved{m, s.id, m[s.id], s})
		if e := m[s.id]; e != nil && e.chunk {
			delete(m, s.id)
		}
		delete(v.chunks.open, s.owner)
	}
	return func() {
		for _, d := range done {
			if d.e != nil {
				d.m[d.id] = d.e
			}
			v.chunks.open[d.s.owner] = d.s
		}
	}
}

func (v *Verifier) chunkMap(k chunkKind) map[string]*verifierEntry {
	switch k {
	case chunkText:
		return v.text
	case chunkTool:
		return v.tools
	}
	return v.reasoning
}

func tagOf(a agui.Attributable) *string { return a.SubagentRunID }

func ownerName(owner string) string {
	if owner == "" {
		return "the agent itself"
	}
	return "subagent '" + owner + "'"
}

// check applies every rule that does not concern the run lifecycle or
// chunk lanes, without changing anything.
func (v *Verifier) check(ev agui.Event, step chunkStep, fail func(rule, format string, args ...any) error) error {
	// opening checks a start of a text message, reasoning message or tool
	// call (explicit, or by a chunk).
	opening := func(kind string, m map[string]*verifierEntry, id string, tag *string, known map[string]string) error {
		if m[id] != nil {
			return fail(RuleAlreadyOpen, "Cannot send '%s' event: A %s with ID '%s' is already in progress. Complete it with the end event first", ev.Type(), kind, id)
		}
		if o, ok := known[id]; ok && tag != nil && *tag != o {
			return fail(RuleAttributionMismatch, "subagentRunId '%s' does not match the %s '%s' opener's owner, %s", *tag, kind, id, ownerName(o))
		}
		return nil
	}
	continuing := func(kind string, m map[string]*verifierEntry, id string, tag *string, end bool) error {
		e := m[id]
		if e == nil {
			rule := RuleContentWithoutStart
			if end {
				rule = RuleEndWithoutStart
			}
			return fail(rule, "Cannot send '%s' event: No active %s found with ID '%s'. Start it first", ev.Type(), kind, id)
		}
		if tag != nil && *tag != e.owner {
			return fail(RuleAttributionMismatch, "subagentRunId '%s' does not match the %s '%s' opener's owner, %s", *tag, kind, id, ownerName(e.owner))
		}
		return nil
	}
	span := func(id string, tag *string, end bool) error {
		e := v.spans[id]
		if !end {
			if e != nil {
				return fail(RuleAlreadyOpen, "Cannot send 'REASONING_START' event: A reasoning span with ID '%s' is already in progress", id)
			}
			return nil
		}
		if e == nil {
			return fail(RuleEndWithoutStart, "Cannot send 'REASONING_END' event: No active reasoning span found with ID '%s'", id)
		}
		if tag != nil && *tag != e.owner {
			return fail(RuleAttributionMismatch, "subagentRunId '%s' does not match the reasoning span '%s' opener's owner, %s", *tag, id, ownerName(e.owner))
		}
		return nil
	}

	switch e := ev.(type) {
	case *agui.RunFinishedEvent:
		return v.checkNothingOpen(fail)
	case *agui.TextMessageStartEvent:
		return opening("text message", v.text, e.MessageID, tagOf(e.Attributable), v.owners)
	case *agui.TextMessageContentEvent:
		return continuing("text message", v.text, e.MessageID, tagOf(e.Attributable), false)
	case *agui.TextMessageEndEvent:
		return continuing("text message", v.text, e.MessageID, tagOf(e.Attributable), true)
	case *agui.ReasoningMessageStartEvent:
		return opening("reasoning message", v.reasoning, e.MessageID, tagOf(e.Attributable), v.owners)
	case *agui.ReasoningMessageContentEvent:
		return continuing("reasoning message", v.reasoning, e.MessageID, tagOf(e.Attributable), false)
	case *agui.ReasoningMessageEndEvent:
		return continuing("reasoning message", v.reasoning, e.MessageID, tagOf(e.Attributable), true)
	case *agui.ToolCallStartEvent:
		if err := opening("tool call", v.tools, e.ToolCallID, tagOf(e.Attributable), v.toolOwners); err != nil {
			return err
		}
		return v.checkToolParent(e.ParentMessageID, tagOf(e.Attributable), e.ToolCallID, fail)
	case *agui.ToolCallArgsEvent:
		return continuing("tool call", v.tools, e.ToolCallID, tagOf(e.Attributable), false)
	case *agui.ToolCallEndEvent:
		return continuing("tool call", v.tools, e.ToolCallID, tagOf(e.Attributable), true)
	case *agui.ReasoningStartEvent:
		return span(e.MessageID, tagOf(e.Attributable), false)
	case *agui.ReasoningEndEvent:
		return span(e.MessageID, tagOf(e.Attributable), true)
	case *agui.StepStartedEvent:
		k := verifierStep{ownerOfTag(tagOf(e.Attributable)), e.StepName}
		if v.steps[k] != nil {
			return fail(RuleAlreadyOpen, "Step \"%s\" is already active for %s", e.StepName, ownerName(k.owner))
		}
	case *agui.StepFinishedEvent:
		k := verifierStep{ownerOfTag(tagOf(e.Attributable)), e.StepName}
		if v.steps[k] == nil {
			for o := range v.steps {
				if o.name == e.StepName {
					return fail(RuleEndWithoutStart, "Cannot send 'STEP_FINISHED' for step \"%s\" as %s: it is open under %s. A step must be finished by whoever started it", e.StepName, ownerName(k.owner), ownerName(o.owner))
				}
			}
			return fail(RuleEndWithoutStart, "Cannot send 'STEP_FINISHED' for step \"%s\" that was not started", e.StepName)
		}
	case *agui.SubagentStartedEvent:
		switch {
		case e.SubagentRunID == "":
			return fail(RuleSubagentInvalid, "SUBAGENT_STARTED must carry a subagentRunId")
		case e.Name == "":
			return fail(RuleSubagentInvalid, "SUBAGENT_STARTED '%s' must carry a name", e.SubagentRunID)
		case v.subagents[e.SubagentRunID] != nil:
			return fail(RuleSubagentActive, "Subagent '%s' is already active", e.SubagentRunID)
		case v.finished[e.SubagentRunID]:
			return fail(RuleSubagentReused, "Subagent '%s' has already ended in this run; a subagentRunId names one invocation", e.SubagentRunID)
		case e.ParentSubagentRunID != nil && v.subagents[*e.ParentSubagentRunID] == nil:
			return fail(RuleSubagentUnknownParent, "Subagent '%s' names parent '%s', which is not an active subagent", e.SubagentRunID, *e.ParentSubagentRunID)
		}
	case *agui.SubagentFinishedEvent:
		if v.subagents[e.SubagentRunID] == nil {
			return fail(RuleSubagentNotActive, "Cannot send 'SUBAGENT_FINISHED' for subagent '%s', which is not active", e.SubagentRunID)
		}
	case *agui.SubagentErrorEvent:
		if v.subagents[e.SubagentRunID] == nil {
			return fail(RuleSubagentNotActive, "Cannot send 'SUBAGENT_ERROR' for subagent '%s', which is not active", e.SubagentRunID)
		}

	case *agui.TextMessageChunkEvent:
		return v.checkChunk(ev, step, tagOf(e.Attributable), fail, func(s *chunkStream) error {
			if e.Role != nil && *e.Role != s.role {
				return fail(RuleChunkConflict, "TEXT_MESSAGE_CHUNK role '%s' does not match the open stream's role '%s' for message '%s'", *e.Role, s.role, s.id)
			}
			if e.Name != nil && (s.name == nil || *s.name != *e.Name) {
				return fail(RuleChunkConflict, "TEXT_MESSAGE_CHUNK name '%s' does not match the open stream's name for message '%s'", *e.Name, s.id)
			}
			return nil
		})
	case *agui.ToolCallChunkEvent:
		return v.checkChunk(ev, step, tagOf(e.Attributable), fail, func(s *chunkStream) error {
			if e.ToolCallName != nil && *e.ToolCallName != s.toolName {
				return fail(RuleChunkConflict, "TOOL_CALL_CHUNK toolCallName '%s' does not match the open stream's toolCallName '%s' for tool call '%s'", *e.ToolCallName, s.toolName, s.id)
			}
			if e.ParentMessageID != nil && (s.parent == nil || *s.parent != *e.ParentMessageID) {
				return fail(RuleChunkConflict, "TOOL_CALL_CHUNK parentMessageId '%s' does not match the open stream's parentMessageId for tool call '%s'", *e.ParentMessageID, s.id)
			}
			return nil
		})
	case *agui.ReasoningMessageChunkEvent:
		return v.checkChunk(ev, step, tagOf(e.Attributable), fail, func(*chunkStream) error { return nil })
	}
	return nil
}

// checkToolParent: a tool call's owner must agree with its parent message's.
func (v *Verifier) checkToolParent(parent, tag *string, id string, fail func(rule, format string, args ...any) error) error {
	if parent == nil || tag == nil {
		return nil
	}
	if o, ok := v.owners[*parent]; ok && o != *tag {
		return fail(RuleAttributionMismatch, "subagentRunId '%s' of tool call '%s' does not match the owner of its parent message '%s', %s", *tag, id, *parent, ownerName(o))
	}
	return nil
}

func (v *Verifier) checkChunk(ev agui.Event, step chunkStep, tag *string, fail func(rule, format string, args ...any) error, agree func(*chunkStream) error) error {
	s := step.stream
	if !step.opened {
		return agree(s)
	}
	switch s.kind {
	case chunkText:
		if v.text[s.id] != nil {
			return fail(RuleAlreadyOpen, "Cannot send 'TEXT_MESSAGE_CHUNK' event: A text message with ID '%s' is already in progress", s.id)
		}
		if o, ok := v.owners[s.id]; ok && tag != nil && *tag != o {
			return fail(RuleAttributionMismatch, "subagentRunId '%s' does not match the text message '%s' opener's owner, %s", *tag, s.id, ownerName(o))
		}
	case chunkReasoning:
		if v.reasoning[s.id] != nil {
			return fail(RuleAlreadyOpen, "Cannot send 'REASONING_MESSAGE_CHUNK' event: A reasoning message with ID '%s' is already in progress", s.id)
		}
		if o, ok := v.owners[s.id]; ok && tag != nil && *tag != o {
			return fail(RuleAttributionMismatch, "subagentRunId '%s' does not match the reasoning message '%s' opener's owner, %s", *tag, s.id, ownerName(o))
		}
	case chunkTool:
		if s.toolName == "" {
			return fail(RuleChunkMissingName, "First TOOL_CALL_CHUNK must have a toolCallName (tool call '%s')", s.id)
		}
		if v.tools[s.id] != nil {
			return fail(RuleAlreadyOpen, "Cannot send 'TOOL_CALL_CHUNK' event: A tool call with ID '%s' is already in progress", s.id)
		}
		if o, ok := v.toolOwners[s.id]; ok && tag != nil && *tag != o {
			return fail(RuleAttributionMismatch, "subagentRunId '%s' does not match the tool call '%s' opener's owner, %s", *tag, s.id, ownerName(o))
		}
		return v.checkToolParent(s.parent, tag, s.id, fail)
	}
	return nil
}

func (v *Verifier) checkNothingOpen(fail func(rule, format string, args ...any) error) error {
	ids := func(m map[string]*verifierEntry) string {
		var out []string
		for id := range m {
			out = append(out, id)
		}
		slices.Sort(out)
		return strings.Join(out, ", ")
	}
	if len(v.steps) > 0 {
		var names []string
		for k := range v.steps {
			names = append(names, k.name)
		}
		slices.Sort(names)
		return fail(RuleOpenAtFinish, "Cannot send 'RUN_FINISHED' while steps are still active: %s", strings.Join(names, ", "))
	}
	for _, c := range []struct {
		what string
		m    map[string]*verifierEntry
	}{
		{"text messages", v.text},
		{"tool calls", v.tools},
		{"reasoning messages", v.reasoning},
		{"reasoning spans", v.spans},
		{"subagents", v.subagents},
	} {
		if len(c.m) > 0 {
			return fail(RuleOpenAtFinish, "Cannot send 'RUN_FINISHED' while %s are still active: %s", c.what, ids(c.m))
		}
	}
	return nil
}

func ownerOfTag(tag *string) string {
	if tag == nil {
		return ""
	}
	return *tag
}

// record updates the state for an event that passed every check.
func (v *Verifier) record(ev agui.Event, step chunkStep) {
	open := func(m map[string]*verifierEntry, id, owner string, chunk bool) {
		v.seq++
		m[id] = &verifierEntry{owner: owner, seq: v.seq, chunk: chunk}
	}
	// owner resolves an opener's owner: its tag, else what is known of the
	// id, else the agent itself.
	owner := func(tag *string, known map[string]string, id string) string {
		if tag != nil {
			return *tag
		}
		return known[id]
	}
	switch e := ev.(type) {
	case *agui.RunStartedEvent:
		v.resetRun()
		v.phase = phaseActive
		v.threadID, v.runID = e.ThreadID, e.RunID
		if e.Input != nil {
			v.seedOwners(e.Input.Messages)
		}
	case *agui.RunFinishedEvent:
		v.phase = phaseFinished
	case *agui.RunErrorEvent:
		v.resetRun()
		v.phase = phaseErrored
	case *agui.MessagesSnapshotEvent:
		v.seedOwners(e.Messages)
	case *agui.TextMessageStartEvent:
		o := owner(tagOf(e.Attributable), v.owners, e.MessageID)
		v.owners[e.MessageID] = o
		open(v.text, e.MessageID, o, false)
	case *agui.TextMessageEndEvent:
		delete(v.text, e.MessageID)
	case *agui.ReasoningMessageStartEvent:
		o := owner(tagOf(e.Attributable), v.owners, e.MessageID)
		v.owners[e.MessageID] = o
		open(v.reasoning, e.MessageID, o, false)
	case *agui.ReasoningMessageEndEvent:
		delete(v.reasoning, e.MessageID)
	case *agui.ToolCallStartEvent:
		v.openTool(e.ToolCallID, tagOf(e.Attributable), e.ParentMessageID, false)
	case *agui.ToolCallEndEvent:
		delete(v.tools, e.ToolCallID)
	case *agui.ToolCallResultEvent:
		v.owners[e.MessageID] = ownerOfTag(tagOf(e.Attributable))
	case *agui.ActivitySnapshotEvent:
		if _, ok := v.owners[e.MessageID]; !ok {
			v.owners[e.MessageID] = ownerOfTag(tagOf(e.Attributable))
		}
	case *agui.ReasoningStartEvent:
		open(v.spans, e.MessageID, ownerOfTag(tagOf(e.Attributable)), false)
	case *agui.ReasoningEndEvent:
		delete(v.spans, e.MessageID)
	case *agui.StepStartedEvent:
		v.seq++
		v.steps[verifierStep{ownerOfTag(tagOf(e.Attributable)), e.StepName}] = &verifierEntry{owner: ownerOfTag(tagOf(e.Attributable)), seq: v.seq}
	case *agui.StepFinishedEvent:
		delete(v.steps, verifierStep{ownerOfTag(tagOf(e.Attributable)), e.StepName})
	case *agui.SubagentStartedEvent:
		open(v.subagents, e.SubagentRunID, ownerOfTag(e.ParentSubagentRunID), false)
	case *agui.SubagentFinishedEvent:
		delete(v.subagents, e.SubagentRunID)
		v.finished[e.SubagentRunID] = true
	case *agui.SubagentErrorEvent:
		delete(v.subagents, e.SubagentRunID)
		v.finished[e.SubagentRunID] = true
	case *agui.TextMessageChunkEvent, *agui.ReasoningMessageChunkEvent, *agui.ToolCallChunkEvent:
		if !step.opened {
			return
		}
		s := step.stream
		switch s.kind {
		case chunkText:
			o := owner(tagOf(attributableOf(ev)), v.owners, s.id)
			v.owners[s.id] = o
			open(v.text, s.id, o, true)
		case chunkReasoning:
			o := owner(tagOf(attributableOf(ev)), v.owners, s.id)
			v.owners[s.id] = o
			open(v.reasoning, s.id, o, true)
		case chunkTool:
			v.openTool(s.id, tagOf(attributableOf(ev)), s.parent, true)
		}
	}
}

func (v *Verifier) openTool(id string, tag, parent *string, chunk bool) {
	o, known := "", false
	switch {
	case tag != nil:
		o, known = *tag, true
	case parent != nil:
		o, known = v.owners[*parent]
	}
	if !known {
		o = v.toolOwners[id]
	}
	v.toolOwners[id] = o
	if parent != nil {
		if _, ok := v.owners[*parent]; !ok {
			v.owners[*parent] = o
		}
	}
	v.seq++
	v.tools[id] = &verifierEntry{owner: o, seq: v.seq, chunk: chunk}
}

// seedOwners records the owner of every message (and tool call) in a
// message list.
func (v *Verifier) seedOwners(msgs []agui.Message) {
	for _, m := range msgs {
		id, tag := messageIdentity(m)
		o := ownerOfTag(tag)
		v.owners[id] = o
		if a, ok := m.(*agui.AssistantMessage); ok {
			for _, tc := range a.ToolCalls {
				v.toolOwners[tc.ID] = o
			}
		}
	}
}

// messageIdentity returns a message's id and subagent tag.
func messageIdentity(m agui.Message) (id string, tag *string) {
	switch m := m.(type) {
	case *agui.DeveloperMessage:
		return m.ID, m.SubagentRunID
	case *agui.SystemMessage:
		return m.ID, m.SubagentRunID
	case *agui.AssistantMessage:
		return m.ID, m.SubagentRunID
	case *agui.UserMessage:
		return m.ID, m.SubagentRunID
	case *agui.ToolMessage:
		return m.ID, m.SubagentRunID
	case *agui.ActivityMessage:
		return m.ID, m.SubagentRunID
	case *agui.ReasoningMessage:
		return m.ID, m.SubagentRunID
	}
	return "", nil
}

// attributableOf returns the subagent attribution of an event that has
// one, and the zero value otherwise.
func attributableOf(ev agui.Event) agui.Attributable {
	switch e := ev.(type) {
	case *agui.TextMessageStartEvent:
		return e.Attributable
	case *agui.TextMessageContentEvent:
		return e.Attributable
	case *agui.TextMessageEndEvent:
		return e.Attributable
	case *agui.TextMessageChunkEvent:
		return e.Attributable
	case *agui.ToolCallStartEvent:
		return e.Attributable
	case *agui.ToolCallArgsEvent:
		return e.Attributable
	case *agui.ToolCallEndEvent:
		return e.Attributable
	case *agui.ToolCallChunkEvent:
		return e.Attributable
	case *agui.ToolCallResultEvent:
		return e.Attributable
	case *agui.StateSnapshotEvent:
		return e.Attributable
	case *agui.StateDeltaEvent:
		return e.Attributable
	case *agui.ActivitySnapshotEvent:
		return e.Attributable
	case *agui.ActivityDeltaEvent:
		return e.Attributable
	case *agui.RawEvent:
		return e.Attributable
	case *agui.CustomEvent:
		return e.Attributable
	case *agui.StepStartedEvent:
		return e.Attributable
	case *agui.StepFinishedEvent:
		return e.Attributable
	case *agui.ReasoningStartEvent:
		return e.Attributable
	case *agui.ReasoningMessageStartEvent:
		return e.Attributable
	case *agui.ReasoningMessageContentEvent:
		return e.Attributable
	case *agui.ReasoningMessageEndEvent:
		return e.Attributable
	case *agui.ReasoningMessageChunkEvent:
		return e.Attributable
	case *agui.ReasoningEndEvent:
		return e.Attributable
	case *agui.ReasoningEncryptedValueEvent:
		return e.Attributable
	}
	return agui.Attributable{}
}

// Chunk lanes, shared by the Verifier and the Conversation.

type chunkKind uint8

const (
	chunkText chunkKind = iota + 1
	chunkTool
	chunkReasoning
)

func (k chunkKind) String() string {
	switch k {
	case chunkText:
		return "TEXT_MESSAGE_CHUNK"
	case chunkTool:
		return "TOOL_CALL_CHUNK"
	}
	return "REASONING_MESSAGE_CHUNK"
}

// chunkStream is an open chunk stream: what its opener established.
type chunkStream struct {
	kind     chunkKind
	id       string
	owner    string               // the lane
	role     agui.TextMessageRole // text: the role, assistant when the opener had none
	name     *string              // text: the author's name
	toolName string               // tool: toolCallName
	parent   *string              // tool: parentMessageId
}

// chunkLanes holds the open chunk stream of each lane (owner).
type chunkLanes struct {
	open map[string]*chunkStream
}

// chunkStep is what an event does to the chunk lanes.
type chunkStep struct {
	closed []*chunkStream // streams the event ends before it takes effect
	stream *chunkStream   // for a chunk: the stream it belongs to
	opened bool           // for a chunk: it opens stream
}

type chunkError struct{ rule, msg string }

// resolve works out what ev does to the lanes, without changing them.
func (l *chunkLanes) resolve(ev agui.Event) (chunkStep, *chunkError) {
	var st chunkStep
	closeLane := func(owner string) {
		if s := l.open[owner]; s != nil {
			st.closed = append(st.closed, s)
		}
	}
	closeAll := func() {
		owners := make([]string, 0, len(l.open))
		for o := range l.open {
			owners = append(owners, o)
		}
		slices.Sort(owners)
		for _, o := range owners {
			closeLane(o)
		}
	}
	var (
		kind    chunkKind
		id, tag *string
	)
	switch e := ev.(type) {
	case *agui.RawEvent, *agui.MetaEvent:
		return st, nil
	case *agui.RunStartedEvent, *agui.RunFinishedEvent, *agui.RunErrorEvent, *agui.MessagesSnapshotEvent:
		closeAll()
		return st, nil
	case *agui.SubagentStartedEvent:
		closeLane(e.SubagentRunID)
		return st, nil
	case *agui.SubagentFinishedEvent:
		closeLane(e.SubagentRunID)
		return st, nil
	case *agui.SubagentErrorEvent:
		closeLane(e.SubagentRunID)
		return st, nil
	case *agui.TextMessageChunkEvent:
		kind, id, tag = chunkText, e.MessageID, e.SubagentRunID
	case *agui.ToolCallChunkEvent:
		kind, id, tag = chunkTool, e.ToolCallID, e.SubagentRunID
	case *agui.ReasoningMessageChunkEvent:
		kind, id, tag = chunkReasoning, e.MessageID, e.SubagentRunID
	default:
		closeLane(ownerOfTag(attributableOf(ev).SubagentRunID))
		return st, nil
	}

	lane := ownerOfTag(tag)
	idName := "messageId"
	if kind == chunkTool {
		idName = "toolCallId"
	}
	// A continuation of an open stream?
	if id != nil {
		if tag != nil {
			if s := l.open[lane]; s != nil && s.kind == kind && s.id == *id {
				st.stream = s
				return st, nil
			}
		} else {
			for _, s := range l.open {
				if s.kind == kind && s.id == *id {
					st.stream = s
					return st, nil
				}
			}
		}
	} else {
		if tag != nil {
			if s := l.open[lane]; s != nil && s.kind == kind {
				st.stream = s
				return st, nil
			}
			return st, &chunkError{RuleChunkMissingID, fmt.Sprintf("First %s must have a %s (no %s stream is open for %s)", kind, idName, kind, ownerName(lane))}
		}
		var found []*chunkStream
		for _, s := range l.open {
			if s.kind == kind {
				found = append(found, s)
			}
		}
		switch len(found) {
		case 0:
			return st, &chunkError{RuleChunkMissingID, fmt.Sprintf("First %s must have a %s", kind, idName)}
		case 1:
			st.stream = found[0]
			return st, nil
		}
		return st, &chunkError{RuleChunkAmbiguous, fmt.Sprintf("%s without %s or subagentRunId is ambiguous: %d %s streams are open in different lanes", kind, idName, len(found), kind)}
	}

	// It opens a new stream in its lane, ending the one open there.
	closeLane(lane)
	s := &chunkStream{kind: kind, id: *id, owner: lane}
	switch e := ev.(type) {
	case *agui.TextMessageChunkEvent:
		s.role = agui.TextMessageRoleAssistant
		if e.Role != nil {
			s.role = *e.Role
		}
		s.name = e.Name
	case *agui.ToolCallChunkEvent:
		if e.ToolCallName != nil {
			s.toolName = *e.ToolCallName
		}
		s.parent = e.ParentMessageID
	}
	st.stream, st.opened = s, true
	return st, nil
}

// commit applies a resolved step.
func (l *chunkLanes) commit(st chunkStep) {
	for _, s := range st.closed {
		if l.open[s.owner] == s {
			delete(l.open, s.owner)
		}
	}
	if st.opened {
		l.open[st.stream.owner] = st.stream
	}
}
