// Package freeze reads an AG-UI protobuf number ledger (proto-freeze.txt):
// the append-only record of every field, oneof arm and enum value number the
// binary transport has shipped, one "Name.path = number" line each. A ledger
// opened to extend numbers what a newer schema adds, never reusing or
// moving a number, and writes itself back for its owner to commit.
package freeze

import (
	"bufio"
	"bytes"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// Ledger maps "Message.field", "Message.oneof.arm" and "Enum.VALUE" to their
// numbers.
type Ledger struct {
	File    string
	Numbers map[string]int
	// Extend lets Assign number the slots the ledger lacks.
	Extend bool

	header []string // the comment lines before the first entry
	added  []string // what Assign numbered, in order
}

// Parse reads a ledger. Comments (#) and blank lines are skipped; anything
// else that is not "key = number" is an error naming the line.
func Parse(file string, data []byte) (*Ledger, error) {
	l := &Ledger{File: file, Numbers: map[string]int{}}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			if len(l.Numbers) == 0 && line != "" {
				l.header = append(l.header, line)
			}
			continue
		}
		key, num, ok := strings.Cut(line, "=")
		v, err := strconv.Atoi(strings.TrimSpace(num))
		key = strings.TrimSpace(key)
		if !ok || err != nil || key == "" || !strings.Contains(key, ".") {
			return nil, fmt.Errorf("%s:%d: want \"Message.field = number\", got %q", file, n, line)
		}
		if _, dup := l.Numbers[key]; dup {
			return nil, fmt.Errorf("%s:%d: %s is numbered twice", file, n, key)
		}
		l.Numbers[key] = v
	}
	return l, sc.Err()
}

// Number returns the number of key.
func (l *Ledger) Number(key string) (int, bool) {
	n, ok := l.Numbers[key]
	return n, ok
}

// Arms returns the arms of the oneof "Message.oneof" as arm name → number.
func (l *Ledger) Arms(oneof string) map[string]int {
	arms := map[string]int{}
	for k, v := range l.Numbers {
		if rest, ok := strings.CutPrefix(k, oneof+"."); ok && !strings.Contains(rest, ".") {
			arms[rest] = v
		}
	}
	return arms
}

// Assign returns the number of key, a slot of scope: the message whose
// fields and oneof arms share one sequence of numbers, or the enum whose
// values do. A key the ledger lacks is numbered when Extend is set, with
// one more than the highest number the scope has ever had, so a number
// once given (even to a slot the schema has since dropped, whose line
// stays) is never given again; ok is false otherwise.
func (l *Ledger) Assign(scope, key string) (n int, ok bool) {
	if n, ok := l.Numbers[key]; ok {
		return n, true
	}
	if !l.Extend {
		return 0, false
	}
	switch {
	case l.HasScope(scope):
		n = l.inScope(scope) + 1
	case isEnumValue(key):
		n = 0 // a new enum starts at zero, as the ledger's enums do
	default:
		n = 1
	}
	l.Numbers[key] = n
	l.added = append(l.added, key)
	return n, true
}

// isEnumValue reports a key whose last segment is an enum value's name
// (upper case, as "EventType.TEXT_MESSAGE_START").
func isEnumValue(key string) bool {
	v := key[strings.LastIndexByte(key, '.')+1:]
	return v != "" && strings.ToUpper(v) == v && unicode.IsUpper(rune(v[0]))
}

// HasScope reports whether any slot of scope is numbered.
func (l *Ledger) HasScope(scope string) bool {
	for k := range l.Numbers {
		if inScope(scope, k) {
			return true
		}
	}
	return false
}

// inScope returns the highest number of scope's slots (0 when none).
func (l *Ledger) inScope(scope string) int {
	top := 0
	for k, v := range l.Numbers {
		if inScope(scope, k) && v > top {
			top = v
		}
	}
	return top
}

// inScope reports whether key is a slot of scope: a field or enum value
// ("Scope.name"), or an arm of one of its oneofs ("Scope.oneof.arm"), not
// a slot of a message nested in it ("Scope.Nested.field").
func inScope(scope, key string) bool {
	rest, ok := strings.CutPrefix(key, scope+".")
	if !ok {
		return false
	}
	first, more, nested := strings.Cut(rest, ".")
	if !nested {
		return true
	}
	return !strings.Contains(more, ".") && first != "" && !unicode.IsUpper(rune(first[0]))
}

// Added returns the keys Assign numbered, sorted.
func (l *Ledger) Added() []string { return slices.Sorted(slices.Values(l.added)) }

// Format writes the ledger: its header comments, then every slot sorted by
// key, as the upstream generator writes it.
func (l *Ledger) Format() []byte {
	var b bytes.Buffer
	for _, h := range l.header {
		b.WriteString(h + "\n")
	}
	if len(l.header) > 0 {
		b.WriteString("\n")
	}
	keys := make([]string, 0, len(l.Numbers))
	for k := range l.Numbers {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		fmt.Fprintf(&b, "%s = %d\n", k, l.Numbers[k])
	}
	return b.Bytes()
}

// Scope returns the message or enum whose sequence key's number is of:
// "Message" for "Message.field" and "Message.oneof.arm", "Outer.Inner" for
// "Outer.Inner.field", "Enum" for "Enum.VALUE".
func Scope(key string) string {
	segs := strings.Split(key, ".")
	if len(segs) >= 3 && segs[len(segs)-2] != "" && !unicode.IsUpper(rune(segs[len(segs)-2][0])) {
		return strings.Join(segs[:len(segs)-2], ".")
	}
	return strings.Join(segs[:len(segs)-1], ".")
}

// Clone returns a copy of l that can be extended without changing l.
func (l *Ledger) Clone() *Ledger {
	c := *l
	c.Numbers = maps.Clone(l.Numbers)
	c.added = slices.Clone(l.added)
	return &c
}
