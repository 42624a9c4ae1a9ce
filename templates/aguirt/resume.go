package aguirt

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"mime"
	"net/http"
	"strings"
	"sync"
	"time"

	agui "github.com/agui-gen/agui-gen/gen/agui"
	"github.com/agui-gen/agui-gen/runtime/aguihttp"
	"github.com/agui-gen/agui-gen/runtime/aguitel"
	"github.com/agui-gen/agui-gen/runtime/inflight"
	"github.com/agui-gen/agui-gen/runtime/runlog"
	"github.com/agui-gen/agui-gen/runtime/sse"
	"github.com/agui-gen/agui-gen/runtime/threads"
)

// RunLog keeps the events of resumable runs (WithResumableRuns):
// runlog.NewMemory keeps them in this process.
type RunLog = runlog.Log

// DefaultDetachedTimeout is how long a resumable run goes on with no
// client attached unless DetachedTimeout says otherwise.
const DefaultDetachedTimeout = 5 * time.Minute

// ResumableOption configures WithResumableRuns.
type ResumableOption func(*resumable)

// DetachedTimeout stops a resumable run that no client has been attached
// to for d (default 5 minutes; 0 or less: never): it ends with RUN_ERROR,
// code "detached", which a client that comes back reads from the log.
func DetachedTimeout(d time.Duration) ResumableOption {
	return func(r *resumable) { r.detached = d }
}

// TrackRuns counts the handler's resumable runs in runs, from the request
// that starts one until its log is complete, so that a server's shutdown
// can wait for the runs no client is attached to (Runs.Wait).
func TrackRuns(runs *Runs) ResumableOption {
	return func(r *resumable) { r.tracked = runs }
}

// Runs counts resumable runs in progress (TrackRuns): a run is counted in
// the request that starts it, before that request returns, and until its
// last event is in its log.
type Runs struct {
	wg sync.WaitGroup
}

