package aguirt

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	agui "github.com/agui-gen/agui-gen/gen/agui"
)

const runInput = `{"threadId":"t1","runId":"r1","messages":[{"id":"u1","role":"user","content":"hi"}]}`

func quietLogger() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

func post(t *testing.T, h http.Handler, body string, header map[string]string) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest(http.MethodPost, "/agent", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	for k, v := range header {
		req.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

// events parses an SSE body the way a client does and checks it is a
// valid stream.
func events(t *testing.T, body []byte) []agui.Event {
	t.Helper()
	var out []agui.Event
	v := NewVerifier()
	sc := bufio.NewScanner(bytes.NewReader(body))
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, ":") {
			continue
		}
		data, ok := strings.CutPrefix(line, "data: ")
		if !ok {
			t.Fatalf("unexpected SSE line %q", line)
		}
		ev, err := agui.Decoder{Strict: true}.DecodeEvent([]byte(data))
		if err != nil {
			t.Fatalf("%v\n%s", err, data)
		}
		if err := v.Check(ev); err != nil {
			t.Fatalf("the handler wrote an invalid sequence: %v\n%s", err, body)
		}
		out = append(out, ev)
	}
	return out
}

// streamed reads a client's run to its end, failing the test on an error.
func streamed(t *testing.T, rs *RunStream) []agui.Event {
	t.Helper()
	var out []agui.Event
	for ev, err := range rs.Events() {
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, ev)
	}
	return out
}

func types(evs []agui.Event) []string {
	var out []string
	for _, e := range evs {
		out = append(out, string(e.Type()))
	}
	return out
}

func TestHandlerRejectsBadRequests(t *testing.T) {
	h := NewHandler(AgentFunc(func(context.Context, *agui.RunAgentInput, *Stream) error { return nil }),
		WithMaxBodyBytes(256), WithLogger(quietLogger()))
	get := httptest.NewRecorder()
	h.ServeHTTP(get, httptest.NewRequest(http.MethodGet, "/agent", nil))
	if get.Code != 405 || get.Header().Get("Allow") != "POST" {
		t.Errorf("GET: %d, Allow %q", get.Code, get.Header().Get("Allow"))
	}
	if rec := post(t, h, runInput, map[string]string{"Content-Type": "text/plain"}); rec.Code != 415 {
		t.Errorf("text/plain: %d", rec.Code)
	}
	if rec := post(t, h, `{"threadId":"`+strings.Repeat("x", 300)+`"}`, nil); rec.Code != 413 {
		t.Errorf("large body: %d", rec.Code)
	}
	rec := post(t, h, `{"threadId":"t","runId":"r","messages":[{"id":"m","role":"wizard","content":"x"}]}`, nil)
	var body requestError
	if rec.Code != 400 || json.Unmarshal(rec.Body.Bytes(), &body) != nil || body.Error.Path != "/messages/0/role" {
		t.Errorf("bad role: %d %s", rec.Code, rec.Body)
	}
	rec = post(t, h, `{"threadId":"t","runId":"r"}`, nil)
	if json.Unmarshal(rec.Body.Bytes(), &body) != nil || rec.Code != 400 || body.Error.Path != "/messages" || body.Error.Rule != "required" {
		t.Errorf("missing messages: %d %s", rec.Code, rec.Body)
	}
	if rec := post(t, h, `{"threadId":`, nil); rec.Code != 400 {
		t.Errorf("truncated JSON: %d", rec.Code)
	}
	if rec := post(t, h, runInput, map[string]string{"Content-Type": "application/json; charset=utf-8"}); rec.Code != 200 {
		t.Errorf("charset parameter: %d", rec.Code)
	}
}

