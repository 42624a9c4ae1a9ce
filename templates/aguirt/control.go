package aguirt

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"strings"

	agui "github.com/agui-gen/agui-gen/gen/agui"
	"github.com/agui-gen/agui-gen/runtime/aguihttp"
	"github.com/agui-gen/agui-gen/runtime/inflight"
	"github.com/agui-gen/agui-gen/runtime/threads"
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
	if h.cfg.resumable != nil {
		caps = withResumable(caps)
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
	if !h.runs.Cancel(inflight.Key{ThreadID: req.ThreadID, RunID: req.RunID}, threads.CallerFrom(r.Context())) {
		h.reject(w, r, http.StatusNotFound, fmt.Sprintf("no run %s of thread %s is in progress here", req.RunID, req.ThreadID), nil)
		return
	}
	w.WriteHeader(http.StatusAccepted)
}

// WithCheckpoints checks resumes against the interrupts store keeps, and
// keeps each run's.
func WithCheckpoints(store threads.Checkpoints[agui.Interrupt]) Option {
	return func(c *handlerConfig) { c.checkpoints = store }
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
