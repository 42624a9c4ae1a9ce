package workers

import (
	"runtime"
	"testing"
	"time"
)

// TestRunReusesIdleGoroutines: functions run one after another take the
// goroutine the last one ran on, and the pool's goroutines exit once they
// have waited the linger for more.
func TestRunReusesIdleGoroutines(t *testing.T) {
	before := runtime.NumGoroutine()
	p := New(200 * time.Millisecond)
	done := make(chan struct{})
	for range 100 {
		p.Run(func() { done <- struct{}{} })
		<-done
		time.Sleep(time.Millisecond) // for the goroutine to be idle again
	}
	if n := p.started.Load(); n > 10 {
		t.Errorf("%d goroutines started for 100 functions run one after another", n)
	}
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before {
		if time.Now().After(deadline) {
			t.Fatalf("%d goroutines left, %d before", runtime.NumGoroutine(), before)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestRunDoesNotWait: a function that blocks does not hold up the next,
// which gets a goroutine of its own.
func TestRunDoesNotWait(t *testing.T) {
	p := New(time.Millisecond)
	release := make(chan struct{})
	p.Run(func() { <-release })
	done := make(chan struct{})
	p.Run(func() { close(done) })
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("the second function waited for the first")
	}
	close(release)
}
