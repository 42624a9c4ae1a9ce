package a2ahttp_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"regexp"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	a2a "github.com/agui-gen/agui-gen/gen/a2a"
)

// floodingAgent streams large status updates until its send fails, then
// reports that error and waits for its context, whose cause it reports
// too; release, when closed, ends a call instead (at the test's end).
type floodingAgent struct {
	a2a.UnimplementedA2AServiceServer
	sendErr, ctxCause chan error
	release           chan struct{}
}

func newFloodingAgent() *floodingAgent {
	return &floodingAgent{sendErr: make(chan error, 1), ctxCause: make(chan error, 1), release: make(chan struct{})}
}

func (a *floodingAgent) SendStreamingMessage(ctx context.Context, _ *a2a.SendMessageRequest, send func(*a2a.StreamResponse) error) error {
	text := strings.Repeat("x", 16<<10)
	update := &a2a.StreamResponse{Payload: &a2a.StreamResponseStatusUpdate{StatusUpdate: &a2a.TaskStatusUpdateEvent{
		TaskID: "t", ContextID: "c", Status: &a2a.TaskStatus{State: a2a.TaskStateWorking,
			Message: &a2a.Message{MessageID: "m", Role: a2a.RoleAgent, Parts: []*a2a.Part{{Content: &a2a.PartText{Text: text}}}}}}}}
	var err error
	for err == nil {
		select {
		case <-a.release:
			return nil
		default:
		}
		err = send(update)
	}
	a.sendErr <- err
	select {
	case <-ctx.Done():
		a.ctxCause <- context.Cause(ctx)
	case <-a.release:
	}
	return err
}

// streamRequests are a streaming call over each HTTP binding: the path
// and the body to POST.
var streamRequests = map[string][2]string{
	a2a.BindingJSONRPC:  {"/", `{"jsonrpc":"2.0","id":1,"method":"SendStreamingMessage","params":{"message":{"messageId":"m","role":"ROLE_USER","parts":[{"text":"hi"}]}}}`},
	a2a.BindingHTTPJSON: {"/message:stream", `{"message":{"messageId":"m","role":"ROLE_USER","parts":[{"text":"hi"}]}}`},
}

