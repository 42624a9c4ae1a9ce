package runlog_test

import (
	"testing"

	"github.com/agui-gen/agui-gen/runtime/runlog"
	"github.com/agui-gen/agui-gen/runtime/runlog/runlogtest"
)

// TestMemoryContract: Memory keeps the contract of Log.
func TestMemoryContract(t *testing.T) {
	runlogtest.Run(t, func(t *testing.T) runlog.Log {
		return runlog.NewMemory(runlog.MemoryOptions{MaxRunBytes: 1 << 10})
	}, 1<<10)
}

// BenchmarkMemoryWriter: the CPU a resumable run's log costs in memory.
func BenchmarkMemoryWriter(b *testing.B) {
	runlogtest.Benchmark(b, func(*testing.B) runlog.Log { return runlog.NewMemory(runlog.MemoryOptions{MaxEndedRuns: 64}) })
}
