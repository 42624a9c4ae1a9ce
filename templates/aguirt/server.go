package aguirt

import (
	"context"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"net"
	"net/http"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	agui "github.com/agui-gen/agui-gen/gen/agui"
	"github.com/agui-gen/agui-gen/runtime/aguihttp"
	"github.com/agui-gen/agui-gen/runtime/aguitel"
	"github.com/agui-gen/agui-gen/runtime/bounds"
	"github.com/agui-gen/agui-gen/runtime/inflight"
	"github.com/agui-gen/agui-gen/runtime/sse"
	"github.com/agui-gen/agui-gen/runtime/threads"
)

// Agent runs one AG-UI run: it reads the input and emits events on the
// stream. The handler wraps what it emits in RUN_STARTED and RUN_FINISHED,
// or RUN_ERROR when Run returns an error or panics. ctx is cancelled when the
// client goes away or a cancel request stops the run; after a cancel the
// run ends at once, and the stream's calls return the cause. Run is called
// on a goroutine of its own and must still return after a cancel: one that
// ignores ctx outlives its request.
type Agent interface {
	Run(ctx context.Context, input *agui.RunAgentInput, stream *Stream) error
}

// AgentFunc adapts a function to Agent.
type AgentFunc func(ctx context.Context, input *agui.RunAgentInput, stream *Stream) error

// Run calls f.
func (f AgentFunc) Run(ctx context.Context, input *agui.RunAgentInput, stream *Stream) error {
	return f(ctx, input, stream)
}

// DefaultMaxBodyBytes is the request body limit unless WithMaxBodyBytes
// says otherwise.
const DefaultMaxBodyBytes = 1 << 20

// handlerConfig is what Options set.
type handlerConfig struct {
	maxBody      int64
	authenticate func(*http.Request) (caller string, err error)
	// namesCallers is set when authenticate tells callers apart
	// (WithAuthenticator), which makes threads their owners'.
	namesCallers bool
	keepAlive    time.Duration
	logger       *slog.Logger
	capabilities *agui.AgentCapabilities
	checkpoints  threads.Checkpoints[agui.Interrupt]
	meta         MetaStore
	metaReplay   bool
	nativeMeta   bool
	maxMetaBatch int
	owners       threads.Owners
	threadAccess threads.Access
	writeTimeout time.Duration
	maxStreams   int
	telemetry    *agui.Telemetry
	agentName    string
	cors         *CORS
	// resumable, when set, logs runs and lets clients resume them
	// (WithResumableRuns).
	resumable *resumable
}

// Option configures NewHandler.
type Option func(*handlerConfig)

// WithMaxBodyBytes limits the request body (default 1 MiB); a larger body
// gets 413.
func WithMaxBodyBytes(n int64) Option { return func(c *handlerConfig) { c.maxBody = n } }

// WithBearerToken requires "Authorization: Bearer <token>" (the scheme in
// any case, as RFC 9110 has it), the token compared in constant time;
// anything else gets 401.
func WithBearerToken(token string) Option {
	want := []byte(token)
	return WithAuthorizer(func(r *http.Request) error {
		scheme, got, _ := strings.Cut(r.Header.Get("Authorization"), " ")
		if !strings.EqualFold(scheme, "Bearer") || subtle.ConstantTimeCompare([]byte(strings.TrimLeft(got, " ")), want) != 1 {
			return errors.New("missing or wrong bearer token")
		}
		return nil
	})
}

// WithAuthorizer runs authorize before the body is read; an error gets 401
// with the error's text. Every caller it admits is the same caller to
// the handler: any of them may use any thread and cancel any run, and no
// thread has an owner (see WithAuthenticator).
func WithAuthorizer(authorize func(*http.Request) error) Option {
	return func(c *handlerConfig) {
		c.authenticate, c.namesCallers = nil, false
		if authorize != nil {
			c.authenticate = func(r *http.Request) (string, error) { return "", authorize(r) }
		}
	}
}

