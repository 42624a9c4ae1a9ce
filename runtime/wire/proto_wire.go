package wire

import "encoding/binary"

// The protobuf binary wire format
// (https://protobuf.dev/programming-guides/encoding/).

// Wire types. Groups (3 and 4) are not supported.
const (
	WireVarint  = 0
	WireFixed64 = 1
	WireBytes   = 2
	WireFixed32 = 5
)

// maxFieldNumber is the largest field number protobuf allows.
const maxFieldNumber = 1<<29 - 1

// AppendVarint appends v as a base-128 varint.
func AppendVarint(b []byte, v uint64) []byte {
	for v >= 0x80 {
		b = append(b, byte(v)|0x80)
		v >>= 7
	}
	return append(b, byte(v))
}

// varintSize returns the number of bytes AppendVarint writes for v.
func varintSize(v uint64) int {
	n := 1
	for v >= 0x80 {
		v >>= 7
		n++
	}
	return n
}

// AppendTag appends a field's key: its number and wire type.
func AppendTag(b []byte, num int32, wt int) []byte {
	return AppendVarint(b, uint64(num)<<3|uint64(wt))
}

// AppendZigzag appends v as a sint64 (or, for a value in int32's range, a
// sint32) varint.
func AppendZigzag(b []byte, v int64) []byte {
	return AppendVarint(b, uint64(v<<1)^uint64(v>>63))
}

// AppendFixed32 appends v little-endian in four bytes (fixed32, sfixed32,
// float).
func AppendFixed32(b []byte, v uint32) []byte { return binary.LittleEndian.AppendUint32(b, v) }

// AppendFixed64 appends v little-endian in eight bytes (fixed64, sfixed64,
// double).
func AppendFixed64(b []byte, v uint64) []byte { return binary.LittleEndian.AppendUint64(b, v) }

// AppendLenBytes appends v's length as a varint, then v.
func AppendLenBytes(b []byte, v []byte) []byte {
	b = AppendVarint(b, uint64(len(v)))
	return append(b, v...)
}

// AppendLenString appends v's length as a varint, then v.
func AppendLenString(b []byte, v string) []byte {
	b = AppendVarint(b, uint64(len(v)))
	return append(b, v...)
}

// BeginLen starts a length-delimited value whose size is not known yet: it
// appends a one-byte placeholder for the length and returns its position.
// Append the payload, then call EndLen with the position:
//
//	var at int
//	b = AppendTag(b, 3, WireBytes)
//	b, at = BeginLen(b)
//	b = m.appendWire(b)
//	b = EndLen(b, at)
//
// Beware "b, at := BeginLen(b)" inside a nested block (an if, a case, a
// loop body): it declares a new b there, and the bytes appended to it are
// lost to the b outside.
func BeginLen(b []byte) ([]byte, int) {
	return append(b, 0), len(b)
}

