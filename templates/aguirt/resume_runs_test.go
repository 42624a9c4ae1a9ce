package aguirt

import (
	"context"
	"errors"
	"net/http/httptest"
	"testing"
	"time"

	agui "github.com/agui-gen/agui-gen/gen/agui"
	"github.com/agui-gen/agui-gen/runtime/runlog"
)

// TestRunsWaitsForDetachedRuns: a run whose client has gone is still
// counted (TrackRuns), after the HTTP server has shut down, until its log
// is complete; Runs.Wait gives up with its context's error before that.
func TestRunsWaitsForDetachedRuns(t *testing.T) {
	release := make(chan struct{})
	agent := AgentFunc(func(ctx context.Context, _ *agui.RunAgentInput, s *Stream) error {
		if err := s.Text("going on"); err != nil {
			return err
		}
		<-release
		return s.Text(" after the client went")
	})
	log := runlog.NewMemory(runlog.MemoryOptions{})
	var runs Runs
	srv := httptest.NewServer(NewHandler(agent, WithLogger(quietLogger()), WithResumableRuns(log, TrackRuns(&runs))))
	openRun(t, srv.Listener.Addr().String(), 1).Close() // the client goes at once
	srv.Close()                                         // every request has returned

	short, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if err := runs.Wait(short); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Wait with the run going: %v, want the context's deadline", err)
	}
	close(release)
	if err := runs.Wait(context.Background()); err != nil {
		t.Fatal(err)
	}
	run, err := log.Find(context.Background(), "t1", "r1")
	if err != nil || !run.Ended {
		t.Fatalf("once Wait returned, the run's log: %+v, %v; want it ended", run, err)
	}
}
