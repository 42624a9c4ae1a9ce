package runlogtest

import (
	"context"
	"fmt"
	"runtime"
	"strconv"
	"sync/atomic"
	"testing"

	"github.com/agui-gen/agui-gen/runtime/runlog"
)

// Benchmark writes runs to a log newLog opens, as a resumable AG-UI run
// does, through a runlog.Writer (a RUN_STARTED, 200 small text deltas, a
// RUN_FINISHED), one run at a time and 16 at once, and reports the
// process's CPU per run (cpu-ns/run): the log's own cost, which the
// handler's benchmark (BenchmarkRunStreamResumableServer) buries among
// HTTP's.
func Benchmark(b *testing.B, newLog func(b *testing.B) runlog.Log) {
	for _, writers := range []int{1, 16} {
		b.Run(fmt.Sprintf("writers=%d", writers), func(b *testing.B) { benchmark(b, newLog(b), writers) })
	}
}

func benchmark(b *testing.B, log runlog.Log, writers int) {
	const events = 200
	started := []byte(`{"type":"RUN_STARTED","threadId":"thread-1","runId":"run-1"}`)
	delta := []byte(`{"type":"TEXT_MESSAGE_CONTENT","messageId":"msg_0194b3f2c5a87e1d","delta":"a few words "}`)
	finished := []byte(`{"type":"RUN_FINISHED","threadId":"thread-1","runId":"run-1"}`)
	ctx := context.Background()
	var n atomic.Int64
	run := func() {
		key := runlog.NewKey()
		w, err := runlog.CreateWriter(ctx, log, runlog.Run{Key: key, ThreadID: "thread-1", RunID: "run-" + strconv.FormatInt(n.Add(1), 10),
			Input: []byte(`{"threadId":"thread-1","runId":"run-1","messages":[]}`)})
		if err != nil {
			b.Error(err)
			return
		}
		if err := w.Add(func(d []byte) []byte { return append(d, started...) }); err != nil {
			b.Error(err)
			return
		}
		for range events {
			if err := w.Add(func(d []byte) []byte { return append(d, delta...) }); err != nil {
				b.Error(err)
				return
			}
		}
		if err := w.End(finished); err != nil {
			b.Error(err)
		}
	}
	b.ReportAllocs()
	cpu := cpuTime()
	if writers == 1 {
		for b.Loop() {
			run()
		}
	} else {
		b.SetParallelism((writers + runtime.GOMAXPROCS(0) - 1) / runtime.GOMAXPROCS(0))
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				run()
			}
		})
	}
	b.ReportMetric(float64(cpuTime()-cpu)/float64(b.N), "cpu-ns/run")
}
