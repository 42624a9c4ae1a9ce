package a2art

import (
	"bytes"
	"errors"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"testing"
)

// gatedRecorder records what is written, each Write held until the gate
// lets it through, and counts the writes.
type gatedRecorder struct {
	*httptest.ResponseRecorder
	entered chan struct{} // a write is waiting at the gate, when not nil
	gate    chan struct{}
	mu      sync.Mutex
	writes  int
	fail    error
}

func (g *gatedRecorder) Write(b []byte) (int, error) {
	if g.entered != nil {
		select {
		case g.entered <- struct{}{}:
		default:
		}
	}
	<-g.gate
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.fail != nil {
		return 0, g.fail
	}
	g.writes++
	return g.ResponseRecorder.Write(b)
}

// Events queued while the connection is busy go out in one write: the
// first event's write is held while a hundred more are sent, and those
// hundred are the next write, in order.
func TestSSEBatchesWhatQueues(t *testing.T) {
	rec := &gatedRecorder{ResponseRecorder: httptest.NewRecorder(), entered: make(chan struct{}, 1), gate: make(chan struct{})}
	s := newSSEWriter(rec)
	s.run(0)
	if err := s.event([]byte(`{"n":0}`)); err != nil {
		t.Fatal(err)
	}
	<-rec.entered               // the writer holds the first event's write
	for i := 1; i <= 100; i++ { // queued behind the held write
		if err := s.event([]byte(`{"n":` + strconv.Itoa(i) + `}`)); err != nil {
			t.Fatal(err)
		}
	}
	close(rec.gate)
	s.close()
	if rec.writes != 2 {
		t.Errorf("%d writes for 101 events, want 2", rec.writes)
	}
	var want bytes.Buffer
	for i := 0; i <= 100; i++ {
		want.WriteString("data: {\"n\":" + strconv.Itoa(i) + "}\n\n")
	}
	if got := rec.Body.String(); got != want.String() {
		t.Errorf("body:\n%s", got)
	}
	if rec.Header().Get("Content-Type") != "text/event-stream" {
		t.Errorf("header %v", rec.Header())
	}
}

// A producer faster than a client that reads nothing waits once the queue
// is full, and learns of the failed write instead of queueing on.
func TestSSEQueueIsBounded(t *testing.T) {
	rec := &gatedRecorder{ResponseRecorder: httptest.NewRecorder(), gate: make(chan struct{}), fail: errors.New("the client is gone")}
	s := newSSEWriter(rec)
	var failed error
	s.onFail = func(err error) { failed = err }
	s.run(0)
	event := bytes.Repeat([]byte("x"), 1024)
	done := make(chan int)
	go func() {
		n := 0
		for s.event(event) == nil {
			n++
		}
		done <- n
	}()
	close(rec.gate) // the held write fails; the producer stops
	n := <-done
	s.close()
	if n > maxQueued/len(event)+2 {
		t.Errorf("%d events queued past a failed write, the bound is %d bytes", n, maxQueued)
	}
	if failed == nil || s.event(event) == nil {
		t.Errorf("the failure is not reported: %v", failed)
	}
}

// A writer that is not run writes each event at once.
func TestSSEUnrunWritesAtOnce(t *testing.T) {
	rec := httptest.NewRecorder()
	s := newSSEWriter(rec)
	if err := s.namedEvent("error", "7", []byte("{\"a\":\n1}")); err != nil {
		t.Fatal(err)
	}
	if got := rec.Body.String(); got != "event: error\nid: 7\ndata: {\"a\": 1}\n\n" || rec.Code != http.StatusOK {
		t.Errorf("%d %q", rec.Code, got)
	}
}
