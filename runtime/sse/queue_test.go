package sse_test

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agui-gen/agui-gen/runtime/sse"
)

// gatedRecorder records what is written, each Write held until the gate
// lets it through, and counts the writes and flushes.
type gatedRecorder struct {
	*httptest.ResponseRecorder
	entered chan struct{} // a write is waiting at the gate, when not nil
	gate    chan struct{}
	mu      sync.Mutex
	writes  int
	flushes int
	fail    error
}

func newGated() *gatedRecorder {
	return &gatedRecorder{ResponseRecorder: httptest.NewRecorder(), entered: make(chan struct{}, 1), gate: make(chan struct{})}
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

func (g *gatedRecorder) Flush() {
	g.mu.Lock()
	g.flushes++
	g.mu.Unlock()
	g.ResponseRecorder.Flush()
}

func (g *gatedRecorder) body() string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.Body.String()
}

// eventHeader is the Header of an SSE answer, written with the first
// event.
func eventHeader(w http.ResponseWriter) func() {
	return func() {
		sse.SetHeader(w.Header(), sse.ContentType)
		w.WriteHeader(http.StatusOK)
	}
}

// Events queued while the connection is busy go out in one write: the
// first event's write is held while a hundred more are queued, and those
// hundred are the next write, in order.
func TestQueueBatchesWhatQueues(t *testing.T) {
	rec := newGated()
	q := sse.NewQueue(rec, sse.QueueConfig{Header: eventHeader(rec)})
	q.Run(0)
	ctx := context.Background()
	if err := q.Event(ctx, "", "", []byte(`{"n":0}`)); err != nil {
		t.Fatal(err)
	}
	<-rec.entered               // the writer holds the first event's write
	for i := 1; i <= 100; i++ { // queued behind the held write
		if err := q.Event(ctx, "", "", []byte(`{"n":`+strconv.Itoa(i)+`}`)); err != nil {
			t.Fatal(err)
		}
	}
	close(rec.gate)
	if err := q.Close(); err != nil {
		t.Fatal(err)
	}
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
	h := rec.Header()
	if h.Get("Content-Type") != "text/event-stream" || h.Get("Cache-Control") != "no-cache" || h.Get("X-Accel-Buffering") != "no" {
		t.Errorf("header %v", h)
	}
}

// The same batching, driven by the caller's goroutine: it waits on Queued
// and flushes, and a frame that comes alone goes out at once.
func TestQueueCallerFlushes(t *testing.T) {
	rec := httptest.NewRecorder()
	q := sse.NewQueue(rec, sse.QueueConfig{})
	ctx := context.Background()
	select {
	case <-q.Queued():
		t.Fatal("Queued with nothing queued")
	default:
	}
	for i := range 3 {
		if err := q.Append(ctx, func(b []byte) []byte { return append(b, byte('a'+i)) }); err != nil {
			t.Fatal(err)
		}
	}
	<-q.Queued()
	if err := q.Flush(); err != nil {
		t.Fatal(err)
	}
	if got := rec.Body.String(); got != "abc" || !rec.Flushed {
		t.Errorf("%q flushed %v", got, rec.Flushed)
	}
	select {
	case <-q.Queued():
		t.Fatal("Queued after a Flush with nothing new")
	default:
	}
	// A frame that appends nothing is nothing to write.
	if err := q.Append(ctx, func(b []byte) []byte { return b }); err != nil {
		t.Fatal(err)
	}
	select {
	case <-q.Queued():
		t.Fatal("Queued for an empty frame")
	default:
	}
	if err := q.Append(ctx, func(b []byte) []byte { return append(b, 'd') }); err != nil {
		t.Fatal(err)
	}
	if err := q.Close(); err != nil {
		t.Fatal(err)
	}
	if got := rec.Body.String(); got != "abcd" {
		t.Errorf("Close did not write what was queued: %q", got)
	}
	if err := q.Append(ctx, func(b []byte) []byte { return append(b, 'e') }); !errors.Is(err, io.ErrClosedPipe) {
		t.Errorf("Append after Close: %v", err)
	}
	if err := q.Close(); err != nil {
		t.Errorf("a second Close: %v", err)
	}
}

