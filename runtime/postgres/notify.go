package postgres

import (
	"context"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/agui-gen/agui-gen/runtime/batch"
)

// A Notifier wakes the watchers of every replica that shares a database
// when one of them writes: a write wakes this replica's watchers at once
// (Wrote), and is announced to the others on a NOTIFY channel, its
// generation and key, "17 id", a line each, which a replica's watchers
// take as they are, and which wake none of them twice. A poll of the
// watched keys' generations catches what a lost connection missed.
//
// A replica announces its writes after they commit, in batches, one
// statement for all the writes of a few milliseconds (NotifierConfig.Gather),
// as few notifications as the payload limit allows. (A replica from before
// the lines takes a notification of several as one unknown key, and its
// poll finds the writes.) A NOTIFY in the write itself would serialize the
// commits of the whole database: PostgreSQL holds a database-wide lock from
// a notifying transaction's commit until its WAL is flushed, so no two such
// commits share a flush. A replica that dies between a commit and its
// announcement leaves the other replicas' polls to find the write.
type Notifier struct {
	pool    *pgxpool.Pool
	signals *batch.Signals
	config  NotifierConfig

	// unannounced holds the writes this replica has not yet announced to
	// the others: the latest generation of each key; announce wakes the
	// announcer.
	mu          sync.Mutex
	unannounced map[string]int64
	announce    chan struct{}

	cancel context.CancelFunc
	done   sync.WaitGroup
}

// NotifierConfig says what a Notifier listens on, and how often it polls.
type NotifierConfig struct {
	// Channel is the NOTIFY channel.
	Channel string
	// Gather is how long a replica gathers its writes before it announces
	// them to the others: a notification, and the round trip that sends
	// it, then stands for all the writes of that while. 0 announces at
	// once.
	Gather time.Duration
	// Poll is how often the generations of the watched keys are read.
	Poll time.Duration
	// Generations is the query the poll reads them with: $1 is the text[]
	// of the watched keys, and each row a key and its generation.
	Generations string
}

// StartNotifier starts listening on pool for the other replicas' writes,
// announcing this one's and polling, and wakes the watchers of signals; it
// holds one connection of pool until Close.
func StartNotifier(pool *pgxpool.Pool, signals *batch.Signals, c NotifierConfig) *Notifier {
	n := &Notifier{pool: pool, signals: signals, config: c, announce: make(chan struct{}, 1)}
	bg, cancel := context.WithCancel(context.Background())
	n.cancel = cancel
	n.done.Add(3)
	go n.listen(bg)
	go n.pollLoop(bg)
	go n.announcer(bg)
	return n
}

// Close stops the notifier; it does not close the pool.
func (n *Notifier) Close() {
	n.cancel()
	n.done.Wait()
}

// listen turns the other replicas' notifications into wake-ups, holding
// one connection, and reconnects when it drops.
func (n *Notifier) listen(ctx context.Context) {
	defer n.done.Done()
	for ctx.Err() == nil {
		conn, err := n.pool.Acquire(ctx)
		if err == nil {
			if _, err = conn.Exec(ctx, "LISTEN "+n.config.Channel); err == nil {
				for {
					note, err := conn.Conn().WaitForNotification(ctx)
					if err != nil {
						break
					}
					for _, line := range strings.Split(note.Payload, "\n") {
						n.signals.Notify(Announced(line))
					}
				}
			}
			// The connection's LISTEN must not go back to the pool.
			conn.Conn().Close(context.Background())
			conn.Release()
		}
		select {
		case <-ctx.Done():
		case <-time.After(time.Second):
		}
	}
}

// Wrote wakes this replica's watchers of a key written at generation gen
// and has the announcer tell the other replicas.
func (n *Notifier) Wrote(id string, gen int64) {
	n.signals.Notify(id, gen)
	n.mu.Lock()
	if n.unannounced == nil {
		n.unannounced = map[string]int64{}
	}
	n.unannounced[id] = max(n.unannounced[id], gen)
	n.mu.Unlock()
	select {
	case n.announce <- struct{}{}:
	default: // the announcer has been told already
	}
}

// announcer sends the writes of this replica to the others' listeners: all
// those made since the last batch, and in the gather delay after the
// first of them, in one statement.
func (n *Notifier) announcer(ctx context.Context) {
	defer n.done.Done()
	for {
		select {
		case <-ctx.Done():
			return
		case <-n.announce:
		}
		if n.config.Gather > 0 {
			select {
			case <-ctx.Done():
				return
			case <-time.After(n.config.Gather):
			}
		}
		n.mu.Lock()
		writes := make([]string, 0, len(n.unannounced))
		for id, gen := range n.unannounced {
			writes = append(writes, strconv.FormatInt(gen, 10)+" "+id)
		}
		clear(n.unannounced)
		n.mu.Unlock()
		// A batch that fails is not sent again: the replicas' polls find
		// the writes it announced.
		n.pool.Exec(ctx, `SELECT pg_notify($1, payload) FROM unnest($2::text[]) AS payload`, n.config.Channel, Payloads(writes))
	}
}

// MaxPayload keeps a notification's payload under PostgreSQL's limit of
// 8,000 bytes.
const MaxPayload = 7900

// Payloads joins announcements, a line each, into as few notification
// payloads as the limit allows, so that a replica takes a batch of another's
// writes in one notification, not one each.
func Payloads(writes []string) []string {
	var out []string
	var b strings.Builder
	for _, w := range writes {
		if b.Len() > 0 && b.Len()+1+len(w) > MaxPayload {
			out = append(out, b.String())
			b.Reset()
		}
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(w)
	}
	if b.Len() > 0 {
		out = append(out, b.String())
	}
	return out
}

// Announced reads a line of a notification's payload: "generation id", or
// the key alone, as replicas before generations were announced send, whose
// generation is unknown (0).
func Announced(payload string) (id string, gen int64) {
	if g, id, ok := strings.Cut(payload, " "); ok {
		if gen, err := strconv.ParseInt(g, 10, 64); err == nil && gen > 0 {
			return id, gen
		}
	}
	return payload, 0
}

// pollLoop wakes watchers whose key changed without a notification
// reaching this replica.
func (n *Notifier) pollLoop(ctx context.Context) {
	defer n.done.Done()
	t := time.NewTicker(n.config.Poll)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		ids := n.signals.Watched()
		if len(ids) == 0 {
			continue
		}
		rows, err := n.pool.Query(ctx, n.config.Generations, ids)
		if err != nil {
			continue
		}
		for rows.Next() {
			var id string
			var gen int64
			if rows.Scan(&id, &gen) == nil {
				n.signals.Notify(id, gen)
			}
		}
		rows.Close()
	}
}
