package aguirt

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync"

	agui "github.com/agui-gen/agui-gen/gen/agui"
	"github.com/agui-gen/agui-gen/runtime/aguihttp"
)

// CapabilitiesProvider is an Agent that declares what it can do, in the
// AG-UI 1.1 AgentCapabilities shape; the handler serves the declaration at
// GET {path}/capabilities. The declaration informs a client; the stream is
// what counts.
type CapabilitiesProvider interface {
	Capabilities(ctx context.Context) (*agui.AgentCapabilities, error)
}

// WithCapabilities declares the agent's capabilities, for an agent that
// does not provide them itself.
func WithCapabilities(caps *agui.AgentCapabilities) Option {
	return func(c *handlerConfig) { c.capabilities = caps }
}

// serveCapabilities answers GET {path}/capabilities: the declaration,
// validated, or 404 when the agent makes none.
func (h *handler) serveCapabilities(w http.ResponseWriter, r *http.Request) {
	caps := h.cfg.capabilities
	if p, ok := h.agent.(CapabilitiesProvider); ok && caps == nil {
		var err error
		if caps, err = p.Capabilities(r.Context()); err != nil {
			h.cfg.logger.LogAttrs(r.Context(), slog.LevelError, "agui: the agent's capabilities", slog.String("error", err.Error()))
			h.reject(w, r, http.StatusInternalServerError, "the agent's capabilities are not available", nil)
			return
		}
	}
	if caps == nil {
		h.reject(w, r, http.StatusNotFound, "the agent declares no capabilities", nil)
		return
	}
	if err := caps.Validate(); err != nil {
		h.cfg.logger.LogAttrs(r.Context(), slog.LevelError, "agui: the agent's capabilities are invalid", slog.String("error", err.Error()))
		h.reject(w, r, http.StatusInternalServerError, "the agent's capabilities are invalid", nil)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-cache")
	w.Write(caps.AppendJSON(nil))
}

// errCancelled is the cause of a run's context when a cancel request
// stopped it; the agent's Stream calls return it from then on.
var errCancelled = errors.New("agui: the run was cancelled")

// runKey names a run: run ids are chosen by clients, so they are unique
// within a thread at most.
type runKey struct{ threadID, runID string }

// activeRun is a run in progress, for the cancel route.
type activeRun struct {
	key runKey
	// caller is who started the run, as WithAuthenticator named them: the
	// only caller who may cancel it.
	caller string
	// resumes is set when the run answers its thread's open interrupts.
	resumes bool
	// stopped is closed once a cancel has stopped the agent's stream and
	// context.
	stopped chan struct{}
	cancel  context.CancelCauseFunc

	// Guarded by runs.mu.
	stream    *Stream // nil until the run streams
	cancelled bool    // a cancel was accepted
	returned  bool    // the agent has returned: too late to cancel
	left      bool    // no longer counted in its thread's runs
}

// runs are the runs a handler is serving.
type runs struct {
	mu      sync.Mutex
	active  map[runKey]*activeRun
	threads map[string]int // runs in progress per thread
}

// add registers a run; ok is false when a run with its key is in progress.
// threadBusy reports whether another run of its thread was: a resume
// decided after add is then safe from a concurrent resume of the same
// interrupts, since one of the two sees the other.
func (rs *runs) add(key runKey, run *activeRun) (ok, threadBusy bool) {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	if rs.active == nil {
		rs.active, rs.threads = map[runKey]*activeRun{}, map[string]int{}
	}
	if rs.active[key] != nil {
		return false, false
	}
	rs.active[key] = run
	rs.threads[key.threadID]++
	return true, rs.threads[key.threadID] > 1
}

func (rs *runs) remove(key runKey) {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	rs.leaveThread(rs.active[key])
	delete(rs.active, key)
}

// leave stops counting a run among its thread's runs in progress: once
// its end is settled, a resume sent on its terminal event must not find
// the thread busy.
func (rs *runs) leave(key runKey) {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	rs.leaveThread(rs.active[key])
}

// leaveThread is leave for a caller holding rs.mu.
func (rs *runs) leaveThread(run *activeRun) {
	if run == nil || run.left {
		return
	}
	run.left = true
	if rs.threads[run.key.threadID]--; rs.threads[run.key.threadID] == 0 {
		delete(rs.threads, run.key.threadID)
	}
}

// attach gives a cancel the run's stream to stop; a cancel accepted
// before the run streamed stops it now.
//
// It reports whether the run is still in progress: a handler that gave up
// on its client before the run streamed (the first write failed) has ended
// it, and its agent must not start.
func (rs *runs) attach(key runKey, stream *Stream) bool {
	rs.mu.Lock()
	run := rs.active[key]
	if run == nil || run.returned {
		rs.mu.Unlock()
		return false
	}
	run.stream = stream
	cancelled := run.cancelled
	rs.mu.Unlock()
	if cancelled {
		stream.stop(errCancelled)
	}
	return true
}

// end closes the run to cancels, once its agent has returned or been
// stopped, and reports whether a cancel was accepted first.
func (rs *runs) end(key runKey) (cancelled bool) {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	run := rs.active[key]
	run.returned = true
	return run.cancelled
}

// cancel stops a run of caller's whose agent is still running: once it
// returns true, nothing the agent emits from then on goes out (a call
// already writing, held up by a slow client, may finish), and the agent's
// context is cancelled. It is false when caller has no such run.
func (rs *runs) cancel(key runKey, caller string) bool {
	rs.mu.Lock()
	run := rs.active[key]
	if run == nil || run.returned || run.caller != caller {
		rs.mu.Unlock()
		return false
	}
	first := !run.cancelled
	run.cancelled = true
	stream := run.stream
	rs.mu.Unlock()
	if first {
		if stream != nil {
			stream.stop(errCancelled)
		}
		run.cancel(errCancelled)
		close(run.stopped)
	}
	<-run.stopped
	return true
}

// serveCancel answers POST {path}/cancel: the run stops, its agent's
// context cancelled and its stream closed to the agent, and the run ends
// with RUN_FINISHED and a cancelled outcome. A run whose agent has
// returned can no longer be cancelled, and one another caller started
// (WithAuthenticator) is not found: both are 404. Runs are known to the
// process serving them.
func (h *handler) serveCancel(w http.ResponseWriter, r *http.Request) {
	body, ok := h.readJSONBody(w, r)
	if !ok {
		return
	}
	var req aguihttp.CancelRequest
	if err := json.Unmarshal(body, &req); err != nil || req.ThreadID == "" || req.RunID == "" {
		h.reject(w, r, http.StatusBadRequest, `send {"threadId": …, "runId": …}`, nil)
		return
	}
	if !h.runs.cancel(runKey{req.ThreadID, req.RunID}, CallerFrom(r.Context())) {
		h.reject(w, r, http.StatusNotFound, fmt.Sprintf("no run %s of thread %s is in progress here", req.RunID, req.ThreadID), nil)
		return
	}
	w.WriteHeader(http.StatusAccepted)
}

// Checkpoints keep the interrupts each thread's last run ended with, so a
// handler can check that the next run's resume answers every one: AG-UI
// 1.1 says a producer that knows an interrupt is open must not act on an
// absent entry. Without checkpoints the handler is stateless and the
// agent checks what it can.
type Checkpoints interface {
	// Interrupts returns the thread's open interrupts (none: nil).
	Interrupts(ctx context.Context, threadID string) ([]agui.Interrupt, error)
	// SetInterrupts records them; none clears the thread's.
	SetInterrupts(ctx context.Context, threadID string, open []agui.Interrupt) error
}

// WithCheckpoints checks resumes against the interrupts store keeps, and
// keeps each run's.
func WithCheckpoints(store Checkpoints) Option {
	return func(c *handlerConfig) { c.checkpoints = store }
}

// NewMemoryCheckpoints keeps checkpoints in memory, for one process, and
// is a ThreadOwners too: the owners of threads go with their interrupts.
func NewMemoryCheckpoints() Checkpoints {
	return &memoryCheckpoints{open: map[string][]agui.Interrupt{}, memoryOwners: newMemoryOwners()}
}

type memoryCheckpoints struct {
	mu   sync.Mutex
	open map[string][]agui.Interrupt
	*memoryOwners
}

func (m *memoryCheckpoints) Interrupts(_ context.Context, threadID string) ([]agui.Interrupt, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.open[threadID], nil
}

func (m *memoryCheckpoints) SetInterrupts(_ context.Context, threadID string, open []agui.Interrupt) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(open) == 0 {
		delete(m.open, threadID)
	} else {
		m.open[threadID] = open
	}
	return nil
}

