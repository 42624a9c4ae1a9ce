package wire

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"math/big"
	"strconv"
	"sync"
	"unicode/utf16"
	"unicode/utf8"
)

// Decoder decodes JSON documents into generated types.
type Decoder struct {
	// Strict rejects members that a closed object does not declare (the
	// schema's unevaluatedProperties: false) instead of dropping them.
	Strict bool
	// OnUnknown, when set, is called with the JSON pointer of every member a
	// lenient decode drops, so a receiver can report what it ignored.
	OnUnknown func(pointer string)
}

// Value is implemented by a pointer to every generated object type.
type Value interface {
	// AppendJSON appends the value's JSON encoding to b.
	AppendJSON(b []byte) []byte
	// Validate checks the value against its schema.
	Validate() error
	ReadJSON(r *Reader)
}

// segment is one step of the path from the document root to the value being
// read: an object member (its key's bytes in the input) or an array index.
type segment struct {
	keyStart, keyEnd int
	index            int // -1 for a member
	first            bool
	keyEscaped       bool // the key has escapes to undo
}

// Reader is a single-pass JSON reader with a sticky error. Generated code
// drives it; it tracks the path so every error says where it happened.
type Reader struct {
	data  []byte
	pos   int
	err   *Error
	stack []segment
	opts  Decoder
	// keyBuf holds the unescaped text of a key that had escapes.
	keyBuf []byte
	// escaped says whether the string scanString last read has escapes,
	// so that its reader need not look for them again.
	escaped bool
}

var readerPool = sync.Pool{New: func() any { return &Reader{stack: make([]segment, 0, 16)} }}

// NewReader returns a Reader over one JSON document, from a pool; Finish
// gives it back.
func NewReader(data []byte, opts Decoder) *Reader {
	r := readerPool.Get().(*Reader)
	r.data, r.pos, r.err, r.stack, r.opts = data, 0, nil, r.stack[:0], opts
	return r
}

// Release gives r back to the pool without checking the rest of the input.
func (r *Reader) Release() {
	r.data, r.opts = nil, Decoder{}
	readerPool.Put(r)
}

// Finish checks that nothing but white space follows the value read, gives
// r back to the pool and returns the first error met, or nil.
func (r *Reader) Finish() error {
	r.End()
	err := r.err
	r.Release()
	return AsError(err)
}

// Decode reads one JSON document into v. It checks syntax, JSON types,
// required members and consts; Validate checks the rest of the schema.
func (d Decoder) Decode(data []byte, v Value) error {
	r := NewReader(data, d)
	v.ReadJSON(r)
	return r.Finish()
}

// End checks that nothing but white space follows the document.
func (r *Reader) End() {
	if r.err != nil {
		return
	}
	r.skipSpace()
	if r.pos < len(r.data) {
		r.syntax("unexpected data after the JSON value")
	}
}

// Failed reports whether r has met an error; every read after one is a no-op.
func (r *Reader) Failed() bool { return r.err != nil }

// Path renders the current position as a JSON pointer.
func (r *Reader) Path() string {
	if len(r.stack) == 0 {
		return ""
	}
	var b []byte
	for _, s := range r.stack {
		if s.first && s.index < 0 {
			// An object whose first key has not been read yet.
			continue
		}
		b = append(b, '/')
		if s.index >= 0 {
			b = strconv.AppendInt(b, int64(s.index), 10)
			continue
		}
		key := r.data[s.keyStart:s.keyEnd]
		if hasEscape(key) {
			key = unescape(nil, key)
		}
		for _, c := range key {
			switch c {
			case '~':
				b = append(b, '~', '0')
			case '/':
				b = append(b, '~', '1')
			default:
				b = append(b, c)
			}
		}
	}
	return string(b)
}

// Fail records the first error, at the current path.
func (r *Reader) Fail(rule, msg string) {
	if r.err == nil {
		r.err = &Error{Path: r.Path(), Rule: rule, Msg: msg, Offset: r.pos}
	}
}