func TestHandlerBearerToken(t *testing.T) {
	h := NewHandler(AgentFunc(func(context.Context, *agui.RunAgentInput, *Stream) error { return nil }),
		WithBearerToken("s3cret"), WithLogger(quietLogger()))
	if rec := post(t, h, runInput, nil); rec.Code != 401 || !strings.HasPrefix(rec.Header().Get("WWW-Authenticate"), "Bearer") {
		t.Errorf("no token: %d", rec.Code)
	}
	if rec := post(t, h, runInput, map[string]string{"Authorization": "Bearer wrong"}); rec.Code != 401 {
		t.Errorf("wrong token: %d", rec.Code)
	}
	if rec := post(t, h, runInput, map[string]string{"Authorization": "Bearer s3cret"}); rec.Code != 200 {
		t.Errorf("right token: %d", rec.Code)
	}
}

func TestRunEnvelopeAndBuilderClosesEverything(t *testing.T) {
	h := NewHandler(AgentFunc(func(ctx context.Context, in *agui.RunAgentInput, s *Stream) error {
		if err := s.StartStep("plan"); err != nil {
			return err
		}
		_ = s.Reasoning("thinking…")
		_ = s.Text("Hello")                      // closes the reasoning first
		id, _ := s.ToolCall("search", `{"q":1}`) // closes the text first
		_ = s.ToolResult(id, "found")
		_ = s.StateSnapshot(json.RawMessage(`{"n":1}`))
		_ = s.StateDelta(&agui.ReplaceOperation{Path: "/n", Value: json.RawMessage(`2`)})
		sub, err := s.Subagent("researcher")
		if err != nil {
			return err
		}
		_ = sub.Text("from the subagent") // left open: the run end closes it and the subagent
		_ = s.Text("still here")          // left open, as is the step
		return nil
	}), WithLogger(quietLogger()))
	rec := post(t, h, runInput, nil)
	if rec.Code != 200 || rec.Header().Get("Content-Type") != "text/event-stream" {
		t.Fatalf("%d %q", rec.Code, rec.Header().Get("Content-Type"))
	}
	evs := events(t, rec.Body.Bytes())
	got := strings.Join(types(evs), " ")
	want := "RUN_STARTED STEP_STARTED REASONING_START REASONING_MESSAGE_START REASONING_MESSAGE_CONTENT " +
		"REASONING_MESSAGE_END REASONING_END TEXT_MESSAGE_START TEXT_MESSAGE_CONTENT TEXT_MESSAGE_END " +
		"TOOL_CALL_START TOOL_CALL_ARGS TOOL_CALL_END TOOL_CALL_RESULT STATE_SNAPSHOT STATE_DELTA " +
		"SUBAGENT_STARTED TEXT_MESSAGE_START TEXT_MESSAGE_CONTENT TEXT_MESSAGE_START TEXT_MESSAGE_CONTENT " +
		"TEXT_MESSAGE_END TEXT_MESSAGE_END SUBAGENT_FINISHED STEP_FINISHED RUN_FINISHED"
	if got != want {
		t.Errorf("events:\n got %s\nwant %s", got, want)
	}
	rs := evs[0].(*agui.RunStartedEvent)
	if rs.ThreadID != "t1" || rs.RunID != "r1" || rs.ProtocolVersion == nil || *rs.ProtocolVersion != agui.ProtocolVersion {
		t.Errorf("RUN_STARTED %+v", rs)
	}
}

func TestAgentErrorAndPanicBecomeRunError(t *testing.T) {
	for name, agent := range map[string]AgentFunc{
		"error": func(context.Context, *agui.RunAgentInput, *Stream) error {
			return &RunError{Message: "model unavailable", Code: "upstream"}
		},
		"panic": func(_ context.Context, _ *agui.RunAgentInput, s *Stream) error {
			_ = s.Text("partial")
			panic("boom")
		},
	} {
		rec := post(t, NewHandler(agent, WithLogger(quietLogger())), runInput, nil)
		evs := events(t, rec.Body.Bytes())
		last, ok := evs[len(evs)-1].(*agui.RunErrorEvent)
		if !ok {
			t.Fatalf("%s: last event %s", name, evs[len(evs)-1].Type())
		}
		if name == "error" && (last.Message != "model unavailable" || last.Code == nil || *last.Code != "upstream") {
			t.Errorf("%s: %+v", name, last)
		}
		if name == "panic" && strings.Contains(last.Message, "boom") {
			t.Errorf("a panic's value leaked to the client: %q", last.Message)
		}
	}
}

