package outage

import (
	"context"
	"errors"
	"testing"
	"time"
)

var errDown = errors.New("down")

// watch counts the first errors it is told of.
type watch struct{ told int }

func (w *watch) Unavailable(err error) bool { return errors.Is(err, errDown) }
func (w *watch) Waiting(error)              { w.told++ }

// TestOutlast: an op that fails as unavailable is tried again, with
// doubling pauses, until it succeeds; waiting is told once; another error
// ends the tries at once, and so does the end of ctx.
func TestOutlast(t *testing.T) {
	tries, w := 0, new(watch)
	start := time.Now()
	err := Outlast(context.Background(), w, func() error {
		if tries++; tries < 4 {
			return errDown
		}
		return nil
	})
	// Pauses of 50, 100 and 200 ms.
	if err != nil || tries != 4 || w.told != 1 || time.Since(start) < 350*time.Millisecond {
		t.Fatalf("%v after %d tries, told %d, in %s", err, tries, w.told, time.Since(start))
	}
	other := errors.New("refused")
	tries = 0
	if err := Outlast(context.Background(), new(watch), func() error { tries++; return other }); err != other || tries != 1 {
		t.Fatalf("another error: %v after %d tries", err, tries)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Millisecond)
	defer cancel()
	tries = 0
	if err := Outlast(ctx, new(watch), func() error { tries++; return errDown }); !errors.Is(err, errDown) || tries > 3 {
		t.Fatalf("until ctx ends: %v after %d tries", err, tries)
	}
}

func TestHealth(t *testing.T) {
	var h Health
	if _, ok := h.Since(time.Now()); ok {
		t.Fatal("down before it was")
	}
	at := time.Now()
	h.Down(at)
	if ago, ok := h.Since(at.Add(time.Second)); !ok || ago != time.Second {
		t.Fatalf("since: %s %v", ago, ok)
	}
}
