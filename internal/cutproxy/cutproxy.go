// Package cutproxy is a reverse proxy for tests that drops event streams
// as a flaky network does: the first event streams (text/event-stream
// responses) it forwards are cut off after a given number of bytes of
// their body, their connection closed in the middle of the response; the
// others pass whole. A test puts it between a client and a server to see
// that the client resumes.
package cutproxy

import (
	"errors"
	"io"
	"log"
	"mime"
	"net/http"
	"net/http/httputil"
	"net/url"
	"sync"
	"time"
)

// Proxy forwards requests to its target, cutting event streams.
type Proxy struct {
	// Settle is how long a stream to cut stays open once its last bytes
	// are sent, before it is cut (0: not at all). A browser discards the
	// bytes of a response body it has not handed to the page yet when the
	// body fails, so a test that wants the page to have read up to the cut
	// lets them settle.
	Settle time.Duration

	proxy *httputil.ReverseProxy

	mu       sync.Mutex
	cutAfter []int // the byte budgets of the streams still to cut, in order
	cuts     int
	// cut[i] is closed once the i-th stream is cut.
	cut []chan struct{}
}

// errCut is the read error that makes the reverse proxy abort a response.
var errCut = errors.New("cutproxy: the stream is cut here")

// New returns a proxy to target whose i-th event stream is cut after
// cutAfter[i] bytes of its body; the streams past len(cutAfter) pass whole.
func New(target *url.URL, cutAfter ...int) *Proxy {
	p := &Proxy{cutAfter: cutAfter, cut: make([]chan struct{}, len(cutAfter))}
	for i := range p.cut {
		p.cut[i] = make(chan struct{})
	}
	p.proxy = &httputil.ReverseProxy{
		Rewrite: func(r *httputil.ProxyRequest) {
			r.SetURL(target)
			r.Out.Host = r.In.Host
		},
		ModifyResponse: func(res *http.Response) error {
			if mt, _, _ := mime.ParseMediaType(res.Header.Get("Content-Type")); mt != "text/event-stream" {
				return nil
			}
			p.mu.Lock()
			defer p.mu.Unlock()
			if len(p.cutAfter) > 0 {
				cut := p.cut[len(p.cut)-len(p.cutAfter)]
				res.Body = &cutBody{ReadCloser: res.Body, left: p.cutAfter[0], settle: p.Settle, cut: func() { p.countCut(cut) }}
				p.cutAfter = p.cutAfter[1:]
			}
			return nil
		},
		// A cut is the point, not something to log.
		ErrorLog: log.New(io.Discard, "", 0),
	}
	return p
}

// ServeHTTP forwards r to the target.
func (p *Proxy) ServeHTTP(w http.ResponseWriter, r *http.Request) { p.proxy.ServeHTTP(w, r) }

// Cuts is the number of streams cut so far.
func (p *Proxy) Cuts() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.cuts
}

// Cut returns a channel closed once the i-th event stream (from 0) has
// been cut: a server can wait for it to go on with its run, so that the
// cut falls where the test wants it.
func (p *Proxy) Cut(i int) <-chan struct{} { return p.cut[i] }

func (p *Proxy) countCut(cut chan struct{}) {
	p.mu.Lock()
	p.cuts++
	p.mu.Unlock()
	close(cut)
}

// cutBody reads left bytes of a response body, then fails: the reverse
// proxy then aborts the response (http.ErrAbortHandler), which closes the
// client's connection without ending the response.
type cutBody struct {
	io.ReadCloser
	left   int
	settle time.Duration
	cut    func()
}

func (b *cutBody) Read(p []byte) (int, error) {
	if b.left <= 0 {
		if b.cut != nil {
			// The proxy has flushed what it read before this call.
			time.Sleep(b.settle)
			b.cut()
			b.cut = nil
		}
		return 0, errCut
	}
	n, err := b.ReadCloser.Read(p[:min(len(p), b.left)])
	b.left -= n
	return n, err
}
