// Package jsonrpc reads the envelope of a JSON-RPC 2.0 request or response
// object in one pass, leaving its params or result for the message's own
// decoder: the fast path of the A2A JSON-RPC binding, on both sides.
package jsonrpc

import (
	"bytes"
	"encoding/json"
)

// Envelope holds the members of a JSON-RPC request or response object,
// undecoded: each is nil when the object lacks it, and Method is the
// method name's text, unquoted.
type Envelope struct {
	Version, Method, Params, ID, Result, Error json.RawMessage
	// HasID tells an "id" member that is null from none.
	HasID bool
}

// Scan reads a JSON-RPC request or response object in one pass
// without decoding its params or result, which the message's own decoder
// reads next. It reports false for anything it does not take whole
// (malformed JSON, a member of the wrong type, an escaped key or method):
// the caller then reads the object again, slowly, to say exactly what is
// wrong.
func Scan(data []byte) (env Envelope, ok bool) {
	s := scanner{data: data}
	s.space()
	if !s.take('{') {
		return
	}
	s.space()
	if s.take('}') {
		return env, s.end()
	}
	for {
		s.space()
		key, plain := s.str()
		if !plain {
			return
		}
		s.space()
		if !s.take(':') {
			return
		}
		s.space()
		start := s.pos
		if !s.value() {
			return
		}
		v := json.RawMessage(data[start:s.pos])
		switch string(key) {
		case "jsonrpc":
			env.Version = v
		case "method":
			if v[0] != '"' || bytes.IndexByte(v, '\\') >= 0 {
				return
			}
			env.Method = v[1 : len(v)-1]
		case "params":
			env.Params = v
		case "id":
			env.ID, env.HasID = v, true
		case "result":
			env.Result = v
		case "error":
			env.Error = v
		}
		s.space()
		if s.take('}') {
			return env, s.end()
		}
		if !s.take(',') {
			return
		}
	}
}

// scanner skips over JSON values; it checks structure, not every rule of
// the grammar, which the full decoders after it do.
type scanner struct {
	data  []byte
	pos   int
	depth int
}

func (s *scanner) space() {
	for s.pos < len(s.data) {
		switch s.data[s.pos] {
		case ' ', '\t', '\n', '\r':
			s.pos++
		default:
			return
		}
	}
}

func (s *scanner) take(c byte) bool {
	if s.pos < len(s.data) && s.data[s.pos] == c {
		s.pos++
		return true
	}
	return false
}

func (s *scanner) end() bool {
	s.space()
	return s.pos == len(s.data)
}

// str reads a string and returns its contents; plain is false when it is
// not a string or has escapes.
func (s *scanner) str() (contents []byte, plain bool) {
	if !s.take('"') {
		return nil, false
	}
	start := s.pos
	for s.pos < len(s.data) {
		switch c := s.data[s.pos]; {
		case c == '"':
			s.pos++
			return s.data[start : s.pos-1], true
		case c == '\\' || c < 0x20:
			return nil, false
		}
		s.pos++
	}
	return nil, false
}

// value skips one value, strings with escapes included.
func (s *scanner) value() bool {
	if s.pos >= len(s.data) {
		return false
	}
	switch c := s.data[s.pos]; c {
	case '"':
		s.pos++
		for s.pos < len(s.data) {
			switch c := s.data[s.pos]; {
			case c == '"':
				s.pos++
				return true
			case c == '\\':
				if !s.escape() {
					return false
				}
				continue
			case c < 0x20:
				return false
			}
			s.pos++
		}
		return false
	case '{', '[':
		if s.depth++; s.depth > 64 {
			return false
		}
		defer func() { s.depth-- }()
		closer := byte('}')
		if c == '[' {
			closer = ']'
		}
		s.pos++
		s.space()
		if s.take(closer) {
			return true
		}
		for {
			s.space()
			if c == '{' {
				if s.pos >= len(s.data) || s.data[s.pos] != '"' || !s.value() {
					return false
				}
				s.space()
				if !s.take(':') {
					return false
				}
				s.space()
			}
			if !s.value() {
				return false
			}
			s.space()
			if s.take(closer) {
				return true
			}
			if !s.take(',') {
				return false
			}
		}
	default:
		start := s.pos
		for s.pos < len(s.data) {
			switch s.data[s.pos] {
			case ',', '}', ']', ' ', '\t', '\n', '\r':
				return literal(s.data[start:s.pos])
			}
			s.pos++
		}
		return literal(s.data[start:s.pos])
	}
}

// escape skips one escape sequence of a string.
func (s *scanner) escape() bool {
	if s.pos+1 >= len(s.data) {
		return false
	}
	switch s.data[s.pos+1] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		s.pos += 2
		return true
	case 'u':
		if s.pos+6 > len(s.data) {
			return false
		}
		for _, h := range s.data[s.pos+2 : s.pos+6] {
			if !('0' <= h && h <= '9' || 'a' <= h && h <= 'f' || 'A' <= h && h <= 'F') {
				return false
			}
		}
		s.pos += 6
		return true
	}
	return false
}

// literal reports whether tok is true, false, null or a JSON number.
func literal(tok []byte) bool {
	switch string(tok) {
	case "true", "false", "null":
		return true
	}
	i := 0
	if i < len(tok) && tok[i] == '-' {
		i++
	}
	digits := func() int {
		n := 0
		for i < len(tok) && tok[i] >= '0' && tok[i] <= '9' {
			i, n = i+1, n+1
		}
		return n
	}
	if i < len(tok) && tok[i] == '0' {
		i++
	} else if digits() == 0 {
		return false
	}
	if i < len(tok) && tok[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	}
	if i < len(tok) && (tok[i] == 'e' || tok[i] == 'E') {
		i++
		if i < len(tok) && (tok[i] == '+' || tok[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(tok)
}
