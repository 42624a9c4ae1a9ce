package aguirt

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"log/slog"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	agui "github.com/agui-gen/agui-gen/gen/agui"
	"github.com/agui-gen/agui-gen/runtime/metastore"
)

// MetaPath is the route, below an agent's endpoint, where META events that
// arrive outside a run are sent (POST) and read back (GET).
const MetaPath = "/meta"

// MetaCustomName is the name of the CUSTOM event that carries a META event
// to clients that refuse event types they do not know (@ag-ui/client 1.0
// among them): CUSTOM{name: "meta", value: <the META event>}.
const MetaCustomName = "meta"

// DefaultMaxMetaBatch bounds the events of one META intake request.
const DefaultMaxMetaBatch = 100

// MaxMetaPage is the most events a query returns, and what a run's replay
// reads at a time.
const MaxMetaPage = 1000

// MaxMetaPageBytes bounds the JSON of a query's page: a page ends at the
// event that passes it (so it always holds one, when there is one), and
// its Next cursor goes on from there.
const MaxMetaPageBytes = 4 << 20

// MaxMetaKeyBytes bounds the thread and run ids META events are stored
// under: they are database keys.
const MaxMetaKeyBytes = 1024

// StoredMeta is a META event as a MetaStore keeps it.
type StoredMeta struct {
	// Seq orders the events a store holds: the cursor of MetaQuery.After.
	Seq int64 `json:"seq"`
	// ThreadID is the thread the event is about; RunID, the run, when the
	// sender named one.
	ThreadID string `json:"threadId"`
	RunID    string `json:"runId,omitempty"`
	// Received is when the store took it.
	Received time.Time       `json:"receivedAt"`
	Event    *agui.MetaEvent `json:"event"`
}

// MetaQuery selects a thread's stored META events, in Seq order.
type MetaQuery struct {
	ThreadID  string
	MetaType  string // "" for all
	MessageID string // "" for all
	RunID     string // "" for all
	After     int64  // only events with a greater Seq
	Limit     int    // at most this many (0: DefaultMetaPage)
}

// DefaultMetaPage is how many events a query returns when it does not say.
const DefaultMetaPage = 100

// Match reports whether a stored event is one q selects, After and Limit
// aside.
func (q MetaQuery) Match(m StoredMeta) bool {
	return m.ThreadID == q.ThreadID && (q.MetaType == "" || m.Event.Payload.MetaType() == q.MetaType) &&
		(q.MessageID == "" || m.Event.MessageID() == q.MessageID) && (q.RunID == "" || m.RunID == q.RunID)
}

// ErrMetaConflict is returned by MetaStore.PutMeta when an event's id is
// already the thread's for a different event.
var ErrMetaConflict = metastore.ErrConflict

// MetaStore keeps the META events of threads. PutMeta stores a batch whole
// or not at all: an event whose id the thread already holds is the same
// event sent again and is not stored twice (the stored one is returned),
// unless it differs, which is ErrMetaConflict for the batch. Every event
// PutMeta is given has an id.
type MetaStore interface {
	PutMeta(ctx context.Context, threadID, runID string, events []*agui.MetaEvent) ([]StoredMeta, error)
	Meta(ctx context.Context, q MetaQuery) ([]StoredMeta, error)
}

// WithMetaStore takes META events at POST {path}/meta and serves them at
// GET {path}/meta, behind the same authorization as runs. With an
// authenticator, a caller sends and reads the META of its own threads
// only (see ThreadOwners): one it has run on, or one WithThreadAccess
// shares with it; any other thread is not found (404).
func WithMetaStore(store MetaStore) Option { return func(c *handlerConfig) { c.meta = store } }

// WithMetaReplay sends a thread's stored META events at the start of each
// of its runs, after RUN_STARTED, so a client's view shows the feedback
// given outside runs.
func WithMetaReplay() Option { return func(c *handlerConfig) { c.metaReplay = true } }

// WithNativeMeta sends META events as META on SSE. By default they go as
// CUSTOM{name: "meta"} (MetaCustomName), which every AG-UI client accepts:
// @ag-ui/client 1.0.0 drops a META event without a word. The protobuf
// transport has no META event, so there they always go as CUSTOM. The
// generated client reads both.
func WithNativeMeta() Option { return func(c *handlerConfig) { c.nativeMeta = true } }

// WithMaxMetaBatch bounds the events of one META intake request (default
// DefaultMaxMetaBatch).
func WithMaxMetaBatch(n int) Option { return func(c *handlerConfig) { c.maxMetaBatch = n } }

