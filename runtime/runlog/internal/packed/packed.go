// Package packed is how the SQL run logs keep a run's entries: several
// consecutive entries in one row, keyed by the position of its last, so
// that a batch of appends writes a few rows and not one per event (a row
// each was ten times the CPU of the stream itself on SQLite), and a read
// takes a page in a few rows.
//
// A row's count (N) says its form:
//   - 1: one entry, its bytes as they are;
//   - n > 1: n entries, each its length (uvarint) then its bytes (the form
//     of earlier versions, still read);
//   - -n: n entries front-coded, each the length of the prefix it shares
//     with the entry before it (uvarint), the length of the rest (uvarint),
//     then the rest. The events of a run repeat each other up to their
//     last field (a text message's type and id before each delta), so a
//     row of them holds a sixth of their bytes, and a run is written in
//     fewer pages (SQLite) and sent in fewer bytes (PostgreSQL). A reader of
//     an earlier version reads no entry from such a row rather than wrong
//     ones.
package packed

import (
	"encoding/binary"
	"errors"
	"math/bits"
	"slices"
	"sync"

	"github.com/agui-gen/agui-gen/runtime/runlog"
)

// MaxRowBytes bounds the entries' bytes of a row, unless one entry alone
// is larger: what a reader holds for a row.
const MaxRowBytes = 32 << 10

// Row is a row of a run's log to write: its entries, the last at position
// Last, in the form N says (see the package's doc).
type Row struct {
	Last int64
	N    int
	Data []byte
}

// Count is how many entries the row holds.
func (r Row) Count() int { return max(r.N, -r.N) }

// Split packs entries, to be appended after position after, into rows,
// their data in buf (reused, grown once: the rows' data share its array).
func Split(entries [][]byte, after int64, buf []byte, rows []Row) ([]Row, []byte) {
	size := 0
	for _, e := range entries {
		size += 2*binary.MaxVarintLen32 + len(e)
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
		n := 1
		if j-i == 1 {
			buf = append(buf, entries[i]...)
		} else {
			var prev []byte
			for _, e := range entries[i:j] {
				shared := commonPrefix(prev, e)
				buf = binary.AppendUvarint(buf, uint64(shared))
				buf = binary.AppendUvarint(buf, uint64(len(e)-shared))
				buf = append(buf, e[shared:]...)
				prev = e
			}
			n = -(j - i)
		}
		// Should buf grow later, this row's data stays in the array it
		// was written to.
		rows = append(rows, Row{Last: after + int64(j), N: n, Data: buf[start:len(buf):len(buf)]})
		i = j
	}
	return rows, buf
}

// commonPrefix is the length of the prefix a and b share, compared eight
// bytes at a time (byte by byte, it was most of a batch's packing).
func commonPrefix(a, b []byte) int {
	n := min(len(a), len(b))
	i := 0
	for ; i+8 <= n; i += 8 {
		if x := binary.LittleEndian.Uint64(a[i:]) ^ binary.LittleEndian.Uint64(b[i:]); x != 0 {
			return i + bits.TrailingZeros64(x)/8
		}
	}
	for ; i < n && a[i] == b[i]; i++ {
	}
	return i
}

// Buffers are what a log splits a batch into, reused: a batch's rows are
// written before the log returns.
type Buffers struct {
	Data    []byte
	Rows    []Row
	entries [][]byte // a batch's entries and its final one, when it has one
}

// Pool holds Buffers between batches.
var Pool = sync.Pool{New: func() any { return new(Buffers) }}

// Split packs entries, then final when it is not nil (a run's end, packed
// with its last entries), into b's rows, as Split does.
func (b *Buffers) Split(entries [][]byte, final []byte, after int64) []Row {
	if final != nil {
		// In b's slice: appending to entries would copy its headers to a
		// new array for every batch that ends a run.
		b.entries = append(append(b.entries[:0], entries...), final)
		entries = b.entries
	}
	b.Rows, b.Data = Split(entries, after, b.Data, b.Rows)
	return b.Rows
}

// Release gives b back to Pool, unless it grew past a batch's usual size.
func (b *Buffers) Release() {
	if cap(b.Data) > 1<<20 {
		return
	}
	clear(b.Rows)
	clear(b.entries)
	b.entries = b.entries[:0]
	Pool.Put(b)
}

// ErrCorrupt is the error of a row whose data does not hold its count of
// entries.
var ErrCorrupt = errors.New("runlog: a row of the log does not hold the entries it says")

// Decode appends to into the entries of a row of n entries (see the
// package's doc) whose last is at position last, those after position
// after, up to limit entries in into. The entries' bytes are data's, but
// for a front-coded row's, which are a new array's.
func Decode(into []runlog.Entry, last int64, n int, data []byte, after int64, limit int) ([]runlog.Entry, error) {
	switch {
	case n == 1:
		if last > after && len(into) < limit {
			into = append(into, runlog.Entry{Pos: last, Data: data})
		}
		return into, nil
	case n < 0:
		return decodeFront(into, last, -n, data, after, limit)
	}
	pos := last - int64(n)
	into = slices.Grow(into, max(0, min(n, limit-len(into))))
	for range n {
		size, k := binary.Uvarint(data)
		if k <= 0 || uint64(len(data)-k) < size {
			return into, ErrCorrupt
		}
		e := data[k : k+int(size) : k+int(size)]
		data = data[k+int(size):]
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

// maxFrontRow bounds the bytes a front-coded row decodes to, far above
// any row Split makes (MaxRowBytes): a corrupt row's entries, each the
// one before it and more, could otherwise add up to the square of its
// size.
const maxFrontRow = 64 * MaxRowBytes

// decodeFront decodes a front-coded row of count entries, as Decode does.
// Every entry is rebuilt, the skipped ones too (the next is built on
// them), in one array: the row's size is read first.
func decodeFront(into []runlog.Entry, last int64, count int, data []byte, after int64, limit int) ([]runlog.Entry, error) {
	total, prev, rest := 0, 0, data
	for i := range count {
		shared, k := binary.Uvarint(rest)
		if k <= 0 || shared > uint64(prev) || (i == 0 && shared != 0) {
			return into, ErrCorrupt
		}
		rest = rest[k:]
		size, k := binary.Uvarint(rest)
		if k <= 0 || uint64(len(rest)-k) < size {
			return into, ErrCorrupt
		}
		rest = rest[k+int(size):]
		prev = int(shared) + int(size)
		if total += prev; total > maxFrontRow {
			return into, ErrCorrupt
		}
	}
	if len(rest) != 0 {
		return into, ErrCorrupt
	}
	buf := make([]byte, 0, total)
	into = slices.Grow(into, max(0, min(count, limit-len(into))))
	var e []byte
	pos := last - int64(count)
	for range count {
		shared, k := binary.Uvarint(data)
		data = data[k:]
		size, k := binary.Uvarint(data)
		data = data[k:]
		start := len(buf)
		buf = append(buf, e[:shared]...)
		buf = append(buf, data[:size]...)
		data = data[size:]
		e = buf[start:len(buf):len(buf)]
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
