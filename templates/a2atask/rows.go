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

// ScanRecord reads a row of (owner, generation, task).
func ScanRecord(row interface{ Scan(dest ...any) error }) (*Record, error) {
	var owner string
	var generation int64
	var blob []byte
	if err := row.Scan(&owner, &generation, &blob); err != nil {
		return nil, err
	}
	return DecodeRecord(owner, generation, blob)
}

// DecodeRecord is the record of a task stored as blob (protobuf binary).
func DecodeRecord(owner string, generation int64, blob []byte) (*Record, error) {
	rec := &Record{Owner: owner, Generation: generation, Task: new(a2a.Task)}
	if err := rec.Task.UnmarshalProto(blob); err != nil {
		return nil, fmt.Errorf("a2atask: a stored task does not decode: %w", err)
	}
	return rec, nil
}

// ScanRecords reads rows of (owner, generation, task).
func ScanRecords(rows Rows) ([]*Record, error) {
	return collect(rows, func() (*Record, error) { return ScanRecord(rows) })
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
