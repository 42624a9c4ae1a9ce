package interop_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/agui-gen/agui-gen/gen/agui"
	"github.com/agui-gen/agui-gen/internal/cutproxy"
	"github.com/agui-gen/agui-gen/runtime/runlog"
)

// resumeReport is what run-httpagent-resume.mjs prints.
type resumeReport struct {
	OK         bool              `json:"ok"`
	Error      string            `json:"error"`
	Events     []json.RawMessage `json:"events"`
	Messages   []json.RawMessage `json:"messages"`
	Reconnects []struct {
		N     int    `json:"n"`
		Error string `json:"error"`
	} `json:"reconnects"`
}

// storyAgent tells a story in three parts of twelve words, one text delta
// a word. Before the second and the third part it waits for the channels
// gates names for its thread, if any: a test holds the run there until a
// proxy has cut its stream, so that the cut falls in the middle of the
// run and the rest is streamed to a client that has to resume for it.
// Once stop is closed it waits no more (a failed test ends at once). It
// closes begun's channel for its thread, if any, when it starts.
func storyAgent(gates map[string][]<-chan struct{}, begun map[string]chan struct{}, stop <-chan struct{}) agui.Agent {
	return agui.AgentFunc(func(ctx context.Context, in *agui.RunAgentInput, s *agui.Stream) error {
		if ch, ok := begun[in.ThreadID]; ok {
			close(ch)
		}
		if err := s.StateSnapshot(json.RawMessage(`{"part":0}`)); err != nil {
			return err
		}
		for part := range 3 {
			if part > 0 && len(gates[in.ThreadID]) >= part {
				select {
				case <-gates[in.ThreadID][part-1]:
				case <-ctx.Done():
					return ctx.Err()
				case <-stop:
					return errors.New("the test is over")
				}
			}
			for word := range 12 {
				if err := s.Text(fmt.Sprintf("w%d.%d ", part, word)); err != nil {
					return err
				}
			}
		}
		return s.StateSnapshot(json.RawMessage(`{"part":3}`))
	})
}

// TestResumingHttpAgentFromDocs: the ResumingHttpAgent docs/agui.md shows
// for browser apps, taken from the doc as it is and run under node on
// @ag-ui/client 1.0.0, against a resumable handler behind a proxy that
// cuts the run's stream, then the stream of its first resume, each in the
// middle of the run: the agent reconnects twice (Last-Event-ID), and its
// subscriber sees the events of an uninterrupted run, ids aside, and ends
// with the same messages. A run whose stream is cut right after the
// response's header, before any byte of an event, is resumed from the
// start id the header named (AG-UI-Resume-ID) and seen whole too; one
// whose response is lost before its header is joined, and ends with the
// same answer. connectAgent joins a run in progress, its stream cut too, and sees the
// run to its end.
func TestResumingHttpAgentFromDocs(t *testing.T) {
	requireNode(t)
	module := docModule(t, "../docs/agui.md", "export class ResumingHttpAgent")
	gates := map[string][]<-chan struct{}{}
	joined := make(chan struct{})
	stop := make(chan struct{})
	joinable := make(chan struct{})
	h := agui.NewHandler(storyAgent(gates, map[string]chan struct{}{"t-join": joinable}, stop), agui.WithResumableRuns(runlog.NewMemory(runlog.MemoryOptions{})))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet && r.URL.Query().Get("threadId") == "t-join" {
			close(joined)
		}
		h.ServeHTTP(w, r)
	}))
	defer srv.Close()
	defer close(stop) // before the server closes, which waits for the runs' streams
	target, _ := url.Parse(srv.URL)
	cutter := cutproxy.New(target, 700, 500)
	gates["t-cut"] = []<-chan struct{}{cutter.Cut(0), cutter.Cut(1)}
	proxy := httptest.NewServer(cutter)
	defer proxy.Close()

	whole := runResumingAgent(t, module, srv.URL, "t-whole", "r1")
	if len(whole.Reconnects) != 0 {
		t.Fatalf("reconnections without a cut: %+v", whole.Reconnects)
	}
	// A run through a proxy whose cuts the client must resume across: it
	// gets the events and messages of the uncut run.
	acrossCuts := func(what string, cutter *cutproxy.Proxy, proxyURL, threadID string, cuts int) {
		t.Helper()
		got := runResumingAgent(t, module, proxyURL, threadID, "r1")
		if cutter.Cuts() != cuts || len(got.Reconnects) != cuts {
			t.Errorf("%s: %d streams cut, %d reconnections (%+v); want %d and %d", what, cutter.Cuts(), len(got.Reconnects), got.Reconnects, cuts, cuts)
		}
		sameEvents(t, "the events across "+what, whole.Events, got.Events)
		sameEvents(t, "the messages after "+what, whole.Messages, got.Messages)
	}
	if acrossCuts("two cuts", cutter, proxy.URL, "t-cut", 2); t.Failed() {
		return
	}
	startCutter := cutproxy.New(target, 0)
	startProxy := httptest.NewServer(startCutter)
	defer startProxy.Close()
	if acrossCuts("a cut before the first event", startCutter, startProxy.URL, "t-start", 1); t.Failed() {
		return
	}
	// A response lost before its header: the run is joined, and its
	// answer is the uninterrupted run's.
	headerCutter := cutproxy.New(target, cutproxy.BeforeHeader)
	headerProxy := httptest.NewServer(headerCutter)
	defer headerProxy.Close()
	lost := runResumingAgent(t, module, headerProxy.URL, "t-header", "r1")
	if headerCutter.Cuts() != 1 || len(lost.Reconnects) != 1 {
		t.Errorf("a cut before the header: %d streams cut, %d reconnections (%+v); want 1 and 1", headerCutter.Cuts(), len(lost.Reconnects), lost.Reconnects)
	}
	if got, want := answer(t, lost.Messages), answer(t, whole.Messages); got != want {
		t.Errorf("after a cut before the header the answer is %q, want %q", got, want)
	}

	// A second client joins a run the first started, through a proxy that
	// cuts the join's stream once the run has gone on past the prelude.
	joinCutter := cutproxy.New(target, 900)
	gates["t-join"] = []<-chan struct{}{joined, joinCutter.Cut(0)}
	joinProxy := httptest.NewServer(joinCutter)
	defer joinProxy.Close()
	type result struct {
		rep resumeReport
		err error
	}
	first := make(chan result, 1)
	go func() {
		rep, err := resumingAgent(module, srv.URL, "t-join", "r1")
		first <- result{rep, err}
	}()
	var res result
	select {
	case <-joinable: // the run is there to join
	case res = <-first:
		t.Fatalf("the run to join ended before it began: %v", res.err)
	}
	join := runResumingAgent(t, module, joinProxy.URL, "t-join", "r1", "--join")
	res = <-first
	if res.err != nil {
		t.Fatalf("the run the joiner joined: %v", res.err)
	}
	started := res.rep
	if joinCutter.Cuts() != 1 || len(join.Reconnects) != 1 {
		t.Errorf("the join: %d streams cut, %d reconnections; want 1 and 1", joinCutter.Cuts(), len(join.Reconnects))
	}
	if got, want := answer(t, join.Messages), answer(t, started.Messages); got != want || !strings.HasSuffix(got, "w2.11 ") {
		t.Errorf("the joiner's answer %q, the starter's %q", got, want)
	}
}

