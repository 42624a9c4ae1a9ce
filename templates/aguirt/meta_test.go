package aguirt

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"testing"

	agui "github.com/agui-gen/agui-gen/gen/agui"
	"github.com/agui-gen/agui-gen/templates/aguirt/metastoretest"
)

func metaServer(t *testing.T, store MetaStore, opts ...Option) (*httptest.Server, *Client) {
	t.Helper()
	h := NewHandler(AgentFunc(func(ctx context.Context, in *agui.RunAgentInput, s *Stream) error {
		return s.Text("hello")
	}), append([]Option{WithMetaStore(store), WithLogger(quietLogger())}, opts...)...)
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv, &Client{URL: srv.URL + "/agent"}
}

func withID(m *agui.MetaEvent, id string) *agui.MetaEvent { m.ID = &id; return m }

// TestMetaIntake: events arrive one at a time or in batches, as META or in
// CUSTOM; each is stored once per id; queries filter and page.
func TestMetaIntake(t *testing.T) {
	_, c := metaServer(t, NewMemoryMeta())
	ctx := context.Background()
	stored, err := c.SendMeta(ctx, "t1", "r1", withID(agui.NewThumbsUpMeta("m1"), "e1"), agui.NewNoteMeta("follow up"), withID(agui.NewRatingMeta("m2", 4), "e3"))
	if err != nil {
		t.Fatal(err)
	}
	if len(stored) != 3 || stored[0].Seq != 1 || stored[2].Seq != 3 || stored[1].Event.ID == nil || stored[0].RunID != "r1" {
		t.Fatalf("stored %+v", stored)
	}
	// Sent again: stored once, the same Seq back.
	again, err := c.SendMeta(ctx, "t1", "", withID(agui.NewThumbsUpMeta("m1"), "e1"))
	if err != nil || again[0].Seq != 1 {
		t.Fatalf("resent: %+v %v", again, err)
	}
	// A different event under a taken id is refused, and the batch with it.
	var he *agui.HTTPError
	if _, err := c.SendMeta(ctx, "t1", "", agui.NewShareMeta(), withID(agui.NewThumbsDownMeta("m1"), "e1")); !errors.As(err, &he) || he.StatusCode != http.StatusConflict {
		t.Fatalf("a forged id: %v", err)
	}
	// The same id in another thread is another event.
	if other, err := c.SendMeta(ctx, "t2", "", withID(agui.NewThumbsDownMeta("m9"), "e1")); err != nil || other[0].Seq != 4 {
		t.Fatalf("another thread: %+v %v", other, err)
	}
	for _, tc := range []struct {
		q    MetaQuery
		want []int64
	}{
		{MetaQuery{ThreadID: "t1"}, []int64{1, 2, 3}},
		{MetaQuery{ThreadID: "t1", MetaType: "rating"}, []int64{3}},
		{MetaQuery{ThreadID: "t1", MessageID: "m1"}, []int64{1}},
		{MetaQuery{ThreadID: "t1", RunID: "r1", After: 1}, []int64{2, 3}},
		{MetaQuery{ThreadID: "t1", Limit: 2}, []int64{1, 2}},
		{MetaQuery{ThreadID: "t2"}, []int64{4}},
		{MetaQuery{ThreadID: "t3"}, nil},
	} {
		page, err := c.Meta(ctx, tc.q)
		if err != nil {
			t.Fatal(err)
		}
		var got []int64
		for _, e := range page.Events {
			got = append(got, e.Seq)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%+v: %v, want %v", tc.q, got, tc.want)
		}
		if len(tc.want) > 0 && page.Next != tc.want[len(tc.want)-1] {
			t.Errorf("%+v: next %d", tc.q, page.Next)
		}
	}
}

