package batch

import "testing"

func pending(ch <-chan int64) (int64, bool) {
	select {
	case gen := <-ch:
		return gen, true
	default:
		return 0, false
	}
}

// TestSignals: a watcher is signalled each generation once, the latest
// when several come before it looks, and an unknown generation stays
// unknown.
func TestSignals(t *testing.T) {
	var s Signals
	a, stopA := s.Watch("t")
	defer stopA()
	s.Notify("t", 3)
	s.Notify("t", 3) // the write's own signal, then its echo from the database
	if gen, ok := pending(a); !ok || gen != 3 {
		t.Fatalf("first signal: %d %v", gen, ok)
	}
	if gen, ok := pending(a); ok {
		t.Fatalf("signalled twice: %d", gen)
	}
	s.Notify("t", 2) // late news
	if gen, ok := pending(a); ok {
		t.Fatalf("signalled an older generation: %d", gen)
	}
	s.Notify("t", 4)
	s.Notify("t", 5)
	if gen, _ := pending(a); gen != 5 {
		t.Fatalf("coalesced: %d, want 5", gen)
	}
	s.Notify("t", 6)
	s.Notify("t", 0) // a replica that does not tell
	if gen, _ := pending(a); gen != 0 {
		t.Fatalf("an unknown generation coalesced into %d", gen)
	}
	b, stopB := s.Watch("t") // a new watcher has seen nothing
	s.Notify("t", 6)
	if gen, ok := pending(b); !ok || gen != 6 {
		t.Fatalf("new watcher: %d %v", gen, ok)
	}
	stopB()
	if got := s.Watched(); len(got) != 1 || got[0] != "t" {
		t.Fatalf("watched: %v", got)
	}
}
