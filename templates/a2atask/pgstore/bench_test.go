package pgstore

import (
	"context"
	"testing"

	"github.com/agui-gen/agui-gen/gen/a2a/a2atask"
	"github.com/agui-gen/agui-gen/templates/a2atask/storetest"
)

// BenchmarkStore measures the store's operations on their own
// (storetest.Bench), on a database of its own.
func BenchmarkStore(b *testing.B) {
	storetest.Bench(b, func(b *testing.B) a2atask.Store {
		s, err := Open(context.Background(), storetest.PostgresDatabase(b))
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { s.Close() })
		return s
	})
}