// MetaAsCustom wraps a META event in the CUSTOM event that carries it to
// clients without META.
func MetaAsCustom(m *agui.MetaEvent) *agui.CustomEvent {
	return &agui.CustomEvent{Name: MetaCustomName, Value: m.AppendJSON(nil)}
}

// MetaFromCustom reads the META event a CUSTOM event carries; ok is false
// for any other CUSTOM event, and err says why a carried one is invalid.
func MetaFromCustom(c *agui.CustomEvent) (m *agui.MetaEvent, ok bool, err error) {
	if c.Name != MetaCustomName {
		return nil, false, nil
	}
	m, err = decodeMeta(c.Value)
	return m, true, err
}

func decodeMeta(data []byte) (*agui.MetaEvent, error) {
	m := new(agui.MetaEvent)
	if err := m.UnmarshalJSON(data); err != nil {
		return nil, err
	}
	if err := m.Validate(); err != nil {
		return nil, err
	}
	return m, nil
}

// MetaIntake is the answer to POST {path}/meta.
type MetaIntake struct {
	// Events are the events as stored, in the order sent.
	Events []StoredMeta `json:"events"`
}

// MetaPage is the answer to GET {path}/meta.
type MetaPage struct {
	Events []StoredMeta `json:"events"`
	// Next is the cursor for the events after these (the last Seq), or
	// After again when there are none.
	Next int64 `json:"next"`
}

// serveMeta answers {path}/meta: POST takes events, GET reads them.
func (h *handler) serveMeta(w http.ResponseWriter, r *http.Request) {
	if h.cfg.meta == nil {
		h.reject(w, r, http.StatusNotFound, "this agent takes no META events", nil)
		return
	}
	if r.Method != http.MethodPost {
		h.serveMetaQuery(w, r)
		return
	}
	q := r.URL.Query()
	threadID, runID := q.Get("threadId"), q.Get("runId")
	if threadID == "" {
		h.reject(w, r, http.StatusBadRequest, "name the thread the events are about: ?threadId=", nil)
		return
	}
	if err := errors.Join(checkKey("threadId", threadID), checkKey("runId", runID)); err != nil {
		h.reject(w, r, http.StatusBadRequest, err.Error(), nil)
		return
	}
	// Before the body is read: feedback on a thread the caller cannot see
	// is not worth buffering.
	if err := h.threadAccess(r.Context(), threadID, false); err != nil {
		h.rejectThread(w, r, err)
		return
	}
	body, ok := h.readJSONBody(w, r)
	if !ok {
		return
	}
	events, err := h.readMeta(body)
	if err != nil {
		var e *agui.Error
		errors.As(err, &e)
		status := http.StatusBadRequest
		if errors.Is(err, errMetaBatch) {
			status = http.StatusRequestEntityTooLarge
		}
		h.reject(w, r, status, "invalid META events: "+err.Error(), e)
		return
	}
	stored, err := h.cfg.meta.PutMeta(r.Context(), threadID, runID, events)
	switch {
	case errors.Is(err, ErrMetaConflict):
		h.reject(w, r, http.StatusConflict, err.Error(), nil)
		return
	case err != nil:
		h.cfg.logger.LogAttrs(r.Context(), slog.LevelError, "agui: storing META events", slog.String("error", err.Error()))
		h.reject(w, r, http.StatusInternalServerError, "the events could not be stored", nil)
		return
	}
	if h.cfg.telemetry.Metering() {
		for _, ev := range events {
			h.obs.MetaEvent(r.Context(), ev.Payload.MetaType())
		}
	}
	writeJSON(w, http.StatusOK, MetaIntake{Events: stored})
}

var errMetaBatch = errors.New("too many events")

// MaxMetaDepth bounds how deeply a META event sent to the intake may nest
// (alone or in a batch, the batch's array aside): feedback is flat, and a
// deep document costs its reader more than it is worth.
const MaxMetaDepth = 32

// checkKey refuses a query parameter a store could not keep as a key.
func checkKey(name, v string) error {
	if len(v) > MaxMetaKeyBytes {
		return fmt.Errorf("%s is %d bytes long, at most %d", name, len(v), MaxMetaKeyBytes)
	}
	return checkText(name, v)
}

