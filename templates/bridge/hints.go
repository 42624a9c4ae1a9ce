package bridge

import (
	"bytes"
	"encoding/json"
	"strings"

	a2a "github.com/agui-gen/agui-gen/gen/a2a"
	agui "github.com/agui-gen/agui-gen/gen/agui"
)

// The Part.metadata keys that carry AG-UI hints on an A2A part, as Hector
// writes them.
const (
	HintEventType  = "agui_event_type"
	HintBlockType  = "agui_block_type"
	HintBlockID    = "agui_block_id"
	HintBlockIndex = "agui_block_index"
	HintToolCallID = "agui_tool_call_id"
	HintToolName   = "agui_tool_name"
	HintIsError    = "agui_is_error"
)

// Values of agui_event_type and agui_block_type.
const (
	EventContentBlock = "content_block"
	EventThinking     = "thinking"
	EventToolCall     = "tool_call"
	// EventCarried marks a data part that carries an AG-UI event verbatim,
	// one A2A has nothing for (a step, a custom or raw event, an activity,
	// a META event, or an event type of a newer schema).
	EventCarried  = "agui_event"
	BlockText     = "text"
	BlockThinking = "thinking"
	BlockCode     = "code"
)

// The type member of the data parts that carry tool calls and their
// results, as @ag-ui/a2a reads and writes them.
const (
	DataToolCall   = "tool-call"
	DataToolResult = "tool-result"
)

// Hint is what an A2A part is to a user interface, read from or written to
// its metadata.
type Hint struct {
	EventType  string `json:"agui_event_type,omitempty"` // content_block, thinking, tool_call, task, error or message
	BlockType  string `json:"agui_block_type,omitempty"` // text, thinking or code
	BlockID    string `json:"agui_block_id,omitempty"`
	BlockIndex *int   `json:"agui_block_index,omitempty"`
	ToolCallID string `json:"agui_tool_call_id,omitempty"`
	ToolName   string `json:"agui_tool_name,omitempty"`
	// IsError is set on tool results only, which is how a reader tells them
	// from tool calls.
	IsError *bool `json:"agui_is_error,omitempty"`
}

// HintOf reads the hint of p; ok is false when p's metadata holds none.
// Keys match exactly, and a member of the wrong type is ignored.
func HintOf(p *a2a.Part) (Hint, bool) {
	if p == nil || !bytes.Contains(p.Metadata, []byte(`"agui_`)) {
		return Hint{}, false // the common case, without the decoder's allocations
	}
	var meta map[string]json.RawMessage
	if json.Unmarshal(p.Metadata, &meta) != nil {
		return Hint{}, false
	}
	var h Hint
	read := func(key string, dst any) bool { v, ok := meta[key]; return ok && json.Unmarshal(v, dst) == nil }
	read(HintEventType, &h.EventType)
	read(HintBlockType, &h.BlockType)
	read(HintBlockID, &h.BlockID)
	read(HintToolCallID, &h.ToolCallID)
	read(HintToolName, &h.ToolName)
	var index int
	if read(HintBlockIndex, &index) {
		h.BlockIndex = &index
	}
	var isError bool
	if read(HintIsError, &isError) {
		h.IsError = &isError
	}
	return h, h != Hint{}
}

// SetHint writes h into p's metadata, keeping the members that are not
// hints.
func SetHint(p *a2a.Part, h Hint) {
	meta := map[string]json.RawMessage{}
	_ = json.Unmarshal(p.Metadata, &meta) // metadata that is not an object is replaced
	for k := range meta {
		if strings.HasPrefix(k, "agui_") {
			delete(meta, k)
		}
	}
	hint, _ := json.Marshal(h)
	_ = json.Unmarshal(hint, &meta)
	p.Metadata, _ = json.Marshal(meta)
}

// CarriedPart is a data part that carries ev across A2A, hinted
// EventCarried, its data the event's JSON.
func CarriedPart(ev agui.Event) *a2a.Part {
	p := &a2a.Part{Content: &a2a.PartData{Data: ev.AppendJSON(nil)}, MediaType: "application/json"}
	SetHint(p, Hint{EventType: EventCarried})
	return p
}

// CarriedEvent reads the AG-UI event p carries; ok is false when p is not
// a CarriedPart. An event that does not decode (one of a schema newer than
// this package's) is returned as the error.
func CarriedEvent(p *a2a.Part) (agui.Event, bool, error) {
	data, isData := p.Content.(*a2a.PartData)
	if h, ok := HintOf(p); !isData || !ok || h.EventType != EventCarried {
		return nil, false, nil
	}
	ev, err := agui.UnmarshalEvent(data.Data)
	return ev, true, err
}

// IsThinking reports whether p is hinted as reasoning.
func IsThinking(p *a2a.Part) bool {
	h, ok := HintOf(p)
	return ok && (h.EventType == EventThinking || h.BlockType == BlockThinking)
}

// TextPart is a text part hinted as a content block of a message: index is
// its place in the message, blockID names the block (a fresh id when
// empty).
func TextPart(text, blockID string, index int) *a2a.Part {
	return blockPart(text, EventContentBlock, BlockText, blockID, "block", index)
}

// ThinkingPart is a text part hinted as reasoning.
func ThinkingPart(text, blockID string, index int) *a2a.Part {
	return blockPart(text, EventThinking, BlockThinking, blockID, "think", index)
}

func blockPart(text, event, block, id, prefix string, index int) *a2a.Part {
	if id == "" {
		id = agui.NewID(prefix)
	}
	p := &a2a.Part{Content: &a2a.PartText{Text: text}}
	SetHint(p, Hint{EventType: event, BlockType: block, BlockID: id, BlockIndex: &index})
	return p
}

