package wire

import (
	"math"
	"strconv"
	"unicode/utf8"
)

const hexDigits = "0123456789abcdef"

// plain[c] is true for the bytes a JSON string carries as they are: printable
// ASCII but '"' and '\\'. Every other byte needs escaping or, from 0x80 up,
// a UTF-8 check.
var plain = func() (t [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// AppendString appends s as a JSON string, escaping exactly what
// JavaScript's JSON.stringify escapes, so output matches the reference
// encoders byte for byte. Invalid UTF-8 becomes U+FFFD.
func AppendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if plain[c] {
			i++
			continue
		}
		if c < utf8.RuneSelf {
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// AppendInt appends an integer.
func AppendInt(b []byte, v int64) []byte { return strconv.AppendInt(b, v, 10) }

// AppendBool appends true or false.
func AppendBool(b []byte, v bool) []byte {
	if v {
		return append(b, "true"...)
	}
	return append(b, "false"...)
}

// AppendFloat appends a number the way JavaScript's Number#toString writes
// it, so a value survives a trip through a JavaScript peer unchanged. NaN and
// the infinities have no JSON form and are written as null; Validate reports
// them.
func AppendFloat(b []byte, f float64) []byte {
	switch {
	case math.IsNaN(f) || math.IsInf(f, 0):
		return append(b, "null"...)
	case f == 0:
		return append(b, '0') // JavaScript writes -0 as 0
	}
	return appendFiniteNumber(b, f, 64)
}

// appendFiniteNumber writes a finite number as JavaScript does: the
// shortest text that reads back as the same float of bitSize bits, in
// exponent form below 1e-6 and from 1e21.
func appendFiniteNumber(b []byte, f float64, bitSize int) []byte {
	format := byte('f')
	if abs := math.Abs(f); abs != 0 {
		if bitSize == 64 && (abs < 1e-6 || abs >= 1e21) ||
			bitSize == 32 && (float32(abs) < 1e-6 || float32(abs) >= 1e21) {
			format = 'e'
		}
	}
	b = strconv.AppendFloat(b, f, format, -1, bitSize)
	if format == 'e' {
		// JavaScript writes 1e-7 and 1e+21, Go 1e-07 and 1e+21: drop the
		// exponent's leading zero.
		n := len(b)
		if n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}

// AppendRaw appends raw JSON text without its insignificant white space, so a
// value written by hand with line breaks cannot break a line-framed
// transport such as SSE. Empty raw text is written as null.
func AppendRaw(b []byte, raw []byte) []byte {
	if len(raw) == 0 {
		return append(b, "null"...)
	}
	inString := false
	start := 0
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		if inString {
			switch c {
			case '\\':
				i++
			case '"':
				inString = false
			case '\n', '\r':
				// A raw line break inside a string is invalid JSON; escape it
				// rather than split the frame.
				b = append(b, raw[start:i]...)
				if c == '\n' {
					b = append(b, '\\', 'n')
				} else {
					b = append(b, '\\', 'r')
				}
				start = i + 1
			}
			continue
		}
		switch c {
		case '"':
			inString = true
		case ' ', '\t', '\n', '\r':
			b = append(b, raw[start:i]...)
			start = i + 1
		}
	}
	return append(b, raw[start:]...)
}
