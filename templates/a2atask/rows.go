package a2atask

import (
	"fmt"

	a2a "github.com/agui-gen/agui-gen/gen/a2a"
)

// Rows is the result of a query as database drivers give it (database/sql's
// *Rows and pgx's Rows both are one). The SQL stores, and a store of your
// own, read their rows through the Scan functions below, which decode the
// protobuf blobs the stores keep.
type Rows interface {
	Next() bool
	Scan(dest ...any) error
	Err() error
}

// ScanSnapshot reads a row of (owner, generation, snapshot generation,
// task): the record, at its snapshot's generation, and the generation the
// task has, whose events after the snapshot Replay applies.
func ScanSnapshot(row interface{ Scan(dest ...any) error }) (rec *Record, generation int64, err error) {
	var snapshot int64
	var owner string
	var blob []byte
	if err := row.Scan(&owner, &generation, &snapshot, &blob); err != nil {
		return nil, 0, err
	}
	rec = &Record{Owner: owner, Generation: snapshot, Task: new(a2a.Task)}
	if err := rec.Task.UnmarshalProto(blob); err != nil {
		return nil, 0, fmt.Errorf("a2atask: a stored task does not decode: %w", err)
	}
	return rec, generation, nil
}

// Stored is a task as a SQL store reads it: the record at its snapshot's
// generation, and the generation the task has.
type Stored struct {
	Record     *Record
	Generation int64
}

// ScanSnapshots reads rows of (owner, generation, snapshot generation,
// task), as ScanSnapshot does.
func ScanSnapshots(rows Rows) ([]Stored, error) {
	return collect(rows, func() (Stored, error) {
		rec, gen, err := ScanSnapshot(rows)
		return Stored{Record: rec, Generation: gen}, err
	})
}

// ScanEvents reads rows of (generation, event).
func ScanEvents(rows Rows) ([]Event, error) {
	return collect(rows, func() (Event, error) {
		var e Event
		var blob []byte
		if err := rows.Scan(&e.Generation, &blob); err != nil {
			return e, err
		}
		e.Payload = new(a2a.StreamResponse)
		if err := e.Payload.UnmarshalProto(blob); err != nil {
			return e, fmt.Errorf("a2atask: a stored event does not decode: %w", err)
		}
		return e, nil
	})
}

// ScanPushConfigs reads rows of (config).
func ScanPushConfigs(rows Rows) ([]*a2a.TaskPushNotificationConfig, error) {
	return collect(rows, func() (*a2a.TaskPushNotificationConfig, error) {
		var blob []byte
		if err := rows.Scan(&blob); err != nil {
			return nil, err
		}
		cfg := new(a2a.TaskPushNotificationConfig)
		if err := cfg.UnmarshalProto(blob); err != nil {
			return nil, fmt.Errorf("a2atask: a stored push config does not decode: %w", err)
		}
		return cfg, nil
	})
}

// ScanStrings reads rows of one text column.
func ScanStrings(rows Rows) ([]string, error) {
	return collect(rows, func() (string, error) {
		var s string
		err := rows.Scan(&s)
		return s, err
	})
}

func collect[T any](rows Rows, scan func() (T, error)) ([]T, error) {
	var out []T
	for rows.Next() {
		v, err := scan()
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}
