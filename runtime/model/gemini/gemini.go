// Package gemini is the model adapter for Google's Gemini API, streamed
// (generateContent with streamGenerateContent), on the official SDK
// (google.golang.org/genai). The client's HTTPOptions.BaseURL points it at
// another server; its backend (the Gemini API or Vertex AI) is the
// client's.
//
// The request: the system prompt, and system or developer messages of the
// conversation, are the system instruction; user messages are "user"
// contents, assistant messages "model" contents (text, then one
// functionCall part per tool call), tool results functionResponse parts of
// a "user" content ({"output": <text>}, under the call's id and name);
// consecutive contents of one role are merged; media is inline data or a
// file URI; tools are function declarations with parametersJsonSchema.
//
// What the stream carries is mapped onto model.Sink as follows:
//   - text parts are text under the response's id (responseId, made up when
//     the server gives none);
//   - thought parts (thought summaries, with ThinkingConfig.IncludeThoughts)
//     are reasoning, under the response's id with "-reasoning" appended;
//   - a function call arrives whole: it is started, its arguments sent as
//     one JSON delta and ended at once, under its id (made up when the
//     Gemini API gives none); the thought signature on its part is kept in
//     the turn's Reasoning (ID: the call's id, Signature: base64) and sent
//     back on that call's part, as Gemini 3 requires within a tool loop;
//   - usageMetadata (cumulative; the last one counts) is reported once at
//     the end, thoughts tokens added into the output tokens as AG-UI counts
//     them;
//   - an {"error": …} in the stream, or an error status before it, is a
//     *model.Error with the API's status ("RESOURCE_EXHAUSTED", …) as its
//     code.
//
// Only the first candidate is read: the adapter never asks for more.
package gemini

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"google.golang.org/genai"

	"github.com/agui-gen/agui-gen/runtime/model"
)

// Model is a model served through the Gemini API. It is safe for
// concurrent use.
type Model struct {
	client   *genai.Client
	name     string
	provider string
	config   func(*genai.GenerateContentConfig)
}

// Option configures a Model.
type Option func(*Model)

// WithConfig lets f set what the request otherwise leaves to the API's
// defaults (ThinkingConfig, Temperature, MaxOutputTokens, safety settings,
// …), after the adapter has set the system instruction and the tools.
func WithConfig(f func(*genai.GenerateContentConfig)) Option {
	return func(m *Model) { m.config = f }
}

// WithProvider names the provider in the usage reported ("gemini" by
// default).
func WithProvider(name string) Option {
	return func(m *Model) { m.provider = name }
}

// New returns the model name served by client, such as
//
//	client, err := genai.NewClient(ctx, nil) // GEMINI_API_KEY
//	gemini.New(client, "gemini-2.5-flash")
func New(client *genai.Client, name string, opts ...Option) *Model {
	m := &Model{client: client, name: name, provider: "gemini"}
	for _, opt := range opts {
		opt(m)
	}
	return m
}

// Request is the contents and configuration m sends for req, for
// inspection and tests.
func (m *Model) Request(req *model.Request) ([]*genai.Content, *genai.GenerateContentConfig, error) {
	config := &genai.GenerateContentConfig{}
	var system []*genai.Part
	if req.System != "" {
		system = append(system, &genai.Part{Text: req.System})
	}
	var contents []*genai.Content
	names := map[string]string{} // call id → function name, for the results
	for i := range req.Messages {
		msg := &req.Messages[i]
		var role string
		var parts []*genai.Part
		switch msg.Role {
		case model.RoleSystem, model.RoleDeveloper:
			if text := msg.TextOf(); text != "" {
				system = append(system, &genai.Part{Text: text})
			}
			continue
		case model.RoleUser:
			role = genai.RoleUser
			for j, p := range msg.Content {
				part, err := contentPart(p)
				if err != nil {
					return nil, nil, fmt.Errorf("gemini: message %d (user): part %d: %w", i, j, err)
				}
				parts = append(parts, part)
			}
		case model.RoleAssistant:
			role = genai.RoleModel
			if text := msg.TextOf(); text != "" {
				parts = append(parts, &genai.Part{Text: text})
			}
			for _, c := range msg.ToolCalls {
				var args map[string]any
				if strings.TrimSpace(c.Arguments) != "" {
					if err := json.Unmarshal([]byte(c.Arguments), &args); err != nil {
						return nil, nil, fmt.Errorf("gemini: message %d (assistant): the arguments of tool call %q are not a JSON object: %w", i, c.ID, err)
					}
				}
				names[c.ID] = c.Name
				part := &genai.Part{FunctionCall: &genai.FunctionCall{ID: c.ID, Name: c.Name, Args: args}}
				for _, r := range msg.Reasoning {
					if r.ID == c.ID && r.Signature != "" {
						part.ThoughtSignature, _ = base64.StdEncoding.DecodeString(r.Signature)
					}
				}
				parts = append(parts, part)
			}
		case model.RoleTool:
			role = genai.RoleUser
			name := names[msg.ToolCallID]
			if name == "" {
				return nil, nil, fmt.Errorf("gemini: message %d (tool): no assistant message before it called %q (Gemini needs the function's name)", i, msg.ToolCallID)
			}
			parts = append(parts, &genai.Part{FunctionResponse: &genai.FunctionResponse{ID: msg.ToolCallID, Name: name,
				Response: map[string]any{"output": msg.TextOf()}}})
		default:
			return nil, nil, fmt.Errorf("gemini: message %d: role %q is not one of the model package's roles", i, msg.Role)
		}
		if len(parts) == 0 {
			continue
		}
		if n := len(contents); n > 0 && contents[n-1].Role == role {
			contents[n-1].Parts = append(contents[n-1].Parts, parts...)
			continue
		}
		contents = append(contents, &genai.Content{Role: role, Parts: parts})
	}
	if len(system) > 0 {
		config.SystemInstruction = &genai.Content{Parts: system}
	}
	if len(req.Tools) > 0 {
		decls := make([]*genai.FunctionDeclaration, 0, len(req.Tools))
		for _, t := range req.Tools {
			d := &genai.FunctionDeclaration{Name: t.Name, Description: t.Description}
			if len(t.Parameters) > 0 {
				if !json.Valid(t.Parameters) || strings.TrimSpace(string(t.Parameters))[0] != '{' {
					return nil, nil, fmt.Errorf("gemini: the parameters of tool %q are not a JSON Schema object", t.Name)
				}
				d.ParametersJsonSchema = t.Parameters
			}
			decls = append(decls, d)
		}
		config.Tools = []*genai.Tool{{FunctionDeclarations: decls}}
	}
	if m.config != nil {
		m.config(config)
	}
	return contents, config, nil
}

