// Package aguiclienttest serves agui.ModelAgent on a model adapter to the
// official AG-UI client, @ag-ui/client's HttpAgent in Node (the version
// interop/node's lock file pins), and checks what the client makes of each
// run. It holds no SDK: each adapter's module runs it on its own replayed
// streams.
package aguiclienttest

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agui-gen/agui-gen/gen/agui"
	"github.com/agui-gen/agui-gen/internal/teetest"
	"github.com/agui-gen/agui-gen/runtime/model"
)

// Case is one replayed model stream (or several, for a tool loop) served
// by ModelAgent through the generated handler.
type Case struct {
	Name     string
	Fixtures []string // under the adapter's testdata, one per model call
	// FrontEnd makes get_weather and confirm_booking the front end's tools;
	// otherwise get_weather is a server-side tool.
	FrontEnd bool
	// Text is the assistant's text at the run's end (all its messages'),
	// Calls the tool calls it made ("name arguments"), Results the
	// server-side tools' results, RunError what RUN_ERROR says, Encrypted
	// the provider's signatures the client keeps on reasoning messages and
	// tool calls, to send back.
	Text      string
	Calls     []string
	Results   []string
	RunError  string
	Encrypted []string
}

var (
	weatherTool = agui.Tool{Name: "get_weather", Description: "The weather in a city.",
		Parameters: json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}`)}
	confirmTool = agui.Tool{Name: "confirm_booking", Description: "Asks the user to confirm a booking.",
		Parameters: json.RawMessage(`{"type":"object","properties":{"people":{"type":"integer"},"time":{"type":"string"},"terrace":{"type":"boolean"}}}`)}
)

// Run serves each case, ModelAgent on newModel's model replaying the case's
// fixtures (each joined to testdata), through the generated handler, and
// checks that @ag-ui/client@1.0.0's HttpAgent accepts it (its verifier
// throws on a bad sequence): the client emits each event as served, in
// order, with no warning, and builds the messages the agent streamed. One
// Node process makes every run. Without Node or interop/node's packages it
// skips, and fails when CI is set.
func Run(t *testing.T, testdata string, newModel func(t *testing.T, fixtures []string) model.Model, cases []Case) {
	t.Helper()
	nodeDir := requireNode(t)
	var bodies []*teetest.Handler
	var runs []any
	for _, c := range cases {
		fixtures := make([]string, len(c.Fixtures))
		for i, f := range c.Fixtures {
			fixtures[i] = filepath.Join(testdata, f)
		}
		tee := &teetest.Handler{H: agui.NewHandler(modelAgent(t, newModel(t, fixtures), c.FrontEnd))}
		srv := httptest.NewServer(tee)
		t.Cleanup(srv.Close)
		frontEnd := []agui.Tool{confirmTool}
		if c.FrontEnd {
			frontEnd = append(frontEnd, weatherTool)
		}
		runs = append(runs, map[string]any{"url": srv.URL, "tools": frontEnd,
			"messages": []any{map[string]string{"id": "user-1", "role": "user", "content": "Weather in Paris?"}}})
		bodies = append(bodies, tee)
	}
	input, err := json.Marshal(runs)
	if err != nil {
		t.Fatal(err)
	}
	out := runNode(t, nodeDir, input, "run-httpagent-model.mjs")
	var reports []httpAgentModelRun
	if err := json.Unmarshal(out, &reports); err != nil || len(reports) != len(cases) {
		t.Fatalf("%d reports for %d runs, %v\n%s", len(reports), len(cases), err, out)
	}
	for i, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			served := bodies[i].Bodies()
			if len(served) != 1 {
				t.Fatalf("the handler served %d requests, want 1", len(served))
			}
			checkModelRun(t, c, teetest.SSEData(t, served[0]), &reports[i])
		})
	}
}

// requireNode returns interop/node, whose npm packages hold @ag-ui/client,
// or skips when Node or the packages are missing (fails under CI).
func requireNode(t *testing.T) string {
	t.Helper()
	// This file is runtime/model/internal/aguiclienttest/ of the checkout.
	_, file, _, ok := runtime.Caller(0)
	dir := filepath.Join(filepath.Dir(file), "..", "..", "..", "..", "interop", "node")
	_, errNode := exec.LookPath("node")
	_, errMods := os.Stat(filepath.Join(dir, "node_modules", "@ag-ui", "core"))
	if ok && errNode == nil && errMods == nil {
		return dir
	}
	msg := "Node peers missing: install Node.js and run `npm ci` in interop/node"
	if os.Getenv("CI") != "" {
		t.Fatal(msg)
	}
	t.Skip(msg)
	return ""
}

func runNode(t *testing.T, dir string, stdin []byte, args ...string) []byte {
	t.Helper()
	cmd := exec.Command("node", args...)
	cmd.Dir = dir
	cmd.Stdin = bytes.NewReader(stdin)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return out
}

// modelAgent is ModelAgent on m, with get_weather as a server-side tool
// unless the front end has it.
func modelAgent(t *testing.T, m model.Model, frontEnd bool) agui.Agent {
	var opts []model.Option
	if !frontEnd {
		opts = append(opts, model.WithTools(model.Func{
			Tool: model.Tool{Name: weatherTool.Name, Description: weatherTool.Description, Parameters: weatherTool.Parameters},
			Call: func(ctx context.Context, args json.RawMessage) (string, error) {
				var a struct{ City string }
				err := json.Unmarshal(args, &a)
				return "18°C and sunny in " + a.City, err
			}}))
	}
	agent, err := agui.ModelAgent(m, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return agent
}

// httpAgentModelRun is what run-httpagent-model.mjs prints for a run.
type httpAgentModelRun struct {
	OK       bool              `json:"ok"`
	Error    string            `json:"error"`
	Events   []json.RawMessage `json:"events"`
	Messages []json.RawMessage `json:"messages"`
	RunError *struct {
		Message string `json:"message"`
	} `json:"runError"`
	Warnings []string `json:"warnings"`
}

func checkModelRun(t *testing.T, c Case, servedEvents [][]byte, run *httpAgentModelRun) {
	// A RUN_ERROR ends a run the client accepts too: runAgent resolves.
	if !run.OK {
		t.Fatalf("HttpAgent rejected the run: %s (after %d events)", run.Error, len(run.Events))
	}
	if len(run.Warnings) > 0 {
		t.Errorf("HttpAgent warned: %q", run.Warnings)
	}

	// The client emitted every event served, as served.
	if len(run.Events) != len(servedEvents) {
		t.Errorf("HttpAgent emitted %d events, the handler served %d", len(run.Events), len(servedEvents))
	}
	for i := 0; i < min(len(run.Events), len(servedEvents)); i++ {
		var got, want any
		_ = json.Unmarshal(run.Events[i], &got)
		_ = json.Unmarshal(servedEvents[i], &want)
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("event %d (-served +emitted):\n%s", i, d)
		}
	}

	// The messages the client built hold what the model streamed.
	var text strings.Builder
	var calls, results, encrypted []string
	for _, raw := range run.Messages {
		var msg struct {
			Role           string `json:"role"`
			Content        any    `json:"content"`
			EncryptedValue string `json:"encryptedValue"`
			ToolCalls      []struct {
				ID       string `json:"id"`
				Function struct {
					Name      string `json:"name"`
					Arguments string `json:"arguments"`
				} `json:"function"`
				EncryptedValue string `json:"encryptedValue"`
			} `json:"toolCalls"`
		}
		if err := json.Unmarshal(raw, &msg); err != nil {
			t.Fatal(err)
		}
		if msg.EncryptedValue != "" {
			encrypted = append(encrypted, msg.Role+" "+msg.EncryptedValue)
		}
		for _, tc := range msg.ToolCalls {
			if tc.EncryptedValue != "" {
				encrypted = append(encrypted, "call "+tc.EncryptedValue)
			}
		}
		switch msg.Role {
		case "assistant":
			if s, ok := msg.Content.(string); ok {
				text.WriteString(s)
			}
			for _, tc := range msg.ToolCalls {
				calls = append(calls, tc.Function.Name+" "+tc.Function.Arguments)
			}
		case "tool":
			s, _ := msg.Content.(string)
			results = append(results, s)
		}
	}
	if text.String() != c.Text {
		t.Errorf("assistant text %q, want %q", text.String(), c.Text)
	}
	if d := cmp.Diff(c.Calls, calls); d != "" {
		t.Errorf("tool calls (-want +got):\n%s", d)
	}
	if d := cmp.Diff(c.Results, results); d != "" {
		t.Errorf("tool results (-want +got):\n%s", d)
	}
	if d := cmp.Diff(c.Encrypted, encrypted); d != "" {
		t.Errorf("encrypted values kept (-want +got):\n%s", d)
	}
	// The client's messages are the next run's: the signatures it kept
	// reach the model's request there. Each message is mapped alone, with
	// an assistant message after it for a signed reasoning message to go
	// with, so that each signature is counted once, by what carried it.
	var back []string
	for _, raw := range run.Messages {
		m, err := agui.UnmarshalMessage(raw)
		if err != nil {
			t.Fatalf("the client's message %s: %v", raw, err)
		}
		in := agui.RunAgentInput{Messages: []agui.Message{m, &agui.AssistantMessage{}}}
		for _, msg := range agui.ModelRequest(&in).Messages {
			for _, r := range msg.Reasoning {
				kind := "reasoning"
				if _, ok := m.(*agui.AssistantMessage); ok {
					kind = "call"
				}
				back = append(back, kind+" "+r.Signature)
			}
		}
	}
	if d := cmp.Diff(c.Encrypted, back); d != "" {
		t.Errorf("signatures in the next run's request (-want +got):\n%s", d)
	}
	switch {
	case c.RunError == "" && run.RunError != nil:
		t.Errorf("RUN_ERROR %q", run.RunError.Message)
	case c.RunError != "" && (run.RunError == nil || run.RunError.Message != c.RunError):
		t.Errorf("RUN_ERROR %+v, want %q", run.RunError, c.RunError)
	}
}
