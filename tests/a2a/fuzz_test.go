package a2a_test

import (
	"bytes"
	"errors"
	"testing"

	"github.com/agui-gen/agui-gen/gen/a2a"
)

// FuzzStreamResponseJSON: ProtoJSON decoding never panics; what decodes
// re-encodes to a fixed point.
func FuzzStreamResponseJSON(f *testing.F) {
	for _, r := range streamResponses() {
		f.Add(r.AppendJSON(nil))
	}
	f.Add(agentCard().AppendJSON(nil))
	f.Add([]byte(`{"task":{"id":"t","status":{"state":1,"timestamp":"1970-01-01T00:00:00Z"}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var r a2a.StreamResponse
		if err := r.UnmarshalJSON(data); err != nil {
			var e *a2a.Error
			if !errors.As(err, &e) {
				t.Fatalf("error is %T, not *a2a.Error", err)
			}
			return
		}
		_ = r.Validate()
		first := r.AppendJSON(nil)
		var again a2a.StreamResponse
		if err := again.UnmarshalJSON(first); err != nil {
			t.Fatalf("re-decoding our own output: %v\n%s", err, first)
		}
		if second := again.AppendJSON(nil); !bytes.Equal(first, second) {
			t.Fatalf("not a fixed point:\n%s\n%s", first, second)
		}
	})
}

// FuzzStreamResponseProto: binary decoding never panics and our own output
// decodes again.
func FuzzStreamResponseProto(f *testing.F) {
	for _, r := range streamResponses() {
		f.Add(r.AppendProto(nil))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var r a2a.StreamResponse
		if err := r.UnmarshalProto(data); err != nil {
			return
		}
		_ = r.Validate()
		out := r.AppendProto(nil)
		var again a2a.StreamResponse
		if err := again.UnmarshalProto(out); err != nil {
			t.Fatalf("re-decoding our own output: %v", err)
		}
	})
}

// FuzzSendMessageRequestJSON covers the request body an A2A server parses.
func FuzzSendMessageRequestJSON(f *testing.F) {
	f.Add((&a2a.SendMessageRequest{Message: userMessage()}).AppendJSON(nil))
	f.Fuzz(func(t *testing.T, data []byte) {
		var r a2a.SendMessageRequest
		if r.UnmarshalJSON(data) == nil {
			_ = r.Validate()
			_ = r.AppendJSON(nil)
			_ = r.AppendProto(nil)
		}
	})
}
