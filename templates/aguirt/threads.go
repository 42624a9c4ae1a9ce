package aguirt

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"sync"

	agui "github.com/agui-gen/agui-gen/gen/agui"
)

// ThreadOwners records who owns each thread. With WithAuthenticator a
// handler makes the first caller who runs on a thread its owner; from then
// on every other caller is answered as if the thread did not exist: its
// resumes, cancels, META intake, queries and replay. A run on it is
// refused with the same 404, which tells that caller only what any id a
// client chooses must: that this one is taken. (WithBearerToken and
// WithAuthorizer admit callers without telling them apart: under them, as
// with no authentication, every thread is everyone's.) The stores that
// come with agui-gen (NewMemoryCheckpoints, and the SQL stores) keep
// owners with the interrupts, so an owner survives a restart where they
// do.
type ThreadOwners interface {
	// ClaimThread makes caller the owner of threadID unless the thread has
	// one, and returns its owner: caller when the claim took.
	ClaimThread(ctx context.Context, threadID, caller string) (owner string, err error)
	// ThreadOwner returns who owns threadID; ok is false when no one does.
	ThreadOwner(ctx context.Context, threadID string) (owner string, ok bool, err error)
}

// WithThreadOwners keeps who owns each thread in store. By default a
// handler with WithAuthenticator keeps owners in its checkpoint store, or
// else its META store, when that is a ThreadOwners too (the stores
// agui-gen generates are), and otherwise in this process's memory, which a
// restart forgets and other replicas do not share. A thread whose owner
// was never recorded (one run on before owners were kept) is the first
// caller's who runs on it.
func WithThreadOwners(store ThreadOwners) Option {
	return func(c *handlerConfig) { c.owners = store }
}

// ThreadAccess decides whether caller may use a thread that owner owns,
// as if it were caller's own (run on it, resume its interrupts, send and
// read its META). It is asked only when the two differ, and its answer is
// all another caller learns: one refused is answered as for a thread that
// does not exist.
type ThreadAccess func(ctx context.Context, caller, owner, threadID string) bool

// WithThreadAccess lets an application share threads between callers: a
// team's members, say, or an operator who reads every thread's feedback.
// By default a thread is its owner's alone. A run stays its caller's: only
// the caller who started a run may cancel it.
func WithThreadAccess(allow ThreadAccess) Option {
	return func(c *handlerConfig) { c.threadAccess = allow }
}

type callerKey struct{}

// CallerFrom returns the caller WithAuthenticator named for the request
// whose context ctx is or derives from ("" when none did), or the one
// ContextWithCaller attached.
func CallerFrom(ctx context.Context) string {
	caller, _ := ctx.Value(callerKey{}).(string)
	return caller
}

// ContextWithCaller attaches a caller to ctx, for runs started in process
// (Invoke) on behalf of someone an outer layer authenticated: an A2A
// principal in the bridge, say. The agent finds it in CallerFrom, and
// Invoke, given thread owners, holds the run's thread to it as a handler
// would.
func ContextWithCaller(ctx context.Context, caller string) context.Context {
	return context.WithValue(ctx, callerKey{}, caller)
}

// hasCaller reports whether a caller was named for ctx: by an
// authenticator, or by ContextWithCaller.
func hasCaller(ctx context.Context) bool {
	_, ok := ctx.Value(callerKey{}).(string)
	return ok
}

// ErrThreadNotFound is what a caller learns of a thread it may not use:
// the same as of one that does not exist.
var ErrThreadNotFound = errors.New("agui: thread not found")

// storedOwners is the store of owners the options name: the explicit
// one, else the checkpoints' or the META store's when they keep owners
// (the SQL stores do), so that owners live where the thread's interrupts
// and feedback do. nil when none does.
func (c *handlerConfig) storedOwners() ThreadOwners {
	if c.owners != nil {
		return c.owners
	}
	if o, ok := c.checkpoints.(ThreadOwners); ok {
		return o
	}
	if o, ok := c.meta.(ThreadOwners); ok {
		return o
	}
	return nil
}

// threadAccess checks that the caller of ctx may use threadID, claiming
// the thread for it first when claim is set (a run) and the thread has no
// owner. Without owners (callers not told apart) every thread is
// everyone's. It returns ErrThreadNotFound for a thread the caller may not use, and a
// store's error as it is.
func (h *handler) threadAccess(ctx context.Context, threadID string, claim bool) error {
	if h.owners == nil || !hasCaller(ctx) {
		return nil
	}
	caller := CallerFrom(ctx)
	var owner string
	var err error
	if claim {
		owner, err = h.owners.ClaimThread(ctx, threadID, caller)
	} else {
		var ok bool
		owner, ok, err = h.owners.ThreadOwner(ctx, threadID)
		if err == nil && !ok {
			return ErrThreadNotFound
		}
	}
	switch {
	case err != nil:
		return err
	case owner == caller:
		return nil
	case h.cfg.threadAccess != nil && h.cfg.threadAccess(ctx, caller, owner, threadID):
		return nil
	}
	return ErrThreadNotFound
}

// rejectThread answers a request whose thread the caller may not use, or
// whose owner could not be read. The refusal is the same whether the
// thread is another caller's or does not exist, to the byte: it names
// nothing the request did not.
func (h *handler) rejectThread(w http.ResponseWriter, r *http.Request, err error) {
	if errors.Is(err, ErrThreadNotFound) {
		h.reject(w, r, http.StatusNotFound, "thread not found", nil)
		return
	}
	h.cfg.logger.LogAttrs(r.Context(), slog.LevelError, "agui: reading the thread's owner", slog.String("error", err.Error()))
	h.reject(w, r, http.StatusInternalServerError, "the thread could not be read", nil)
}

// memoryOwners keeps owners in memory, for a handler whose checkpoints do
// not keep them.
type memoryOwners struct {
	mu    sync.Mutex
	owner map[string]string
}

func newMemoryOwners() *memoryOwners { return &memoryOwners{owner: map[string]string{}} }

func (m *memoryOwners) ClaimThread(_ context.Context, threadID, caller string) (string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if owner, ok := m.owner[threadID]; ok {
		return owner, nil
	}
	m.owner[threadID] = caller
	return caller, nil
}

func (m *memoryOwners) ThreadOwner(_ context.Context, threadID string) (string, bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	owner, ok := m.owner[threadID]
	return owner, ok, nil
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
