// Package metasqlite keeps in a SQLite file what an AG-UI handler keeps
// beyond a run: the META events of its intake (agui.WithMetaStore), and
// each thread's owner and open interrupts (agui.WithCheckpoints; the
// store is an agui.ThreadOwners too). The tables and queries are
// runtime/metastore/sqlitestore's; this package gives them the generated
// package's types. Writes are synchronous: an event the intake
// acknowledged, or a thread's owner, survives a crash and a power loss.
package metasqlite

// This file is written against the generated package gen/agui; the
// generator copies it into the metasqlite package of its output with that
// import path rewritten.

import (
	"context"

	agui "github.com/agui-gen/agui-gen/gen/agui"
	"github.com/agui-gen/agui-gen/runtime/metastore/sqlitestore"
)

// Store is a MetaStore, Checkpoints and ThreadOwners in a SQLite file.
type Store = agui.SQLStore

// Open opens (creating if need be) the store in the file at path, and
// brings its schema up to date. Several processes may open one file.
func Open(ctx context.Context, path string) (*Store, error) {
	b, err := sqlitestore.Open(ctx, path)
	if err != nil {
		return nil, err
	}
	return agui.NewSQLStore(b), nil
}
