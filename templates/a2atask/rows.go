package a2atask

import (
	a2a "github.com/agui-gen/agui-gen/gen/a2a"
	"github.com/agui-gen/agui-gen/runtime/taskstore"
)

// Rows is the result of a query as database drivers give it (database/sql's
// *Rows and pgx's Rows both are one). A store of your own reads its rows
// through the Scan functions below, which decode the protobuf blobs the
// SQL stores keep (runtime/taskstore).
type Rows = taskstore.Rows

// Stored is a task as a SQL store reads it: the record at its snapshot's
// generation, and the generation the task has.
type Stored = taskstore.Stored[*a2a.Task]

// ScanSnapshot reads a row of (owner, generation, snapshot generation,
// task): the record, at its snapshot's generation, and the generation the
// task has, whose events after the snapshot Replay applies.
func ScanSnapshot(row taskstore.Row) (*Record, int64, error) { return storeSpec.ScanSnapshot(row) }

// ScanSnapshots reads rows of (owner, generation, snapshot generation,
// task), as ScanSnapshot does.
func ScanSnapshots(rows Rows) ([]Stored, error) { return storeSpec.ScanSnapshots(rows) }

// ScanEvents reads rows of (generation, event).
func ScanEvents(rows Rows) ([]Event, error) { return storeSpec.ScanEvents(rows) }

// ScanPushConfigs reads rows of (config).
func ScanPushConfigs(rows Rows) ([]*a2a.TaskPushNotificationConfig, error) {
	return storeSpec.ScanConfigs(rows)
}

// ScanStrings reads rows of one text column.
func ScanStrings(rows Rows) ([]string, error) { return taskstore.ScanStrings(rows) }