// runResumingAgent runs the doc's agent in node: a run of thread, or with
// --join, a join of it.
func runResumingAgent(t *testing.T, module, url, thread, run string, args ...string) resumeReport {
	t.Helper()
	rep, err := resumingAgent(module, url, thread, run, args...)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// resumingAgent is runResumingAgent for a goroutine of the test's own.
func resumingAgent(module, url, thread, run string, args ...string) (resumeReport, error) {
	cmd := exec.Command("node", append([]string{"run-httpagent-resume.mjs", module, url, thread, run}, args...)...)
	cmd.Dir = nodeDir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return resumeReport{}, fmt.Errorf("node run-httpagent-resume.mjs %s %v: %v\n%s", thread, args, err, stderr.String())
	}
	var rep resumeReport
	if err := json.Unmarshal(out, &rep); err != nil {
		return rep, fmt.Errorf("%v\n%s", err, out)
	}
	if !rep.OK {
		return rep, fmt.Errorf("thread %s %v: %s (after %d events, reconnections %+v)", thread, args, rep.Error, len(rep.Events), rep.Reconnects)
	}
	return rep, nil
}

// answer is the text of the assistant messages of messages.
func answer(t *testing.T, messages []json.RawMessage) string {
	t.Helper()
	var text strings.Builder
	for _, m := range messages {
		var msg struct {
			Role    string `json:"role"`
			Content any    `json:"content"`
		}
		if err := json.Unmarshal(m, &msg); err != nil {
			t.Fatal(err)
		}
		if s, ok := msg.Content.(string); ok && msg.Role == "assistant" {
			text.WriteString(s)
		}
	}
	return text.String()
}

// anIDField is an id field of an event or message: threadId, messageId, id…
var anIDField = regexp.MustCompile(`"(id|\w+Id)":"[^"]*"`)

// sameEvents compares two runs of the same script, each id (random in
// part) replaced by the order in which it first appeared.
func sameEvents(t *testing.T, what string, want, got []json.RawMessage) {
	t.Helper()
	w, g := numberIDs(want), numberIDs(got)
	if len(w) != len(g) {
		t.Errorf("%s: %d, want %d\ngot:  %s\nwant: %s", what, len(g), len(w), strings.Join(g, "\n      "), strings.Join(w, "\n      "))
		return
	}
	for i := range w {
		if w[i] != g[i] {
			t.Errorf("%s: %d is\n%s\nwant\n%s", what, i, g[i], w[i])
		}
	}
}

func numberIDs(items []json.RawMessage) []string {
	seen := map[string]string{}
	out := make([]string, len(items))
	for i, item := range items {
		out[i] = anIDField.ReplaceAllStringFunc(string(item), func(field string) string {
			name, value, _ := strings.Cut(field, ":")
			if _, ok := seen[value]; !ok {
				seen[value] = fmt.Sprintf(`"#%d"`, len(seen))
			}
			return name + ":" + seen[value]
		})
	}
	return out
}

// docModule writes the JavaScript block of doc that holds marker to a
// module in a temporary directory that sees interop/node's packages, and
// returns its path: the test runs the doc's code as it is.
func docModule(t *testing.T, doc, marker string) string {
	t.Helper()
	text, err := os.ReadFile(doc)
	if err != nil {
		t.Fatal(err)
	}
	var block string
	for _, m := range jsBlock.FindAllStringSubmatch(string(text), -1) {
		if strings.Contains(m[1], marker) {
			block = m[1]
		}
	}
	if block == "" {
		t.Fatalf("%s has no js block with %q", doc, marker)
	}
	dir := t.TempDir()
	if err := os.Symlink(mustAbs(t, filepath.Join(nodeDir, "node_modules")), filepath.Join(dir, "node_modules")); err != nil {
		t.Fatal(err)
	}
	module := filepath.Join(dir, "doc-block.mjs")
	if err := os.WriteFile(module, []byte(block), 0o644); err != nil {
		t.Fatal(err)
	}
	return module
}

var jsBlock = regexp.MustCompile("(?s)```js\n(.*?)```")
