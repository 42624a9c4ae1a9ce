package examples_test

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/agui-gen/agui-gen/gen/a2a"
	"github.com/agui-gen/agui-gen/gen/agui"
	"github.com/agui-gen/agui-gen/internal/longtest"
)

// TestScaffoldModel scaffolds a server with --model openai:test-model,
// builds, vets and tests it (its tests serve the scripted agent, with no
// key), then runs it against a local replay of OpenAI's Chat Completions:
// without OPENAI_API_KEY it stops naming the variable; with it, and
// OPENAI_BASE_URL at the replay server, an AG-UI run streams the replayed
// answer, and so does an A2A message through the bridge, and the chat page
// in Chromium shows the model's reasoning and answer.
func TestScaffoldModel(t *testing.T) {
	longtest.Skip(t, "the --model scaffold builds, vets, tests and serves a new module")
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "modelagent")
	if out, err := exec.Command(aguiGen(t), "scaffold", "--out", dir, "--module", "example.com/modelagent", "--model", "openai:test-model").CombinedOutput(); err != nil {
		t.Fatalf("agui-gen scaffold --model: %v\n%s", err, out)
	}
	env := append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	for _, args := range [][]string{{"mod", "tidy"}, {"vet", "./..."}, {"test", "./..."}, {"build", "-o", "server", "."}} {
		cmd := exec.Command("go", args...)
		cmd.Dir, cmd.Env = dir, env
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go %s in the scaffold: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	mod, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	for _, other := range []string{"anthropic-sdk-go", "google.golang.org/genai"} {
		if bytes.Contains(mod, []byte(other)) {
			t.Errorf("an OpenAI server's go.mod takes in %s", other)
		}
	}
	bin := filepath.Join(dir, "server")
	var noKey []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "OPENAI_") {
			noKey = append(noKey, kv)
		}
	}

	// No key: a clear error at startup, naming the variable.
	cmd := exec.Command(bin, "--addr", "127.0.0.1:0", "--db", filepath.Join(dir, "nokey.db"))
	cmd.Env = noKey
	if out, err := cmd.CombinedOutput(); err == nil || !bytes.Contains(out, []byte("set OPENAI_API_KEY")) {
		t.Errorf("the server without OPENAI_API_KEY: %v\n%s", err, out)
	}

	text, reasoning := "../runtime/model/openai/testdata/text.sse", "../runtime/model/openai/testdata/reasoning.sse"
	replay := newChatCompletionsReplay(t, text, text, reasoning)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd = exec.CommandContext(ctx, bin, "--addr", "127.0.0.1:0", "--db", filepath.Join(dir, "server.db"))
	cmd.Env = append(noKey, "OPENAI_API_KEY=test-key", "OPENAI_BASE_URL="+replay.URL+"/v1/")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Signal(os.Interrupt); cmd.Wait() })
	base := make(chan string, 1)
	var logs safeLog
	go func() {
		serving := regexp.MustCompile(`agui=(http://\S+)/agui`)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			logs.add(sc.Text())
			if m := serving.FindStringSubmatch(sc.Text()); m != nil {
				select {
				case base <- m[1]:
				default:
				}
			}
		}
		io.Copy(io.Discard, stderr)
	}()
	var url string
	select {
	case url = <-base:
	case <-time.After(time.Minute):
		t.Fatalf("the server did not start:\n%s", logs.String())
	}

	c := agui.Client{URL: url + "/agui"}
	rs, err := c.Run(ctx, &agui.RunAgentInput{ThreadID: "t1", RunID: "r1", Messages: []agui.Message{
		&agui.UserMessage{BaseMessage: agui.BaseMessage{ID: "u1"}, Content: agui.TextContent("Hi")}}})
	if err != nil {
		t.Fatal(err)
	}
	var deltas []string
	for ev, err := range rs.Events() {
		if err != nil {
			t.Fatalf("the AG-UI run: %v\n%s", err, logs.String())
		}
		if d, ok := ev.(*agui.TextMessageContentEvent); ok {
			deltas = append(deltas, d.Delta)
		}
	}
	if got := strings.Join(deltas, ""); got != "Hello! How can I help?" || len(deltas) < 2 {
		t.Errorf("the AG-UI run streamed %q, want the replayed answer in its deltas\n%s", deltas, logs.String())
	}

	// The same agent over A2A, through the bridge.
	a2ac := a2a.NewA2AServiceClient(a2a.NewJSONRPCTransport(url))
	var answer strings.Builder
	var state a2a.TaskState
	for ev, err := range a2ac.SendStreamingMessage(ctx, &a2a.SendMessageRequest{Message: &a2a.Message{
		MessageID: "m1", Role: a2a.RoleUser, Parts: []*a2a.Part{{Content: &a2a.PartText{Text: "Hi"}}}}}) {
		if err != nil {
			t.Fatalf("the A2A message: %v\n%s", err, logs.String())
		}
		switch ev := ev.Payload.(type) {
		case *a2a.StreamResponseArtifactUpdate:
			for _, p := range ev.ArtifactUpdate.Artifact.Parts {
				if tp, ok := p.Content.(*a2a.PartText); ok {
					answer.WriteString(tp.Text)
				}
			}
		case *a2a.StreamResponseStatusUpdate:
			state = ev.StatusUpdate.Status.State
		}
	}
	if state != a2a.TaskStateCompleted || answer.String() != "Hello! How can I help?" {
		t.Errorf("over A2A: %v %q\n%s", state, answer.String(), logs.String())
	}

	t.Run("chat page in Chromium", func(t *testing.T) {
		reasoning, answer := askOnChatPage(t, url, "Which is larger, 9.11 or 9.8?")
		if !strings.Contains(reasoning, "compare the tenths") || answer != "9.8 is larger." {
			t.Errorf("the page shows the reasoning %q and the answer %q\n%s", reasoning, answer, logs.String())
		}
	})

	// One request a run: the AG-UI run's, the A2A message's and the page's
	// (unless Chromium is missing).
	reqs := replay.Requests()
	asked := []string{`"Hi"`, `"Hi"`, `"Which is larger, 9.11 or 9.8?"`}
	if len(reqs) < 2 || len(reqs) > len(asked) {
		t.Fatalf("the replay server got %d requests, want one a run", len(reqs))
	}
	for i, r := range reqs {
		if !bytes.Contains(r, []byte(`"model":"test-model"`)) || !bytes.Contains(r, []byte(asked[i])) {
			t.Errorf("the model was asked: %s", r)
		}
	}
}