func TestEmitRejectsAnInvalidSequence(t *testing.T) {
	var emitErr error
	h := NewHandler(AgentFunc(func(_ context.Context, _ *agui.RunAgentInput, s *Stream) error {
		emitErr = s.Emit(&agui.TextMessageContentEvent{MessageID: "nope", Delta: "x"})
		return nil
	}), WithLogger(quietLogger()))
	evs := events(t, post(t, h, runInput, nil).Body.Bytes())
	var seq *SequenceError
	if !errors.As(emitErr, &seq) {
		t.Fatalf("Emit of content without start: %v", emitErr)
	}
	if got := strings.Join(types(evs), " "); got != "RUN_STARTED RUN_FINISHED" {
		t.Errorf("the invalid event reached the wire: %s", got)
	}
}

func TestInterruptOutcome(t *testing.T) {
	h := NewHandler(AgentFunc(func(_ context.Context, _ *agui.RunAgentInput, s *Stream) error {
		return s.Interrupt(agui.Interrupt{ID: "i1", Reason: "approval"})
	}), WithLogger(quietLogger()))
	evs := events(t, post(t, h, runInput, nil).Body.Bytes())
	fin := evs[len(evs)-1].(*agui.RunFinishedEvent)
	if out, ok := fin.Outcome.(*agui.RunFinishedInterruptOutcome); !ok || out.Interrupts[0].ID != "i1" {
		t.Errorf("outcome %#v", fin.Outcome)
	}
}

// TestInterruptRefusesInvalidInterrupts: an interrupt that does not
// validate, or that reuses an id of the run, is an error and is not kept.
func TestInterruptRefusesInvalidInterrupts(t *testing.T) {
	var errs []error
	h := NewHandler(AgentFunc(func(_ context.Context, _ *agui.RunAgentInput, s *Stream) error {
		errs = append(errs,
			s.Interrupt(agui.Interrupt{ID: "i1", Reason: "approval"}),
			s.Interrupt(agui.Interrupt{ID: "i2", Reason: "approval", Metadata: json.RawMessage(`[1]`)}),
			s.Interrupt(agui.Interrupt{ID: "i1", Reason: "again"}),
			s.Interrupt(agui.Interrupt{ID: "i3", Reason: "approval"}, agui.Interrupt{ID: "i3", Reason: "approval"}))
		return nil
	}), WithLogger(quietLogger()))
	evs := events(t, post(t, h, runInput, nil).Body.Bytes())
	if errs[0] != nil || errs[1] == nil || errs[2] == nil || errs[3] == nil {
		t.Errorf("Interrupt returned %v", errs)
	}
	fin := evs[len(evs)-1].(*agui.RunFinishedEvent)
	if out, ok := fin.Outcome.(*agui.RunFinishedInterruptOutcome); !ok || len(out.Interrupts) != 1 || out.Interrupts[0].ID != "i1" {
		t.Errorf("outcome %s", fin.AppendJSON(nil))
	}
}

// TestUnsendableRunFinishedBecomesRunError: a result that cannot go out in
// RUN_FINISHED ends the run with RUN_ERROR, not with no terminal event.
func TestUnsendableRunFinishedBecomesRunError(t *testing.T) {
	h := NewHandler(AgentFunc(func(_ context.Context, _ *agui.RunAgentInput, s *Stream) error {
		s.SetResult(json.RawMessage(`null`))
		return s.Text("hi")
	}), WithLogger(quietLogger()))
	evs := events(t, post(t, h, runInput, nil).Body.Bytes())
	want := "RUN_STARTED TEXT_MESSAGE_START TEXT_MESSAGE_CONTENT RUN_ERROR"
	if got := strings.Join(types(evs), " "); got != want {
		t.Fatalf("events:\n got %s\nwant %s", got, want)
	}
	if e := evs[len(evs)-1].(*agui.RunErrorEvent); e.Code == nil || *e.Code != "finish_failed" {
		t.Errorf("RUN_ERROR %s", e.AppendJSON(nil))
	}
}

