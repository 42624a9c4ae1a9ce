package jsonwire

import "encoding/binary"

// The protobuf binary wire format
// (https://protobuf.dev/programming-guides/encoding/).

// Wire types. Groups (3 and 4) are not supported.
const (
	wireVarint  = 0
	wireFixed64 = 1
	wireBytes   = 2
	wireFixed32 = 5
)

// maxFieldNumber is the largest field number protobuf allows.
const maxFieldNumber = 1<<29 - 1

// appendVarint appends v as a base-128 varint.
func appendVarint(b []byte, v uint64) []byte {
	for v >= 0x80 {
		b = append(b, byte(v)|0x80)
		v >>= 7
	}
	return append(b, byte(v))
}

// varintSize returns the number of bytes appendVarint writes for v.
func varintSize(v uint64) int {
	n := 1
	for v >= 0x80 {
		v >>= 7
		n++
	}
	return n
}

// appendTag appends a field's key: its number and wire type.
func appendTag(b []byte, num int32, wt int) []byte {
	return appendVarint(b, uint64(num)<<3|uint64(wt))
}

// appendZigzag appends v as a sint64 (or, for a value in int32's range, a
// sint32) varint.
func appendZigzag(b []byte, v int64) []byte {
	return appendVarint(b, uint64(v<<1)^uint64(v>>63))
}

// appendFixed32 appends v little-endian in four bytes (fixed32, sfixed32,
// float).
func appendFixed32(b []byte, v uint32) []byte { return binary.LittleEndian.AppendUint32(b, v) }

// appendFixed64 appends v little-endian in eight bytes (fixed64, sfixed64,
// double).
func appendFixed64(b []byte, v uint64) []byte { return binary.LittleEndian.AppendUint64(b, v) }

// appendLenBytes appends v's length as a varint, then v.
func appendLenBytes(b []byte, v []byte) []byte {
	b = appendVarint(b, uint64(len(v)))
	return append(b, v...)
}

// appendLenString appends v's length as a varint, then v.
func appendLenString(b []byte, v string) []byte {
	b = appendVarint(b, uint64(len(v)))
	return append(b, v...)
}

// beginLen starts a length-delimited value whose size is not known yet: it
// appends a one-byte placeholder for the length and returns its position.
// Append the payload, then call endLen with the position:
//
//	var at int
//	b = appendTag(b, 3, wireBytes)
//	b, at = beginLen(b)
//	b = m.appendWire(b)
//	b = endLen(b, at)
//
// Beware "b, at := beginLen(b)" inside a nested block (an if, a case, a
// loop body): it declares a new b there, and the bytes appended to it are
// lost to the b outside.
func beginLen(b []byte) ([]byte, int) {
	return append(b, 0), len(b)
}

// endLen writes the length of the payload after the placeholder at at. A
// length of 128 or more needs a longer varint; the payload then moves right
// to make room.
func endLen(b []byte, at int) []byte {
	n := len(b) - at - 1
	if n < 0x80 {
		b[at] = byte(n)
		return b
	}
	size := varintSize(uint64(n))
	b = append(b, make([]byte, size-1)...)
	copy(b[at+size:], b[at+1:at+1+n])
	v := uint64(n)
	for i := at; i < at+size-1; i++ {
		b[i] = byte(v) | 0x80
		v >>= 7
	}
	b[at+size-1] = byte(v)
	return b
}

// wireReader reads protobuf binary data with a sticky error: after the first
// failure every read returns zero and next returns false.
//
// To read an embedded message with offsets in errors that count from the
// start of the outer data, read it with a reader over the outer data that
// ends where the message ends:
//
//	v := w.lenBytes()
//	sub := wireReader{data: w.data[:w.pos], pos: w.pos - len(v)}
type wireReader struct {
	data []byte
	pos  int
	err  *Error
}

func newWireReader(data []byte) *wireReader { return &wireReader{data: data} }

// fail records the first error, at the current offset.
func (w *wireReader) fail(msg string) {
	if w.err == nil {
		w.err = &Error{Rule: "syntax", Msg: msg, Offset: w.pos, Err: ErrSyntax}
	}
}

// next reads the next field's key. It returns false at the end of the data
// or on an error: a field number of 0 or above 2^29-1, a group, or a wire
// type that does not exist.
func (w *wireReader) next() (num int32, wt int, ok bool) {
	if w.err != nil || w.pos >= len(w.data) {
		return 0, 0, false
	}
	start := w.pos
	key := w.varint()
	if w.err != nil {
		return 0, 0, false
	}
	n, t := key>>3, int(key&7)
	switch {
	case n == 0 || n > maxFieldNumber:
		w.pos = start
		w.fail("invalid field number")
		return 0, 0, false
	case t == 3 || t == 4:
		w.pos = start
		w.fail("groups are not supported")
		return 0, 0, false
	case t != wireVarint && t != wireFixed64 && t != wireBytes && t != wireFixed32:
		w.pos = start
		w.fail("invalid wire type")
		return 0, 0, false
	}
	return int32(n), t, true
}

// varint reads a varint. A varint of more than ten bytes, or whose tenth
// byte carries more than the 64th bit, is an error, as in protowire.
func (w *wireReader) varint() uint64 {
	if w.err != nil {
		return 0
	}
	if w.pos < len(w.data) && w.data[w.pos] < 0x80 {
		v := uint64(w.data[w.pos])
		w.pos++
		return v
	}
	var v uint64
	for i := 0; i < 10; i++ {
		if w.pos+i >= len(w.data) {
			w.fail("truncated varint")
			return 0
		}
		c := w.data[w.pos+i]
		if i == 9 && c > 1 {
			w.fail("varint overflows 64 bits")
			return 0
		}
		v |= uint64(c&0x7f) << (7 * i)
		if c < 0x80 {
			w.pos += i + 1
			return v
		}
	}
	return 0 // not reached: the tenth byte is 0 or 1
}

// fixed32 reads four little-endian bytes.
func (w *wireReader) fixed32() uint32 {
	if w.err != nil {
		return 0
	}
	if len(w.data)-w.pos < 4 {
		w.fail("truncated fixed32")
		return 0
	}
	v := binary.LittleEndian.Uint32(w.data[w.pos:])
	w.pos += 4
	return v
}

// fixed64 reads eight little-endian bytes.
func (w *wireReader) fixed64() uint64 {
	if w.err != nil {
		return 0
	}
	if len(w.data)-w.pos < 8 {
		w.fail("truncated fixed64")
		return 0
	}
	v := binary.LittleEndian.Uint64(w.data[w.pos:])
	w.pos += 8
	return v
}

// lenBytes reads a length-delimited value and returns it, a slice of the
// input (capped, so appending to it copies).
func (w *wireReader) lenBytes() []byte {
	n := w.varint()
	if w.err != nil {
		return nil
	}
	if n > uint64(len(w.data)-w.pos) {
		w.fail("length runs past the end of the data")
		return nil
	}
	end := w.pos + int(n)
	v := w.data[w.pos:end:end]
	w.pos = end
	return v
}

// skip consumes the value of a field of wire type wt.
func (w *wireReader) skip(wt int) {
	switch wt {
	case wireVarint:
		w.varint()
	case wireFixed64:
		w.fixed64()
	case wireBytes:
		w.lenBytes()
	case wireFixed32:
		w.fixed32()
	default:
		w.fail("invalid wire type")
	}
}

// zigzag decodes a sint64 varint. For a sint32, decode the low 32 bits, as
// protobuf does: int32(zigzag(v & 0xffffffff)).
func zigzag(v uint64) int64 { return int64(v>>1) ^ -int64(v&1) }
