// Package openai is the model adapter for OpenAI's Chat Completions API,
// streamed, on the official SDK (github.com/openai/openai-go/v3). The SDK's
// base URL option (option.WithBaseURL) points it at any server that speaks
// the same API: Ollama (http://localhost:11434/v1), vLLM, LM Studio,
// llama.cpp's server and the hosted providers that copy OpenAI's API.
//
// Chat Completions rather than the Responses API because it is the API
// those compatible servers implement. What its stream carries is mapped
// onto model.Sink as follows:
//   - a chunk's delta.content is text, under the completion's id (every
//     chunk of one completion carries the same id), which is also the
//     message id of the turn's tool calls;
//   - delta.reasoning_content (DeepSeek, vLLM, LM Studio) or
//     delta.reasoning (Ollama, newer vLLM), which OpenAI itself does not
//     send, is reasoning, under the completion's id with "-reasoning"
//     appended (a reasoning message needs an id of its own);
//   - delta.refusal is text too (a refusal is what the model tells the
//     user), with the stop reason model.StopRefusal;
//   - delta.tool_calls arrive in fragments keyed by index: the first names
//     the call's id and function, later ones carry pieces of its JSON
//     arguments, which are streamed as they come; several calls may be open
//     at once, and all are ended when the choice finishes (a call whose
//     arguments never came gets "{}");
//   - the last chunk's usage (asked for with stream_options.include_usage)
//     is reported once, cached and reasoning tokens as parts of the totals;
//   - an {"error": …} event in the stream, or an error status before it,
//     is a *model.Error with the provider's message and code.
//
// Only the first choice is read: the adapter never asks for more (n is
// left at 1).
package openai

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	oai "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/packages/param"
	"github.com/openai/openai-go/v3/packages/ssestream"
	"github.com/openai/openai-go/v3/shared"

	"github.com/agui-gen/agui-gen/runtime/model"
)

// Model is a model served through Chat Completions. It is safe for
// concurrent use.
type Model struct {
	client   oai.Client
	name     string
	provider string
	params   func(*oai.ChatCompletionNewParams)
	reqOpts  []option.RequestOption
}

// Option configures a Model.
type Option func(*Model)

// WithParams lets f set what the request otherwise leaves to the server's
// defaults (temperature, max_completion_tokens, reasoning_effort, …), after
// the adapter has set the model, the messages, the tools and the stream
// options.
func WithParams(f func(*oai.ChatCompletionNewParams)) Option {
	return func(m *Model) { m.params = f }
}

// WithRequestOptions adds SDK request options to every request (headers,
// a timeout, retries).
func WithRequestOptions(opts ...option.RequestOption) Option {
	return func(m *Model) { m.reqOpts = append(m.reqOpts, opts...) }
}

// WithProvider names the provider in the usage reported ("openai" by
// default): "ollama", "vllm", … when the base URL points elsewhere.
func WithProvider(name string) Option {
	return func(m *Model) { m.provider = name }
}

// New returns the model name served by client, such as
//
//	openai.New(oai.NewClient(), "gpt-4.1")                                                  // OPENAI_API_KEY
//	openai.New(oai.NewClient(option.WithBaseURL("http://localhost:11434/v1/")), "qwen3")   // Ollama
func New(client oai.Client, name string, opts ...Option) *Model {
	m := &Model{client: client, name: name, provider: "openai"}
	for _, opt := range opts {
		opt(m)
	}
	return m
}