func contentPart(p model.Part) (*genai.Part, error) {
	if p.Kind == model.PartText {
		return &genai.Part{Text: p.Text}, nil
	}
	switch {
	case p.Data != "":
		data, err := base64.StdEncoding.DecodeString(p.Data)
		if err != nil {
			return nil, fmt.Errorf("a %s part's data is not base64: %w", p.Kind, err)
		}
		return &genai.Part{InlineData: &genai.Blob{Data: data, MIMEType: p.MIMEType}}, nil
	case p.FileID != "":
		return &genai.Part{FileData: &genai.FileData{FileURI: p.FileID, MIMEType: p.MIMEType}}, nil
	case p.URL != "":
		return &genai.Part{FileData: &genai.FileData{FileURI: p.URL, MIMEType: p.MIMEType}}, nil
	}
	return nil, fmt.Errorf("a %s part needs inline data, a file id or a URL", p.Kind)
}

// Stream sends req and streams the model's answer into sink.
func (m *Model) Stream(ctx context.Context, req *model.Request, sink model.Sink) (model.Turn, error) {
	contents, config, err := m.Request(req)
	if err != nil {
		return model.Turn{}, err
	}
	// A sink that fails (the client went away) ends the request too: leaving
	// the range closes the body, and with it the connection.
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	t := turn{sink: sink, provider: m.provider}
	for resp, err := range m.client.Models.GenerateContentStream(ctx, m.name, contents, config) {
		if err != nil {
			if cerr := context.Cause(ctx); cerr != nil && ctx.Err() != nil {
				return t.out, cerr
			}
			return t.out, m.providerError(err, t.chunks > 0)
		}
		if err := t.chunk(resp); err != nil {
			return t.out, err
		}
	}
	if cerr := context.Cause(ctx); cerr != nil && ctx.Err() != nil {
		return t.out, cerr
	}
	return t.finish()
}

// providerError is err, from the SDK, as a *model.Error where the provider
// said what went wrong; inStream when it came after the stream began.
func (m *Model) providerError(err error, inStream bool) error {
	var apiErr genai.APIError
	if errors.As(err, &apiErr) {
		e := &model.Error{Provider: m.provider, Status: apiErr.Code, Code: apiErr.Status, Message: apiErr.Message, Err: err}
		if inStream {
			e.Status = 0
		}
		if e.Message == "" {
			e.Message = fmt.Sprintf("the server answered HTTP %d", apiErr.Code)
		}
		return e
	}
	return fmt.Errorf("%s: the stream broke off: %w", m.provider, err)
}

// turn assembles one response as it streams.
type turn struct {
	sink      model.Sink
	provider  string
	out       model.Turn
	chunks    int
	id        string
	text      strings.Builder
	reasoning strings.Builder
	textOpen  bool
	rsnOpen   bool
	calls     []model.ToolCall
	sigs      []model.Reasoning
	stop      string      // the provider's finishReason, or a prompt's blockReason
	usage     model.Usage // the last chunk's (Gemini's counts are cumulative)
	hasUsage  bool
}

