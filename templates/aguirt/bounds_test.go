package aguirt

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	agui "github.com/agui-gen/agui-gen/gen/agui"
	"github.com/agui-gen/agui-gen/runtime/inflight"
)

// stalledClient posts a run to addr on a connection of its own and never
// reads the answer, as a client that has stopped reading does. Its
// receive buffer is small, so the server's writes back up soon.
func stalledClient(t *testing.T, addr, accept string) net.Conn {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	_ = c.(*net.TCPConn).SetReadBuffer(4 << 10)
	fmt.Fprintf(c, "POST /agent HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nAccept: %s\r\nContent-Length: %d\r\n\r\n%s",
		addr, accept, len(runInput), runInput)
	return c
}

// floodingAgent streams text until its stream refuses it, then reports
// the error its Stream call returned and waits for its context, whose
// cause it reports too (or gives up when the test ends).
func floodingAgent(callErr, ctxCause chan<- error, testDone <-chan struct{}) Agent {
	chunk := strings.Repeat("x", 16<<10)
	return AgentFunc(func(ctx context.Context, _ *agui.RunAgentInput, s *Stream) error {
		var err error
		for err == nil {
			err = s.Text(chunk)
		}
		callErr <- err
		select {
		case <-ctx.Done():
			ctxCause <- context.Cause(ctx)
		case <-testDone:
		}
		return err
	})
}

// waitFor polls cond until it holds, failing the test if it does not
// within a generous bound.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); !cond(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("still waiting for %s", what)
		}
	}
}

func receive(t *testing.T, what string, ch <-chan error) error {
	t.Helper()
	select {
	case err := <-ch:
		return err
	case <-time.After(20 * time.Second):
		t.Fatalf("still waiting for %s", what)
		return nil
	}
}

// TestStalledReaderIsCutOff: a client that stops reading holds its run
// only until a write has waited for it for the write timeout. Then the
// agent's blocked Stream call returns, its context is cancelled, and every
// goroutine of the run ends, the handler's included, although the client
// keeps its connection open.
func TestStalledReaderIsCutOff(t *testing.T) {
	for name, accept := range map[string]string{"sse": agui.MediaTypeSSE, "protobuf": agui.MediaTypeProto} {
		t.Run(name, func(t *testing.T) {
			testDone := make(chan struct{})
			defer close(testDone)
			callErr, ctxCause := make(chan error, 1), make(chan error, 1)
			srv := httptest.NewServer(NewHandler(floodingAgent(callErr, ctxCause, testDone),
				WithWriteTimeout(200*time.Millisecond), WithLogger(quietLogger())))
			defer srv.Close()
			baseline := runtime.NumGoroutine()

			c := stalledClient(t, srv.Listener.Addr().String(), accept)
			defer c.Close()
			if err := receive(t, "the agent's Stream call to fail", callErr); err == nil {
				t.Fatal("no error")
			}
			receive(t, "the agent's context to be cancelled", ctxCause)
			waitFor(t, fmt.Sprintf("the goroutines to return to %d", baseline), func() bool { return runtime.NumGoroutine() <= baseline })
		})
	}
}

