package openai

import (
	"testing"

	oai "github.com/openai/openai-go/v3"

	"github.com/agui-gen/agui-gen/runtime/model/internal/sinktest"
)

// BenchmarkChunk is the adapter's own work on one text chunk the SDK has
// decoded (what BenchmarkStream's impl=adapter adds to impl=sdk, without
// the SDK's decoding, whose noise hides it there). The text is kept for
// the turn, so its builder grows: amortized, and reported per chunk.
func BenchmarkChunk(b *testing.B) {
	for _, tc := range []struct{ name, json string }{
		{"text", `{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":" tok"},"finish_reason":null}],"usage":null}`},
		{"reasoning", `{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":null,"reasoning_content":" tok"},"finish_reason":null}]}`},
	} {
		b.Run("delta="+tc.name, func(b *testing.B) {
			var c oai.ChatCompletionChunk
			if err := c.UnmarshalJSON([]byte(tc.json)); err != nil {
				b.Fatal(err)
			}
			t := new(turn)
			t.Reset(sinktest.Discard{}, "openai")
			n := 0
			b.ReportAllocs()
			for b.Loop() {
				if err := t.chunk(&c); err != nil {
					b.Fatal(err)
				}
				if n++; n == 1<<18 { // a long answer (1 MiB of " tok"), then the next
					*t = turn{}
					t.Reset(sinktest.Discard{}, "openai")
					n = 0
				}
			}
		})
	}
}
