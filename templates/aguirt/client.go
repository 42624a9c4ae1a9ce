package aguirt

import (
	"context"
	"errors"
	"fmt"
	"io"
	"iter"
	"net/http"
	"time"

	"go.opentelemetry.io/otel/trace"

	agui "github.com/agui-gen/agui-gen/gen/agui"
	"github.com/agui-gen/agui-gen/runtime/aguihttp"
	"github.com/agui-gen/agui-gen/runtime/aguitel"
	"github.com/agui-gen/agui-gen/runtime/sse"
)

// Client runs an AG-UI agent over HTTP: it POSTs a RunAgentInput and reads
// the event stream of the response, checking it as a consumer must. META
// events arrive as META whether the server sent them so or carried in a
// CUSTOM event.
//
// Each event is decoded leniently (DecodeEventLenient: an unknown event
// type is dropped, undeclared members and unrecognised union members are
// stripped, each with a warning; a malformed known field fails the
// stream), checked by a Verifier (a violation fails the stream), and
// applied to a Conversation, which holds the messages and state. Events
// are delivered as they arrived (chunks are not expanded into start,
// content and end events).
//
// A Client is safe for concurrent use; each Run has its own stream.
type Client struct {
	// URL is the agent's endpoint.
	URL string
	// HTTPClient sends the request; nil means http.DefaultClient.
	HTTPClient *http.Client
	// Header is added to every request (Authorization, say). Content-Type
	// and Accept are the client's own.
	Header http.Header
	// OnWarning, when set, is called with each warning as it happens, in
	// addition to its being recorded on the RunStream.
	OnWarning func(msg string)
	// Protobuf asks for the protobuf transport, with SSE as the fallback a
	// server without it answers with; the response's Content-Type decides
	// which is read.
	Protobuf bool
	// Telemetry is where the client's traces go; nil for OpenTelemetry's
	// global providers. A run is a span agui.run of kind CLIENT, from the
	// request to the stream's end, whose trace context the request carries
	// (traceparent).
	Telemetry *agui.Telemetry
	// Resume is how a cut stream of a resumable run is resumed: when the
	// stream carried event ids (a server with WithResumableRuns sends
	// them) and ends before its run did, the client asks for the events
	// after the last id it received (GET with Last-Event-ID), and the
	// caller reads on as if nothing happened. A stream cut before its
	// first event is resumed from the id the response's header
	// AG-UI-Resume-ID gave (ResumeIDHeader), and a run whose response was
	// lost before its header is joined (Join), its stream beginning with
	// the run so far. The zero value resumes with the defaults.
	Resume ResumePolicy
}

// ResumePolicy bounds how a Client resumes cut streams.
type ResumePolicy struct {
	// Off turns resuming off: a cut stream fails, as it does on a server
	// without resumable runs.
	Off bool
	// Attempts is how many times in a row a cut stream is resumed with no
	// event received in between before it fails (0: 8).
	Attempts int
	// MinDelay is the wait before the second attempt in a row (the first
	// goes at once), doubled for each later one up to MaxDelay (0: 100
	// ms, 2 s).
	MinDelay, MaxDelay time.Duration
}

// retry is how the client asks again for a stream.
func (p ResumePolicy) retry() aguihttp.Retry {
	return aguihttp.Retry{Attempts: p.Attempts, MinDelay: p.MinDelay, MaxDelay: p.MaxDelay}
}

func (p ResumePolicy) withDefaults() ResumePolicy {
	if p.Attempts <= 0 {
		p.Attempts = 8
	}
	if p.MinDelay <= 0 {
		p.MinDelay = 100 * time.Millisecond
	}
	if p.MaxDelay <= 0 {
		p.MaxDelay = 2 * time.Second
	}
	return p
}

// endpoint is where c's requests go.
func (c *Client) endpoint() aguihttp.Endpoint {
	return aguihttp.Endpoint{URL: c.URL, HTTPClient: c.HTTPClient, Header: c.Header}
}

// Run starts a run: it validates input, sends it, and returns the stream of
// the response once its status is known. A status other than 2xx is an
// *HTTPError. input is not modified; when its ProtocolVersion is nil the
// request declares this package's (agui.ProtocolVersion). The stream's
// conversation starts from input's messages and state.
//
// ctx governs the whole run, reading the stream included.
func (c *Client) Run(ctx context.Context, input *agui.RunAgentInput) (*RunStream, error) {
	if input == nil {
		return nil, errors.New("agui: Run needs a RunAgentInput")
	}
	in := *input
	if in.ProtocolVersion == nil {
		v := agui.ProtocolVersion
		in.ProtocolVersion = &v
	}
	if err := in.Validate(); err != nil {
		return nil, fmt.Errorf("agui: invalid RunAgentInput: %w", err)
	}
	ctx, span := aguitel.StartClientRun(ctx, c.Telemetry, in.ThreadID, in.RunID)
	ep := c.endpoint()
	req, err := ep.NewRunRequest(ctx, in.AppendJSON(nil), c.Protobuf, c.Telemetry.Inject)
	if err != nil {
		aguitel.EndClientRun(span, err)
		return nil, err
	}
	resp, err := ep.Open(req)
	if err != nil {
		if rs := c.rejoin(ctx, in.ThreadID, in.RunID, err, span); rs != nil {
			return rs, nil
		}
		aguitel.EndClientRun(span, err)
		return nil, err
	}
	return c.newRunStream(ctx, resp, input.Messages, input.State, span)
}

