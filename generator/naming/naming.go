// Package naming turns spec names into Go identifiers. Every Go name the
// generator writes is chosen here, so initialisms, keyword escaping and
// collisions are handled the same way everywhere.
package naming

import (
	"go/token"
	"strings"
	"unicode"
)

// initialisms are written all upper case when they form a whole word.
var initialisms = map[string]string{
	"id": "ID", "ids": "IDs", "url": "URL", "urls": "URLs", "uri": "URI", "http": "HTTP",
	"https": "HTTPS", "json": "JSON", "api": "API", "ui": "UI", "ag": "AG", "rpc": "RPC",
	"jwt": "JWT", "oauth": "OAuth", "oauth2": "OAuth2", "oidc": "OIDC", "tls": "TLS", "mtls": "MTLS",
	"sse": "SSE", "grpc": "GRPC", "mime": "MIME", "utf8": "UTF8", "html": "HTML", "ip": "IP",
}

// Words splits a spec name into lower-case words: "toolCallId" → [tool call
// id], "TEXT_MESSAGE_START" → [text message start], "tool-call" → [tool call],
// "JSONPatch" → [json patch].
func Words(s string) []string {
	var words []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			words = append(words, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	rs := []rune(s)
	for i, r := range rs {
		switch {
		case !unicode.IsLetter(r) && !unicode.IsDigit(r):
			flush()
		case unicode.IsUpper(r):
			// A new word starts at an upper-case letter that follows a lower-case
			// one or a digit, or that begins the last word of an acronym run
			// ("JSONPatch": the P).
			if len(cur) > 0 {
				prev := rs[i-1]
				nextLower := i+1 < len(rs) && unicode.IsLower(rs[i+1])
				if unicode.IsLower(prev) || unicode.IsDigit(prev) || (unicode.IsUpper(prev) && nextLower) {
					flush()
				}
			}
			cur = append(cur, r)
		default:
			cur = append(cur, r)
		}
	}
	flush()
	return words
}

// Exported returns the exported Go identifier for a spec name.
func Exported(s string) string {
	var b strings.Builder
	for _, w := range Words(s) {
		if up, ok := initialisms[w]; ok {
			b.WriteString(up)
			continue
		}
		b.WriteString(strings.ToUpper(w[:1]) + w[1:])
	}
	id := b.String()
	if id == "" {
		return "X"
	}
	if !unicode.IsLetter([]rune(id)[0]) {
		id = "X" + id
	}
	return id
}

// Unexported returns an unexported Go identifier for a spec name, escaping Go
// keywords and predeclared names.
func Unexported(s string) string {
	ws := Words(s)
	if len(ws) == 0 {
		return "x"
	}
	var b strings.Builder
	b.WriteString(ws[0])
	for _, w := range ws[1:] {
		if up, ok := initialisms[w]; ok {
			b.WriteString(up)
			continue
		}
		b.WriteString(strings.ToUpper(w[:1]) + w[1:])
	}
	id := b.String()
	if token.IsKeyword(id) || predeclared[id] {
		id += "_"
	}
	return id
}

var predeclared = map[string]bool{
	"any": true, "bool": true, "byte": true, "error": true, "string": true, "int": true, "int64": true,
	"float64": true, "len": true, "cap": true, "new": true, "make": true, "nil": true, "true": true,
	"false": true, "append": true, "copy": true, "delete": true, "panic": true, "print": true,
}

// EnumValue returns the Go constant name of an enum value: the enum's name
// followed by the value's words ("EventType" + "TEXT_MESSAGE_START" →
// "EventTypeTextMessageStart").
func EnumValue(enum, value string) string {
	return enum + Exported(value)
}

// Scope hands out identifiers that do not collide with each other or with a
// reserved set, by suffixing a counter to the later of two equal names.
type Scope struct {
	taken map[string]bool
}

// NewScope returns a scope in which the given names are already taken.
func NewScope(reserved ...string) *Scope {
	s := &Scope{taken: map[string]bool{}}
	for _, r := range reserved {
		s.taken[r] = true
	}
	return s
}

// Claim returns name, or name with the smallest numeric suffix that is free,
// and marks the result taken.
func (s *Scope) Claim(name string) string {
	got := name
	for i := 2; s.taken[got]; i++ {
		got = name + itoa(i)
	}
	s.taken[got] = true
	return got
}

// Taken reports whether name is already claimed.
func (s *Scope) Taken(name string) bool { return s.taken[name] }

func itoa(i int) string {
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + string(rune('0'+i%10))
}
