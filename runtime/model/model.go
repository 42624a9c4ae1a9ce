// Package model is the provider-neutral turn of a language model, between
// an agent protocol and a model provider's SDK: the Request (the
// conversation, the system prompt and the tools offered), the Sink a model
// streams its answer into (text, reasoning and tool calls under the model's
// own ids, and usage), the Model interface each provider adapter
// implements (runtime/model/openai, …), and the tool Loop that runs
// server-side tools between model turns and stops at a front-end tool.
//
// It imports nothing but the standard library, and no adapter imports
// another; each adapter is a Go module of its own, so a program, and its
// go.mod, take in only the SDK of the provider it uses. The
// protocol side (gen/agui's ModelAgent) maps its conversation into a
// Request and its event stream onto a Sink; it is spec-typed, so it lives
// in the generated package, and this package knows no protocol.
//
// Design:
//   - A Sink is push-style, one call per fragment, so an adapter forwards
//     what its SDK decoded without buffering or copying it: the per-token
//     cost is a method call. An adapter calls StartText/StartReasoning once
//     per item and then the deltas, so a sink need not compare ids on every
//     token.
//   - Model.Stream returns the whole Turn as well (the assistant message,
//     tool calls with their complete arguments, the stop reason and usage):
//     the loop needs it to run tools and to send the conversation back, and
//     only the adapter knows how its provider fragments a tool call.
//   - The bookkeeping of a turn is the Assembler's, shared by the
//     adapters: which text or reasoning item is open, closing it when
//     another item opens, ids for later items, the incomplete-stream
//     error and the assistant message of the Turn. An adapter keeps only
//     its stream format's own state (OpenAI's calls by index, Anthropic's
//     content blocks).
//   - Errors are values of *Error when the provider answered with one
//     (before or during the stream), so the protocol side can report the
//     provider's reason and code; a cancelled context is returned as the
//     context's error, and the adapter stops the upstream request with it.
package model

import (
	"context"
	"encoding/json"
	"fmt"
)

// Role is who wrote a message of the conversation.
type Role string

// The roles of a conversation.
const (
	RoleSystem    Role = "system"
	RoleDeveloper Role = "developer"
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
	RoleTool      Role = "tool"
)

// Message is one message of the conversation.
type Message struct {
	Role Role
	// Content is the message's text and media, in order. An assistant's
	// and a system or developer message's parts are text.
	Content []Part
	// ToolCalls are the tools an assistant message called, in order.
	ToolCalls []ToolCall
	// ToolCallID is the call a tool message answers.
	ToolCallID string
	// Reasoning is what the model reasoned before an assistant message, for
	// providers that need it sent back within a tool loop (an adapter whose
	// provider does not ignores it).
	Reasoning []Reasoning
}

// Text is a message of one text part.
func Text(role Role, text string) Message {
	return Message{Role: role, Content: []Part{{Kind: PartText, Text: text}}}
}

// TextOf is the text of a message's parts, media left out.
func (m *Message) TextOf() string {
	if len(m.Content) == 1 && m.Content[0].Kind == PartText {
		return m.Content[0].Text
	}
	var n int
	for _, p := range m.Content {
		if p.Kind == PartText {
			n += len(p.Text)
		}
	}
	b := make([]byte, 0, n)
	for _, p := range m.Content {
		if p.Kind == PartText {
			b = append(b, p.Text...)
		}
	}
	return string(b)
}

// PartKind is what a content part holds.
type PartKind uint8

// The kinds of content parts.
const (
	PartText PartKind = iota
	PartImage
	PartAudio
	PartVideo
	PartDocument
)

func (k PartKind) String() string {
	switch k {
	case PartText:
		return "text"
	case PartImage:
		return "image"
	case PartAudio:
		return "audio"
	case PartVideo:
		return "video"
	case PartDocument:
		return "document"
	}
	return fmt.Sprintf("PartKind(%d)", uint8(k))
}

// Part is one piece of a message's content: text, or media given by one
// of Data (base64, with MIMEType), URL or FileID (a handle the provider
// issued).
type Part struct {
	Kind     PartKind
	Text     string
	MIMEType string
	Data     string // base64
	URL      string
	FileID   string
}

// ToolCall is one call of a tool by the model.
type ToolCall struct {
	ID   string
	Name string
	// Arguments is the JSON the model wrote for the tool's arguments, as it
	// wrote it (it is not checked against the tool's schema).
	Arguments string
}

// Reasoning is one block of the model's reasoning. Signature is an opaque
// value the provider gave with it (Anthropic signs its thinking blocks;
// Gemini signs a function call, whose id is then the ID), to be sent back
// unchanged.
type Reasoning struct {
	ID        string
	Text      string
	Signature string
	// Type is what Signature is, as the adapter that made it names it
	// ("anthropic.thinking", "gemini.thought_signature", …): an adapter
	// sends back its own, and a value of no type (one a front end sent
	// back without it) where its place fits the adapter's kind: a signed
	// reasoning block with text for Anthropic, a call's signature for
	// Gemini.
	Type string
}

