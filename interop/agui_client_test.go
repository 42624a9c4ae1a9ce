package interop_test

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agui-gen/agui-gen/gen/agui"
)

// encoderServerStartup bounds the wait for serve-encoder.mjs's "listening"
// line.
const encoderServerStartup = 30 * time.Second

// nodePeersMissing says why the Node peers cannot run, or "" when they can.
func nodePeersMissing() string {
	if _, err := exec.LookPath("node"); err != nil {
		return "Node peers missing: install Node.js and run `npm ci` in interop/node"
	}
	if _, err := os.Stat(filepath.Join(nodeDir, "node_modules", "@ag-ui", "encoder")); err != nil {
		return "Node peers missing: run `npm ci` in interop/node"
	}
	return ""
}

// startEncoderServer runs serve-encoder.mjs (a minimal AG-UI server on the
// official @ag-ui/encoder) with the given number of text fragments, waits
// for it to listen, and returns its URL. The process is killed when the
// test or benchmark ends.
func startEncoderServer(tb testing.TB, fragments int) string {
	tb.Helper()
	cmd := exec.Command("node", "serve-encoder.mjs", "--events", strconv.Itoa(fragments))
	cmd.Dir = nodeDir
	var stderr syncBuffer
	cmd.Stderr = &stderr
	pr, pw := io.Pipe()
	cmd.Stdout = pw
	cmd.WaitDelay = 5 * time.Second
	if err := cmd.Start(); err != nil {
		tb.Fatalf("starting serve-encoder.mjs: %v", err)
	}
	exited := make(chan error, 1)
	go func() {
		err := cmd.Wait()
		pw.CloseWithError(fmt.Errorf("serve-encoder.mjs exited: %v", err))
		exited <- err
	}()
	tb.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-exited
	})

	port := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			if p, ok := strings.CutPrefix(sc.Text(), "listening "); ok {
				port <- strings.TrimSpace(p)
				break
			}
		}
		// Keep draining so the child never blocks on a full pipe.
		_, _ = io.Copy(io.Discard, pr)
	}()

	timer := time.NewTimer(encoderServerStartup)
	defer timer.Stop()
	select {
	case p := <-port:
		return "http://127.0.0.1:" + p + "/"
	case err := <-exited:
		exited <- err // for the cleanup
		tb.Fatalf("serve-encoder.mjs exited before listening: %v\n%s", err, stderr.String())
	case <-timer.C:
		tb.Fatalf("serve-encoder.mjs did not print \"listening <port>\" within %v\n%s", encoderServerStartup, stderr.String())
	}
	return ""
}

// syncBuffer is a bytes.Buffer safe for the exec copier and a reader.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// encoderScriptTypes is the event types of serve-encoder.mjs's run with n
// text fragments, in order.
func encoderScriptTypes(n int) []agui.EventType {
	types := []agui.EventType{agui.EventTypeRunStarted, agui.EventTypeStateSnapshot, agui.EventTypeTextMessageStart}
	for range n {
		types = append(types, agui.EventTypeTextMessageContent)
	}
	return append(types, agui.EventTypeTextMessageEnd, agui.EventTypeToolCallStart, agui.EventTypeToolCallArgs,
		agui.EventTypeToolCallEnd, agui.EventTypeToolCallResult, agui.EventTypeStateDelta, agui.EventTypeRunFinished)
}

// TestClientAgainstEncoderServer: agui.Client runs against a server whose
// every byte is written by the official @ag-ui/encoder, over SSE, and
// assembles the run's messages and state without warnings.
func TestClientAgainstEncoderServer(t *testing.T) {
	requireNode(t)
	const fragments = 7
	url := startEncoderServer(t, fragments)
	t.Run("sse", func(t *testing.T) { checkClientAgainstEncoder(t, url, fragments, false) })
	t.Run("protobuf", func(t *testing.T) { checkClientAgainstEncoder(t, url, fragments, true) })
}