// WithAuthenticator runs authenticate before the body is read: an error
// gets 401 with the error's text; otherwise it names the caller (a user
// id, say). A thread is the caller's who first runs on it, and a run its
// caller's: the agent finds the caller in CallerFrom(ctx), and another
// caller is answered as if neither existed (see ThreadOwners and
// WithThreadAccess). It replaces WithAuthorizer and WithBearerToken.
func WithAuthenticator(authenticate func(*http.Request) (caller string, err error)) Option {
	return func(c *handlerConfig) { c.authenticate, c.namesCallers = authenticate, authenticate != nil }
}

// WithKeepAlive sends an SSE comment when no event has been written for
// interval, so proxies keep an idle connection open. Off by default.
func WithKeepAlive(interval time.Duration) Option {
	return func(c *handlerConfig) { c.keepAlive = interval }
}

// WithLogger logs rejected requests, dropped input members and agent panics
// to logger (default: slog.Default()).
func WithLogger(logger *slog.Logger) Option { return func(c *handlerConfig) { c.logger = logger } }

// NewHandler serves agent at any path: POST a RunAgentInput as JSON, get the
// run's events back as Server-Sent Events, or as length-prefixed protobuf
// frames when the request's Accept header names
// application/vnd.ag-ui.event+proto and prefers it to SSE and the input
// declares a protocolVersion (a wildcard alone gets SSE, which curl and
// browsers read, and so does a client from before 1.0). A client of an
// earlier version the package was generated for (EarlierVersions) gets its
// run's events in its own version (DowngradeEvent). Below the path it serves GET
// …/capabilities (see CapabilitiesProvider) and POST …/cancel (see
// CancelRequest); mount it at both "/agent" and "/agent/".
//
// Requests are checked before the stream starts: POST only (405), JSON only
// (415), a size limit (413), authorization when configured (401), room
// under the cap on runs in progress (503, WithMaxStreams), a RunAgentInput
// that decodes and validates (400, with a JSON body naming the offending
// path), with WithAuthenticator a thread that is the caller's or no one's
// yet (404, as for any thread the caller cannot see), a run id not already
// in progress on its thread (409), and, with WithCheckpoints, a resume
// that answers every open interrupt of the thread, made while no other run
// of the thread is in progress (409). After that every failure is a
// RUN_ERROR event.
//
// Pages of other origins may call it once WithCORS names theirs.
func NewHandler(agent Agent, opts ...Option) http.Handler {
	h := newHandler(agent, opts)
	return h.cfg.cors.Handler(h, h.cfg.logger, "agui", []string{http.MethodGet, http.MethodHead, http.MethodPost}, aguihttp.CORSHeaders, aguihttp.CORSExposed)
}

func newHandler(agent Agent, opts []Option) *handler {
	cfg := handlerConfig{maxBody: DefaultMaxBodyBytes, logger: slog.Default(), writeTimeout: DefaultWriteTimeout, maxStreams: DefaultMaxStreams}
	for _, o := range opts {
		o(&cfg)
	}
	if cfg.capabilities != nil {
		// Said once here; GET …/capabilities then answers 500.
		if err := cfg.capabilities.Validate(); err != nil {
			cfg.logger.LogAttrs(context.Background(), slog.LevelError, "agui: WithCapabilities: the declaration is invalid", slog.String("error", err.Error()))
		}
	}
	h := &handler{agent: agent, cfg: cfg, obs: aguitel.NewObserver(cfg.telemetry, cfg.agentName), streams: bounds.NewStreams(cfg.maxStreams)}
	if cfg.namesCallers {
		if h.owners = cfg.storedOwners(); h.owners == nil {
			h.owners = threads.NewMemoryOwners()
		}
	}
	return h
}

type handler struct {
	agent Agent
	cfg   handlerConfig
	runs  inflight.Registry
	// owners holds who owns each thread, when callers are authenticated.
	owners threads.Owners
	// streams counts the runs in progress, against WithMaxStreams.
	streams *bounds.Streams
	obs     *aguitel.Observer
}

// requestError is the JSON body of a rejected request.
type requestError struct {
	Error struct {
		Message string `json:"message"`
		Path    string `json:"path,omitempty"`
		Rule    string `json:"rule,omitempty"`
	} `json:"error"`
}