// TestCancelWakesAnAgentWaitingOnAStalledReader: a cancel stops a run
// whose agent waits for a client that has stopped reading, at once, long
// before any write timeout: its Stream call returns the cancel.
func TestCancelWakesAnAgentWaitingOnAStalledReader(t *testing.T) {
	testDone := make(chan struct{})
	defer close(testDone)
	callErr, ctxCause := make(chan error, 1), make(chan error, 1)
	srv := httptest.NewServer(NewHandler(floodingAgent(callErr, ctxCause, testDone),
		WithWriteTimeout(time.Hour), WithLogger(quietLogger())))
	defer srv.Close()
	baseline := runtime.NumGoroutine()
	c := stalledClient(t, srv.Listener.Addr().String(), agui.MediaTypeSSE)
	defer c.Close()
	// The agent is in a Stream call that waits for the send queue to drain.
	waitFor(t, "the agent to wait on the full send queue", func() bool {
		buf := make([]byte, 1<<20)
		for _, g := range strings.Split(string(buf[:runtime.Stack(buf, true)]), "\n\n") {
			if strings.Contains(g, "(*Queue).Append") && strings.Contains(g, "(*Cond).Wait") {
				return true
			}
		}
		return false
	})
	client := &Client{URL: srv.URL + "/agent", HTTPClient: &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}}
	if err := client.Cancel(context.Background(), "t1", "r1"); err != nil {
		t.Fatal(err)
	}
	if err := receive(t, "the agent's Stream call to return", callErr); !errors.Is(err, inflight.ErrCancelled) {
		t.Fatalf("the agent's call returned %v, want the cancel", err)
	}
	if cause := receive(t, "the agent's context to be cancelled", ctxCause); !errors.Is(cause, inflight.ErrCancelled) {
		t.Fatalf("the agent's context ended for %v", cause)
	}
	// The run's end waits for the client (or the write timeout); once the
	// client goes, nothing of the run is left.
	c.Close()
	waitFor(t, fmt.Sprintf("the goroutines to return to %d", baseline), func() bool { return runtime.NumGoroutine() <= baseline })
}

// TestMaxStreams: a run over the cap is answered 503 with Retry-After and
// a JSON body, after its caller is authenticated and before its body is
// read; one that does not authenticate learns nothing of the cap.
func TestMaxStreams(t *testing.T) {
	release := make(chan struct{})
	started := make(chan struct{}, 1)
	h := NewHandler(AgentFunc(func(ctx context.Context, _ *agui.RunAgentInput, s *Stream) error {
		started <- struct{}{}
		select {
		case <-release:
		case <-ctx.Done():
		}
		return nil
	}), WithMaxStreams(1), WithBearerToken("k"), WithLogger(quietLogger()))
	srv := httptest.NewServer(h)
	defer srv.Close()

	first, err := (&Client{URL: srv.URL, Header: http.Header{"Authorization": {"Bearer k"}}}).Run(context.Background(),
		&agui.RunAgentInput{ThreadID: "t1", RunID: "r1", Messages: []agui.Message{}})
	if err != nil {
		t.Fatal(err)
	}
	<-started

	var read atomic.Bool
	over := func(token string) *httptest.ResponseRecorder {
		req := httptest.NewRequest(http.MethodPost, "/agent", readSpy{strings.NewReader(runInput), &read})
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+token)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec
	}
	rec := over("k")
	var body requestError
	if rec.Code != http.StatusServiceUnavailable || rec.Header().Get("Retry-After") == "" ||
		json.Unmarshal(rec.Body.Bytes(), &body) != nil || body.Error.Message == "" {
		t.Errorf("a run over the cap: %d, Retry-After %q, %s", rec.Code, rec.Header().Get("Retry-After"), rec.Body)
	}
	if rec := over("wrong"); rec.Code != http.StatusUnauthorized {
		t.Errorf("an unauthenticated run over the cap: %d %s", rec.Code, rec.Body)
	}
	if read.Load() {
		t.Error("the body of a refused run was read")
	}

	close(release)
	streamed(t, first)
	waitFor(t, "the first run's slot to be free", func() bool { return over("k").Code == http.StatusOK })
}

// readSpy records whether its reader was read.
type readSpy struct {
	r    *strings.Reader
	read *atomic.Bool
}

func (s readSpy) Read(p []byte) (int, error) {
	s.read.Store(true)
	return s.r.Read(p)
}

