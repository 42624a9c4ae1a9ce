package aguihttp

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"
)

// TestOpenAgain: a request is made again after a failure the server may
// not repeat (a dropped connection, 429, 5xx), up to the attempts counted
// across calls, and not after a 4xx it would repeat, nor once the context
// is done.
func TestOpenAgain(t *testing.T) {
	var calls atomic.Int32
	statuses := []int{} // what the server answers, in turn; then 200
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := int(calls.Add(1)) - 1
		if n < len(statuses) {
			if statuses[n] == 0 { // a dropped connection
				panic(http.ErrAbortHandler)
			}
			w.WriteHeader(statuses[n])
			return
		}
		w.Header().Set("Content-Type", MediaTypeSSE)
	}))
	defer srv.Close()
	e := Endpoint{URL: srv.URL}
	r := Retry{Attempts: 4, MinDelay: time.Millisecond, MaxDelay: 2 * time.Millisecond}
	open := func(ctx context.Context, tries *int) error {
		resp, err := e.OpenAgain(ctx, r, tries, func(ctx context.Context) (*http.Request, error) { return e.NewResumeRequest(ctx, "r1.x.1", nil) })
		if err == nil {
			resp.Body.Close()
		}
		return err
	}

	statuses, tries := []int{0, http.StatusTooManyRequests, http.StatusBadGateway}, 0
	if err := open(context.Background(), &tries); err != nil || tries != 4 || calls.Load() != 4 {
		t.Errorf("after a drop, a 429 and a 502: %v, %d tries, %d calls", err, tries, calls.Load())
	}

	calls.Store(0)
	statuses, tries = []int{http.StatusNotFound}, 0
	var he *HTTPError
	if err := open(context.Background(), &tries); !errors.As(err, &he) || he.StatusCode != 404 || calls.Load() != 1 {
		t.Errorf("a 404: %v after %d calls, want it at once", err, calls.Load())
	}

	calls.Store(0)
	statuses, tries = []int{500, 500, 500, 500, 500}, 2 // two tries were made before
	if err := open(context.Background(), &tries); !errors.As(err, &he) || he.StatusCode != 500 || calls.Load() != 2 {
		t.Errorf("5xx throughout: %v after %d calls, want the last 500 after 2", err, calls.Load())
	}
	if err := open(context.Background(), &tries); err == nil || calls.Load() != 2 {
		t.Errorf("with no try left: %v after %d more calls", err, calls.Load()-2)
	}

	calls.Store(0)
	statuses, tries = []int{500, 500, 500, 500}, 0
	ctx, cancel := context.WithCancelCause(context.Background())
	gone := errors.New("the caller went")
	r.MinDelay, r.MaxDelay = time.Hour, time.Hour
	go func() { time.Sleep(20 * time.Millisecond); cancel(gone) }()
	if err := open(ctx, &tries); !errors.Is(err, gone) || calls.Load() != 1 {
		t.Errorf("a context done during the wait: %v after %d calls", err, calls.Load())
	}
}