func TestCancelOutcome(t *testing.T) {
	h := NewHandler(AgentFunc(func(_ context.Context, _ *agui.RunAgentInput, s *Stream) error {
		s.Interrupt(agui.Interrupt{ID: "i1", Reason: "approval"})
		s.MarkCancelled() // wins over the interrupt
		return s.Text("stopped")
	}), WithLogger(quietLogger()))
	evs := events(t, post(t, h, runInput, nil).Body.Bytes())
	if _, ok := evs[len(evs)-1].(*agui.RunFinishedEvent).Outcome.(*agui.RunFinishedCancelledOutcome); !ok {
		t.Errorf("outcome %#v", evs[len(evs)-1])
	}
}

// TestServeRun: a handler that builds the input itself gets the same run
// envelope as NewHandler's.
func TestServeRun(t *testing.T) {
	rec := httptest.NewRecorder()
	input := &agui.RunAgentInput{ThreadID: "t9", RunID: "r9", Messages: []agui.Message{}}
	ServeRun(rec, httptest.NewRequest(http.MethodGet, "/", nil), AgentFunc(func(_ context.Context, in *agui.RunAgentInput, s *Stream) error {
		return s.Text("for " + in.ThreadID)
	}), input, WithLogger(quietLogger()))
	evs := events(t, rec.Body.Bytes())
	if got := types(evs); strings.Join(got, " ") != "RUN_STARTED TEXT_MESSAGE_START TEXT_MESSAGE_CONTENT TEXT_MESSAGE_END RUN_FINISHED" {
		t.Errorf("events %v", got)
	}
	if rs := evs[0].(*agui.RunStartedEvent); rs.ThreadID != "t9" || rs.RunID != "r9" {
		t.Errorf("RUN_STARTED %+v", rs)
	}
}

// TestInvoke: a run in process delivers the envelope and the agent's events
// to emit; the agent's error ends it with RUN_ERROR and is returned; an
// error from emit stops the agent and is returned.
func TestInvoke(t *testing.T) {
	input := &agui.RunAgentInput{ThreadID: "t1", RunID: "r1", Messages: []agui.Message{}}
	var got []agui.Event
	collect := func(ev agui.Event) error { got = append(got, ev); return nil }
	err := Invoke(context.Background(), AgentFunc(func(_ context.Context, _ *agui.RunAgentInput, s *Stream) error {
		return s.Text("hi")
	}), input, collect)
	if err != nil || strings.Join(types(got), " ") != "RUN_STARTED TEXT_MESSAGE_START TEXT_MESSAGE_CONTENT TEXT_MESSAGE_END RUN_FINISHED" {
		t.Fatalf("%v %v", err, types(got))
	}

	got = nil
	boom := &RunError{Message: "boom", Code: "BOOM"}
	err = Invoke(context.Background(), AgentFunc(func(context.Context, *agui.RunAgentInput, *Stream) error { return boom }), input, collect)
	if err != boom {
		t.Errorf("agent error returned as %v", err)
	}
	if re, ok := got[len(got)-1].(*agui.RunErrorEvent); !ok || *re.Code != "BOOM" {
		t.Errorf("last event %#v", got[len(got)-1])
	}

	full := errors.New("sink full")
	calls := 0
	err = Invoke(context.Background(), AgentFunc(func(ctx context.Context, _ *agui.RunAgentInput, s *Stream) error {
		for i := 0; ; i++ {
			if err := s.Text("x"); err != nil {
				if ctx.Err() == nil {
					t.Error("the agent's context is live after emit failed")
				}
				return err
			}
		}
	}), input, func(agui.Event) error {
		if calls++; calls > 3 {
			return full
		}
		return nil
	})
	if !errors.Is(err, full) {
		t.Errorf("emit's error returned as %v", err)
	}
}

