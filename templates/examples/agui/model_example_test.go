package agui_test

// This file is not copied into generated packages (only example_test.go
// is): it imports the OpenAI adapter, whose SDK a generated package's
// users should not take in unless they use it.

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"

	oai "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	agui "github.com/agui-gen/agui-gen/gen/agui"
	"github.com/agui-gen/agui-gen/runtime/model"
	"github.com/agui-gen/agui-gen/runtime/model/openai"
)

// newModelAgent is an agent on an OpenAI-compatible model with one
// server-side tool; baseURL is the server's ("" for OpenAI's own).
func newModelAgent(baseURL, name string) (agui.Agent, error) {
	opts := []option.RequestOption{} // the key comes from OPENAI_API_KEY
	if baseURL != "" {
		opts = append(opts, option.WithBaseURL(baseURL)) // Ollama: http://localhost:11434/v1/
	}
	weather := model.Func{
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
	return agui.ModelAgent(openai.New(oai.NewClient(opts...), name),
		model.WithSystem("You are a travel assistant. Be brief."),
		model.WithTools(weather), // run here; the front end's tools come with each run
		model.WithMaxSteps(5))
}

// An agent on a real model through an adapter: the model's text, reasoning
// and tool calls stream as events under its ids, the server-side tool runs
// between two model calls, and usage ends up in RUN_FINISHED. Here the
// model is a local server that replays what an OpenAI-compatible server
// streams.
func Example_modelAdapter() {
	replies := []string{
		`{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"demo","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"get_weather","arguments":"{\"city\":"}}]},"finish_reason":null}]}`,
		`{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"demo","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"\"Paris\"}"}}]},"finish_reason":"tool_calls"}]}`,
		`{"id":"chatcmpl-2","object":"chat.completion.chunk","created":1,"model":"demo","choices":[{"index":0,"delta":{"content":"Sunny, 18°C."},"finish_reason":"stop"}],"usage":{"prompt_tokens":30,"completion_tokens":5,"total_tokens":35}}`,
	}
	calls := 0
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		chunks := replies[:2]
		if calls++; calls == 2 {
			chunks = replies[2:]
		}
		for _, c := range chunks {
			fmt.Fprintf(w, "data: %s\n\n", c)
		}
		fmt.Fprint(w, "data: [DONE]\n\n")
	}))
	defer upstream.Close()
	agent, err := newModelAgent(upstream.URL+"/v1/", "demo")
	if err != nil {
		log.Fatal(err)
	}
	srv := httptest.NewServer(newMux(agent))
	defer srv.Close()

	client := &agui.Client{URL: srv.URL + "/agui"}
	ask := &agui.UserMessage{BaseMessage: agui.BaseMessage{ID: "u1"}, Content: agui.TextContent("Weather in Paris?")}
	run, err := client.Run(context.Background(), &agui.RunAgentInput{ThreadID: "t1", RunID: "r1", Messages: []agui.Message{ask}})
	if err != nil {
		log.Fatal(err)
	}
	for ev, err := range run.Events() {
		if err != nil {
			log.Fatal(err)
		}
		switch ev := ev.(type) {
		case *agui.ToolCallStartEvent:
			fmt.Println(ev.Type(), ev.ToolCallID, ev.ToolCallName)
		case *agui.ToolCallArgsEvent:
			fmt.Println(ev.Type(), ev.Delta)
		case *agui.ToolCallResultEvent:
			fmt.Println(ev.Type(), ev.Content.Text)
		case *agui.TextMessageContentEvent:
			fmt.Println(ev.Type(), ev.MessageID, ev.Delta)
		case *agui.RunFinishedEvent:
			fmt.Println(ev.Type(), *ev.Usage[0].InputTokens, *ev.Usage[0].OutputTokens)
		default:
			fmt.Println(ev.Type())
		}
	}
	// Output:
	// RUN_STARTED
	// TOOL_CALL_START call_1 get_weather
	// TOOL_CALL_ARGS {"city":
	// TOOL_CALL_ARGS "Paris"}
	// TOOL_CALL_END
	// TOOL_CALL_RESULT 18°C and sunny in Paris
	// TEXT_MESSAGE_START
	// TEXT_MESSAGE_CONTENT chatcmpl-2 Sunny, 18°C.
	// TEXT_MESSAGE_END
	// RUN_FINISHED 30 5
}
