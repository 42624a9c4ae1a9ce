package aguirt

import (
	"context"
	"net"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	agui "github.com/agui-gen/agui-gen/gen/agui"
	"github.com/agui-gen/agui-gen/runtime/runlog"
	"net/http/httptest"
)

// BenchmarkDetachedRunMemory: the memory a resumable run holds once its
// client has gone (the agent waiting, the run detached), heap and stacks,
// per run of 200, beyond what its log holds (one event).
func BenchmarkDetachedRunMemory(b *testing.B) {
	release := make(chan struct{})
	defer close(release)
	waiting := AgentFunc(func(ctx context.Context, _ *agui.RunAgentInput, s *Stream) error {
		select {
		case <-release:
		case <-ctx.Done():
		}
		return nil
	})
	h := newHandler(waiting, []Option{WithLogger(quietLogger()), WithResumableRuns(runlog.NewMemory(runlog.MemoryOptions{}))})
	srv := httptest.NewServer(h)
	defer srv.Close()
	const n = 200
	var perRun float64
	round := 0
	for b.Loop() {
		before := heapAndStacks()
		for i := range n {
			openRun(b, srv.Listener.Addr().String(), round*n+i).Close()
		}
		for detached := false; !detached; {
			time.Sleep(5 * time.Millisecond)
			detached = true
			h.cfg.resumable.local.Range(func(_, l any) bool {
				detached = l.(*localRun).lease.Attached() == 0
				return detached
			})
		}
		perRun += float64(heapAndStacks()-before) / n
		round++
	}
	b.ReportMetric(perRun/float64(b.N)/1024, "KiB/run")
}

// BenchmarkStalledStreamMemory: the memory a stream holds whose reader
// has stopped reading while its run emits 512 KiB, per stream of 50, heap
// and stacks, beyond what the run's log holds: without resumable runs the
// run waits on the reader with up to its queue's bound held; with them the
// run writes to the log and the stream holds one page of it at most.
func BenchmarkStalledStreamMemory(b *testing.B) {
	for _, resumable := range []bool{false, true} {
		name := "resumable=off"
		if resumable {
			name = "resumable=on"
		}
		b.Run(name, func(b *testing.B) {
			release := make(chan struct{})
			var emitted atomic.Int64
			delta := strings.Repeat("x", 4<<10)
			agent := AgentFunc(func(ctx context.Context, _ *agui.RunAgentInput, s *Stream) error {
				for range 128 {
					if err := s.Text(delta); err != nil {
						return err
					}
				}
				emitted.Add(1)
				select {
				case <-release:
				case <-ctx.Done():
				}
				return nil
			})
			log := runlog.NewMemory(runlog.MemoryOptions{})
			opts := []Option{WithLogger(quietLogger())}
			if resumable {
				opts = append(opts, WithResumableRuns(log))
			}
			srv := httptest.NewServer(NewHandler(agent, opts...))
			defer srv.Close()
			defer close(release)
			const n = 50
			var perStream float64
			round := 0
			for b.Loop() {
				before := heapAndStacks()
				conns := make([]net.Conn, n)
				for i := range conns {
					conns[i] = openRun(b, srv.Listener.Addr().String(), round*n+i)
				}
				for resumable && emitted.Load() < int64((round+1)*n) {
					time.Sleep(5 * time.Millisecond)
				}
				time.Sleep(300 * time.Millisecond) // what can be written is
				logged := 0
				if resumable {
					for i := range n {
						run, err := log.Find(context.Background(), "t"+itoa(round*n+i), "r"+itoa(round*n+i))
						if err != nil {
							b.Fatal(err)
						}
						p, _ := log.Read(context.Background(), run.Key, 0, int(run.Last), nil)
						for _, e := range p.Entries {
							logged += len(e.Data)
						}
					}
				}
				perStream += float64(heapAndStacks()-before-int64(logged)) / n
				for _, c := range conns {
					c.Close()
				}
				round++
			}
			b.ReportMetric(perStream/float64(b.N)/1024, "KiB/stream")
		})
	}
}
