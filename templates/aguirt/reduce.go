package aguirt

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	jsonpatch "github.com/evanphx/json-patch/v5"

	agui "github.com/agui-gen/agui-gen/gen/agui"
)

// Conversation assembles the messages and the agent state that a stream of
// events describes, the way @ag-ui/client's defaultApplyEvents does:
//
//   - TEXT_MESSAGE_START adds a message of its role (assistant when absent)
//     and CONTENT appends to it; a START for a message that already exists
//     continues it. REASONING_MESSAGE_* build reasoning messages the same
//     way; REASONING_START and REASONING_END build nothing.
//   - TOOL_CALL_START adds a call to the assistant message named by
//     parentMessageId, creating that message (with the parent's id, or the
//     call's own id when there is none) if it does not exist; ARGS appends
//     to the call's arguments. TOOL_CALL_RESULT adds a tool message (it
//     replaces a message with the same id).
//   - Chunks build what the start, content and end events they stand for
//     would.
//   - ACTIVITY_SNAPSHOT creates or replaces an activity message (replace:
//     false leaves an existing one as it is); ACTIVITY_DELTA patches its
//     content.
//   - MESSAGES_SNAPSHOT replaces the messages with its own, keeping the
//     activity messages it does not mention (a producer never sees them)
//     after the message they followed.
//   - REASONING_ENCRYPTED_VALUE stores the value on the message or tool
//     call it names.
//   - An event's metadata merges into what it builds (the message; for
//     TOOL_CALL_* the tool call), key by key, last write winning, without
//     recursion.
//   - STATE_SNAPSHOT replaces the state (with any JSON value, null
//     included); STATE_DELTA applies its RFC 6902 patch, atomically. A nil
//     State is patched as {}.
//   - The run lifecycle, steps, subagent lifecycle, reasoning spans, RAW,
//     CUSTOM and META events change nothing here (RUN_STARTED's echoed
//     input included).
//
// Whatever Apply cannot apply is skipped with a warning rather than failing:
// a patch that does not apply (the state or content is kept), a delta or
// encrypted value naming nothing, a continuation of a message that does not
// exist. Apply does not check the sequence — run a Verifier first for that.
//
// Apply changes the messages in place; the zero value is an empty
// conversation ready for use. A Conversation is not safe for concurrent
// use.
type Conversation struct {
	// Messages are the conversation's messages, in order.
	Messages []agui.Message
	// State is the agent state: nil until a snapshot or delta sets it.
	State agui.State
	// Warnings lists, in order, everything Apply tolerated.
	Warnings []string
	// OnWarning, when set, is also called with each warning.
	OnWarning func(msg string)

	n       int // events applied
	pending map[*string]*gathering
	index   map[string]int // message id → position in Messages
	indexed int            // len(Messages) when index was built
	calls   map[string]string
	chunks  chunkLanes
}

// NewConversation returns a Conversation that starts from the given
// messages and state (which it will change in place).
func NewConversation(messages []agui.Message, state agui.State) *Conversation {
	return &Conversation{Messages: messages, State: state}
}

func (c *Conversation) warn(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	c.Warnings = append(c.Warnings, msg)
	if c.OnWarning != nil {
		c.OnWarning(msg)
	}
}

// find returns the position of the message with the given id, or -1. A
// miss is confirmed by a scan, so Messages may be changed from outside
// between events in any way.
func (c *Conversation) find(id string) int {
	c.ensureIndex()
	if i, ok := c.index[id]; ok && i < len(c.Messages) && messageID(c.Messages[i]) == id {
		return i
	}
	for i, m := range c.Messages {
		if messageID(m) == id {
			c.reindex()
			return i
		}
	}
	return -1
}

// ensureIndex rebuilds the index when Messages has another length than
// when it was built.
func (c *Conversation) ensureIndex() {
	if c.index == nil || c.indexed != len(c.Messages) {
		c.reindex()
	}
}

