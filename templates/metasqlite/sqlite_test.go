package metasqlite_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/agui-gen/agui-gen/gen/agui"
	"github.com/agui-gen/agui-gen/gen/agui/metasqlite"
	"github.com/agui-gen/agui-gen/templates/aguirt/metastoretest"
)

// The tests of this package exercise its copy in gen/agui/metasqlite: run
// agui-gen generate --out gen after editing the template.

func TestContract(t *testing.T) {
	path := filepath.Join(t.TempDir(), "meta.db")
	open := func(t *testing.T) agui.MetaStore {
		s, err := metasqlite.Open(context.Background(), path)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	}
	metastoretest.Run(t, open, open)
}

func TestIntake(t *testing.T) {
	s, err := metasqlite.Open(context.Background(), filepath.Join(t.TempDir(), "meta.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	metastoretest.Intake(t, s)
}

// TestAcknowledgedSurvivesKill: what the intake acknowledged is in the file
// after its process is killed.
func TestAcknowledgedSurvivesKill(t *testing.T) {
	metastoretest.Crash(t, func(t *testing.T) string { return filepath.Join(t.TempDir(), "meta.db") },
		func(t *testing.T, path string) agui.MetaStore {
			s, err := metasqlite.Open(context.Background(), path)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { s.Close() })
			return s
		})
}

func TestThreads(t *testing.T) {
	path := filepath.Join(t.TempDir(), "threads.db")
	open := func(t *testing.T) metastoretest.ThreadStore {
		s, err := metasqlite.Open(context.Background(), path)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	}
	metastoretest.Threads(t, open, open)
}

func TestThreadIsolation(t *testing.T) {
	s, err := metasqlite.Open(context.Background(), filepath.Join(t.TempDir(), "threads.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	metastoretest.Isolation(t, s, s)
}

func TestOwnersWithTheFeedback(t *testing.T) {
	s, err := metasqlite.Open(context.Background(), filepath.Join(t.TempDir(), "meta.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	metastoretest.OwnersWithTheFeedback(t, s)
}
