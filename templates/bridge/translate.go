package bridge

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/url"
	"strings"

	a2a "github.com/agui-gen/agui-gen/gen/a2a"
	agui "github.com/agui-gen/agui-gen/gen/agui"
)

// stateKey is the member of the AG-UI shared state that holds the A2A
// task's view: {"taskId", "contextId", "state", "artifacts": {id: {name,
// parts}}}. The artifacts' data and files are there; their text streams
// as assistant messages.
const stateKey = "a2a"

// partKind is what a part is to the bridge.
type partKind uint8

const (
	partOther      partKind = iota // data or a file: for the view
	partText                       // the user reads it
	partThinking                   // hinted reasoning
	partToolCall                   // a call, in either convention
	partToolResult                 // a call's result
	partHidden                     // the bridge's own (interrupts, resume entries)
	partCarried                    // an AG-UI event carried verbatim (CarriedPart)
)

// classify tells what p is, decoding its data once.
func classify(p *a2a.Part) (partKind, ToolCall, ToolResult) {
	switch p.Content.(type) {
	case *a2a.PartText:
		if IsThinking(p) {
			return partThinking, ToolCall{}, ToolResult{}
		}
		return partText, ToolCall{}, ToolResult{}
	case *a2a.PartData:
		if h, ok := HintOf(p); ok && h.EventType == EventCarried {
			return partCarried, ToolCall{}, ToolResult{}
		}
		td, h, ok := readToolData(p)
		if !ok {
			break
		}
		if td.Type == dataInterrupts || td.Type == dataResume {
			return partHidden, ToolCall{}, ToolResult{}
		}
		if call, ok := td.call(h); ok {
			return partToolCall, call, ToolResult{}
		}
		if res, ok := td.result(h); ok {
			return partToolResult, ToolCall{}, res
		}
	}
	return partOther, ToolCall{}, ToolResult{}
}

// translator turns the responses of one A2A stream into the events of an
// AG-UI run.
type translator struct {
	s *agui.Stream
	// base is the shared state the run started with, which the task view
	// joins; nil when it is not an object, and the view is left out.
	base map[string]json.RawMessage
	// replay says to show what a task snapshot already holds (its
	// artifacts' text, its status message): for a new task, or a
	// subscription catching up; not for a run that continues a task,
	// whose earlier runs showed it.
	replay bool

	taskID, contextID string
	state             a2a.TaskState
	status            *a2a.Message // a clone of the message of the latest status, if it had one
	viewSent          bool
	inView            map[string]bool // artifacts in the view

	// One text message is open at a time: textID, streaming the artifact
	// textSource ("" for a message); textEnd holds what its end carries.
	textID, textSource string
	textEnd            residuals
	logger             *slog.Logger
	// streamed counts the text messages each artifact has opened in this
	// run, so a continuation gets an id of its own.
	streamed map[string]int
	// rendered holds the ids of the messages already shown: a task repeats
	// its status message, and a continued task its history.
	rendered map[string]bool
}

func newTranslator(s *agui.Stream, state json.RawMessage, replay bool, logger *slog.Logger) *translator {
	if logger == nil {
		logger = slog.Default()
	}
	t := &translator{s: s, replay: replay, inView: map[string]bool{}, streamed: map[string]int{}, rendered: map[string]bool{}, logger: logger}
	if len(state) == 0 || string(state) == "null" {
		t.base = map[string]json.RawMessage{}
	} else if json.Unmarshal(state, &t.base) != nil {
		t.base = nil
	}
	return t
}

// apply renders one response of a stream.
func (t *translator) apply(resp *a2a.StreamResponse) error {
	switch p := resp.Payload.(type) {
	case *a2a.StreamResponseTask:
		return t.task(p.Task, false)
	case *a2a.StreamResponseMessage:
		return t.message(p.Message)
	case *a2a.StreamResponseStatusUpdate:
		u := p.StatusUpdate
		t.identify(u.TaskID, u.ContextID)
		if err := t.sendView(nil); err != nil {
			return err
		}
		return t.setStatus(u.Status)
	case *a2a.StreamResponseArtifactUpdate:
		u := p.ArtifactUpdate
		t.identify(u.TaskID, u.ContextID)
		if err := t.sendView(nil); err != nil {
			return err
		}
		return t.artifact(u.Artifact, u.Append, u.LastChunk)
	}
	return nil
}

func (t *translator) identify(taskID, contextID string) {
	if t.taskID == "" {
		t.taskID, t.contextID = taskID, contextID
	}
}

