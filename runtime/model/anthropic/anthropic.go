// Package anthropic is the model adapter for Anthropic's Messages API,
// streamed, on the official SDK (github.com/anthropics/anthropic-sdk-go/v2).
//
// The request: the system prompt is the request's system, and system or
// developer messages of the conversation join it (the Messages API has no
// such role in its messages), in order; user and assistant turns alternate,
// consecutive messages of one role merged into one as the API requires; an
// assistant's tool calls are tool_use blocks after its text, its reasoning
// thinking blocks before it (sent back with their signatures, as the API
// requires within a tool loop; reasoning without an Anthropic signature,
// from another provider, is left out); tool results are tool_result blocks of a user
// message; tools carry their JSON Schema as input_schema; max_tokens, which
// the API requires, is WithMaxTokens' (DefaultMaxTokens unless set).
//
// What the stream carries is mapped onto model.Sink as follows:
//   - text blocks are text under the message's id (message_start's); text
//     blocks in a row (as citations split them) are one text item, and a
//     text item after a thinking or tool_use block is under the message id
//     with "-text-" and the block's index appended;
//   - a thinking block is reasoning, under the message id with
//     "-reasoning-" and the block's index appended; its signature
//     (signature_delta) is kept in the turn's Reasoning and streamed as
//     the item's encrypted value (type "anthropic.thinking"), so that a
//     front end sends it back with the reasoning in the next run;
//   - a redacted_thinking block (encrypted) is not streamed; it is kept in
//     the turn's Reasoning (type "anthropic.redacted_thinking", its data
//     as Signature) and sent back within the run's tool loop only;
//   - a tool_use block starts a call under its id and name, its input
//     streams as input_json_delta fragments, and content_block_stop ends
//     it; a call with no input streams "{}";
//   - message_delta's stop_reason is the turn's, and its usage (cumulative)
//     is reported once at the end, cache reads and writes added into the
//     input tokens as AG-UI counts them;
//   - an error event in the stream, or an error status before it, is a
//     *model.Error with the provider's error type ("overloaded_error", …)
//     as its code.
//
// Server tools' blocks (server_tool_use, web search results, …) and
// citations are not streamed: AG-UI has no event for them.
package anthropic

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"
	"github.com/anthropics/anthropic-sdk-go/v2/packages/param"

	"github.com/agui-gen/agui-gen/runtime/model"
)

// DefaultMaxTokens is the max_tokens of a request unless WithMaxTokens says
// otherwise.
const DefaultMaxTokens = 8192

// Model is a model served through the Messages API. It is safe for
// concurrent use.
type Model struct {
	client    sdk.Client
	name      string
	provider  string
	maxTokens int64
	params    func(*sdk.MessageNewParams)
	reqOpts   []option.RequestOption
}

// Option configures a Model.
type Option func(*Model)

// WithMaxTokens sets max_tokens, the most the model may write in a turn
// (thinking included).
func WithMaxTokens(n int64) Option {
	return func(m *Model) { m.maxTokens = n }
}

// WithParams lets f set what the request otherwise leaves to the API's
// defaults (thinking, temperature, tool_choice, cache_control, …), after the
// adapter has set the model, max_tokens, the system prompt, the messages
// and the tools.
func WithParams(f func(*sdk.MessageNewParams)) Option {
	return func(m *Model) { m.params = f }
}

// WithRequestOptions adds SDK request options to every request (headers,
// a timeout, retries).
func WithRequestOptions(opts ...option.RequestOption) Option {
	return func(m *Model) { m.reqOpts = append(m.reqOpts, opts...) }
}

// WithProvider names the provider in the usage reported ("anthropic" by
// default).
func WithProvider(name string) Option {
	return func(m *Model) { m.provider = name }
}

// New returns the model name served by client, such as
//
//	anthropic.New(sdk.NewClient(), "claude-sonnet-4-5") // ANTHROPIC_API_KEY
func New(client sdk.Client, name string, opts ...Option) *Model {
	m := &Model{client: client, name: name, provider: "anthropic", maxTokens: DefaultMaxTokens}
	for _, opt := range opts {
		opt(m)
	}
	return m
}

