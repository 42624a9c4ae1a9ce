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
// an activity and state; an interrupt answered from the page, which keeps
// it in the transcript and gives the focus back to the message field;
// feedback on the first answer, filed under its run, as one choice of
// Helpful or Not helpful, with failures explained, and a note saved with
// Enter; and, without the token, a status that says how to give it. The
// server then stops on SIGTERM, and the feedback is in the SQLite file. A
// screenshot of the page is kept in $ARTIFACTS_DIR (default: artifacts/ at
// the repository's root).
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

	if hidden := eval(`String(document.getElementById("feedback-sent").hidden)`); hidden != "true" {
		t.Errorf("the feedback section shows before any feedback (hidden=%s)", hidden)
	}

	first := eval(`JSON.stringify(document.querySelector("#messages li.assistant").dataset)`)
	var answered struct{ MessageID, RunID string }
	if err := json.Unmarshal([]byte(first), &answered); err != nil || answered.MessageID == "" || answered.RunID == "" {
		t.Fatalf("the answer's message and run: %s %v", first, err)
	}

	// An interrupt, answered on the page: the focus goes back to the
	// message field, and the transcript keeps the question and the answer.
	do("ask to delete", chromedp.SendKeys(chromedp.ID("input"), "Delete the draft"), chromedp.Click(chromedp.ID("send")),
		chromedp.WaitVisible(chromedp.ID("interrupt")))
	if question := text("#interrupt-question"); !strings.Contains(question, "Delete the draft?") {
		t.Errorf("the interrupt asks %q", question)
	}
	// A resume the server never gets (the network fails): the question is
	// asked again, and the transcript does not say it was answered.
	if armed := eval(`(() => { const real = window.fetch; window.fetch = () => { window.fetch = real; return Promise.reject(new TypeError("network down")) }; return "armed" })()`); armed != "armed" {
		t.Fatalf("arming the failure: %q", armed)
	}
	do("approve, unheard", chromedp.Click(chromedp.ID("approve")))
	browserGet(t, ctx, chromedp.Poll[bool](`document.querySelector("#status").textContent.startsWith("The run failed")`, chromedp.WithPollingTimeout(20*time.Second)))
	do("the question again", chromedp.WaitVisible(chromedp.ID("interrupt")))
	if n := eval(`String(document.querySelectorAll("#messages li.interrupt").length)`); n != "0" {
		t.Errorf("an unheard answer is in the transcript (%s entries)", n)
	}
	do("approve", chromedp.Click(chromedp.ID("approve")))
	if focused := eval(`document.activeElement.id || document.activeElement.tagName`); focused != "input" {
		t.Errorf("after answering, the focus is on %s, want the message field", focused)
	}
	browserGet(t, ctx, chromedp.Poll[bool](`document.querySelector("#status").textContent === "Done."`, chromedp.WithPollingTimeout(20*time.Second)))
	if last := eval(`[...document.querySelectorAll("#messages li.assistant p")].at(-1).textContent`); last != "The draft is deleted." {
		t.Errorf("after approving: %q", last)
	}
	if asked := text("#messages li.interrupt"); !strings.Contains(asked, "Delete the draft?") || !strings.Contains(asked, "You answered: Yes") {
		t.Errorf("the transcript keeps the interrupt as %q", asked)
	}
	// Three exchanges in, the transcript is taller than the window: the
	// page has followed it, and the newest answer and the composer are in
	// view.
	inView := `(() => { const v = (el) => { const r = el.getBoundingClientRect(); return r.top >= 0 && r.bottom <= window.innerHeight };
		return JSON.stringify({tall: document.documentElement.scrollHeight > window.innerHeight,
			composer: v(document.getElementById("composer")), answer: v([...document.querySelectorAll("#messages li.assistant")].at(-1))}) })()`
	if got := eval(inView); got != `{"tall":true,"composer":true,"answer":true}` {
		t.Errorf("after three exchanges: %s", got)
	}

	// Feedback on the first answer, after a later run: filed under the
	// first run. A second click while the first is on its way sends nothing.
	helpful := `document.querySelector('#messages li.assistant button[data-meta="thumbs_up"]')`
	if during := eval(`(() => { const b = ` + helpful + `; b.click(); const busy = b.getAttribute("aria-disabled"); b.click(); return busy })()`); during != "true" {
		t.Errorf("Helpful while its event is on its way: aria-disabled=%q", during)
	}
	do("thumbs up", chromedp.WaitVisible(chromedp.CSS(`#messages li.assistant button[data-meta="thumbs_up"][aria-pressed="true"]`)),
		chromedp.WaitVisible(chromedp.CSS("#feedback li")))
	threadID := eval(`document.body.dataset.threadId`)
	page := fetchMeta(t, base, threadID)
	if len(page.Events) != 1 || page.Events[0].Event.MessageID() != answered.MessageID || page.Events[0].Event.Payload.MetaType() != "thumbs_up" {
		t.Fatalf("stored feedback: %+v (message %q)", page.Events, answered.MessageID)
	}
	if page.Events[0].RunID != answered.RunID {
		t.Errorf("the thumbs-up is filed under run %q, want the answer's run %q", page.Events[0].RunID, answered.RunID)
	}

	// Feedback that fails says why: the server's message, or the network's.
	notHelpful := `#messages li.assistant button[data-meta="thumbs_down"]`
	for _, c := range []struct{ fetch, want string }{
		{`async () => new Response('{"error":{"message":"the store is down"}}', {status: 503, headers: {"Content-Type": "application/json"}})`,
			"Feedback refused: the store is down"},
		{`() => Promise.reject(new TypeError("Failed to fetch"))`, "Feedback not sent: Failed to fetch"},
	} {
		eval(`window.realFetch ??= window.fetch; window.fetch = ` + c.fetch + `; document.querySelector("#status").textContent = ""`)
		do("a failing thumbs down", chromedp.Click(chromedp.CSS(notHelpful)))
		browserGet(t, ctx, chromedp.Poll[bool](`document.querySelector("#status").textContent !== ""`, chromedp.WithPollingTimeout(5*time.Second)))
		if got := text("#status"); got != c.want {
			t.Errorf("the status: %q, want %q", got, c.want)
		}
		eval(`window.fetch = window.realFetch; ""`)
	}

	// Not helpful replaces Helpful: one choice, both stored.
	do("thumbs down", chromedp.Click(chromedp.CSS(notHelpful)),
		chromedp.WaitVisible(chromedp.CSS(notHelpful+`[aria-pressed="true"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#messages li.assistant button[data-meta="thumbs_up"][aria-pressed="false"]`)))

	// A note on the same answer, saved with Enter.
	do("note", chromedp.SendKeys(chromedp.CSS(`#messages li.assistant .feedback input`), "Cite the forecast's source.\r"),
		chromedp.WaitVisible(chromedp.CSS("#feedback li:nth-child(3)")))
	page = fetchMeta(t, base, threadID)
	if len(page.Events) != 3 || page.Events[1].Event.Payload.MetaType() != "thumbs_down" {
		t.Fatalf("stored feedback after the vote and the note: %+v", page.Events)
	}
	if note, ok := page.Events[2].Event.Payload.(*agui.NotePayload); !ok || note.Text != "Cite the forecast's source." || note.RelatedID == nil || *note.RelatedID != answered.MessageID {
		t.Errorf("the note stored: %+v", page.Events[2].Event.Payload)
	}

	saveArtifact(t, "chat-page.png", browserGet(t, ctx, chromedp.FullScreenshot(100)))

	// Without the token, the page says how to give it.
	do("open the page without the token", chromedp.Navigate("about:blank"), chromedp.Navigate(base+"/"), chromedp.WaitVisible(chromedp.ID("input")),
		chromedp.SendKeys(chromedp.ID("input"), "Hello"), chromedp.Click(chromedp.ID("send")))
	browserGet(t, ctx, chromedp.Poll[bool](`document.querySelector("#status.error") !== null`, chromedp.WithPollingTimeout(10*time.Second)))
	if got := text("#status"); !strings.Contains(got, "/#token=") {
		t.Errorf("a 401 says %q, which does not tell how to give the token", got)
	}

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
	if err != nil || len(stored) != 3 {
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
	server := exec.Command(buildExampleServer(t), append([]string{"--addr", "127.0.0.1:0"}, args...)...)
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
