package metapg_test

import (
	"context"
	"testing"

	"github.com/agui-gen/agui-gen/gen/agui"
	"github.com/agui-gen/agui-gen/gen/agui/metapg"
	"github.com/agui-gen/agui-gen/templates/a2atask/storetest"
	"github.com/agui-gen/agui-gen/templates/aguirt/metastoretest"
)

// The tests of this package exercise its copy in gen/agui/metapg: run
// agui-gen generate --out gen after editing the template. They need a
// PostgreSQL server (see storetest.PostgresDSN).

func TestContract(t *testing.T) {
	dsn := storetest.PostgresDatabase(t)
	open := func(t *testing.T) agui.MetaStore {
		s, err := metapg.Open(context.Background(), dsn)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	}
	metastoretest.Run(t, open, open)
}
