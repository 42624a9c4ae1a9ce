package a2arpc

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

func TestParseVersion(t *testing.T) {
	for in, want := range map[string]string{"1.0": "1.0", " 0.3.0 ": "0.3", "01.2": "1.2", "1.0.7": "1.0"} {
		if got, ok := ParseVersion(in); !ok || got != want {
			t.Errorf("ParseVersion(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
	for _, in := range []string{"", "1", "1.0.0.0", "v1.0", "1.x", "-1.0", "70000.0"} {
		if got, ok := ParseVersion(in); ok {
			t.Errorf("ParseVersion(%q) took it as %q", in, got)
		}
	}
}

func TestNegotiateVersion(t *testing.T) {
	served := []string{"1.0", "0.3"}
	for _, c := range []struct{ requested, absentAs, want string }{
		{"1.0", "", "1.0"}, {"1.0.1", "", "1.0"}, {"", "", "0.3"}, {"", "1.0", "1.0"},
	} {
		if got, err := NegotiateVersion(c.requested, served, c.absentAs); err != nil || got != c.want {
			t.Errorf("NegotiateVersion(%q, absent as %q) = %q, %v; want %q", c.requested, c.absentAs, got, err, c.want)
		}
	}
	_, err := NegotiateVersion("2.0", served, "")
	if !errors.Is(err, ErrVersionNotSupported) || !strings.Contains(err.Message, "'2.0'") || !strings.HasSuffix(err.Message, "send the header A2A-Version: 1.0") {
		t.Errorf("an unserved version: %v", err)
	}
	// No header where 0.3 is not served: the error says what happened and
	// what to send.
	_, err = NegotiateVersion("", []string{"1.0"}, "")
	if !errors.Is(err, ErrVersionNotSupported) || !strings.Contains(err.Message, "names no A2A-Version") || !strings.HasSuffix(err.Message, "A2A-Version: 1.0") {
		t.Errorf("no header: %v", err)
	}
	if m := MissingVersion("SendMessage", []string{"1.0", "1.1"}).Message; !strings.HasPrefix(m, "SendMessage is an A2A 1.1 method") {
		t.Errorf("MissingVersion: %s", m)
	}
}

func TestNewestVersionAndSplitList(t *testing.T) {
	if got := NewestVersion([]string{"0.3", "1.10", "1.9"}); got != "1.10" {
		t.Errorf("NewestVersion: %q", got)
	}
	if got := NewestVersion(nil); got != "" {
		t.Errorf("NewestVersion(nil): %q", got)
	}
	if got := SplitList([]string{" a, b ,", "c"}); !slices.Equal(got, []string{"a", "b", "c"}) {
		t.Errorf("SplitList: %q", got)
	}
}
