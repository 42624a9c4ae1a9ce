package interop_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"sync/atomic"
	"testing"

	"github.com/agui-gen/agui-gen/gen/agui"
	"github.com/agui-gen/agui-gen/internal/teetest"
)

// benchFragments is the number of TEXT_MESSAGE_CONTENT events in one
// benchmarked run, large enough to amortise the per-request cost;
// AGUI_BENCH_FRAGMENTS overrides it (to see how the rate depends on the
// length of the message).
var benchFragments = envInt("AGUI_BENCH_FRAGMENTS", 10000)

// benchEvents is the number of events of one benchmarked run: the script's
// ten fixed events and its text fragments.
var benchEvents = benchFragments + 10

func envInt(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil && v >= 0 {
		return v
	}
	return def
}

// encoderScriptAgent emits, with ready-made events, exactly what
// serve-encoder.mjs writes for n fragments (same ids, same values); the
// handler adds RUN_STARTED and RUN_FINISHED. TestBenchScriptMatchesEncoder
// checks the two agree.
func encoderScriptAgent(n int) agui.AgentFunc {
	return func(ctx context.Context, in *agui.RunAgentInput, s *agui.Stream) error {
		if err := s.StateSnapshot(json.RawMessage(`{"status":"working","count":0}`)); err != nil {
			return err
		}
		role := agui.TextMessageRoleAssistant
		if err := s.Emit(&agui.TextMessageStartEvent{MessageID: "m1", Role: &role}); err != nil {
			return err
		}
		for i := range n {
			if err := s.Emit(&agui.TextMessageContentEvent{MessageID: "m1", Delta: "chunk " + strconv.Itoa(i) + " "}); err != nil {
				return err
			}
		}
		if err := s.Emit(&agui.TextMessageEndEvent{MessageID: "m1"}); err != nil {
			return err
		}
		parent, toolRole := "m1", "tool"
		for _, ev := range []agui.Event{
			&agui.ToolCallStartEvent{ToolCallID: "c1", ToolCallName: "lookup", ParentMessageID: &parent},
			&agui.ToolCallArgsEvent{ToolCallID: "c1", Delta: `{"q":"paris"}`},
			&agui.ToolCallEndEvent{ToolCallID: "c1"},
			&agui.ToolCallResultEvent{MessageID: "t1", ToolCallID: "c1", Content: agui.TextContent("sunny"), Role: &toolRole},
		} {
			if err := s.Emit(ev); err != nil {
				return err
			}
		}
		return s.StateDelta(
			&agui.ReplaceOperation{Path: "/status", Value: json.RawMessage(`"done"`)},
			&agui.ReplaceOperation{Path: "/count", Value: json.RawMessage(strconv.Itoa(n))})
	}
}

// streamAPIAgent emits the same sequence of event types through the
// Stream's high-level calls (Text, ToolCall, ToolResult…), which choose
// their own ids and check what is open before each event.
func streamAPIAgent(n int) agui.AgentFunc {
	return func(ctx context.Context, in *agui.RunAgentInput, s *agui.Stream) error {
		if err := s.StateSnapshot(json.RawMessage(`{"status":"working","count":0}`)); err != nil {
			return err
		}
		for i := range n {
			if err := s.Text("chunk " + strconv.Itoa(i) + " "); err != nil {
				return err
			}
		}
		id, err := s.ToolCall("lookup", `{"q":"paris"}`)
		if err != nil {
			return err
		}
		if err := s.ToolResult(id, "sunny"); err != nil {
			return err
		}
		return s.StateDelta(
			&agui.ReplaceOperation{Path: "/status", Value: json.RawMessage(`"done"`)},
			&agui.ReplaceOperation{Path: "/count", Value: json.RawMessage(strconv.Itoa(n))})
	}
}

func benchInput() *agui.RunAgentInput {
	return &agui.RunAgentInput{ThreadID: "t", RunID: "r", Messages: []agui.Message{}}
}