// Params is the request m sends for req, for inspection and tests.
func (m *Model) Params(req *model.Request) (oai.ChatCompletionNewParams, error) {
	p := oai.ChatCompletionNewParams{
		Model:         shared.ChatModel(m.name),
		StreamOptions: oai.ChatCompletionStreamOptionsParam{IncludeUsage: param.NewOpt(true)},
	}
	if req.System != "" {
		p.Messages = append(p.Messages, oai.SystemMessage(req.System))
	}
	for i := range req.Messages {
		msg, err := message(&req.Messages[i])
		if err != nil {
			return p, fmt.Errorf("openai: message %d (%s): %w", i, req.Messages[i].Role, err)
		}
		p.Messages = append(p.Messages, msg)
	}
	for _, t := range req.Tools {
		fn := shared.FunctionDefinitionParam{Name: t.Name}
		if t.Description != "" {
			fn.Description = param.NewOpt(t.Description)
		}
		if len(t.Parameters) > 0 {
			// The SDK takes the schema as a map; its members stay raw, so
			// nothing below the top level is re-encoded or reordered.
			var schema map[string]json.RawMessage
			if err := json.Unmarshal(t.Parameters, &schema); err != nil {
				return p, fmt.Errorf("openai: the parameters of tool %q are not a JSON Schema object: %w", t.Name, err)
			}
			fn.Parameters = make(shared.FunctionParameters, len(schema))
			for k, v := range schema {
				fn.Parameters[k] = v
			}
		}
		p.Tools = append(p.Tools, oai.ChatCompletionFunctionTool(fn))
	}
	if m.params != nil {
		m.params(&p)
	}
	return p, nil
}

func message(msg *model.Message) (oai.ChatCompletionMessageParamUnion, error) {
	switch msg.Role {
	case model.RoleSystem:
		return oai.SystemMessage(msg.TextOf()), nil
	case model.RoleDeveloper:
		return oai.DeveloperMessage(msg.TextOf()), nil
	case model.RoleTool:
		return oai.ToolMessage(msg.TextOf(), msg.ToolCallID), nil
	case model.RoleAssistant:
		a := oai.ChatCompletionAssistantMessageParam{}
		if text := msg.TextOf(); text != "" || len(msg.ToolCalls) == 0 {
			a.Content.OfString = param.NewOpt(text)
		}
		for _, c := range msg.ToolCalls {
			a.ToolCalls = append(a.ToolCalls, oai.ChatCompletionMessageToolCallUnionParam{
				OfFunction: &oai.ChatCompletionMessageFunctionToolCallParam{ID: c.ID,
					Function: oai.ChatCompletionMessageFunctionToolCallFunctionParam{Name: c.Name, Arguments: c.Arguments}}})
		}
		return oai.ChatCompletionMessageParamUnion{OfAssistant: &a}, nil
	case model.RoleUser:
		if len(msg.Content) == 1 && msg.Content[0].Kind == model.PartText {
			return oai.UserMessage(msg.Content[0].Text), nil
		}
		parts := make([]oai.ChatCompletionContentPartUnionParam, 0, len(msg.Content))
		for i, p := range msg.Content {
			part, err := contentPart(p)
			if err != nil {
				return oai.ChatCompletionMessageParamUnion{}, fmt.Errorf("part %d: %w", i, err)
			}
			parts = append(parts, part)
		}
		return oai.UserMessage(parts), nil
	}
	return oai.ChatCompletionMessageParamUnion{}, fmt.Errorf("role %q is not one of the model package's roles", msg.Role)
}

