package aguirt

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"

	agui "github.com/agui-gen/agui-gen/gen/agui"
	"github.com/agui-gen/agui-gen/runtime/threads"
)

// WithThreadOwners keeps who owns each thread in store. By default a
// handler with WithAuthenticator keeps owners in its checkpoint store, or
// else its META store, when that is a ThreadOwners too (the stores
// agui-gen generates are), and otherwise in this process's memory, which a
// restart forgets and other replicas do not share. A thread whose owner
// was never recorded (one run on before owners were kept) is the first
// caller's who runs on it.
func WithThreadOwners(store threads.Owners) Option {
	return func(c *handlerConfig) { c.owners = store }
}

// WithThreadAccess lets an application share threads between callers: a
// team's members, say, or an operator who reads every thread's feedback.
// By default a thread is its owner's alone. A run stays its caller's: only
// the caller who started a run may cancel it.
func WithThreadAccess(allow threads.Access) Option {
	return func(c *handlerConfig) { c.threadAccess = allow }
}

// storedOwners is the store of owners the options name: the explicit
// one, else the checkpoints' or the META store's when they keep owners
// (the SQL stores do), so that owners live where the thread's interrupts
// and feedback do. nil when none does.
func (c *handlerConfig) storedOwners() threads.Owners {
	if c.owners != nil {
		return c.owners
	}
	if o, ok := c.checkpoints.(threads.Owners); ok {
		return o
	}
	if o, ok := c.meta.(threads.Owners); ok {
		return o
	}
	return nil
}

// threadAccess checks that the caller of ctx may use threadID, claiming
// the thread for it first when claim is set (a run): see threads.Check.
func (h *handler) threadAccess(ctx context.Context, threadID string, claim bool) error {
	return threads.Check(ctx, h.owners, h.cfg.threadAccess, threadID, claim)
}

// rejectThread answers a request whose thread the caller may not use, or
// whose owner could not be read. The refusal is the same whether the
// thread is another caller's or does not exist, to the byte: it names
// nothing the request did not.
func (h *handler) rejectThread(w http.ResponseWriter, r *http.Request, err error) {
	if errors.Is(err, threads.ErrNotFound) {
		h.reject(w, r, http.StatusNotFound, "thread not found", nil)
		return
	}
	h.cfg.logger.LogAttrs(r.Context(), slog.LevelError, "agui: reading the thread's owner", slog.String("error", err.Error()))
	h.reject(w, r, http.StatusInternalServerError, "the thread could not be read", nil)
}

// AppendInterrupts appends open interrupts as a JSON array: how SQL
// Checkpoints keep them.
func AppendInterrupts(b []byte, open []agui.Interrupt) []byte {
	b = append(b, '[')
	for i := range open {
		if i > 0 {
			b = append(b, ',')
		}
		b = open[i].AppendJSON(b)
	}
	return append(b, ']')
}

// ParseInterrupts reads what AppendInterrupts wrote; nil or empty data is
// no interrupts.
func ParseInterrupts(data []byte) ([]agui.Interrupt, error) {
	if len(data) == 0 {
		return nil, nil
	}
	var raws []json.RawMessage
	if err := json.Unmarshal(data, &raws); err != nil {
		return nil, fmt.Errorf("agui: stored interrupts: %w", err)
	}
	if len(raws) == 0 {
		return nil, nil
	}
	open := make([]agui.Interrupt, len(raws))
	for i, raw := range raws {
		if err := open[i].UnmarshalJSON(raw); err != nil {
			return nil, fmt.Errorf("agui: stored interrupt %d: %w", i, err)
		}
	}
	return open, nil
}
