package aguirt

import (
	"context"
	"errors"
	"strings"

	agui "github.com/agui-gen/agui-gen/gen/agui"
	"github.com/agui-gen/agui-gen/runtime/model"
)

// ModelAgent is an agent on a model: each run hands the conversation of
// its input (in.Messages; the context items as the system prompt's end) to
// m, with the front end's tools (in.Tools) beside the server-side tools of
// opts, and streams the answer as events under the model's own ids:
// reasoning, text, tool calls with their arguments as they come, and the
// result of each server-side tool the loop runs (model.WithTools) before
// the model is called again. A call of a front-end tool goes out and ends
// the run, as AG-UI expects: the front end runs it and sends its result in
// the next run, which the model reads from the conversation. The usage of
// every model call is summed per provider and model into RUN_FINISHED (or
// RUN_ERROR). A provider's error ends the run with RUN_ERROR, its message
// naming the provider's reason and its code the provider's (or
// "model_error"); a cancel stops the request to the provider.
//
// m is an adapter, such as runtime/model/openai's; opts are the tool
// loop's (model.WithSystem, model.WithTools, model.WithMaxSteps, …). The
// error is an option's.
func ModelAgent(m model.Model, opts ...model.Option) (Agent, error) {
	loop, err := model.NewLoop(m, opts...)
	if err != nil {
		return nil, err
	}
	return AgentFunc(func(ctx context.Context, in *agui.RunAgentInput, s *Stream) error {
		req := ModelRequest(in)
		_, err := loop.Run(ctx, &req, modelSink{s})
		return modelRunError(err)
	}), nil
}

// ModelRequest is the model's request for a run's input: its messages
// (system, developer, user, assistant with its tool calls, tool results;
// text and media parts), its context items as the system prompt, and its
// tools, the front end's. A reasoning message goes with the assistant
// message after it only when it carries a provider's encrypted value (a
// signed thinking block), as do the encrypted values of tool calls (a
// thought signature): the provider needs them back. Other reasoning and
// activity messages are not sent: a model reasons anew, and activities are
// the UI's.
func ModelRequest(in *agui.RunAgentInput) model.Request {
	req := model.Request{Messages: make([]model.Message, 0, len(in.Messages))}
	if len(in.Context) > 0 {
		var b strings.Builder
		b.WriteString("Context from the application:")
		for _, c := range in.Context {
			b.WriteString("\n\n")
			b.WriteString(c.Description)
			b.WriteString(":\n")
			b.WriteString(c.Value)
		}
		req.System = b.String()
	}
	var signed []model.Reasoning // signed reasoning, for the next assistant message
	for _, m := range in.Messages {
		switch m := m.(type) {
		case *agui.ReasoningMessage:
			if m.EncryptedValue != nil {
				signed = append(signed, model.Reasoning{ID: m.ID, Text: m.Content, Signature: *m.EncryptedValue,
					Type: valueOf(m.EncryptedValueType)})
			}
		case *agui.SystemMessage:
			req.Messages = append(req.Messages, model.Text(model.RoleSystem, m.Content))
		case *agui.DeveloperMessage:
			req.Messages = append(req.Messages, model.Text(model.RoleDeveloper, m.Content))
		case *agui.UserMessage:
			req.Messages = append(req.Messages, model.Message{Role: model.RoleUser, Content: modelParts(m.Content)})
		case *agui.AssistantMessage:
			msg := model.Message{Role: model.RoleAssistant}
			if m.Content != nil && *m.Content != "" {
				msg.Content = []model.Part{{Kind: model.PartText, Text: *m.Content}}
			}
			msg.Reasoning, signed = signed, nil
			for _, c := range m.ToolCalls {
				msg.ToolCalls = append(msg.ToolCalls, model.ToolCall{ID: c.ID, Name: c.Function.Name, Arguments: c.Function.Arguments})
				if c.EncryptedValue != nil {
					msg.Reasoning = append(msg.Reasoning, model.Reasoning{ID: c.ID, Signature: *c.EncryptedValue,
						Type: valueOf(c.EncryptedValueType)})
				}
			}
			req.Messages = append(req.Messages, msg)
		case *agui.ToolMessage:
			msg := model.Message{Role: model.RoleTool, ToolCallID: m.ToolCallID, Content: modelParts(m.Content)}
			if m.Error != nil && *m.Error != "" {
				// The model reads a failed tool's error as its result.
				msg.Content = append([]model.Part{{Kind: model.PartText, Text: "error: " + *m.Error}}, msg.Content...)
			}
			req.Messages = append(req.Messages, msg)
		}
	}
	for _, t := range in.Tools {
		req.Tools = append(req.Tools, model.Tool{Name: t.Name, Description: t.Description, Parameters: t.Parameters})
	}
	return req
}