func TestListenDefaultsToLoopback(t *testing.T) {
	l, err := Listen(":0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if !strings.HasPrefix(l.Addr().String(), "127.0.0.1:") {
		t.Errorf("listening on %s", l.Addr())
	}
}

func TestDeclaredVersion(t *testing.T) {
	older := "1.0"
	newer := "1.9"
	other := "2.0"
	junk := "one"
	for in, want := range map[*string]string{nil: agui.ProtocolVersion, &older: "1.0", &newer: agui.ProtocolVersion,
		&other: agui.ProtocolVersion, &junk: agui.ProtocolVersion} {
		if got := declaredVersion(in); got != want {
			t.Errorf("declaredVersion(%v) = %s, want %s", in, got, want)
		}
	}
}

func TestProtobufWhenPreferred(t *testing.T) {
	h := NewHandler(AgentFunc(func(_ context.Context, _ *agui.RunAgentInput, s *Stream) error {
		return s.Text("hi")
	}), WithLogger(quietLogger()))
	if ct := post(t, h, runInput, map[string]string{"Accept": "*/*"}).Header().Get("Content-Type"); ct != agui.MediaTypeSSE {
		t.Errorf("Accept */* got Content-Type %q, want SSE", ct)
	}
	// A client that declares no protocol version predates the protobuf
	// transport the ledger numbers: it gets SSE whatever it asks for.
	if ct := post(t, h, runInput, map[string]string{"Accept": agui.MediaTypeProto}).Header().Get("Content-Type"); ct != agui.MediaTypeSSE {
		t.Errorf("a client without a protocol version asking for protobuf got %q, want SSE", ct)
	}
	declared := `{"threadId":"t1","runId":"r1","protocolVersion":"1.0","messages":[{"id":"u1","role":"user","content":"hi"}]}`
	rec := post(t, h, declared, map[string]string{"Accept": agui.MediaTypeProto + ", */*;q=0.1"})
	if ct := rec.Header().Get("Content-Type"); ct != agui.MediaTypeProto {
		t.Fatalf("Content-Type %q", ct)
	}
	body := rec.Body.Bytes()
	var frames int
	for len(body) > 0 {
		if len(body) < 4 {
			t.Fatal("truncated frame header")
		}
		n := int(body[0])<<24 | int(body[1])<<16 | int(body[2])<<8 | int(body[3])
		if len(body) < 4+n {
			t.Fatal("truncated frame")
		}
		body = body[4+n:]
		frames++
	}
	// RUN_STARTED, TEXT_MESSAGE_START, TEXT_MESSAGE_CONTENT, TEXT_MESSAGE_END, RUN_FINISHED
	if frames != 5 {
		t.Errorf("%d frames", frames)
	}
	if rec := post(t, h, runInput, map[string]string{"Accept": "text/event-stream"}); rec.Header().Get("Content-Type") != agui.MediaTypeSSE {
		t.Errorf("SSE not chosen for text/event-stream")
	}
}

