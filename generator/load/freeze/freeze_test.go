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