// FailWith records the first error, wrapping a sentinel.
func (r *Reader) FailWith(rule, msg string, sentinel error) {
	if r.err == nil {
		r.Fail(rule, msg)
		r.err.Err = sentinel
	}
}

func (r *Reader) syntax(msg string) { r.FailWith("syntax", msg, ErrSyntax) }

// Missing records that a required member of the object just read is absent.
func (r *Reader) Missing(name string) {
	if r.err == nil {
		r.err = &Error{Path: r.Path() + "/" + escapeToken(name), Rule: "required", Msg: "required member is missing", Offset: r.pos}
	}
}

// MissingOf reports, as Missing does, the first of an object's required
// members that its decoder did not see: names lists them in order, the i-th
// marked by bit i of seen. Decoders call it only when a bit is clear, so an
// object with every member present pays one comparison.
func (r *Reader) MissingOf(seen uint64, names ...string) {
	for i, name := range names {
		if seen&(1<<i) == 0 {
			r.Missing(name)
			return
		}
	}
}

func (r *Reader) skipSpace() {
	for r.pos < len(r.data) {
		switch r.data[r.pos] {
		case ' ', '\t', '\n', '\r':
			r.pos++
		default:
			return
		}
	}
}

// Peek returns the first byte of the next value, or 0 at the end of input.
func (r *Reader) Peek() byte {
	r.skipSpace()
	if r.pos >= len(r.data) {
		return 0
	}
	return r.data[r.pos]
}

// kindName describes the JSON type starting with c, for messages.
func kindName(c byte) string {
	switch c {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	case 0:
		return "the end of input"
	}
	if c == '-' || (c >= '0' && c <= '9') {
		return "a number"
	}
	return "an invalid token"
}

// wrongType records a type error for the value ahead and skips it.
func (r *Reader) wrongType(want string) {
	c := r.Peek()
	if c == 0 || kindName(c) == "an invalid token" {
		r.syntax("expected " + want + ", found " + kindName(c))
		return
	}
	r.Fail("type", "expected "+want+", found "+kindName(c))
}

// MaxDepth is how deeply objects and arrays may nest in a document; deeper
// input is refused rather than read with unbounded recursion.
const MaxDepth = 10000

// enter pushes a path segment for an object or array just opened, refusing
// nesting beyond MaxDepth.
func (r *Reader) enter() bool {
	if len(r.stack) >= MaxDepth {
		r.syntax("objects and arrays nest more than " + strconv.Itoa(MaxDepth) + " deep")
		return false
	}
	r.stack = append(r.stack, segment{index: -1, first: true})
	return true
}

// BeginObject consumes '{' and enters the object. It records a type error
// and returns false when the next value is not an object.
func (r *Reader) BeginObject() bool {
	if r.Peek() != '{' {
		r.wrongType("an object")
		return false
	}
	r.pos++
	return r.enter()
}

// NextField moves to the next member of the current object and returns true,
// or consumes '}', leaves the object and returns false.
func (r *Reader) NextField() bool {
	if r.err != nil {
		return false
	}
	top := &r.stack[len(r.stack)-1]
	c := r.Peek()
	if c == '}' {
		r.pos++
		r.stack = r.stack[:len(r.stack)-1]
		return false
	}
	if !top.first {
		if c != ',' {
			r.syntax("expected ',' or '}' after an object member")
			return false
		}
		r.pos++
		c = r.Peek()
	}
	if c != '"' {
		r.syntax("expected a member name")
		return false
	}
	start, end, ok := r.scanString()
	if !ok {
		return false
	}
	if r.Peek() != ':' {
		r.syntax("expected ':' after a member name")
		return false
	}
	r.pos++
	top.keyStart, top.keyEnd, top.first, top.keyEscaped = start, end, false, r.escaped
	return true
}

