// Package teetest keeps what an HTTP handler writes, for the tests that
// check a stream as it went over the wire to a real client, and reads the
// data lines of a Server-Sent Events stream.
package teetest

import (
	"bufio"
	"bytes"
	"net/http"
	"sync"
	"testing"
)

// Handler serves with H and keeps a copy of each response body it writes.
type Handler struct {
	H http.Handler

	mu     sync.Mutex
	bodies []*bytes.Buffer
}

// Bodies returns a copy of each body written so far, one per request, in
// the order the requests came.
func (t *Handler) Bodies() [][]byte {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := make([][]byte, len(t.bodies))
	for i, b := range t.bodies {
		out[i] = bytes.Clone(b.Bytes())
	}
	return out
}

func (t *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	buf := new(bytes.Buffer)
	t.mu.Lock()
	t.bodies = append(t.bodies, buf)
	t.mu.Unlock()
	t.H.ServeHTTP(writer{ResponseWriter: w, buf: buf, mu: &t.mu}, r)
}

type writer struct {
	http.ResponseWriter
	buf *bytes.Buffer
	mu  *sync.Mutex
}

func (w writer) Write(p []byte) (int, error) {
	w.mu.Lock()
	w.buf.Write(p)
	w.mu.Unlock()
	return w.ResponseWriter.Write(p)
}

// Flush flushes the response: the handlers under test stream.
func (w writer) Flush() { w.ResponseWriter.(http.Flusher).Flush() }

// SSEData returns the payloads of the data lines of an SSE stream.
func SSEData(t testing.TB, stream []byte) [][]byte {
	t.Helper()
	var out [][]byte
	sc := bufio.NewScanner(bytes.NewReader(stream))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		if data, ok := bytes.CutPrefix(sc.Bytes(), []byte("data: ")); ok {
			out = append(out, bytes.Clone(data))
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}