// rejoin joins the run of a request whose response was lost before its
// header (lost is why): the run may have started all the same, and a
// server with resumable runs answers the join with what it has done so
// far, then the rest. It returns nil when the server answered the request,
// when it has no such run (the run never started), or when joining fails
// as often as the resume policy allows.
func (c *Client) rejoin(ctx context.Context, threadID, runID string, lost error, span trace.Span) *RunStream {
	var answered *aguihttp.HTTPError
	policy := c.Resume.withDefaults()
	if policy.Off || errors.As(lost, &answered) || ctx.Err() != nil {
		return nil
	}
	ep, tries := c.endpoint(), 0
	resp, err := ep.OpenAgain(ctx, policy.retry(), &tries, func(ctx context.Context) (*http.Request, error) {
		return ep.NewJoinRequest(ctx, threadID, runID)
	})
	if err != nil {
		return nil // no such run (the request never started one), or none to be had
	}
	rs, _ := c.newRunStream(ctx, resp, nil, nil, span) // nil for a body that is no stream
	return rs
}

// newRunStream reads resp, a run's events, whose conversation starts from
// messages and state.
func (c *Client) newRunStream(ctx context.Context, resp *http.Response, messages []agui.Message, state agui.State, span trace.Span) (*RunStream, error) {
	s := &RunStream{body: resp.Body, header: resp.Header, verifier: NewVerifier(), onWarning: c.OnWarning, span: span,
		ctx: ctx, ep: c.endpoint(), policy: c.Resume.withDefaults()}
	msgs := make([]agui.Message, len(messages))
	for i, m := range messages {
		msgs[i] = cloneMessage(m)
	}
	s.conv = NewConversation(msgs, cloneRaw(state))
	s.conv.OnWarning = s.warn
	s.verifier.seedOwners(messages)
	src, err := newEventSource(resp.Header.Get("Content-Type"), resp.Body, s.warn)
	if err != nil {
		resp.Body.Close()
		aguitel.EndClientRun(span, err)
		return nil, err
	}
	if src, ok := src.(*sseSource); ok {
		// A resumable run's start (an id before its first event): a stream
		// cut before its first event resumes from there.
		src.lastID = resp.Header.Get(aguihttp.ResumeIDHeader)
		s.startID = src.lastID
	}
	s.src = src
	return s, nil
}

// Join reads a run in progress on a server with resumable runs
// (WithResumableRuns) that this client did not start, or whose stream it
// lost with no event id: another tab, another device. The stream begins
// with the run so far (RUN_STARTED, MESSAGES_SNAPSHOT, STATE_SNAPSHOT, a
// start for each thing still open), then goes on live, resumed when cut as
// Run's is. A run the server does not have, or another caller's, is an
// *HTTPError with status 404.
func (c *Client) Join(ctx context.Context, threadID, runID string) (*RunStream, error) {
	ctx, span := aguitel.StartClientRun(ctx, c.Telemetry, threadID, runID)
	ep := c.endpoint()
	req, err := ep.NewJoinRequest(ctx, threadID, runID)
	var resp *http.Response
	if err == nil {
		resp, err = ep.Open(req)
	}
	if err != nil {
		aguitel.EndClientRun(span, err)
		return nil, err
	}
	return c.newRunStream(ctx, resp, nil, nil, span)
}

// lastID is the id of the last event a source read with one, "" when it
// has read none (the protobuf transport has no ids).
func lastID(src eventSource) string {
	if s, ok := src.(*sseSource); ok {
		return s.lastID
	}
	return ""
}

