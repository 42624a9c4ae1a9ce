package a2av03_test

import (
	"fmt"

	"github.com/agui-gen/agui-gen/gen/a2a/a2av03"
)

// The JSON of A2A v0.3's clients, from its JSON Schema: parts told apart by
// "kind", errors that name the JSON path.
func ExampleSendMessageRequest_UnmarshalJSON() {
	body := []byte(`{"jsonrpc":"2.0","id":1,"method":"message/send","params":{"message":{"kind":"message","messageId":"m1","role":"user","parts":[{"kind":"text","text":"hello"},{"kind":"file","file":{"name":"a.txt"}}]}}}`)
	var req a2av03.SendMessageRequest
	err := req.UnmarshalJSON(body)
	fmt.Println(err)

	body = []byte(`{"jsonrpc":"2.0","id":1,"method":"message/send","params":{"message":{"kind":"message","messageId":"m1","role":"user","parts":[{"kind":"text","text":"hello"}]}}}`)
	if err := req.UnmarshalJSON(body); err != nil {
		fmt.Println(err)
		return
	}
	for _, p := range req.Params.Message.Parts {
		if t, ok := p.(*a2av03.TextPart); ok {
			fmt.Println(t.Text)
		}
	}
	// Output:
	// /params/message/parts/1/file: has none of the members "bytes", "uri" that say which kind of value it is (at byte 195)
	// hello
}
