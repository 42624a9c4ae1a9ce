package aguirt

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	agui "github.com/agui-gen/agui-gen/gen/agui"
)

// sseServer answers every POST with body, as Content-Type contentType, and
// records the request.
func sseServer(t *testing.T, contentType, body string) (*httptest.Server, *http.Request, *string) {
	t.Helper()
	req := new(http.Request)
	sent := new(string)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		*req, *sent = *r.Clone(context.Background()), string(b)
		w.Header().Set("Content-Type", contentType)
		io.WriteString(w, body)
	}))
	t.Cleanup(srv.Close)
	return srv, req, sent
}

func clientInput() *agui.RunAgentInput {
	return &agui.RunAgentInput{ThreadID: "t", RunID: "r", Messages: []agui.Message{
		&agui.AssistantMessage{BaseMessage: agui.BaseMessage{ID: "a"}, Content: new(string)},
	}, State: agui.State(`{"n":1}`)}
}

func TestClientRun(t *testing.T) {
	stream := ": hello\r\n\r\n" +
		"event: agui\r\ndata: {\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\",\r\ndata:  \"protocolVersion\":\"1.1\"}\r\n\r\n" +
		"data: {\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"a\"}\n\n" +
		"data: {\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"a\",\"delta\":\"hi\",\"x\":1}\n\n" +
		"data: {\"type\":\"NEW_THING\"}\n\n" +
		"data: {\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"a\"}\n\n" +
		"data: {\"type\":\"STATE_DELTA\",\"delta\":[{\"op\":\"replace\",\"path\":\"/n\",\"value\":2}]}\n\n" +
		"data: {\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"r\"}\n\n"
	srv, req, sent := sseServer(t, "text/event-stream; charset=utf-8", stream)
	var live []string
	c := &Client{URL: srv.URL, Header: http.Header{"Authorization": {"Bearer x"}, "Accept": {"*/*"}},
		OnWarning: func(w string) { live = append(live, w) }}
	in := clientInput()
	s, err := c.Run(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	var got []agui.EventType
	for ev, err := range s.Events() {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, ev.Type())
	}
	if len(got) != 6 {
		t.Errorf("delivered %v", got)
	}
	if req.Method != http.MethodPost || req.Header.Get("Accept") != agui.MediaTypeSSE || req.Header.Get("Content-Type") != "application/json" ||
		req.Header.Get("Authorization") != "Bearer x" {
		t.Errorf("request %s %v", req.Method, req.Header)
	}
	if !strings.Contains(*sent, `"protocolVersion":"1.1"`) || in.ProtocolVersion != nil {
		t.Errorf("sent %s; input's version %v", *sent, in.ProtocolVersion)
	}
	sameJSON(t, messagesJSON(s.Messages()), `[{"id":"a","role":"assistant","content":"hi"}]`)
	if *in.Messages[0].(*agui.AssistantMessage).Content != "" {
		t.Error("the input's message was changed")
	}
	sameJSON(t, string(s.State()), `{"n":2}`)
	if string(in.State) != `{"n":1}` {
		t.Error("the input's state was changed")
	}
	if w := s.Warnings(); len(w) != 2 || !strings.Contains(w[0], "/x") || !strings.Contains(w[1], "NEW_THING") || len(live) != 2 {
		t.Errorf("warnings %q, live %q", w, live)
	}
	if _, err := s.Next(); !errors.Is(err, io.EOF) {
		t.Errorf("after the end: %v", err)
	}
	if s.RunError() != nil || s.Open().Run || s.Header().Get("Content-Type") == "" || s.Conversation() == nil {
		t.Error("accessors")
	}
}

func TestClientHTTPError(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "no such agent", http.StatusNotFound)
	}))
	defer srv.Close()
	_, err := (&Client{URL: srv.URL}).Run(context.Background(), clientInput())
	var he *agui.HTTPError
	if !errors.As(err, &he) || he.StatusCode != 404 || !strings.Contains(string(he.Body), "no such agent") ||
		err.Error() != "agui: HTTP 404: no such agent" {
		t.Fatalf("%v", err)
	}
}

func TestClientRejectsInvalidInput(t *testing.T) {
	called := false
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { called = true }))
	defer srv.Close()
	in := clientInput()
	in.Messages = append(in.Messages, &agui.ToolMessage{ID: "t", ToolCallID: "c", Content: agui.TextContent("x"), Metadata: agui.Metadata(`[]`)})
	if _, err := (&Client{URL: srv.URL}).Run(context.Background(), in); err == nil || called {
		t.Fatalf("%v, called %v", err, called)
	}
	if _, err := (&Client{URL: srv.URL}).Run(context.Background(), nil); err == nil {
		t.Fatal("nil input")
	}
}

var generatedID = regexp.MustCompile(`(call|msg)_[0-9a-f]{24}`)