// Params is the request m sends for req, for inspection and tests.
func (m *Model) Params(req *model.Request) (sdk.MessageNewParams, error) {
	p := sdk.MessageNewParams{Model: sdk.Model(m.name), MaxTokens: m.maxTokens}
	if req.System != "" {
		p.System = append(p.System, sdk.TextBlockParam{Text: req.System})
	}
	for i := range req.Messages {
		msg := &req.Messages[i]
		if msg.Role == model.RoleSystem || msg.Role == model.RoleDeveloper {
			if text := msg.TextOf(); text != "" {
				p.System = append(p.System, sdk.TextBlockParam{Text: text})
			}
			continue
		}
		blocks, err := contentBlocks(msg)
		if err != nil {
			return p, fmt.Errorf("anthropic: message %d (%s): %w", i, msg.Role, err)
		}
		if len(blocks) == 0 {
			continue
		}
		assistant := msg.Role == model.RoleAssistant
		if n := len(p.Messages); n > 0 {
			if last := &p.Messages[n-1]; assistant && last.OfAssistant != nil {
				last.OfAssistant.Content = append(last.OfAssistant.Content, blocks...)
				continue
			} else if !assistant && last.OfUser != nil {
				last.OfUser.Content = append(last.OfUser.Content, blocks...)
				continue
			}
		}
		if assistant {
			p.Messages = append(p.Messages, sdk.NewAssistantMessage(blocks...))
		} else {
			p.Messages = append(p.Messages, sdk.NewUserMessage(blocks...))
		}
	}
	for _, t := range req.Tools {
		// input_schema is required: a tool without arguments has no properties.
		tool := sdk.ToolParam{Name: t.Name, InputSchema: sdk.ToolInputSchemaParam{Properties: map[string]any{}}}
		if t.Description != "" {
			tool.Description = param.NewOpt(t.Description)
		}
		if len(t.Parameters) > 0 {
			// The schema's members stay raw, so nothing below the top level
			// is re-encoded or reordered.
			var schema map[string]json.RawMessage
			if err := json.Unmarshal(t.Parameters, &schema); err != nil {
				return p, fmt.Errorf("anthropic: the parameters of tool %q are not a JSON Schema object: %w", t.Name, err)
			}
			for k, v := range schema {
				switch k {
				case "type":
				case "properties":
					tool.InputSchema.Properties = v
				case "required":
					if err := json.Unmarshal(v, &tool.InputSchema.Required); err != nil {
						return p, fmt.Errorf("anthropic: the required of tool %q's parameters: %w", t.Name, err)
					}
				default:
					if tool.InputSchema.ExtraFields == nil {
						tool.InputSchema.ExtraFields = map[string]any{}
					}
					tool.InputSchema.ExtraFields[k] = v
				}
			}
		}
		p.Tools = append(p.Tools, sdk.ToolUnionParam{OfTool: &tool})
	}
	if m.params != nil {
		m.params(&p)
	}
	return p, nil
}