// TestMetaIntakeRefuses: what fails validation is refused whole, with the
// place named, and nothing of the batch is stored.
func TestMetaIntakeRefuses(t *testing.T) {
	store := NewMemoryMeta()
	srv, c := metaServer(t, store, WithMaxMetaBatch(3), WithMaxBodyBytes(4096))
	deep := strings.Repeat(`{"a":`, 200) + "1" + strings.Repeat("}", 200)
	for _, tc := range []struct {
		name, query, body, want string
		status                  int
	}{
		{"no thread", "", `{"type":"META","metaType":"note","payload":{"text":"x"}}`, "threadId", 400},
		{"not JSON", "?threadId=t", `{"type":"META",`, "invalid META events", 400},
		{"wrong type", "?threadId=t", `[{"type":"META","metaType":"note","payload":{"text":"ok"}},{"type":"META","metaType":"rating","payload":{"messageId":"m","rating":"five"}}]`, `"path":"/1/payload/rating"`, 400},
		{"missing payload field", "?threadId=t", `{"type":"META","metaType":"thumbs_up","payload":{}}`, `"path":"/payload/messageId"`, 400},
		{"another event type", "?threadId=t", `[{"type":"RUN_STARTED","threadId":"t","runId":"r"}]`, "only META events", 400},
		{"CUSTOM not meta", "?threadId=t", `[{"type":"CUSTOM","name":"x","value":{}}]`, `"path":"/0/name"`, 400},
		{"empty batch", "?threadId=t", `[]`, "no events", 400},
		{"too many", "?threadId=t", `[` + strings.Repeat(`{"type":"META","metaType":"share","payload":{}},`, 3) + `{"type":"META","metaType":"share","payload":{}}]`, "at most 3", 413},
		{"too large", "?threadId=t", `{"type":"META","metaType":"note","payload":{"text":"` + strings.Repeat("x", 5000) + `"}}`, "exceeds 4096 bytes", 413},
		{"deeply nested", "?threadId=t", `{"type":"META","metaType":"analytics","payload":{"event":"e","properties":` + deep + `}}`, "invalid META events", 400},
		{"empty id", "?threadId=t", `{"type":"META","id":"","metaType":"share","payload":{}}`, `"path":"/id"`, 400},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := http.Post(srv.URL+"/agent/meta"+tc.query, "application/json", strings.NewReader(tc.body))
			if err != nil {
				t.Fatal(err)
			}
			body := readAll(t, res)
			if res.StatusCode != tc.status || !strings.Contains(body, tc.want) {
				t.Errorf("%d %s, want %d with %s", res.StatusCode, body, tc.status, tc.want)
			}
		})
	}
	if page, _ := c.Meta(context.Background(), MetaQuery{ThreadID: "t"}); len(page.Events) != 0 {
		t.Errorf("refused events were stored: %+v", page.Events)
	}
	// Hostile strings in an unknown metaType are kept verbatim and come back
	// as JSON, escaped.
	hostile := `{"type":"META","id":"h1","metaType":"<script>alert(1)</script>","payload":{"html":"</script><img src=x onerror=alert(1)>","nul":"\u0000"}}`
	res, err := http.Post(srv.URL+"/agent/meta?threadId=t", "application/json", strings.NewReader(hostile))
	if err != nil || res.StatusCode != 200 {
		t.Fatalf("an unknown metaType: %v %v", res.Status, err)
	}
	readAll(t, res)
	page, err := c.Meta(context.Background(), MetaQuery{ThreadID: "t"})
	if err != nil || len(page.Events) != 1 || page.Events[0].Event.Payload.MetaType() != "<script>alert(1)</script>" {
		t.Fatalf("the hostile event: %+v %v", page, err)
	}
	res, _ = http.Get(srv.URL + "/agent/meta?threadId=t")
	if raw := readAll(t, res); strings.Contains(raw, "<script>") || res.Header.Get("Content-Type") != "application/json" {
		t.Errorf("served unescaped: %s", raw)
	}
}

// TestMetaReplayAndAuth: a run starts by replaying its thread's stored
// META; the intake is behind the agent's authorization.
func TestMetaReplayAndAuth(t *testing.T) {
	store := NewMemoryMeta()
	srv, c := metaServer(t, store, WithMetaReplay(), WithBearerToken("k"))
	ctx := context.Background()
	var he *agui.HTTPError
	if _, err := c.SendMeta(ctx, "t1", "", agui.NewThumbsUpMeta("m1")); !errors.As(err, &he) || he.StatusCode != 401 {
		t.Fatalf("without the token: %v", err)
	}
	c.Header = http.Header{"Authorization": {"Bearer k"}}
	if _, err := c.SendMeta(ctx, "t1", "", agui.NewThumbsUpMeta("m1"), agui.NewNoteMeta("n")); err != nil {
		t.Fatal(err)
	}
	rs, err := (&Client{URL: srv.URL, Header: c.Header}).Run(ctx, &agui.RunAgentInput{ThreadID: "t1", RunID: "r1", Messages: []agui.Message{}})
	if err != nil {
		t.Fatal(err)
	}
	got := streamed(t, rs)
	// Sent as CUSTOM, read back as META by the client.
	if tys := strings.Join(types(got), " "); !strings.HasPrefix(tys, "RUN_STARTED META META TEXT_MESSAGE_START") {
		t.Fatalf("events %s", tys)
	}
	metas := SelectMeta(slices.Values(got), MetaQuery{ThreadID: "t1", MetaType: "note", RunID: "r1"})
	if len(metas) != 1 || metas[0].Payload.(*agui.NotePayload).Text != "n" {
		t.Errorf("selected %v", metas)
	}
}

