package sse

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

func readFrames(t *testing.T, r io.Reader, max int) ([]string, error) {
	t.Helper()
	s := NewReader(r, max)
	var out []string
	for {
		ev, err := s.Next()
		if err != nil {
			if errors.Is(err, io.EOF) {
				return out, nil
			}
			return out, err
		}
		out = append(out, string(ev.Data))
	}
}

func TestReader(t *testing.T) {
	cases := []struct {
		name, in string
		want     []string
	}{
		{"one event", "data: {\"a\":1}\n\n", []string{`{"a":1}`}},
		{"no space after the colon", "data:{\"a\":1}\n\n", []string{`{"a":1}`}},
		{"only one space is stripped", "data:  x\n\n", []string{" x"}},
		{"CRLF", "data: a\r\n\r\ndata: b\r\n\r\n", []string{"a", "b"}},
		{"multi-line data joins with LF", "data: {\"a\":\ndata: 1}\n\n", []string{"{\"a\":\n1}"}},
		{"comments and other fields are ignored", ": keep-alive\n\nevent: x\nid: 7\nretry: 10\ndata: a\nfoo: bar\n\n", []string{"a"}},
		{"a field with no colon", "data\n\n", []string{""}},
		{"an event without data is skipped", "event: ping\n\ndata: a\n\n", []string{"a"}},
		{"several blank lines", "\n\n\ndata: a\n\n\n\ndata: b\n\n", []string{"a", "b"}},
		{"a leading byte order mark", "\xEF\xBB\xBFdata: a\n\n", []string{"a"}},
		{"an unterminated last event is discarded", "data: a\n\ndata: b\n", []string{"a"}},
		{"an unterminated last line is discarded", "data: a\n\ndata: b", []string{"a"}},
		{"data named differently is not data", "Data: a\ndatum: b\n\n", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, r := range []io.Reader{strings.NewReader(c.in), iotest.OneByteReader(strings.NewReader(c.in))} {
				got, err := readFrames(t, r, 1<<20)
				if err != nil {
					t.Fatal(err)
				}
				if strings.Join(got, "|") != strings.Join(c.want, "|") || len(got) != len(c.want) {
					t.Fatalf("got %q; want %q", got, c.want)
				}
			}
		})
	}
}

func TestReaderLimit(t *testing.T) {
	big := strings.Repeat("x", 100)
	if _, err := readFrames(t, strings.NewReader("data: "+big+"\n\n"), 99); !isTooLarge(err, 99) {
		t.Errorf("one long line: %v", err)
	}
	if _, err := readFrames(t, strings.NewReader(strings.Repeat("data: "+big[:40]+"\n", 3)+"\n"), 99); !isTooLarge(err, 99) {
		t.Errorf("many data lines: %v", err)
	}
	if got, err := readFrames(t, strings.NewReader("data: "+big+"\n\n"), 100); err != nil || len(got) != 1 {
		t.Errorf("at the cap: %q, %v", got, err)
	}
	// A line longer than bufio's buffer, under the cap.
	huge := strings.Repeat("y", 200<<10)
	if got, err := readFrames(t, strings.NewReader("data: "+huge+"\n\n"), 10<<20); err != nil || len(got) != 1 || got[0] != huge {
		t.Errorf("a 200 KiB line: %d frames, %v", len(got), err)
	}
}

func TestReaderTransportError(t *testing.T) {
	boom := errors.New("boom")
	r := io.MultiReader(strings.NewReader("data: a\n\n"), iotest.ErrReader(boom))
	got, err := readFrames(t, r, 1<<20)
	if len(got) != 1 || !errors.Is(err, boom) {
		t.Fatalf("%q, %v", got, err)
	}
}

func isTooLarge(err error, max int) bool {
	var tl *TooLargeError
	return errors.As(err, &tl) && tl.Max == max && err.Error() == fmt.Sprintf("an SSE event exceeds %d bytes", max)
}

// TestReaderKeepsNameAndID: the event and id fields come with the data,
// per event; an event without data resets them, and an id holding a NUL
// is ignored.
func TestReaderKeepsNameAndID(t *testing.T) {
	in := "event: ping\nid: 1\n\nevent: error\nid: 7\ndata: {}\n\ndata: x\n\nid: a\x00b\ndata: y\n\n"
	r := NewReader(strings.NewReader(in), 1<<10)
	var got []Event
	for {
		ev, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		ev.Data = append([]byte(nil), ev.Data...)
		got = append(got, ev)
	}
	want := []Event{{Name: "error", ID: "7", Data: []byte("{}")}, {Data: []byte("x")}, {Data: []byte("y")}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("events: %q, want %q", got, want)
	}
}

// FuzzReader: any stream is read to its end or to an error, never past its
// limit, and reading it one byte at a time gives the same events.
func FuzzReader(f *testing.F) {
	for _, seed := range []string{"data: a\n\n", "\xEF\xBB\xBFevent: x\r\nid: 1\r\ndata: {}\r\n\r\n", ": c\n\ndata\n\n", "data: a\ndata: b\n"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, in string) {
		const max = 64
		whole, errWhole := readFrames(t, strings.NewReader(in), max)
		bytewise, errBytewise := readFrames(t, iotest.OneByteReader(strings.NewReader(in)), max)
		if fmt.Sprint(whole) != fmt.Sprint(bytewise) || (errWhole == nil) != (errBytewise == nil) {
			t.Fatalf("whole: %q, %v; one byte at a time: %q, %v", whole, errWhole, bytewise, errBytewise)
		}
		for _, data := range whole {
			if len(data) > max {
				t.Fatalf("an event of %d bytes passed a limit of %d", len(data), max)
			}
		}
	})
}
