package a2atask

import "sync"

// Signals is the registry of watchers a Store needs for Watch: stores call
// Notify when they write a task, and Seen when they learn a task's
// generation some other way (polling, a database notification), which
// wakes the watchers that had not seen it. The zero value is ready.
type Signals struct {
	mu       sync.Mutex
	watchers map[string]map[chan struct{}]int64 // the generation each has seen; -1 for none
}

// Watch implements Store.Watch.
func (s *Signals) Watch(id string) (<-chan struct{}, func()) {
	ch := make(chan struct{}, 1)
	s.mu.Lock()
	if s.watchers == nil {
		s.watchers = map[string]map[chan struct{}]int64{}
	}
	if s.watchers[id] == nil {
		s.watchers[id] = map[chan struct{}]int64{}
	}
	s.watchers[id][ch] = -1
	s.mu.Unlock()
	return ch, func() {
		s.mu.Lock()
		delete(s.watchers[id], ch)
		if len(s.watchers[id]) == 0 {
			delete(s.watchers, id)
		}
		s.mu.Unlock()
	}
}

// Notify wakes every watcher of a task.
func (s *Signals) Notify(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for ch := range s.watchers[id] {
		wake(ch)
	}
}

// Seen wakes the watchers of a task that have not seen generation gen. A
// watcher's first look wakes it too: a write may have come between its own
// read and now.
func (s *Signals) Seen(id string, gen int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for ch, seen := range s.watchers[id] {
		if seen != gen {
			s.watchers[id][ch] = gen
			wake(ch)
		}
	}
}

// Watched lists the tasks that have watchers.
func (s *Signals) Watched() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	ids := make([]string, 0, len(s.watchers))
	for id := range s.watchers {
		ids = append(ids, id)
	}
	return ids
}

func wake(ch chan struct{}) {
	select {
	case ch <- struct{}{}:
	default: // a wake-up is pending already
	}
}