// Key returns the current member name, unescaped. The bytes are valid until
// the next call that reads input.
func (r *Reader) Key() []byte {
	top := r.stack[len(r.stack)-1]
	k := r.data[top.keyStart:top.keyEnd]
	if top.keyEscaped {
		r.keyBuf = unescape(r.keyBuf[:0], k)
		return r.keyBuf
	}
	return k
}

// BeginArray consumes '[' and enters the array.
func (r *Reader) BeginArray() bool {
	if r.Peek() != '[' {
		r.wrongType("an array")
		return false
	}
	r.pos++
	return r.enter()
}

// NextItem moves to the next element of the current array and returns true,
// or consumes ']', leaves the array and returns false.
func (r *Reader) NextItem() bool {
	if r.err != nil {
		return false
	}
	top := &r.stack[len(r.stack)-1]
	c := r.Peek()
	if c == ']' {
		r.pos++
		r.stack = r.stack[:len(r.stack)-1]
		return false
	}
	if !top.first {
		if c != ',' {
			r.syntax("expected ',' or ']' after an array element")
			return false
		}
		r.pos++
	}
	top.first = false
	top.index++
	return true
}

// scanString consumes a string and returns the bounds of its contents
// (still escaped); r.escaped says whether it has escapes.
func (r *Reader) scanString() (start, end int, ok bool) {
	r.pos++ // opening quote
	start = r.pos
	r.escaped = false
	for r.pos < len(r.data) {
		// Eight bytes at a time while none needs a look (most of a long
		// string), then one at a time up to the byte that does.
		for r.pos+8 <= len(r.data) && plainWord(binary.LittleEndian.Uint64(r.data[r.pos:])) {
			r.pos += 8
		}
		for r.pos < len(r.data) && plainByte(r.data[r.pos]) {
			r.pos++
		}
		if r.pos >= len(r.data) {
			break
		}
		c := r.data[r.pos]
		switch {
		case c == '"':
			end = r.pos
			r.pos++
			return start, end, true
		case c == '\\':
			r.escaped = true
			if r.pos+1 >= len(r.data) {
				r.syntax("unterminated string")
				return 0, 0, false
			}
			switch r.data[r.pos+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				r.pos += 2
			case 'u':
				if r.pos+6 > len(r.data) || !isHex4(r.data[r.pos+2:r.pos+6]) {
					r.syntax(`invalid \u escape in a string`)
					return 0, 0, false
				}
				r.pos += 6
			default:
				r.syntax("invalid escape in a string")
				return 0, 0, false
			}
		default: // c < 0x20
			r.syntax("control character in a string")
			return 0, 0, false
		}
	}
	r.syntax("unterminated string")
	return 0, 0, false
}

// plainWord reports whether none of the eight bytes of w is a quote, a
// backslash or a control character, with the word-at-a-time tests of
// "Bit Twiddling Hacks" (a zero byte; a byte less than n), which are exact
// about whether any byte matches.
func plainWord(w uint64) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	hasZero := func(v uint64) uint64 { return (v - ones) & ^v & highs }
	control := (w - ones*0x20) & ^w & highs
	return control|hasZero(w^(ones*'"'))|hasZero(w^(ones*'\\')) == 0
}

// plainByte reports whether c stands for itself in a string: not a quote,
// a backslash or a control character.
func plainByte(c byte) bool { return c >= 0x20 && c != '"' && c != '\\' }

