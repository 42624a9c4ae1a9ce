package a2atask

import (
	"errors"
	"strings"
	"testing"

	a2a "github.com/agui-gen/agui-gen/gen/a2a"
)

// fakeRows yields fixed rows of values.
type fakeRows struct {
	rows [][]any
	i    int
	err  error
}

func (r *fakeRows) Next() bool { r.i++; return r.i <= len(r.rows) }
func (r *fakeRows) Err() error { return r.err }

func (r *fakeRows) Scan(dest ...any) error {
	row := r.rows[r.i-1]
	if len(row) != len(dest) {
		return errors.New("wrong column count")
	}
	for i, d := range dest {
		switch d := d.(type) {
		case *string:
			*d = row[i].(string)
		case *int64:
			*d = row[i].(int64)
		case *[]byte:
			*d = row[i].([]byte)
		}
	}
	return nil
}

func TestScanRows(t *testing.T) {
	task := &a2a.Task{ID: "t1", ContextID: "c1", Status: &a2a.TaskStatus{State: a2a.TaskStateWorking}}
	recs, err := ScanSnapshots(&fakeRows{rows: [][]any{{"alice", int64(5), int64(3), task.AppendProto(nil)}}})
	if err != nil || len(recs) != 1 || recs[0].Record.Owner != "alice" || recs[0].Record.Generation != 3 || recs[0].Generation != 5 || recs[0].Record.Task.ID != "t1" {
		t.Fatalf("records %v %v", recs, err)
	}
	ev := &a2a.StreamResponse{Payload: &a2a.StreamResponseTask{Task: task}}
	events, err := ScanEvents(&fakeRows{rows: [][]any{{int64(1), ev.AppendProto(nil)}, {int64(2), ev.AppendProto(nil)}}})
	if err != nil || len(events) != 2 || events[1].Generation != 2 {
		t.Fatalf("events %v %v", events, err)
	}
	ids, err := ScanStrings(&fakeRows{rows: [][]any{{"a"}, {"b"}}})
	if err != nil || strings.Join(ids, ",") != "a,b" {
		t.Fatalf("ids %v %v", ids, err)
	}

	// A blob that is not the message, a failed scan and a failed query are errors.
	corrupt := []byte{0xff, 0xff, 0xff}
	if _, err := ScanSnapshots(&fakeRows{rows: [][]any{{"alice", int64(1), int64(1), corrupt}}}); err == nil || !strings.Contains(err.Error(), "stored task does not decode") {
		t.Errorf("corrupt task: %v", err)
	}
	if _, err := ScanEvents(&fakeRows{rows: [][]any{{int64(1), corrupt}}}); err == nil || !strings.Contains(err.Error(), "stored event does not decode") {
		t.Errorf("corrupt event: %v", err)
	}
	if _, err := ScanPushConfigs(&fakeRows{rows: [][]any{{corrupt}}}); err == nil || !strings.Contains(err.Error(), "stored push config does not decode") {
		t.Errorf("corrupt push config: %v", err)
	}
	if _, err := ScanStrings(&fakeRows{rows: [][]any{{"a", "b"}}}); err == nil {
		t.Error("a scan error was dropped")
	}
	broken := errors.New("connection lost")
	if _, err := ScanStrings(&fakeRows{err: broken}); !errors.Is(err, broken) {
		t.Errorf("rows.Err dropped: %v", err)
	}
}