func readAll(t *testing.T, res *http.Response) string {
	t.Helper()
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestMemoryMetaStore(t *testing.T) {
	// The contract runs on the generated copy, whose types it knows.
	metastoretest.Run(t, func(*testing.T) agui.MetaStore { return agui.NewMemoryMeta() }, nil)
}

func TestMemoryMetaIntake(t *testing.T) { metastoretest.Intake(t, agui.NewMemoryMeta()) }

func TestMemoryThreadIsolation(t *testing.T) {
	metastoretest.Isolation(t, agui.NewMemoryCheckpoints().(metastoretest.ThreadStore), agui.NewMemoryMeta())
}

func TestMemoryThreads(t *testing.T) {
	// Memory keeps nothing across a restart: reopening is the same store.
	store := agui.NewMemoryCheckpoints().(metastoretest.ThreadStore)
	same := func(*testing.T) metastoretest.ThreadStore { return store }
	metastoretest.Threads(t, same, same)
}

// FuzzMetaIntake: any body gets an answer, never a server error, and what
// is acknowledged is stored and valid.
func FuzzMetaIntake(f *testing.F) {
	for _, seed := range []string{
		`{"type":"META","metaType":"thumbs_up","payload":{"messageId":"m1"}}`,
		`[{"type":"META","id":"x","metaType":"note","payload":{"text":"a"}},{"type":"CUSTOM","name":"meta","value":{"type":"META","metaType":"share","payload":{}}}]`,
		`{"type":"META","metaType":"rating","payload":{"messageId":"m","rating":1e309}}`,
		`[[[[]]]]`, `{"type":"META","metaType":"\u0000","payload":{"a":[{"b":null}]}}`, `"META"`, ``,
	} {
		f.Add([]byte(seed))
	}
	store := agui.NewMemoryMeta()
	h := agui.NewHandler(agui.AgentFunc(func(context.Context, *agui.RunAgentInput, *agui.Stream) error { return nil }),
		agui.WithMetaStore(store), agui.WithLogger(quietLogger()))
	f.Fuzz(func(t *testing.T, body []byte) {
		req := httptest.NewRequest(http.MethodPost, "/agent/meta?threadId=fuzz", bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code >= 500 {
			t.Fatalf("%d for %q: %s", rec.Code, body, rec.Body)
		}
		if rec.Code != 200 {
			return
		}
		var got agui.MetaIntake
		if err := json.Unmarshal(rec.Body.Bytes(), &got); err != nil || len(got.Events) == 0 {
			t.Fatalf("acknowledged %q with %s", body, rec.Body)
		}
		for _, m := range got.Events {
			if err := m.Event.Validate(); err != nil {
				t.Fatalf("stored an invalid event: %v", err)
			}
			page, _ := store.Meta(context.Background(), agui.MetaQuery{ThreadID: "fuzz", After: m.Seq - 1, Limit: 1})
			if len(page) != 1 || *page[0].Event.ID != *m.Event.ID {
				t.Fatalf("acknowledged but not stored: %+v", m)
			}
		}
	})
}

// TestMetaPagesAreBoundedInBytes: a page of large events ends past
// MaxMetaPageBytes, its cursor goes on from there, and the client reads
// pages and acknowledgements larger than its control answers.
func TestMetaPagesAreBoundedInBytes(t *testing.T) {
	_, c := metaServer(t, NewMemoryMeta(), WithMaxBodyBytes(8<<20))
	ctx := context.Background()
	note := strings.Repeat("n", 100<<10)
	var events []*agui.MetaEvent
	for range 60 {
		events = append(events, agui.NewNoteMeta(note))
	}
	stored, err := c.SendMeta(ctx, "big", "", events...) // a 6 MB acknowledgement
	if err != nil || len(stored) != 60 {
		t.Fatalf("sent 60 notes of 100 KiB: %d stored, %v", len(stored), err)
	}
	var pages []int
	q := MetaQuery{ThreadID: "big", Limit: MaxMetaPage}
	for {
		page, err := c.Meta(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		if len(page.Events) == 0 {
			break
		}
		pages = append(pages, len(page.Events))
		q.After = page.Next
	}
	// The 41st event of 100 KiB passes 4 MiB and ends the first page.
	if !slices.Equal(pages, []int{41, 19}) {
		t.Errorf("pages of %v events", pages)
	}
}

// TestSendMetaIsSafeToRepeat: the client gives an event its id before
// sending, so sending the same events again stores each once.
func TestSendMetaIsSafeToRepeat(t *testing.T) {
	_, c := metaServer(t, NewMemoryMeta())
	ctx := context.Background()
	events := []*agui.MetaEvent{agui.NewThumbsUpMeta("m1"), agui.NewNoteMeta("n")}
	first, err := c.SendMeta(ctx, "t", "", events...)
	if err != nil {
		t.Fatal(err)
	}
	again, err := c.SendMeta(ctx, "t", "", events...)
	if err != nil || again[0].Seq != first[0].Seq || again[1].Seq != first[1].Seq {
		t.Fatalf("sent twice: %+v then %+v (%v)", first, again, err)
	}
}

// TestMetaDepthIsPerEvent: an event nests as deeply alone as in a batch,
// and a batch's error names the event.
func TestMetaDepthIsPerEvent(t *testing.T) {
	srv, _ := metaServer(t, NewMemoryMeta())
	nested := func(levels int) string { // the event and payload are two levels
		return `{"type":"META","metaType":"analytics","payload":{"event":"e","properties":` +
			strings.Repeat(`{"a":`, levels-2) + "1" + strings.Repeat("}", levels-2) + `}}`
	}
	for _, tc := range []struct {
		name, body, want string
		status           int
	}{
		{"alone, at the limit", nested(MaxMetaDepth), "", 200},
		{"in a batch, at the limit", "[" + nested(MaxMetaDepth) + "]", "", 200},
		{"alone, past it", nested(MaxMetaDepth + 1), `"rule":"depth"`, 400},
		{"in a batch, past it", "[" + nested(3) + "," + nested(MaxMetaDepth+1) + "]", `"path":"/1","rule":"depth"`, 400},
	} {
		res, err := http.Post(srv.URL+"/agent/meta?threadId=deep", "application/json", strings.NewReader(tc.body))
		if err != nil {
			t.Fatal(err)
		}
		if body := readAll(t, res); res.StatusCode != tc.status || !strings.Contains(body, tc.want) {
			t.Errorf("%s: %d %s", tc.name, res.StatusCode, body)
		}
	}
}

// TestSelectMetaRunsEnd: a META event after its run's end belongs to no
// run.
func TestSelectMetaRunsEnd(t *testing.T) {
	up := agui.NewThumbsUpMeta("m1")
	events := []agui.Event{
		&agui.RunStartedEvent{ThreadID: "t", RunID: "r1"}, agui.NewNoteMeta("during"),
		&agui.RunFinishedEvent{ThreadID: "t", RunID: "r1"}, up,
	}
	if got := SelectMeta(slices.Values(events), MetaQuery{ThreadID: "t", RunID: "r1"}); len(got) != 1 || got[0].Payload.MetaType() != "note" {
		t.Errorf("run r1 selected %v", got)
	}
	if got := SelectMeta(slices.Values(events), MetaQuery{ThreadID: "t", MetaType: "thumbs_up"}); len(got) != 1 || got[0] != up {
		t.Errorf("the thread selected %v", got)
	}
}

// TestNativeMetaOverProtobuf: the protobuf transport has no META, so even
// with WithNativeMeta replayed feedback reaches a protobuf client, as the
// CUSTOM that carries it.
func TestNativeMetaOverProtobuf(t *testing.T) {
	srv, c := metaServer(t, NewMemoryMeta(), WithMetaReplay(), WithNativeMeta())
	ctx := context.Background()
	if _, err := c.SendMeta(ctx, "t", "", agui.NewThumbsUpMeta("m1")); err != nil {
		t.Fatal(err)
	}
	for _, proto := range []bool{false, true} {
		rs, err := (&Client{URL: srv.URL, Protobuf: proto}).Run(ctx, &agui.RunAgentInput{ThreadID: "t", RunID: "r" + strconv.FormatBool(proto), Messages: []agui.Message{}})
		if err != nil {
			t.Fatal(err)
		}
		if tys := strings.Join(types(streamed(t, rs)), " "); !strings.HasPrefix(tys, "RUN_STARTED META TEXT_MESSAGE_START") {
			t.Errorf("protobuf %v: %s", proto, tys)
		}
	}
}
