package metastoretest

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	agui "github.com/agui-gen/agui-gen/gen/agui"
)

// handler is an AG-UI handler whose META intake keeps events in store.
func handler(store agui.MetaStore) http.Handler {
	return agui.NewHandler(agui.AgentFunc(func(context.Context, *agui.RunAgentInput, *agui.Stream) error { return nil }),
		agui.WithMetaStore(store), agui.WithLogger(slog.New(slog.NewTextHandler(io.Discard, nil))))
}

// Intake checks, through an AG-UI handler's META intake on store, that
// hostile input is refused with a 4xx that names what is wrong (never a
// 5xx: a store that cannot keep a string is the intake's to refuse), that
// nothing of a refused request is stored, and that hostile but valid
// events are kept verbatim.
func Intake(t *testing.T, store agui.MetaStore) {
	srv := httptest.NewServer(handler(store))
	t.Cleanup(srv.Close)
	in := intake{srv: srv, store: store}
	// In this order: what is refused first, on a thread still empty, then
	// what is kept, then a forgery of what was kept.
	in.refusesHostileInput(t)
	in.keepsHostileValidEventsVerbatim(t)
	in.refusesAForgedID(t)
}

// intake is what Intake's steps share: the server of the intake and the
// store behind it. The steps all write to the thread "hostile".
type intake struct {
	srv   *httptest.Server
	store agui.MetaStore
}

// hostileThread is the query naming the thread Intake writes to.
const hostileThread = "threadId=hostile"

// hostileKept are valid events, however hostile, that the intake keeps as
// sent: markup, a NUL, bidirectional and SQL text, a long message id.
var hostileKept = []string{
	`{"type":"META","id":"h1","metaType":"<script>alert(1)</script>","payload":{"html":"</script><img src=x onerror=alert(1)>","nul":"\u0000"}}`,
	`{"type":"META","id":"h2","metaType":"note","payload":{"text":"‮reversed‬ 𝔘𝔫𝔦𝔠𝔬𝔡𝔢 '; DROP TABLE agui_meta; --"}}`,
	`{"type":"META","id":"h3","metaType":"thumbs_up","payload":{"messageId":"` + strings.Repeat("m", 10000) + `"}}`,
}