func contentPart(p model.Part) (oai.ChatCompletionContentPartUnionParam, error) {
	switch p.Kind {
	case model.PartText:
		return oai.TextContentPart(p.Text), nil
	case model.PartImage:
		switch {
		case p.URL != "":
			return oai.ImageContentPart(oai.ChatCompletionContentPartImageImageURLParam{URL: p.URL}), nil
		case p.Data != "":
			return oai.ImageContentPart(oai.ChatCompletionContentPartImageImageURLParam{URL: dataURL(p)}), nil
		}
		return oai.ChatCompletionContentPartUnionParam{}, errors.New("an image part needs a URL or inline data (Chat Completions takes no file id for images)")
	case model.PartAudio:
		format, ok := audioFormats[p.MIMEType]
		if p.Data == "" || !ok {
			return oai.ChatCompletionContentPartUnionParam{}, fmt.Errorf("an audio part must be inline data of type audio/wav or audio/mpeg (Chat Completions' input_audio), not %q", p.MIMEType)
		}
		return oai.InputAudioContentPart(oai.ChatCompletionContentPartInputAudioInputAudioParam{Data: p.Data, Format: format}), nil
	case model.PartDocument:
		switch {
		case p.FileID != "":
			return oai.FileContentPart(oai.ChatCompletionContentPartFileFileParam{FileID: param.NewOpt(p.FileID)}), nil
		case p.Data != "":
			return oai.FileContentPart(oai.ChatCompletionContentPartFileFileParam{FileData: param.NewOpt(dataURL(p)),
				Filename: param.NewOpt("document")}), nil
		}
		return oai.ChatCompletionContentPartUnionParam{}, errors.New("a document part needs inline data or a file id (Chat Completions does not fetch URLs)")
	}
	return oai.ChatCompletionContentPartUnionParam{}, fmt.Errorf("Chat Completions takes no %s parts; leave them out of the conversation", p.Kind)
}

var audioFormats = map[string]string{"audio/wav": "wav", "audio/x-wav": "wav", "audio/mpeg": "mp3", "audio/mp3": "mp3"}

