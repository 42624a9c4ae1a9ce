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

func open(t *testing.T, dsn string) agui.MetaStore {
	s, err := metapg.Open(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestContract(t *testing.T) {
	dsn := storetest.PostgresDatabase(t)
	reopen := func(t *testing.T) agui.MetaStore { return open(t, dsn) }
	metastoretest.Run(t, reopen, reopen)
}

func TestIntake(t *testing.T) {
	metastoretest.Intake(t, open(t, storetest.PostgresDatabase(t)))
}

// TestAcknowledgedSurvivesKill: what the intake acknowledged is in the
// database after the process that served it is killed.
func TestAcknowledgedSurvivesKill(t *testing.T) {
	metastoretest.Crash(t, func(t *testing.T) string { return storetest.PostgresDatabase(t) }, open)
}

func TestThreads(t *testing.T) {
	dsn := storetest.PostgresDatabase(t)
	reopen := func(t *testing.T) metastoretest.ThreadStore { return open(t, dsn).(*metapg.Store) }
	metastoretest.Threads(t, reopen, reopen)
}

func TestThreadIsolation(t *testing.T) {
	s := open(t, storetest.PostgresDatabase(t)).(*metapg.Store)
	metastoretest.Isolation(t, s, s)
}

func TestOwnersWithTheFeedback(t *testing.T) {
	metastoretest.OwnersWithTheFeedback(t, open(t, storetest.PostgresDatabase(t)).(*metapg.Store))
}
