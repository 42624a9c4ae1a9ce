package anthropic

import (
	"testing"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"

	"github.com/agui-gen/agui-gen/runtime/model/internal/sinktest"
)

// BenchmarkChunk is the adapter's own work on one content_block_delta event
// the SDK has decoded, without the SDK's decoding. The text is kept for the
// turn, so its builder grows: amortized, and reported per event.
func BenchmarkChunk(b *testing.B) {
	for _, tc := range []struct{ name, start, delta string }{
		{"text", `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`,
			`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":" tok"}}`},
		{"thinking", `{"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":"","signature":""}}`,
			`{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":" tok"}}`},
		{"input_json", `{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_1","name":"f","input":{}}}`,
			`{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":" tok"}}`},
	} {
		b.Run("delta="+tc.name, func(b *testing.B) {
			var start, delta sdk.MessageStreamEventUnion
			if err := start.UnmarshalJSON([]byte(tc.start)); err != nil {
				b.Fatal(err)
			}
			if err := delta.UnmarshalJSON([]byte(tc.delta)); err != nil {
				b.Fatal(err)
			}
			fresh := func() *turn {
				t := new(turn)
				t.Reset(sinktest.Discard{}, "anthropic")
				t.SetMessageID("msg_1")
				if err := t.event(&start); err != nil {
					b.Fatal(err)
				}
				return t
			}
			t := fresh()
			n := 0
			b.ReportAllocs()
			for b.Loop() {
				if err := t.event(&delta); err != nil {
					b.Fatal(err)
				}
				if n++; n == 1<<18 { // a long answer (1 MiB of " tok"), then the next
					t = fresh()
					n = 0
				}
			}
		})
	}
}
