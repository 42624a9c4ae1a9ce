// Package freeze reads an AG-UI protobuf number ledger (proto-freeze.txt):
// the append-only record of every field, oneof arm and enum value number the
// binary transport has shipped, one "Name.path = number" line each.
package freeze

import (
	"bufio"
	"bytes"
	"fmt"
	"strconv"
	"strings"
)

// Ledger maps "Message.field", "Message.oneof.arm" and "Enum.VALUE" to their
// numbers.
type Ledger struct {
	File    string
	Numbers map[string]int
}

// Parse reads a ledger. Comments (#) and blank lines are skipped; anything
// else that is not "key = number" is an error naming the line.
func Parse(file string, data []byte) (*Ledger, error) {
	l := &Ledger{File: file, Numbers: map[string]int{}}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
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
