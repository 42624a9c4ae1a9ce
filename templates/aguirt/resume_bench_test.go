package aguirt

import (
	"bufio"
	"context"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	agui "github.com/agui-gen/agui-gen/gen/agui"
	"github.com/agui-gen/agui-gen/runtime/runlog"
	"github.com/agui-gen/agui-gen/runtime/runlog/sqlitelog"
)

// BenchmarkResumeFirstEvent: how long a resume takes to answer its first
// missed event, on loopback: from sending the GET with Last-Event-ID to
// reading the first event after it, each resume on a new connection, of a
// run that has logged 200 events, 100 of them missed, and waits. p50-ms and
// p99-ms are the median and the 99th percentile of those times. On SQLite
// the resume is served by the replica that runs the run, or by another
// process's log on the same file (replica=other: no writer's memory to
// read from).
//
//	go test ./templates/aguirt -run XXX -bench ResumeFirstEvent -benchtime 2000x -count 6
func BenchmarkResumeFirstEvent(b *testing.B) {
	openSQLite := func(path string) RunLog {
		l, err := sqlitelog.Open(context.Background(), path, sqlitelog.Options{})
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { l.Close() })
		return l
	}
	cases := []struct {
		name string
		logs func(b *testing.B) (runs, resumes RunLog)
	}{
		{"log=memory", func(*testing.B) (RunLog, RunLog) {
			l := runlog.NewMemory(runlog.MemoryOptions{})
			return l, l
		}},
		{"log=sqlite/replica=same", func(b *testing.B) (RunLog, RunLog) {
			l := openSQLite(filepath.Join(b.TempDir(), "runs.db"))
			return l, l
		}},
		{"log=sqlite/replica=other", func(b *testing.B) (RunLog, RunLog) {
			path := filepath.Join(b.TempDir(), "runs.db")
			return openSQLite(path), openSQLite(path)
		}},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			release := make(chan struct{})
			defer close(release)
			agent := AgentFunc(func(ctx context.Context, _ *agui.RunAgentInput, s *Stream) error {
				for range 200 {
					if err := s.Text("a few words "); err != nil {
						return err
					}
				}
				select {
				case <-release:
				case <-ctx.Done():
				}
				return nil
			})
			runs, resumes := c.logs(b)
			srv := httptest.NewServer(NewHandler(agent, WithLogger(quietLogger()), WithResumableRuns(runs)))
			defer srv.Close()
			other := srv
			if resumes != runs {
				other = httptest.NewServer(NewHandler(agent, WithLogger(quietLogger()), WithResumableRuns(resumes)))
				defer other.Close()
			}
			key := startWaitingRun(b, srv.URL, runs)
			from := runlog.FormatID(key, 100)
			want := "id: " + runlog.FormatID(key, 101)
			tr := &http.Transport{DisableKeepAlives: true}
			defer tr.CloseIdleConnections()
			hc := &http.Client{Transport: tr}
			times := make([]time.Duration, 0, b.N)
			for b.Loop() {
				req, _ := http.NewRequest(http.MethodGet, other.URL, nil)
				req.Header.Set("Accept", "text/event-stream")
				req.Header.Set("Last-Event-ID", from)
				start := time.Now()
				resp, err := hc.Do(req)
				if err != nil {
					b.Fatal(err)
				}
				// The event: its id, then its data.
				r := bufio.NewReader(resp.Body)
				line, err := r.ReadString('\n')
				data, derr := r.ReadString('\n')
				took := time.Since(start)
				resp.Body.Close()
				if err != nil || derr != nil || strings.TrimSpace(line) != want || !strings.HasPrefix(data, "data: ") {
					b.Fatalf("the resume's first event: %q %q, %v, %v; want %q", line, data, err, derr, want)
				}
				times = append(times, took)
			}
			slices.Sort(times)
			pct := func(p float64) float64 {
				return float64(times[int(p*float64(len(times)-1))]) / float64(time.Millisecond)
			}
			b.ReportMetric(pct(0.5), "p50-ms")
			b.ReportMetric(pct(0.99), "p99-ms")
		})
	}
}

// startWaitingRun starts a run on the server at url, waits until its log
// holds 200 events, and returns its key; the client that started it has
// gone.
func startWaitingRun(b *testing.B, url string, log RunLog) string {
	resp, err := http.Post(url, "application/json", strings.NewReader(`{"threadId":"t","runId":"r","messages":[]}`))
	if err != nil {
		b.Fatal(err)
	}
	line, err := bufio.NewReader(resp.Body).ReadString('\n')
	resp.Body.Close()
	key, _, perr := runlog.ParseID(strings.TrimSpace(strings.TrimPrefix(line, "id: ")))
	if err != nil || perr != nil {
		b.Fatalf("the run's first line: %q, %v, %v", line, err, perr)
	}
	for {
		run, err := log.Get(context.Background(), key)
		if err != nil {
			b.Fatal(err)
		}
		if run.Last >= 200 {
			return key
		}
		time.Sleep(time.Millisecond)
	}
}
