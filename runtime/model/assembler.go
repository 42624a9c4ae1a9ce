package model

import (
	"context"
	"strconv"
	"strings"
)

// Assembler is the bookkeeping of one turn that every adapter shares: an
// adapter feeds it its SDK's events as items of the answer (text,
// reasoning, tool calls), and it keeps the Sink's order (one text or
// reasoning item open at a time, each closed before another item opens),
// streams each fragment into the sink, and assembles the assistant message
// the Turn returns. The adapter keeps only what its provider's stream
// format needs (OpenAI's calls by index, Anthropic's blocks), so a fix to
// the order or to the assembled message is made once.
//
// The zero value is not ready: call Reset first. An Assembler is one
// turn's and not safe for concurrent use. It is meant to be embedded in
// the adapter's own turn state, and a fragment costs the sink's call and
// the append to the turn's text, nothing more (BenchmarkChunk in each
// adapter: 0 allocations a fragment).
type Assembler struct {
	sink     Sink
	provider string
	id       string

	text      strings.Builder // every text item's, in order: the message's one text part
	textOpen  bool
	textItems int

	reasoning      []Reasoning
	rsn            strings.Builder // the open reasoning item's text
	rsnOpen        bool
	rsnIndex       int // the open reasoning item's index in reasoning
	reasoningItems int

	calls []assembledCall
	last  int // the index in calls of the last call given arguments

	usage    Usage
	hasUsage bool
}

// assembledCall is a call being streamed. Its arguments are a byte slice,
// not a strings.Builder, because calls move when the slice of them grows.
type assembledCall struct {
	call  ToolCall
	args  []byte
	ended bool
}

// Reset readies a for a new turn streamed into sink, from the provider
// named (the *Error's Provider).
func (a *Assembler) Reset(sink Sink, provider string) {
	*a = Assembler{sink: sink, provider: provider}
}

// SetMessageID names the turn's assistant message: the id of its first
// text item and its tool calls' parent. An adapter sets it from the
// provider's first event, before any item.
func (a *Assembler) SetMessageID(id string) { a.id = id }

// Provider is the provider's name, as Reset was given it.
func (a *Assembler) Provider() string { return a.provider }

// MessageID is the turn's message id ("" until set).
func (a *Assembler) MessageID() string { return a.id }

// StartText opens a text item under id, closing an open reasoning item; a
// text item that is open already goes on.
func (a *Assembler) StartText(id string) error {
	if a.textOpen {
		return nil
	}
	if err := a.EndReasoning("", ""); err != nil {
		return err
	}
	a.textOpen = true
	a.textItems++
	return a.sink.StartText(id)
}

// TextOpen reports whether a text item is open.
func (a *Assembler) TextOpen() bool { return a.textOpen }

// Text streams a text fragment, opening a text item first when none is
// open: the turn's first under the message id, a later one (after
// reasoning or a tool call) under the message id with "-text-" and the
// item's number appended, so that no two items share an id.
func (a *Assembler) Text(delta string) error {
	if !a.textOpen {
		id := a.id
		if a.textItems > 0 {
			id += "-text-" + strconv.Itoa(a.textItems)
		}
		if err := a.StartText(id); err != nil {
			return err
		}
	}
	a.text.WriteString(delta)
	return a.sink.Text(delta)
}

// EndText closes the open text item, if any.
func (a *Assembler) EndText() error {
	if !a.textOpen {
		return nil
	}
	a.textOpen = false
	return a.sink.EndText()
}

// StartReasoning opens a reasoning item under id, closing an open text
// item; a reasoning item that is open already goes on.
func (a *Assembler) StartReasoning(id string) error {
	if a.rsnOpen {
		return nil
	}
	if err := a.EndText(); err != nil {
		return err
	}
	a.rsnOpen = true
	a.reasoningItems++
	a.rsnIndex = len(a.reasoning)
	a.reasoning = append(a.reasoning, Reasoning{ID: id})
	return a.sink.StartReasoning(id)
}

// Reasoning streams a reasoning fragment, opening a reasoning item first
// when none is open: the turn's first under the message id with
// "-reasoning" appended, a later one with "-reasoning-" and its number.
func (a *Assembler) Reasoning(delta string) error {
	if !a.rsnOpen {
		id := a.id + "-reasoning"
		if a.reasoningItems > 0 {
			id += "-" + strconv.Itoa(a.reasoningItems)
		}
		if err := a.StartReasoning(id); err != nil {
			return err
		}
	}
	a.rsn.WriteString(delta)
	return a.sink.Reasoning(delta)
}

// EndReasoning closes the open reasoning item, if any, with the signature
// its provider gave it ("" for none) and the signature's type: kept in the
// turn's message, and streamed as the item's encrypted value so that the
// front end can send it back.
func (a *Assembler) EndReasoning(signature, signatureType string) error {
	if !a.rsnOpen {
		return nil
	}
	a.rsnOpen = false
	r := &a.reasoning[a.rsnIndex]
	r.Text, r.Signature, r.Type = a.rsn.String(), signature, signatureType
	a.rsn.Reset()
	if err := a.sink.EndReasoning(); err != nil {
		return err
	}
	if signature == "" {
		return nil
	}
	return a.sink.EncryptedValue(EncryptedValue{EntityID: r.ID, Type: signatureType, Value: signature})
}