func TestKeepAliveComments(t *testing.T) {
	// The agent stays quiet until the client has seen a keep-alive comment,
	// so the test waits on the behaviour, not on a clock.
	seen := make(chan struct{})
	h := NewHandler(AgentFunc(func(ctx context.Context, _ *agui.RunAgentInput, s *Stream) error {
		select {
		case <-seen:
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(10 * time.Second):
			return errors.New("no keep-alive was sent")
		}
		return s.Text("late")
	}), WithKeepAlive(5*time.Millisecond), WithLogger(quietLogger()))
	srv := httptest.NewServer(h)
	defer srv.Close()
	resp, err := http.Post(srv.URL, "application/json", strings.NewReader(runInput))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var body []byte
	buf := make([]byte, 4096)
	signalled := false
	for {
		n, err := resp.Body.Read(buf)
		body = append(body, buf[:n]...)
		if !signalled && bytes.Contains(body, []byte("\n: keep-alive\n\n")) {
			close(seen)
			signalled = true
		}
		if err != nil {
			break
		}
	}
	if !signalled {
		t.Fatalf("no keep-alive comment in\n%s", body)
	}
	evs := events(t, body) // comments are ignored and the stream stays valid
	if evs[len(evs)-1].Type() != agui.EventTypeRunFinished {
		t.Errorf("the run did not finish: %s", evs[len(evs)-1].Type())
	}
}

func TestClientDisconnectCancelsTheRun(t *testing.T) {
	cancelled := make(chan struct{})
	h := NewHandler(AgentFunc(func(ctx context.Context, _ *agui.RunAgentInput, s *Stream) error {
		_ = s.Text("working")
		<-ctx.Done()
		close(cancelled)
		return ctx.Err()
	}), WithLogger(quietLogger()))
	srv := httptest.NewServer(h)
	defer srv.Close()
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL, strings.NewReader(runInput))
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 64)
	_, _ = resp.Body.Read(buf) // the run has started
	cancel()
	resp.Body.Close()
	select {
	case <-cancelled:
	case <-time.After(5 * time.Second):
		t.Fatal("the agent's context was not cancelled when the client went away")
	}
}

func TestBuilderPassThroughEvents(t *testing.T) {
	agent := AgentFunc(func(_ context.Context, _ *agui.RunAgentInput, s *Stream) error {
		for _, err := range []error{
			s.Custom("highlight", json.RawMessage(`{"line":3}`)),
			s.Raw(json.RawMessage(`{"provider":"x"}`), "x"),
			s.Meta(&agui.ThumbsUpPayload{MessageID: "m1"}),
			s.MessagesSnapshot(&agui.UserMessage{BaseMessage: agui.BaseMessage{ID: "u1"}, Content: agui.TextContent("hi")}),
		} {
			if err != nil {
				return err
			}
		}
		s.SetResult(json.RawMessage(`{"ok":true}`))
		return nil
	})
	// META goes as CUSTOM{name:"meta"} unless the handler sends it natively.
	evs := events(t, post(t, NewHandler(agent, WithLogger(quietLogger()), WithNativeMeta()), runInput, nil).Body.Bytes())
	if got := strings.Join(types(evs), " "); got != "RUN_STARTED CUSTOM RAW META MESSAGES_SNAPSHOT RUN_FINISHED" {
		t.Errorf("events %s", got)
	}
	compat := events(t, post(t, NewHandler(agent, WithLogger(quietLogger())), runInput, nil).Body.Bytes())
	if c, ok := compat[3].(*agui.CustomEvent); !ok || c.Name != MetaCustomName || !strings.Contains(string(c.Value), `"metaType":"thumbs_up"`) {
		t.Errorf("META in compatibility mode: %#v", compat[3])
	}
	if fin := evs[len(evs)-1].(*agui.RunFinishedEvent); string(fin.Result) != `{"ok":true}` {
		t.Errorf("result %s", fin.Result)
	}
}

func TestFinishingASubagentFinishesItsChildren(t *testing.T) {
	h := NewHandler(AgentFunc(func(_ context.Context, _ *agui.RunAgentInput, s *Stream) error {
		outer, err := s.Subagent("outer")
		if err != nil {
			return err
		}
		inner, err := outer.Subagent("inner")
		if err != nil {
			return err
		}
		if err := inner.Text("deep"); err != nil {
			return err
		}
		return outer.Finish()
	}), WithLogger(quietLogger()))
	evs := events(t, post(t, h, runInput, nil).Body.Bytes())
	want := "RUN_STARTED SUBAGENT_STARTED SUBAGENT_STARTED TEXT_MESSAGE_START TEXT_MESSAGE_CONTENT " +
		"TEXT_MESSAGE_END SUBAGENT_FINISHED SUBAGENT_FINISHED RUN_FINISHED"
	if got := strings.Join(types(evs), " "); got != want {
		t.Errorf("events:\n got %s\nwant %s", got, want)
	}
}