func dataURL(p model.Part) string { return "data:" + p.MIMEType + ";base64," + p.Data }

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
	stream := m.client.Chat.Completions.NewStreaming(ctx, p, m.reqOpts...)
	defer stream.Close()
	var t turn
	t.Reset(sink, m.provider)
	for stream.Next() {
		c := stream.Current()
		if err := t.chunk(&c); err != nil {
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
	var apiErr *oai.Error
	if errors.As(err, &apiErr) {
		code := apiErr.Code
		if code == "" {
			code = apiErr.Type
		}
		msg := apiErr.Message
		if msg == "" {
			msg = fmt.Sprintf("the server answered HTTP %d", apiErr.StatusCode)
		}
		return &model.Error{Provider: m.provider, Status: apiErr.StatusCode, Code: code, Message: msg, Err: err}
	}
	var streamErr *ssestream.StreamError
	if errors.As(err, &streamErr) {
		var body struct {
			Error struct {
				Message string          `json:"message"`
				Type    string          `json:"type"`
				Code    json.RawMessage `json:"code"`
			} `json:"error"`
		}
		e := &model.Error{Provider: m.provider, Message: streamErr.Message, Err: err}
		if json.Unmarshal(streamErr.Event.Data, &body) == nil && body.Error.Message != "" {
			e.Message, e.Code = body.Error.Message, body.Error.Type
			var code string
			if json.Unmarshal(body.Error.Code, &code) == nil && code != "" {
				e.Code = code
			}
		}
		return e
	}
	return fmt.Errorf("%s: the stream broke off: %w", m.provider, err)
}

// turn is one completion as it streams: the shared assembler, and the
// tool calls by the index Chat Completions gives their fragments.
type turn struct {
	model.Assembler
	calls   []*call
	refusal bool
	stop    string // the provider's finish_reason
}

// call is a tool call of the choice, by its index; its arguments wait in
// early until its name has come.
type call struct {
	index   int64
	id      string
	name    string
	early   strings.Builder
	started bool
	ended   bool
}

func (t *turn) chunk(c *oai.ChatCompletionChunk) error {
	if t.MessageID() == "" {
		id := c.ID
		if id == "" {
			id = madeUpID("chatcmpl")
		}
		t.SetMessageID(id)
	}
	if c.JSON.Usage.Valid() {
		u := c.Usage
		t.SetUsage(model.Usage{Provider: t.Provider(), Model: c.Model, InputTokens: u.PromptTokens,
			OutputTokens: u.CompletionTokens, ReasoningTokens: u.CompletionTokensDetails.ReasoningTokens,
			CachedInputTokens: u.PromptTokensDetails.CachedTokens, CacheWriteInputTokens: u.PromptTokensDetails.CacheWriteTokens})
	}
	for i := range c.Choices {
		ch := &c.Choices[i]
		if ch.Index != 0 {
			continue
		}
		if err := t.delta(&ch.Delta); err != nil {
			return err
		}
		if ch.FinishReason != "" {
			t.stop = ch.FinishReason
		}
	}
	return nil
}

func (t *turn) delta(d *oai.ChatCompletionChunkChoiceDelta) error {
	if r := reasoningOf(d); r != "" {
		if err := t.Reasoning(r); err != nil {
			return err
		}
	}
	if d.Content != "" {
		if err := t.Text(d.Content); err != nil {
			return err
		}
	}
	if d.Refusal != "" {
		t.refusal = true
		if err := t.Text(d.Refusal); err != nil {
			return err
		}
	}
	for i := range d.ToolCalls {
		if err := t.toolCall(&d.ToolCalls[i]); err != nil {
			return err
		}
	}
	return nil
}

// reasoningOf is the reasoning a compatible server put in a delta, under
// either of the names servers use. The raw JSON string is sliced, not
// decoded, unless it holds escapes.
func reasoningOf(d *oai.ChatCompletionChunkChoiceDelta) string {
	if d.JSON.ExtraFields == nil {
		return ""
	}
	f, ok := d.JSON.ExtraFields["reasoning_content"]
	if !ok {
		if f, ok = d.JSON.ExtraFields["reasoning"]; !ok {
			return ""
		}
	}
	raw := f.Raw()
	if len(raw) < 2 || raw[0] != '"' {
		return "" // null, or not a string
	}
	if !strings.ContainsRune(raw, '\\') {
		return raw[1 : len(raw)-1]
	}
	var s string
	if json.Unmarshal([]byte(raw), &s) != nil {
		return ""
	}
	return s
}

func (t *turn) toolCall(tc *oai.ChatCompletionChunkChoiceDeltaToolCall) error {
	var c *call
	for _, k := range t.calls {
		if k.index == tc.Index && !k.ended {
			c = k
			break
		}
	}
	// Some servers give every call index 0; a new id is a new call.
	if c != nil && tc.ID != "" && c.id != "" && tc.ID != c.id {
		c.ended = true
		if c.started {
			if err := t.EndToolCall(c.id); err != nil {
				return err
			}
		}
		c = nil
	}
	if c == nil {
		c = &call{index: tc.Index, id: tc.ID}
		t.calls = append(t.calls, c)
		if c.id == "" {
			c.id = fmt.Sprintf("call_%s_%d", t.MessageID(), tc.Index)
		}
	}
	if c.name == "" {
		c.name = tc.Function.Name
	}
	args := tc.Function.Arguments
	if !c.started {
		if c.name == "" {
			c.early.WriteString(args) // its arguments wait for its name
			return nil
		}
		if err := t.StartToolCall(c.id, c.name); err != nil {
			return err
		}
		c.started = true
		if c.early.Len() > 0 {
			c.early.WriteString(args)
			args = c.early.String()
		}
	}
	return t.ToolCallArgs(c.id, args)
}

// finish closes what is open and returns the turn, once the stream ended.
func (t *turn) finish() (model.Turn, error) {
	if t.stop == "" {
		return model.Turn{}, t.Incomplete("no finish_reason")
	}
	for _, c := range t.calls {
		if !c.started {
			return model.Turn{}, t.Incomplete(fmt.Sprintf("tool call %q came without a function name", c.id))
		}
	}
	stop := stopReason(t.stop)
	if t.refusal {
		stop = model.StopRefusal
	}
	return t.Finish(stop, t.stop)
}

func stopReason(finish string) model.StopReason {
	switch finish {
	case "stop":
		return model.StopEnd
	case "tool_calls", "function_call":
		return model.StopToolCalls
	case "length":
		return model.StopMaxTokens
	case "content_filter":
		return model.StopFiltered
	}
	return model.StopOther
}

func madeUpID(prefix string) string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	return prefix + "-" + hex.EncodeToString(b[:])
}
