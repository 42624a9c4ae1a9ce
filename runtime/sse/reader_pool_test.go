package sse_test

import (
	"bytes"
	"io"
	"runtime"
	"testing"

	"github.com/agui-gen/agui-gen/runtime/sse"
)

// TestReaderCloseLendsItsBuffer: a Reader made after another was closed
// takes its read buffer instead of allocating one, and reads its own
// stream whole.
func TestReaderCloseLendsItsBuffer(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts mean nothing under the race detector, which empties sync.Pool at random")
	}
	stream := []byte("data: one\n\ndata: two\n\n")
	in := bytes.NewReader(nil)
	read := func() (events []string) {
		in.Reset(stream)
		r := sse.NewReader(in, 1<<10)
		defer r.Close()
		for {
			ev, err := r.Next()
			if err == io.EOF {
				return events
			}
			if err != nil {
				t.Fatal(err)
			}
			events = append(events, string(ev.Data))
		}
	}
	if got := read(); len(got) != 2 || got[0] != "one" || got[1] != "two" {
		t.Fatalf("events %q", got)
	}
	// The Reader itself, its data buffer and the events' strings: a few
	// small objects, and far from a 64 KiB read buffer a stream.
	const streams = 50
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	allocs := testing.AllocsPerRun(streams, func() { read() })
	runtime.ReadMemStats(&after)
	if perStream := (after.TotalAlloc - before.TotalAlloc) / (streams + 1); allocs > 6 || perStream >= 16<<10 {
		t.Errorf("%v allocations, %d bytes a stream: the read buffer is not reused", allocs, perStream)
	}
}