func TestAFinishedSubagentSendsNothing(t *testing.T) {
	var late error
	h := NewHandler(AgentFunc(func(_ context.Context, _ *agui.RunAgentInput, s *Stream) error {
		sub, err := s.Subagent("helper")
		if err != nil {
			return err
		}
		if err := sub.Finish(); err != nil {
			return err
		}
		late = sub.Text("too late")
		return nil
	}), WithLogger(quietLogger()))
	evs := events(t, post(t, h, runInput, nil).Body.Bytes())
	if !errors.Is(late, ErrSubagentOver) {
		t.Errorf("Text after Finish: %v", late)
	}
	if got := strings.Join(types(evs), " "); got != "RUN_STARTED SUBAGENT_STARTED SUBAGENT_FINISHED RUN_FINISHED" {
		t.Errorf("events %s", got)
	}
}

// TestSubagentInterruptsSuspendIt: an interrupt raised on a subagent's view
// is the subagent's, and the subagent and those above it end suspended,
// owning only their own interrupts; a sibling without one ends in success.
func TestSubagentInterruptsSuspendIt(t *testing.T) {
	var outerID, innerID string
	h := NewHandler(AgentFunc(func(_ context.Context, _ *agui.RunAgentInput, s *Stream) error {
		outer, err := s.Subagent("outer")
		if err != nil {
			return err
		}
		inner, err := outer.Subagent("inner")
		if err != nil {
			return err
		}
		sibling, err := s.Subagent("sibling")
		if err != nil {
			return err
		}
		outerID, innerID = outer.ID(), inner.ID()
		if err := inner.Interrupt(agui.Interrupt{ID: "approve", Reason: "confirmation"}); err != nil {
			return err
		}
		if err := sibling.Finish(); err != nil {
			return err
		}
		// Its SUBAGENT_FINISHED is out: it cannot be suspended now.
		if err := sibling.Interrupt(agui.Interrupt{ID: "late"}); !errors.Is(err, ErrSubagentOver) {
			return fmt.Errorf("an interrupt of a finished subagent: %v", err)
		}
		return outer.Finish() // finishes inner first
	}), WithLogger(quietLogger()))
	evs := events(t, post(t, h, runInput, nil).Body.Bytes())
	outcomes := map[string]string{}
	for _, ev := range evs {
		if f, ok := ev.(*agui.SubagentFinishedEvent); ok {
			outcomes[f.SubagentRunID] = string(f.AppendJSON(nil))
		}
	}
	if len(outcomes) != 3 {
		t.Fatalf("finished %v", outcomes)
	}
	for id, want := range map[string]string{
		innerID: `"outcome":{"type":"suspended","interruptIds":["approve"]}`,
		outerID: `"outcome":{"type":"suspended"}`,
	} {
		if !strings.Contains(outcomes[id], want) {
			t.Errorf("%s ended %s, want %s", id, outcomes[id], want)
		}
		delete(outcomes, id)
	}
	for _, sibling := range outcomes {
		if strings.Contains(sibling, "outcome") {
			t.Errorf("the sibling ended %s", sibling)
		}
	}
	fin := evs[len(evs)-1].(*agui.RunFinishedEvent)
	out, ok := fin.Outcome.(*agui.RunFinishedInterruptOutcome)
	if !ok || len(out.Interrupts) != 1 || out.Interrupts[0].SubagentRunID == nil || *out.Interrupts[0].SubagentRunID != innerID {
		t.Errorf("RUN_FINISHED %s", fin.AppendJSON(nil))
	}
}