// A producer faster than a client that reads nothing waits once the queue
// is full, and learns of the failed write instead of queueing on.
func TestQueueIsBounded(t *testing.T) {
	rec := newGated()
	rec.fail = errors.New("the client is gone")
	var failed []error
	const max = 16 << 10
	q := sse.NewQueue(rec, sse.QueueConfig{MaxQueued: max, OnFail: func(err error) { failed = append(failed, err) }})
	q.Run(0)
	event := bytes.Repeat([]byte("x"), 1024)
	done := make(chan int)
	go func() {
		n := 0
		for q.Event(context.Background(), "", "", event) == nil {
			n++
		}
		done <- n
	}()
	<-rec.entered
	time.Sleep(10 * time.Millisecond) // let the producer fill the queue
	close(rec.gate)                   // the held write fails; the producer stops
	n := <-done
	if err := q.Close(); !errors.Is(err, rec.fail) {
		t.Errorf("Close returned %v", err)
	}
	// What the producer got in is at most the batch being written (which
	// took what had queued, up to the bound) and a full queue behind it.
	if n > 2*(max/len(event)+1) {
		t.Errorf("%d events queued past a failed write, the bound is %d bytes", n, max)
	}
	if len(failed) != 1 || !errors.Is(failed[0], rec.fail) || !errors.Is(q.Err(), rec.fail) {
		t.Errorf("the failure is reported %d times: %v", len(failed), failed)
	}
	if err := q.Event(context.Background(), "", "", event); !errors.Is(err, rec.fail) {
		t.Errorf("an event after the failure: %v", err)
	}
}

// fill queues frames of 1 KiB until one waits for room, and returns the
// producer's result.
func fill(t *testing.T, q *sse.Queue, ctx context.Context, max int) <-chan error {
	t.Helper()
	frame := bytes.Repeat([]byte("x"), 1024)
	for range max/len(frame) + 1 {
		if err := q.Append(context.Background(), func(b []byte) []byte { return append(b, frame...) }); err != nil {
			t.Fatal(err)
		}
	}
	waited := make(chan error, 1)
	go func() { waited <- q.Append(ctx, func(b []byte) []byte { return append(b, "last"...) }) }()
	select {
	case err := <-waited:
		t.Fatalf("Append past the bound did not wait: %v", err)
	case <-time.After(20 * time.Millisecond):
	}
	return waited
}

// A producer waiting for room stops waiting when its context ends: its
// frame is queued, one past the bound, and it gets the cause.
func TestQueueWaitEndsWithContext(t *testing.T) {
	rec := httptest.NewRecorder()
	const max = 4 << 10
	q := sse.NewQueue(rec, sse.QueueConfig{MaxQueued: max})
	ctx, cancel := context.WithCancelCause(context.Background())
	waited := fill(t, q, ctx, max)
	stop := errors.New("the run was cancelled")
	cancel(stop)
	if err := <-waited; !errors.Is(err, stop) {
		t.Fatalf("the waiting Append returned %v", err)
	}
	if err := q.Close(); err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(rec.Body.String(), "xlast") {
		t.Error("the frame whose wait ended was not queued")
	}
}

// Flush makes room: a producer waiting for it goes on.
func TestQueueFlushMakesRoom(t *testing.T) {
	rec := httptest.NewRecorder()
	const max = 4 << 10
	q := sse.NewQueue(rec, sse.QueueConfig{MaxQueued: max})
	waited := fill(t, q, context.Background(), max)
	if err := q.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := <-waited; err != nil {
		t.Fatal(err)
	}
	q.Close()
	if !strings.HasSuffix(rec.Body.String(), "xlast") {
		t.Error("the last frame is missing")
	}
}

// Drain lets a producer waiting for room go on, and queues without bound.
func TestQueueDrain(t *testing.T) {
	rec := httptest.NewRecorder()
	const max = 4 << 10
	q := sse.NewQueue(rec, sse.QueueConfig{MaxQueued: max})
	waited := fill(t, q, context.Background(), max)
	q.Drain()
	if err := <-waited; err != nil {
		t.Fatal(err)
	}
	for range 2 * max {
		if err := q.Append(context.Background(), func(b []byte) []byte { return append(b, 'y') }); err != nil {
			t.Fatal(err)
		}
	}
	q.Close()
	if !strings.HasSuffix(rec.Body.String(), "xlast"+strings.Repeat("y", 2*max)) {
		t.Error("frames are missing")
	}
}

// Close wakes a producer waiting for room.
func TestQueueCloseWakesProducer(t *testing.T) {
	const max = 4 << 10
	q := sse.NewQueue(io.Discard, sse.QueueConfig{MaxQueued: max})
	waited := fill(t, q, context.Background(), max)
	// Close writes the queue first, which makes room: the producer may
	// queue its frame then, or find the queue closed.
	q.Close()
	if err := <-waited; err != nil && !errors.Is(err, io.ErrClosedPipe) {
		t.Fatal(err)
	}
}

