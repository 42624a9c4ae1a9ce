package gemini_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/agui-gen/agui-gen/runtime/model"
	"github.com/agui-gen/agui-gen/runtime/model/gemini"
	"github.com/agui-gen/agui-gen/runtime/model/gemini/geminitest"
	"github.com/agui-gen/agui-gen/runtime/model/internal/sinktest"
)

// recorder writes down each call the adapter makes.
type recorder = sinktest.Recorder

var hello = &model.Request{Messages: []model.Message{model.Text(model.RoleUser, "Hello")}}

func stream(t *testing.T, fixture string, req *model.Request) (model.Turn, *recorder, *geminitest.Server) {
	t.Helper()
	srv := geminitest.NewServer(t, geminitest.Fixture(t, "testdata/"+fixture))
	rec := &recorder{}
	turn, err := gemini.New(srv.Client(t), "gemini-2.5-flash").Stream(context.Background(), req, rec)
	if err != nil {
		t.Fatalf("%s: %v", fixture, err)
	}
	return turn, rec, srv
}

func TestText(t *testing.T) {
	turn, rec, _ := stream(t, "text.sse", hello)
	id := "mBhPaOWaL8aE1MkP3vLkoQg"
	want := []string{
		"text-start " + id, `text "Hello"`, `text "! How can I help?"`, "text-end",
		"usage gemini gemini-2.5-flash in=8 out=7 reasoning=0 cached=0",
	}
	if d := cmp.Diff(want, rec.Calls); d != "" {
		t.Errorf("sink calls (-want +got):\n%s", d)
	}
	if turn.Stop != model.StopEnd || turn.ProviderStop != "STOP" || turn.Message.TextOf() != "Hello! How can I help?" ||
		turn.MessageID != id || turn.Usage.TotalTokens() != 15 {
		t.Errorf("turn %+v", turn)
	}
}

// Thought parts are reasoning; function calls arrive whole, several in one
// chunk, under made-up ids (the Gemini API gives none); the signature on a
// call's part is kept for the next request.
func TestThoughtsAndFunctionCalls(t *testing.T) {
	turn, rec, _ := stream(t, "thought_function_calls.sse", hello)
	id := "nBhPaPt2Kc2E1MkPqZ2R2Qw"
	c0, c1 := "call_"+id+"_0", "call_"+id+"_1"
	want := []string{
		"reasoning-start " + id + "-reasoning", `reasoning "Two cities, so two calls."`, "reasoning-end",
		"call-start " + id + " " + c0 + " get_weather", "call-args " + c0 + ` "{\"city\":\"Paris\"}"`, "call-end " + c0,
		"encrypted call " + c0 + ` gemini.thought_signature "c2lnbmF0dXJl"`,
		"call-start " + id + " " + c1 + " get_weather", "call-args " + c1 + ` "{\"city\":\"Tokyo\"}"`, "call-end " + c1,
		"usage gemini gemini-2.5-flash in=60 out=30 reasoning=20 cached=32",
	}
	if d := cmp.Diff(want, rec.Calls); d != "" {
		t.Errorf("sink calls (-want +got):\n%s", d)
	}
	wantMsg := model.Message{Role: model.RoleAssistant,
		ToolCalls: []model.ToolCall{{ID: c0, Name: "get_weather", Arguments: `{"city":"Paris"}`},
			{ID: c1, Name: "get_weather", Arguments: `{"city":"Tokyo"}`}},
		Reasoning: []model.Reasoning{{ID: id + "-reasoning", Text: "Two cities, so two calls."}, {ID: c0, Signature: "c2lnbmF0dXJl", Type: "gemini.thought_signature"}}}
	if d := cmp.Diff(wantMsg, turn.Message); d != "" || turn.Stop != model.StopToolCalls {
		t.Errorf("turn stop %s, message (-want +got):\n%s", turn.Stop, d)
	}
}

