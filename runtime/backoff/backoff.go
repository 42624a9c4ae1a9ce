// Package backoff is how agui-gen's clients space the attempts to resume
// a stream that dropped: each wait twice the last, up to a limit, and
// none once the caller's context is done.
package backoff

import (
	"context"
	"time"
)

// Delay is the wait before attempt n of a series (0 the first): first,
// doubled n times, at most max(first, limit).
func Delay(first, limit time.Duration, n int) time.Duration {
	limit = max(first, limit)
	d := first
	for ; n > 0 && d < limit; n-- {
		d *= 2
	}
	return min(d, limit)
}

// Sleep waits d, and reports false, at once, when ctx is done first.
func Sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}