func (c *Conversation) reindex() {
	c.index = make(map[string]int, len(c.Messages))
	for i, m := range c.Messages {
		c.index[messageID(m)] = i
	}
	c.indexed = len(c.Messages)
}

func (c *Conversation) push(m agui.Message) {
	c.ensureIndex()
	c.Messages = append(c.Messages, m)
	c.index[messageID(m)] = len(c.Messages) - 1
	c.indexed = len(c.Messages)
}

func (c *Conversation) message(id string) agui.Message {
	if i := c.find(id); i >= 0 {
		return c.Messages[i]
	}
	return nil
}

// call returns the tool call with the given id.
func (c *Conversation) call(id string) *agui.ToolCall {
	if c.calls == nil {
		c.calls = map[string]string{}
	}
	look := func(m agui.Message) *agui.ToolCall {
		if a, ok := m.(*agui.AssistantMessage); ok {
			for i := range a.ToolCalls {
				if a.ToolCalls[i].ID == id {
					return &a.ToolCalls[i]
				}
			}
		}
		return nil
	}
	if mid, ok := c.calls[id]; ok {
		if tc := look(c.message(mid)); tc != nil {
			return tc
		}
	}
	for i := len(c.Messages) - 1; i >= 0; i-- {
		if tc := look(c.Messages[i]); tc != nil {
			c.calls[id] = messageID(c.Messages[i])
			return tc
		}
	}
	return nil
}

// gathering is the text of one streamed string: Sync writes it back, and
// the builder carries on, so a stream interleaved with other events (META,
// state, steps) still costs time in its length, not its square.
type gathering struct {
	text  strings.Builder
	dirty bool // written since the last Sync
}

// appendTo appends delta to *target without copying what is there already:
// the text gathers in a builder until Sync writes it back, so a message
// streamed in many fragments costs time in its length, not its square.
func (c *Conversation) appendTo(target *string, delta string) {
	g := c.pending[target]
	// A synced string that is no longer the builder's was set by someone
	// else (comparing the same bytes is O(1)): start again from it.
	if g == nil || (!g.dirty && *target != g.text.String()) {
		if c.pending == nil {
			c.pending = map[*string]*gathering{}
		}
		g = &gathering{}
		g.text.WriteString(*target)
		c.pending[target] = g
	}
	g.text.WriteString(delta)
	g.dirty = true
}

// Sync writes text that is still gathering for open messages and tool
// calls into them. Apply calls it before every event other than a text,
// reasoning or argument delta, and RunStream's accessors call it; call it
// yourself before reading Messages in the middle of a streamed message.
func (c *Conversation) Sync() {
	for target, g := range c.pending {
		if g.dirty {
			*target = g.text.String()
			g.dirty = false
		}
	}
}

// release stops gathering into target, whose stream has ended.
func (c *Conversation) release(target *string) { delete(c.pending, target) }

// releaseMessage releases the text of message id.
func (c *Conversation) releaseMessage(id string) {
	switch m := c.message(id).(type) {
	case *agui.AssistantMessage:
		c.release(m.Content)
	case *agui.ReasoningMessage:
		c.release(&m.Content)
	}
}

