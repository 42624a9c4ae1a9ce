// Package pgtest gives the tests of the PostgreSQL stores a database of
// their own on a real server.
package pgtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/url"
	"os"
	"testing"

	"github.com/jackc/pgx/v5"
)

// DSN is the server the Postgres tests use: A2A_TEST_POSTGRES, or the role
// .ci/postgres creates on the local cluster.
func DSN() string {
	if dsn := os.Getenv("A2A_TEST_POSTGRES"); dsn != "" {
		return dsn
	}
	return "postgres://a2a:a2a@127.0.0.1:5432/postgres?sslmode=disable"
}

// Database creates an empty database for one test, dropped when it ends,
// and returns its DSN. It skips the test when there is no server, and
// fails it when CI is set.
func Database(t testing.TB) string {
	t.Helper()
	ctx := context.Background()
	admin, err := pgx.Connect(ctx, DSN())
	if err != nil {
		msg := "no Postgres at " + DSN() + " (run bash .ci/postgres as root, or set A2A_TEST_POSTGRES): " + err.Error()
		if os.Getenv("CI") != "" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	var b [6]byte
	rand.Read(b[:])
	name := "a2a_test_" + hex.EncodeToString(b[:])
	if _, err := admin.Exec(ctx, "CREATE DATABASE "+name); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		admin.Exec(context.Background(), "DROP DATABASE "+name+" WITH (FORCE)")
		admin.Close(context.Background())
	})
	u, err := url.Parse(DSN())
	if err != nil {
		t.Fatal(err)
	}
	u.Path = "/" + name
	return u.String()
}