// checkText refuses text a store could not keep in a text column:
// PostgreSQL's text holds neither NUL nor invalid UTF-8.
func checkText(name, v string) error {
	switch {
	case !utf8.ValidString(v):
		return fmt.Errorf("%s is not valid UTF-8", name)
	case strings.IndexByte(v, 0) >= 0:
		return fmt.Errorf("%s holds a NUL character", name)
	}
	return nil
}

// depth is how deeply data's objects and arrays nest, strings skipped.
func depth(data []byte) int {
	d, most, inString := 0, 0, false
	for i := 0; i < len(data); i++ {
		c := data[i]
		switch {
		case inString && c == '\\':
			i++
		case c == '"':
			inString = !inString
		case inString:
		case c == '{' || c == '[':
			if d++; d > most {
				most = d
			}
		case c == '}' || c == ']':
			d--
		}
	}
	return most
}

// readMeta reads an intake body: one META event, or an array of them,
// each as META or as the CUSTOM that carries one. Every event must be
// valid; an event without an id gets one.
func (h *handler) readMeta(body []byte) ([]*agui.MetaEvent, error) {
	var raws []json.RawMessage
	trimmed := bytes.TrimLeft(body, " \t\r\n")
	batch := len(trimmed) > 0 && trimmed[0] == '['
	if batch {
		if err := json.Unmarshal(body, &raws); err != nil {
			return nil, &agui.Error{Rule: "syntax", Offset: -1, Msg: err.Error()}
		}
	} else {
		raws = []json.RawMessage{body}
	}
	limit := h.cfg.maxMetaBatch
	if limit <= 0 {
		limit = DefaultMaxMetaBatch
	}
	if len(raws) > limit {
		return nil, fmt.Errorf("%w: %d, at most %d a request", errMetaBatch, len(raws), limit)
	}
	if len(raws) == 0 {
		return nil, &agui.Error{Rule: "minItems", Offset: -1, Msg: "no events"}
	}
	events := make([]*agui.MetaEvent, len(raws))
	for i, raw := range raws {
		if depth(raw) > MaxMetaDepth {
			err := &agui.Error{Rule: "depth", Offset: -1, Msg: fmt.Sprintf("objects and arrays nest more than %d deep", MaxMetaDepth)}
			return nil, atIndex(err, i, batch)
		}
		ev, err := agui.UnmarshalEvent(raw)
		if err == nil {
			err = ev.Validate()
		}
		if err != nil {
			return nil, atIndex(err, i, batch)
		}
		switch ev := ev.(type) {
		case *agui.MetaEvent:
			events[i] = ev
		case *agui.CustomEvent:
			m, ok, err := MetaFromCustom(ev)
			if !ok {
				err = &agui.Error{Path: "/name", Rule: "const", Offset: -1, Msg: "a CUSTOM event here carries META: name " + strconv.Quote(MetaCustomName)}
			}
			if err != nil {
				return nil, atIndex(err, i, batch)
			}
			events[i] = m
		default:
			return nil, atIndex(&agui.Error{Path: "/type", Rule: "const", Offset: -1, Msg: "only META events are taken here, not " + string(ev.Type())}, i, batch)
		}
		if err := storable(events[i]); err != nil {
			return nil, atIndex(err, i, batch)
		}
		if events[i].ID == nil {
			id := NewID("meta")
			events[i].ID = &id
		}
	}
	return events, nil
}