// Wait waits until no run is counted, or ctx is done (its error then).
// Call it once the HTTP server has shut down (http.Server.Shutdown has
// returned): no request is left to start a run, so none is counted after
// Wait begins.
func (r *Runs) Wait(ctx context.Context) error {
	done := make(chan struct{})
	go func() {
		r.wg.Wait()
		close(done)
	}()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// resumable is the handler's state of resumable runs.
type resumable struct {
	log      runlog.Log
	detached time.Duration
	tracked  *Runs    // nil: not counted
	local    sync.Map // run key → *localRun, of the runs this process runs
}

// WithResumableRuns makes runs outlive their connection: each run's
// events go to log, and its stream reads them from there, so a client whose
// connection drops detaches from the run, which goes on (until
// DetachedTimeout with no one attached; POST {path}/cancel still stops
// it), and gets what it missed from the log when it comes back.
//
// Every SSE event then carries an id, r1.<key>.<position>, key being a
// random name the server gave the run's log: GET {path} with
// Last-Event-ID set to the last id received (Accept: text/event-stream)
// answers with the events after it, then the live rest of the run. The
// response to the POST that starts a run over SSE carries the id before
// its first event, r1.<key>.0, in the header AG-UI-Resume-ID
// (ResumeIDHeader, exposed to pages of other origins): a client cut
// before it read an event resumes with that id and gets the whole run;
// one that has read an event resumes after it. Resumes and joins send no
// such header. GET {path}?threadId=…&runId=… without an id joins the
// run: RUN_STARTED, MESSAGES_SNAPSHOT and STATE_SNAPSHOT of the run so far
// and a start event for each message, reasoning, tool call, step and
// subagent still open, then the live rest. Only the run's caller may read
// it back; to anyone else a run is not found, as one that does not exist.
// The capabilities served (GET {path}/capabilities) declare
// transport.resumable.
//
// The protobuf transport has no event ids, nor a start id: a protobuf run
// is logged and outlives its connection too, but is resumed over SSE
// only, by joining it. A client that ignores ids (any AG-UI client that
// does not resume) sees no difference.
func WithResumableRuns(log RunLog, opts ...ResumableOption) Option {
	return func(c *handlerConfig) {
		if log == nil {
			c.resumable = nil
			return
		}
		r := &resumable{log: log, detached: DefaultDetachedTimeout}
		for _, o := range opts {
			o(r)
		}
		c.resumable = r
	}
}

// errDetached is why a run no one was attached to stopped.
var errDetached = errors.New("agui: no client was attached to the run")

// startResumable starts run, registered already, on its own goroutine,
// its events going to the log, and streams them from there to the
// client, which may go: the run goes on. ctx is the run's (not the
// request's), cancel cancels it. It reports false when it answered the
// request with an error instead; then nothing was started.
func (h *handler) startResumable(w http.ResponseWriter, r *http.Request, ctx context.Context, cancel context.CancelCauseFunc, input *agui.RunAgentInput, run *inflight.Run) bool {
	rs := h.cfg.resumable
	key := runlog.NewKey()
	// On SQL the log is created with the run's first batch (RUN_STARTED
	// and what came with it), which the response waits for.
	writer, err := runlog.CreateWriter(r.Context(), rs.log, runlog.Run{Key: key, ThreadID: input.ThreadID, RunID: input.RunID,
		Owner: threads.CallerFrom(r.Context()), Input: input.AppendJSON(nil)})
	if err != nil {
		h.cfg.logger.LogAttrs(r.Context(), slog.LevelError, "agui: creating the run's log", slog.String("error", err.Error()))
		h.reject(w, r, http.StatusInternalServerError, "the run's log could not be created", nil)
		return false
	}
	runCtx, tel := h.obs.StartRun(context.WithoutCancel(r.Context()), r.Header, input.ThreadID, input.RunID, input.ParentRunID)
	ctx = aguitel.CarryTrace(ctx, runCtx)
	sink := &logSink{w: writer}
	stream := newStream(runCtx, sink, input.ThreadID, input.RunID)
	stream.run.tel = tel
	stream.metaAsCustom = !h.cfg.nativeMeta
	if v := aguihttp.StreamVersion(input.ProtocolVersion, agui.EarlierVersions(), protocolVersion); v != "" {
		stream.run.down = newDowngrader(runCtx, h.cfg.logger, v)
	}
	if h.cfg.checkpoints != nil {
		stream.run.onEnd = func(open []agui.Interrupt) {
			h.saveCheckpoint(runCtx, input.ThreadID, run.Resumes, open)
			h.runs.Leave(run.Key)
		}
	}
	expired := make(chan struct{})
	lease := runlog.NewLease(rs.detached, func() {
		cancel(errDetached) // first: an agent whose stream call fails finds its context done
		stream.stop(errDetached)
		close(expired)
	})
	if rd, ok := rs.log.(runlog.Readers); ok {
		// A client that resumed on another replica keeps the run going.
		lease.AttachedElsewhere(func() bool {
			ctx, cancel := context.WithTimeout(context.WithoutCancel(runCtx), 5*time.Second)
			defer cancel()
			yes, err := rd.HasReader(ctx, key)
			return yes && err == nil
		})
	}
	local := &localRun{lease: lease, log: writer.Log()}
	rs.local.Store(key, local)
	detach := lease.Attach() // the client that starts it, until it goes
	if rs.tracked != nil {
		rs.tracked.wg.Add(1) // in the request: before a shutdown can wait
	}
	go func() {
		if rs.tracked != nil {
			defer rs.tracked.wg.Done() // the last deferred call: after the log's end
		}
		defer h.streams.Release()
		defer h.runs.Remove(run.Key)
		defer cancel(nil)
		defer tel.End()
		defer stream.detachTelemetry()
		defer rs.local.Delete(key)
		defer lease.Close()
		err := h.runDetached(runCtx, ctx, input, run, stream, expired)
		var start *startError
		if errors.As(err, &start) {
			h.cfg.logger.LogAttrs(runCtx, slog.LevelWarn, "agui: could not start the run", slog.String("error", start.err.Error()))
		}
		// Whatever the run's end wrote, its log is complete now (ending it
		// again, when the run's end did, changes nothing).
		if err := writer.End(nil); err != nil {
			h.cfg.logger.LogAttrs(runCtx, slog.LevelError, "agui: ending the run's log", slog.String("error", err.Error()))
		}
	}()
	defer detach()
	if err := writer.Created(r.Context()); err != nil {
		// The run goes on without its log, which fails its events: it ends
		// at once.
		h.cfg.logger.LogAttrs(r.Context(), slog.LevelError, "agui: creating the run's log", slog.String("error", err.Error()))
		h.reject(w, r, http.StatusInternalServerError, "the run's log could not be created", nil)
		return true
	}
	proto := aguihttp.ProtoTransportFor(input.ProtocolVersion) && aguihttp.PrefersProto(r.Header.Get("Accept"))
	if !proto {
		// The id before the first event, now that the log it names exists:
		// a client cut before it read an event resumes from it. Protobuf
		// frames carry no ids: such a client joins instead.
		w.Header().Set(aguihttp.ResumeIDHeader, runlog.FormatID(key, 0))
	}
	h.follow(w, r, local.log, key, 0, nil, proto, true)
	return true
}

// localRun is a run this process runs: its lease, and its log as its
// writer reads it (runlog.Writer.Log).
type localRun struct {
	lease *runlog.Lease
	log   runlog.Log
}

// runDetached runs the agent of a resumable run and ends the run, as
// serveRun does with no client to write to: the log takes every event.
// It returns a *startError when the run could not start.
func (h *handler) runDetached(ctx, agentCtx context.Context, input *agui.RunAgentInput, run *inflight.Run, stream *Stream, expired <-chan struct{}) error {
	done, started := make(chan error, 1), make(chan struct{})
	tel := stream.run.tel
	go func() {
		if err := stream.start(input); err != nil {
			done <- &startError{err}
			return
		}
		if h.cfg.metaReplay && h.cfg.meta != nil {
			h.replayMeta(ctx, stream, input.ThreadID)
		}
		if !h.runs.Attach(run.Key, stopper{stream}) {
			done <- &startError{errRunGone}
			return
		}
		close(started)
		err := runAgent(tel.StartAgent(agentCtx, input.ThreadID), h.cfg.logger, h.agent, input, stream)
		tel.EndAgent(err, errorCode(err))
		done <- err
	}()
	stopped := run.Stopped()
	var err error
	cancelled := false
wait:
	for !cancelled || started != nil {
		select {
		case <-started:
			started = nil
		case err = <-done:
			break wait
		case <-stopped:
			cancelled, stopped = true, nil
		case <-expired:
			err, expired = &RunError{Message: fmt.Sprintf("no client was attached to the run for %s; it was stopped", h.cfg.resumable.detached), Code: "detached"}, nil
			break wait
		}
	}
	var start *startError
	if errors.As(err, &start) {
		return err
	}
	stream.stop(ErrRunOver)
	if h.runs.End(run.Key) {
		stream.MarkCancelled()
		err = nil
	}
	endRun(ctx, h.cfg.logger, stream, err)
	return nil
}

// logSink is the eventSink of a resumable run: each event's JSON goes to
// the run's log, in batches (runlog.Writer: the events of one run that
// come while a batch is written share the next, one transaction on SQL),
// and the run's end ends the log, with the last batch.
type logSink struct {
	w *runlog.Writer
}

// endBuffers holds the buffers a run's last event is encoded in.
var endBuffers = sync.Pool{New: func() any { return new([]byte) }}

func (s *logSink) WriteEvent(ctx context.Context, ev agui.Event) error {
	switch ev.(type) {
	case *agui.RunFinishedEvent, *agui.RunErrorEvent:
		// Never lost to the log's bound, and the log is complete with it.
		buf := endBuffers.Get().(*[]byte)
		defer endBuffers.Put(buf)
		*buf = ev.AppendJSON((*buf)[:0])
		return s.w.End(*buf)
	}
	return s.w.Add(ev.AppendJSON)
}

// follow streams run key's log after position after to the client:
// prelude first (events with no position of their own, for a joiner),
// then each entry with its id, until the log has ended, the client has
// gone or cannot keep up. A protobuf client gets frames without ids.
// starting is set for the request that starts the run, whose first
// events are on their way.
func (h *handler) follow(w http.ResponseWriter, r *http.Request, log runlog.Log, key string, after int64, prelude []agui.Event, proto, starting bool) {
	var ew eventWriter
	// The header goes out with the first events, in one write, or alone
	// once Tail waits for some (Open), unless the run is starting: its
	// RUN_STARTED is on its way.
	cfg := sse.QueueConfig{WriteTimeout: h.cfg.writeTimeout, Header: func() { w.WriteHeader(http.StatusOK) }}
	if proto {
		ew = newProtoWriter(w, cfg)
	} else {
		ew = newSSEWriter(w, cfg)
	}
	defer ew.Close()
	q := ew.(interface{ queue() *sse.Queue }).queue()
	sse.SetHeader(w.Header(), ew.ContentType())
	q.Open()
	ctx := r.Context()
	for i, ev := range prelude {
		if proto {
			_ = ew.WriteEvent(ctx, ev)
			continue
		}
		pos := int64(0)
		if i == len(prelude)-1 {
			pos = after // the last carries the position the prelude stands for
		}
		_ = q.Append(ctx, func(b []byte) []byte { return appendLogged(b, key, pos, ev.AppendJSON(nil)) })
	}
	if len(prelude) > 0 && ew.Flush() != nil {
		return
	}
	emit := func(e runlog.Entry) error {
		return q.Append(ctx, func(b []byte) []byte { return appendLogged(b, key, e.Pos, e.Data) })
	}
	if proto {
		emit = func(e runlog.Entry) error {
			ev, err := DecodeEventLenient(e.Data, nil)
			if err != nil || ev == nil {
				return err
			}
			return ew.WriteEvent(ctx, ev)
		}
	}
	_, err := runlog.Tail(ctx, log, key, after, runlog.TailConfig{
		Emit: emit, Flush: ew.Flush, KeepAlive: h.cfg.keepAlive,
		OnIdle:   func() { ew.KeepAlive(h.cfg.keepAlive) },
		Lost:     lostRun,
		Starting: starting,
	})
	if err != nil && ctx.Err() == nil && !errors.Is(err, runlog.ErrNotFound) {
		h.cfg.logger.LogAttrs(ctx, slog.LevelInfo, "agui: a resumable stream ended early", slog.String("error", err.Error()))
	}
}

// RunLostCode is the code of the RUN_ERROR that ends a run lost with the
// process that ran it (killed, or stopped without ending it): on a log
// that outlives processes (runlog.Liveness: sqlitelog, pglog), whoever
// reads the run next, on any replica, ends it with this error, once.
const RunLostCode = "run_lost"

// lostRun is the final entry of a run lost with its process.
func lostRun() []byte {
	code := RunLostCode
	return (&agui.RunErrorEvent{
		Message: "the run was lost with the server that ran it (it stopped before the run ended); what it sent before is above; start the run again",
		Code:    &code,
	}).AppendJSON(nil)
}

// appendLogged frames one logged event as SSE, with its id when pos is
// not 0.
func appendLogged(b []byte, key string, pos int64, data []byte) []byte {
	if pos > 0 {
		b = append(b, "id: "...)
		b = runlog.AppendID(b, key, pos)
		b = append(b, '\n')
	}
	return sse.AppendEvent(b, "", "", data)
}

func (s *sseWriter) queue() *sse.Queue   { return s.Queue }
func (p *protoWriter) queue() *sse.Queue { return p.Queue }

// serveResume answers GET {path} on a handler with resumable runs: a
// resume (Last-Event-ID) or a join (?threadId=…&runId=…), over SSE.
func (h *handler) serveResume(w http.ResponseWriter, r *http.Request) {
	if !acceptsSSE(r.Header.Get("Accept")) {
		h.reject(w, r, http.StatusNotAcceptable, "a run is resumed over SSE only: send Accept: text/event-stream", nil)
		return
	}
	if !h.streams.Acquire() {
		h.rejectBusy(w, r)
		return
	}
	defer h.streams.Release()
	rs, ctx := h.cfg.resumable, r.Context()
	var (
		run     runlog.Run
		after   int64
		err     error
		prelude []agui.Event
	)
	q := r.URL.Query()
	if id := r.Header.Get("Last-Event-ID"); id != "" {
		key, pos, perr := runlog.ParseID(id)
		if perr != nil {
			h.reject(w, r, http.StatusBadRequest, "Last-Event-ID is not the id of an event of a resumable run ("+strings.TrimPrefix(perr.Error(), "runlog: ")+
				"): send the id of the last event received, or join the run with GET ?threadId=…&runId=…", nil)
			return
		}
		if run, err = rs.log.Get(ctx, key); err == nil && pos > run.Last {
			err = runlog.ErrNotFound // an id never sent
		}
		after = pos
	} else if q.Get("threadId") != "" && q.Get("runId") != "" {
		run, err = rs.log.Find(ctx, q.Get("threadId"), q.Get("runId"))
	} else {
		h.reject(w, r, http.StatusBadRequest, "to resume a run send Last-Event-ID (the id of the last event received); to join one, GET ?threadId=…&runId=…", nil)
		return
	}
	if err == nil && !h.mayRead(ctx, run) {
		err = runlog.ErrNotFound
	}
	if err != nil {
		if errors.Is(err, runlog.ErrNotFound) {
			h.reject(w, r, http.StatusNotFound, "run not found: it is unknown, or its log has expired; start a new run (POST)", nil)
			return
		}
		h.cfg.logger.LogAttrs(ctx, slog.LevelError, "agui: reading a run's log", slog.String("error", err.Error()))
		h.reject(w, r, http.StatusInternalServerError, "the run's log could not be read", nil)
		return
	}
	log := rs.log
	if l, ok := rs.local.Load(run.Key); ok {
		defer l.(*localRun).lease.Attach()()
		log = l.(*localRun).log
	} else if rd, ok := rs.log.(runlog.Readers); ok && !run.Ended && rs.detached > 0 {
		// Run by another replica, whose lease learns of this reader from
		// the log.
		defer rs.markReader(ctx, rd, run.Key)()
	}
	if r.Header.Get("Last-Event-ID") == "" {
		if prelude, after, err = h.joinPrelude(ctx, log, run); err != nil {
			h.cfg.logger.LogAttrs(ctx, slog.LevelError, "agui: reading a run's log", slog.String("error", err.Error()))
			h.reject(w, r, http.StatusInternalServerError, "the run's log could not be read", nil)
			return
		}
	}
	h.follow(w, r, log, run.Key, after, prelude, false, false)
}

// markReader marks run key as followed by a reader here, every third of
// the detached timeout, until stop is called.
func (rs *resumable) markReader(ctx context.Context, rd runlog.Readers, key string) (stop func()) {
	every := rs.detached / 3
	done, finished := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			// A mark that fails is made again at the next tick; the run's
			// replica may stop the run meanwhile, which the reader sees.
			_ = rd.MarkReader(ctx, key, 2*every)
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-t.C:
			}
		}
	}()
	return func() { close(done); <-finished }
}

