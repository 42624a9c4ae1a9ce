package bridge

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"

	a2a "github.com/agui-gen/agui-gen/gen/a2a"
	agui "github.com/agui-gen/agui-gen/gen/agui"
)

// stateKey is the member of the AG-UI shared state that holds the A2A
// task's view: {"taskId", "contextId", "state", "artifacts": {id: {name,
// parts}}}. Artifacts of data and files land there; text streams as
// assistant messages.
const stateKey = "a2a"

// translator turns the responses of one A2A stream into the events of an
// AG-UI run.
type translator struct {
	s *agui.Stream
	// base is the shared state the run started with, which the task view
	// joins; nil when it is not an object, and the view is left out.
	base map[string]json.RawMessage

	taskID, contextID string
	state             a2a.TaskState
	status            *a2a.Message // the message of the latest status
	viewSent          bool
	artifacts         map[string]bool // artifacts in the view

	// One text message is open at a time: the one streaming source (an
	// artifact's id).
	textID, textSource string
	// streamed counts the text messages each artifact has streamed, so a
	// continuation gets an id of its own.
	streamed map[string]int
	// rendered holds the ids of the messages already shown, since a task
	// repeats its status message.
	rendered map[string]bool
	// replay says to show what a task snapshot already holds (artifacts,
	// the status message): for a subscription catching up, not for a run
	// continuing a task whose earlier runs showed it.
	replay bool
}

func newTranslator(s *agui.Stream, state json.RawMessage, replay bool) *translator {
	t := &translator{s: s, artifacts: map[string]bool{}, streamed: map[string]int{}, rendered: map[string]bool{}, replay: replay}
	if len(state) == 0 || string(state) == "null" {
		t.base = map[string]json.RawMessage{}
	} else if json.Unmarshal(state, &t.base) != nil {
		t.base = nil
	}
	return t
}