// storable refuses an event whose id, metaType or messageId a store could
// not keep as text; the schema allows them, the columns do not.
func storable(m *agui.MetaEvent) error {
	for _, f := range []struct{ path, name, v string }{
		{"/id", "id", deref(m.ID)}, {"/metaType", "metaType", m.Payload.MetaType()}, {"/payload/messageId", "messageId", m.MessageID()},
	} {
		if err := checkText(f.name, f.v); err != nil {
			return &agui.Error{Path: f.path, Rule: "text", Offset: -1, Msg: err.Error()}
		}
	}
	return nil
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// atIndex puts an event's error at its place in a batch.
func atIndex(err error, i int, batch bool) error {
	var e *agui.Error
	if !batch || !errors.As(err, &e) {
		return err
	}
	moved := *e
	moved.Path = "/" + strconv.Itoa(i) + e.Path
	return &moved
}

// serveMetaQuery answers GET {path}/meta?threadId=&metaType=&messageId=&runId=&after=&limit=.
func (h *handler) serveMetaQuery(w http.ResponseWriter, r *http.Request) {
	q, err := parseMetaQuery(r.URL.Query())
	if err != nil {
		h.reject(w, r, http.StatusBadRequest, err.Error(), nil)
		return
	}
	if err := h.threadAccess(r.Context(), q.ThreadID, false); err != nil {
		h.rejectThread(w, r, err)
		return
	}
	events, err := h.cfg.meta.Meta(r.Context(), q)
	if err != nil {
		h.cfg.logger.LogAttrs(r.Context(), slog.LevelError, "agui: reading META events", slog.String("error", err.Error()))
		h.reject(w, r, http.StatusInternalServerError, "the events could not be read", nil)
		return
	}
	page := MetaPage{Events: []StoredMeta{}, Next: q.After}
	size := 0
	for _, m := range events {
		if size > MaxMetaPageBytes {
			break
		}
		size += len(m.Event.AppendJSON(nil))
		page.Events, page.Next = append(page.Events, m), m.Seq
	}
	writeJSON(w, http.StatusOK, page)
}

func parseMetaQuery(v url.Values) (MetaQuery, error) {
	q := MetaQuery{ThreadID: v.Get("threadId"), MetaType: v.Get("metaType"), MessageID: v.Get("messageId"), RunID: v.Get("runId")}
	if q.ThreadID == "" {
		return q, errors.New("name the thread: ?threadId=")
	}
	err := errors.Join(checkKey("threadId", q.ThreadID), checkKey("runId", q.RunID), checkText("metaType", q.MetaType), checkText("messageId", q.MessageID))
	if err != nil {
		return q, err
	}
	if s := v.Get("after"); s != "" {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil || n < 0 {
			return q, fmt.Errorf("after=%q is not a cursor", s)
		}
		q.After = n
	}
	if s := v.Get("limit"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 || n > MaxMetaPage {
			return q, fmt.Errorf("limit=%q: give 1 to %d", s, MaxMetaPage)
		}
		q.Limit = n
	}
	return q, nil
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// replayMeta sends a thread's stored META events into a run that starts.
func (h *handler) replayMeta(ctx context.Context, stream *Stream, threadID string) {
	q := MetaQuery{ThreadID: threadID, Limit: MaxMetaPage}
	for {
		page, err := h.cfg.meta.Meta(ctx, q)
		if err != nil {
			h.cfg.logger.LogAttrs(ctx, slog.LevelWarn, "agui: replaying META events", slog.String("error", err.Error()))
			return
		}
		for _, m := range page {
			if err := stream.Emit(m.Event); err != nil {
				return
			}
		}
		if len(page) < q.Limit {
			return
		}
		q.After = page[len(page)-1].Seq
	}
}

// NewMemoryMeta keeps META events in memory, for one process.
func NewMemoryMeta() MetaStore { return &memoryMeta{byID: map[[2]string]int{}} }

type memoryMeta struct {
	mu     sync.Mutex
	events []StoredMeta
	byID   map[[2]string]int // (thread, id) → index in events
}

func (m *memoryMeta) PutMeta(_ context.Context, threadID, runID string, events []*agui.MetaEvent) ([]StoredMeta, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]StoredMeta, len(events))
	fresh := map[[2]string]int{}
	for i, ev := range events {
		key := [2]string{threadID, *ev.ID}
		if j, ok := m.byID[key]; ok {
			if !bytes.Equal(m.events[j].Event.AppendJSON(nil), ev.AppendJSON(nil)) {
				return nil, fmt.Errorf("%w: %s", ErrMetaConflict, *ev.ID)
			}
			out[i] = m.events[j]
			continue
		}
		if j, ok := fresh[key]; ok { // the same id twice in one batch
			if !bytes.Equal(out[j].Event.AppendJSON(nil), ev.AppendJSON(nil)) {
				return nil, fmt.Errorf("%w: %s", ErrMetaConflict, *ev.ID)
			}
			out[i] = out[j]
			continue
		}
		fresh[key] = i
		out[i] = StoredMeta{ThreadID: threadID, RunID: runID, Received: time.Now().UTC().Truncate(time.Millisecond), Event: ev}
	}
	for i := range out {
		if j, ok := fresh[[2]string{threadID, *events[i].ID}]; ok && j == i {
			out[i].Seq = int64(len(m.events)) + 1
			m.byID[[2]string{threadID, *events[i].ID}] = len(m.events)
			m.events = append(m.events, out[i])
		} else if ok {
			out[i] = out[j]
		}
	}
	return out, nil
}

