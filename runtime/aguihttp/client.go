package aguihttp

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/agui-gen/agui-gen/runtime/backoff"
)

// The paths, below an agent's endpoint, of what a handler serves besides
// runs: the agent's capabilities (GET), the de facto convention of the AG-UI
// SDKs, and the cancel of a run in progress (POST).
const (
	CapabilitiesPath = "/capabilities"
	CancelPath       = "/cancel"
)

// CancelRequest is the body of POST {path}/cancel.
type CancelRequest struct {
	ThreadID string `json:"threadId"`
	RunID    string `json:"runId"`
}

// HTTPError is a run the server refused before streaming: a response
// status other than 2xx.
type HTTPError struct {
	// StatusCode is the response status, such as 400.
	StatusCode int
	// Body is the start of the response body (at most 64 KiB).
	Body []byte
	// Header is the response's header.
	Header http.Header
}

func (e *HTTPError) Error() string {
	msg := strings.TrimSpace(string(e.Body))
	if msg == "" {
		msg = http.StatusText(e.StatusCode)
	}
	return "agui: HTTP " + strconv.Itoa(e.StatusCode) + ": " + msg
}

// ErrTruncated is behind the error of a stream that ended while a run was
// still active, or before any run began: the run has no outcome, and must
// not be taken for one that succeeded. What it delivered stays applied.
var ErrTruncated = errors.New("agui: the stream ended before the run did")

// maxErrorBody bounds what is kept of a refusal's body.
const maxErrorBody = 64 << 10

// Endpoint is where a client sends its requests, and how: the fields of a
// client that are not about events.
type Endpoint struct {
	// URL is the agent's endpoint.
	URL string
	// HTTPClient sends the request; nil means http.DefaultClient.
	HTTPClient *http.Client
	// Header is added to every request (Authorization, say). Content-Type
	// and Accept are the client's own.
	Header http.Header
}

// NewRunRequest is the POST of a run: body, the encoded RunAgentInput,
// asking for the protobuf transport when proto is set. inject, when not
// nil, writes the trace context into the header first, so a header of the
// endpoint's own may override it.
func (e Endpoint) NewRunRequest(ctx context.Context, body []byte, proto bool, inject func(context.Context, http.Header)) (*http.Request, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, e.URL, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	if inject != nil {
		inject(ctx, req.Header)
	}
	e.addHeader(req)
	req.Header.Set("Content-Type", "application/json")
	if proto {
		req.Header.Set("Accept", AcceptProto)
	} else {
		req.Header.Set("Accept", AcceptSSE)
	}
	return req, nil
}

// NewResumeRequest is the GET of a resumable run's events (a handler
// with resumable runs answers it): after the event lastEventID names, when
// it is not "", else the run that query names (threadId, runId) from its
// start, as a joiner gets it. Resumes are SSE only.
func (e Endpoint) NewResumeRequest(ctx context.Context, lastEventID string, query url.Values) (*http.Request, error) {
	u := e.URL
	if len(query) > 0 {
		sep := "?"
		if strings.Contains(u, "?") {
			sep = "&"
		}
		u += sep + query.Encode()
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, err
	}
	e.addHeader(req)
	req.Header.Set("Accept", MediaTypeSSE)
	if lastEventID != "" {
		req.Header.Set("Last-Event-ID", lastEventID)
	}
	return req, nil
}

// addHeader copies the endpoint's header into req's, each value a copy, so
// the request cannot change the client's.
func (e Endpoint) addHeader(req *http.Request) {
	for k, vs := range e.Header {
		req.Header[k] = slices.Clone(vs)
	}
}

func (e Endpoint) client() *http.Client {
	if e.HTTPClient == nil {
		return http.DefaultClient
	}
	return e.HTTPClient
}

// NewJoinRequest returns the request that joins a run in progress on a
// server with resumable runs: GET {URL}?threadId=…&runId=….
func (e Endpoint) NewJoinRequest(ctx context.Context, threadID, runID string) (*http.Request, error) {
	return e.NewResumeRequest(ctx, "", url.Values{"threadId": {threadID}, "runId": {runID}})
}

// Open sends a run's request and returns the response of a 2xx status,
// whose body the caller reads and closes; any other status is an
// *HTTPError, its body read (the start of it) and closed.
func (e Endpoint) Open(req *http.Request) (*http.Response, error) {
	resp, err := e.client().Do(req)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		defer resp.Body.Close()
		return nil, refusal(resp)
	}
	return resp, nil
}

func refusal(resp *http.Response) *HTTPError {
	body, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
	return &HTTPError{StatusCode: resp.StatusCode, Body: body, Header: resp.Header}
}

// MaxControlAnswer bounds what a client reads of the answer to a
// capabilities or cancel request.
const MaxControlAnswer = 1 << 20

// Call makes a request to a route below the agent's URL (CapabilitiesPath,
// CancelPath) with a JSON body, or none when body is nil, and returns the
// body of a 2xx answer, which must be at most limit bytes long.
func (e Endpoint) Call(ctx context.Context, method, route string, body []byte, limit int64) ([]byte, error) {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, strings.TrimSuffix(e.URL, "/")+route, rd)
	if err != nil {
		return nil, err
	}
	e.addHeader(req)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Accept", "application/json")
	res, err := e.client().Do(req)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	if res.StatusCode < 200 || res.StatusCode > 299 {
		return nil, refusal(res)
	}
	data, err := io.ReadAll(io.LimitReader(res.Body, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("agui: the answer to %s %s exceeds %d bytes", method, req.URL.Path, limit)
	}
	return data, nil
}

// ErrorType is error.type on the span of a run a client could not
// complete: the HTTP status of a refusal, "truncated", or the error's Go
// type.
func ErrorType(err error) string {
	var he *HTTPError
	if errors.As(err, &he) {
		return strconv.Itoa(he.StatusCode)
	}
	if errors.Is(err, ErrTruncated) {
		return "truncated"
	}
	return fmt.Sprintf("%T", err)
}

// Retry bounds how a client asks again for a stream it lost (a resume, a
// join): Attempts in a row, the first at once, each next after a wait that
// doubles from MinDelay up to MaxDelay.
type Retry struct {
	Attempts           int
	MinDelay, MaxDelay time.Duration
}

// OpenAgain opens the request newRequest makes until one is answered with
// a stream, as long as fewer than r.Attempts tries are counted in *tries,
// which it advances: the first at once, each next after its wait. It stops
// early at a refusal the server would repeat (an *HTTPError of 4xx other
// than 429), and once ctx is done (its cause); otherwise the last try's
// error says why.
func (e Endpoint) OpenAgain(ctx context.Context, r Retry, tries *int, newRequest func(ctx context.Context) (*http.Request, error)) (*http.Response, error) {
	err := fmt.Errorf("%d attempts in a row brought no event", r.Attempts)
	for *tries < r.Attempts {
		if *tries > 0 && !backoff.Sleep(ctx, backoff.Delay(r.MinDelay, r.MaxDelay, *tries-1)) {
			return nil, context.Cause(ctx)
		}
		*tries++
		var req *http.Request
		if req, err = newRequest(ctx); err != nil {
			return nil, err
		}
		var resp *http.Response
		if resp, err = e.Open(req); err == nil {
			return resp, nil
		}
		var he *HTTPError
		if errors.As(err, &he) && he.StatusCode >= 400 && he.StatusCode < 500 && he.StatusCode != http.StatusTooManyRequests {
			return nil, err // the server will not change its answer: say why
		}
		if ctx.Err() != nil {
			return nil, context.Cause(ctx)
		}
	}
	return nil, err
}
