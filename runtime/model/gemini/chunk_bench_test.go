package gemini

import (
	"encoding/json"
	"testing"

	"google.golang.org/genai"

	"github.com/agui-gen/agui-gen/runtime/model/internal/sinktest"
)

// BenchmarkChunk is the adapter's own work on one response chunk the SDK
// has decoded (text or a thought, with its usage), without the SDK's
// decoding. The text is kept for the turn, so its builder grows: amortized,
// and reported per chunk.
func BenchmarkChunk(b *testing.B) {
	for _, tc := range []struct{ name, json string }{
		{"text", `{"candidates":[{"content":{"parts":[{"text":" tok"}],"role":"model"},"index":0}],"usageMetadata":{"promptTokenCount":8,"candidatesTokenCount":1},"modelVersion":"m","responseId":"r1"}`},
		{"thought", `{"candidates":[{"content":{"parts":[{"text":" tok","thought":true}],"role":"model"},"index":0}],"usageMetadata":{"promptTokenCount":8,"thoughtsTokenCount":1},"modelVersion":"m","responseId":"r1"}`},
	} {
		b.Run("part="+tc.name, func(b *testing.B) {
			var r genai.GenerateContentResponse
			if err := json.Unmarshal([]byte(tc.json), &r); err != nil {
				b.Fatal(err)
			}
			t := new(turn)
			t.Reset(sinktest.Discard{}, "gemini")
			n := 0
			b.ReportAllocs()
			for b.Loop() {
				if err := t.chunk(&r); err != nil {
					b.Fatal(err)
				}
				if n++; n == 1<<18 { // a long answer (1 MiB of " tok"), then the next
					*t = turn{}
					t.Reset(sinktest.Discard{}, "gemini")
					n = 0
				}
			}
		})
	}
}