func (m *memoryMeta) Meta(_ context.Context, q MetaQuery) ([]StoredMeta, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	limit := q.Limit
	if limit <= 0 {
		limit = DefaultMetaPage
	}
	start, _ := slices.BinarySearchFunc(m.events, q.After+1, func(e StoredMeta, seq int64) int { return int(e.Seq - seq) })
	var out []StoredMeta
	for _, e := range m.events[start:] {
		if q.Match(e) {
			out = append(out, e)
			if len(out) == limit {
				break
			}
		}
	}
	return out, nil
}

// SendMeta sends META events about a thread (and, when runID is not "", a
// run of it) to POST {URL}/meta, and returns them as stored. An event
// without an id is given one here, on the event, so that sending the same
// events again (after an error, say) stores each once.
func (c *Client) SendMeta(ctx context.Context, threadID, runID string, events ...*agui.MetaEvent) ([]StoredMeta, error) {
	body := []byte{'['}
	for i, e := range events {
		if i > 0 {
			body = append(body, ',')
		}
		if e.ID == nil {
			id := NewID("meta")
			e.ID = &id
		}
		body = e.AppendJSON(body)
	}
	body = append(body, ']')
	q := url.Values{"threadId": {threadID}}
	if runID != "" {
		q.Set("runId", runID)
	}
	data, err := c.endpoint().Call(ctx, http.MethodPost, MetaPath+"?"+q.Encode(), body, maxMetaAnswer)
	if err != nil {
		return nil, err
	}
	var out MetaIntake
	if err := decodeStored(data, &out); err != nil {
		return nil, err
	}
	return out.Events, nil
}

// Meta reads stored META events from GET {URL}/meta: a page of q's, and
// the cursor of the next.
func (c *Client) Meta(ctx context.Context, q MetaQuery) (*MetaPage, error) {
	v := url.Values{"threadId": {q.ThreadID}}
	for k, s := range map[string]string{"metaType": q.MetaType, "messageId": q.MessageID, "runId": q.RunID} {
		if s != "" {
			v.Set(k, s)
		}
	}
	if q.After > 0 {
		v.Set("after", strconv.FormatInt(q.After, 10))
	}
	if q.Limit > 0 {
		v.Set("limit", strconv.Itoa(q.Limit))
	}
	data, err := c.endpoint().Call(ctx, http.MethodGet, MetaPath+"?"+v.Encode(), nil, maxMetaAnswer)
	if err != nil {
		return nil, err
	}
	var page MetaPage
	if err := decodeStored(data, &page); err != nil {
		return nil, err
	}
	return &page, nil
}

// maxMetaAnswer bounds what the client reads of a META answer: a page is
// bounded by MaxMetaPageBytes and one event, an intake's answer by its
// request and the place of each event.
const maxMetaAnswer = 64 << 20

// decodeStored reads an intake or query answer, checking every event.
func decodeStored(data []byte, v any) error {
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("agui: reading the META answer: %w", err)
	}
	var events []StoredMeta
	switch v := v.(type) {
	case *MetaIntake:
		events = v.Events
	case *MetaPage:
		events = v.Events
	}
	for i, e := range events {
		if e.Event == nil {
			return fmt.Errorf("agui: the META answer's event %d is missing", i)
		}
		if err := e.Event.Validate(); err != nil {
			return fmt.Errorf("agui: the META answer's event %d: %w", i, err)
		}
	}
	return nil
}

// SelectMeta picks out of a mixed stream the META events q selects (After
// and Limit aside). An event belongs to the thread and run whose stream
// carries it: that of the RUN_STARTED before it, up to the run's end;
// one before any run belongs to q's thread, and one between runs to the
// thread of the run before it and to no run. Replayed feedback
// (WithMetaReplay) is carried by every run of its thread, so to ask which
// run feedback was given about, ask the store (MetaQuery.RunID there is
// the run the sender named).
func SelectMeta(events iter.Seq[agui.Event], q MetaQuery) []*agui.MetaEvent {
	var out []*agui.MetaEvent
	thread, run := q.ThreadID, ""
	for ev := range events {
		switch e := ev.(type) {
		case *agui.RunStartedEvent:
			thread, run = e.ThreadID, e.RunID
		case *agui.RunFinishedEvent, *agui.RunErrorEvent:
			run = ""
		case *agui.MetaEvent:
			if q.Match(StoredMeta{ThreadID: thread, RunID: run, Event: e}) {
				out = append(out, e)
			}
		}
	}
	return out
}