// modelParts is a content's parts: a string is one text part.
func modelParts(c agui.Content) []model.Part {
	if !c.IsList() {
		return []model.Part{{Kind: model.PartText, Text: c.Text}}
	}
	parts := make([]model.Part, 0, len(c.Parts))
	for _, p := range c.Parts {
		var part model.Part
		var src agui.PartSource
		switch p := p.(type) {
		case *agui.TextPart:
			parts = append(parts, model.Part{Kind: model.PartText, Text: p.Text})
			continue
		case *agui.ImagePart:
			part.Kind, src = model.PartImage, p.Source
		case *agui.AudioPart:
			part.Kind, src = model.PartAudio, p.Source
		case *agui.VideoPart:
			part.Kind, src = model.PartVideo, p.Source
		case *agui.DocumentPart:
			part.Kind, src = model.PartDocument, p.Source
		default:
			continue
		}
		switch s := src.(type) {
		case *agui.DataSource:
			part.Data, part.MIMEType = s.Value, s.MIMEType
		case *agui.URLSource:
			part.URL = s.Value
			if s.MIMEType != nil {
				part.MIMEType = *s.MIMEType
			}
		case *agui.FileSource:
			part.FileID = s.Value
			if s.MIMEType != nil {
				part.MIMEType = *s.MIMEType
			}
		default:
			continue
		}
		parts = append(parts, part)
	}
	return parts
}

// modelRunError is how a model's error ends the run: a provider's error
// keeps its code, a run out of steps says so, and the rest (a cancel, the
// client gone) goes to the handler as it is.
func modelRunError(err error) error {
	var pe *model.Error
	switch {
	case err == nil:
		return nil
	case errors.As(err, &pe):
		code := pe.Code
		if code == "" {
			code = "model_error"
		}
		return &RunError{Message: pe.Error(), Code: code}
	case errors.Is(err, model.ErrMaxSteps):
		return &RunError{Message: err.Error(), Code: "max_steps"}
	}
	return err
}

// modelSink is a Stream as a model's sink: the model's ids are kept, and
// each tool call names the turn's message as its parent (a message of only
// tool calls has no text message to follow).
type modelSink struct{ s *Stream }

func (k modelSink) StartText(id string) error      { return k.s.StartText(id) }
func (k modelSink) Text(delta string) error        { return k.s.Text(delta) }
func (k modelSink) EndText() error                 { return k.s.EndText() }
func (k modelSink) StartReasoning(id string) error { return k.s.StartReasoning(id) }
func (k modelSink) Reasoning(delta string) error   { return k.s.Reasoning(delta) }
func (k modelSink) EndReasoning() error            { return k.s.EndReasoning() }
func (k modelSink) StartToolCall(messageID, callID, name string) error {
	_, err := k.s.StartToolCall(name, ToolCallID(callID), ParentMessageID(messageID))
	return err
}
func (k modelSink) ToolCallArgs(callID, delta string) error { return k.s.ToolCallArgs(callID, delta) }
func (k modelSink) EndToolCall(callID string) error         { return k.s.EndToolCall(callID) }
func (k modelSink) ToolResult(callID, content string) error { return k.s.ToolResult(callID, content) }

// EncryptedValue goes out as REASONING_ENCRYPTED_VALUE on the reasoning
// message or the tool call, which the front end keeps and sends back in
// the next run's messages (ModelRequest reads it there). The value's type
// stays out of the event: @ag-ui/client 1.0.0 does not know
// encryptedValueType, strips it and warns, so the adapters recognise
// their values by where they come back (a signed reasoning message, a
// signed call) rather than by type.
func (k modelSink) EncryptedValue(v model.EncryptedValue) error {
	subtype := agui.ReasoningEncryptedValueSubtypeMessage
	if v.ToolCall {
		subtype = agui.ReasoningEncryptedValueSubtypeToolCall
	}
	return k.s.Emit(&agui.ReasoningEncryptedValueEvent{Subtype: subtype, EntityID: v.EntityID, EncryptedValue: v.Value})
}

func (k modelSink) Usage(u model.Usage) error {
	k.s.AddUsage(agui.TokenUsage{Provider: optional(u.Provider), Model: optional(u.Model),
		InputTokens: &u.InputTokens, OutputTokens: &u.OutputTokens, ReasoningTokens: nonZero(u.ReasoningTokens),
		CachedInputTokens: nonZero(u.CachedInputTokens), CacheWriteInputTokens: nonZero(u.CacheWriteInputTokens)})
	return nil
}

func optional(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func valueOf(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func nonZero(n int64) *int64 {
	if n == 0 {
		return nil
	}
	return &n
}
