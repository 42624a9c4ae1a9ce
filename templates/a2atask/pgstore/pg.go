// Package pgstore keeps A2A tasks and their event logs in PostgreSQL,
// through github.com/jackc/pgx/v5, so that several replicas of a server
// share them: any replica serves any request, a subscriber on one replica
// follows a task another runs, and a cancel written anywhere reaches the
// executor wherever it runs. Writes send a NOTIFY that wakes the
// replicas' watchers at once; polling catches what a lost connection
// missed. The store is agui-gen's runtime/taskstore/pgtask, for this
// package's a2a types.
package pgstore

// This file is written against the generated packages gen/a2a and
// gen/a2a/a2atask; the generator copies it into the a2atask/pgstore
// subpackage of its output with those import paths rewritten.

import (
	"context"
	"time"

	a2a "github.com/agui-gen/agui-gen/gen/a2a"
	"github.com/agui-gen/agui-gen/gen/a2a/a2atask"
	"github.com/agui-gen/agui-gen/runtime/taskstore/pgtask"
)

// Store is an a2atask.Store, a2atask.PushOutbox, Appender, LeasedCreator
// and Peeker in PostgreSQL.
type Store = pgtask.Store[*a2a.Task, *a2a.StreamResponse, *a2a.TaskPushNotificationConfig, a2a.TaskState]

// Option configures a Store.
type Option = pgtask.Option

// DefaultAnnounceDelay is how long a replica gathers its writes before it
// announces them to the others, unless WithAnnounceDelay says otherwise.
const DefaultAnnounceDelay = pgtask.DefaultAnnounceDelay

// WithAnnounceDelay sets how long a replica gathers its writes before it
// announces them to the other replicas (pgtask.WithAnnounceDelay).
func WithAnnounceDelay(d time.Duration) Option { return pgtask.WithAnnounceDelay(d) }

// WithWriteLanes sets how many batches of writes may be at the database
// at once (pgtask.WithWriteLanes).
func WithWriteLanes(n int) Option { return pgtask.WithWriteLanes(n) }

// WithPollInterval sets how often the store reads the generation of the
// watched tasks, in case a notification was lost (default 1 s).
func WithPollInterval(d time.Duration) Option { return pgtask.WithPollInterval(d) }

// Open connects to the database at dsn (a postgres:// URL or key=value
// string), brings its schema up to date, and listens for other replicas'
// writes (pgtask.Open says which connection settings to give).
func Open(ctx context.Context, dsn string, opts ...Option) (*Store, error) {
	return pgtask.Open(ctx, dsn, a2atask.StoreSpec(), opts...)
}