// ToolCall is a call of a tool, as a data part carries it.
type ToolCall struct {
	ID   string
	Name string
	// Arguments is the call's arguments as JSON text (an object, usually).
	Arguments string
}

// ToolResult is what a tool call returned.
type ToolResult struct {
	ToolCallID string
	// Content is the result: text, or JSON text.
	Content string
	IsError bool
}

// ToolCallPart is a data part holding call, in the shape @ag-ui/a2a reads
// ({"type":"tool-call","id","name","arguments"}), with Hector's hints.
func ToolCallPart(call ToolCall) *a2a.Part {
	args := json.RawMessage(call.Arguments)
	if !json.Valid(args) {
		args, _ = json.Marshal(call.Arguments)
	}
	data, _ := json.Marshal(struct {
		Type      string          `json:"type"`
		ID        string          `json:"id"`
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	}{DataToolCall, call.ID, call.Name, args})
	p := &a2a.Part{Content: &a2a.PartData{Data: data}, MediaType: "application/json"}
	SetHint(p, Hint{EventType: EventToolCall, ToolCallID: call.ID, ToolName: call.Name})
	return p
}

// ToolResultPart is a data part holding r, in the shape @ag-ui/a2a reads
// ({"type":"tool-result","toolCallId","payload"}), with Hector's hints.
func ToolResultPart(r ToolResult) *a2a.Part {
	data, _ := json.Marshal(struct {
		Type       string `json:"type"`
		ToolCallID string `json:"toolCallId"`
		Payload    string `json:"payload"`
	}{DataToolResult, r.ToolCallID, r.Content})
	p := &a2a.Part{Content: &a2a.PartData{Data: data}, MediaType: "application/json"}
	isError := r.IsError
	SetHint(p, Hint{EventType: EventToolCall, ToolCallID: r.ToolCallID, IsError: &isError})
	return p
}

// toolData is the union of the data shapes a tool call or result comes
// in: @ag-ui/a2a's ({type, id, name, arguments} and {type, toolCallId,
// payload}) and Hector's ({id, name, arguments} and {tool_call_id,
// content, error}, which Hector nests in a "data" member).
type toolData struct {
	Type         string          `json:"type"`
	ID           string          `json:"id"`
	Name         string          `json:"name"`
	Arguments    json.RawMessage `json:"arguments"`
	ToolCallID   string          `json:"toolCallId"`
	Payload      json.RawMessage `json:"payload"`
	HectorCallID string          `json:"tool_call_id"`
	Content      json.RawMessage `json:"content"`
	Error        string          `json:"error"`
	Data         json.RawMessage `json:"data"`
}

func readToolData(p *a2a.Part) (toolData, Hint, bool) {
	d, ok := p.Content.(*a2a.PartData)
	if !ok {
		return toolData{}, Hint{}, false
	}
	var td toolData
	if json.Unmarshal(d.Data, &td) != nil {
		return toolData{}, Hint{}, false
	}
	if td.Type == "" && len(td.Data) > 0 && td.Data[0] == '{' {
		var inner toolData
		if json.Unmarshal(td.Data, &inner) == nil {
			td = inner
		}
	}
	h, _ := HintOf(p)
	return td, h, true
}

// ToolCallOf reads the tool call p carries, in either convention; ok is
// false when p is not a tool call.
func ToolCallOf(p *a2a.Part) (ToolCall, bool) {
	td, h, ok := readToolData(p)
	if !ok {
		return ToolCall{}, false
	}
	return td.call(h)
}

// ToolResultOf reads the tool result p carries, in either convention; ok
// is false when p is not a tool result.
func ToolResultOf(p *a2a.Part) (ToolResult, bool) {
	td, h, ok := readToolData(p)
	if !ok {
		return ToolResult{}, false
	}
	return td.result(h)
}

func (td toolData) call(h Hint) (ToolCall, bool) {
	if !(td.Type == DataToolCall || h.EventType == EventToolCall && h.IsError == nil) || td.Type == DataToolResult {
		return ToolCall{}, false
	}
	call := ToolCall{ID: firstOf(h.ToolCallID, td.ID), Name: firstOf(h.ToolName, td.Name), Arguments: jsonText(td.Arguments)}
	if call.Arguments == "" {
		call.Arguments = "{}"
	}
	return call, call.ID != "" && call.Name != ""
}

func (td toolData) result(h Hint) (ToolResult, bool) {
	if !(td.Type == DataToolResult || h.EventType == EventToolCall && h.IsError != nil) {
		return ToolResult{}, false
	}
	r := ToolResult{ToolCallID: firstOf(h.ToolCallID, td.ToolCallID, td.HectorCallID),
		Content: firstOf(jsonText(td.Payload), jsonText(td.Content)), IsError: td.Error != ""}
	if h.IsError != nil {
		r.IsError = r.IsError || *h.IsError
	}
	if r.Content == "" && td.Error != "" {
		r.Content = td.Error
	}
	return r, r.ToolCallID != ""
}

// jsonText is the text a JSON value stands for: a string's contents, or
// any other value's JSON.
func jsonText(v json.RawMessage) string {
	if len(v) == 0 || string(v) == "null" {
		return ""
	}
	var s string
	if v[0] == '"' && json.Unmarshal(v, &s) == nil {
		return s
	}
	return string(v)
}

func firstOf(values ...string) string {
	for _, v := range values {
		if v != "" {
			return v
		}
	}
	return ""
}