// The request: system and developer messages as the system instruction,
// user and model contents (consecutive ones merged), a call's signature
// back on its part, function responses by id and name, media, and the
// tools' schemas.
func TestRequestMapping(t *testing.T) {
	req := &model.Request{
		System: "Be brief.",
		Messages: []model.Message{
			model.Text(model.RoleDeveloper, "Prefer metric units."),
			{Role: model.RoleUser, Content: []model.Part{{Kind: model.PartText, Text: "Weather here?"},
				{Kind: model.PartImage, MIMEType: "image/png", Data: "iVBORw0KGgo="}}},
			{Role: model.RoleUser, Content: []model.Part{{Kind: model.PartImage, MIMEType: "image/jpeg", URL: "https://example.com/sky.jpg"}}},
			{Role: model.RoleAssistant, Content: []model.Part{{Kind: model.PartText, Text: "Checking."}},
				Reasoning: []model.Reasoning{{ID: "r", Text: "thought"}, {ID: "c1", Signature: "c2lnbmF0dXJl"}, // as a front end sends it back: no type
					{ID: "c2", Signature: "c2ln", Type: "anthropic.thinking"}},
				ToolCalls: []model.ToolCall{{ID: "c1", Name: "get_weather", Arguments: `{"city":"Paris"}`},
					{ID: "c2", Name: "get_weather", Arguments: `{"city":"Tokyo"}`}}},
			{Role: model.RoleTool, ToolCallID: "c1", Content: []model.Part{{Kind: model.PartText, Text: "18°C"}}},
			{Role: model.RoleTool, ToolCallID: "c2", Content: []model.Part{{Kind: model.PartText, Text: "25°C"}}},
		},
		Tools: []model.Tool{{Name: "get_weather", Description: "Weather of a city.",
			Parameters: json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}`)}},
	}
	_, _, srv := stream(t, "text.sse", req)
	var got map[string]any
	if err := json.Unmarshal(srv.Requests()[0], &got); err != nil {
		t.Fatal(err)
	}
	var want map[string]any
	if err := json.Unmarshal([]byte(`{
		"generationConfig": {},
		"systemInstruction": {"parts": [{"text": "Be brief."}, {"text": "Prefer metric units."}], "role": "user"},
		"contents": [
			{"role": "user", "parts": [{"text": "Weather here?"}, {"inlineData": {"data": "iVBORw0KGgo=", "mimeType": "image/png"}},
				{"fileData": {"fileUri": "https://example.com/sky.jpg", "mimeType": "image/jpeg"}}]},
			{"role": "model", "parts": [{"text": "Checking."},
				{"functionCall": {"id": "c1", "name": "get_weather", "args": {"city": "Paris"}}, "thoughtSignature": "c2lnbmF0dXJl"},
				{"functionCall": {"id": "c2", "name": "get_weather", "args": {"city": "Tokyo"}}}]},
			{"role": "user", "parts": [
				{"functionResponse": {"id": "c1", "name": "get_weather", "response": {"output": "18°C"}}},
				{"functionResponse": {"id": "c2", "name": "get_weather", "response": {"output": "25°C"}}}]}
		],
		"tools": [{"functionDeclarations": [{"name": "get_weather", "description": "Weather of a city.",
			"parametersJsonSchema": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}]}]
	}`), &want); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("request body (-want +got):\n%s", d)
	}
}

func TestErrorMidStream(t *testing.T) {
	srv := geminitest.NewServer(t, geminitest.Fixture(t, "testdata/error_midstream.sse"))
	rec := &recorder{}
	_, err := gemini.New(srv.Client(t), "gemini-2.5-flash").Stream(context.Background(), hello, rec)
	var me *model.Error
	if !errors.As(err, &me) || me.Code != "UNAVAILABLE" || me.Status != 0 ||
		err.Error() != "gemini: The model is overloaded. Please try again later. (UNAVAILABLE)" {
		t.Fatalf("error %#v", err)
	}
	if got := strings.Join(rec.Calls, "|"); got != `text-start oBhPaErr0rMidStream01|text "The answer is"` {
		t.Errorf("sink calls %s", got)
	}
}

func TestErrorStatus(t *testing.T) {
	srv := geminitest.NewServer(t, geminitest.Reply{Status: http.StatusTooManyRequests,
		Body: []byte(`{"error":{"code":429,"message":"Resource has been exhausted (e.g. check quota).","status":"RESOURCE_EXHAUSTED"}}`)})
	_, err := gemini.New(srv.Client(t), "gemini-2.5-flash").Stream(context.Background(), hello, &recorder{})
	var me *model.Error
	if !errors.As(err, &me) || me.Status != 429 || me.Code != "RESOURCE_EXHAUSTED" ||
		err.Error() != "gemini: Resource has been exhausted (e.g. check quota). (HTTP 429, RESOURCE_EXHAUSTED)" {
		t.Fatalf("error %v", err)
	}
}

// A stream cut before finishReason is an error, not a short answer.
func TestStreamEndingEarly(t *testing.T) {
	r := geminitest.Fixture(t, "testdata/error_midstream.sse")
	r.Body = r.Body[:strings.Index(string(r.Body), `data: {"error"`)]
	srv := geminitest.NewServer(t, r)
	_, err := gemini.New(srv.Client(t), "m").Stream(context.Background(), hello, &recorder{})
	var me *model.Error
	if !errors.As(err, &me) || me.Code != "incomplete_stream" {
		t.Fatalf("error %v", err)
	}
}

// A cancel, or a sink that fails, stops the upstream request: the server
// sees its client go.
func TestCancelStopsTheUpstreamRequest(t *testing.T) {
	for _, how := range []string{"cancel", "sink"} {
		t.Run(how, func(t *testing.T) {
			held := geminitest.Fixture(t, "testdata/error_midstream.sse")
			held.Body = held.Body[:strings.Index(string(held.Body), `data: {"error"`)] // the text, then nothing
			held.Hold = true
			srv := geminitest.NewServer(t, held)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			gone := errors.New("the client went away")
			rec := &recorder{Fail: func(c string) error {
				if c == `text "The answer is"` {
					if how == "cancel" {
						cancel()
						return nil
					}
					return gone
				}
				return nil
			}}
			done := make(chan error, 1)
			go func() {
				_, err := gemini.New(srv.Client(t), "m").Stream(ctx, hello, rec)
				done <- err
			}()
			select {
			case <-srv.Gone:
			case <-time.After(10 * time.Second):
				t.Fatal("the replay server still holds the request")
			}
			err := <-done
			if want := map[string]error{"cancel": context.Canceled, "sink": gone}[how]; !errors.Is(err, want) {
				t.Errorf("error %v, want %v", err, want)
			}
		})
	}
}
