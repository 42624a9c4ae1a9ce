// Package threads holds who owns each AG-UI thread and what each thread's
// last run left open: the stores' interfaces and their in-memory forms,
// the caller a request is made for, and the check a handler makes before
// it lets a caller use a thread. A thread's interrupts are a spec type,
// so the checkpoint store is generic over it; the generated package names
// its instance (agui.Checkpoints).
package threads

import (
	"context"
	"errors"
	"sync"
)

// Owners records who owns each thread. With an authenticator a handler
// makes the first caller who runs on a thread its owner; from then on
// every other caller is answered as if the thread did not exist.
type Owners interface {
	// ClaimThread makes caller the owner of threadID unless the thread has
	// one, and returns its owner: caller when the claim took.
	ClaimThread(ctx context.Context, threadID, caller string) (owner string, err error)
	// ThreadOwner returns who owns threadID; ok is false when no one does.
	ThreadOwner(ctx context.Context, threadID string) (owner string, ok bool, err error)
}

// Access decides whether caller may use a thread that owner owns, as if
// it were caller's own. It is asked only when the two differ, and its
// answer is all another caller learns.
type Access func(ctx context.Context, caller, owner, threadID string) bool

type callerKey struct{}

// CallerFrom returns the caller an authenticator named for the request
// whose context ctx is or derives from ("" when none did), or the one
// ContextWithCaller attached.
func CallerFrom(ctx context.Context) string {
	caller, _ := ctx.Value(callerKey{}).(string)
	return caller
}

// ContextWithCaller attaches a caller to ctx.
func ContextWithCaller(ctx context.Context, caller string) context.Context {
	return context.WithValue(ctx, callerKey{}, caller)
}

// HasCaller reports whether a caller was named for ctx: by an
// authenticator, or by ContextWithCaller.
func HasCaller(ctx context.Context) bool {
	_, ok := ctx.Value(callerKey{}).(string)
	return ok
}

// ErrNotFound is what a caller learns of a thread it may not use: the same
// as of one that does not exist.
var ErrNotFound = errors.New("agui: thread not found")

// Check checks that the caller of ctx may use threadID, claiming the thread
// for it first when claim is set (a run) and the thread has no owner.
// Without owners, or without a caller (callers not told apart), every
// thread is everyone's. It returns ErrNotFound for a thread the caller may
// not use, and a store's error as it is; access may be nil.
func Check(ctx context.Context, owners Owners, access Access, threadID string, claim bool) error {
	if owners == nil || !HasCaller(ctx) {
		return nil
	}
	caller := CallerFrom(ctx)
	var owner string
	var err error
	if claim {
		owner, err = owners.ClaimThread(ctx, threadID, caller)
	} else {
		var ok bool
		owner, ok, err = owners.ThreadOwner(ctx, threadID)
		if err == nil && !ok {
			return ErrNotFound
		}
	}
	switch {
	case err != nil:
		return err
	case owner == caller:
		return nil
	case access != nil && access(ctx, caller, owner, threadID):
		return nil
	}
	return ErrNotFound
}

// MemoryOwners keeps owners in memory, for one process: what a handler
// uses when no store of its keeps them.
type MemoryOwners struct {
	mu    sync.Mutex
	owner map[string]string
}

// NewMemoryOwners returns an empty MemoryOwners.
func NewMemoryOwners() *MemoryOwners { return &MemoryOwners{owner: map[string]string{}} }

func (m *MemoryOwners) ClaimThread(_ context.Context, threadID, caller string) (string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if owner, ok := m.owner[threadID]; ok {
		return owner, nil
	}
	m.owner[threadID] = caller
	return caller, nil
}

func (m *MemoryOwners) ThreadOwner(_ context.Context, threadID string) (string, bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	owner, ok := m.owner[threadID]
	return owner, ok, nil
}

// Checkpoints keep the interrupts (of type I) each thread's last run ended
// with, so a handler can check that the next run's resume answers every
// one.
type Checkpoints[I any] interface {
	// Interrupts returns the thread's open interrupts (none: nil).
	Interrupts(ctx context.Context, threadID string) ([]I, error)
	// SetInterrupts records them; none clears the thread's.
	SetInterrupts(ctx context.Context, threadID string, open []I) error
}

// MemoryCheckpoints keeps checkpoints in memory, for one process, and is
// an Owners too: the owners of threads go with their interrupts.
type MemoryCheckpoints[I any] struct {
	mu   sync.Mutex
	open map[string][]I
	*MemoryOwners
}

// NewMemoryCheckpoints returns an empty MemoryCheckpoints.
func NewMemoryCheckpoints[I any]() *MemoryCheckpoints[I] {
	return &MemoryCheckpoints[I]{open: map[string][]I{}, MemoryOwners: NewMemoryOwners()}
}

func (m *MemoryCheckpoints[I]) Interrupts(_ context.Context, threadID string) ([]I, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.open[threadID], nil
}

func (m *MemoryCheckpoints[I]) SetInterrupts(_ context.Context, threadID string, open []I) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(open) == 0 {
		delete(m.open, threadID)
	} else {
		m.open[threadID] = open
	}
	return nil
}
