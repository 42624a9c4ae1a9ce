package examples_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/agui-gen/agui-gen/gen/agui"
	"github.com/agui-gen/agui-gen/internal/cutproxy"
	"github.com/agui-gen/agui-gen/internal/longtest"
	"github.com/agui-gen/agui-gen/runtime/sse"
)

// TestScaffoldResumable: scaffold --resumable writes a new module whose
// vet and tests pass, among them its TestResumableRun (a run whose
// connection drops is resumed with Last-Event-ID, and the capabilities
// declare transport.resumable), and which builds.
func TestScaffoldResumable(t *testing.T) {
	longtest.Skip(t, "the --resumable scaffold builds, vets and tests a new module")
	resumableServer(t)
}

// resumableServer returns the server scaffold --resumable writes, built
// once for the tests that run it.
func resumableServer(t *testing.T) string {
	t.Helper()
	bin, err := buildResumableServer()
	if err != nil {
		t.Fatal(err)
	}
	return bin
}

var buildResumableServer = sync.OnceValues(func() (string, error) {
	gen, err := buildAGUIGen()
	if err != nil {
		return "", err
	}
	dir := filepath.Join(binDir, "resumable")
	if out, err := exec.Command(gen, "scaffold", "--out", dir, "--module", "example.com/resumable", "--resumable").CombinedOutput(); err != nil {
		return "", fmt.Errorf("agui-gen scaffold --resumable: %v\n%s", err, out)
	}
	bin := filepath.Join(binDir, "resumable-server")
	env := append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	for _, args := range [][]string{{"mod", "tidy"}, {"vet", "./..."}, {"test", "./..."}, {"build", "-o", bin, "."}} {
		cmd := exec.Command("go", args...)
		cmd.Dir, cmd.Env = dir, env
		if out, err := cmd.CombinedOutput(); err != nil {
			return "", fmt.Errorf("go %s in the --resumable scaffold: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	return bin, nil
})

// TestResumableChatPageInChromium: the chat page of a --resumable scaffold,
// in headless Chromium (Debian's chromium), behind a proxy that cuts the
// run's stream, then the stream of the first resume: the page reconnects
// twice (Last-Event-ID) and shows the whole reply once, in the bubbles an
// uninterrupted run fills. The cuts fall in the middle of the reply, a
// few words apart; or the first right after the response's header, before
// any byte of an event (the page resumes from the start id the header
// names), and the second in the middle; or the one before the header,
// the response lost though the run started (the page joins the run, and
// draws what it has said so far from the join's MESSAGES_SNAPSHOT; how
// much that is depends on when the join comes, so its stream is not cut).
//
// The proxy cuts a stream as soon as it has sent its bytes: Chromium then
// drops those it had not handed to the page, so the page resumes after an
// earlier event than the proxy's last, and gets the rest once, from the
// log.
func TestResumableChatPageInChromium(t *testing.T) {
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
	longtest.Skip(t, "the --resumable scaffold's chat page: a new module built, and driven in Chromium")
	server := exec.Command(resumableServer(t), "--addr", "127.0.0.1:0", "--db", filepath.Join(t.TempDir(), "server.db"), "--pace", "40ms")
	stderr, err := server.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := server.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { server.Process.Kill(); server.Wait() })
	base := waitForServing(t, stderr)
	want, middle := uninterruptedReply(t, base)

	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(browser), chromedp.NoSandbox,
		chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-quic", true), chromedp.WindowSize(1100, 900))
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancelAlloc()
	for _, c := range []struct {
		name string
		cuts []int // the bytes of each stream before its cut, in order
	}{
		{"cuts=mid-reply", []int{middle, 600}},
		{"cuts=before-the-first-event", []int{0, middle}},
		{"cuts=before-the-header", []int{cutproxy.BeforeHeader}},
	} {
		t.Run(c.name, func(t *testing.T) { chatThroughCuts(t, allocCtx, base, c.cuts, want) })
	}
}

// chatThroughCuts asks the chat page at base, through a proxy that cuts
// the first streams after cuts bytes each, and checks that the page
// reconnects once a cut and shows the replies want.
func chatThroughCuts(t *testing.T, allocCtx context.Context, base string, cuts []int, want []string) {
	target, _ := url.Parse(base)
	cutter := cutproxy.New(target, cuts...)
	proxy := httptest.NewServer(cutter)
	defer proxy.Close()

	ctx, cancel := chromedp.NewContext(allocCtx, chromedp.WithLogf(t.Logf))
	defer cancel()
	ctx, cancelTimeout := context.WithTimeout(ctx, 90*time.Second)
	defer cancelTimeout()
	eval := func(expr string) string { return browserGet(t, ctx, chromedp.Evaluate[string](expr)) }
	if err := chromedp.Do(ctx, chromedp.Navigate(proxy.URL+"/"), chromedp.WaitVisible(chromedp.ID("input")),
		chromedp.SendKeys(chromedp.ID("input"), "What is the weather in Paris?"), chromedp.Click(chromedp.ID("send"))); err != nil {
		t.Fatalf("send a message: %v", err)
	}
	status := ""
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if status = eval(`document.querySelector("#status").textContent`); status == "Done." || strings.Contains(status, "failed") {
			break
		}
	}
	saveArtifact(t, "chat-page-resumed-"+strings.TrimPrefix(t.Name()[strings.LastIndex(t.Name(), "/")+1:], "cuts=")+".png",
		browserGet(t, ctx, chromedp.FullScreenshot(100)))
	if status != "Done." {
		t.Fatalf("the page's status: %q", status)
	}
	var got []string
	if err := json.Unmarshal([]byte(eval(`JSON.stringify([...document.querySelectorAll("#messages li.assistant p")].map((p) => p.textContent))`)), &got); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, want) {
		t.Errorf("the page's replies across the cuts:\n%q\nan uninterrupted run's:\n%q", got, want)
	}
	if reconnects := eval(`document.body.dataset.reconnects ?? "0"`); cutter.Cuts() != len(cuts) || reconnects != fmt.Sprint(len(cuts)) {
		t.Errorf("%d streams cut, the page reconnected %s times; want %d and %d", cutter.Cuts(), reconnects, len(cuts), len(cuts))
	}
}