func isHex4(b []byte) bool {
	for _, c := range b {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}

func hasEscape(b []byte) bool {
	return bytes.IndexByte(b, '\\') >= 0
}

// unescape appends the decoded contents of an already scanned string.
func unescape(dst, s []byte) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' {
			dst = append(dst, c)
			continue
		}
		i++
		switch s[i] {
		case 'b':
			dst = append(dst, '\b')
		case 'f':
			dst = append(dst, '\f')
		case 'n':
			dst = append(dst, '\n')
		case 'r':
			dst = append(dst, '\r')
		case 't':
			dst = append(dst, '\t')
		case 'u':
			r1 := rune(hex4(s[i+1 : i+5]))
			i += 4
			if utf16.IsSurrogate(r1) && i+6 < len(s) && s[i+1] == '\\' && s[i+2] == 'u' {
				r2 := rune(hex4(s[i+3 : i+7]))
				if dec := utf16.DecodeRune(r1, r2); dec != utf8.RuneError {
					dst = utf8.AppendRune(dst, dec)
					i += 6
					continue
				}
			}
			if utf16.IsSurrogate(r1) {
				r1 = utf8.RuneError
			}
			dst = utf8.AppendRune(dst, r1)
		default: // '"', '\\', '/'
			dst = append(dst, s[i])
		}
	}
	return dst
}

func hex4(b []byte) int {
	n := 0
	for _, c := range b {
		n <<= 4
		switch {
		case c >= '0' && c <= '9':
			n |= int(c - '0')
		case c >= 'a' && c <= 'f':
			n |= int(c - 'a' + 10)
		default:
			n |= int(c - 'A' + 10)
		}
	}
	return n
}

// stringBytes reads a string and returns its decoded bytes, which alias the
// input or a scratch buffer and are valid until the next read.
func (r *Reader) stringBytes(want string) ([]byte, bool) {
	if r.Peek() != '"' {
		r.wrongType(want)
		return nil, false
	}
	start, end, ok := r.scanString()
	if !ok {
		return nil, false
	}
	s := r.data[start:end]
	if r.escaped {
		r.keyBuf = unescape(r.keyBuf[:0], s)
		s = r.keyBuf
	}
	return s, true
}

// ReadString reads a string. Invalid UTF-8 is replaced with U+FFFD, as
// encoding/json does.
func (r *Reader) ReadString() string { return r.ReadStringReusing("") }

// ReadStringReusing reads a string as ReadString does, but returns prev
// when the string read equals it, so a decoder that reads into a value
// again (an id every event of a stream repeats) allocates nothing for it.
func (r *Reader) ReadStringReusing(prev string) string {
	s, ok := r.stringBytes("a string")
	if !ok {
		return ""
	}
	if !utf8.Valid(s) {
		return string(toValidUTF8(s))
	}
	if string(s) == prev {
		return prev
	}
	return string(s)
}

func toValidUTF8(s []byte) []byte {
	out := make([]byte, 0, len(s)+8)
	for len(s) > 0 {
		r, size := utf8.DecodeRune(s)
		out = utf8.AppendRune(out, r)
		s = s[size:]
	}
	return out
}

// ExpectConst reads a string that must equal want.
func (r *Reader) ExpectConst(want string) {
	s, ok := r.stringBytes("a string")
	if ok && string(s) != want {
		r.Fail("const", strconv.Quote(string(s))+" is not the expected value "+strconv.Quote(want))
	}
}

// scanNumber consumes a JSON number and returns its text.
func (r *Reader) scanNumber() ([]byte, bool) {
	start := r.pos
	i := r.pos
	d := r.data
	if i < len(d) && d[i] == '-' {
		i++
	}
	switch {
	case i < len(d) && d[i] == '0':
		i++
	case i < len(d) && d[i] >= '1' && d[i] <= '9':
		for i < len(d) && d[i] >= '0' && d[i] <= '9' {
			i++
		}
	default:
		r.syntax("invalid number")
		return nil, false
	}
	if i < len(d) && d[i] == '.' {
		i++
		if i >= len(d) || d[i] < '0' || d[i] > '9' {
			r.syntax("invalid number")
			return nil, false
		}
		for i < len(d) && d[i] >= '0' && d[i] <= '9' {
			i++
		}
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		i++
		if i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		if i >= len(d) || d[i] < '0' || d[i] > '9' {
			r.syntax("invalid number")
			return nil, false
		}
		for i < len(d) && d[i] >= '0' && d[i] <= '9' {
			i++
		}
	}
	r.pos = i
	return d[start:i], true
}