// contentBlocks are a user, assistant or tool message's blocks.
func contentBlocks(msg *model.Message) ([]sdk.ContentBlockParamUnion, error) {
	switch msg.Role {
	case model.RoleTool:
		return []sdk.ContentBlockParamUnion{{OfToolResult: &sdk.ToolResultBlockParam{ToolUseID: msg.ToolCallID,
			Content: []sdk.ToolResultBlockParamContentUnion{{OfText: &sdk.TextBlockParam{Text: msg.TextOf()}}}}}}, nil
	case model.RoleAssistant:
		var blocks []sdk.ContentBlockParamUnion
		for _, r := range msg.Reasoning {
			switch {
			case r.Signature == "":
				// unsigned, from another provider: the API would refuse it
			case r.Type == redactedThinkingType:
				blocks = append(blocks, sdk.NewRedactedThinkingBlock(r.Signature))
			case r.Type == thinkingType, r.Type == "" && r.Text != "":
				// A signed reasoning message the front end sent back
				// comes without its type.
				blocks = append(blocks, sdk.NewThinkingBlock(r.Signature, r.Text))
			} // another provider's signature (Gemini's, on a call): refused too
		}
		if text := msg.TextOf(); text != "" {
			blocks = append(blocks, sdk.NewTextBlock(text))
		}
		for _, c := range msg.ToolCalls {
			input := json.RawMessage(c.Arguments)
			if strings.TrimSpace(c.Arguments) == "" {
				input = json.RawMessage("{}")
			} else if !json.Valid(input) {
				return nil, fmt.Errorf("the arguments of tool call %q are not JSON", c.ID)
			}
			blocks = append(blocks, sdk.NewToolUseBlock(c.ID, input, c.Name))
		}
		return blocks, nil
	case model.RoleUser:
		blocks := make([]sdk.ContentBlockParamUnion, 0, len(msg.Content))
		for i, p := range msg.Content {
			b, err := contentBlock(p)
			if err != nil {
				return nil, fmt.Errorf("part %d: %w", i, err)
			}
			blocks = append(blocks, b)
		}
		return blocks, nil
	}
	return nil, fmt.Errorf("role %q is not one of the model package's roles", msg.Role)
}

func contentBlock(p model.Part) (sdk.ContentBlockParamUnion, error) {
	switch p.Kind {
	case model.PartText:
		return sdk.NewTextBlock(p.Text), nil
	case model.PartImage:
		switch {
		case p.FileID != "":
			return sdk.NewImageBlock(sdk.FileImageSourceParam{FileID: p.FileID}), nil
		case p.Data != "":
			return sdk.NewImageBlockBase64(p.MIMEType, p.Data), nil
		case p.URL != "":
			return sdk.NewImageBlock(sdk.URLImageSourceParam{URL: p.URL}), nil
		}
		return sdk.ContentBlockParamUnion{}, errors.New("an image part needs inline data, a URL or a file id")
	case model.PartDocument:
		switch {
		case p.FileID != "":
			return sdk.NewDocumentBlock(sdk.FileDocumentSourceParam{FileID: p.FileID}), nil
		case p.Data != "" && p.MIMEType == "application/pdf":
			return sdk.NewDocumentBlock(sdk.Base64PDFSourceParam{Data: p.Data}), nil
		case p.Data != "" && p.MIMEType == "text/plain":
			text, err := base64.StdEncoding.DecodeString(p.Data)
			if err != nil {
				return sdk.ContentBlockParamUnion{}, fmt.Errorf("a text/plain document's data is not base64: %w", err)
			}
			return sdk.NewDocumentBlock(sdk.PlainTextSourceParam{Data: string(text)}), nil
		case p.URL != "":
			return sdk.NewDocumentBlock(sdk.URLPDFSourceParam{URL: p.URL}), nil
		}
		return sdk.ContentBlockParamUnion{}, fmt.Errorf("a document part must be a file id, a URL, or inline application/pdf or text/plain data, not %q", p.MIMEType)
	}
	return sdk.ContentBlockParamUnion{}, fmt.Errorf("the Messages API takes no %s parts; leave them out of the conversation", p.Kind)
}

// Stream sends req and streams the model's answer into sink.
func (m *Model) Stream(ctx context.Context, req *model.Request, sink model.Sink) (model.Turn, error) {
	p, err := m.Params(req)
	if err != nil {
		return model.Turn{}, err
	}
	// A sink that fails (the client went away) ends the request too: the
	// body is closed and with it the connection to the provider.
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stream := m.client.Messages.NewStreaming(ctx, p, m.reqOpts...)
	defer stream.Close()
	var t turn
	t.Reset(sink, m.provider)
	for stream.Next() {
		ev := stream.Current()
		if err := t.event(&ev); err != nil {
			return model.Turn{}, err
		}
	}
	if err := stream.Err(); err != nil {
		return model.Turn{}, model.StreamError(ctx, err, m.providerError)
	}
	return t.finish()
}