// BenchmarkStream measures events per second of one run of benchEvents
// events over loopback HTTP/1.1:
//
//   - impl=agui: agui.NewHandler serving encoderScriptAgent, read by
//     agui.Client (decode, verify, assemble messages and state);
//   - impl=agui-api: the same run built with the Stream's high-level calls;
//   - impl=node-encoder: the same client reading serve-encoder.mjs (Node,
//     @ag-ui/encoder) writing the same run;
//   - impl=agui-raw, impl=node-raw: the same two servers, the body copied
//     to a counter of bytes and "\n\n" (no decoding), to tell whether the
//     client or the server limits the rate.
//
// The Node server is started once per BenchmarkStream; its cases skip when
// Node or the npm packages are missing.
func BenchmarkStream(b *testing.B) {
	aguiURL := func(b *testing.B, agent agui.Agent) string {
		srv := httptest.NewServer(agui.NewHandler(agent))
		b.Cleanup(srv.Close)
		return srv.URL
	}
	// The Node server lives as long as BenchmarkStream, so its warm-up
	// (each case's N=1 run) carries over to the measured runs.
	nodeMissing := nodePeersMissing()
	var nodeURL string
	if nodeMissing == "" {
		nodeURL = startEncoderServer(b, benchFragments)
	}
	node := func(b *testing.B) string {
		if nodeMissing != "" {
			b.Skip(nodeMissing)
		}
		return nodeURL
	}
	b.Run("impl=agui", func(b *testing.B) { benchClient(b, aguiURL(b, encoderScriptAgent(benchFragments))) })
	b.Run("impl=agui-api", func(b *testing.B) { benchClient(b, aguiURL(b, streamAPIAgent(benchFragments))) })
	b.Run("impl=node-encoder", func(b *testing.B) { benchClient(b, node(b)) })
	b.Run("impl=agui-raw", func(b *testing.B) { benchRaw(b, aguiURL(b, encoderScriptAgent(benchFragments))) })
	b.Run("impl=node-raw", func(b *testing.B) { benchRaw(b, node(b)) })
}

// benchClient reads whole runs with agui.Client.
func benchClient(b *testing.B, url string) {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	defer tr.CloseIdleConnections()
	var nbytes atomic.Int64
	c := agui.Client{URL: url, HTTPClient: &http.Client{Transport: countingTransport{tr, &nbytes}}}
	ctx := context.Background()
	in := benchInput()
	events := 0
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		rs, err := c.Run(ctx, in)
		if err != nil {
			b.Fatal(err)
		}
		n := 0
		for {
			_, err := rs.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				b.Fatalf("after %d events: %v", n, err)
			}
			n++
		}
		if n != benchEvents || len(rs.Warnings()) > 0 || len(rs.Messages()) != 2 {
			b.Fatalf("%d events (want %d), %d messages (want 2), warnings %q", n, benchEvents, len(rs.Messages()), rs.Warnings())
		}
		events += n
	}
	b.StopTimer()
	reportRate(b, events, nbytes.Load())
}

// benchRaw POSTs the run's input like the client and copies the body to a
// counter, with no SSE parsing or decoding.
func benchRaw(b *testing.B, url string) {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	defer tr.CloseIdleConnections()
	hc := &http.Client{Transport: tr}
	body := benchInput().AppendJSON(nil)
	var total sseCounter
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
		if err != nil {
			b.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", agui.MediaTypeSSE)
		resp, err := hc.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		var c sseCounter
		_, err = io.Copy(&c, resp.Body)
		resp.Body.Close()
		if err != nil {
			b.Fatal(err)
		}
		if resp.StatusCode != http.StatusOK || c.events != benchEvents {
			b.Fatalf("HTTP %d, %d events (want %d)", resp.StatusCode, c.events, benchEvents)
		}
		total.events += c.events
		total.bytes += c.bytes
	}
	b.StopTimer()
	reportRate(b, total.events, total.bytes)
}