// mayRead reports whether the caller of ctx may read run back: the
// caller who started it, on a thread it may still use.
func (h *handler) mayRead(ctx context.Context, run runlog.Run) bool {
	return run.Owner == threads.CallerFrom(ctx) && h.threadAccess(ctx, run.ThreadID, false) == nil
}

// acceptsSSE reports whether an Accept header admits an event stream.
func acceptsSSE(accept string) bool {
	if strings.TrimSpace(accept) == "" {
		return true
	}
	for _, part := range strings.Split(accept, ",") {
		mt, params, err := mime.ParseMediaType(strings.TrimSpace(part))
		if err != nil || params["q"] == "0" {
			continue
		}
		if mt == aguihttp.MediaTypeSSE || mt == "text/*" || mt == "*/*" {
			return true
		}
	}
	return false
}

// joinPrelude is what a client that joins run without an id gets first:
// the run so far, as the reducer makes it, and a start for what is open,
// which the sequence verifier accepts followed by the log after the
// returned position. A run whose log is empty needs none; one that has
// ended gets its end from the log.
func (h *handler) joinPrelude(ctx context.Context, log runlog.Log, run runlog.Run) ([]agui.Event, int64, error) {
	var input agui.RunAgentInput
	if len(run.Input) > 0 {
		if err := input.UnmarshalJSON(run.Input); err != nil {
			return nil, 0, fmt.Errorf("the run's stored input: %w", err)
		}
	}
	conv := NewConversation(input.Messages, input.State)
	v := NewVerifier()
	v.seedOwners(input.Messages)
	var (
		first  agui.Event
		at     int64
		starts = map[string]agui.Event{} // the start event of each item, by kind, owner and id
		page   []runlog.Entry
	)
	for {
		p, err := log.Read(ctx, run.Key, at, runlog.DefaultPageSize, page)
		if err != nil {
			return nil, 0, err
		}
		page = p.Entries
		for _, e := range p.Entries {
			ev, err := DecodeEventLenient(e.Data, nil)
			if err != nil {
				return nil, 0, fmt.Errorf("entry %d: %w", e.Pos, err)
			}
			if ev == nil {
				at = e.Pos
				continue
			}
			switch ev.(type) {
			case *agui.RunFinishedEvent, *agui.RunErrorEvent:
				// The end comes from the log, after the prelude.
				return h.prelude(first, conv, v, starts), at, nil
			}
			if c, ok := ev.(*agui.CustomEvent); ok {
				if m, isMeta, err := MetaFromCustom(c); isMeta && err == nil {
					ev = m
				}
			}
			if err := v.Check(ev); err != nil {
				return nil, 0, fmt.Errorf("entry %d: %w", e.Pos, err)
			}
			if err := conv.Apply(ev); err != nil {
				return nil, 0, fmt.Errorf("entry %d: %w", e.Pos, err)
			}
			if first == nil {
				first = ev
			}
			if k, ok := startKey(ev); ok {
				starts[k] = ev
			}
			at = e.Pos
		}
		if len(p.Entries) == 0 || at >= p.Last {
			break
		}
	}
	if first == nil {
		return nil, at, nil // nothing logged yet: the log from its start is whole
	}
	return h.prelude(first, conv, v, starts), at, nil
}