// Apply applies one event. It returns an error only for an event it cannot
// interpret at all: a chunk with no open stream to continue (a
// *SequenceError, whose Index counts the events applied).
func (c *Conversation) Apply(ev agui.Event) error {
	idx := c.n
	c.n++
	switch ev.(type) {
	case *agui.TextMessageContentEvent, *agui.ReasoningMessageContentEvent, *agui.ToolCallArgsEvent:
		// Deltas gather; anything else may read or move what they build.
	default:
		c.Sync()
	}
	if c.chunks.open == nil {
		c.chunks.open = map[string]*chunkStream{}
	}
	step, cerr := c.chunks.resolve(ev)
	if cerr != nil {
		return &SequenceError{Index: idx, Type: ev.Type(), Rule: cerr.rule, Msg: cerr.msg}
	}
	c.chunks.commit(step)

	switch e := ev.(type) {
	case *agui.TextMessageStartEvent:
		role := agui.TextMessageRoleAssistant
		if e.Role != nil {
			role = *e.Role
		}
		c.startText(e.MessageID, role, e.Name, e.Attributable, e.Metadata)
	case *agui.TextMessageContentEvent:
		c.appendText(ev.Type(), e.MessageID, e.Delta, e.Metadata)
	case *agui.TextMessageEndEvent:
		c.mergeInto(ev.Type(), e.MessageID, e.Metadata)
		c.releaseMessage(e.MessageID)
	case *agui.TextMessageChunkEvent:
		s := step.stream
		if step.opened {
			c.startText(s.id, s.role, s.name, e.Attributable, e.Metadata)
		} else {
			c.mergeInto(ev.Type(), s.id, e.Metadata)
		}
		if e.Delta != nil {
			c.appendText(ev.Type(), s.id, *e.Delta, nil)
		}

	case *agui.ReasoningMessageStartEvent:
		c.startReasoning(e.MessageID, e.Attributable, e.Metadata)
	case *agui.ReasoningMessageContentEvent:
		c.appendText(ev.Type(), e.MessageID, e.Delta, e.Metadata)
	case *agui.ReasoningMessageEndEvent:
		c.mergeInto(ev.Type(), e.MessageID, e.Metadata)
		c.releaseMessage(e.MessageID)
	case *agui.ReasoningMessageChunkEvent:
		s := step.stream
		if step.opened {
			c.startReasoning(s.id, e.Attributable, e.Metadata)
		} else {
			c.mergeInto(ev.Type(), s.id, e.Metadata)
		}
		if e.Delta != nil {
			c.appendText(ev.Type(), s.id, *e.Delta, nil)
		}

	case *agui.ToolCallStartEvent:
		c.startCall(e.ToolCallID, e.ToolCallName, e.ParentMessageID, e.Attributable, e.Metadata)
	case *agui.ToolCallArgsEvent:
		c.appendArgs(ev.Type(), e.ToolCallID, e.Delta, e.Metadata)
	case *agui.ToolCallEndEvent:
		c.mergeCall(ev.Type(), e.ToolCallID, e.Metadata)
		if tc := c.call(e.ToolCallID); tc != nil {
			c.release(&tc.Function.Arguments)
		}
	case *agui.ToolCallChunkEvent:
		s := step.stream
		if step.opened {
			c.startCall(s.id, s.toolName, s.parent, e.Attributable, e.Metadata)
		} else {
			c.mergeCall(ev.Type(), s.id, e.Metadata)
		}
		if e.Delta != nil {
			c.appendArgs(ev.Type(), s.id, *e.Delta, nil)
		}
	case *agui.ToolCallResultEvent:
		m := &agui.ToolMessage{
			Attributable: copyAttributable(e.Attributable),
			ID:           e.MessageID,
			Content:      copyContent(e.Content),
			ToolCallID:   e.ToolCallID,
			Metadata:     cloneRaw(e.Metadata),
		}
		if i := c.find(e.MessageID); i >= 0 {
			c.Messages[i] = m
		} else {
			c.push(m)
		}

	case *agui.ReasoningEncryptedValueEvent:
		c.storeEncrypted(e)

	case *agui.ActivitySnapshotEvent:
		i := c.find(e.MessageID)
		if i < 0 {
			c.push(&agui.ActivityMessage{
				Attributable: copyAttributable(e.Attributable),
				ID:           e.MessageID,
				ActivityType: e.ActivityType,
				Content:      cloneRaw(e.Content),
				Metadata:     cloneRaw(e.Metadata),
			})
			break
		}
		a, ok := c.Messages[i].(*agui.ActivityMessage)
		if !ok {
			c.warn("ACTIVITY_SNAPSHOT names message %q, which is a %s message, not an activity; ignored", e.MessageID, c.Messages[i].Role())
			break
		}
		if e.Replace != nil && !*e.Replace {
			break
		}
		a.ActivityType = e.ActivityType
		a.Content = cloneRaw(e.Content)
		a.Metadata = c.merge(a.Metadata, e.Metadata)
	case *agui.ActivityDeltaEvent:
		a, ok := c.message(e.MessageID).(*agui.ActivityMessage)
		if !ok {
			c.warn("ACTIVITY_DELTA names activity message %q, which does not exist; ignored", e.MessageID)
			break
		}
		patched, err := ApplyJSONPatch(a.Content, e.Patch)
		if err != nil {
			c.warn("Failed to apply activity patch to message %q: %v; its content is unchanged", e.MessageID, err)
			break
		}
		a.Content = patched
		a.Metadata = c.merge(a.Metadata, e.Metadata)

	case *agui.MessagesSnapshotEvent:
		clear(c.pending)
		c.snapshot(e.Messages)
	case *agui.RunStartedEvent, *agui.RunFinishedEvent, *agui.RunErrorEvent:
		// What a run left gathering (chunk streams close without an end
		// event) is written back already.
		clear(c.pending)

	case *agui.StateSnapshotEvent:
		c.State = cloneRaw(e.Snapshot)
	case *agui.StateDeltaEvent:
		doc := c.State
		if len(doc) == 0 {
			doc = agui.State("{}")
		}
		patched, err := ApplyJSONPatch(doc, e.Delta)
		if err != nil {
			c.warn("Failed to apply state patch: %v; the state is unchanged", err)
			break
		}
		c.State = patched
	}
	return nil
}