func TestClientProtobufResponse(t *testing.T) {
	agent := AgentFunc(func(_ context.Context, _ *agui.RunAgentInput, s *Stream) error {
		if err := s.StateSnapshot(json.RawMessage(`{"n":1}`)); err != nil {
			return err
		}
		id, err := s.ToolCall("lookup", `{"q":"x"}`)
		if err != nil {
			return err
		}
		if err := s.ToolResult(id, "found"); err != nil {
			return err
		}
		return s.Text("done")
	})
	var accepts []string
	h := NewHandler(agent, WithLogger(quietLogger()))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		accepts = append(accepts, w.Header().Get("Content-Type"))
		h.ServeHTTP(w, r)
		accepts[len(accepts)-1] = w.Header().Get("Content-Type")
	}))
	defer srv.Close()
	var results [][]byte
	for _, proto := range []bool{false, true} {
		s, err := (&Client{URL: srv.URL, Protobuf: proto}).Run(context.Background(), clientInput())
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Wait(); err != nil {
			t.Fatalf("protobuf %v: %v", proto, err)
		}
		msgs, _ := json.Marshal(s.Messages())
		// Ids are minted per run; compare what they name, not their value.
		msgs = generatedID.ReplaceAll(msgs, []byte("$1_ID"))
		results = append(results, append(msgs, s.State()...))
	}
	if accepts[0] != agui.MediaTypeSSE || accepts[1] != agui.MediaTypeProto {
		t.Errorf("transports %v", accepts)
	}
	if !bytes.Equal(results[0], results[1]) {
		t.Errorf("SSE and protobuf runs built different conversations:\n%s\n%s", results[0], results[1])
	}

	// A frame cut short is an error, not a clean end.
	srv2, _, _ := sseServer(t, agui.MediaTypeProto, "\x00\x00\x00\x09\x62")
	st, err := (&Client{URL: srv2.URL}).Run(context.Background(), clientInput())
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Wait(); err == nil || !strings.Contains(err.Error(), "mid-frame") {
		t.Fatalf("truncated frame: %v", err)
	}
	// With parameters it is not the protobuf media type: read as SSE.
	srv3, _, _ := sseServer(t, agui.MediaTypeProto+"; x=1", "")
	st, err = (&Client{URL: srv3.URL}).Run(context.Background(), clientInput())
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Wait(); !errors.Is(err, agui.ErrTruncated) {
		t.Fatalf("%v", err)
	}
}

func TestClientStreamFailures(t *testing.T) {
	const start = "data: {\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}\n\n"
	cases := []struct {
		name, body string
		check      func(error) bool
	}{
		{"empty body", "", func(err error) bool { return errors.Is(err, agui.ErrTruncated) }},
		{"truncated run", start + "data: {\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m\"}\n\n",
			func(err error) bool { return errors.Is(err, agui.ErrTruncated) && strings.Contains(err.Error(), `"r"`) }},
		{"sequence violation", start + "data: {\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"m\"}\n\n",
			func(err error) bool { var se *SequenceError; return errors.As(err, &se) && se.Index == 1 }},
		{"malformed event", start + "data: {\"type\":\"TEXT_MESSAGE_START\",\"messageId\":7}\n\n",
			func(err error) bool {
				var e *agui.Error
				return errors.As(err, &e) && e.Path == "/messageId" && strings.Contains(err.Error(), "SSE event 1")
			}},
		{"not JSON", start + "data: hello\n\n", func(err error) bool { var e *agui.Error; return errors.As(err, &e) }},
		{"a run that errored is not truncated", start + "data: {\"type\":\"RUN_ERROR\",\"message\":\"x\"}\n\n", func(err error) bool { return err == nil }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv, _, _ := sseServer(t, agui.MediaTypeSSE, c.body)
			s, err := (&Client{URL: srv.URL}).Run(context.Background(), clientInput())
			if err != nil {
				t.Fatal(err)
			}
			err = s.Wait()
			if !c.check(err) {
				t.Fatalf("%v", err)
			}
			if _, again := s.Next(); err != nil && !errors.Is(again, err) {
				t.Errorf("Next after the failure: %v", again)
			}
		})
	}
}

func TestClientContextAndClose(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", agui.MediaTypeSSE)
		io.WriteString(w, "data: {\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}\n\n")
		w.(http.Flusher).Flush()
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	defer close(release)

	ctx, cancel := context.WithCancel(context.Background())
	s, err := (&Client{URL: srv.URL}).Run(ctx, clientInput())
	if err != nil {
		t.Fatal(err)
	}
	if ev, err := s.Next(); err != nil || ev.Type() != agui.EventTypeRunStarted {
		t.Fatalf("%v, %v", ev, err)
	}
	time.AfterFunc(20*time.Millisecond, cancel)
	if _, err := s.Next(); !errors.Is(err, context.Canceled) {
		t.Fatalf("after cancel: %v", err)
	}

	s, err = (&Client{URL: srv.URL}).Run(context.Background(), clientInput())
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Next(); err == nil || errors.Is(err, io.EOF) {
		t.Fatalf("after Close: %v", err)
	}
}

// TestClientEventsOutliveTheirStream: a stream that ends gives its read
// buffer to the next one; the events it delivered, raw JSON members
// included, own their bytes and do not change when the next stream reads.
func TestClientEventsOutliveTheirStream(t *testing.T) {
	body := func(n string) string {
		return "data: {\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}\n\n" +
			"data: {\"type\":\"STATE_SNAPSHOT\",\"snapshot\":{\"n\":\"" + n + "\"},\"rawEvent\":{\"k\":\"" + n + "\"}}\n\n" +
			"data: {\"type\":\"CUSTOM\",\"name\":\"c\",\"value\":[\"" + n + "\"]}\n\n" +
			"data: {\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"r\"}\n\n"
	}
	read := func(n string) []agui.Event {
		srv, _, _ := sseServer(t, agui.MediaTypeSSE, body(n))
		s, err := (&Client{URL: srv.URL}).Run(context.Background(), clientInput())
		if err != nil {
			t.Fatal(err)
		}
		var evs []agui.Event
		for ev, err := range s.Events() {
			if err != nil {
				t.Fatal(err)
			}
			evs = append(evs, ev)
		}
		return evs
	}
	encode := func(evs []agui.Event) string {
		b, err := json.Marshal(evs)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	first := read("first-stream-value")
	want := encode(first)
	for range 20 {
		read("SECOND-STREAM-VALUE")
	}
	if got := encode(first); got != want {
		t.Fatalf("a finished stream's events changed when later streams read:\n%s\nwas\n%s", got, want)
	}
}