// KeepReasoning keeps r in the turn's message without streaming it: what
// the provider needs back within the run but the front end has nothing to
// hold it on (Anthropic's redacted thinking).
func (a *Assembler) KeepReasoning(r Reasoning) { a.reasoning = append(a.reasoning, r) }

// SignToolCall keeps the signature a provider gave a call that has
// started (Gemini's thought signature) in the turn's reasoning, under the
// call's id, and streams it as the call's encrypted value.
func (a *Assembler) SignToolCall(callID, signatureType, signature string) error {
	a.reasoning = append(a.reasoning, Reasoning{ID: callID, Signature: signature, Type: signatureType})
	return a.sink.EncryptedValue(EncryptedValue{ToolCall: true, EntityID: callID, Type: signatureType, Value: signature})
}

// StartToolCall opens a call under the model's id, closing an open text or
// reasoning item; several calls may be open at once.
func (a *Assembler) StartToolCall(id, name string) error {
	if err := a.EndText(); err != nil {
		return err
	}
	if err := a.EndReasoning("", ""); err != nil {
		return err
	}
	a.calls = append(a.calls, assembledCall{call: ToolCall{ID: id, Name: name}})
	return a.sink.StartToolCall(a.id, id, name)
}

// ToolCallArgs streams a fragment of an open call's JSON arguments.
func (a *Assembler) ToolCallArgs(id, delta string) error {
	c := a.call(id)
	if c == nil || c.ended || delta == "" {
		return nil
	}
	c.args = append(c.args, delta...)
	return a.sink.ToolCallArgs(id, delta)
}

// EndToolCall closes an open call. A call whose arguments never came gets
// "{}", so that the front end and the tool read a JSON object.
func (a *Assembler) EndToolCall(id string) error {
	c := a.call(id)
	if c == nil || c.ended {
		return nil
	}
	if len(c.args) == 0 {
		if err := a.ToolCallArgs(id, "{}"); err != nil {
			return err
		}
	}
	c.ended = true
	return a.sink.EndToolCall(id)
}

// call is the call under id; the last one given arguments is looked at
// first, as fragments come in runs.
func (a *Assembler) call(id string) *assembledCall {
	if a.last < len(a.calls) && a.calls[a.last].call.ID == id {
		return &a.calls[a.last]
	}
	for i := range a.calls {
		if a.calls[i].call.ID == id {
			a.last = i
			return &a.calls[i]
		}
	}
	return nil
}

// SetUsage records the turn's usage (the last one set counts, for
// providers that report it cumulatively); Finish reports it once.
func (a *Assembler) SetUsage(u Usage) {
	a.usage, a.hasUsage = u, true
}

// Usage is the usage set so far, and whether any was.
func (a *Assembler) Usage() (Usage, bool) { return a.usage, a.hasUsage }

// Incomplete is the error of a stream that ended before the model
// finished its answer; missing says what did not come ("no
// finish_reason").
func (a *Assembler) Incomplete(missing string) error {
	return &Error{Provider: a.provider, Code: "incomplete_stream",
		Message: "the stream ended before the model finished its answer (" + missing + ")"}
}

// Finish closes what is open (text or reasoning, then each call not yet
// ended, in order), reports the usage, and returns the turn: the
// assistant message (its text, its reasoning, its tool calls), its id,
// and stop, the provider's own reason providerStop mapped by the adapter.
func (a *Assembler) Finish(stop StopReason, providerStop string) (Turn, error) {
	if err := a.EndReasoning("", ""); err != nil {
		return Turn{}, err
	}
	if err := a.EndText(); err != nil {
		return Turn{}, err
	}
	msg := Message{Role: RoleAssistant, Reasoning: a.reasoning}
	if a.text.Len() > 0 {
		msg.Content = []Part{{Kind: PartText, Text: a.text.String()}}
	}
	if len(a.calls) > 0 {
		msg.ToolCalls = make([]ToolCall, len(a.calls))
	}
	for i := range a.calls {
		c := &a.calls[i]
		if err := a.EndToolCall(c.call.ID); err != nil {
			return Turn{}, err
		}
		msg.ToolCalls[i] = c.call
		msg.ToolCalls[i].Arguments = string(c.args)
	}
	turn := Turn{Message: msg, MessageID: a.id, Stop: stop, ProviderStop: providerStop}
	if a.hasUsage {
		turn.Usage = a.usage
		if err := a.sink.Usage(a.usage); err != nil {
			return turn, err
		}
	}
	return turn, nil
}

// StreamError is the error a turn ends with when the SDK's stream failed
// with err: the cause of ctx once it has ended (the run was cancelled, and
// with it the request), or else the provider's error as providerError
// makes it.
func StreamError(ctx context.Context, err error, providerError func(error) error) error {
	if ctx.Err() != nil {
		if cause := context.Cause(ctx); cause != nil {
			return cause
		}
	}
	return providerError(err)
}
