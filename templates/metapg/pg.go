// Package metapg keeps in PostgreSQL what an AG-UI handler keeps beyond a
// run, shared by its replicas: the META events of its intake
// (agui.WithMetaStore), and each thread's owner and open interrupts
// (agui.WithCheckpoints; the store is an agui.ThreadOwners too). The
// tables and queries are runtime/metastore/pgstore's; this package gives
// them the generated package's types.
package metapg

// This file is written against the generated package gen/agui; the
// generator copies it into the metapg package of its output with that
// import path rewritten.

import (
	"context"

	agui "github.com/agui-gen/agui-gen/gen/agui"
	"github.com/agui-gen/agui-gen/runtime/metastore/pgstore"
)

// Store is a MetaStore, Checkpoints and ThreadOwners in PostgreSQL.
type Store = agui.SQLStore

// Open connects to the database at dsn (a postgres:// URL or key=value
// string) and brings its schema up to date.
func Open(ctx context.Context, dsn string) (*Store, error) {
	b, err := pgstore.Open(ctx, dsn)
	if err != nil {
		return nil, err
	}
	return agui.NewSQLStore(b), nil
}
