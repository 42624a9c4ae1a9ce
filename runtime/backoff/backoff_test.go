package backoff

import (
	"context"
	"testing"
	"time"
)

func TestDelay(t *testing.T) {
	for _, c := range []struct {
		first, limit time.Duration
		n            int
		want         time.Duration
	}{
		{100 * time.Millisecond, 2 * time.Second, 0, 100 * time.Millisecond},
		{100 * time.Millisecond, 2 * time.Second, 1, 200 * time.Millisecond},
		{100 * time.Millisecond, 2 * time.Second, 4, 1600 * time.Millisecond},
		{100 * time.Millisecond, 2 * time.Second, 5, 2 * time.Second},
		{100 * time.Millisecond, 2 * time.Second, 1 << 30, 2 * time.Second},
		{5 * time.Second, 2 * time.Second, 3, 5 * time.Second}, // a first wait past the limit is the limit
	} {
		if got := Delay(c.first, c.limit, c.n); got != c.want {
			t.Errorf("Delay(%v, %v, %d) = %v, want %v", c.first, c.limit, c.n, got, c.want)
		}
	}
}

func TestSleep(t *testing.T) {
	if !Sleep(context.Background(), time.Millisecond) {
		t.Error("Sleep with a live context reported it was cut short")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	start := time.Now()
	if Sleep(ctx, time.Hour) {
		t.Error("Sleep with a done context reported it waited")
	}
	if time.Since(start) > time.Second {
		t.Error("Sleep waited on a done context")
	}
}
