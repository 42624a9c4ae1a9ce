package examples_test

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/agui-gen/agui-gen/gen/agui"
	"github.com/agui-gen/agui-gen/gen/agui/metasqlite"
)

// TestChatPageInChromium builds the scaffolded server (examples/server),
// runs it with a token and a SQLite file, and drives its chat page in
// headless Chromium (Debian's chromium, through chromedp): a run whose
// answer appears word by word, with reasoning, a tool call and its result,
// an activity and state; a thumbs-up and a note that reach the META store;
// and an interrupt answered from the page. The server then stops on
// SIGTERM, and the feedback is in the SQLite file. A screenshot of the page is kept in
// $ARTIFACTS_DIR (default: artifacts/ at the repository's root).
func TestChatPageInChromium(t *testing.T) {
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
	db := filepath.Join(t.TempDir(), "server.db")
	server, base := startExampleServer(t, "--db", db, "--token", "secret", "--pace", "60ms")

	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(browser), chromedp.NoSandbox,
		chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-quic", true), chromedp.WindowSize(1100, 900))
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancelAlloc()
	ctx, cancel := chromedp.NewContext(allocCtx, chromedp.WithLogf(t.Logf))
	defer cancel()
	ctx, cancelTimeout := context.WithTimeout(ctx, 90*time.Second)
	defer cancelTimeout()

	do := func(what string, steps ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		if err := chromedp.Do(ctx, steps...); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	text := func(sel chromedp.CSS) string { return browserGet(t, ctx, chromedp.TextContent(sel)) }
	eval := func(expr string) string { return browserGet(t, ctx, chromedp.Evaluate[string](expr)) }
	do("open the page", chromedp.Navigate(base+"/#token=secret"), chromedp.WaitVisible(chromedp.ID("input")))

	// Ask, and watch the answer grow.
	do("send a message", chromedp.SendKeys(chromedp.ID("input"), "What is the weather in Paris?"), chromedp.Click(chromedp.ID("send")))
	lengths := map[int]bool{}
	answer := ""
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(15 * time.Millisecond) {
		answer = eval(`document.querySelector("#messages li.assistant p")?.textContent ?? ""`)
		lengths[len(answer)] = true
		if eval(`document.querySelector("#status").textContent`) == "Done." {
			break
		}
	}
	if !strings.HasPrefix(answer, "It is sunny in Paris") || !strings.HasSuffix(answer, "along the Seine.") {
		t.Fatalf("the answer on the page: %q", answer)
	}
	if len(lengths) < 5 {
		t.Errorf("the answer appeared in %d steps; want it word by word", len(lengths))
	}
	tool := text("#messages li.tool")
	for what, got := range map[string]struct{ text, want string }{
		"reasoning": {text("#messages li.reasoning"), "look it up"}, "tool call": {tool, "get_weather"}, "tool result": {tool, "sunny"},
		"activity": {text("#messages li.activity"), `"sources": 2`}, "state": {text("#state"), `"status": "done"`},
	} {
		if !strings.Contains(got.text, got.want) {
			t.Errorf("%s: %q lacks %q", what, got.text, got.want)
		}
	}

	// Thumbs up: acknowledged on the page, and stored.
	do("thumbs up", chromedp.Click(chromedp.CSS(`#messages li.assistant button[data-meta="thumbs_up"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#messages li.assistant button[data-meta="thumbs_up"][aria-pressed="true"]`)),
		chromedp.WaitVisible(chromedp.CSS("#feedback li")))
	threadID := eval(`document.body.dataset.threadId`)
	messageID := eval(`document.querySelector("#messages li.assistant").dataset.messageId`)
	page := fetchMeta(t, base, threadID)
	if len(page.Events) != 1 || page.Events[0].Event.MessageID() != messageID || page.Events[0].Event.Payload.MetaType() != "thumbs_up" {
		t.Fatalf("stored feedback: %+v (message %q)", page.Events, messageID)
	}

	// A note on the same answer.
	do("note", chromedp.SendKeys(chromedp.CSS(`#messages li.assistant .feedback input`), "Cite the forecast's source."),
		chromedp.Click(chromedp.CSS(`#messages li.assistant .feedback button:last-child`)),
		chromedp.WaitVisible(chromedp.CSS("#feedback li:nth-child(2)")))
	page = fetchMeta(t, base, threadID)
	if len(page.Events) != 2 {
		t.Fatalf("stored feedback after the note: %+v", page.Events)
	}
	if note, ok := page.Events[1].Event.Payload.(*agui.NotePayload); !ok || note.Text != "Cite the forecast's source." || note.RelatedID == nil || *note.RelatedID != messageID {
		t.Errorf("the note stored: %+v", page.Events[1].Event.Payload)
	}

	// An interrupt, answered on the page.
	do("ask to delete", chromedp.SendKeys(chromedp.ID("input"), "Delete the draft"), chromedp.Click(chromedp.ID("send")),
		chromedp.WaitVisible(chromedp.ID("interrupt")))
	if question := text("#interrupt-question"); !strings.Contains(question, "Delete the draft?") {
		t.Errorf("the interrupt asks %q", question)
	}
	do("approve", chromedp.Click(chromedp.ID("approve")))
	browserGet(t, ctx, chromedp.Poll[bool](`document.querySelector("#status").textContent === "Done."`, chromedp.WithPollingTimeout(20*time.Second)))
	if last := eval(`[...document.querySelectorAll("#messages li.assistant p")].at(-1).textContent`); last != "The draft is deleted." {
		t.Errorf("after approving: %q", last)
	}

	saveArtifact(t, "chat-page.png", browserGet(t, ctx, chromedp.FullScreenshot(100)))

	// SIGTERM stops the server cleanly, and the feedback is on disk.
	server.Process.Signal(syscall.SIGTERM)
	if err := server.Wait(); err != nil {
		t.Errorf("the server's exit after SIGTERM: %v", err)
	}
	store, err := metasqlite.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	stored, err := store.Meta(context.Background(), agui.MetaQuery{ThreadID: threadID})
	if err != nil || len(stored) != 2 {
		t.Errorf("in %s: %+v %v", db, stored, err)
	}
}

// browserGet runs one action on the page and returns its value.
func browserGet[T any](t *testing.T, ctx context.Context, a chromedp.Action[T]) T {
	t.Helper()
	v, err := chromedp.Run(ctx, a)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func chromiumPath() string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// startExampleServer builds examples/server and runs it on a free port
// with args, and returns the process and its base URL; the process is
// killed when the test ends.
func startExampleServer(t *testing.T, args ...string) (*exec.Cmd, string) {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "server")
	if out, err := exec.Command("go", "build", "-o", bin, "./server").CombinedOutput(); err != nil {
		t.Fatalf("go build ./server: %v\n%s", err, out)
	}
	server := exec.Command(bin, append([]string{"--addr", "127.0.0.1:0"}, args...)...)
	stderr, err := server.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := server.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { server.Process.Kill(); server.Wait() })
	return server, waitForServing(t, stderr)
}

var servingLine = regexp.MustCompile(`page=(http://\S+)/`)

// waitForServing reads the server's log until it says where it serves,
// then keeps draining it.
func waitForServing(t *testing.T, stderr interface{ Read([]byte) (int, error) }) string {
	t.Helper()
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if m := servingLine.FindStringSubmatch(sc.Text()); m != nil {
				found <- m[1]
			}
		}
	}()
	select {
	case base := <-found:
		return base
	case <-time.After(30 * time.Second):
		t.Fatal("the server did not say where it serves")
	}
	return ""
}

func fetchMeta(t *testing.T, base, threadID string) agui.MetaPage {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, base+"/agui/meta?threadId="+threadID, nil)
	req.Header.Set("Authorization", "Bearer secret")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var page agui.MetaPage
	if err := json.NewDecoder(resp.Body).Decode(&page); err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /agui/meta: %d %v", resp.StatusCode, err)
	}
	return page
}

// saveArtifact keeps a file of the test for whoever reads its results.
func saveArtifact(t *testing.T, name string, data []byte) {
	dir := os.Getenv("ARTIFACTS_DIR")
	if dir == "" {
		dir = filepath.Join("..", "artifacts")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("kept %s", p)
}
