package examples_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	"github.com/agui-gen/agui-gen/gen/a2a"
	_ "github.com/agui-gen/agui-gen/gen/a2a/a2agrpc" // the codec of the generated messages
	"github.com/agui-gen/agui-gen/internal/longtest"
)

// abuseBound is what an attack may add to the server's resident memory:
// the bound issue 17 sets, generous on purpose, since it is a memory bound
// and not a measure of speed.
const abuseBound = 64 << 20

// TestAbuseMemory runs the scaffolded server (examples/server) with a
// token and a gRPC port, attacks it as a client without the token would,
// and reads its resident memory from /proc/PID/status: VmRSS before each
// attack, and VmHWM, the peak, reset before each attack through
// /proc/PID/clear_refs. Each attack may add less than abuseBound:
//
//   - 300 connections that each send about 1 MiB of request headers and
//     never end them;
//   - 50 concurrent gRPC calls without the token, each with a 4 MiB
//     message.
//
// The figures are logged (go test -v -run TestAbuseMemory ./examples/).
func TestAbuseMemory(t *testing.T) {
	longtest.Skip(t, "the abuse test builds the example server and attacks it with 300 MiB of headers and 200 MiB of gRPC messages")
	if _, err := os.Stat("/proc/self/status"); err != nil {
		t.Skip("skipping the abuse test: it reads memory from /proc, which this system does not have")
	}
	bin := buildExampleServer(t)
	// A server of its own for each attack, so that neither inherits the
	// other's heap.
	t.Run("held headers", func(t *testing.T) {
		server, httpAddr, _ := startAbuseServer(t, bin)
		measureAttack(t, server.Process.Pid, func() { holdHeaders(t, httpAddr, 300, 1<<20) })
	})
	t.Run("unauthenticated gRPC", func(t *testing.T) {
		server, _, grpcAddr := startAbuseServer(t, bin)
		measureAttack(t, server.Process.Pid, func() { unauthenticatedGRPC(t, grpcAddr, 50, 4<<20) })
	})
}

// measureAttack runs attack against the process pid and fails when its
// peak resident memory during the attack exceeds what it held before by
// abuseBound or more.
func measureAttack(t *testing.T, pid int, attack func()) {
	t.Helper()
	if err := os.WriteFile(fmt.Sprintf("/proc/%d/clear_refs", pid), []byte("5"), 0); err != nil {
		t.Skipf("cannot reset the server's peak memory (/proc/%d/clear_refs): %v", pid, err)
	}
	before := procMemory(t, pid)
	attack()
	after := procMemory(t, pid)
	added := after.hwm - before.rss
	t.Logf("VmRSS before %.1f MiB, VmHWM during %.1f MiB (+%.1f MiB), VmRSS after %.1f MiB",
		mib(before.rss), mib(after.hwm), mib(added), mib(after.rss))
	if added >= abuseBound {
		t.Errorf("the attack added %.1f MiB of resident memory; the bound is %.0f MiB", mib(added), mib(abuseBound))
	}
}

// holdHeaders opens n connections to addr, and on each sends a request
// line and about size bytes of header lines, without the blank line that
// ends them, then waits for the server to close it: a bounded server
// refuses such a request early, an unbounded one reads it all and gives up
// when its header timeout runs out. The connections are all open at once,
// so that the server holds whatever it keeps of them together.
func holdHeaders(t *testing.T, addr string, n, size int) {
	t.Helper()
	line := "X-Padding: " + strings.Repeat("a", 1000) + "\r\n"
	payload := []byte("GET / HTTP/1.1\r\nHost: " + addr + "\r\n" + strings.Repeat(line, size/len(line)))
	conns := make([]net.Conn, 0, n)
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	var wg sync.WaitGroup
	var mu sync.Mutex
	sent := 0
	for range n {
		c, err := net.DialTimeout("tcp", addr, 10*time.Second)
		if err != nil {
			t.Fatalf("connection %d: %v", len(conns), err)
		}
		conns = append(conns, c)
		wg.Go(func() {
			// A bounded server stops reading and closes: the write then
			// fails, which is the point. The deadline only keeps a server
			// that neither reads nor closes from stalling the test.
			c.SetDeadline(time.Now().Add(time.Minute))
			k, _ := c.Write(payload)
			mu.Lock()
			sent += k
			mu.Unlock()
			_, _ = io.Copy(io.Discard, c) // until the server closes
		})
	}
	wg.Wait()
	t.Logf("%d connections sent %.1f MiB of unterminated headers before the server closed them", n, mib(sent))
}

