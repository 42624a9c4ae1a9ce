// Package packed is how the SQL run logs keep a run's entries: several
// consecutive entries in one row, keyed by the position of its last, so
// that a batch of appends writes a few rows and not one per event (a row
// each was ten times the CPU of the stream itself on SQLite), and a read
// takes a page in a few rows.
//
// A row of one entry holds its bytes as they are; a row of several holds
// each as its length (uvarint) then its bytes.
package packed

import (
	"encoding/binary"
	"errors"
	"slices"
	"sync"

	"github.com/agui-gen/agui-gen/runtime/runlog"
)

// MaxRowBytes bounds the entries' bytes of a row, unless one entry alone
// is larger: what a reader holds for a row.
const MaxRowBytes = 32 << 10

// Row is a row of a run's log to write: Count entries, the last at
// position Last.
type Row struct {
	Last  int64
	Count int
	Data  []byte
}

// Split packs entries, to be appended after position after, into rows,
// their data in buf (reused, grown once: the rows' data share its array).
func Split(entries [][]byte, after int64, buf []byte, rows []Row) ([]Row, []byte) {
	size := 0
	for _, e := range entries {
		size += binary.MaxVarintLen32 + len(e)
	}
	buf = slices.Grow(buf[:0], size)
	rows = rows[:0]
	for i := 0; i < len(entries); {
		j, size := i+1, len(entries[i])
		for j < len(entries) && size+len(entries[j]) <= MaxRowBytes {
			size += len(entries[j])
			j++
		}
		start := len(buf)
		if j-i == 1 {
			buf = append(buf, entries[i]...)
		} else {
			for _, e := range entries[i:j] {
				buf = binary.AppendUvarint(buf, uint64(len(e)))
				buf = append(buf, e...)
			}
		}
		// Should buf grow later, this row's data stays in the array it
		// was written to.
		rows = append(rows, Row{Last: after + int64(j), Count: j - i, Data: buf[start:len(buf):len(buf)]})
		i = j
	}
	return rows, buf
}

// Buffers are what a log splits a batch into, reused: a batch's rows are
// written before the log returns.
type Buffers struct {
	Data []byte
	Rows []Row
}

// Pool holds Buffers between batches.
var Pool = sync.Pool{New: func() any { return new(Buffers) }}

// Split packs entries into b's rows, as Split does.
func (b *Buffers) Split(entries [][]byte, after int64) []Row {
	b.Rows, b.Data = Split(entries, after, b.Data, b.Rows)
	return b.Rows
}

// Release gives b back to Pool, unless it grew past a batch's usual size.
func (b *Buffers) Release() {
	if cap(b.Data) > 1<<20 {
		return
	}
	clear(b.Rows)
	Pool.Put(b)
}

// ErrCorrupt is the error of a row whose data does not hold its count of
// entries.
var ErrCorrupt = errors.New("runlog: a row of the log does not hold the entries it says")

// Decode appends to into the entries of a row of count entries whose last
// is at position last, those after position after, up to limit entries in
// into. The entries' bytes are data's.
func Decode(into []runlog.Entry, last int64, count int, data []byte, after int64, limit int) ([]runlog.Entry, error) {
	pos := last - int64(count)
	if count == 1 {
		if pos+1 > after && len(into) < limit {
			into = append(into, runlog.Entry{Pos: pos + 1, Data: data})
		}
		return into, nil
	}
	into = slices.Grow(into, max(0, min(count, limit-len(into))))
	for range count {
		n, k := binary.Uvarint(data)
		if k <= 0 || uint64(len(data)-k) < n {
			return into, ErrCorrupt
		}
		e := data[k : k+int(n) : k+int(n)]
		data = data[k+int(n):]
		pos++
		if pos > after {
			if len(into) >= limit {
				return into, nil
			}
			into = append(into, runlog.Entry{Pos: pos, Data: e})
		}
	}
	return into, nil
}