func (h *handler) reject(w http.ResponseWriter, r *http.Request, status int, msg string, cause *agui.Error) {
	var body requestError
	body.Error.Message = msg
	if cause != nil {
		body.Error.Path, body.Error.Rule = cause.Path, cause.Rule
	}
	h.cfg.logger.LogAttrs(r.Context(), slog.LevelInfo, "agui: request rejected",
		slog.Int("status", status), slog.String("reason", msg), slog.String("remote", r.RemoteAddr))
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(body)
}

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	route, allow := "", []string{http.MethodPost}
	switch {
	case strings.HasSuffix(r.URL.Path, aguihttp.CapabilitiesPath):
		route, allow = aguihttp.CapabilitiesPath, []string{http.MethodGet, http.MethodHead}
	case strings.HasSuffix(r.URL.Path, aguihttp.CancelPath):
		route = aguihttp.CancelPath
	case strings.HasSuffix(r.URL.Path, MetaPath):
		route, allow = MetaPath, []string{http.MethodGet, http.MethodHead, http.MethodPost}
	case h.cfg.resumable != nil:
		allow = []string{http.MethodPost, http.MethodGet} // GET: a resume or a join
	}
	if !slices.Contains(allow, r.Method) {
		w.Header().Set("Allow", strings.Join(allow, ", "))
		h.reject(w, r, http.StatusMethodNotAllowed, "use "+strings.Join(allow, " or ")+" here", nil)
		return
	}
	if h.cfg.authenticate != nil {
		caller, err := h.cfg.authenticate(r)
		if err != nil {
			w.Header().Set("WWW-Authenticate", `Bearer realm="agui"`)
			h.reject(w, r, http.StatusUnauthorized, err.Error(), nil)
			return
		}
		r = r.WithContext(threads.ContextWithCaller(r.Context(), caller))
	}
	switch route {
	case aguihttp.CapabilitiesPath:
		h.serveCapabilities(w, r)
		return
	case aguihttp.CancelPath:
		h.serveCancel(w, r)
		return
	case MetaPath:
		h.serveMeta(w, r)
		return
	}
	if r.Method == http.MethodGet {
		h.serveResume(w, r)
		return
	}
	if !h.streams.Acquire() {
		h.rejectBusy(w, r) // before the body is read: nothing is buffered for it
		return
	}
	// A resumable run, once started, holds its slot, its registration and
	// its context until it ends, past this request.
	handedOver := false
	defer func() {
		if !handedOver {
			h.streams.Release()
		}
	}()
	body, ok := h.readJSONBody(w, r)
	if !ok {
		return
	}
	input := new(agui.RunAgentInput)
	dec := agui.Decoder{OnUnknown: func(path string) {
		h.cfg.logger.LogAttrs(r.Context(), slog.LevelWarn, "agui: dropped an undeclared input member", slog.String("path", path))
	}}
	if err := dec.Decode(body, input); err != nil {
		h.rejectInvalid(w, r, err)
		return
	}
	if err := input.Validate(); err != nil {
		h.rejectInvalid(w, r, err)
		return
	}
	if h.owners != nil || h.cfg.checkpoints != nil {
		// The thread id is a key of the stores: one they cannot keep is
		// the request's fault, not a 500.
		if err := checkKey("threadId", input.ThreadID); err != nil {
			h.reject(w, r, http.StatusBadRequest, "invalid RunAgentInput: "+err.Error(), &agui.Error{Path: "/threadId", Rule: "key"})
			return
		}
	}
	if err := h.threadAccess(r.Context(), input.ThreadID, true); err != nil {
		h.rejectThread(w, r, err)
		return
	}
	parent := r.Context()
	if h.cfg.resumable != nil {
		parent = context.WithoutCancel(parent) // the run outlives its client
	}
	ctx, cancel := context.WithCancelCause(parent)
	defer func() {
		if !handedOver {
			cancel(nil)
		}
	}()
	run := inflight.NewRun(inflight.Key{ThreadID: input.ThreadID, RunID: input.RunID}, threads.CallerFrom(ctx), cancel)
	added, threadBusy := h.runs.Add(run)
	if !added {
		h.reject(w, r, http.StatusConflict, "run "+input.RunID+" of thread "+input.ThreadID+" is already in progress", &agui.Error{Path: "/runId", Rule: "unique"})
		return
	}
	defer func() {
		if !handedOver {
			h.runs.Remove(run.Key)
		}
	}()
	if h.cfg.checkpoints != nil {
		var err error
		if run.Resumes, err = h.checkResume(r.Context(), input); err != nil {
			var re *resumeError
			if errors.As(err, &re) {
				h.reject(w, r, http.StatusConflict, err.Error(), &agui.Error{Path: "/resume", Rule: "resume"})
				return
			}
			h.reject(w, r, http.StatusInternalServerError, "the thread's interrupts could not be read", nil)
			return
		}
		// Registered before the read, so of two runs answering the same
		// interrupts at once, the later one sees the earlier here.
		if run.Resumes && threadBusy {
			h.reject(w, r, http.StatusConflict, "another run of thread "+input.ThreadID+" is in progress; resume it once that run has ended", &agui.Error{Path: "/resume", Rule: "resume"})
			return
		}
	}
	if h.cfg.resumable != nil {
		handedOver = h.startResumable(w, r, ctx, cancel, input, run)
		return
	}
	h.serveRun(w, r, ctx, input, run)
}

