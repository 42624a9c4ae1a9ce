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
//     the turn's Reasoning (ID: the call's id, Signature: base64, Type
//     "gemini.thought_signature") and streamed as the call's encrypted
//     value, and sent back on that call's part, as Gemini 3 requires, in
//     the run's tool loop and, when the front end returns it, in the next
//     run;
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
					// A call the front end sent back has its signature
					// without a type.
					if r.ID == c.ID && r.Signature != "" && (r.Type == thoughtSignatureType || r.Type == "") {
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
	var t turn
	t.Reset(sink, m.provider)
	for resp, err := range m.client.Models.GenerateContentStream(ctx, m.name, contents, config) {
		if err != nil {
			return model.Turn{}, model.StreamError(ctx, err, func(err error) error { return m.providerError(err, t.chunks > 0) })
		}
		if err := t.chunk(resp); err != nil {
			return model.Turn{}, err
		}
	}
	if cerr := context.Cause(ctx); cerr != nil && ctx.Err() != nil {
		return model.Turn{}, cerr
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

// thoughtSignatureType is the type of a function call's thought signature
// (model.Reasoning.Type), kept base64 as Signature.
const thoughtSignatureType = "gemini.thought_signature"

// turn is one response as it streams: the shared assembler, and what
// Gemini's chunks say of the whole.
type turn struct {
	model.Assembler
	chunks   int
	calls    int
	stop     string // the provider's finishReason, or a prompt's blockReason
	filtered bool   // the prompt was blocked
}

func (t *turn) chunk(r *genai.GenerateContentResponse) error {
	t.chunks++
	if t.MessageID() == "" {
		id := r.ResponseID
		if id == "" {
			id = madeUpID("resp")
		}
		t.SetMessageID(id)
	}
	if u := r.UsageMetadata; u != nil {
		// Cumulative: the last chunk's counts.
		t.SetUsage(model.Usage{Provider: t.Provider(), Model: r.ModelVersion,
			InputTokens:       int64(u.PromptTokenCount) + int64(u.ToolUsePromptTokenCount),
			OutputTokens:      int64(u.CandidatesTokenCount) + int64(u.ThoughtsTokenCount),
			ReasoningTokens:   int64(u.ThoughtsTokenCount),
			CachedInputTokens: int64(u.CachedContentTokenCount)})
	}
	if f := r.PromptFeedback; f != nil && f.BlockReason != "" {
		t.stop, t.filtered = string(f.BlockReason), true
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
		fc := p.FunctionCall
		id := fc.ID
		if id == "" {
			id = fmt.Sprintf("call_%s_%d", t.MessageID(), t.calls)
		}
		t.calls++
		args := "{}"
		if len(fc.Args) > 0 {
			b, err := json.Marshal(fc.Args)
			if err != nil {
				return fmt.Errorf("%s: the arguments of call %q: %w", t.Provider(), id, err)
			}
			args = string(b)
		}
		// A call arrives whole: started, given its arguments and ended.
		if err := t.StartToolCall(id, fc.Name); err != nil {
			return err
		}
		if err := t.ToolCallArgs(id, args); err != nil {
			return err
		}
		if err := t.EndToolCall(id); err != nil {
			return err
		}
		if len(p.ThoughtSignature) == 0 {
			return nil
		}
		return t.SignToolCall(id, thoughtSignatureType, base64.StdEncoding.EncodeToString(p.ThoughtSignature))
	case p.Text == "":
		return nil
	case p.Thought:
		return t.Reasoning(p.Text)
	}
	return t.Text(p.Text)
}

// finish closes what is open and returns the turn, once the stream ended.
func (t *turn) finish() (model.Turn, error) {
	if t.stop == "" {
		return model.Turn{}, t.Incomplete("no finishReason")
	}
	stop := stopReason(t.stop, t.calls > 0)
	if t.filtered {
		stop = model.StopFiltered
	}
	return t.Finish(stop, t.stop)
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
