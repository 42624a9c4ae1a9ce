package interop_test

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/agui-gen/agui-gen/templates/a2atask/storetest"
)

// BenchmarkA2AJSONRPCSendMessage measures JSON-RPC SendMessage against the
// server gen/a2a generates and against a2a-go v2.4.0's, each in its own
// process (interop/a2abenchserver), driven by 16 workers on keep-alive
// connections (and by one, for the latency of an unloaded server). Each request is one b.N iteration; besides ns/op it reports
// req/s, the p50 and p99 latency, and the server's CPU time per request
// (from /proc). Two agents: one that answers with a message, one that
// creates a task and completes it with an artifact.
//
//	go test ./interop -run XXX -bench A2AJSONRPC -benchtime 20000x -count 5 | tee a2a.txt
//	benchstat -col /impl a2a.txt
func BenchmarkA2AJSONRPCSendMessage(b *testing.B) {
	bin := buildBenchServer(b)
	for _, workers := range []int{16, 1} {
		for _, reply := range []string{"message", "task"} {
			for _, impl := range []string{"agui-gen", "a2a-go"} {
				b.Run(fmt.Sprintf("workers=%d/reply=%s/impl=%s", workers, reply, impl), func(b *testing.B) {
					url, pid, stop := startBenchServer(b, bin, impl, reply)
					defer stop()
					runJSONRPCLoad(b, url, pid, workers)
				})
			}
		}
	}
}

var (
	benchBinOnce sync.Once
	benchBin     string
	benchBinErr  error
)

func buildBenchServer(b *testing.B) string {
	benchBinOnce.Do(func() {
		dir, err := os.MkdirTemp("", "a2abench")
		if err != nil {
			benchBinErr = err
			return
		}
		benchBin = filepath.Join(dir, "a2abenchserver")
		out, err := exec.Command("go", "build", "-o", benchBin, "./a2abenchserver").CombinedOutput()
		if err != nil {
			benchBinErr = fmt.Errorf("building a2abenchserver: %v\n%s", err, out)
		}
	})
	if benchBinErr != nil {
		b.Fatal(benchBinErr)
	}
	return benchBin
}

// With A2A_BENCH_PROFILES set to a directory, each server writes its CPU
// profile there, named after the benchmark.
func startBenchServer(b *testing.B, bin, impl, reply string, args ...string) (url string, pid int, stop func()) {
	if dir := os.Getenv("A2A_BENCH_PROFILES"); dir != "" {
		name := strings.NewReplacer("/", "_", "=", "-").Replace(b.Name())
		args = append(args, "-cpuprofile", filepath.Join(dir, fmt.Sprintf("%s-%d.pprof", name, time.Now().UnixNano())))
	}
	cmd := exec.Command(bin, append([]string{"-impl", impl, "-reply", reply}, args...)...)
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		b.Fatal(err)
	}
	return strings.TrimSpace(line), cmd.Process.Pid, func() {
		stdin.Close()
		cmd.Wait()
	}
}

// cpuTime is the user+system CPU time of a process so far.
func cpuTime(b *testing.B, pid int) time.Duration {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		b.Skipf("no /proc to read the server's CPU time from: %v", err)
	}
	// Fields after the command name, which is in parentheses: utime and
	// stime are the 12th and 13th, in clock ticks of 10 ms.
	fields := strings.Fields(string(data[bytes.LastIndexByte(data, ')')+2:]))
	utime, _ := strconv.ParseInt(fields[11], 10, 64)
	stime, _ := strconv.ParseInt(fields[12], 10, 64)
	return time.Duration(utime+stime) * 10 * time.Millisecond
}

// loadConn is one keep-alive HTTP/1.1 connection of the load generator. It
// writes a prepared request and reads the response by hand, as wrk does, so
// the generator spends little of the machine's two cores and the servers'
// costs decide the result.
type loadConn struct {
	conn net.Conn
	r    *bufio.Reader
	req  []byte // the request it sends
	body []byte
}

