package a2atask

import (
	"testing"
	"time"
)

// FuzzPageToken: a page token from a client never crashes the runtime, and
// every token it issues reads back as the cursor it came from.
func FuzzPageToken(f *testing.F) {
	f.Add(encodeCursor(Cursor{Updated: time.Date(2026, 11, 24, 1, 2, 3, 456789000, time.UTC), ID: "task-1"}))
	f.Add("")
	f.Add("not base64!")
	f.Add("MjAyNi0xMS0yNFQwMTowMjowMy40NTY3ODlafA")
	f.Fuzz(func(t *testing.T, token string) {
		c, err := decodeCursor(token)
		if err != nil {
			return
		}
		again, err := decodeCursor(encodeCursor(*c))
		if err != nil || !again.Updated.Equal(c.Updated) || again.ID != c.ID {
			t.Fatalf("%q: %v does not round-trip: %v %v", token, c, again, err)
		}
	})
}
