package interop_test

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// BenchmarkA2AJSONRPCSendMessage measures JSON-RPC SendMessage against the
// server gen/a2a generates and against a2a-go v2.3.1's, each in its own
// process (interop/a2abenchserver), driven by 16 workers on keep-alive
// connections. Each request is one b.N iteration; besides ns/op it reports
// req/s, the p50 and p99 latency, and the server's CPU time per request
// (from /proc). Two agents: one that answers with a message, one that
// creates a task and completes it with an artifact.
//
//	go test ./interop -run XXX -bench A2AJSONRPC -benchtime 20000x -count 5 | tee a2a.txt
//	benchstat -col /impl a2a.txt
func BenchmarkA2AJSONRPCSendMessage(b *testing.B) {
	bin := buildBenchServer(b)
	for _, reply := range []string{"message", "task"} {
		for _, impl := range []string{"agui-gen", "a2a-go"} {
			b.Run("reply="+reply+"/impl="+impl, func(b *testing.B) {
				url, pid, stop := startBenchServer(b, bin, impl, reply)
				defer stop()
				runJSONRPCLoad(b, url, pid)
			})
		}
	}
}

const benchWorkers = 16

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

func startBenchServer(b *testing.B, bin, impl, reply string) (url string, pid int, stop func()) {
	cmd := exec.Command(bin, "-impl", impl, "-reply", reply)
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

func runJSONRPCLoad(b *testing.B, url string, pid int) {
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: benchWorkers, MaxConnsPerHost: benchWorkers}}
	body := []byte(`{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"messageId":"m-1","role":"ROLE_USER",` +
		`"parts":[{"text":"What is the weather in Paris today, and should I take an umbrella?"}],"metadata":{"source":"bench"}}}}`)
	send := func() (time.Duration, error) {
		req, _ := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("A2A-Version", "1.0")
		start := time.Now()
		res, err := client.Do(req)
		if err != nil {
			return 0, err
		}
		data, err := io.ReadAll(res.Body)
		res.Body.Close()
		took := time.Since(start)
		if err == nil && (res.StatusCode != 200 || !bytes.Contains(data, []byte(`"result"`))) {
			err = fmt.Errorf("%d %s", res.StatusCode, data)
		}
		return took, err
	}
	for range 200 { // warm up connections and the server
		if _, err := send(); err != nil {
			b.Fatal(err)
		}
	}
	latencies := make([][]time.Duration, benchWorkers)
	var failed error
	var mu sync.Mutex
	cpu0 := cpuTime(b, pid)
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
				took, err := send()
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
	cpu := cpuTime(b, pid) - cpu0
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