// do sends a request to the intake and returns its status and body.
func (in intake) do(t *testing.T, method, query, body string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(method, in.srv.URL+"/agent/meta?"+query, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}

// metaJSON is a META event of metaType with the JSON payload payload.
func metaJSON(metaType, payload string) string {
	return `{"type":"META","metaType":"` + metaType + `","payload":` + payload + `}`
}

// refusesHostileInput sends bad events and keys, each a subtest: each is
// refused with its 4xx naming what is wrong (a HEAD is answered as a
// query), and none of them stores anything.
func (in intake) refusesHostileInput(t *testing.T) {
	thread, meta := hostileThread, metaJSON // short, for the table's rows
	for _, tc := range []struct {
		name, method, query, body, want string
		status                          int
	}{
		{"NUL in metaType", "POST", thread, meta(`x\u0000y`, `{}`), `"path":"/metaType"`, 400},
		{"NUL in messageId", "POST", thread, meta("thumbs_up", `{"messageId":"m\u0000"}`), `"path":"/payload/messageId"`, 400},
		{"NUL in id", "POST", thread, `{"type":"META","id":"a\u0000","metaType":"share","payload":{}}`, `"path":"/id"`, 400},
		{"an id too long", "POST", thread, `{"type":"META","id":"` + strings.Repeat("i", 257) + `","metaType":"share","payload":{}}`, `"path":"/id"`, 400},
		{"one bad event fails the batch", "POST", thread, "[" + meta("note", `{"text":"kept?"}`) + "," + meta(`\u0000`, `{}`) + "]", `"path":"/1/metaType"`, 400},
		{"a wrong type", "POST", thread, meta("rating", `{"messageId":"m","rating":"5"}`), `"path":"/payload/rating"`, 400},
		{"NUL in threadId", "POST", "threadId=t%00", meta("share", `{}`), "threadId holds a NUL", 400},
		{"threadId not UTF-8", "POST", "threadId=t%FF", meta("share", `{}`), "threadId is not valid UTF-8", 400},
		{"threadId too long", "POST", "threadId=" + strings.Repeat("t", agui.MaxMetaKeyBytes+1), meta("share", `{}`), "threadId is 1025 bytes long", 400},
		{"NUL in runId", "POST", thread + "&runId=%00", meta("share", `{}`), "runId holds a NUL", 400},
		{"query: NUL in threadId", "GET", "threadId=%00", "", "threadId holds a NUL", 400},
		{"query: metaType not UTF-8", "GET", thread + "&metaType=%FF", "", "metaType is not valid UTF-8", 400},
		{"query: NUL in messageId", "GET", thread + "&messageId=%00", "", "messageId holds a NUL", 400},
		{"HEAD is a query, never a store", "HEAD", thread, meta("share", `{}`), "", 200},
	} {
		t.Run(tc.name, func(t *testing.T) {
			status, body := in.do(t, tc.method, tc.query, tc.body)
			if status != tc.status || !strings.Contains(body, tc.want) {
				t.Errorf("%d %s, want %d with %s", status, body, tc.status, tc.want)
			}
		})
	}
	if page, err := in.store.Meta(context.Background(), agui.MetaQuery{ThreadID: "hostile"}); err != nil || len(page) != 0 {
		t.Fatalf("refused requests stored %d events (%v)", len(page), err)
	}
}

// keepsHostileValidEventsVerbatim stores hostileKept in one batch and
// reads each back as it was sent.
func (in intake) keepsHostileValidEventsVerbatim(t *testing.T) {
	kept := hostileKept
	if status, body := in.do(t, "POST", hostileThread, "["+strings.Join(kept, ",")+"]"); status != 200 {
		t.Fatalf("valid hostile events: %d %s", status, body)
	}
	page, err := in.store.Meta(context.Background(), agui.MetaQuery{ThreadID: "hostile"})
	if err != nil || len(page) != len(kept) {
		t.Fatalf("read back %d of %d (%v)", len(page), len(kept), err)
	}
	for i, m := range page {
		var want agui.MetaEvent
		if err := want.UnmarshalJSON([]byte(kept[i])); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(m.Event.AppendJSON(nil), want.AppendJSON(nil)) {
			t.Errorf("event %d came back as %s", i, m.Event.AppendJSON(nil))
		}
	}
}

// refusesAForgedID sends a different event under h1, which
// keepsHostileValidEventsVerbatim stored, after a new one: a conflict, and
// nothing of its batch is stored.
func (in intake) refusesAForgedID(t *testing.T) {
	if status, body := in.do(t, "POST", hostileThread, "["+metaJSON("share", `{}`)+`,{"type":"META","id":"h1","metaType":"note","payload":{"text":"forged"}}]`); status != 409 {
		t.Errorf("a forged id: %d %s", status, body)
	}
	if page, _ := in.store.Meta(context.Background(), agui.MetaQuery{ThreadID: "hostile"}); len(page) != len(hostileKept) {
		t.Errorf("the forged batch left %d events", len(page)-len(hostileKept))
	}
}

// crashEnv names, in the process Crash starts, the test to serve for and
// the storage to open.
const crashEnv, crashStorageEnv = "METASTORETEST_CRASH", "METASTORETEST_CRASH_STORAGE"

// Crash checks that every event the intake acknowledged is in storage after
// the process that served it is killed (SIGKILL: nothing closed, nothing
// flushed) while requests are still arriving. newStorage makes fresh
// storage (a file or a database URL); open opens a store on it: in a
// child process, which runs the calling test again and serves until
// killed, and then in this one, to read back what the child acknowledged.
// Call it first in a test of its own: the child runs the test up to here.
func Crash(t *testing.T, newStorage func(t *testing.T) string, open func(t *testing.T, storage string) agui.MetaStore) {
	if os.Getenv(crashEnv) == t.Name() {
		serveUntilKilled(t, open(t, os.Getenv(crashStorageEnv)))
		return
	}
	storage := newStorage(t)
	child, out := startCrashChild(t, storage)
	// Deferred here, so that a t.Fatal in any step below kills the child.
	defer child.Process.Kill()
	base := "http://" + servingAddress(t, out) + "/agent/meta?threadId=crash"
	acked := postUntilKilled(t, base, child)

	found, err := all(context.Background(), open(t, storage), agui.MetaQuery{ThreadID: "crash", Limit: agui.MaxMetaPage})
	if err != nil {
		t.Fatal(err)
	}
	checkAllAcknowledgedStored(t, acked, found)
}

// startCrashChild starts the test binary again, running only the calling
// test, to serve the intake on storage; its stdout says where.
func startCrashChild(t *testing.T, storage string) (*exec.Cmd, io.Reader) {
	// -test.run matches each level of a subtest's name on its own.
	var run []string
	for _, part := range strings.Split(t.Name(), "/") {
		run = append(run, "^"+regexp.QuoteMeta(part)+"$")
	}
	child := exec.Command(os.Args[0], "-test.run="+strings.Join(run, "/"), "-test.count=1")
	child.Env = append(os.Environ(), crashEnv+"="+t.Name(), crashStorageEnv+"="+storage)
	child.Stderr = os.Stderr
	out, err := child.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	return child, out
}

// servingAddress reads the child's stdout, to the end, for the address it
// serves on, and waits a minute at most for it.
func servingAddress(t *testing.T, out io.Reader) string {
	addr := make(chan string, 1)
	go func() {
		lines := bufio.NewScanner(out)
		for lines.Scan() {
			if a, ok := strings.CutPrefix(lines.Text(), "metastoretest: serving on "); ok {
				addr <- a
			}
		}
	}()
	select {
	case a := <-addr:
		return a
	case <-time.After(time.Minute):
		t.Fatal("the child process did not start serving")
		return ""
	}
}

// postUntilKilled has four senders post batches of five to base until the
// child dies; the child is killed once 200 events are acknowledged, with
// posts in flight. It returns the seq acknowledged for each event id.
func postUntilKilled(t *testing.T, base string, child *exec.Cmd) map[string]int64 {
	var mu sync.Mutex
	acked := map[string]int64{}
	enough := make(chan struct{})
	var once sync.Once
	record := func(ack agui.MetaIntake) {
		mu.Lock()
		defer mu.Unlock()
		for _, m := range ack.Events {
			acked[*m.Event.ID] = m.Seq
		}
		if len(acked) >= 200 {
			once.Do(func() { close(enough) })
		}
	}
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() { postBatches(base, w, record) })
	}
	select {
	case <-enough:
	case <-time.After(time.Minute):
		t.Fatal("200 events were not acknowledged in a minute")
	}
	if err := child.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	_ = child.Wait()
	return acked
}