// MetaRows is the result of a query as database drivers give it
// (database/sql's *Rows and pgx's Rows both are one).
type MetaRows interface {
	Next() bool
	Scan(dest ...any) error
	Err() error
}

// ScanMeta reads rows of (seq, run id, received in Unix milliseconds, the
// event's JSON) of a thread: for SQL MetaStores.
func ScanMeta(rows MetaRows, threadID string) ([]StoredMeta, error) {
	var out []StoredMeta
	for rows.Next() {
		m := StoredMeta{ThreadID: threadID}
		var received int64
		var data []byte
		if err := rows.Scan(&m.Seq, &m.RunID, &received, &data); err != nil {
			return nil, err
		}
		ev := new(agui.MetaEvent)
		if err := ev.UnmarshalJSON(data); err != nil {
			return nil, fmt.Errorf("agui: a stored META event does not decode: %w", err)
		}
		m.Received, m.Event = time.UnixMilli(received).UTC(), ev
		out = append(out, m)
	}
	return out, rows.Err()
}

// SQLStore is a MetaStore, Checkpoints and ThreadOwners over one of the
// runtime's SQL stores (metasqlite.Open, metapg.Open), which keep events
// and interrupts as their JSON: it encodes and decodes them.
type SQLStore struct{ b metastore.Backend }

// NewSQLStore serves b's tables as this package's types.
func NewSQLStore(b metastore.Backend) *SQLStore { return &SQLStore{b: b} }

// Close closes the database.
func (s *SQLStore) Close() error { return s.b.Close() }

// PutMeta implements MetaStore: the batch in one transaction.
func (s *SQLStore) PutMeta(ctx context.Context, threadID, runID string, events []*agui.MetaEvent) ([]StoredMeta, error) {
	puts := make([]metastore.Put, len(events))
	for i, ev := range events {
		puts[i] = metastore.Put{ID: *ev.ID, MetaType: ev.Payload.MetaType(), MessageID: ev.MessageID(), Event: ev.AppendJSON(nil)}
	}
	rows, err := s.b.PutMeta(ctx, threadID, runID, puts)
	if err != nil {
		return nil, err
	}
	out := make([]StoredMeta, len(rows))
	for i, r := range rows {
		out[i] = StoredMeta{Seq: r.Seq, ThreadID: threadID, RunID: r.RunID, Received: r.Received, Event: events[i]}
	}
	return out, nil
}

// Meta implements MetaStore.
func (s *SQLStore) Meta(ctx context.Context, q MetaQuery) ([]StoredMeta, error) {
	limit := q.Limit
	if limit <= 0 {
		limit = DefaultMetaPage
	}
	rows, err := s.b.Meta(ctx, metastore.Query{ThreadID: q.ThreadID, MetaType: q.MetaType, MessageID: q.MessageID, RunID: q.RunID, After: q.After, Limit: limit})
	if err != nil {
		return nil, err
	}
	out := make([]StoredMeta, len(rows))
	for i, r := range rows {
		ev := new(agui.MetaEvent)
		if err := ev.UnmarshalJSON(r.Event); err != nil {
			return nil, fmt.Errorf("agui: a stored META event does not decode: %w", err)
		}
		out[i] = StoredMeta{Seq: r.Seq, ThreadID: q.ThreadID, RunID: r.RunID, Received: r.Received, Event: ev}
	}
	return out, nil
}

// ClaimThread implements ThreadOwners.
func (s *SQLStore) ClaimThread(ctx context.Context, threadID, caller string) (string, error) {
	return s.b.ClaimThread(ctx, threadID, caller)
}

// ThreadOwner implements ThreadOwners.
func (s *SQLStore) ThreadOwner(ctx context.Context, threadID string) (string, bool, error) {
	return s.b.ThreadOwner(ctx, threadID)
}

// Interrupts implements Checkpoints.
func (s *SQLStore) Interrupts(ctx context.Context, threadID string) ([]agui.Interrupt, error) {
	data, err := s.b.Interrupts(ctx, threadID)
	if err != nil {
		return nil, err
	}
	return ParseInterrupts(data)
}

// SetInterrupts implements Checkpoints.
func (s *SQLStore) SetInterrupts(ctx context.Context, threadID string, open []agui.Interrupt) error {
	var data []byte
	if len(open) > 0 {
		data = AppendInterrupts(nil, open)
	}
	return s.b.SetInterrupts(ctx, threadID, data)
}