// unauthenticatedGRPC makes n concurrent SendMessage calls to addr, each
// on its own connection, without a token, each with a message of about
// size bytes (just under gRPC's default receive limit). Every one must be
// refused.
func unauthenticatedGRPC(t *testing.T, addr string, n, size int) {
	t.Helper()
	text := strings.Repeat("a", size-1024)
	req := &a2a.SendMessageRequest{Message: &a2a.Message{MessageID: "m", Role: a2a.RoleUser,
		Parts: []*a2a.Part{{Content: &a2a.PartText{Text: text}}}}}
	method := a2a.A2AService.Methods[0].FullMethod
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	// The version the server speaks, so that only the missing token is wrong.
	ctx = metadata.AppendToOutgoingContext(ctx, "a2a-version", a2a.ProtocolVersion)
	var wg sync.WaitGroup
	codesSeen := make([]codes.Code, n)
	for i := range n {
		conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		wg.Go(func() {
			err := conn.Invoke(ctx, method, req, new(a2a.SendMessageResponse))
			codesSeen[i] = status.Code(err)
		})
	}
	wg.Wait()
	count := map[codes.Code]int{}
	for _, c := range codesSeen {
		count[c]++
	}
	t.Logf("%d calls of %.1f MiB without a token: %v", n, mib(size), count)
	if count[codes.Unauthenticated] != n {
		t.Errorf("want every call refused as UNAUTHENTICATED")
	}
}

// memory is what /proc/PID/status says of a process's resident memory, in
// bytes.
type memory struct{ rss, hwm int }

func procMemory(t *testing.T, pid int) memory {
	t.Helper()
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatal(err)
	}
	var m memory
	for l := range strings.Lines(string(data)) {
		name, value, ok := strings.Cut(l, ":")
		if !ok {
			continue
		}
		kb, err := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(value), " kB"))
		switch {
		case err != nil:
		case name == "VmRSS":
			m.rss = kb << 10
		case name == "VmHWM":
			m.hwm = kb << 10
		}
	}
	if m.rss == 0 || m.hwm == 0 {
		t.Fatalf("no VmRSS or VmHWM in /proc/%d/status", pid)
	}
	return m
}

func mib(n int) float64 { return float64(n) / (1 << 20) }

var (
	abuseHTTPLine = regexp.MustCompile(`page=http://(\S+)/`)
	abuseGRPCLine = regexp.MustCompile(`msg="serving A2A over gRPC" addr=(\S+)`)
)

// buildExampleServer builds examples/server once for all the tests that
// run it (each runs processes of its own from the one binary).
func buildExampleServer(t *testing.T) string {
	t.Helper()
	bin, err := buildServerOnce()
	if err != nil {
		t.Fatal(err)
	}
	return bin
}

var buildServerOnce = sync.OnceValues(func() (string, error) {
	bin := filepath.Join(binDir, "server")
	if out, err := exec.Command("go", "build", "-o", bin, "./server").CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build ./server: %v\n%s", err, out)
	}
	return bin, nil
})

// startAbuseServer runs the server bin with a token, a SQLite file of its
// own and a gRPC port; it returns the process and the HTTP and gRPC
// addresses it serves at.
func startAbuseServer(t *testing.T, bin string) (*exec.Cmd, string, string) {
	t.Helper()
	server := exec.Command(bin, "--addr", "127.0.0.1:0", "--grpc-addr", "127.0.0.1:0", "--token", "secret",
		"--db", filepath.Join(t.TempDir(), "server.db"))
	stderr, err := server.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := server.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { server.Process.Kill(); server.Wait() })
	httpAddr, grpcAddr := make(chan string, 1), make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if m := abuseHTTPLine.FindStringSubmatch(sc.Text()); m != nil {
				httpAddr <- m[1]
			}
			if m := abuseGRPCLine.FindStringSubmatch(sc.Text()); m != nil {
				grpcAddr <- m[1]
			}
		}
	}()
	var addrs [2]string
	for i, ch := range []chan string{httpAddr, grpcAddr} {
		select {
		case addrs[i] = <-ch:
		case <-time.After(30 * time.Second):
			t.Fatal("the server did not say where it serves")
		}
	}
	return server, addrs[0], addrs[1]
}
