package aguirt

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	agui "github.com/agui-gen/agui-gen/gen/agui"
)

// failingWriter is a client that is gone: every write fails.
type failingWriter struct{ h http.Header }

func (f *failingWriter) Header() http.Header       { return f.h }
func (f *failingWriter) Write([]byte) (int, error) { return 0, errors.New("client gone") }
func (f *failingWriter) WriteHeader(int)           {}
func (f *failingWriter) Flush()                    {}

// discardWriter is a client that reads everything.
type discardWriter struct{ h http.Header }

func (f *discardWriter) Header() http.Header         { return f.h }
func (f *discardWriter) Write(b []byte) (int, error) { return len(b), nil }
func (f *discardWriter) WriteHeader(int)             {}
func (f *discardWriter) Flush()                      {}

// slowMeta holds a replay until released.
type slowMeta struct{ release chan struct{} }

func (s *slowMeta) PutMeta(context.Context, string, string, []*agui.MetaEvent) ([]StoredMeta, error) {
	return nil, nil
}

func (s *slowMeta) Meta(ctx context.Context, q MetaQuery) ([]StoredMeta, error) {
	<-s.release
	return nil, nil
}

func postRun(body string) *http.Request {
	req := httptest.NewRequest(http.MethodPost, "/agent", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	return req
}

// serveReturns reports whether serve returns within a generous bound.
func serveReturns(serve func()) bool {
	done := make(chan struct{})
	go func() { serve(); close(done) }()
	select {
	case <-done:
		return true
	case <-time.After(10 * time.Second):
		return false
	}
}

// A client gone before the run's first events are out (a META replay is
// still reading): the handler ends the run, and the agent never starts on
// it afterwards, nor does the process crash.
func TestNoAgentAfterTheHandlerGaveUp(t *testing.T) {
	store := &slowMeta{release: make(chan struct{})}
	ran := make(chan struct{}, 1)
	h := NewHandler(AgentFunc(func(ctx context.Context, _ *agui.RunAgentInput, s *Stream) error {
		ran <- struct{}{}
		return nil
	}), WithMetaStore(store), WithMetaReplay(), WithLogger(quietLogger()))
	h.ServeHTTP(&failingWriter{h: http.Header{}}, postRun(runInput))
	close(store.release)
	select {
	case <-ran:
		t.Error("the agent ran after its handler returned")
	case <-time.After(300 * time.Millisecond):
	}
}

// A goroutine the agent left emitting after it returned does not hold the
// run's end: the handler finishes the run and returns.
func TestStrayEmitterDoesNotHoldTheEnd(t *testing.T) {
	big := json.RawMessage(`"` + strings.Repeat("x", 300<<10) + `"`)
	h := NewHandler(AgentFunc(func(ctx context.Context, _ *agui.RunAgentInput, s *Stream) error {
		go func() {
			for s.Emit(&agui.CustomEvent{Name: "n", Value: big}) == nil {
			}
		}()
		time.Sleep(time.Millisecond)
		return nil
	}), WithLogger(quietLogger()))
	if !serveReturns(func() { h.ServeHTTP(&discardWriter{h: http.Header{}}, postRun(runInput)) }) {
		t.Fatal("the handler did not return")
	}
}

// A cancel that races an event larger than the queue's bound still ends
// the run: the run's end never waits for room only its own goroutine makes.
func TestCancelRacingABigEvent(t *testing.T) {
	big := json.RawMessage(`"` + strings.Repeat("x", 300<<10) + `"`)
	for i := range 100 {
		started := make(chan struct{})
		h := NewHandler(AgentFunc(func(ctx context.Context, _ *agui.RunAgentInput, s *Stream) error {
			close(started)
			for s.Emit(&agui.CustomEvent{Name: "n", Value: big}) == nil {
			}
			return nil
		}), WithLogger(quietLogger()))
		ctx, cancel := context.WithCancel(context.Background())
		ok := serveReturns(func() {
			go func() {
				<-started
				time.Sleep(time.Duration(i%5) * 100 * time.Microsecond)
				req := postRun(`{"threadId":"t1","runId":"r1"}`)
				req.URL.Path = "/agent/cancel"
				h.ServeHTTP(httptest.NewRecorder(), req)
			}()
			h.ServeHTTP(&discardWriter{h: http.Header{}}, postRun(runInput).WithContext(ctx))
		})
		cancel()
		if !ok {
			t.Fatalf("run %d: the handler did not return after a cancel", i)
		}
	}
}