// providerError is err, from the SDK, as a *model.Error where the provider
// said what went wrong.
func (m *Model) providerError(err error) error {
	var apiErr *sdk.Error
	if errors.As(err, &apiErr) {
		e := &model.Error{Provider: m.provider, Status: apiErr.StatusCode, Code: string(apiErr.Type()),
			Message: apiErr.Message, Err: err}
		if e.Status == http.StatusOK {
			e.Status = 0 // an error event inside the stream
		}
		if e.Message == "" {
			e.Message = fmt.Sprintf("the server answered HTTP %d", apiErr.StatusCode)
		}
		return e
	}
	return fmt.Errorf("%s: the stream broke off: %w", m.provider, err)
}

// The types of the signatures the adapter keeps (model.Reasoning.Type):
// a thinking block's signature, and a redacted_thinking block's data.
const (
	thinkingType         = "anthropic.thinking"
	redactedThinkingType = "anthropic.redacted_thinking"
)

// turn is one message as it streams: the shared assembler, and the
// content blocks by their index.
type turn struct {
	model.Assembler
	model   string
	blocks  []block // by content block index
	texts   int     // text items opened
	stop    string  // the provider's stop_reason
	stopped bool    // message_stop came
	usage   model.Usage
}

// block is one content block of the message, by its index.
type block struct {
	kind    string // "text", "thinking", "tool_use", or another the adapter does not stream
	id      string // a tool_use's id
	sig     strings.Builder
	started bool
	ended   bool
}

func (t *turn) event(ev *sdk.MessageStreamEventUnion) error {
	switch ev.Type {
	case "content_block_delta":
		b := t.block(ev.Index)
		if b == nil || b.ended {
			return nil
		}
		d := &ev.Delta
		switch d.Type {
		case "text_delta":
			if b.kind != "text" || d.Text == "" {
				return nil
			}
			return t.Text(d.Text)
		case "thinking_delta":
			if b.kind != "thinking" || d.Thinking == "" {
				return nil
			}
			return t.Reasoning(d.Thinking)
		case "signature_delta":
			b.sig.WriteString(d.Signature)
		case "input_json_delta":
			if b.kind != "tool_use" {
				return nil
			}
			return t.ToolCallArgs(b.id, d.PartialJSON)
		}
		return nil
	case "content_block_start":
		return t.start(ev)
	case "content_block_stop":
		return t.stopBlock(ev.Index)
	case "message_start":
		msg := &ev.Message
		t.model = string(msg.Model)
		if msg.ID != "" {
			t.SetMessageID(msg.ID)
		} else {
			t.SetMessageID(madeUpID("msg"))
		}
		u := &msg.Usage
		t.setUsage(u.InputTokens, u.CacheReadInputTokens, u.CacheCreationInputTokens, u.OutputTokens,
			u.OutputTokensDetails.ThinkingTokens)
	case "message_delta":
		if ev.Delta.StopReason != "" {
			t.stop = string(ev.Delta.StopReason)
		}
		u := &ev.Usage
		if u.JSON.OutputTokens.Valid() {
			// Cumulative; the input counts when it gives them again.
			in, read, write := t.usage.InputTokens-t.usage.CachedInputTokens-t.usage.CacheWriteInputTokens,
				t.usage.CachedInputTokens, t.usage.CacheWriteInputTokens
			if u.JSON.InputTokens.Valid() {
				in = u.InputTokens
			}
			if u.JSON.CacheReadInputTokens.Valid() {
				read = u.CacheReadInputTokens
			}
			if u.JSON.CacheCreationInputTokens.Valid() {
				write = u.CacheCreationInputTokens
			}
			thinking := t.usage.ReasoningTokens
			if u.OutputTokensDetails.JSON.ThinkingTokens.Valid() {
				thinking = u.OutputTokensDetails.ThinkingTokens
			}
			t.setUsage(in, read, write, u.OutputTokens, thinking)
		}
	case "message_stop":
		t.stopped = true
	}
	return nil
}