// EndLen writes the length of the payload after the placeholder at at. A
// length of 128 or more needs a longer varint; the payload then moves right
// to make room.
func EndLen(b []byte, at int) []byte {
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

// ProtoReader reads protobuf binary data with a sticky error: after the first
// failure every read returns zero and next returns false.
//
// To read an embedded message with offsets in errors that count from the
// start of the outer data, read it with a reader over the outer data that
// ends where the message ends:
//
//	v := w.LenBytes()
//	sub := ProtoReader{data: w.data[:w.pos], pos: w.pos - len(v)}
type ProtoReader struct {
	data []byte
	pos  int
	err  *Error
}

// NewProtoReader returns a ProtoReader over data.
func NewProtoReader(data []byte) *ProtoReader { return &ProtoReader{data: data} }

// Err returns the first error met, or nil.
func (w *ProtoReader) Err() *Error { return w.err }

// More reports whether data is left to read and nothing has failed: the
// condition of a loop over a packed repeated field.
func (w *ProtoReader) More() bool { return w.err == nil && w.pos < len(w.data) }

// Adopt records err, met in a message embedded in w's data, as w's error
// unless w has met one already.
func (w *ProtoReader) Adopt(err *Error) {
	if w.err == nil {
		w.err = err
	}
}

// Fail records the first error, at the current offset.
func (w *ProtoReader) Fail(msg string) {
	if w.err == nil {
		w.err = &Error{Rule: "syntax", Msg: msg, Offset: w.pos, Err: ErrSyntax}
	}
}

// NextTag reads the next field's key as it is on the wire, its number
// and wire type in one value (num<<3 | wt), for a decoder to switch on with
// a constant case per field: case 2<<3 | WireBytes. It returns false where
// Next does.
func (w *ProtoReader) NextTag() (tag uint64, ok bool) {
	num, wt, ok := w.Next()
	return uint64(num)<<3 | uint64(wt), ok
}

// SkipTag skips the value of the field whose key NextTag returned.
func (w *ProtoReader) SkipTag(tag uint64) { w.Skip(int(tag & 7)) }

// Next reads the next field's key. It returns false at the end of the data
// or on an error: a field number of 0 or above 2^29-1, a group, or a wire
// type that does not exist.
func (w *ProtoReader) Next() (num int32, wt int, ok bool) {
	if w.err != nil || w.pos >= len(w.data) {
		return 0, 0, false
	}
	start := w.pos
	key := w.Varint()
	if w.err != nil {
		return 0, 0, false
	}
	n, t := key>>3, int(key&7)
	switch {
	case n == 0 || n > maxFieldNumber:
		w.pos = start
		w.Fail("invalid field number")
		return 0, 0, false
	case t == 3 || t == 4:
		w.pos = start
		w.Fail("groups are not supported")
		return 0, 0, false
	case t != WireVarint && t != WireFixed64 && t != WireBytes && t != WireFixed32:
		w.pos = start
		w.Fail("invalid wire type")
		return 0, 0, false
	}
	return int32(n), t, true
}

// Varint reads a varint. A varint of more than ten bytes, or whose tenth
// byte carries more than the 64th bit, is an error, as in protowire.
func (w *ProtoReader) Varint() uint64 {
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
			w.Fail("truncated varint")
			return 0
		}
		c := w.data[w.pos+i]
		if i == 9 && c > 1 {
			w.Fail("varint overflows 64 bits")
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

// Fixed32 reads four little-endian bytes.
func (w *ProtoReader) Fixed32() uint32 {
	if w.err != nil {
		return 0
	}
	if len(w.data)-w.pos < 4 {
		w.Fail("truncated fixed32")
		return 0
	}
	v := binary.LittleEndian.Uint32(w.data[w.pos:])
	w.pos += 4
	return v
}

// Fixed64 reads eight little-endian bytes.
func (w *ProtoReader) Fixed64() uint64 {
	if w.err != nil {
		return 0
	}
	if len(w.data)-w.pos < 8 {
		w.Fail("truncated fixed64")
		return 0
	}
	v := binary.LittleEndian.Uint64(w.data[w.pos:])
	w.pos += 8
	return v
}

// LenBytes reads a length-delimited value and returns it, a slice of the
// input (capped, so appending to it copies).
func (w *ProtoReader) LenBytes() []byte {
	n := w.Varint()
	if w.err != nil {
		return nil
	}
	if n > uint64(len(w.data)-w.pos) {
		w.Fail("length runs past the end of the data")
		return nil
	}
	end := w.pos + int(n)
	v := w.data[w.pos:end:end]
	w.pos = end
	return v
}

// Skip consumes the value of a field of wire type wt.
func (w *ProtoReader) Skip(wt int) {
	switch wt {
	case WireVarint:
		w.Varint()
	case WireFixed64:
		w.Fixed64()
	case WireBytes:
		w.LenBytes()
	case WireFixed32:
		w.Fixed32()
	default:
		w.Fail("invalid wire type")
	}
}

// Zigzag decodes a sint64 varint. For a sint32, decode the low 32 bits, as
// protobuf does: int32(zigzag(v & 0xffffffff)).
func Zigzag(v uint64) int64 { return int64(v>>1) ^ -int64(v&1) }