// TestUnauthenticatedBodiesAreNotRead: a request that does not
// authenticate is refused before its body is read, on every route that
// takes one (runs, cancel, META intake), so nothing is buffered for it.
func TestUnauthenticatedBodiesAreNotRead(t *testing.T) {
	h := NewHandler(AgentFunc(func(context.Context, *agui.RunAgentInput, *Stream) error { return nil }),
		WithBearerToken("k"), WithMetaStore(NewMemoryMeta()), WithLogger(quietLogger()))
	for _, path := range []string{"/agent", "/agent" + agui.CancelPath, "/agent" + MetaPath} {
		var read atomic.Bool
		req := httptest.NewRequest(http.MethodPost, path, readSpy{strings.NewReader(runInput), &read})
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusUnauthorized {
			t.Errorf("POST %s: %d %s", path, rec.Code, rec.Body)
		}
		if read.Load() {
			t.Errorf("POST %s: the body of an unauthenticated request was read", path)
		}
	}
}

// TestCancelWhileAnEventWaitsKeepsTheSequence: a cancel that wakes an
// agent waiting to send the start of something (here a tool call) must
// leave a stream whose end closes only what went out: the client that
// reads it afterwards sees a valid run, ended cancelled.
func TestCancelWhileAnEventWaitsKeepsTheSequence(t *testing.T) {
	// Only the CUSTOM events are large, so the event that finds the queue
	// full, and waits, is always the TOOL_CALL_START after one.
	big := &agui.CustomEvent{Name: "filler", Value: json.RawMessage(`"` + strings.Repeat("x", 16<<10) + `"`)}
	called := make(chan error, 1)
	srv := httptest.NewServer(NewHandler(AgentFunc(func(ctx context.Context, _ *agui.RunAgentInput, s *Stream) error {
		for i := 0; ; i++ {
			id := fmt.Sprintf("call-%d", i)
			for _, ev := range []agui.Event{big, &agui.ToolCallStartEvent{ToolCallID: id, ToolCallName: "lookup"}, &agui.ToolCallEndEvent{ToolCallID: id}} {
				if err := s.Emit(ev); err != nil {
					called <- err
					return err
				}
			}
		}
	}), WithWriteTimeout(time.Hour), WithLogger(quietLogger())))
	defer srv.Close()
	// A client that does not read yet, with the default receive buffer:
	// one shrunk as stalledClient's would, once full, announce room again
	// only after the kernel's backed-off probes.
	addr := srv.Listener.Addr().String()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	fmt.Fprintf(c, "POST /agent HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", addr, len(runInput), runInput)
	waitFor(t, "the agent to wait on the full send queue", func() bool {
		buf := make([]byte, 1<<20)
		for _, g := range strings.Split(string(buf[:runtime.Stack(buf, true)]), "\n\n") {
			if strings.Contains(g, "(*Queue).Append") && strings.Contains(g, "(*Cond).Wait") && strings.Contains(g, "(*Stream).Emit") {
				return true
			}
		}
		return false
	})
	if err := (&Client{URL: srv.URL + "/agent"}).Cancel(context.Background(), "t1", "r1"); err != nil {
		t.Fatal(err)
	}
	if err := receive(t, "the agent's call to return", called); !errors.Is(err, inflight.ErrCancelled) {
		t.Fatalf("the agent's call returned %v", err)
	}
	// Now the client reads everything: every event must pass the sequence
	// rules, and the run end cancelled.
	res, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	v := NewVerifier()
	var last agui.Event
	sc := bufio.NewScanner(res.Body)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		data, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok {
			continue
		}
		ev, err := agui.UnmarshalEvent([]byte(data))
		if err != nil {
			t.Fatal(err)
		}
		if err := v.Check(ev); err != nil {
			t.Fatalf("the stream after the cancel breaks the sequence rules at %s: %v", ev.Type(), err)
		}
		last = ev
	}
	if fin, ok := last.(*agui.RunFinishedEvent); !ok {
		t.Fatalf("the run ended with %T", last)
	} else if _, cancelled := fin.Outcome.(*agui.RunFinishedCancelledOutcome); !cancelled {
		t.Errorf("the run ended %s", fin.AppendJSON(nil))
	}
}
