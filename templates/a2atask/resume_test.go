package a2atask

import (
	"bufio"
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	a2a "github.com/agui-gen/agui-gen/gen/a2a"
)

// sseEvents reads the id and data of the events of an SSE stream, giving
// up after n when n > 0.
func sseEvents(t *testing.T, body io.Reader, n int) (ids []int64, data []string) {
	t.Helper()
	sc := bufio.NewScanner(body)
	var id int64
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "id: "):
			v, err := strconv.ParseInt(strings.TrimPrefix(line, "id: "), 10, 64)
			if err != nil {
				t.Fatalf("event id %q", line)
			}
			id = v
		case strings.HasPrefix(line, "data: "):
			ids, data = append(ids, id), append(data, strings.TrimPrefix(line, "data: "))
			id = 0
			if n > 0 && len(ids) == n {
				return ids, data
			}
		}
	}
	return ids, data
}

// TestResumeWithLastEventID: a subscriber that drops its connection and
// comes back with the id of the last event it read gets every later event
// once, in order, over HTTP+JSON; the executor keeps running meanwhile.
func TestResumeWithLastEventID(t *testing.T) {
	steps := make(chan struct{})
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	rt := New(steppedArtifacts(steps, 5), NewMemory(), WithLogger(quiet))
	defer rt.Close()
	h, err := a2a.NewRESTHandler(a2a.BindA2AService(rt), a2a.WithLogger(quiet))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	c := a2a.NewA2AServiceClient(a2a.NewRESTTransport(srv.URL))
	resp, err := c.SendMessage(context.Background(), &a2a.SendMessageRequest{Message: userMessage("go"),
		Configuration: &a2a.SendMessageConfiguration{ReturnImmediately: true}})
	if err != nil {
		t.Fatal(err)
	}
	id := resp.Payload.(*a2a.SendMessageResponseTask).Task.ID
	subscribe := func(lastEventID string) *http.Response {
		req, _ := http.NewRequest(http.MethodGet, srv.URL+"/tasks/"+id+":subscribe", nil)
		req.Header.Set("A2A-Version", "1.0")
		if lastEventID != "" {
			req.Header.Set("Last-Event-ID", lastEventID)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	first := subscribe("")
	steps <- struct{}{}
	steps <- struct{}{}
	ids, data := sseEvents(t, first.Body, 3) // the task, then two artifacts
	first.Body.Close()                       // the client drops the stream
	if !strings.HasPrefix(data[0], `{"task":`) {
		t.Fatalf("first event %s", data[0])
	}
	steps <- struct{}{} // events the client misses while away
	steps <- struct{}{}
	waitArtifacts(t, c, id, 4)
	second := subscribe(strconv.FormatInt(ids[len(ids)-1], 10))
	defer second.Body.Close()
	steps <- struct{}{}
	steps <- struct{}{}
	more, moreData := sseEvents(t, second.Body, 0)
	all := append(ids, more...)
	for i := 1; i < len(all); i++ {
		if all[i] != all[i-1]+1 {
			t.Fatalf("event ids %v: a gap or a repeat", all)
		}
	}
	if len(all) != 7 || !strings.Contains(moreData[len(moreData)-1], "TASK_STATE_COMPLETED") {
		t.Fatalf("ids %v, last %s", all, moreData[len(moreData)-1])
	}
	// Resuming at the end of an ended task gives nothing more, at once.
	done := make(chan struct{})
	go func() {
		last := subscribe(strconv.FormatInt(all[len(all)-1], 10))
		if ct := last.Header.Get("Content-Type"); ct != "text/event-stream" {
			t.Errorf("an empty stream is sent as %q", ct)
		}
		ids, _ := sseEvents(t, last.Body, 0)
		last.Body.Close()
		if len(ids) != 0 {
			t.Errorf("events after the end: %v", ids)
		}
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("resuming at the end of an ended task hangs")
	}
	bad := subscribe("99")
	bad.Body.Close()
	if bad.StatusCode != http.StatusBadRequest {
		t.Fatalf("Last-Event-ID beyond the task: %d", bad.StatusCode)
	}
}