func (t *turn) setUsage(in, read, write, out, thinking int64) {
	t.usage = model.Usage{Provider: t.Provider(), Model: t.model, InputTokens: in + read + write,
		OutputTokens: out, ReasoningTokens: thinking, CachedInputTokens: read, CacheWriteInputTokens: write}
	t.SetUsage(t.usage)
}

func (t *turn) block(index int64) *block {
	if index < 0 || index >= int64(len(t.blocks)) {
		return nil
	}
	return &t.blocks[index]
}

func (t *turn) start(ev *sdk.MessageStreamEventUnion) error {
	if ev.Index < 0 || ev.Index > 1<<16 {
		return nil
	}
	for int64(len(t.blocks)) <= ev.Index {
		t.blocks = append(t.blocks, block{})
	}
	if t.MessageID() == "" { // no message_start: make up the message's id
		t.SetMessageID(madeUpID("msg"))
	}
	cb := &ev.ContentBlock
	b := &t.blocks[ev.Index]
	b.kind = cb.Type
	switch cb.Type {
	case "text":
		// Text blocks in a row (as citations split them) are one item. A
		// text item after a thinking or tool_use block needs an id of its
		// own: the message's was used by the first.
		if !t.TextOpen() {
			id := t.MessageID()
			if t.texts > 0 {
				id += "-text-" + strconv.FormatInt(ev.Index, 10)
			}
			t.texts++
			if err := t.StartText(id); err != nil {
				return err
			}
		}
		b.started = true
		if cb.Text != "" {
			return t.Text(cb.Text)
		}
	case "thinking":
		if err := t.StartReasoning(t.MessageID() + "-reasoning-" + strconv.FormatInt(ev.Index, 10)); err != nil {
			return err
		}
		b.started = true
		b.sig.WriteString(cb.Signature)
		if cb.Thinking != "" {
			return t.Reasoning(cb.Thinking)
		}
	case "redacted_thinking":
		t.KeepReasoning(model.Reasoning{Signature: cb.Data, Type: redactedThinkingType})
	case "tool_use":
		b.id = cb.ID
		if b.id == "" {
			b.id = fmt.Sprintf("toolu_%s_%d", t.MessageID(), ev.Index)
		}
		if err := t.StartToolCall(b.id, cb.Name); err != nil {
			return err
		}
		b.started = true
	}
	return nil
}

func (t *turn) stopBlock(index int64) error {
	b := t.block(index)
	if b == nil || !b.started || b.ended {
		return nil
	}
	b.ended = true
	switch b.kind {
	case "thinking":
		return t.EndReasoning(b.sig.String(), thinkingType)
	case "tool_use":
		return t.EndToolCall(b.id) // "{}" for a call with no input
	}
	return nil
}

// finish closes what is open and returns the turn, once the stream ended.
func (t *turn) finish() (model.Turn, error) {
	if t.stop == "" || !t.stopped {
		return model.Turn{}, t.Incomplete("no stop_reason and message_stop")
	}
	for i := range t.blocks {
		if err := t.stopBlock(int64(i)); err != nil {
			return model.Turn{}, err
		}
	}
	return t.Finish(stopReason(t.stop), t.stop)
}

func stopReason(stop string) model.StopReason {
	switch sdk.StopReason(stop) {
	case sdk.StopReasonEndTurn, sdk.StopReasonStopSequence:
		return model.StopEnd
	case sdk.StopReasonToolUse:
		return model.StopToolCalls
	case sdk.StopReasonMaxTokens, sdk.StopReasonModelContextWindowExceeded:
		return model.StopMaxTokens
	case sdk.StopReasonRefusal:
		return model.StopRefusal
	}
	return model.StopOther // pause_turn: a server tool's long turn, to be continued
}

func madeUpID(prefix string) string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	return prefix + "_" + hex.EncodeToString(b[:])
}