// resume replaces a cut stream's body with the events after its last id,
// trying again with backoff, and reports whether it did. err is not nil
// when it tried and failed: the stream's error, saying why. cut is why the
// stream ended.
func (s *RunStream) resume(cut error) (resumed bool, err error) {
	id := lastID(s.src)
	// In a run, after an event with an id; before it, from the run's start.
	inRun := s.verifier.phase == phaseActive && id != s.startID
	beforeRun := s.verifier.phase == phaseNone && id == s.startID
	if s.policy.Off || id == "" || !inRun && !beforeRun || s.ctx.Err() != nil {
		return false, nil
	}
	var tooLarge *sse.TooLargeError
	if src, ok := s.src.(*sseSource); !ok || !src.cut || errors.As(cut, &tooLarge) {
		return false, nil // the stream is broken, not cut
	}
	if errors.Is(cut, io.EOF) {
		if runID := s.verifier.Open().RunID; runID != "" {
			cut = fmt.Errorf("%w (run %q)", aguihttp.ErrTruncated, runID)
		} else {
			cut = aguihttp.ErrTruncated
		}
	}
	resp, err := s.ep.OpenAgain(s.ctx, s.policy.retry(), &s.tries, func(ctx context.Context) (*http.Request, error) {
		return s.ep.NewResumeRequest(ctx, id, nil)
	})
	if err == nil {
		s.body.Close()
		s.body = resp.Body
		s.src.release()
		s.src = &sseSource{r: sse.NewReader(resp.Body, aguihttp.MaxFrameBytes), warn: s.warn, lastID: id, n: s.src.(*sseSource).n}
		s.resumes++
		return true, nil
	}
	if s.ctx.Err() != nil {
		return false, fmt.Errorf("%w; not resumed: %w", cut, err)
	}
	if id == s.startID {
		return false, fmt.Errorf("%w; resuming it from its start (%s) failed: %w", cut, id, err)
	}
	return false, fmt.Errorf("%w; resuming it after event %s failed: %w", cut, id, err)
}

// eventSource reads the events of one response body, in wire order; it is
// the seam between a transport's framing and the rest of the client.
type eventSource interface {
	// next returns the next event; a nil event with a nil error for a frame
	// that holds nothing to deliver (an unknown event type, dropped with a
	// warning); io.EOF at the end of the body.
	next() (agui.Event, error)
	// release gives back what the source borrowed for reading (the SSE
	// reader's pooled buffer) once the stream is done with it; the events
	// it returned own their bytes and stay valid.
	release()
}

// newEventSource picks the reader for a response's Content-Type: the
// protobuf transport for MediaTypeProto (parameters and case aside), SSE for
// anything else.
func newEventSource(contentType string, body io.Reader, warn func(string)) (eventSource, error) {
	if aguihttp.IsProto(contentType) {
		return &protoSource{r: aguihttp.NewFrameReader(body), warn: warn}, nil
	}
	return &sseSource{r: sse.NewReader(body, aguihttp.MaxFrameBytes), warn: warn}, nil
}

// sseSource is the SSE transport: one JSON event per SSE event.
type sseSource struct {
	r      *sse.Reader
	warn   func(string)
	n      int    // events read
	lastID string // the id of the last event that had one
	cut    bool   // reading the body failed, or it ended
}

func (s *sseSource) release() { s.r.Close() }

func (s *sseSource) next() (agui.Event, error) {
	frame, err := s.r.Next()
	if err != nil {
		s.cut = true
		return nil, err
	}
	if frame.ID != "" {
		s.lastID = frame.ID
	}
	s.n++
	ev, err := DecodeEventLenient(frame.Data, s.warn)
	if err != nil {
		return nil, fmt.Errorf("agui: SSE event %d is malformed: %w", s.n-1, err)
	}
	return ev, nil
}

// RunStream is the response to one Run: the events, as they arrive, and
// what they have built so far. It is not safe for concurrent use; read it
// from one goroutine, and call Messages, State and the rest between reads
// or after the last.
type RunStream struct {
	body      io.ReadCloser
	header    http.Header
	src       eventSource
	verifier  *Verifier
	conv      *Conversation
	onWarning func(string)
	warnings  []string
	runErr    *agui.RunErrorEvent
	err       error // io.EOF after a clean end
	span      trace.Span

	// For resumes: the run's context and endpoint, and how many resumes
	// were tried since the last event.
	ctx     context.Context
	ep      aguihttp.Endpoint
	policy  ResumePolicy
	tries   int
	resumes int
	startID string // the id before the run's first event (aguihttp.ResumeIDHeader), "" when none
}

func (s *RunStream) warn(msg string) {
	s.warnings = append(s.warnings, msg)
	if s.onWarning != nil {
		s.onWarning(msg)
	}
}