// askOnChatPage opens the chat page at base in headless Chromium, sends
// question, and returns the reasoning and the answer shown once the run is
// done. Without Chromium it skips, and fails under CI.
func askOnChatPage(t *testing.T, base, question string) (reasoning, answer string) {
	browser := chromiumPath()
	if browser == "" {
		msg := "no chromium on PATH (Debian: apt-get install chromium)"
		if os.Getenv("CI") != "" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(browser), chromedp.NoSandbox,
		chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-quic", true))
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancelAlloc()
	ctx, cancel := chromedp.NewContext(allocCtx, chromedp.WithLogf(t.Logf))
	defer cancel()
	ctx, cancelTimeout := context.WithTimeout(ctx, 90*time.Second)
	defer cancelTimeout()
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/"), chromedp.WaitVisible(chromedp.ID("input")),
		chromedp.SendKeys(chromedp.ID("input"), question), chromedp.Click(chromedp.ID("send"))); err != nil {
		t.Fatalf("asking on the page: %v", err)
	}
	done := `(() => { const s = document.querySelector("#status").textContent; return s === "Done." || s.startsWith("The run failed") })()`
	browserGet(t, ctx, chromedp.Poll[bool](done, chromedp.WithPollingTimeout(30*time.Second)))
	if status := browserGet(t, ctx, chromedp.TextContent(chromedp.ID("status"))); status != "Done." {
		t.Fatalf("the page's status: %q", status)
	}
	reasoning = browserGet(t, ctx, chromedp.Evaluate[string](`document.querySelector("#messages li.reasoning")?.textContent ?? ""`))
	answer = browserGet(t, ctx, chromedp.Evaluate[string](`document.querySelector("#messages li.assistant p")?.textContent ?? ""`))
	saveArtifact(t, "chat-page-model.png", browserGet(t, ctx, chromedp.FullScreenshot(100)))
	return reasoning, answer
}

// chatCompletionsReplay is a Chat Completions server that answers each
// request with the next of its recorded SSE streams and keeps the request
// bodies. The adapter's own replay server (openaitest) is in the adapter's
// module, which this one does not require, so as not to build its SDK.
type chatCompletionsReplay struct {
	*httptest.Server
	mu       sync.Mutex
	streams  [][]byte
	requests [][]byte
}

func newChatCompletionsReplay(t *testing.T, files ...string) *chatCompletionsReplay {
	r := &chatCompletionsReplay{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		r.streams = append(r.streams, b)
	}
	r.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, _ := io.ReadAll(req.Body)
		r.mu.Lock()
		n := len(r.requests)
		r.requests = append(r.requests, body)
		r.mu.Unlock()
		if req.Method != http.MethodPost || req.URL.Path != "/v1/chat/completions" || n >= len(r.streams) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusInternalServerError)
			_, _ = io.WriteString(w, `{"error":{"message":"chatCompletionsReplay: no reply for `+req.Method+` `+req.URL.Path+`","type":"server_error"}}`)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = w.Write(r.streams[n])
	}))
	t.Cleanup(r.Close)
	return r
}

// Requests are the bodies of the requests served so far, in order.
func (r *chatCompletionsReplay) Requests() [][]byte {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([][]byte(nil), r.requests...)
}

// safeLog keeps a server's log lines, for failure messages.
type safeLog struct {
	mu    sync.Mutex
	lines []string
}

func (l *safeLog) add(line string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lines = append(l.lines, line)
}

func (l *safeLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Join(l.lines, "\n")
}