// uninterruptedReply runs the page's question at base, the way the page
// does (ids of the same lengths), and returns the text of each assistant
// message, and how many bytes of the stream come before the middle of the
// reply.
func uninterruptedReply(t *testing.T, base string) ([]string, int) {
	t.Helper()
	uuid := "00000000-0000-4000-8000-000000000000"
	in := &agui.RunAgentInput{ThreadID: uuid, RunID: uuid, Messages: []agui.Message{
		&agui.UserMessage{BaseMessage: agui.BaseMessage{ID: uuid}, Content: agui.TextContent("What is the weather in Paris?")}}}
	res, err := http.Post(base+"/agui", "application/json", bytes.NewReader(in.AppendJSON(nil)))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	stream, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	var (
		texts   []string
		index   = map[string]int{} // an assistant message's id → its place in texts
		reply   []int              // the stream's length up to each delta of the reply
		current = -1
		offset  = 0
	)
	for _, block := range bytes.SplitAfter(stream, []byte("\n\n")) {
		offset += len(block)
		ev, err := sse.NewReader(bytes.NewReader(block), 1<<20).Next()
		if err != nil {
			continue // no data: a comment, or the end
		}
		decoded, err := agui.UnmarshalEvent(ev.Data)
		if err != nil {
			t.Fatal(err)
		}
		switch e := decoded.(type) {
		case *agui.TextMessageStartEvent:
			index[e.MessageID], current = len(texts), len(texts)
			texts = append(texts, "")
		case *agui.TextMessageContentEvent:
			texts[index[e.MessageID]] += e.Delta
			if index[e.MessageID] == current {
				reply = append(reply, offset)
			}
		}
	}
	if len(reply) < 8 {
		t.Fatalf("the reply came in %d deltas; the cuts need more", len(reply))
	}
	return texts, reply[len(reply)/2]
}