func (c *Conversation) startText(id string, role agui.TextMessageRole, name *string, attr agui.Attributable, md agui.Metadata) {
	if m := c.message(id); m != nil {
		if string(m.Role()) != string(role) {
			c.warn("message %q is continued as a %s message but is a %s message; it keeps its role", id, role, m.Role())
		}
		c.mergeMessage(m, md)
		return
	}
	base := agui.BaseMessage{Attributable: copyAttributable(attr), ID: id, Name: copyString(name), Metadata: cloneRaw(md)}
	switch role {
	case agui.TextMessageRoleUser:
		c.push(&agui.UserMessage{BaseMessage: base, Content: agui.TextContent("")})
	case agui.TextMessageRoleSystem:
		c.push(&agui.SystemMessage{BaseMessage: base})
	case agui.TextMessageRoleDeveloper:
		c.push(&agui.DeveloperMessage{BaseMessage: base})
	default:
		if role != agui.TextMessageRoleAssistant {
			c.warn("message %q has unrecognised role %q; kept as an assistant message", id, role)
		}
		empty := ""
		c.push(&agui.AssistantMessage{BaseMessage: base, Content: &empty})
	}
}

func (c *Conversation) startReasoning(id string, attr agui.Attributable, md agui.Metadata) {
	if m := c.message(id); m != nil {
		if m.Role() != agui.RoleReasoning {
			c.warn("message %q is continued as a reasoning message but is a %s message", id, m.Role())
		}
		c.mergeMessage(m, md)
		return
	}
	c.push(&agui.ReasoningMessage{Attributable: copyAttributable(attr), ID: id, Metadata: cloneRaw(md)})
}

