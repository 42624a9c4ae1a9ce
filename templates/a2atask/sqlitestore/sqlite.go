// Package sqlitestore keeps A2A tasks and their event logs in a SQLite
// database file, through the pure-Go driver modernc.org/sqlite: the
// embedded default store, which survives a crash of the process and needs
// no server. Several processes may share the file; each sees the others'
// events by polling. The store is agui-gen's runtime/taskstore/sqlitetask,
// for this package's a2a types.
package sqlitestore

// This file is written against the generated packages gen/a2a and
// gen/a2a/a2atask; the generator copies it into the a2atask/sqlitestore
// subpackage of its output with those import paths rewritten.

import (
	"context"
	"time"

	a2a "github.com/agui-gen/agui-gen/gen/a2a"
	"github.com/agui-gen/agui-gen/gen/a2a/a2atask"
	"github.com/agui-gen/agui-gen/runtime/taskstore/sqlitetask"
)

// Store is an a2atask.Store, a2atask.PushOutbox, Appender, LeasedCreator
// and Peeker in a SQLite file.
type Store = sqlitetask.Store[*a2a.Task, *a2a.StreamResponse, *a2a.TaskPushNotificationConfig, a2a.TaskState]

// Option configures a Store.
type Option = sqlitetask.Option

// WithPollInterval sets how often the store looks for events other
// processes wrote to a watched task (default 200 ms). Events this process
// writes wake watchers at once.
func WithPollInterval(d time.Duration) Option { return sqlitetask.WithPollInterval(d) }

// Open opens, or creates, the database at path, in WAL mode, and brings
// its schema up to date.
func Open(ctx context.Context, path string, opts ...Option) (*Store, error) {
	return sqlitetask.Open(ctx, path, a2atask.StoreSpec(), opts...)
}
