package aguirt

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
	"time"

	agui "github.com/agui-gen/agui-gen/gen/agui"
)

// BenchmarkIdleStreamMemory: the memory an idle AG-UI stream holds (a run
// whose agent waits, keep-alives on), heap and stacks, per stream of 200
// held open at once, against a plain net/http handler that holds its
// response open the same way. Compare the KiB/stream of the two.
func BenchmarkIdleStreamMemory(b *testing.B) {
	release := make(chan struct{})
	waiting := AgentFunc(func(ctx context.Context, _ *agui.RunAgentInput, s *Stream) error {
		select {
		case <-release:
		case <-ctx.Done():
		}
		return nil
	})
	plain := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", agui.MediaTypeSSE)
		w.WriteHeader(http.StatusOK)
		http.NewResponseController(w).Flush()
		select {
		case <-release:
		case <-r.Context().Done():
		}
	})
	for _, c := range []struct {
		name string
		h    http.Handler
	}{
		{"nethttp", plain},
		{"agui", NewHandler(waiting, WithKeepAlive(15*time.Second), WithLogger(quietLogger()))},
	} {
		b.Run(c.name, func(b *testing.B) {
			srv := httptest.NewServer(c.h)
			defer srv.Close()
			const n = 200
			var perStream float64
			for b.Loop() {
				before := heapAndStacks()
				conns := make([]net.Conn, n)
				for i := range conns {
					conns[i] = openRun(b, srv.Listener.Addr().String(), i)
				}
				perStream += float64(heapAndStacks()-before) / n
				for _, conn := range conns {
					conn.Close()
				}
			}
			b.ReportMetric(perStream/float64(b.N)/1024, "KiB/stream")
		})
	}
	close(release)
}

// heapAndStacks is the memory in use after a collection.
func heapAndStacks() int64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapInuse + m.StackInuse)
}

// openRun posts a run and reads up to the end of the response's headers,
// by which time the handler holds the stream open.
func openRun(b testing.TB, addr string, i int) net.Conn {
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		b.Fatal(err)
	}
	body := fmt.Sprintf(`{"threadId":"t%d","runId":"r%d","messages":[]}`, i, i)
	fmt.Fprintf(conn, "POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", len(body), body)
	r := bufio.NewReader(conn)
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			b.Fatal(err)
		}
		if strings.TrimSpace(line) == "" {
			return conn
		}
	}
}
