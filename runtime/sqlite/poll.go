package sqlite

import (
	"database/sql"
	"time"

	"github.com/agui-gen/agui-gen/runtime/batch"
)

// A Poller wakes the watchers of keys that another process wrote to a
// shared database file: every so often it reads each watched key's
// generation, and signals it. (Writes of this process wake watchers at
// once, through the store's own Notify.)
type Poller struct {
	closed chan struct{}
	done   chan struct{}
}

// StartPoller reads, every interval, the generation of each key signals
// watches with generation, a query of one row and column whose one
// parameter is the key, and notifies signals of it, until Close.
func StartPoller(db *sql.DB, signals *batch.Signals, every time.Duration, generation string) *Poller {
	p := &Poller{closed: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(p.done)
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-p.closed:
				return
			case <-t.C:
			}
			for _, id := range signals.Watched() {
				var gen int64
				if err := db.QueryRow(generation, id).Scan(&gen); err == nil {
					signals.Notify(id, gen)
				}
			}
		}
	}()
	return p
}

// Close stops the poller; it is called once.
func (p *Poller) Close() {
	close(p.closed)
	<-p.done
}
