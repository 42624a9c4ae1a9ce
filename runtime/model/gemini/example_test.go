package gemini_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"

	"google.golang.org/genai"

	agui "github.com/agui-gen/agui-gen/gen/agui"
	"github.com/agui-gen/agui-gen/runtime/model"
	"github.com/agui-gen/agui-gen/runtime/model/gemini"
	"github.com/agui-gen/agui-gen/runtime/model/gemini/geminitest"
)

// weather is a server-side tool: the agent runs it between two model calls.
var weather = model.Func{
	Tool: model.Tool{Name: "get_weather", Description: "The weather in a city.",
		Parameters: json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}`)},
	Call: func(ctx context.Context, args json.RawMessage) (string, error) {
		var a struct{ City string }
		if err := json.Unmarshal(args, &a); err != nil {
			return "", err
		}
		return "18°C and sunny in " + a.City, nil // your weather service here
	},
}

// newHandler is the AG-UI endpoint of an agent on a Gemini model, which
// streams summaries of its thoughts. The front end's tools come with each
// run.
func newHandler(client *genai.Client, name string) (http.Handler, error) {
	thoughts := gemini.WithConfig(func(c *genai.GenerateContentConfig) {
		c.ThinkingConfig = &genai.ThinkingConfig{IncludeThoughts: true}
	})
	agent, err := agui.ModelAgent(gemini.New(client, name, thoughts),
		model.WithSystem("You book tables at a restaurant in Paris. Be brief."),
		model.WithTools(weather),
		model.WithMaxSteps(5))
	if err != nil {
		return nil, err
	}
	return agui.NewHandler(agent), nil
}

// An AG-UI server on a Gemini model, with a server-side Go tool
// (get_weather) and a front-end tool (confirm_booking, declared by the page
// in each run and run there). A local server replays what the model
// streams; for Google's API itself the client is genai.NewClient(ctx, nil)
// (GEMINI_API_KEY, or Vertex AI from GOOGLE_GENAI_USE_VERTEXAI and its
// project settings). The Gemini API gives function calls no ids, so the
// adapter makes them up. A call's thought signature goes to the page as
// REASONING_ENCRYPTED_VALUE; the page sends it back on the call in the
// next run, and the model gets it there, as Gemini 3 requires.
func Example() {
	upstream := geminitest.Start(recorded("example_weather.sse"), recorded("example_booking.sse"), recorded("example_answer.sse"))
	defer upstream.Close()
	client, err := genai.NewClient(context.Background(), &genai.ClientConfig{APIKey: "replayed", Backend: genai.BackendGeminiAPI,
		HTTPOptions: genai.HTTPOptions{BaseURL: upstream.URL + "/"}})
	if err != nil {
		log.Fatal(err)
	}
	h, err := newHandler(client, "gemini-2.5-flash")
	if err != nil {
		log.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()

	// What a front end does: it offers its tool, runs the call of it that
	// ends the run, and sends the result in the next run.
	page := &agui.Client{URL: srv.URL}
	confirm := agui.Tool{Name: "confirm_booking", Description: "Asks the user to confirm a booking.",
		Parameters: json.RawMessage(`{"type":"object","properties":{"people":{"type":"integer"},"time":{"type":"string"},"terrace":{"type":"boolean"}}}`)}
	ask := &agui.UserMessage{BaseMessage: agui.BaseMessage{ID: "u1"},
		Content: agui.TextContent("A table for two at 8pm, on the terrace if the weather is good.")}
	messages := run(page, "r1", confirm, []agui.Message{ask})
	call := messages[len(messages)-1].(*agui.AssistantMessage).ToolCalls[0]
	result := &agui.ToolMessage{ID: "t1", ToolCallID: call.ID, Content: agui.TextContent("the user confirmed")}
	run(page, "r2", confirm, append(messages, result))
	// Output:
	// RUN_STARTED
	// REASONING_START
	// REASONING_MESSAGE_START
	// REASONING_MESSAGE_CONTENT Terrace depends on the weather: check Paris first.
	// REASONING_MESSAGE_END
	// REASONING_END
	// TOOL_CALL_START get_weather
	// TOOL_CALL_ARGS {"city":"Paris"}
	// TOOL_CALL_END
	// REASONING_ENCRYPTED_VALUE tool-call
	// TOOL_CALL_RESULT 18°C and sunny in Paris
	// TEXT_MESSAGE_START Ex2BkngPaHk2MkPqZ2R2Qw
	// TEXT_MESSAGE_CONTENT Sunny, so
	// TEXT_MESSAGE_CONTENT  the terrace.
	// TEXT_MESSAGE_END
	// TOOL_CALL_START confirm_booking
	// TOOL_CALL_ARGS {"people":2,"terrace":true,"time":"20:00"}
	// TOOL_CALL_END
	// REASONING_ENCRYPTED_VALUE tool-call
	// RUN_FINISHED tokens in=235 out=62
	// RUN_STARTED
	// TEXT_MESSAGE_START Ex3AnswPaHk2MkPqZ2R2Qw
	// TEXT_MESSAGE_CONTENT Booked: a terrace table
	// TEXT_MESSAGE_CONTENT  for two at 20:00.
	// TEXT_MESSAGE_END
	// RUN_FINISHED tokens in=180 out=12
}

// run makes one run offering the front end's tool, prints its events and
// returns the conversation after it.
func run(page *agui.Client, runID string, tool agui.Tool, messages []agui.Message) []agui.Message {
	stream, err := page.Run(context.Background(), &agui.RunAgentInput{ThreadID: "t1", RunID: runID,
		Tools: []agui.Tool{tool}, Messages: messages})
	if err != nil {
		log.Fatal(err)
	}
	for ev, err := range stream.Events() {
		if err != nil {
			log.Fatal(err)
		}
		switch ev := ev.(type) {
		case *agui.ToolCallStartEvent:
			fmt.Println(ev.Type(), ev.ToolCallName)
		case *agui.ToolCallArgsEvent:
			fmt.Println(ev.Type(), ev.Delta)
		case *agui.ReasoningEncryptedValueEvent:
			fmt.Println(ev.Type(), ev.Subtype)
		case *agui.ToolCallResultEvent:
			fmt.Println(ev.Type(), ev.Content.Text)
		case *agui.TextMessageStartEvent:
			fmt.Println(ev.Type(), ev.MessageID)
		case *agui.ReasoningMessageContentEvent:
			fmt.Println(ev.Type(), ev.Delta)
		case *agui.TextMessageContentEvent:
			fmt.Println(ev.Type(), ev.Delta)
		case *agui.RunFinishedEvent:
			fmt.Printf("%s tokens in=%d out=%d\n", ev.Type(), *ev.Usage[0].InputTokens, *ev.Usage[0].OutputTokens)
		default:
			fmt.Println(ev.Type())
		}
	}
	return stream.Messages()
}

// recorded is a recorded stream of the model's.
func recorded(name string) geminitest.Reply {
	r, err := geminitest.Load("testdata/" + name)
	if err != nil {
		log.Fatal(err)
	}
	return r
}