func bindingHandler(t *testing.T, binding string, svc *a2a.Service, opts ...a2a.ServerOption) http.Handler {
	t.Helper()
	if binding == a2a.BindingJSONRPC {
		return a2a.NewJSONRPCHandler(svc, opts...)
	}
	h, err := a2a.NewRESTHandler(svc, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return h
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

// TestStalledReaderIsCutOff: a client that stops reading an SSE stream
// holds its call only until a write has waited for it for the write
// timeout. Then the handler's send fails, its context is cancelled, and
// every goroutine of the call ends, although the client keeps its
// connection open.
func TestStalledReaderIsCutOff(t *testing.T) {
	for binding, call := range streamRequests {
		t.Run(binding, func(t *testing.T) {
			agent := newFloodingAgent()
			defer close(agent.release)
			srv := httptest.NewServer(bindingHandler(t, binding, a2a.BindA2AService(agent), a2a.WithWriteTimeout(200*time.Millisecond)))
			defer srv.Close()
			baseline := runtime.NumGoroutine()

			// A client that sends its call and never reads the answer, with a
			// small receive buffer so that the server's writes back up soon.
			c, err := net.Dial("tcp", srv.Listener.Addr().String())
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			_ = c.(*net.TCPConn).SetReadBuffer(4 << 10)
			fmt.Fprintf(c, "POST %s HTTP/1.1\r\nHost: x\r\nA2A-Version: 1.0\r\nContent-Type: application/json\r\nAccept: text/event-stream\r\nContent-Length: %d\r\n\r\n%s",
				call[0], len(call[1]), call[1])

			if err := receive(t, "the handler's send to fail", agent.sendErr); err == nil {
				t.Fatal("no error")
			}
			receive(t, "the handler's context to be cancelled", agent.ctxCause)
			waitFor(t, fmt.Sprintf("the goroutines to return to %d", baseline), func() bool { return runtime.NumGoroutine() <= baseline })
		})
	}
}

// TestMaxStreams: a streaming call over the cap is answered 503 with
// Retry-After and the binding's error body, once its caller is
// authenticated (over HTTP+JSON, before its body is read); one that does
// not authenticate learns nothing of the cap. NewHandler's two bindings
// share one cap.
func TestMaxStreams(t *testing.T) {
	agent := &waitingAgent{started: make(chan struct{}), release: make(chan struct{})}
	card := &a2a.AgentCard{Name: "wait", Description: "waits", Version: "1", SupportedInterfaces: a2a.Interfaces("http://127.0.0.1:1"),
		Capabilities: &a2a.AgentCapabilities{Streaming: new(bool)}, DefaultInputModes: []string{"text/plain"}, DefaultOutputModes: []string{"text/plain"},
		Skills: []*a2a.AgentSkill{{ID: "s", Name: "s", Description: "s", Tags: []string{"s"}}}}
	*card.Capabilities.Streaming = true
	h, err := a2a.NewHandler(a2a.BindA2AService(agent), card, a2a.WithMaxStreams(1), a2a.WithAuthenticator(func(r *http.Request) (any, error) {
		if r.Header.Get("Authorization") != "Bearer k" {
			return nil, errors.New("no key")
		}
		return "caller", nil
	}))
	if err != nil {
		t.Fatal(err)
	}

	// A stream in progress, over JSON-RPC, until release.
	done := make(chan struct{})
	go func() {
		defer close(done)
		h.ServeHTTP(httptest.NewRecorder(), streamCall(t, a2a.BindingJSONRPC, "k", nil))
	}()
	<-agent.started
	defer func() { close(agent.release); <-done }()

	for binding := range streamRequests {
		var read atomic.Bool
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, streamCall(t, binding, "k", &read))
		var body map[string]any
		if rec.Code != http.StatusServiceUnavailable || rec.Header().Get("Retry-After") == "" || json.Unmarshal(rec.Body.Bytes(), &body) != nil || body["error"] == nil {
			t.Errorf("%s: a stream over the cap: %d, Retry-After %q, %s", binding, rec.Code, rec.Header().Get("Retry-After"), rec.Body)
		}
		if binding == a2a.BindingHTTPJSON && read.Load() {
			t.Errorf("%s: the body of a refused stream was read", binding)
		}
		rec = httptest.NewRecorder()
		h.ServeHTTP(rec, streamCall(t, binding, "wrong", nil))
		if rec.Code == http.StatusServiceUnavailable || !strings.Contains(rec.Body.String(), "no key") {
			t.Errorf("%s: an unauthenticated stream over the cap: %d %s", binding, rec.Code, rec.Body)
		}
	}
}

// waitingAgent streams nothing until release.
type waitingAgent struct {
	a2a.UnimplementedA2AServiceServer
	started, release chan struct{}
}

func (a *waitingAgent) SendStreamingMessage(ctx context.Context, _ *a2a.SendMessageRequest, _ func(*a2a.StreamResponse) error) error {
	close(a.started)
	select {
	case <-a.release:
	case <-ctx.Done():
	}
	return nil
}

// streamCall is a streaming call over binding with token; read, when not
// nil, records whether its body was read.
func streamCall(t *testing.T, binding, token string, read *atomic.Bool) *http.Request {
	t.Helper()
	call := streamRequests[binding]
	req := httptest.NewRequest(http.MethodPost, call[0], readSpy{strings.NewReader(call[1]), read})
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("A2A-Version", "1.0")
	req.Header.Set("Authorization", "Bearer "+token)
	return req
}

// readSpy records whether its reader was read.
type readSpy struct {
	r    *strings.Reader
	read *atomic.Bool
}

func (s readSpy) Read(p []byte) (int, error) {
	if s.read != nil {
		s.read.Store(true)
	}
	return s.r.Read(p)
}

// TestUnauthenticatedBodiesAreNotRead: a call that does not authenticate
// is refused before its body is read, on every route of both bindings
// (each HTTP rule, tenant paths included, and JSON-RPC), so nothing is
// buffered for it.
func TestUnauthenticatedBodiesAreNotRead(t *testing.T) {
	h, err := a2a.NewHandler(a2a.BindA2AService(newFloodingAgent()), &a2a.AgentCard{Name: "a", Description: "a", Version: "1",
		SupportedInterfaces: a2a.Interfaces("http://127.0.0.1:1"), Capabilities: &a2a.AgentCapabilities{},
		DefaultInputModes: []string{"text/plain"}, DefaultOutputModes: []string{"text/plain"}, Skills: []*a2a.AgentSkill{{ID: "s", Name: "s", Description: "s", Tags: []string{"s"}}}},
		a2a.WithAuthenticator(func(*http.Request) (any, error) { return nil, errors.New("no key") }))
	if err != nil {
		t.Fatal(err)
	}
	type route struct{ method, path string }
	routes := []route{{http.MethodPost, "/"}}
	for _, m := range a2a.A2AService.Methods {
		for _, rule := range m.HTTP {
			path := pathVar.ReplaceAllString(rule.Path, "x")
			routes = append(routes, route{rule.Method, path})
			if m.ServerStreaming && rule.Method == http.MethodGet {
				routes = append(routes, route{http.MethodPost, path}) // served on POST too
			}
		}
	}
	for _, rt := range routes {
		var read atomic.Bool
		req := httptest.NewRequest(rt.method, rt.path, readSpy{strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"GetTask","params":{"id":"x"}}`), &read})
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("A2A-Version", "1.0")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if !strings.Contains(rec.Body.String(), "no key") {
			t.Errorf("%s %s: %d %s", rt.method, rt.path, rec.Code, rec.Body)
		}
		if read.Load() {
			t.Errorf("%s %s: the body of an unauthenticated call was read", rt.method, rt.path)
		}
	}
}

// pathVar is a variable of an HTTP rule's path template.
var pathVar = regexp.MustCompile(`\{[^}]*\}`)