func (h *handler) rejectInvalid(w http.ResponseWriter, r *http.Request, err error) {
	var e *agui.Error
	errors.As(err, &e)
	h.reject(w, r, http.StatusBadRequest, "invalid RunAgentInput: "+err.Error(), e)
}

// serveRun streams one run, the agent running with agentCtx, as protobuf
// frames when the Accept header asks for them and the client's version has
// the ledger's protobuf schema, and as SSE otherwise: never a 406, since a
// producer must fall back to SSE. run is the run's
// registration, for cancels and checkpoints; nil for ServeRun.
func (h *handler) serveRun(w http.ResponseWriter, r *http.Request, agentCtx context.Context, input *agui.RunAgentInput, run *inflight.Run) {
	ctx, tel := h.obs.StartRun(r.Context(), r.Header, input.ThreadID, input.RunID, input.ParentRunID)
	defer tel.End() // last: the run's span covers its stream to the end
	agentCtx = aguitel.CarryTrace(agentCtx, ctx)
	// A client that stops reading is cut off once a write has waited for
	// it for the write timeout, and the agent's context is cancelled.
	agentCtx, cut := context.WithCancelCause(agentCtx)
	defer cut(nil)
	sink := sse.QueueConfig{WriteTimeout: h.cfg.writeTimeout, OnFail: func(err error) {
		cut(fmt.Errorf("agui: the stream to the client failed: %w", err))
	}}
	var ew eventWriter
	if aguihttp.ProtoTransportFor(input.ProtocolVersion) && aguihttp.PrefersProto(r.Header.Get("Accept")) {
		ew = newProtoWriter(w, sink)
	} else {
		ew = newSSEWriter(w, sink)
	}
	// Closed last: everything queued is written before ServeHTTP returns.
	defer ew.Close()
	sse.SetHeader(w.Header(), ew.ContentType())
	w.WriteHeader(http.StatusOK)
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
	stream := newStream(ctx, ew, input.ThreadID, input.RunID)
	stream.run.tel = tel
	defer stream.detachTelemetry() // before tel.end, whatever the agent left running
	stream.metaAsCustom = !h.cfg.nativeMeta
	if v := aguihttp.StreamVersion(input.ProtocolVersion, agui.EarlierVersions(), protocolVersion); v != "" {
		stream.run.down = newDowngrader(ctx, h.cfg.logger, v)
	}
	if run != nil && h.cfg.checkpoints != nil {
		stream.run.onEnd = func(open []agui.Interrupt) {
			h.saveCheckpoint(ctx, input.ThreadID, run.Resumes, open)
			h.runs.Leave(run.Key)
		}
	}
	var stopped <-chan struct{}
	if run != nil {
		stopped = run.Stopped()
	}
	// The agent runs on its own goroutine, after the run's first events,
	// so that a cancel ends the run at once, whether or not the agent heeds
	// its context; this goroutine writes what it queues, and keeps an idle
	// stream alive: a stream holds no other goroutine.
	done, started := make(chan error, 1), make(chan struct{})
	go func() {
		if err := stream.start(input); err != nil {
			done <- &startError{err}
			return
		}
		if h.cfg.metaReplay && h.cfg.meta != nil {
			h.replayMeta(ctx, stream, input.ThreadID)
		}
		if run != nil && !h.runs.Attach(run.Key, stopper{stream}) { // from here a cancel stops the stream
			done <- &startError{errRunGone}
			return
		}
		close(started)
		err := runAgent(tel.StartAgent(agentCtx, input.ThreadID), h.cfg.logger, h.agent, input, stream)
		tel.EndAgent(err, errorCode(err))
		done <- err
	}()
	var keepAlive <-chan time.Time
	if h.cfg.keepAlive > 0 {
		t := time.NewTicker(h.cfg.keepAlive)
		defer t.Stop()
		keepAlive = t.C
	}
	var err error
	cancelled := false
serve:
	for !cancelled || started != nil {
		select {
		case <-ew.Queued():
			if ew.Flush() != nil {
				// Nothing more reaches the client: the run ends without waiting
				// for an agent that may not heed its cancelled context.
				break serve
			}
		case <-keepAlive:
			ew.KeepAlive(h.cfg.keepAlive)
		case <-started:
			started = nil
		case err = <-done:
			break serve
		case <-stopped:
			// A cancel ends the run once its first events are out (a cancel
			// that came before them stops the stream when it is attached).
			cancelled, stopped = true, nil
		}
	}
	var start *startError
	if errors.As(err, &start) {
		h.cfg.logger.LogAttrs(ctx, slog.LevelWarn, "agui: could not start the run", slog.String("error", start.err.Error()))
		return
	}
	// The run's end is queued by this goroutine, the only one that writes:
	// from here nothing waits for room in the queue (the handler writes it
	// all when it returns), and the agent's calls, and those of goroutines it
	// left behind, return at once.
	ew.Drain()
	stream.stop(ErrRunOver)
	if run != nil && h.runs.End(run.Key) {
		// Whatever the agent returned, the run was cancelled, and the
		// client is still there to be told.
		stream.MarkCancelled()
		err = nil
	}
	endRun(ctx, h.cfg.logger, stream, err)
}

