package aguirt

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"sync"

	agui "github.com/agui-gen/agui-gen/gen/agui"
)

// The paths, below an agent's endpoint, of what a handler serves besides
// runs: the agent's capabilities (GET), the de facto convention of the AG-UI
// SDKs, and the cancel of a run in progress (POST).
const (
	CapabilitiesPath = "/capabilities"
	CancelPath       = "/cancel"
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
// stopped it.
var errCancelled = errors.New("agui: the run was cancelled")

// activeRun is a run in progress, for the cancel route.
type activeRun struct {
	threadID string
	cancel   context.CancelCauseFunc
}

// runs are the runs a handler is serving, by run id.
type runs struct {
	mu     sync.Mutex
	active map[string]*activeRun
}

// add registers a run; false when a run with its id is in progress.
func (rs *runs) add(runID string, run *activeRun) bool {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	if rs.active == nil {
		rs.active = map[string]*activeRun{}
	}
	if rs.active[runID] != nil {
		return false
	}
	rs.active[runID] = run
	return true
}

func (rs *runs) remove(runID string) {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	delete(rs.active, runID)
}

// cancel stops a run of thread; false when there is no such run.
func (rs *runs) cancel(threadID, runID string) bool {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	run := rs.active[runID]
	if run == nil || run.threadID != threadID {
		return false
	}
	run.cancel(errCancelled)
	return true
}

// CancelRequest is the body of POST {path}/cancel.
type CancelRequest struct {
	ThreadID string `json:"threadId"`
	RunID    string `json:"runId"`
}

// serveCancel answers POST {path}/cancel: the run stops, its agent's
// context cancelled, and its stream ends with RUN_FINISHED and a cancelled
// outcome. Runs are known to the process serving them.
func (h *handler) serveCancel(w http.ResponseWriter, r *http.Request) {
	var req CancelRequest
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 64<<10))
	if err == nil {
		err = json.Unmarshal(body, &req)
	}
	if err != nil || req.ThreadID == "" || req.RunID == "" {
		h.reject(w, r, http.StatusBadRequest, `send {"threadId": …, "runId": …}`, nil)
		return
	}
	if !h.runs.cancel(req.ThreadID, req.RunID) {
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

// NewMemoryCheckpoints keeps checkpoints in memory, for one process.
func NewMemoryCheckpoints() Checkpoints {
	return &memoryCheckpoints{open: map[string][]agui.Interrupt{}}
}

type memoryCheckpoints struct {
	mu   sync.Mutex
	open map[string][]agui.Interrupt
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
// interrupt open on its thread; an entry for an interrupt that is not
// open is ignored, with a warning. It reports whether the thread had open
// interrupts.
func (h *handler) checkResume(ctx context.Context, input *agui.RunAgentInput) (resumes bool, err error) {
	open, err := h.cfg.checkpoints.Interrupts(ctx, input.ThreadID)
	if err != nil {
		return false, fmt.Errorf("reading the thread's interrupts: %w", err)
	}
	answered := map[string]bool{}
	for _, e := range input.Resume {
		answered[e.InterruptID] = true
	}
	var missing []string
	for _, in := range open {
		if !answered[in.ID] {
			missing = append(missing, in.ID)
		}
		delete(answered, in.ID)
	}
	for id := range answered {
		h.cfg.logger.LogAttrs(ctx, slog.LevelWarn, "agui: a resume entry answers no open interrupt", slog.String("thread", input.ThreadID), slog.String("interrupt", id))
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
// once it has answered the thread's.
func (h *handler) saveCheckpoint(ctx context.Context, threadID string, resumed bool, stream *Stream) {
	open := stream.openInterrupts()
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
	body, err := c.call(ctx, http.MethodGet, CapabilitiesPath, nil)
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
// with RUN_FINISHED and a cancelled outcome. A run the server does not have
// is an *HTTPError with status 404.
func (c *Client) Cancel(ctx context.Context, threadID, runID string) error {
	body, _ := json.Marshal(CancelRequest{ThreadID: threadID, RunID: runID})
	_, err := c.call(ctx, http.MethodPost, CancelPath, body)
	return err
}

// call makes a request to a route below the agent's URL and returns the
// body of a 2xx answer.
func (c *Client) call(ctx context.Context, method, route string, body []byte) ([]byte, error) {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, strings.TrimSuffix(c.URL, "/")+route, rd)
	if err != nil {
		return nil, err
	}
	for k, vs := range c.Header {
		req.Header[k] = slices.Clone(vs)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Accept", "application/json")
	hc := c.HTTPClient
	if hc == nil {
		hc = http.DefaultClient
	}
	res, err := hc.Do(req)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	data, err := io.ReadAll(io.LimitReader(res.Body, 1<<20))
	if err != nil {
		return nil, err
	}
	if res.StatusCode < 200 || res.StatusCode > 299 {
		return nil, &HTTPError{StatusCode: res.StatusCode, Body: data, Header: res.Header}
	}
	return data, nil
}
