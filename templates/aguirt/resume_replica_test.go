package aguirt

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	agui "github.com/agui-gen/agui-gen/gen/agui"
	"github.com/agui-gen/agui-gen/runtime/runlog/sqlitelog"
	"net/http/httptest"
)

// TestResumeOnAnotherReplicaKeepsTheRunGoing: a client that went from
// the replica running its run and resumed on another is attached to the
// run all the same: the run outlives the detached timeout many times over
// and finishes, and the client gets its end.
func TestResumeOnAnotherReplicaKeepsTheRunGoing(t *testing.T) {
	path := filepath.Join(t.TempDir(), "runs.db")
	var hosts []string
	release, reached := make(chan struct{}), make(chan struct{})
	defer func() {
		select {
		case <-release:
		default:
			close(release)
		}
	}()
	for i := range 2 {
		l, err := sqlitelog.Open(context.Background(), path, sqlitelog.Options{PollInterval: 10 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		defer l.Close()
		var r chan<- struct{}
		if i == 0 {
			r = reached
		}
		srv := httptest.NewServer(NewHandler(gate(release, r), WithLogger(quietLogger()),
			WithResumableRuns(l, DetachedTimeout(150*time.Millisecond))))
		defer srv.Close()
		hosts = append(hosts, srv.URL)
	}
	rs, err := (&Client{URL: hosts[0]}).Run(context.Background(), &agui.RunAgentInput{ThreadID: "t", RunID: "r"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := rs.Next(); err != nil {
		t.Fatal(err)
	}
	id := lastID(rs.src)
	<-reached
	rs.Close() // detached on the first replica

	resp := get(t, hosts[1], id, "")
	defer resp.Body.Close()
	time.Sleep(5 * 150 * time.Millisecond) // five detached timeouts, the client on the other replica
	close(release)
	evs := readSSE(t, resp.Body)
	if len(evs) == 0 || !strings.Contains(evs[len(evs)-1].data, `"RUN_FINISHED"`) {
		end := "nothing"
		if len(evs) > 0 {
			end = evs[len(evs)-1].data
		}
		t.Fatalf("the client on the other replica got %s at the end, want RUN_FINISHED", end)
	}
}