func (c *loadConn) roundTrip(req []byte) error {
	if _, err := c.conn.Write(req); err != nil {
		return err
	}
	status, err := c.r.ReadSlice('\n')
	if err != nil {
		return err
	}
	length, chunked := -1, false
	for {
		line, err := c.r.ReadSlice('\n')
		if err != nil {
			return err
		}
		if len(line) <= 2 {
			break
		}
		name, value, _ := strings.Cut(strings.TrimSpace(string(line)), ":")
		switch strings.ToLower(name) {
		case "content-length":
			length, _ = strconv.Atoi(strings.TrimSpace(value))
		case "transfer-encoding":
			chunked = strings.Contains(value, "chunked")
		}
	}
	c.body = c.body[:0]
	switch {
	case chunked:
		for {
			line, err := c.r.ReadString('\n')
			if err != nil {
				return err
			}
			n, err := strconv.ParseInt(strings.TrimSpace(line), 16, 32)
			if err != nil {
				return err
			}
			chunk := make([]byte, n+2)
			if _, err := io.ReadFull(c.r, chunk); err != nil {
				return err
			}
			if n == 0 {
				break
			}
			c.body = append(c.body, chunk[:n]...)
		}
	case length >= 0:
		c.body = slices.Grow(c.body, length)[:length]
		if _, err := io.ReadFull(c.r, c.body); err != nil {
			return err
		}
	default:
		return fmt.Errorf("response without a length: %s", status)
	}
	if !bytes.HasPrefix(status, []byte("HTTP/1.1 200")) || !bytes.Contains(c.body, []byte(`"result"`)) {
		return fmt.Errorf("%s%s", status, c.body)
	}
	return nil
}

// sendMessageV1 and sendMessageV03 are one request in A2A 1.0's JSON-RPC
// and in 0.3's, which says the same without an A2A-Version header.
const (
	sendMessageV1 = `{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"messageId":"m-1","role":"ROLE_USER",` +
		`"parts":[{"text":"What is the weather in Paris today, and should I take an umbrella?"}],"metadata":{"source":"bench"}}}}`
	sendMessageV03 = `{"jsonrpc":"2.0","id":1,"method":"message/send","params":{"message":{"kind":"message","messageId":"m-1","role":"user",` +
		`"parts":[{"kind":"text","text":"What is the weather in Paris today, and should I take an umbrella?"}],"metadata":{"source":"bench"}}}}`
)

// BenchmarkA2AJSONRPCVersions measures the same SendMessage on one server
// of ours, sent by a 1.0 client and by a 0.3 client (converted to 1.0 and
// back on the way):
//
//	go test ./interop -run XXX -bench A2AJSONRPCVersions -benchtime 20000x -count 5 | tee v.txt
//	benchstat -col /wire v.txt
func BenchmarkA2AJSONRPCVersions(b *testing.B) {
	bin := buildBenchServer(b)
	for _, reply := range []string{"message", "task"} {
		for _, wire := range []string{"1.0", "0.3"} {
			b.Run(fmt.Sprintf("reply=%s/wire=%s", reply, wire), func(b *testing.B) {
				url, pid, stop := startBenchServer(b, bin, "agui-gen", reply)
				defer stop()
				if wire == "0.3" {
					runJSONRPCLoadOf(b, url, pid, 16, sendMessageV03, "")
				} else {
					runJSONRPCLoadOf(b, url, pid, 16, sendMessageV1, "A2A-Version: 1.0\r\n")
				}
			})
		}
	}
}

func runJSONRPCLoad(b *testing.B, url string, pid int, benchWorkers int) {
	runJSONRPCLoadOf(b, url, pid, benchWorkers, sendMessageV1, "A2A-Version: 1.0\r\n")
}

// runJSONRPCLoadOf sends body, with the extra header lines, from
// benchWorkers connections.
func runJSONRPCLoadOf(b *testing.B, url string, pid int, benchWorkers int, body, headers string) {
	runJSONRPCLoadAcross(b, []string{url}, []int{pid}, benchWorkers, body, headers)
}

