package a2av03_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"

	a2a03 "github.com/a2aproject/a2a-go/a2a"

	"github.com/agui-gen/agui-gen/gen/a2a/a2av03"
)

// FuzzRequestJSON: decoding a v0.3 JSON-RPC request never panics, fails only
// with an *a2av03.Error, and what decodes re-encodes to a fixed point.
func FuzzRequestJSON(f *testing.F) {
	params, _ := json.Marshal(&a2a03.MessageSendParams{Message: message()})
	f.Add([]byte(`{"jsonrpc":"2.0","id":1,"method":"message/send","params":` + string(params) + `}`))
	f.Add([]byte(`{"jsonrpc":"2.0","id":"x","method":"message/send","params":{"message":{"kind":"message","messageId":"m","role":"agent","parts":[{"kind":"file","file":{"bytes":"AA=="}}]},"configuration":{"historyLength":2}}}`))
	f.Add([]byte(`{"jsonrpc":"2.0","id":null,"method":"message/send","params":{}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var r a2av03.SendMessageRequest
		if err := r.UnmarshalJSON(data); err != nil {
			var e *a2av03.Error
			if !errors.As(err, &e) {
				t.Fatalf("error is %T, not *a2av03.Error", err)
			}
			return
		}
		_ = r.Validate()
		first := r.AppendJSON(nil)
		var again a2av03.SendMessageRequest
		if err := again.UnmarshalJSON(first); err != nil {
			t.Fatalf("re-decoding our own output: %v\n%s", err, first)
		}
		if second := again.AppendJSON(nil); !bytes.Equal(first, second) {
			t.Fatalf("not a fixed point:\n%s\n%s", first, second)
		}
	})
}

// FuzzCardJSON: the same for the agent card, which a v1 client may also be
// handed.
func FuzzCardJSON(f *testing.F) {
	b, _ := json.Marshal(card())
	f.Add(b)
	f.Fuzz(func(t *testing.T, data []byte) {
		var c a2av03.AgentCard
		if err := c.UnmarshalJSON(data); err != nil {
			var e *a2av03.Error
			if !errors.As(err, &e) {
				t.Fatalf("error is %T, not *a2av03.Error", err)
			}
			return
		}
		_ = c.Validate()
		first := c.AppendJSON(nil)
		var again a2av03.AgentCard
		if err := again.UnmarshalJSON(first); err != nil {
			t.Fatalf("re-decoding our own output: %v\n%s", err, first)
		}
		if second := again.AppendJSON(nil); !bytes.Equal(first, second) {
			t.Fatalf("not a fixed point:\n%s\n%s", first, second)
		}
	})
}