// Next returns the next event, after checking it and applying it to the
// conversation. At the end of a stream whose runs all ended it returns
// io.EOF; every other error is final too, and the body is closed: a
// transport failure, a malformed event (*agui.Error), a sequence violation
// (*SequenceError), an error wrapping ErrTruncated. A RUN_ERROR event is
// not an error: it is delivered like any other, and RunError reports it.
func (s *RunStream) Next() (agui.Event, error) {
	for s.err == nil {
		ev, err := s.src.next()
		if err != nil {
			if resumed, rerr := s.resume(err); resumed {
				continue
			} else if rerr != nil {
				s.finish(rerr)
				break
			}
		}
		if errors.Is(err, io.EOF) {
			if s.verifier.phase == phaseNone || s.verifier.phase == phaseActive {
				o := s.verifier.Open()
				if o.RunID != "" {
					err = fmt.Errorf("%w (run %q)", aguihttp.ErrTruncated, o.RunID)
				} else {
					err = aguihttp.ErrTruncated
				}
			}
			s.finish(err)
			break
		}
		if err != nil {
			s.finish(err)
			break
		}
		s.tries = 0
		if ev == nil {
			continue
		}
		if c, ok := ev.(*agui.CustomEvent); ok {
			// META carried for clients without it is META here.
			if m, isMeta, err := MetaFromCustom(c); isMeta && err == nil {
				ev = m
			} else if isMeta {
				s.warn("dropped a CUSTOM meta event that carries no valid META event: " + err.Error())
				continue
			}
		}
		if err := s.verifier.Check(ev); err != nil {
			s.finish(err)
			break
		}
		switch e := ev.(type) {
		case *agui.RunStartedEvent:
			s.checkVersion(e.ProtocolVersion)
		case *agui.RunErrorEvent:
			s.runErr = e
		}
		if err := s.conv.Apply(ev); err != nil {
			s.finish(err)
			break
		}
		return ev, nil
	}
	return nil, s.err
}

func (s *RunStream) finish(err error) {
	if err == nil {
		err = io.EOF
	}
	s.err = err
	s.body.Close()
	// Next's goroutine finishes a stream, so the source is not being read:
	// its buffer can go to the next stream. Close, which another goroutine
	// may call while Next reads, leaves it to the collector.
	s.src.release()
	aguitel.EndClientRun(s.span, err)
}

// checkVersion judges the producer's declared protocol version (see
// aguihttp.ProducerVersionWarning). An absent declaration (a producer from
// before versions) passes.
func (s *RunStream) checkVersion(v *string) {
	if v == nil {
		return
	}
	if msg := aguihttp.ProducerVersionWarning(*v, agui.ProtocolVersion); msg != "" {
		s.warn(msg)
	}
}

// Events returns an iterator over the rest of the stream: each event with
// a nil error, then, if the stream failed, one nil event with the error.
// The clean end of the stream ends the iteration without an error.
func (s *RunStream) Events() iter.Seq2[agui.Event, error] {
	return func(yield func(agui.Event, error) bool) {
		for {
			ev, err := s.Next()
			if errors.Is(err, io.EOF) {
				return
			}
			if err != nil {
				yield(nil, err)
				return
			}
			if !yield(ev, nil) {
				return
			}
		}
	}
}

// Wait reads the rest of the stream and returns its error, nil for a
// clean end.
func (s *RunStream) Wait() error {
	for {
		if _, err := s.Next(); err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
	}
}

// Close stops reading and closes the response body. Next then returns an
// error (or the stream's own, if it had already ended).
func (s *RunStream) Close() error {
	if s.err == nil {
		s.err = errors.New("agui: the run stream was closed")
		aguitel.EndClientRun(s.span, nil)
	}
	return s.body.Close()
}

// Messages returns the conversation: the input's messages and what the
// stream has added and changed so far.
func (s *RunStream) Messages() []agui.Message {
	s.conv.Sync()
	return s.conv.Messages
}

// State returns the agent state: the input's, as the stream has changed it
// so far.
func (s *RunStream) State() agui.State { return s.conv.State }

// Conversation returns the Conversation the stream is building.
func (s *RunStream) Conversation() *Conversation {
	s.conv.Sync()
	return s.conv
}

// Warnings returns what the stream carried that was tolerated rather than
// used: events and members dropped or stripped, patches that did not
// apply, a producer speaking another protocol version.
func (s *RunStream) Warnings() []string { return s.warnings }

// RunError returns the last RUN_ERROR event received, or nil. A producer's
// RUN_ERROR is the run reporting its own failure; it does not fail the
// stream, and a later RUN_STARTED may begin another run.
func (s *RunStream) RunError() *agui.RunErrorEvent { return s.runErr }

// Open reports what is open in the current run, as the stream's Verifier
// sees it.
func (s *RunStream) Open() OpenItems { return s.verifier.Open() }

// Resumes reports how many times the stream was resumed after its
// connection was cut (see Client.Resume).
func (s *RunStream) Resumes() int { return s.resumes }

// Header returns the response's header.
func (s *RunStream) Header() http.Header { return s.header }