// apply renders one response.
func (t *translator) apply(resp *a2a.StreamResponse) error {
	switch p := resp.Payload.(type) {
	case *a2a.StreamResponseTask:
		return t.task(p.Task)
	case *a2a.StreamResponseMessage:
		return t.message(p.Message)
	case *a2a.StreamResponseStatusUpdate:
		u := p.StatusUpdate
		t.identify(u.TaskID, u.ContextID)
		return t.setStatus(u.Status)
	case *a2a.StreamResponseArtifactUpdate:
		u := p.ArtifactUpdate
		t.identify(u.TaskID, u.ContextID)
		if err := t.sendView(); err != nil {
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

// task renders a task snapshot: the first response of a stream, or a
// resubscription's starting point.
func (t *translator) task(task *a2a.Task) error {
	t.identify(task.ID, task.ContextID)
	if err := t.sendView(); err != nil {
		return err
	}
	if !t.replay {
		for _, art := range task.Artifacts {
			t.streamed[art.ArtifactID]++ // a later append is a continuation
		}
		for _, m := range task.History {
			t.rendered[m.MessageID] = true
		}
		if task.Status != nil && task.Status.Message != nil {
			t.rendered[task.Status.Message.MessageID] = true
		}
		return t.setStatus(task.Status)
	}
	for _, art := range task.Artifacts {
		if !t.artifacts[art.ArtifactID] && t.streamed[art.ArtifactID] == 0 {
			if err := t.artifact(art, false, true); err != nil {
				return err
			}
		}
	}
	return t.setStatus(task.Status)
}

// setStatus records a status and shows its message.
func (t *translator) setStatus(st *a2a.TaskStatus) error {
	if st == nil {
		return nil
	}
	if err := t.sendView(); err != nil {
		return err
	}
	changed := st.State != t.state
	t.state = st.State
	if changed && t.base != nil {
		if err := t.s.StateDelta(&agui.ReplaceOperation{Path: "/" + stateKey + "/state", Value: jsonString(st.State.String())}); err != nil {
			return err
		}
	}
	if st.Message != nil {
		t.status = st.Message
		// The question of a task that needs input is the interrupt's
		// message as well as text the user reads.
		return t.message(st.Message)
	}
	return nil
}

// sendView sends the task view, once the task is known.
func (t *translator) sendView() error {
	if t.viewSent || t.taskID == "" || t.base == nil {
		return nil
	}
	t.viewSent = true
	view, _ := json.Marshal(map[string]any{"taskId": t.taskID, "contextId": t.contextID,
		"state": a2a.TaskStateUnspecified.String(), "artifacts": map[string]any{}})
	t.base[stateKey] = view
	state, _ := json.Marshal(t.base)
	return t.s.StateSnapshot(state)
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
	var text strings.Builder
	flush := func() error {
		if text.Len() == 0 {
			return nil
		}
		if err := t.text(id, "", text.String()); err != nil {
			return err
		}
		text.Reset()
		id = agui.NewID("msg") // what follows a tool call is another message
		return t.closeText()
	}
	for _, p := range m.Parts {
		if hidden(p) {
			continue
		}
		if call, ok := ToolCallOf(p); ok {
			if err := flush(); err != nil {
				return err
			}
			if err := t.toolCall(call); err != nil {
				return err
			}
			continue
		}
		if res, ok := ToolResultOf(p); ok {
			if err := flush(); err != nil {
				return err
			}
			if err := t.s.ToolResult(res.ToolCallID, res.Content); err != nil {
				return err
			}
			continue
		}
		txt, ok := p.Content.(*a2a.PartText)
		if !ok {
			continue
		}
		if IsThinking(p) {
			if err := flush(); err != nil {
				return err
			}
			if err := t.reasoning(txt.Text); err != nil {
				return err
			}
			continue
		}
		text.WriteString(txt.Text)
	}
	return flush()
}

// hidden reports whether a part is for the bridge, not for the user.
func hidden(p *a2a.Part) bool {
	switch dataType(p) {
	case dataInterrupts, dataResume:
		return true
	}
	return false
}

// dataType is the type member of a data part's object, if any.
func dataType(p *a2a.Part) string {
	d, ok := p.Content.(*a2a.PartData)
	if !ok || !bytes.Contains(d.Data, []byte(`"type"`)) {
		return ""
	}
	var v struct {
		Type string `json:"type"`
	}
	_ = json.Unmarshal(d.Data, &v)
	return v.Type
}

// carriedInterrupts are the AG-UI interrupts a message's data part
// carries.
func carriedInterrupts(m *a2a.Message) []agui.Interrupt {
	if m == nil {
		return nil
	}
	for _, p := range m.Parts {
		if dataType(p) != dataInterrupts {
			continue
		}
		var v struct {
			Interrupts []agui.Interrupt `json:"interrupts"`
		}
		if json.Unmarshal(p.Content.(*a2a.PartData).Data, &v) == nil {
			return v.Interrupts
		}
	}
	return nil
}

// artifact renders an artifact update: text parts stream as an assistant
// message keyed by the artifact; data and file parts join the view.
func (t *translator) artifact(art *a2a.Artifact, appendParts, lastChunk bool) error {
	if art == nil {
		return nil
	}
	var text strings.Builder
	var other []json.RawMessage
	for _, p := range art.Parts {
		if txt, ok := p.Content.(*a2a.PartText); ok && !IsThinking(p) {
			text.WriteString(txt.Text)
			continue
		}
		other = append(other, p.AppendJSON(nil))
	}
	if !appendParts && t.textSource == art.ArtifactID {
		if err := t.closeText(); err != nil { // a replacement starts over
			return err
		}
	}
	if text.Len() > 0 {
		// An artifact id is unique within its task only.
		id := t.taskID + "/" + art.ArtifactID
		if t.textSource != art.ArtifactID {
			if n := t.streamed[art.ArtifactID]; n > 0 {
				id = fmt.Sprintf("%s-%d", id, n)
			}
		}
		if err := t.text(id, art.ArtifactID, text.String()); err != nil {
			return err
		}
	}
	if len(other) > 0 && t.base != nil {
		if err := t.viewArtifact(art, other, appendParts); err != nil {
			return err
		}
	}
	if lastChunk && t.textSource == art.ArtifactID {
		return t.closeText()
	}
	return nil
}

// viewArtifact puts an artifact's non-text parts in the view.
func (t *translator) viewArtifact(art *a2a.Artifact, parts []json.RawMessage, appendParts bool) error {
	path := "/" + stateKey + "/artifacts/" + pointerEscape(art.ArtifactID)
	if !appendParts || !t.artifacts[art.ArtifactID] {
		t.artifacts[art.ArtifactID] = true
		value, _ := json.Marshal(map[string]any{"name": art.Name, "parts": parts})
		return t.s.StateDelta(&agui.AddOperation{Path: path, Value: value})
	}
	ops := make([]agui.JSONPatchOperation, len(parts))
	for i, p := range parts {
		ops[i] = &agui.AddOperation{Path: path + "/parts/-", Value: p}
	}
	return t.s.StateDelta(ops...)
}

// text streams delta into the text message id of source ("" for a whole
// message), opening it when it is not the open one.
func (t *translator) text(id, source, delta string) error {
	if t.textID == "" || t.textSource != source || source == "" {
		if err := t.closeText(); err != nil {
			return err
		}
		if source != "" {
			t.streamed[source]++
		}
		role := agui.TextMessageRoleAssistant
		if err := t.s.Emit(&agui.TextMessageStartEvent{MessageID: id, Role: &role}); err != nil {
			return err
		}
		t.textID, t.textSource = id, source
	}
	return t.s.Emit(&agui.TextMessageContentEvent{MessageID: t.textID, Delta: delta})
}

func (t *translator) closeText() error {
	if t.textID == "" {
		return nil
	}
	id := t.textID
	t.textID, t.textSource = "", ""
	return t.s.Emit(&agui.TextMessageEndEvent{MessageID: id})
}

func (t *translator) reasoning(text string) error {
	if text == "" {
		return nil
	}
	if err := t.closeText(); err != nil {
		return err
	}
	if err := t.s.Reasoning(text); err != nil {
		return err
	}
	return t.s.EndReasoning()
}

func (t *translator) toolCall(call ToolCall) error {
	if err := t.closeText(); err != nil {
		return err
	}
	if err := t.s.Emit(&agui.ToolCallStartEvent{ToolCallID: call.ID, ToolCallName: call.Name}); err != nil {
		return err
	}
	if err := t.s.Emit(&agui.ToolCallArgsEvent{ToolCallID: call.ID, Delta: call.Arguments}); err != nil {
		return err
	}
	return t.s.Emit(&agui.ToolCallEndEvent{ToolCallID: call.ID})
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
		t.s.Cancel()
	case a2a.TaskStateFailed, a2a.TaskStateRejected:
		msg := "the A2A task " + strings.ToLower(strings.TrimPrefix(t.state.String(), "TASK_STATE_"))
		if s := messageText(t.status); s != "" {
			msg += ": " + s
		}
		return &agui.RunError{Message: msg, Code: t.state.String()}
	case a2a.TaskStateInputRequired, a2a.TaskStateAuthRequired:
		t.s.Interrupt(t.interrupts()...)
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

// messageText joins the text parts of m that are not reasoning.
func messageText(m *a2a.Message) string {
	if m == nil {
		return ""
	}
	var b strings.Builder
	for _, p := range m.Parts {
		if txt, ok := p.Content.(*a2a.PartText); ok && !IsThinking(p) {
			b.WriteString(txt.Text)
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
