package postgres

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/agui-gen/agui-gen/runtime/batch"
	"github.com/agui-gen/agui-gen/runtime/postgres/pgtest"
)

// queuedBehindSlowWrite starts a write that holds the pipeline's one lane
// for a while, then the given writes, and waits until all of them are
// queued behind it, so that they go out as one batch.
func queuedBehindSlowWrite(t *testing.T, p *batch.Batcher[*Write], writes []func() error) []error {
	t.Helper()
	ctx := context.Background()
	slow := make(chan error, 1)
	go func() {
		slow <- p.Do(ctx, &Write{SQL: `SELECT pg_sleep(0.3)::text`, Scan: func(row pgx.Row) error { return row.Scan(new(string)) }})
	}()
	waitQueued(t, p, 0, 1) // the slow write has the lane
	errs := make([]error, len(writes))
	var wg sync.WaitGroup
	for i, w := range writes {
		wg.Go(func() { errs[i] = w() })
	}
	waitQueued(t, p, len(writes), 1)
	wg.Wait()
	if err := <-slow; err != nil {
		t.Fatal(err)
	}
	return errs
}

func waitQueued(t *testing.T, p *batch.Batcher[*Write], queued, sending int) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
		q, s := p.Pending()
		if q == queued && s == sending {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("pipeline: %d queued and %d sending, want %d and %d", q, s, queued, sending)
		}
	}
}

func pool(t *testing.T) *pgxpool.Pool {
	t.Helper()
	pool, err := pgxpool.New(context.Background(), pgtest.Database(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	return pool
}

// TestPipelineSharesOneTransaction: the writes queued while a batch is at
// the server go out in the next one, all in one transaction.
func TestPipelineSharesOneTransaction(t *testing.T) {
	p := NewWrites(pool(t), 1)
	xids := make([]int64, 10)
	var writes []func() error
	for i := range xids {
		writes = append(writes, func() error {
			return p.Do(context.Background(), &Write{SQL: `SELECT txid_current()`, Scan: func(row pgx.Row) error { return row.Scan(&xids[i]) }})
		})
	}
	for _, err := range queuedBehindSlowWrite(t, p, writes) {
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, x := range xids[1:] {
		if x != xids[0] {
			t.Fatalf("transaction ids %v: the queued writes did not share a batch", xids)
		}
	}
	waitQueued(t, p, 0, 0)
}

// TestPipelineIsolatesAFailingWrite: a statement the server refuses rolls
// its batch back, and then each write is tried on its own: the faulty one
// gets its error, every other one is written exactly once.
func TestPipelineIsolatesAFailingWrite(t *testing.T) {
	db := pool(t)
	ctx := context.Background()
	if _, err := db.Exec(ctx, `CREATE TABLE written (n integer PRIMARY KEY)`); err != nil {
		t.Fatal(err)
	}
	p := NewWrites(db, 1)
	const bad = 3
	var writes []func() error
	for i := range 6 {
		sql := `INSERT INTO written (n) VALUES ($1) RETURNING n`
		if i == bad {
			sql = `SELECT $1::integer / 0`
		}
		writes = append(writes, func() error {
			return p.Do(ctx, &Write{SQL: sql, Args: []any{i}, Scan: func(row pgx.Row) error { return row.Scan(new(int)) }})
		})
	}
	errs := queuedBehindSlowWrite(t, p, writes)
	for i, err := range errs {
		var pe *pgconn.PgError
		switch {
		case i == bad && !(errors.As(err, &pe) && pe.Code == "22012"): // division_by_zero
			t.Errorf("write %d: %v, want division by zero", i, err)
		case i != bad && err != nil:
			t.Errorf("write %d: %v", i, err)
		}
	}
	var rows string
	if err := db.QueryRow(ctx, `SELECT string_agg(n::text, ',' ORDER BY n) FROM written`).Scan(&rows); err != nil {
		t.Fatal(err)
	}
	if want := "0,1,2,4,5"; rows != want {
		t.Errorf("written %s, want %s", rows, want)
	}
}

// TestPipelineUnderLoad: many writers on few lanes all get their own
// results, and the lanes are given back.
func TestPipelineUnderLoad(t *testing.T) {
	p := NewWrites(pool(t), 2)
	var wg sync.WaitGroup
	errs := make(chan error, 400)
	for i := range 400 {
		wg.Go(func() {
			var got int
			err := p.Do(context.Background(), &Write{SQL: `SELECT $1::integer`, Args: []any{i}, Scan: func(row pgx.Row) error { return row.Scan(&got) }})
			if err == nil && got != i {
				err = fmt.Errorf("write %d read %d", i, got)
			}
			if err != nil {
				errs <- err
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	waitQueued(t, p, 0, 0)
}

// TestPayloads: announcements share notifications, a line each, none
// over PostgreSQL's payload limit, and each reads back as it was written.
func TestPayloads(t *testing.T) {
	var writes []string
	for i := range 500 {
		writes = append(writes, strconv.Itoa(i+1)+" "+strings.Repeat("t", 30)+strconv.Itoa(i))
	}
	got := Payloads(writes)
	if len(got) < 2 || len(got) > 3 {
		t.Fatalf("%d payloads for %d announcements of about 36 bytes", len(got), len(writes))
	}
	var back []string
	for _, p := range got {
		if len(p) > MaxPayload {
			t.Errorf("a payload of %d bytes", len(p))
		}
		for _, line := range strings.Split(p, "\n") {
			id, gen := Announced(line)
			back = append(back, strconv.FormatInt(gen, 10)+" "+id)
		}
	}
	if !slices.Equal(back, writes) {
		t.Errorf("read back %d announcements, differently", len(back))
	}
	if Payloads(nil) != nil {
		t.Error("a payload for nothing")
	}
}