// prelude builds a joiner's first events.
func (h *handler) prelude(first agui.Event, conv *Conversation, v *Verifier, starts map[string]agui.Event) []agui.Event {
	if first == nil {
		return nil
	}
	conv.Sync()
	msgs := conv.Messages
	if msgs == nil {
		msgs = []agui.Message{}
	}
	out := []agui.Event{first, &agui.MessagesSnapshotEvent{Messages: msgs}}
	if len(conv.State) > 0 {
		out = append(out, &agui.StateSnapshotEvent{Snapshot: conv.State})
	}
	for _, it := range v.Open().Items {
		if it.Chunk {
			continue // a chunk stream goes on with its next chunk
		}
		if ev, ok := starts[string(it.Kind)+"\x00"+it.SubagentRunID+"\x00"+it.ID]; ok {
			out = append(out, ev)
		}
	}
	return out
}

// startKey is the key under which prelude finds the start event of the
// open item ev opens.
func startKey(ev agui.Event) (string, bool) {
	k := func(kind OpenKind, owner *string, id string) (string, bool) {
		o := ""
		if owner != nil {
			o = *owner
		}
		return string(kind) + "\x00" + o + "\x00" + id, true
	}
	switch e := ev.(type) {
	case *agui.TextMessageStartEvent:
		return k(OpenTextMessage, e.SubagentRunID, e.MessageID)
	case *agui.ReasoningStartEvent:
		return k(OpenReasoning, e.SubagentRunID, e.MessageID)
	case *agui.ReasoningMessageStartEvent:
		return k(OpenReasoningMessage, e.SubagentRunID, e.MessageID)
	case *agui.ToolCallStartEvent:
		return k(OpenToolCall, e.SubagentRunID, e.ToolCallID)
	case *agui.StepStartedEvent:
		return k(OpenStep, e.SubagentRunID, e.StepName)
	case *agui.SubagentStartedEvent:
		return k(OpenSubagent, e.ParentSubagentRunID, e.SubagentRunID)
	}
	return "", false
}

// withResumable is caps with transport.resumable declared, a copy: the
// declaration is the agent's.
func withResumable(caps *agui.AgentCapabilities) *agui.AgentCapabilities {
	c := agui.AgentCapabilities{}
	if caps != nil {
		c = *caps
	}
	t := agui.TransportCapabilities{}
	if c.Transport != nil {
		t = *c.Transport
	}
	yes := true
	t.Resumable = &yes
	if t.Streaming == nil {
		t.Streaming = &yes
	}
	c.Transport = &t
	return &c
}