// task renders a task: a stream's snapshot, or with whole the answer of a
// call that does not stream, whose status message is news either way.
func (t *translator) task(task *a2a.Task, whole bool) error {
	t.identify(task.ID, task.ContextID)
	if err := t.sendView(task); err != nil {
		return err
	}
	if !t.replay {
		for _, m := range task.History {
			t.rendered[m.MessageID] = true
		}
		if st := task.Status; !whole && st != nil && st.Message != nil {
			t.rendered[st.Message.MessageID] = true
		}
		return t.setStatus(task.Status)
	}
	for _, art := range task.Artifacts {
		if err := t.artifactContent(art); err != nil {
			return err
		}
		if err := t.closeText(); err != nil {
			return err
		}
	}
	return t.setStatus(task.Status)
}

// setStatus records a status and shows its message.
func (t *translator) setStatus(st *a2a.TaskStatus) error {
	if st == nil {
		return nil
	}
	changed := st.State != t.state
	// A stream may decode its next response over this one: keep a copy.
	t.state, t.status = st.State, st.Message.Clone()
	if changed && t.viewSent {
		if err := t.s.StateDelta(&agui.ReplaceOperation{Path: "/" + stateKey + "/state", Value: jsonString(st.State.String())}); err != nil {
			return err
		}
	}
	// The question of a task that needs input is text the user reads as
	// well as the interrupt's message.
	return t.message(st.Message)
}

// sendView sends the task view, once the task is known, with what a
// snapshot holds when there is one.
func (t *translator) sendView(task *a2a.Task) error {
	if t.viewSent || t.taskID == "" || t.base == nil {
		return nil
	}
	t.viewSent = true
	view := struct {
		TaskID    string         `json:"taskId"`
		ContextID string         `json:"contextId"`
		State     string         `json:"state"`
		Artifacts map[string]any `json:"artifacts"`
	}{t.taskID, t.contextID, a2a.TaskStateUnspecified.String(), map[string]any{}}
	if task != nil {
		if task.Status != nil {
			t.state = task.Status.State
			view.State = t.state.String()
		}
		for _, art := range task.Artifacts {
			if parts := viewParts(art.Parts); len(parts) > 0 {
				view.Artifacts[art.ArtifactID] = viewEntry{Name: art.Name, Parts: parts}
				t.inView[art.ArtifactID] = true
			}
		}
	}
	t.base[stateKey], _ = json.Marshal(view)
	state, _ := json.Marshal(t.base)
	return t.s.StateSnapshot(state)
}

// viewEntry is an artifact in the view.
type viewEntry struct {
	Name  string            `json:"name,omitempty"`
	Parts []json.RawMessage `json:"parts"`
}

// viewParts are the parts of an artifact the view holds: those that are
// not text, reasoning or tool calls, as ProtoJSON.
func viewParts(parts []*a2a.Part) []json.RawMessage {
	var out []json.RawMessage
	for _, p := range parts {
		if kind, _, _ := classify(p); kind == partOther {
			out = append(out, p.AppendJSON(nil))
		}
	}
	return out
}

// message renders an agent's message, once: text as an assistant message,
// thinking as reasoning, tool calls and results as theirs.
func (t *translator) message(m *a2a.Message) error {
	if m == nil || m.Role == a2a.RoleUser || t.rendered[m.MessageID] {
		return nil
	}
	if m.MessageID != "" {
		t.rendered[m.MessageID] = true
	}
	if err := t.closeText(); err != nil {
		return err
	}
	id := m.MessageID
	if id == "" {
		id = agui.NewID("msg")
	}
	for _, p := range m.Parts {
		kind, call, res := classify(p)
		if kind == partText {
			if err := t.text(id, "", p.Content.(*a2a.PartText).Text, residualsOf(p)); err != nil {
				return err
			}
			continue
		}
		if t.textID != "" {
			id = agui.NewID("msg") // what follows a tool call is another message
		}
		if err := t.part(p, kind, call, res); err != nil {
			return err
		}
	}
	return t.closeText()
}

// part renders a part that is not text: reasoning, a tool call or its
// result; others are not shown in messages.
func (t *translator) part(p *a2a.Part, kind partKind, call ToolCall, res ToolResult) error {
	switch kind {
	case partThinking:
		return t.reasoning(p.Content.(*a2a.PartText).Text, residualsOf(p))
	case partToolCall:
		return t.toolCall(call, residualsOf(p))
	case partToolResult:
		if err := t.closeText(); err != nil {
			return err
		}
		if r := residualsOf(p); r != nil {
			role := "tool"
			return t.emit(&agui.ToolCallResultEvent{MessageID: agui.NewID("msg"), ToolCallID: res.ToolCallID,
				Content: agui.TextContent(res.Content), Role: &role}, r)
		}
		return t.s.ToolResult(res.ToolCallID, res.Content)
	case partCarried:
		ev, _, err := CarriedEvent(p)
		if err != nil {
			return fmt.Errorf("bridge: an AG-UI event the agent sent does not decode: %w", err)
		}
		if err := t.closeText(); err != nil {
			return err
		}
		return t.s.Emit(ev)
	}
	return nil
}

