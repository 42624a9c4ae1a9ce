// Package cutproxy is a reverse proxy for tests that drops event streams
// as a flaky network does: the first event streams (text/event-stream
// responses) it forwards are cut off after a given number of bytes of
// their body, their connection closed in the middle of the response; the
// others pass whole. The header of an event stream is sent at once, so a
// stream cut after 0 bytes is one whose client has its header and no byte
// of its body. A test puts it between a client and a server to see that
// the client resumes.
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
)

// Proxy forwards requests to its target, cutting event streams.
type Proxy struct {
	proxy *httputil.ReverseProxy

	mu       sync.Mutex
	cutAfter []int // the byte budgets of the streams still to cut, in order
	cuts     int
	// cut[i] is closed once the i-th stream is cut.
	cut []chan struct{}
}

// errCut is the read error that makes the reverse proxy abort a response.
var errCut = errors.New("cutproxy: the stream is cut here")

// BeforeHeader, as a cut's byte count, cuts an event stream before its
// header: the client's connection closes with no response, though the
// server has taken the request.
const BeforeHeader = -1

// errCutHeader is the ModifyResponse error of a stream cut BeforeHeader.
var errCutHeader = errors.New("cutproxy: the stream is cut before its header")

// New returns a proxy to target whose i-th event stream is cut after
// cutAfter[i] bytes of its body (0: right after its header;
// BeforeHeader: before it); the streams past len(cutAfter) pass whole.
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
				cut, left := p.cut[len(p.cut)-len(p.cutAfter)], p.cutAfter[0]
				p.cutAfter = p.cutAfter[1:]
				if left == BeforeHeader {
					p.cuts++
					close(cut)
					return errCutHeader
				}
				res.Body = &cutBody{ReadCloser: res.Body, left: left, cut: func() { p.countCut(cut) }}
			}
			return nil
		},
		ErrorHandler: func(w http.ResponseWriter, r *http.Request, err error) {
			if errors.Is(err, errCutHeader) {
				panic(http.ErrAbortHandler) // the connection closes with no response
			}
			w.WriteHeader(http.StatusBadGateway)
		},
		// A cut is the point, not something to log.
		ErrorLog: log.New(io.Discard, "", 0),
	}
	return p
}

// ServeHTTP forwards r to the target.
func (p *Proxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	// The request's body may still be on its way to the target when the
	// response's header is sent: by default the server would then read
	// the rest of it and close it under the forward, which fails the
	// target's connection mid-response.
	_ = http.NewResponseController(w).EnableFullDuplex()
	p.proxy.ServeHTTP(&headerFlusher{ResponseWriter: w}, r)
}

// headerFlusher sends the header of an event stream as soon as it is
// written: the reverse proxy would leave that to a timer, which a cut
// before the body's first byte could beat.
type headerFlusher struct{ http.ResponseWriter }

func (h *headerFlusher) WriteHeader(code int) {
	h.ResponseWriter.WriteHeader(code)
	if mt, _, _ := mime.ParseMediaType(h.Header().Get("Content-Type")); mt == "text/event-stream" {
		_ = http.NewResponseController(h.ResponseWriter).Flush()
	}
}

func (h *headerFlusher) Unwrap() http.ResponseWriter { return h.ResponseWriter }

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
	left int
	cut  func()
}

func (b *cutBody) Read(p []byte) (int, error) {
	if b.left <= 0 {
		if b.cut != nil {
			b.cut()
			b.cut = nil
		}
		return 0, errCut
	}
	n, err := b.ReadCloser.Read(p[:min(len(p), b.left)])
	b.left -= n
	return n, err
}
