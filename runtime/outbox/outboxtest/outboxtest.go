// Package outboxtest checks that an outbox.Claims keeps the contract the
// push deliverer relies on. The claims of every store (runtime/sqlite,
// runtime/postgres) run it, so that they cannot drift apart.
package outboxtest

import (
	"context"
	"testing"
	"time"

	"github.com/agui-gen/agui-gen/runtime/outbox"
)

// RunClaims checks c: one holder at a time until its claim runs out; a
// delivery recorded only for the holder; a release only when nothing more
// is owed; the owed and unheld listed. owe writes the table c keeps: it
// sets a key's owed generation, adding the key, delivered up to delivered,
// when it is new; it fails t when it cannot.
func RunClaims(t *testing.T, c outbox.Claims, owe func(key string, owed, delivered int64)) {
	ctx := context.Background()
	hour := time.Now().Add(time.Hour)
	owe("done", 2, 2)
	if _, ok, err := c.ClaimPushes(ctx, "done", "a", hour); ok || err != nil {
		t.Fatalf("claimed a key that owes nothing: %v %v", ok, err)
	}
	owe("k", 3, 1)
	if d, ok, err := c.ClaimPushes(ctx, "k", "a", hour); !ok || d != 1 || err != nil {
		t.Fatalf("claim: %d %v %v", d, ok, err)
	}
	if _, ok, _ := c.ClaimPushes(ctx, "k", "b", hour); ok {
		t.Fatal("b claimed what a holds")
	}
	if ok, _ := c.PushesDelivered(ctx, "k", "b", 3, hour); ok {
		t.Fatal("b recorded a delivery")
	}
	if ids, err := c.OwedPushes(ctx, time.Now(), 10); len(ids) != 0 || err != nil {
		t.Fatalf("owed and held listed: %v %v", ids, err)
	}
	if ok, err := c.PushesDelivered(ctx, "k", "a", 2, time.Now().Add(-time.Second)); !ok || err != nil {
		t.Fatalf("a's delivery: %v %v", ok, err)
	}
	if ok, _ := c.ReleasePushes(ctx, "k", "a"); ok {
		t.Fatal("released with 3 owed")
	}
	if ids, _ := c.OwedPushes(ctx, time.Now(), 10); len(ids) != 1 || ids[0] != "k" {
		t.Fatalf("a claim run out: owed %v", ids)
	}
	if d, ok, _ := c.ClaimPushes(ctx, "k", "b", hour); !ok || d != 2 {
		t.Fatalf("b's claim after a's ran out: %d %v", d, ok)
	}
	c.PushesDelivered(ctx, "k", "b", 3, hour)
	if ok, err := c.ReleasePushes(ctx, "k", "b"); !ok || err != nil {
		t.Fatalf("release: %v %v", ok, err)
	}
}
