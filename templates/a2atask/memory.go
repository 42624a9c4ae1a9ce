package a2atask

import (
	"context"
	"slices"
	"strings"
	"sync"
	"time"

	a2a "github.com/agui-gen/agui-gen/gen/a2a"
)

// Memory is a Store in this process's memory: for tests, demos and agents
// whose tasks may die with the process.
type Memory struct {
	mu      sync.Mutex
	tasks   map[string]*memTask
	push    map[string]map[string]*a2a.TaskPushNotificationConfig // by task, then config ID
	signals Signals
}

type memTask struct {
	rec       Record
	events    []Event
	lease     time.Time
	artifacts artifactIndex // of rec.Task; nil until an Append needs it
}

// NewMemory returns an empty in-memory store.
func NewMemory() *Memory {
	return &Memory{tasks: map[string]*memTask{}}
}

func (m *Memory) Create(ctx context.Context, owner string, task *a2a.Task, event *a2a.StreamResponse) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.tasks[task.ID]; ok {
		return ErrConflict
	}
	m.tasks[task.ID] = &memTask{rec: Record{Task: task.Clone(), Owner: owner, Generation: 1},
		events: []Event{{Generation: 1, Payload: event.Clone()}}}
	m.signals.Notify(task.ID, 1)
	return nil
}

func (m *Memory) Update(ctx context.Context, task *a2a.Task, prev int64, event *a2a.StreamResponse) (int64, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	t, ok := m.tasks[task.ID]
	if !ok {
		return 0, ErrNotFound
	}
	if t.rec.Generation != prev {
		return 0, ErrConflict
	}
	t.rec.Task, t.rec.Generation, t.artifacts = task.Clone(), prev+1, nil
	t.events = append(t.events, Event{Generation: prev + 1, Payload: event.Clone()})
	m.signals.Notify(task.ID, prev+1)
	return prev + 1, nil
}

// Append implements Appender: the stored task changes as the event says,
// in place, so a change costs what its event does.
func (m *Memory) Append(ctx context.Context, id string, prev int64, event *a2a.StreamResponse, _ *a2a.Task) (int64, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	t, ok := m.tasks[id]
	if !ok {
		return 0, ErrNotFound
	}
	if t.rec.Generation != prev {
		return 0, ErrConflict
	}
	ev := event.Clone()
	if t.artifacts == nil {
		t.artifacts = indexArtifacts(t.rec.Task)
	}
	applyEvent(t.rec.Task, ev, t.artifacts)
	t.rec.Generation = prev + 1
	stampTask(t.rec.Task, t.rec.Generation)
	t.events = append(t.events, Event{Generation: prev + 1, Payload: ev})
	m.signals.Notify(id, prev+1)
	return prev + 1, nil
}

// Peek implements Peeker.
func (m *Memory) Peek(ctx context.Context, id string) (int64, a2a.TaskState, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	t, ok := m.tasks[id]
	if !ok {
		return 0, 0, ErrNotFound
	}
	if t.rec.Task.Status == nil {
		return t.rec.Generation, a2a.TaskStateUnspecified, nil
	}
	return t.rec.Generation, t.rec.Task.Status.State, nil
}

func (m *Memory) Get(ctx context.Context, id string) (*Record, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	t, ok := m.tasks[id]
	if !ok {
		return nil, ErrNotFound
	}
	rec := t.rec
	rec.Task = rec.Task.Clone()
	return &rec, nil
}

func (m *Memory) List(ctx context.Context, q Query) ([]*Record, int, error) {
	// Held throughout: the tasks change in place, so the page is copied
	// under the lock.
	m.mu.Lock()
	defer m.mu.Unlock()
	var match []*Record
	for _, t := range m.tasks {
		task := t.rec.Task
		if t.rec.Owner != q.Owner || (q.ContextID != "" && task.ContextID != q.ContextID) ||
			(q.State != 0 && task.Status.State != q.State) || (!q.UpdatedAfter.IsZero() && !updated(task).After(q.UpdatedAfter)) {
			continue
		}
		rec := t.rec
		match = append(match, &rec)
	}
	slices.SortFunc(match, func(a, b *Record) int {
		if before(Cursor{Updated: updated(a.Task), ID: a.Task.ID}, Cursor{Updated: updated(b.Task), ID: b.Task.ID}) {
			return -1
		}
		return 1
	})
	total := len(match)
	if q.After != nil {
		i := slices.IndexFunc(match, func(r *Record) bool { return before(*q.After, Cursor{Updated: updated(r.Task), ID: r.Task.ID}) })
		if i < 0 {
			i = len(match)
		}
		match = match[i:]
	}
	if len(match) > q.Limit {
		match = match[:q.Limit]
	}
	for _, r := range match {
		r.Task = r.Task.Clone()
	}
	return match, total, nil
}

func (m *Memory) Events(ctx context.Context, id string, after int64) ([]Event, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	t, ok := m.tasks[id]
	if !ok {
		return nil, ErrNotFound
	}
	// The log holds generations 1, 2, …, in order: the events after after
	// start at its index after, and reading them costs what they do.
	var out []Event
	for _, e := range t.events[min(max(after, 0), int64(len(t.events))):] {
		out = append(out, Event{Generation: e.Generation, Payload: e.Payload.Clone()})
	}
	return out, nil
}

func (m *Memory) Watch(id string) (<-chan int64, func()) { return m.signals.Watch(id) }

// SavePushConfig implements PushConfigs.
func (m *Memory) SavePushConfig(ctx context.Context, cfg *a2a.TaskPushNotificationConfig) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.push == nil {
		m.push = map[string]map[string]*a2a.TaskPushNotificationConfig{}
	}
	if m.push[cfg.TaskID] == nil {
		m.push[cfg.TaskID] = map[string]*a2a.TaskPushNotificationConfig{}
	}
	m.push[cfg.TaskID][cfg.ID] = cfg.Clone()
	return nil
}

// PushConfigs implements PushConfigs.
func (m *Memory) PushConfigs(ctx context.Context, taskID string) ([]*a2a.TaskPushNotificationConfig, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []*a2a.TaskPushNotificationConfig
	for _, c := range m.push[taskID] {
		out = append(out, c.Clone())
	}
	slices.SortFunc(out, func(a, b *a2a.TaskPushNotificationConfig) int { return strings.Compare(a.ID, b.ID) })
	return out, nil
}

// DeletePushConfig implements PushConfigs.
func (m *Memory) DeletePushConfig(ctx context.Context, taskID, id string) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	_, ok := m.push[taskID][id]
	delete(m.push[taskID], id)
	return ok, nil
}

// Lease implements Store.
func (m *Memory) Lease(ctx context.Context, id string, until time.Time) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	t, ok := m.tasks[id]
	if !ok {
		return ErrNotFound
	}
	t.lease = until
	return nil
}

// Orphans implements Store.
func (m *Memory) Orphans(ctx context.Context, at time.Time, limit int) ([]string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []string
	for id, t := range m.tasks {
		if s := t.rec.Task.Status.State; (s == a2a.TaskStateSubmitted || s == a2a.TaskStateWorking) && t.lease.Before(at) && len(out) < limit {
			out = append(out, id)
		}
	}
	slices.Sort(out)
	return out, nil
}
