package aguirt

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	agui "github.com/agui-gen/agui-gen/gen/agui"
	"github.com/agui-gen/agui-gen/runtime/postgres/pgtest"
	"github.com/agui-gen/agui-gen/runtime/runlog"
	"github.com/agui-gen/agui-gen/runtime/runlog/pglog"
	"github.com/agui-gen/agui-gen/runtime/runlog/sqlitelog"
)

// crashStoreEnv, set, makes TestResumeAfterCrash, in the process it
// starts, the server that is killed: the store it names ("sqlite:<path>" or "postgres:<dsn>") holds its runs'
// logs.
const crashStoreEnv = "AGUIRT_CRASH_STORE"

// crashLapse is the runs' marks' lapse in the crash test: how long after
// the kill a reader finds the run lost.
const crashLapse = 500 * time.Millisecond

// crashEvents is how many text deltas the killed server's agent sends
// before it waits for ever.
const crashEvents = 6

// openCrashStore opens the log a crash test's store names.
func openCrashStore(store string) (interface {
	RunLog
	Close() error
}, error) {
	kind, where, _ := strings.Cut(store, ":")
	ctx := context.Background()
	if kind == "sqlite" {
		return sqlitelog.Open(ctx, where, sqlitelog.Options{Lapse: crashLapse, PollInterval: 20 * time.Millisecond})
	}
	return pglog.Open(ctx, where, pglog.Options{Lapse: crashLapse})
}

// serveUntilKilled is the server TestResumeAfterCrash kills, in the
// process it starts: it prints its URL and serves a resumable run whose
// agent sends crashEvents deltas and then waits for ever.
func serveUntilKilled(t *testing.T, store string) {
	log, err := openCrashStore(store)
	if err != nil {
		t.Fatal(err)
	}
	agent := AgentFunc(func(ctx context.Context, in *agui.RunAgentInput, s *Stream) error {
		if err := s.StartText("m1"); err != nil {
			return err
		}
		for i := range crashEvents {
			if err := s.Text(fmt.Sprint("part ", i, " ")); err != nil {
				return err
			}
		}
		<-ctx.Done() // until the kill
		return ctx.Err()
	})
	srv := httptest.NewServer(NewHandler(agent, WithLogger(quietLogger()), WithResumableRuns(log)))
	fmt.Printf("URL %s\n", srv.URL)
	select {}
}

// TestResumeAfterCrash: the server running a resumable run is killed (a
// real process, SIGKILL) mid-run; a resume on a second server sharing its
// log gets the events the log has after the client's last, then RUN_ERROR
// with code run_lost, in bounded time, and so does a second resume: the
// run ended once.
func TestResumeAfterCrash(t *testing.T) {
	if store := os.Getenv(crashStoreEnv); store != "" {
		serveUntilKilled(t, store)
	}
	t.Run("log=sqlite", func(t *testing.T) {
		resumeAfterCrash(t, "sqlite:"+filepath.Join(t.TempDir(), "runs.db"))
	})
	t.Run("log=postgres", func(t *testing.T) {
		resumeAfterCrash(t, "postgres:"+pgtest.Database(t))
	})
}

func resumeAfterCrash(t *testing.T, store string) {
	ctx := context.Background()
	// The second server's log, opened first: it migrates the schema.
	log, err := openCrashStore(store)
	if err != nil {
		t.Fatal(err)
	}
	defer log.Close()

	child := exec.Command(os.Args[0], "-test.run=^TestResumeAfterCrash$", "-test.count=1")
	child.Env = append(os.Environ(), crashStoreEnv+"="+store)
	child.Stderr = os.Stderr
	out, err := child.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	killed := false
	defer func() {
		if !killed {
			child.Process.Kill()
			child.Wait()
		}
	}()
	lines := bufio.NewScanner(out)
	url := ""
	for url == "" && lines.Scan() {
		url, _ = strings.CutPrefix(lines.Text(), "URL ")
	}
	if url == "" {
		t.Fatal("the server to kill did not start")
	}

	// The client reads three events: RUN_STARTED, TEXT_MESSAGE_START and
	// the first delta.
	rs, err := (&Client{URL: url}).Run(ctx, &agui.RunAgentInput{ThreadID: "t", RunID: "r"})
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		if _, err := rs.Next(); err != nil {
			t.Fatal(err)
		}
	}
	id := lastID(rs.src)
	rs.Close()
	key, pos, err := runlog.ParseID(id)
	if err != nil {
		t.Fatal(err)
	}
	// Everything the agent sent is in the log before the kill, so what
	// the resume gets is known.
	logged := int64(2 + crashEvents)
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		run, err := log.Get(ctx, key)
		if err == nil && run.Last >= logged {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the log has %+v, %v; want %d entries", run, err, logged)
		}
	}
	if err := child.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	child.Wait()
	killed = true

	srv := httptest.NewServer(NewHandler(chattyAgent(nil), WithLogger(quietLogger()), WithResumableRuns(log)))
	defer srv.Close()
	resume := func(after string) []sseEvent {
		t.Helper()
		rctx, cancel := context.WithTimeout(ctx, 20*time.Second)
		defer cancel()
		req, _ := http.NewRequestWithContext(rctx, http.MethodGet, srv.URL, nil)
		req.Header.Set("Accept", "text/event-stream")
		req.Header.Set("Last-Event-ID", after)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		evs := readSSE(t, resp.Body)
		if rctx.Err() != nil {
			t.Fatalf("the resume of a run whose server was killed did not end within 20s; it got %d events", len(evs))
		}
		return evs
	}
	evs := resume(id)
	if want := int(logged-pos) + 1; len(evs) != want {
		t.Fatalf("the resume got %d events, want %d: %v", len(evs), want, evs)
	}
	for i, e := range evs[:len(evs)-1] {
		if e.id != runlog.FormatID(key, pos+1+int64(i)) || !strings.Contains(e.data, `"TEXT_MESSAGE_CONTENT"`) {
			t.Errorf("event %d: %s %s", i, e.id, e.data)
		}
	}
	end := evs[len(evs)-1]
	if !strings.Contains(end.data, `"RUN_ERROR"`) || !strings.Contains(end.data, `"code":"`+RunLostCode+`"`) ||
		end.id != runlog.FormatID(key, logged+1) {
		t.Errorf("the resume ended with %s %s, want RUN_ERROR run_lost", end.id, end.data)
	}
	// A second client, from the start: the same end, logged once.
	again := resume(runlog.FormatID(key, 1))
	if len(again) != int(logged) || again[len(again)-1] != end {
		t.Errorf("a second resume ended with %v, want the same end", again[len(again)-1])
	}
	t.Logf("%d events logged before the kill; the resume got %d after the client's last, then RUN_ERROR", logged, len(evs)-1)
}
