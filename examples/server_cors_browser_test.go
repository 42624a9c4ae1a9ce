package examples_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// crossOriginPage runs @ag-ui/client's HttpAgent (the chat page's bundle)
// against the AG-UI endpoint its query names, and then an A2A JSON-RPC
// SendMessage with fetch against the A2A endpoint, both with a bearer
// token (and A2A-Version for A2A), which makes the browser send a CORS
// preflight first; it leaves what it got, or the error, in window.result.
const crossOriginPage = `<!doctype html>
<meta charset="utf-8">
<title>another origin</title>
<script type="module">
import { HttpAgent } from "/agui-client.js";
const q = new URLSearchParams(location.search);
const result = {};
try {
  const agent = new HttpAgent({ url: q.get("agui"), headers: { Authorization: "Bearer secret" },
    initialMessages: [{ id: "u1", role: "user", content: "What is the weather in Paris?" }] });
  const events = [];
  let text = "";
  await agent.runAgent({}, { onEvent: ({ event }) => {
    events.push(event.type);
    if (event.type === "TEXT_MESSAGE_CONTENT") text += event.delta;
  } });
  result.agui = { events, text };
} catch (e) {
  result.agui = { error: String(e && e.message || e) };
}
try {
  const res = await fetch(q.get("a2a"), { method: "POST",
    headers: { "Content-Type": "application/json", "A2A-Version": "1.0", Authorization: "Bearer secret" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "SendMessage", params: { message: {
      messageId: "m1", role: "ROLE_USER", parts: [{ text: "What is the weather in Paris?" }] } } }) });
  const body = await res.json();
  result.a2a = { state: body.result && body.result.task ? body.result.task.status.state : JSON.stringify(body) };
} catch (e) {
  result.a2a = { error: String(e && e.message || e) };
}
window.result = JSON.stringify(result);
</script>
`

// TestCrossOriginInChromium serves a page from one origin (an httptest
// server on 127.0.0.1) whose @ag-ui/client HttpAgent, and a fetch of A2A
// JSON-RPC, call the scaffolded server (examples/server) on another port,
// that is another origin, in headless Chromium. Started with --cors-origin
// naming the page's origin, the server answers the preflights and the
// page receives the whole AG-UI stream and the A2A task; without it the
// browser refuses both calls, as it does for a React dev server that calls
// an agent not set up for it.
func TestCrossOriginInChromium(t *testing.T) {
	if testing.Short() {
		t.Skip("skipping the browser test in -short mode")
	}
	browser := chromiumPath()
	if browser == "" {
		msg := "no chromium on PATH (Debian: apt-get install chromium)"
		if os.Getenv("CI") != "" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	bundle, err := os.ReadFile(filepath.Join("server", "web", "agui-client.js"))
	if err != nil {
		t.Fatal(err)
	}
	page := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/":
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Write([]byte(crossOriginPage))
		case "/agui-client.js":
			w.Header().Set("Content-Type", "text/javascript")
			w.Write(bundle)
		default:
			http.NotFound(w, r)
		}
	}))
	defer page.Close()
	bin := buildExampleServer(t)

	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(browser), chromedp.NoSandbox,
		chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-quic", true))
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancelAlloc()
	ctx, cancel := chromedp.NewContext(allocCtx, chromedp.WithLogf(t.Logf))
	defer cancel()
	ctx, cancelTimeout := context.WithTimeout(ctx, 90*time.Second)
	defer cancelTimeout()

	type outcome struct {
		AGUI struct {
			Events []string
			Text   string
			Error  string
		}
		A2A struct{ State, Error string }
	}
	visit := func(base string) outcome {
		t.Helper()
		q := url.Values{"agui": {base + "/agui"}, "a2a": {base + "/"}}
		if err := chromedp.Do(ctx, chromedp.Navigate(page.URL+"/?"+q.Encode())); err != nil {
			t.Fatalf("open the page: %v", err)
		}
		browserGet(t, ctx, chromedp.Poll[bool](`window.result !== undefined`, chromedp.WithPollingTimeout(30*time.Second)))
		raw := browserGet(t, ctx, chromedp.Evaluate[string](`window.result`))
		var o outcome
		if err := json.Unmarshal([]byte(raw), &o); err != nil {
			t.Fatalf("the page's result %s: %v", raw, err)
		}
		t.Logf("the page got %s", raw)
		return o
	}
	start := func(args ...string) string {
		t.Helper()
		server := exec.Command(bin, append([]string{"--addr", "127.0.0.1:0", "--db", filepath.Join(t.TempDir(), "server.db"),
			"--token", "secret", "--pace", "1ms"}, args...)...)
		stderr, err := server.StderrPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := server.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { server.Process.Kill(); server.Wait() })
		base := waitForServing(t, stderr)
		if strings.HasPrefix(base, page.URL) {
			t.Fatalf("the server and the page share an origin: %s", base)
		}
		return base
	}

	// Allowed: the whole stream reaches the page, and the A2A task.
	got := visit(start("--cors-origin", page.URL))
	events := got.AGUI.Events
	if got.AGUI.Error != "" || len(events) == 0 || events[0] != "RUN_STARTED" || events[len(events)-1] != "RUN_FINISHED" ||
		!slices.Contains(events, "TOOL_CALL_ARGS") || !strings.HasPrefix(got.AGUI.Text, "It is sunny in Paris") ||
		!strings.HasSuffix(got.AGUI.Text, "along the Seine.") {
		t.Errorf("with --cors-origin, the AG-UI run on the page: %+v", got.AGUI)
	}
	if got.A2A.Error != "" || got.A2A.State != "TASK_STATE_COMPLETED" {
		t.Errorf("with --cors-origin, the A2A call on the page: %+v", got.A2A)
	}

	// Not allowed: the browser refuses both, and the page learns nothing
	// but that the fetch failed.
	got = visit(start())
	if !strings.Contains(got.AGUI.Error, "Failed to fetch") || len(got.AGUI.Events) != 0 {
		t.Errorf("without --cors-origin, the AG-UI run on the page: %+v", got.AGUI)
	}
	if !strings.Contains(got.A2A.Error, "Failed to fetch") {
		t.Errorf("without --cors-origin, the A2A call on the page: %+v", got.A2A)
	}
}