// checkClientAgainstEncoder runs agui.Client against the Node server, asking
// for the protobuf transport or not.
func checkClientAgainstEncoder(t *testing.T, url string, fragments int, protobuf bool) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var warned []string
	c := agui.Client{URL: url, Protobuf: protobuf, OnWarning: func(msg string) { warned = append(warned, msg) }}
	rs, err := c.Run(ctx, &agui.RunAgentInput{ThreadID: "thread-1", RunID: "run-1", Messages: []agui.Message{}})
	if err != nil {
		t.Fatal(err)
	}
	defer rs.Close()
	want := agui.MediaTypeSSE
	if protobuf {
		want = agui.MediaTypeProto
	}
	if ct := rs.Header().Get("Content-Type"); ct != want {
		t.Errorf("Content-Type %q, want %q", ct, want)
	}

	var types []agui.EventType
	for ev, err := range rs.Events() {
		if err != nil {
			t.Fatalf("after %d events (%v): %v", len(types), types, err)
		}
		types = append(types, ev.Type())
		switch ev := ev.(type) {
		case *agui.RunStartedEvent:
			if ev.ThreadID != "thread-1" || ev.RunID != "run-1" {
				t.Errorf("RUN_STARTED for thread %q run %q", ev.ThreadID, ev.RunID)
			}
		case *agui.RunFinishedEvent:
			if ev.ThreadID != "thread-1" || ev.RunID != "run-1" {
				t.Errorf("RUN_FINISHED for thread %q run %q", ev.ThreadID, ev.RunID)
			}
		}
	}
	if err := rs.Wait(); err != nil {
		t.Errorf("Wait after the end: %v", err)
	}
	if w := rs.Warnings(); len(w) > 0 || len(warned) > 0 {
		t.Errorf("warnings: %q (OnWarning: %q)", w, warned)
	}
	if re := rs.RunError(); re != nil {
		t.Errorf("RUN_ERROR: %s", re.Message)
	}
	if want := encoderScriptTypes(fragments); !slices.Equal(types, want) {
		t.Errorf("event types\n got %v\nwant %v", types, want)
	}

	var wantText strings.Builder
	for i := range fragments {
		fmt.Fprintf(&wantText, "chunk %d ", i)
	}
	msgs := rs.Messages()
	if len(msgs) != 2 {
		t.Fatalf("%d messages, want an assistant message and a tool message: %s", len(msgs), messagesJSON(msgs))
	}
	asst, ok := msgs[0].(*agui.AssistantMessage)
	if !ok {
		t.Fatalf("message 0 is %T, want *agui.AssistantMessage", msgs[0])
	}
	if asst.ID != "m1" {
		t.Errorf("assistant message id %q, want m1", asst.ID)
	}
	if asst.Content == nil || *asst.Content != wantText.String() {
		t.Errorf("assistant text %v, want %q", strPtr(asst.Content), wantText.String())
	}
	if len(asst.ToolCalls) != 1 {
		t.Fatalf("assistant message has %d tool calls, want 1: %s", len(asst.ToolCalls), messagesJSON(msgs))
	}
	call := asst.ToolCalls[0]
	if call.ID != "c1" || call.Function.Name != "lookup" || call.Function.Arguments != `{"q":"paris"}` {
		t.Errorf("tool call %q %s(%s), want c1 lookup({\"q\":\"paris\"})", call.ID, call.Function.Name, call.Function.Arguments)
	}
	tool, ok := msgs[1].(*agui.ToolMessage)
	if !ok {
		t.Fatalf("message 1 is %T, want *agui.ToolMessage", msgs[1])
	}
	if tool.ID != "t1" || tool.ToolCallID != "c1" || tool.Content.IsList() || tool.Content.Text != "sunny" {
		t.Errorf("tool message %s, want id t1 answering c1 with \"sunny\"", tool.AppendJSON(nil))
	}
	for i, m := range msgs {
		if err := m.Validate(); err != nil {
			t.Errorf("message %d: %v", i, err)
		}
	}
	sameJSON(t, []byte(fmt.Sprintf(`{"status":"done","count":%d}`, fragments)), rs.State())
}

func messagesJSON(msgs []agui.Message) []byte {
	b := []byte{'['}
	for i, m := range msgs {
		if i > 0 {
			b = append(b, ',')
		}
		b = m.AppendJSON(b)
	}
	return append(b, ']')
}

func strPtr(p *string) string {
	if p == nil {
		return "<nil>"
	}
	return strconv.Quote(*p)
}
