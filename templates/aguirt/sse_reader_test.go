package aguirt

import (
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

func readFrames(t *testing.T, r io.Reader, max int) ([]string, error) {
	t.Helper()
	s := newSSEReader(r, max)
	var out []string
	for {
		data, err := s.next()
		if err != nil {
			if errors.Is(err, io.EOF) {
				return out, nil
			}
			return out, err
		}
		out = append(out, string(data))
	}
}

func TestSSEReader(t *testing.T) {
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

func TestSSEReaderFrameCap(t *testing.T) {
	big := strings.Repeat("x", 100)
	if _, err := readFrames(t, strings.NewReader("data: "+big+"\n\n"), 99); !errors.Is(err, errSSEFrameTooLarge) {
		t.Errorf("one long line: %v", err)
	}
	if _, err := readFrames(t, strings.NewReader(strings.Repeat("data: "+big[:40]+"\n", 3)+"\n"), 99); !errors.Is(err, errSSEFrameTooLarge) {
		t.Errorf("many data lines: %v", err)
	}
	if got, err := readFrames(t, strings.NewReader("data: "+big+"\n\n"), 100); err != nil || len(got) != 1 {
		t.Errorf("at the cap: %q, %v", got, err)
	}
	// A line longer than bufio's buffer, under the cap.
	huge := strings.Repeat("y", 200<<10)
	if got, err := readFrames(t, strings.NewReader("data: "+huge+"\n\n"), MaxFrameBytes); err != nil || len(got) != 1 || got[0] != huge {
		t.Errorf("a 200 KiB line: %d frames, %v", len(got), err)
	}
}

func TestSSEReaderTransportError(t *testing.T) {
	boom := errors.New("boom")
	r := io.MultiReader(strings.NewReader("data: a\n\n"), iotest.ErrReader(boom))
	got, err := readFrames(t, r, 1<<20)
	if len(got) != 1 || !errors.Is(err, boom) {
		t.Fatalf("%q, %v", got, err)
	}
}