func (c *Conversation) appendText(t agui.EventType, id, delta string, md agui.Metadata) {
	m := c.message(id)
	if m == nil {
		c.warn("%s names message %q, which does not exist; ignored", t, id)
		return
	}
	switch m := m.(type) {
	case *agui.AssistantMessage:
		if _, gathering := c.pending[m.Content]; m.Content == nil || !gathering {
			// Own the string before writing through the pointer: a cloned
			// message shares it with the caller's.
			s := ""
			if m.Content != nil {
				s = *m.Content
			}
			m.Content = &s
		}
		c.appendTo(m.Content, delta)
	case *agui.UserMessage:
		if m.Content.IsList() {
			if n := len(m.Content.Parts); n > 0 {
				if p, ok := m.Content.Parts[n-1].(*agui.TextPart); ok {
					p.Text += delta
					break
				}
			}
			m.Content.Parts = append(m.Content.Parts, &agui.TextPart{Text: delta})
		} else {
			m.Content.Text += delta
		}
	case *agui.SystemMessage:
		m.Content += delta
	case *agui.DeveloperMessage:
		m.Content += delta
	case *agui.ReasoningMessage:
		c.appendTo(&m.Content, delta)
	default:
		c.warn("%s names message %q, which is a %s message and holds no text; ignored", t, id, m.Role())
		return
	}
	c.mergeMessage(m, md)
}

func (c *Conversation) mergeInto(t agui.EventType, id string, md agui.Metadata) {
	if len(md) == 0 {
		return
	}
	m := c.message(id)
	if m == nil {
		c.warn("%s names message %q, which does not exist; its metadata is ignored", t, id)
		return
	}
	c.mergeMessage(m, md)
}

func (c *Conversation) mergeMessage(m agui.Message, md agui.Metadata) {
	if len(md) == 0 {
		return
	}
	if p := messageMetadata(m); p != nil {
		*p = c.merge(*p, md)
	}
}

func (c *Conversation) startCall(id, name string, parent *string, attr agui.Attributable, md agui.Metadata) {
	if tc := c.call(id); tc != nil {
		tc.Metadata = c.merge(tc.Metadata, md)
		return
	}
	var owner *agui.AssistantMessage
	mid := id
	if parent != nil {
		mid = *parent
	}
	switch m := c.message(mid).(type) {
	case *agui.AssistantMessage:
		owner = m
	case nil:
	default:
		c.warn("tool call %q names parent message %q, which is a %s message; the call gets a message of its own", id, mid, m.Role())
		mid = id
		if x, ok := c.message(mid).(*agui.AssistantMessage); ok {
			owner = x
		}
	}
	if owner == nil {
		owner = &agui.AssistantMessage{BaseMessage: agui.BaseMessage{Attributable: copyAttributable(attr), ID: mid}}
		c.push(owner)
	}
	owner.ToolCalls = append(owner.ToolCalls, agui.ToolCall{ID: id, Function: agui.FunctionCall{Name: name}, Metadata: cloneRaw(md)})
	if c.calls == nil {
		c.calls = map[string]string{}
	}
	c.calls[id] = owner.ID
}

func (c *Conversation) appendArgs(t agui.EventType, id, delta string, md agui.Metadata) {
	tc := c.call(id)
	if tc == nil {
		c.warn("%s names tool call %q, which does not exist; ignored", t, id)
		return
	}
	c.appendTo(&tc.Function.Arguments, delta)
	tc.Metadata = c.merge(tc.Metadata, md)
}

func (c *Conversation) mergeCall(t agui.EventType, id string, md agui.Metadata) {
	if len(md) == 0 {
		return
	}
	tc := c.call(id)
	if tc == nil {
		c.warn("%s names tool call %q, which does not exist; its metadata is ignored", t, id)
		return
	}
	tc.Metadata = c.merge(tc.Metadata, md)
}