func (t *turn) chunk(r *genai.GenerateContentResponse) error {
	t.chunks++
	if t.id == "" {
		t.id = r.ResponseID
		if t.id == "" {
			t.id = madeUpID("resp")
		}
	}
	if u := r.UsageMetadata; u != nil {
		t.hasUsage = true
		t.usage = model.Usage{Provider: t.provider, Model: r.ModelVersion,
			InputTokens:       int64(u.PromptTokenCount) + int64(u.ToolUsePromptTokenCount),
			OutputTokens:      int64(u.CandidatesTokenCount) + int64(u.ThoughtsTokenCount),
			ReasoningTokens:   int64(u.ThoughtsTokenCount),
			CachedInputTokens: int64(u.CachedContentTokenCount)}
	}
	if f := r.PromptFeedback; f != nil && f.BlockReason != "" {
		t.stop, t.out.Stop = string(f.BlockReason), model.StopFiltered
	}
	for _, c := range r.Candidates {
		if c == nil || c.Index != 0 {
			continue
		}
		if c.Content != nil {
			for _, p := range c.Content.Parts {
				if p == nil {
					continue
				}
				if err := t.part(p); err != nil {
					return err
				}
			}
		}
		if c.FinishReason != "" && c.FinishReason != genai.FinishReasonUnspecified {
			t.stop = string(c.FinishReason)
		}
	}
	return nil
}

func (t *turn) part(p *genai.Part) error {
	switch {
	case p.FunctionCall != nil:
		if err := t.endText(); err != nil {
			return err
		}
		if err := t.endReasoning(); err != nil {
			return err
		}
		fc := p.FunctionCall
		id := fc.ID
		if id == "" {
			id = fmt.Sprintf("call_%s_%d", t.id, len(t.calls))
		}
		args := "{}"
		if len(fc.Args) > 0 {
			b, err := json.Marshal(fc.Args)
			if err != nil {
				return fmt.Errorf("%s: the arguments of call %q: %w", t.provider, id, err)
			}
			args = string(b)
		}
		t.calls = append(t.calls, model.ToolCall{ID: id, Name: fc.Name, Arguments: args})
		if len(p.ThoughtSignature) > 0 {
			t.sigs = append(t.sigs, model.Reasoning{ID: id, Signature: base64.StdEncoding.EncodeToString(p.ThoughtSignature)})
		}
		if err := t.sink.StartToolCall(t.id, id, fc.Name); err != nil {
			return err
		}
		if err := t.sink.ToolCallArgs(id, args); err != nil {
			return err
		}
		return t.sink.EndToolCall(id)
	case p.Text == "":
		return nil
	case p.Thought:
		if !t.rsnOpen {
			if err := t.endText(); err != nil {
				return err
			}
			if err := t.sink.StartReasoning(t.id + "-reasoning"); err != nil {
				return err
			}
			t.rsnOpen = true
		}
		t.reasoning.WriteString(p.Text)
		return t.sink.Reasoning(p.Text)
	}
	if !t.textOpen {
		if err := t.endReasoning(); err != nil {
			return err
		}
		if err := t.sink.StartText(t.id); err != nil {
			return err
		}
		t.textOpen = true
	}
	t.text.WriteString(p.Text)
	return t.sink.Text(p.Text)
}

func (t *turn) endText() error {
	if !t.textOpen {
		return nil
	}
	t.textOpen = false
	return t.sink.EndText()
}

func (t *turn) endReasoning() error {
	if !t.rsnOpen {
		return nil
	}
	t.rsnOpen = false
	return t.sink.EndReasoning()
}

// finish closes what is open and returns the turn, once the stream ended.
func (t *turn) finish() (model.Turn, error) {
	if t.stop == "" {
		return t.out, &model.Error{Provider: t.provider, Code: "incomplete_stream",
			Message: "the stream ended before the model finished its answer (no finishReason)"}
	}
	if err := t.endReasoning(); err != nil {
		return t.out, err
	}
	if err := t.endText(); err != nil {
		return t.out, err
	}
	msg := model.Message{Role: model.RoleAssistant, ToolCalls: t.calls}
	if t.text.Len() > 0 {
		msg.Content = []model.Part{{Kind: model.PartText, Text: t.text.String()}}
	}
	if t.reasoning.Len() > 0 {
		msg.Reasoning = append(msg.Reasoning, model.Reasoning{ID: t.id + "-reasoning", Text: t.reasoning.String()})
	}
	msg.Reasoning = append(msg.Reasoning, t.sigs...)
	t.out.Message, t.out.MessageID, t.out.ProviderStop = msg, t.id, t.stop
	if t.out.Stop == "" {
		t.out.Stop = stopReason(t.stop, len(t.calls) > 0)
	}
	if t.hasUsage {
		t.out.Usage = t.usage
		if err := t.sink.Usage(t.usage); err != nil {
			return t.out, err
		}
	}
	return t.out, nil
}

func stopReason(finish string, calls bool) model.StopReason {
	switch genai.FinishReason(finish) {
	case genai.FinishReasonStop:
		if calls {
			return model.StopToolCalls // Gemini says STOP after function calls too
		}
		return model.StopEnd
	case genai.FinishReasonMaxTokens:
		return model.StopMaxTokens
	case genai.FinishReasonSafety, genai.FinishReasonRecitation, genai.FinishReasonBlocklist,
		genai.FinishReasonProhibitedContent, genai.FinishReasonSPII, genai.FinishReasonImageSafety:
		return model.StopFiltered
	}
	return model.StopOther
}

func madeUpID(prefix string) string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	return prefix + "-" + hex.EncodeToString(b[:])
}