func isNumberStart(c byte) bool { return c == '-' || (c >= '0' && c <= '9') }

// ReadInt reads a JSON integer. A number with a fraction or exponent is
// accepted when its value is whole, as JSON Schema's integer type does.
func (r *Reader) ReadInt() int64 {
	if !isNumberStart(r.Peek()) {
		r.wrongType("an integer")
		return 0
	}
	text, ok := r.scanNumber()
	if !ok {
		return 0
	}
	n, err := strconv.ParseInt(string(text), 10, 64)
	switch {
	case err == nil:
		return n
	case errors.Is(err, strconv.ErrRange) && text[0] == '-':
		r.Fail("minimum", string(text)+" is too small")
		return 0
	case errors.Is(err, strconv.ErrRange):
		r.Fail("maximum", string(text)+" is too large")
		return 0
	}
	// A fraction or an exponent: read the value exactly, so a whole number
	// beyond 2^53 is neither rounded nor misjudged.
	v, _, perr := big.ParseFloat(string(text), 10, 256, big.ToNearestEven)
	switch {
	case perr != nil || !v.IsInt():
		r.Fail("type", string(text)+" is not an integer")
	default:
		n, acc := v.Int64()
		switch {
		case acc == big.Below:
			r.Fail("maximum", string(text)+" is too large")
		case acc == big.Above:
			r.Fail("minimum", string(text)+" is too small")
		default:
			return n
		}
	}
	return 0
}

// ReadFloat reads a JSON number.
func (r *Reader) ReadFloat() float64 {
	if !isNumberStart(r.Peek()) {
		r.wrongType("a number")
		return 0
	}
	text, ok := r.scanNumber()
	if !ok {
		return 0
	}
	f, err := strconv.ParseFloat(string(text), 64)
	if err != nil {
		if text[0] == '-' {
			r.Fail("minimum", string(text)+" is out of range")
		} else {
			r.Fail("maximum", string(text)+" is out of range")
		}
	}
	return f
}

// ReadBool reads true or false.
func (r *Reader) ReadBool() bool {
	switch r.Peek() {
	case 't':
		if r.literal("true") {
			return true
		}
	case 'f':
		r.literal("false")
	default:
		r.wrongType("a boolean")
	}
	return false
}

func (r *Reader) literal(lit string) bool {
	if len(r.data)-r.pos >= len(lit) && string(r.data[r.pos:r.pos+len(lit)]) == lit {
		r.pos += len(lit)
		return true
	}
	r.syntax("invalid literal")
	return false
}

// Skip consumes one value of any type, checking its syntax.
func (r *Reader) Skip() {
	switch c := r.Peek(); c {
	case '{':
		r.pos++
		if !r.enter() {
			return
		}
		for r.NextField() {
			r.Skip()
		}
	case '[':
		r.pos++
		if !r.enter() {
			return
		}
		for r.NextItem() {
			r.Skip()
		}
	case '"':
		r.scanString()
	case 't':
		r.literal("true")
	case 'f':
		r.literal("false")
	case 'n':
		r.literal("null")
	default:
		if isNumberStart(c) {
			r.scanNumber()
			return
		}
		r.syntax("expected a JSON value, found " + kindName(c))
	}
}

// ReadRaw reads any JSON value and returns a copy of its text. null is
// refused when notNull is set (the schema's not: {type: null}); wantObject
// refuses anything but an object.
func (r *Reader) ReadRaw(notNull, wantObject bool) json.RawMessage {
	c := r.Peek()
	switch {
	case wantObject && c != '{':
		r.wrongType("an object")
		return nil
	case notNull && c == 'n':
		r.Fail("not", "null is not allowed here")
		return nil
	}
	start := r.pos
	r.Skip()
	if r.err != nil {
		return nil
	}
	out := make(json.RawMessage, r.pos-start)
	copy(out, r.data[start:r.pos])
	return out
}