func (c *Conversation) storeEncrypted(e *agui.ReasoningEncryptedValueEvent) {
	value, typ := e.EncryptedValue, copyString(e.EncryptedValueType)
	if e.Subtype == agui.ReasoningEncryptedValueSubtypeToolCall {
		tc := c.call(e.EntityID)
		if tc == nil {
			c.warn("REASONING_ENCRYPTED_VALUE names tool call %q, which does not exist; dropped", e.EntityID)
			return
		}
		tc.EncryptedValue, tc.EncryptedValueType = &value, typ
		return
	}
	var v, vt **string
	switch m := c.message(e.EntityID).(type) {
	case nil:
		c.warn("REASONING_ENCRYPTED_VALUE names message %q, which does not exist; dropped", e.EntityID)
		return
	case *agui.AssistantMessage:
		v, vt = &m.EncryptedValue, &m.EncryptedValueType
	case *agui.UserMessage:
		v, vt = &m.EncryptedValue, &m.EncryptedValueType
	case *agui.SystemMessage:
		v, vt = &m.EncryptedValue, &m.EncryptedValueType
	case *agui.DeveloperMessage:
		v, vt = &m.EncryptedValue, &m.EncryptedValueType
	case *agui.ToolMessage:
		v, vt = &m.EncryptedValue, &m.EncryptedValueType
	case *agui.ReasoningMessage:
		v, vt = &m.EncryptedValue, &m.EncryptedValueType
	default:
		c.warn("REASONING_ENCRYPTED_VALUE names message %q, a %s message, which cannot hold one; dropped", e.EntityID, m.Role())
		return
	}
	*v, *vt = &value, typ
}

// snapshot reconciles the messages with a MESSAGES_SNAPSHOT.
func (c *Conversation) snapshot(msgs []agui.Message) {
	in := make(map[string]bool, len(msgs))
	out := make([]agui.Message, 0, len(msgs))
	for _, m := range msgs {
		in[messageID(m)] = true
		out = append(out, cloneMessage(m))
	}
	// Activity messages the snapshot does not carry stay, after the message
	// they followed (or first, if none of those is in the snapshot).
	after := ""
	type kept struct {
		after string
		m     agui.Message
	}
	var keep []kept
	for _, m := range c.Messages {
		id := messageID(m)
		switch {
		case in[id]:
			after = id
		case m.Role() == agui.RoleActivity:
			keep = append(keep, kept{after, m})
		}
	}
	for i := len(keep) - 1; i >= 0; i-- {
		pos := 0
		if keep[i].after != "" {
			pos = slices.IndexFunc(out, func(m agui.Message) bool { return messageID(m) == keep[i].after }) + 1
		}
		out = slices.Insert(out, pos, keep[i].m)
	}
	c.Messages = out
	c.index, c.calls = nil, nil
}

// merge merges src into dst, reporting a malformed value as a warning.
func (c *Conversation) merge(dst, src agui.Metadata) agui.Metadata {
	out, err := MergeMetadata(dst, src)
	if err != nil {
		c.warn("metadata not merged: %v", err)
		return dst
	}
	return out
}

// MergeMetadata merges src into dst the way AG-UI consumers combine
// metadata: key by key, last write winning, without recursion (a key's
// value is replaced whole, null included). Keys keep their first position.
// Either may be nil; dst is not modified.
func MergeMetadata(dst, src agui.Metadata) (agui.Metadata, error) {
	if len(src) == 0 {
		return dst, nil
	}
	if len(dst) == 0 {
		return cloneRaw(src), nil
	}
	d, err := objectMembers(dst)
	if err != nil {
		return nil, err
	}
	s, err := objectMembers(src)
	if err != nil {
		return nil, err
	}
	pos := make(map[string]int, len(d))
	for i, m := range d {
		pos[m.key] = i
	}
	for _, m := range s {
		if i, ok := pos[m.key]; ok {
			d[i].value = m.value
		} else {
			pos[m.key] = len(d)
			d = append(d, m)
		}
	}
	out := []byte{'{'}
	for i, m := range d {
		if i > 0 {
			out = append(out, ',')
		}
		k, _ := json.Marshal(m.key)
		out = append(out, k...)
		out = append(out, ':')
		out = append(out, m.value...)
	}
	return append(out, '}'), nil
}

type rawMember struct {
	key   string
	value json.RawMessage
}

