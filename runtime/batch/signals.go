package batch

import "sync"

// Signals is the registry of watchers a task store needs for Watch. Stores call
// Notify when they write a task and when they learn of another process's
// write (a database notification, polling): each watcher is signalled a
// generation once, and wake-ups that find a watcher signalled already
// coalesce into its pending one. The zero value is ready.
type Signals struct {
	mu       sync.Mutex
	watchers map[string]map[chan int64]int64 // the generation each was last signalled
}

// Watch registers a watcher of id: the channel it is signalled on, and the
// function that ends it. It is what a task store's Watch returns.
func (s *Signals) Watch(id string) (<-chan int64, func()) {
	ch := make(chan int64, 1)
	s.mu.Lock()
	if s.watchers == nil {
		s.watchers = map[string]map[chan int64]int64{}
	}
	if s.watchers[id] == nil {
		s.watchers[id] = map[chan int64]int64{}
	}
	s.watchers[id][ch] = 0
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

// Notify signals the watchers of a task that it has reached generation
// gen, each that has not been signalled it or a later one. A gen of 0 or
// less says that the task changed to a generation unknown: every watcher
// is signalled 0, read and see.
func (s *Signals) Notify(id string, gen int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for ch, seen := range s.watchers[id] {
		switch {
		case gen <= 0:
			signal(ch, 0)
		case seen < gen:
			s.watchers[id][ch] = gen
			signal(ch, gen)
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

// signal leaves gen on ch, or the later of it and the signal pending
// there; an unknown generation (0) stays unknown. Only Notify sends, under
// the lock, so the loop ends once the watcher has taken or left room.
func signal(ch chan int64, gen int64) {
	for {
		select {
		case ch <- gen:
			return
		default:
		}
		select {
		case pending := <-ch:
			if pending == 0 || gen == 0 {
				gen = 0
			} else {
				gen = max(gen, pending)
			}
		default:
		}
	}
}