// A queue with a Header writes no header until its first write: closed
// with nothing written, the response is still the caller's to answer.
// Open has the header written with no event.
func TestQueueHeaderIsLazy(t *testing.T) {
	rec := httptest.NewRecorder()
	q := sse.NewQueue(rec, sse.QueueConfig{Header: eventHeader(rec), KeepAlive: sse.KeepAliveComment})
	q.KeepAlive(0) // not before the stream has started
	q.Close()
	if rec.Header().Get("Content-Type") != "" || rec.Body.Len() != 0 {
		t.Fatalf("a queue that wrote nothing wrote %v %q", rec.Header(), rec.Body)
	}

	rec = httptest.NewRecorder()
	q = sse.NewQueue(rec, sse.QueueConfig{Header: eventHeader(rec)})
	q.Run(0)
	q.Open()
	q.Close()
	if rec.Header().Get("Content-Type") != sse.ContentType || rec.Code != http.StatusOK || !rec.Flushed || rec.Body.Len() != 0 {
		t.Fatalf("Open: %d %v flushed %v %q", rec.Code, rec.Header(), rec.Flushed, rec.Body)
	}
}

// KeepAlive writes its frame only on a stream idle that long, never ahead
// of a queued frame, and not at all when the framing has none.
func TestQueueKeepAlive(t *testing.T) {
	rec := httptest.NewRecorder()
	q := sse.NewQueue(rec, sse.QueueConfig{KeepAlive: sse.KeepAliveComment})
	q.KeepAlive(time.Hour)
	if q.Flush(); rec.Body.Len() != 0 {
		t.Fatalf("a keep-alive on a stream not idle that long: %q", rec.Body)
	}
	q.Append(context.Background(), func(b []byte) []byte { return append(b, "data: 1\n\n"...) })
	q.KeepAlive(0)
	q.KeepAlive(0)
	q.Flush()
	q.KeepAlive(0)
	q.Close()
	if got := rec.Body.String(); got != "data: 1\n\n: keep-alive\n\n" {
		t.Errorf("%q", got)
	}

	rec = httptest.NewRecorder()
	q = sse.NewQueue(rec, sse.QueueConfig{})
	q.KeepAlive(0)
	q.Close()
	if rec.Body.Len() != 0 {
		t.Errorf("a keep-alive with no keep-alive frame: %q", rec.Body)
	}
}

// Run keeps an idle stream alive.
func TestQueueRunKeepsAlive(t *testing.T) {
	rec := newGated()
	close(rec.gate)
	q := sse.NewQueue(rec, sse.QueueConfig{KeepAlive: sse.KeepAliveComment})
	q.Run(time.Millisecond)
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(rec.body(), sse.KeepAliveComment+sse.KeepAliveComment) {
		if time.Now().After(deadline) {
			t.Fatalf("no keep-alives: %q", rec.body())
		}
		time.Sleep(time.Millisecond)
	}
	q.Close()
}

