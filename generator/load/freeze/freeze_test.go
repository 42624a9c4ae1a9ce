package freeze

import (
	"os"
	"strings"
	"testing"
)

func TestParseLedger(t *testing.T) {
	data, err := os.ReadFile("../../../schemas/agui/proto-freeze.txt")
	if err != nil {
		t.Fatal(err)
	}
	l, err := Parse("proto-freeze.txt", data)
	if err != nil {
		t.Fatal(err)
	}
	if n, ok := l.Number("Event.event.text_message_content"); !ok || n != 2 {
		t.Errorf("Event.event.text_message_content = %d, %v", n, ok)
	}
	if arms := l.Arms("InputContent.part"); len(arms) != 5 || arms["document"] != 5 {
		t.Errorf("InputContent.part arms %v", arms)
	}
	if arms := l.Arms("Event.event"); len(arms) != 31 {
		t.Errorf("%d event arms", len(arms))
	}
}

func TestParseErrorsNameTheLine(t *testing.T) {
	for doc, want := range map[string]string{
		"# c\nA.b = 1\nA.b = 2\n": "x.txt:3: A.b is numbered twice",
		"A.b = one\n":             "x.txt:1:",
		"nodot = 1\n":             "x.txt:1:",
	} {
		if _, err := Parse("x.txt", []byte(doc)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: got %v, want %q", doc, err, want)
		}
	}
}

func TestAssignNumbersWithinTheScope(t *testing.T) {
	doc := "# header\n\nA.x = 1\nA.y = 5\nA.kind.b = 7\nA.Inner.z = 40\nE.ONE = 0\nE.TWO = 1\n"
	l, err := Parse("l.txt", []byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := l.Assign("A", "A.w"); ok {
		t.Fatal("a ledger not opened to extend numbered a slot")
	}
	l.Extend = true
	for _, tc := range []struct {
		scope, key string
		want       int
	}{
		{"A", "A.x", 1},              // known
		{"A", "A.w", 8},              // past the oneof arm, not the nested message's 40
		{"A.Inner", "A.Inner.v", 41}, // the nested message's own sequence
		{"A", "A.kind.c", 9},         // arms share the message's numbers
		{"E", "E.THREE", 2},
		{"F", "F.ONE", 0}, // a new enum starts at zero
		{"N", "N.first", 1},
	} {
		if got, ok := l.Assign(tc.scope, tc.key); !ok || got != tc.want {
			t.Errorf("Assign(%s, %s) = %d, %v; want %d", tc.scope, tc.key, got, ok, tc.want)
		}
	}
	if got := strings.Join(l.Added(), " "); got != "A.Inner.v A.kind.c A.w E.THREE F.ONE N.first" {
		t.Errorf("added %s", got)
	}
	if got := string(l.Format()); !strings.HasPrefix(got, "# header\n\nA.Inner.v = 41\nA.Inner.z = 40\nA.kind.b = 7\n") {
		t.Errorf("formatted:\n%s", got)
	}
	for key, scope := range map[string]string{"A.x": "A", "A.kind.b": "A", "A.Inner.z": "A.Inner", "E.ONE": "E", "ToolCall.Function.name": "ToolCall.Function"} {
		if got := Scope(key); got != scope {
			t.Errorf("Scope(%s) = %s, want %s", key, got, scope)
		}
	}
}