// checkResume checks, before a run starts, that its resume answers every
// interrupt open on its thread. An entry for an interrupt that is not open
// is ignored, with a warning: it is taken out of input, so the agent sees
// only answers to open interrupts. It reports whether the thread had open
// interrupts.
func (h *handler) checkResume(ctx context.Context, input *agui.RunAgentInput) (resumes bool, err error) {
	open, err := h.cfg.checkpoints.Interrupts(ctx, input.ThreadID)
	if err != nil {
		return false, fmt.Errorf("reading the thread's interrupts: %w", err)
	}
	isOpen := map[string]bool{}
	for _, in := range open {
		isOpen[in.ID] = true
	}
	answered := map[string]bool{}
	var kept []agui.ResumeEntry
	for _, e := range input.Resume {
		if !isOpen[e.InterruptID] {
			h.cfg.logger.LogAttrs(ctx, slog.LevelWarn, "agui: a resume entry answers no open interrupt", slog.String("thread", input.ThreadID), slog.String("interrupt", e.InterruptID))
			continue
		}
		answered[e.InterruptID] = true
		kept = append(kept, e)
	}
	input.Resume = kept
	var missing []string
	for _, in := range open {
		if !answered[in.ID] {
			missing = append(missing, in.ID)
		}
	}
	if len(missing) > 0 {
		return true, &resumeError{thread: input.ThreadID, missing: missing}
	}
	return len(open) > 0, nil
}