// ReadRawText reads any JSON value and returns its text where the input
// holds it, without a copy: for a caller that only compares it.
func (r *Reader) ReadRawText() []byte {
	r.skipSpace()
	start := r.pos
	r.Skip()
	if r.err != nil {
		return nil
	}
	return r.data[start:r.pos]
}

// Deferred is a member whose value is read later, because how to read it
// depends on a sibling that may come after it.
type Deferred struct {
	start int
	seg   segment
	set   bool
}

// Defer skips the current member's value and remembers where it was.
func (r *Reader) Defer() Deferred {
	seg := r.stack[len(r.stack)-1]
	r.skipSpace()
	start := r.pos
	r.Skip()
	return Deferred{start: start, seg: seg, set: true}
}

// Revisit reads a deferred member of the object just left, then returns to
// where the reader was.
func (r *Reader) Revisit(d Deferred, read func(r *Reader)) {
	if r.err != nil || !d.set {
		return
	}
	saved := r.pos
	r.pos = d.start
	r.stack = append(r.stack, d.seg)
	read(r)
	if r.err == nil {
		r.stack = r.stack[:len(r.stack)-1]
		r.pos = saved
	}
}

// UnknownField handles a member a closed object does not declare: an error
// in strict mode, else skipped and reported.
func (r *Reader) UnknownField() {
	if r.opts.Strict {
		r.Fail("unevaluatedProperties", "member "+strconv.Quote(string(r.Key()))+" is not allowed here")
		return
	}
	if r.opts.OnUnknown != nil {
		r.opts.OnUnknown(r.Path())
	}
	r.Skip()
}

// WrongChoice records that the value ahead is none of the types a oneOf
// allows.
func (r *Reader) WrongChoice(want string) {
	c := r.Peek()
	if c == 0 || kindName(c) == "an invalid token" {
		r.syntax("expected " + want + ", found " + kindName(c))
		return
	}
	r.Fail("oneOf", "expected "+want+", found "+kindName(c))
}

// Tag returns the value of the string member name of the object ahead,
// without consuming anything. When the object's first member is the tag, as
// every AG-UI producer writes it, that costs one member; otherwise the
// object's members are skimmed.
func (r *Reader) Tag(name string) ([]byte, bool) {
	if c := r.Peek(); c != '{' {
		if kindName(c) == "an invalid token" || c == 0 {
			r.syntax("expected an object, found " + kindName(c))
		} else {
			r.Fail("oneOf", "expected an object, found "+kindName(c))
		}
		return nil, false
	}
	saved, depth := r.pos, len(r.stack)
	defer func() {
		if r.err == nil {
			r.pos, r.stack = saved, r.stack[:depth]
		}
	}()
	r.pos++
	if !r.enter() {
		return nil, false
	}
	for r.NextField() {
		if string(r.Key()) != name {
			r.Skip()
			continue
		}
		if r.Peek() != '"' {
			r.wrongType("a string")
			return nil, false
		}
		start, end, ok := r.scanString()
		if !ok {
			return nil, false
		}
		s := r.data[start:end]
		if r.escaped {
			s = unescape(nil, s)
		}
		return s, true
	}
	if r.err == nil {
		r.FailWith("oneOf", "the "+strconv.Quote(name)+" member that says which kind of value this is is missing", ErrNoTag)
	}
	return nil, false
}

// UnknownTag records that the union value ahead has a tag value the
// package does not know. The error points at the tag member.
func (r *Reader) UnknownTag(name string, value []byte, sentinel error) {
	if r.err == nil {
		r.err = &Error{Path: r.Path() + "/" + escapeToken(name), Rule: "oneOf",
			Msg: "unknown " + name + " " + strconv.Quote(string(value)), Offset: r.pos, Err: sentinel}
	}
}