// postBatches posts batches of five new events of sender w to base, and
// records each acknowledgement, until a post fails: the child is gone.
func postBatches(base string, w int, record func(agui.MetaIntake)) {
	for n := 0; ; n++ {
		var batch []string
		for k := range 5 {
			batch = append(batch, fmt.Sprintf(`{"type":"META","id":"c%d-%d-%d","metaType":"note","payload":{"text":"n"}}`, w, n, k))
		}
		res, err := http.Post(base, "application/json", strings.NewReader("["+strings.Join(batch, ",")+"]"))
		if err != nil {
			return // the child is gone
		}
		var ack agui.MetaIntake
		err = json.NewDecoder(res.Body).Decode(&ack)
		res.Body.Close()
		if err != nil || res.StatusCode != 200 {
			return
		}
		record(ack)
	}
}

// checkAllAcknowledgedStored checks that found, what the storage holds
// after the kill, holds each event once, and each acknowledged event with
// the seq it was acknowledged with.
func checkAllAcknowledgedStored(t *testing.T, acked map[string]int64, found []agui.StoredMeta) {
	stored := map[string]int64{}
	for _, m := range found {
		if _, twice := stored[*m.Event.ID]; twice {
			t.Errorf("%s is stored twice", *m.Event.ID)
		}
		stored[*m.Event.ID] = m.Seq
	}
	lost := 0
	for id, seq := range acked {
		if stored[id] != seq {
			lost++
		}
	}
	if lost > 0 {
		t.Errorf("%d of %d acknowledged events are not in the store after the kill", lost, len(acked))
	}
	t.Logf("%d events acknowledged before the kill, all stored (%d stored in all)", len(acked), len(stored))
}

// serveUntilKilled serves the META intake on store on a loopback port,
// says where on stdout, and blocks until the process is killed.
func serveUntilKilled(t *testing.T, store agui.MetaStore) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	fmt.Println("metastoretest: serving on " + l.Addr().String())
	t.Fatal(http.Serve(l, handler(store)))
}