// artifact renders an artifact update: its text streams as an assistant
// message of the artifact, reasoning and tool calls as theirs, and its
// data and files join the view.
func (t *translator) artifact(art *a2a.Artifact, appendParts, lastChunk bool) error {
	if art == nil {
		return nil
	}
	if !appendParts && t.textSource == art.ArtifactID {
		if err := t.closeText(); err != nil { // a replacement starts over
			return err
		}
	}
	if err := t.artifactContent(art); err != nil {
		return err
	}
	if parts := viewParts(art.Parts); len(parts) > 0 && t.viewSent {
		if err := t.viewArtifact(art, parts, appendParts); err != nil {
			return err
		}
	}
	if lastChunk && t.textSource == art.ArtifactID {
		return t.closeText()
	}
	return nil
}

// artifactContent renders what an artifact's parts show the user: text,
// reasoning and tool calls.
func (t *translator) artifactContent(art *a2a.Artifact) error {
	for _, p := range art.Parts {
		kind, call, res := classify(p)
		var err error
		switch kind {
		case partText:
			err = t.text("", art.ArtifactID, p.Content.(*a2a.PartText).Text, residualsOf(p))
		case partOther:
		default:
			err = t.part(p, kind, call, res)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// viewArtifact puts an artifact's view parts in the view: the artifact
// anew, or its parts appended.
func (t *translator) viewArtifact(art *a2a.Artifact, parts []json.RawMessage, appendParts bool) error {
	path := "/" + stateKey + "/artifacts/" + pointerEscape(art.ArtifactID)
	if !appendParts || !t.inView[art.ArtifactID] {
		t.inView[art.ArtifactID] = true
		value, _ := json.Marshal(viewEntry{Name: art.Name, Parts: parts})
		return t.s.StateDelta(&agui.AddOperation{Path: path, Value: value})
	}
	ops := make([]agui.JSONPatchOperation, len(parts))
	for i, p := range parts {
		ops[i] = &agui.AddOperation{Path: path + "/parts/-", Value: p}
	}
	return t.s.StateDelta(ops...)
}

// text streams delta into the open text message when it is source's (an
// artifact's), else into a new one: id for a message's text; for an
// artifact's, an id unique to this run, since an artifact's id is unique
// within its task only and the task spans runs.
//
// r holds what the events the text stands for carry beyond it: its
// start's, its content's, and its end's, for when the message closes.
func (t *translator) text(id, source, delta string, r residuals) error {
	if t.textID == "" || source == "" && t.textSource != "" || source != "" && t.textSource != source {
		if err := t.closeText(); err != nil {
			return err
		}
		if source != "" {
			id = fmt.Sprintf("%s/%s/%s", t.taskID, source, t.s.RunID())
			if n := t.streamed[source]; n > 0 {
				id = fmt.Sprintf("%s-%d", id, n)
			}
			t.streamed[source]++
		}
		role := agui.TextMessageRoleAssistant
		if err := t.emit(&agui.TextMessageStartEvent{MessageID: id, Role: &role}, r); err != nil {
			return err
		}
		t.textID, t.textSource = id, source
	}
	if r[agui.EventTypeTextMessageEnd] != nil {
		t.textEnd = r
	}
	if delta == "" && r[agui.EventTypeTextMessageContent] == nil {
		return nil // a last chunk that carries only its end's members
	}
	return t.emit(&agui.TextMessageContentEvent{MessageID: t.textID, Delta: delta}, r)
}

func (t *translator) closeText() error {
	if t.textID == "" {
		return nil
	}
	id, r := t.textID, t.textEnd
	t.textID, t.textSource, t.textEnd = "", "", nil
	return t.emit(&agui.TextMessageEndEvent{MessageID: id}, r)
}

// emit sends ev with the members r holds for its type added. Members this
// package cannot read (a newer schema's, on an older side) are left out,
// and said so.
func (t *translator) emit(ev agui.Event, r residuals) error {
	if r != nil {
		full, leftOut := r.add(ev)
		if len(leftOut) > 0 {
			t.logger.LogAttrs(context.Background(), slog.LevelWarn, "bridge: left out members an AG-UI event carried across A2A that this package cannot read",
				slog.String("type", string(ev.Type())), slog.Any("members", leftOut))
		}
		ev = full
	}
	return t.s.Emit(ev)
}

func (t *translator) reasoning(text string, r residuals) error {
	if text == "" {
		return nil
	}
	if err := t.closeText(); err != nil {
		return err
	}
	if r == nil {
		if err := t.s.Reasoning(text); err != nil {
			return err
		}
		return t.s.EndReasoning()
	}
	span, id := agui.NewID("rsn"), agui.NewID("msg")
	for _, ev := range []agui.Event{
		&agui.ReasoningStartEvent{MessageID: span},
		&agui.ReasoningMessageStartEvent{MessageID: id},
		&agui.ReasoningMessageContentEvent{MessageID: id, Delta: text},
		&agui.ReasoningMessageEndEvent{MessageID: id},
		&agui.ReasoningEndEvent{MessageID: span},
	} {
		if err := t.emit(ev, r); err != nil {
			return err
		}
	}
	return nil
}

func (t *translator) toolCall(call ToolCall, r residuals) error {
	if err := t.closeText(); err != nil {
		return err
	}
	if err := t.emit(&agui.ToolCallStartEvent{ToolCallID: call.ID, ToolCallName: call.Name}, r); err != nil {
		return err
	}
	if err := t.emit(&agui.ToolCallArgsEvent{ToolCallID: call.ID, Delta: call.Arguments}, r); err != nil {
		return err
	}
	return t.emit(&agui.ToolCallEndEvent{ToolCallID: call.ID}, r)
}

// end settles the run from the task's last state: nil for a run that
// finished (completed, canceled, or stopped for input), an error for one
// that failed.
func (t *translator) end() error {
	if err := t.closeText(); err != nil {
		return err
	}
	switch t.state {
	case a2a.TaskStateCanceled:
		t.s.MarkCancelled()
	case a2a.TaskStateFailed, a2a.TaskStateRejected:
		msg := "the A2A task " + strings.ToLower(strings.TrimPrefix(t.state.String(), "TASK_STATE_"))
		if s := messageText(t.status); s != "" {
			msg += ": " + s
		}
		return &agui.RunError{Message: msg, Code: t.state.String()}
	case a2a.TaskStateInputRequired, a2a.TaskStateAuthRequired:
		return t.s.Interrupt(t.interrupts()...)
	}
	return nil
}

// interrupts are what a task that needs input or authorization asks: the
// interrupts an AG-UI agent behind the task raised, when its message
// carries them (see Executor), else one for the whole question. Each id
// names the task, so a resume finds it with no state kept here.
func (t *translator) interrupts() []agui.Interrupt {
	prefix := interruptPrefix + url.PathEscape(t.taskID)
	if carried := carriedInterrupts(t.status); len(carried) > 0 {
		for i := range carried {
			carried[i].ID = prefix + "/" + carried[i].ID
		}
		return carried
	}
	reason := "input_required"
	if t.state == a2a.TaskStateAuthRequired {
		reason = "auth_required"
	}
	in := agui.Interrupt{ID: prefix, Reason: reason}
	if s := messageText(t.status); s != "" {
		in.Message = &s
	}
	in.Metadata, _ = json.Marshal(map[string]string{"taskId": t.taskID, "contextId": t.contextID})
	return []agui.Interrupt{in}
}

// carriedInterrupts are the AG-UI interrupts a message's data part
// carries.
func carriedInterrupts(m *a2a.Message) []agui.Interrupt {
	if m == nil {
		return nil
	}
	for _, p := range m.Parts {
		d, ok := p.Content.(*a2a.PartData)
		if !ok {
			continue
		}
		var v struct {
			Type       string           `json:"type"`
			Interrupts []agui.Interrupt `json:"interrupts"`
		}
		if json.Unmarshal(d.Data, &v) == nil && v.Type == dataInterrupts {
			return v.Interrupts
		}
	}
	return nil
}

// messageText joins the text parts of m that are not reasoning.
func messageText(m *a2a.Message) string {
	if m == nil {
		return ""
	}
	var b strings.Builder
	for _, p := range m.Parts {
		if kind, _, _ := classify(p); kind == partText {
			b.WriteString(p.Content.(*a2a.PartText).Text)
		}
	}
	return b.String()
}

func jsonString(s string) json.RawMessage {
	b, _ := json.Marshal(s)
	return b
}

// pointerEscape escapes a JSON Pointer reference token (RFC 6901).
func pointerEscape(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}