// runJSONRPCLoadAcross is runJSONRPCLoadOf on several servers (replicas):
// the connections are spread over them in turn, and the server CPU is
// theirs together.
func runJSONRPCLoadAcross(b *testing.B, urls []string, pids []int, benchWorkers int, body, headers string) {
	conns := make([]*loadConn, benchWorkers)
	for i := range conns {
		host := strings.TrimPrefix(urls[i%len(urls)], "http://")
		conn, err := net.Dial("tcp", host)
		if err != nil {
			b.Fatal(err)
		}
		defer conn.Close()
		conns[i] = &loadConn{conn: conn, r: bufio.NewReaderSize(conn, 16<<10), req: []byte("POST / HTTP/1.1\r\nHost: " + host +
			"\r\nContent-Type: application/json\r\n" + headers + "Content-Length: " + strconv.Itoa(len(body)) + "\r\n\r\n" + body)}
	}
	send := func(c *loadConn) (time.Duration, error) {
		start := time.Now()
		err := c.roundTrip(c.req)
		return time.Since(start), err
	}
	serverCPU := func() time.Duration {
		var total time.Duration
		for _, pid := range pids {
			total += cpuTime(b, pid)
		}
		return total
	}
	for i := range 400 { // warm up the connections and the server
		if _, err := send(conns[i%benchWorkers]); err != nil {
			b.Fatal(err)
		}
	}
	latencies := make([][]time.Duration, benchWorkers)
	var failed error
	var mu sync.Mutex
	cpu0 := serverCPU()
	b.ResetTimer()
	start := time.Now()
	var wg sync.WaitGroup
	for w := range benchWorkers {
		n := b.N / benchWorkers
		if w < b.N%benchWorkers {
			n++
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			lat := make([]time.Duration, 0, n)
			for range n {
				took, err := send(conns[w])
				if err != nil {
					mu.Lock()
					failed = err
					mu.Unlock()
					return
				}
				lat = append(lat, took)
			}
			latencies[w] = lat
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	b.StopTimer()
	cpu := serverCPU() - cpu0
	if failed != nil {
		b.Fatal(failed)
	}
	all := slices.Concat(latencies...)
	slices.Sort(all)
	b.ReportMetric(float64(b.N)/elapsed.Seconds(), "req/s")
	b.ReportMetric(float64(all[len(all)/2].Microseconds()), "p50-µs")
	b.ReportMetric(float64(all[len(all)*99/100].Microseconds()), "p99-µs")
	b.ReportMetric(float64(cpu.Microseconds())/float64(b.N), "server-cpu-µs/req")
}

// BenchmarkA2ATaskRuntime measures JSON-RPC SendMessage (a task that
// writes one artifact and completes, blocking until it does) on the task
// runtime with each store, against a2a-go v2.4.0's in-memory server doing
// the same and a hand-written agent that answers with the task (no
// runtime), each in its own process, 16 workers; and on three replicas
// of one PostgreSQL database.
//
//	go test ./interop -run XXX -bench A2ATaskRuntime -benchtime 5000x -count 5 | tee rt.txt
//	benchstat -col /store rt.txt
func BenchmarkA2ATaskRuntime(b *testing.B) {
	bin := buildBenchServer(b)
	stores := []struct{ name, impl, url string }{
		// The runtime's fixed cost: a hand-written agent that answers
		// with the same task, no runtime, no store.
		{"none-echo", "agui-gen", ""},
		{"a2a-go-memory", "a2a-go", ""},
		{"memory", "runtime", "memory"},
		{"sqlite", "runtime", "sqlite:" + filepath.Join(b.TempDir(), "bench.db")},
	}
	if dsn := benchPostgres(b); dsn != "" {
		stores = append(stores, struct{ name, impl, url string }{"postgres", "runtime", dsn})
	}
	for _, st := range stores {
		b.Run("store="+st.name, func(b *testing.B) {
			var args []string
			if st.url != "" {
				args = []string{"-store", st.url}
			}
			url, pid, stop := startBenchServer(b, bin, st.impl, "task", args...)
			defer stop()
			runJSONRPCLoad(b, url, pid, 16)
		})
	}
	if dsn := benchPostgres(b); dsn != "" {
		// Three replicas on one database, the load spread over them: the
		// server CPU per request is the three's, against one's above.
		b.Run("store=postgres-3-replicas", func(b *testing.B) {
			var urls []string
			var pids []int
			for range 3 {
				url, pid, stop := startBenchServer(b, bin, "runtime", "task", "-store", dsn)
				defer stop()
				urls, pids = append(urls, url), append(pids, pid)
			}
			runJSONRPCLoadAcross(b, urls, pids, 16, sendMessageV1, "A2A-Version: 1.0\r\n")
		})
	}
}

// benchPostgres is a fresh database for a benchmark, or "" when there is
// no Postgres to benchmark.
func benchPostgres(b *testing.B) string {
	conn, err := pgx.Connect(context.Background(), storetest.PostgresDSN())
	if err != nil {
		b.Logf("no Postgres, so no Postgres store in this run: %v", err)
		return ""
	}
	conn.Close(context.Background())
	return storetest.PostgresDatabase(b)
}