// objectMembers splits a JSON object into its members, in order; a key
// that repeats keeps its last value at its first position.
func objectMembers(obj []byte) ([]rawMember, error) {
	dec := json.NewDecoder(bytes.NewReader(obj))
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, errors.New("not a JSON object")
	}
	var out []rawMember
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, _ := tok.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		if i := slices.IndexFunc(out, func(m rawMember) bool { return m.key == key }); i >= 0 {
			out[i].value = v
			continue
		}
		out = append(out, rawMember{key, v})
	}
	if _, err := dec.Token(); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("text after the JSON object")
	}
	return out, nil
}

// ApplyJSONPatch applies an RFC 6902 patch to a JSON document and returns
// the result. The patch applies whole or not at all: on error doc is
// returned unchanged along with the error. Array indexes must be in range
// (no negative indexes); members an operation does not define are ignored.
func ApplyJSONPatch(doc json.RawMessage, patch agui.JSONPatch) (json.RawMessage, error) {
	if len(patch) == 0 {
		return doc, nil
	}
	if len(doc) == 0 {
		return doc, errors.New("no document to patch")
	}
	buf := []byte{'['}
	for i, op := range patch {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = op.AppendJSON(buf)
	}
	buf = append(buf, ']')
	p, err := jsonpatch.DecodePatch(buf)
	if err != nil {
		return doc, err
	}
	opts := jsonpatch.NewApplyOptions()
	opts.SupportNegativeIndices = false
	opts.EscapeHTML = false
	out, err := p.ApplyWithOptions(doc, opts)
	if err != nil {
		return doc, err
	}
	return out, nil
}

// messageID returns a message's id.
func messageID(m agui.Message) string {
	id, _ := messageIdentity(m)
	return id
}

// messageMetadata returns where a message keeps its metadata.
func messageMetadata(m agui.Message) *agui.Metadata {
	switch m := m.(type) {
	case *agui.DeveloperMessage:
		return &m.Metadata
	case *agui.SystemMessage:
		return &m.Metadata
	case *agui.AssistantMessage:
		return &m.Metadata
	case *agui.UserMessage:
		return &m.Metadata
	case *agui.ToolMessage:
		return &m.Metadata
	case *agui.ActivityMessage:
		return &m.Metadata
	case *agui.ReasoningMessage:
		return &m.Metadata
	}
	return nil
}

// cloneMessage returns a copy of m that shares no slice with it (strings
// and raw JSON, which the Conversation never changes in place, are shared).
func cloneMessage(m agui.Message) agui.Message {
	switch m := m.(type) {
	case *agui.DeveloperMessage:
		x := *m
		return &x
	case *agui.SystemMessage:
		x := *m
		return &x
	case *agui.AssistantMessage:
		x := *m
		x.ToolCalls = slices.Clone(m.ToolCalls)
		return &x
	case *agui.UserMessage:
		x := *m
		x.Content = copyContent(m.Content)
		return &x
	case *agui.ToolMessage:
		x := *m
		x.Content = copyContent(m.Content)
		return &x
	case *agui.ActivityMessage:
		x := *m
		return &x
	case *agui.ReasoningMessage:
		x := *m
		return &x
	}
	return m
}

// copyContent copies a content value's list of parts, copying text parts
// (which appendText changes in place).
func copyContent(c agui.Content) agui.Content {
	if c.Parts == nil {
		return c
	}
	parts := make([]agui.ContentPart, len(c.Parts))
	for i, p := range c.Parts {
		if t, ok := p.(*agui.TextPart); ok {
			x := *t
			p = &x
		}
		parts[i] = p
	}
	return agui.Content{Text: c.Text, Parts: parts}
}

func copyAttributable(a agui.Attributable) agui.Attributable {
	return agui.Attributable{SubagentRunID: copyString(a.SubagentRunID)}
}

func copyString(p *string) *string {
	if p == nil {
		return nil
	}
	s := *p
	return &s
}

func cloneRaw(r json.RawMessage) json.RawMessage {
	if r == nil {
		return nil
	}
	return slices.Clone(r)
}