// resumeError is a run that leaves open interrupts unanswered.
type resumeError struct {
	thread  string
	missing []string
}

func (e *resumeError) Error() string {
	return fmt.Sprintf("thread %s has open interrupts the resume does not answer: %s", e.thread, strings.Join(e.missing, ", "))
}

// saveCheckpoint records what a run left open: its interrupts, or nothing
// once it has answered the thread's. It runs before the run's terminal
// event goes out, so a client that resumes on RUN_FINISHED finds it, and
// whether or not the client stays to read that event.
func (h *handler) saveCheckpoint(ctx context.Context, threadID string, resumed bool, open []agui.Interrupt) {
	if len(open) == 0 && !resumed {
		return
	}
	if err := h.cfg.checkpoints.SetInterrupts(context.WithoutCancel(ctx), threadID, open); err != nil {
		h.cfg.logger.LogAttrs(ctx, slog.LevelError, "agui: keeping the thread's interrupts", slog.String("thread", threadID), slog.String("error", err.Error()))
	}
}

// Capabilities fetches what the agent declares it can do, from GET
// {URL}/capabilities. A declaration that does not validate is an error (a
// known field holding a malformed value makes it unusable); an agent that
// declares none answers 404, an *HTTPError. Neither stops a run.
func (c *Client) Capabilities(ctx context.Context) (*agui.AgentCapabilities, error) {
	body, err := c.endpoint().Call(ctx, http.MethodGet, aguihttp.CapabilitiesPath, nil, aguihttp.MaxControlAnswer)
	if err != nil {
		return nil, err
	}
	caps := new(agui.AgentCapabilities)
	if err := caps.UnmarshalJSON(body); err != nil {
		return nil, fmt.Errorf("agui: the agent's capabilities: %w", err)
	}
	if err := caps.Validate(); err != nil {
		return nil, fmt.Errorf("agui: the agent's capabilities: %w", err)
	}
	return caps, nil
}

// Cancel asks the server to stop a run in progress: its stream then ends
// with RUN_FINISHED and a cancelled outcome. A run the server does not have,
// or whose agent has already returned, is an *HTTPError with status 404.
func (c *Client) Cancel(ctx context.Context, threadID, runID string) error {
	body, _ := json.Marshal(aguihttp.CancelRequest{ThreadID: threadID, RunID: runID})
	_, err := c.endpoint().Call(ctx, http.MethodPost, aguihttp.CancelPath, body, aguihttp.MaxControlAnswer)
	return err
}