// A client that stops reading is cut once a write has waited for it for
// the write timeout: the producer learns of it, and OnFail is told once.
func TestQueueWriteTimeout(t *testing.T) {
	failed := make(chan error, 2)
	result := make(chan error, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q := sse.NewQueue(w, sse.QueueConfig{WriteTimeout: 100 * time.Millisecond, OnFail: func(err error) { failed <- err }, Header: eventHeader(w)})
		q.Run(0)
		data := bytes.Repeat([]byte("x"), 8<<10)
		var err error
		for err == nil {
			err = q.Event(r.Context(), "", "", data)
		}
		q.Close()
		result <- err
	}))
	defer srv.Close()
	conn, err := net.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if tc, ok := conn.(*net.TCPConn); ok {
		tc.SetReadBuffer(4 << 10)
	}
	fmt.Fprintf(conn, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
	if _, err := bufio.NewReader(conn).ReadString('\n'); err != nil { // the status line, then nothing more
		t.Fatal(err)
	}
	isTimeout := func(err error) bool {
		var ne net.Error
		return errors.As(err, &ne) && ne.Timeout()
	}
	select {
	case err := <-result:
		// The cut closes the connection, which cancels the request's
		// context: the producer may see either first.
		if !isTimeout(err) && !errors.Is(err, context.Canceled) {
			t.Errorf("the producer got %v, want a timeout or the request's cancellation", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the stalled client was not cut")
	}
	if len(failed) != 1 {
		t.Fatalf("OnFail called %d times", len(failed))
	}
	if err := <-failed; !isTimeout(err) {
		t.Errorf("OnFail was told %v, want the write's timeout", err)
	}
}

// AppendEvent frames an event: event and id lines when named, one data
// line with the data's line breaks as spaces.
func TestAppendEvent(t *testing.T) {
	for _, c := range []struct {
		name, id, data, want string
	}{
		{"", "", `{"a":1}`, "data: {\"a\":1}\n\n"},
		{"error", "7", "{\"a\":\n1}", "event: error\nid: 7\ndata: {\"a\": 1}\n\n"},
		{"", "12", "{\r\n}", "id: 12\ndata: {  }\n\n"},
		{"a\nb", "", "x", "event: a b\ndata: x\n\n"},
		{"", "", "", "data: \n\n"},
	} {
		got := string(sse.AppendEvent([]byte("prefix"), c.name, c.id, []byte(c.data)))
		if got != "prefix"+c.want {
			t.Errorf("AppendEvent(%q, %q, %q) = %q, want %q", c.name, c.id, c.data, got, c.want)
		}
		got = string(sse.AppendEventFunc(nil, c.name, c.id, func(b []byte) []byte { return append(b, c.data...) }))
		if got != c.want {
			t.Errorf("AppendEventFunc(%q, %q, %q) = %q, want %q", c.name, c.id, c.data, got, c.want)
		}
	}
}

// What the writer writes, the reader reads back.
func TestQueueEventsRead(t *testing.T) {
	rec := httptest.NewRecorder()
	q := sse.NewQueue(rec, sse.QueueConfig{KeepAlive: sse.KeepAliveComment})
	ctx := context.Background()
	q.Event(ctx, "", "1", []byte(`{"a":`+"\n"+`1}`))
	q.KeepAlive(0) // not with an event queued
	q.Flush()
	q.KeepAlive(0)
	q.Event(ctx, "error", "", []byte(`{}`))
	if err := q.Event(ctx, "x", "2\n", nil); !errors.Is(err, sse.ErrLineBreak) {
		t.Errorf("an id with a line break: %v", err)
	}
	q.Close()
	r := sse.NewReader(rec.Body, 1<<10)
	for _, want := range []sse.Event{{ID: "1", Data: []byte(`{"a": 1}`)}, {Name: "error", Data: []byte(`{}`)}} {
		ev, err := r.Next()
		if err != nil || ev.Name != want.Name || ev.ID != want.ID || string(ev.Data) != string(want.Data) {
			t.Fatalf("%+v %v, want %+v", ev, err, want)
		}
	}
	if _, err := r.Next(); err != io.EOF {
		t.Fatalf("%v after the last event", err)
	}
}

// In steady state a frame costs no allocation: the queue's buffers are
// reused from batch to batch.
func TestQueueSteadyStateAllocations(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts mean nothing under the race detector, whose sync.Pool drops buffers at random")
	}
	q := sse.NewQueue(io.Discard, sse.QueueConfig{})
	ctx := context.Background()
	data := []byte(`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"a few words "}`)
	allocs := testing.AllocsPerRun(1000, func() {
		q.Event(ctx, "", "", data)
		q.Event(ctx, "", "", data)
		q.Flush()
	})
	if allocs > 0.1 {
		t.Errorf("%.2f allocations a batch", allocs)
	}
}

// BenchmarkQueue: one event queued and flushed, by the caller's goroutine
// and by Run's.
func BenchmarkQueue(b *testing.B) {
	data := []byte(`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"a few words "}`)
	ctx := context.Background()
	b.Run("caller", func(b *testing.B) {
		q := sse.NewQueue(io.Discard, sse.QueueConfig{})
		b.ReportAllocs()
		for b.Loop() {
			q.Event(ctx, "", "", data)
			q.Flush()
		}
	})
	b.Run("run", func(b *testing.B) {
		q := sse.NewQueue(io.Discard, sse.QueueConfig{})
		q.Run(0)
		b.ReportAllocs()
		for b.Loop() {
			q.Event(ctx, "", "", data)
		}
		q.Close()
	})
}

// TestQueueTellsOnFailBeforeProducers: a producer whose Append returns a
// failed write's error finds OnFail done: a handler that cancels its
// agent's context in OnFail never has an agent see its call refused while
// its context is live. OnFail takes its time here; a producer appends
// all the while.
func TestQueueTellsOnFailBeforeProducers(t *testing.T) {
	rec := newGated()
	close(rec.gate)
	rec.fail = errors.New("connection reset")
	var told sync.WaitGroup
	told.Add(1)
	done := make(chan struct{})
	q := sse.NewQueue(rec, sse.QueueConfig{OnFail: func(error) {
		time.Sleep(50 * time.Millisecond)
		close(done)
		told.Done()
	}})
	refused := make(chan bool)
	go func() {
		for {
			if err := q.Append(context.Background(), func(b []byte) []byte { return append(b, "data: x\n\n"...) }); err != nil {
				select {
				case <-done:
					refused <- true
				default:
					refused <- false
				}
				return
			}
			time.Sleep(time.Millisecond)
		}
	}()
	for q.Flush() == nil {
		time.Sleep(time.Millisecond) // until the producer's first event is queued
	}
	if !<-refused {
		t.Fatal("Append returned the write's error before OnFail was done")
	}
	told.Wait()
	q.Close()
}