// errRunGone is why a run whose handler ended it before it streamed does
// not start its agent.
var errRunGone = errors.New("agui: the run ended before it started")

// startError is a run that could not send its first events.
type startError struct{ err error }

func (e *startError) Error() string { return e.err.Error() }

// endRun ends a run once its agent has returned (or a cancel stopped it):
// RUN_ERROR for err, else
// RUN_FINISHED with what is still open closed first, or RUN_ERROR when that
// cannot go out. Once ctx is done nothing is sent, since there is no one to
// tell, but the run still settles what it leaves open.
func endRun(ctx context.Context, logger *slog.Logger, stream *Stream, err error) {
	code := errorCode(err)
	if err == nil {
		ferr := stream.finish()
		if ferr == nil || errors.Is(ferr, ErrRunOver) {
			return
		}
		err, code = fmt.Errorf("the run could not be finished: %w", ferr), "finish_failed"
	}
	if ferr := stream.fail(err.Error(), code); ferr != nil && ctx.Err() == nil && !errors.Is(ferr, ErrRunOver) {
		logger.LogAttrs(ctx, slog.LevelWarn, "agui: could not report the run's error", slog.String("error", ferr.Error()))
	}
}

// runAgent calls the agent, turning a panic into an error.
func runAgent(ctx context.Context, logger *slog.Logger, agent Agent, input *agui.RunAgentInput, stream *Stream) (err error) {
	defer func() {
		if p := recover(); p != nil {
			logger.LogAttrs(ctx, slog.LevelError, "agui: agent panicked",
				slog.Any("panic", p), slog.String("stack", string(debug.Stack())))
			err = &RunError{Message: "the agent failed unexpectedly", Code: "internal_error"}
		}
	}()
	return agent.Run(ctx, input, stream)
}

// ServeRun serves one run of agent on input as NewHandler does once it has
// read and validated a request: for handlers that build the input
// themselves. Of opts, only WithKeepAlive, WithWriteTimeout and WithLogger
// apply.
func ServeRun(w http.ResponseWriter, r *http.Request, agent Agent, input *agui.RunAgentInput, opts ...Option) {
	newHandler(agent, opts).serveRun(w, r, r.Context(), input, nil)
}

