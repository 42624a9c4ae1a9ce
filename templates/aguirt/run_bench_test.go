package aguirt

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	agui "github.com/agui-gen/agui-gen/gen/agui"
	"github.com/agui-gen/agui-gen/runtime/postgres/pgtest"
	"github.com/agui-gen/agui-gen/runtime/runlog"
	"github.com/agui-gen/agui-gen/runtime/runlog/pglog"
	"github.com/agui-gen/agui-gen/runtime/runlog/sqlitelog"
)

// BenchmarkRunStream: one run of 200 text deltas, handler and client in
// this process, with telemetry as a program that installs no
// OpenTelemetry SDK has it (the global no-op providers): the baseline the
// instrumentation's cost is measured against, by running this benchmark on
// a commit from before it too.
//
//	go test ./templates/aguirt -run XXX -bench 'RunStream$' -count 10 > new.txt
func BenchmarkRunStream(b *testing.B) {
	benchRun(b, nil, nil)
}

// benchRun measures a run of a handler made with opts, read by client.
func benchRun(b *testing.B, opts []Option, client *Client) {
	agent := AgentFunc(func(ctx context.Context, in *agui.RunAgentInput, s *Stream) error {
		for range 200 {
			if err := s.Text("a few words "); err != nil {
				return err
			}
		}
		return nil
	})
	srv := httptest.NewServer(NewHandler(agent, append([]Option{WithLogger(quietLogger())}, opts...)...))
	defer srv.Close()
	if client == nil {
		client = &Client{}
	}
	client.URL = srv.URL
	ctx := context.Background()
	b.ReportAllocs()
	i := 0
	cpu := cpuTime()
	defer func() {
		// The process's CPU time, server and client, per event: what other
		// processes on the machine do not change as they do wall time.
		b.ReportMetric(float64(cpuTime()-cpu)/float64(b.N*200), "cpu-ns/event")
	}()
	for b.Loop() {
		// A run id of its own: a resumable run settles its registration
		// just after its stream ends.
		i++
		in := &agui.RunAgentInput{ThreadID: "t", RunID: "r" + strconv.Itoa(i)}
		rs, err := client.Run(ctx, in)
		if err != nil {
			b.Fatal(err)
		}
		if err := rs.Wait(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRunStreamResumable: BenchmarkRunStream with resumable runs off
// and on (the memory log), in one run, for the ratio of the two:
//
//	go test ./templates/aguirt -run XXX -bench 'RunStreamResumable' -count 10 > r.txt
//	benchstat -col /resumable r.txt
func BenchmarkRunStreamResumable(b *testing.B) {
	b.Run("resumable=off", func(b *testing.B) { benchRun(b, nil, nil) })
	b.Run("resumable=on", func(b *testing.B) {
		benchRun(b, []Option{WithResumableRuns(runlog.NewMemory(runlog.MemoryOptions{MaxEndedRuns: 64}))}, nil)
	})
}

// BenchmarkRunStreamResumableServer: BenchmarkRunStreamResumable with a
// client that reads the response's bytes and nothing more, so the CPU
// measured is the server's (and the HTTP transport's): the server's cost
// per event with resumable runs off and on, on each log (PostgreSQL when
// there is a server: see pgtest), with one client running one run after
// another and with 16 at once (as BenchmarkA2ATaskRuntime loads the task
// runtime: the log's writes of runs made at once share commits).
//
//	go test ./templates/aguirt -run XXX -bench 'RunStreamResumableServer' -count 6 > r.txt
//	benchstat -col /resumable r.txt
func BenchmarkRunStreamResumableServer(b *testing.B) {
	agent := AgentFunc(func(ctx context.Context, in *agui.RunAgentInput, s *Stream) error {
		for range 200 {
			if err := s.Text("a few words "); err != nil {
				return err
			}
		}
		return nil
	})
	logs := []struct {
		name string
		open func(b *testing.B) RunLog
	}{
		{"memory", func(*testing.B) RunLog { return runlog.NewMemory(runlog.MemoryOptions{MaxEndedRuns: 64}) }},
		{"sqlite", func(b *testing.B) RunLog {
			l, err := sqlitelog.Open(context.Background(), filepath.Join(b.TempDir(), "runs.db"), sqlitelog.Options{})
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { l.Close() })
			return l
		}},
		{"postgres", func(b *testing.B) RunLog {
			l, err := pglog.Open(context.Background(), pgtest.Database(b), pglog.Options{})
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { l.Close() })
			return l
		}},
	}
	for _, clients := range []int{1, 16} {
		for _, lg := range logs {
			for _, on := range []bool{false, true} {
				name := fmt.Sprintf("clients=%d/log=%s/resumable=%v", clients, lg.name, map[bool]string{false: "off", true: "on"}[on])
				b.Run(name, func(b *testing.B) {
					opts := []Option{WithLogger(quietLogger())}
					if on {
						opts = append(opts, WithResumableRuns(lg.open(b)))
					}
					srv := httptest.NewServer(NewHandler(agent, opts...))
					defer srv.Close()
					tr := &http.Transport{MaxIdleConnsPerHost: clients}
					defer tr.CloseIdleConnections()
					hc := &http.Client{Transport: tr}
					var id atomic.Int64
					run := func() {
						body := `{"threadId":"t","runId":"r` + strconv.FormatInt(id.Add(1), 10) + `","messages":[]}`
						resp, err := hc.Post(srv.URL, "application/json", strings.NewReader(body))
						if err != nil {
							b.Error(err)
							return
						}
						n, _ := io.Copy(io.Discard, resp.Body)
						resp.Body.Close()
						if n < 200*50 {
							b.Errorf("a run of %d bytes", n)
						}
					}
					b.ReportAllocs()
					cpu := cpuTime()
					if clients == 1 {
						for b.Loop() {
							run()
						}
					} else {
						b.SetParallelism((clients + runtime.GOMAXPROCS(0) - 1) / runtime.GOMAXPROCS(0))
						b.RunParallel(func(pb *testing.PB) {
							for pb.Next() {
								run()
							}
						})
					}
					b.ReportMetric(float64(cpuTime()-cpu)/float64(b.N*200), "cpu-ns/event")
				})
			}
		}
	}
}