func reportRate(b *testing.B, events int, nbytes int64) {
	if events == 0 {
		return
	}
	b.SetBytes(nbytes / int64(b.N))
	b.ReportMetric(float64(events)/b.Elapsed().Seconds(), "events/s")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(events), "ns/event")
}

// sseCounter counts the bytes of an SSE body and its events, by their
// terminating blank lines (the producers here write LF only and never a
// blank line inside an event).
type sseCounter struct {
	bytes  int64
	events int
	lastLF bool
}

func (c *sseCounter) Write(p []byte) (int, error) {
	n := len(p)
	if n == 0 {
		return 0, nil
	}
	c.bytes += int64(n)
	if c.lastLF && p[0] == '\n' {
		c.events++
		p = p[1:]
	}
	c.events += bytes.Count(p, []byte("\n\n"))
	c.lastLF = len(p) > 0 && p[len(p)-1] == '\n'
	return n, nil
}

// countingTransport counts the response body bytes the client reads.
type countingTransport struct {
	rt http.RoundTripper
	n  *atomic.Int64
}

func (t countingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.rt.RoundTrip(req)
	if err == nil {
		resp.Body = &countingBody{resp.Body, t.n}
	}
	return resp, err
}

type countingBody struct {
	io.ReadCloser
	n *atomic.Int64
}

func (b *countingBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.n.Add(int64(n))
	return n, err
}

// TestBenchScriptMatchesEncoder: the agent BenchmarkStream serves writes
// the events serve-encoder.mjs writes, value for value (RUN_STARTED's
// protocolVersion aside, which the handler sets), so impl=agui and
// impl=node-encoder compare servers doing the same work; and sseCounter
// counts the events of both bodies right.
func TestBenchScriptMatchesEncoder(t *testing.T) {
	requireNode(t)
	const n = 25
	srv := httptest.NewServer(agui.NewHandler(encoderScriptAgent(n)))
	defer srv.Close()
	ours := postRun(t, srv.URL)
	theirs := postRun(t, startEncoderServer(t, n))
	a, b := teetest.SSEData(t, ours), teetest.SSEData(t, theirs)
	if len(a) != n+10 || len(b) != n+10 {
		t.Fatalf("%d events from agui, %d from serve-encoder.mjs, want %d", len(a), len(b), n+10)
	}
	for i := range a {
		if i == 0 {
			a[0], b[0] = withoutMember(t, a[0], "protocolVersion"), withoutMember(t, b[0], "protocolVersion")
		}
		sameJSON(t, b[i], a[i])
	}
	for _, body := range [][]byte{ours, theirs} {
		var c sseCounter
		for chunk := range bytes.SplitSeq(body, []byte("\n")) { // split writes at every LF: the worst case
			if n, err := c.Write(append(bytes.Clone(chunk), '\n')); n != len(chunk)+1 || err != nil {
				t.Fatalf("sseCounter.Write: %d of %d bytes, %v", n, len(chunk)+1, err)
			}
		}
		if c.events != n+10 {
			t.Errorf("sseCounter counted %d events, want %d", c.events, n+10)
		}
	}
	t.Logf("bytes per run: agui %d, serve-encoder.mjs %d", len(ours), len(theirs))
}

func postRun(t *testing.T, url string) []byte {
	t.Helper()
	resp, err := http.Post(url, "application/json", bytes.NewReader(benchInput().AppendJSON(nil)))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("HTTP %d, %v: %s", resp.StatusCode, err, body)
	}
	return body
}

func withoutMember(t *testing.T, obj []byte, name string) []byte {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(obj, &m); err != nil {
		t.Fatal(err)
	}
	if _, ok := m[name]; !ok {
		t.Errorf("%s has no %q", obj, name)
	}
	delete(m, name)
	out, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return out
}