// EncryptedValue is an opaque value a provider needs back unchanged in a
// later request, on the reasoning item or the tool call it came with. The
// protocol side carries it to the front end (AG-UI's
// REASONING_ENCRYPTED_VALUE), which sends it back on that message or call
// in the next run, so that it survives a front-end tool's round trip.
type EncryptedValue struct {
	// ToolCall says that EntityID is a tool call's id; otherwise it is a
	// reasoning item's.
	ToolCall bool
	EntityID string
	// Type is Reasoning.Type: what the value is, for the adapter to restore
	// it.
	Type  string
	Value string
}

// Tool is a tool offered to the model.
type Tool struct {
	Name        string
	Description string
	// Parameters is the JSON Schema of the tool's arguments (an object
	// schema); nil offers a tool without arguments.
	Parameters json.RawMessage
}

// Request is what a model is asked: the conversation, with the system
// prompt apart (providers place it differently), and the tools it may call.
type Request struct {
	System   string
	Messages []Message
	Tools    []Tool
}

// Sink receives a model's answer as it streams. An adapter calls, for each
// item of the answer in order: StartText then Text (one or more) then
// EndText; StartReasoning, Reasoning, EndReasoning; StartToolCall,
// ToolCallArgs (zero or more), EndToolCall. Several tool calls may be open
// at once. Ids are the model's, made up by the adapter only where the
// provider gives none, and never empty. Usage is called once per turn, when
// the provider reports it. An error from the sink (the client went away)
// stops the model's stream and is returned by Model.Stream.
//
// The tool Loop calls ToolResult for each server-side tool it runs.
type Sink interface {
	StartText(messageID string) error
	Text(delta string) error
	EndText() error
	StartReasoning(id string) error
	Reasoning(delta string) error
	EndReasoning() error
	// StartToolCall opens a call under the model's id; messageID is the
	// assistant message it belongs to (the turn's message, whether or not
	// it has text).
	StartToolCall(messageID, callID, name string) error
	ToolCallArgs(callID, delta string) error
	EndToolCall(callID string) error
	ToolResult(callID, content string) error
	// EncryptedValue comes after the item it belongs to has ended.
	EncryptedValue(EncryptedValue) error
	Usage(Usage) error
}

// StopReason is why a model ended its turn.
type StopReason string

// The stop reasons adapters map their providers' onto.
const (
	StopEnd       StopReason = "end"        // the model answered
	StopToolCalls StopReason = "tool_calls" // the model called tools and waits for their results
	StopMaxTokens StopReason = "max_tokens" // the output was cut at the token limit
	StopFiltered  StopReason = "filtered"   // the provider's content filter stopped it
	StopRefusal   StopReason = "refusal"    // the model refused
	StopOther     StopReason = "other"      // a reason the adapter does not know
)

// Turn is one model turn, whole: what Model.Stream streamed into the sink,
// assembled.
type Turn struct {
	// Message is the assistant message of the turn: its text, reasoning
	// and tool calls, as the loop sends it back to the model.
	Message Message
	// MessageID is the id the sink saw the turn's message under.
	MessageID string
	Stop      StopReason
	// ProviderStop is the provider's own stop reason ("stop", "length",
	// "end_turn", …), for what StopReason does not say.
	ProviderStop string
	Usage        Usage
}

// Usage is the token counts of one model call, in AG-UI's accounting:
// InputTokens counts every prompt token, cache reads and writes included
// (CachedInputTokens and CacheWriteInputTokens are parts of it), and
// OutputTokens every generated one, reasoning included (ReasoningTokens is
// part of it). Adapters whose providers count otherwise add the parts in.
type Usage struct {
	Provider              string
	Model                 string
	InputTokens           int64
	OutputTokens          int64
	ReasoningTokens       int64
	CachedInputTokens     int64
	CacheWriteInputTokens int64
}

// Model is a provider adapter: it sends req to the model, streams the
// answer into sink and returns the turn. It stops the upstream request
// when ctx ends, returning ctx's error. An error the provider reports,
// before the stream or in it, is an *Error.
type Model interface {
	Stream(ctx context.Context, req *Request, sink Sink) (Turn, error)
}

// Error is an error a provider reported: an HTTP status before the stream,
// or an error event in it.
type Error struct {
	Provider string
	// Status is the HTTP status, 0 for an error inside a stream.
	Status int
	// Code is the provider's code or type for it ("rate_limit_exceeded",
	// "overloaded_error", …), when it gives one.
	Code    string
	Message string
	// Err is the SDK's error, for errors.As.
	Err error
}

func (e *Error) Error() string {
	msg := e.Message
	if msg == "" && e.Err != nil {
		msg = e.Err.Error()
	}
	switch {
	case e.Status != 0 && e.Code != "":
		return fmt.Sprintf("%s: %s (HTTP %d, %s)", e.Provider, msg, e.Status, e.Code)
	case e.Status != 0:
		return fmt.Sprintf("%s: %s (HTTP %d)", e.Provider, msg, e.Status)
	case e.Code != "":
		return fmt.Sprintf("%s: %s (%s)", e.Provider, msg, e.Code)
	}
	return e.Provider + ": " + msg
}

func (e *Error) Unwrap() error { return e.Err }

// TotalTokens is input plus output, AG-UI's totalTokens.
func (u Usage) TotalTokens() int64 { return u.InputTokens + u.OutputTokens }