// Invoke runs agent on input in this process and passes each event of the
// run to emit, as a handler would send it: RUN_STARTED, what the agent
// emits (checked by the sequence verifier), then RUN_FINISHED, or RUN_ERROR
// when the agent fails. emit is called with the stream locked, so it must
// not call back into the stream. An error from emit cancels the run and is
// returned; so is the agent's own error.
//
// When ctx names a caller (ContextWithCaller) and opts keep thread owners
// (WithThreadOwners, or WithCheckpoints or WithMetaStore with a store that
// is also ThreadOwners), the run's thread is held to that caller as a handler
// holds it: a thread another caller owns is ErrThreadNotFound, and nothing
// runs.
func Invoke(ctx context.Context, agent Agent, input *agui.RunAgentInput, emit func(agui.Event) error, opts ...Option) error {
	h := newHandler(agent, opts)
	// Only a store outlives this one run: memory of its own would hold
	// nothing to anyone.
	h.owners = h.cfg.storedOwners()
	if err := h.threadAccess(ctx, input.ThreadID, true); err != nil {
		return err
	}
	cfg := h.cfg
	ctx, tel := h.obs.StartRun(ctx, nil, input.ThreadID, input.RunID, input.ParentRunID)
	defer tel.End()
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	w := &funcWriter{emit: emit, cancel: cancel}
	stream := newStream(ctx, w, input.ThreadID, input.RunID)
	stream.run.tel = tel
	defer stream.detachTelemetry()
	if err := stream.start(input); err != nil {
		return err
	}
	err := runAgent(tel.StartAgent(ctx, input.ThreadID), cfg.logger, agent, input, stream)
	tel.EndAgent(err, errorCode(err))
	endRun(ctx, cfg.logger, stream, err)
	if cause := context.Cause(ctx); cause != nil && w.failed {
		return cause
	}
	return err
}

// funcWriter is the eventSink of Invoke: it hands events to a function.
type funcWriter struct {
	emit   func(agui.Event) error
	cancel context.CancelCauseFunc
	failed bool
}

func (w *funcWriter) WriteEvent(_ context.Context, ev agui.Event) error {
	if err := w.emit(ev); err != nil {
		w.failed = true
		w.cancel(err)
		return err
	}
	return nil
}

// RunError is an error an agent returns to end its run with RUN_ERROR
// carrying a code as well as a message.
type RunError struct {
	Message string
	Code    string
}

func (e *RunError) Error() string { return e.Message }

func errorCode(err error) string {
	var re *RunError
	if errors.As(err, &re) {
		return re.Code
	}
	return ""
}

// stopper is a run's stream as the cancel registry stops it; a struct of
// one pointer, so passing it as an interface allocates nothing.
type stopper struct{ s *Stream }

func (s stopper) Stop(err error) { s.s.stop(err) }

// Listen returns a listener on addr. An address without a host, such as
// ":8080", binds 127.0.0.1 only: serving every interface is something to ask
// for ("0.0.0.0:8080"), not a default.
func Listen(addr string) (net.Listener, error) {
	if strings.HasPrefix(addr, ":") {
		addr = "127.0.0.1" + addr
	}
	return net.Listen("tcp", addr)
}

// readJSONBody reads a request's JSON body, bounded by the handler's limit;
// when it cannot, it answers the request (415, 413 or 400) and ok is false.
func (h *handler) readJSONBody(w http.ResponseWriter, r *http.Request) (body []byte, ok bool) {
	if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "application/json" {
		h.reject(w, r, http.StatusUnsupportedMediaType, "the body must be application/json", nil)
		return nil, false
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, h.cfg.maxBody))
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			h.reject(w, r, http.StatusRequestEntityTooLarge, fmt.Sprintf("the body exceeds %d bytes", h.cfg.maxBody), nil)
		} else {
			h.reject(w, r, http.StatusBadRequest, "reading the body: "+err.Error(), nil)
		}
		return nil, false
	}
	return body, true
}
