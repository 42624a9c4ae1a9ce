package a2av03pb_test

import (
	"testing"

	"github.com/agui-gen/agui-gen/gen/a2a"
	"github.com/agui-gen/agui-gen/gen/a2a/a2av03pb"
)

// FuzzSendMessageRequest: what a 0.3 client sends over gRPC (binary) or
// HTTP+JSON (ProtoJSON) never panics the decoder or the conversion to 1.0,
// and a conversion that succeeds gives a request 1.0 can encode.
func FuzzSendMessageRequest(f *testing.F) {
	req := &a2av03pb.SendMessageRequest{
		Request: &a2av03pb.Message{MessageID: "m", Role: a2av03pb.RoleUser, Content: []*a2av03pb.Part{
			{Part: &a2av03pb.PartText{Text: "hi"}},
			{Part: &a2av03pb.PartFile{File: &a2av03pb.FilePart{File: &a2av03pb.FilePartFileWithBytes{FileWithBytes: []byte{0, 1}}, MIMEType: "a/b"}}},
			{Part: &a2av03pb.PartData{Data: &a2av03pb.DataPart{Data: []byte(`{"k":[1]}`)}}}}},
		Configuration: &a2av03pb.SendMessageConfiguration{Blocking: true, HistoryLength: 2,
			PushNotification: &a2av03pb.PushNotificationConfig{URL: "http://x", Authentication: &a2av03pb.AuthenticationInfo{Schemes: []string{"Bearer"}}}},
	}
	f.Add(req.AppendProto(nil), false)
	f.Add(req.AppendJSON(nil), true)
	f.Fuzz(func(t *testing.T, data []byte, isJSON bool) {
		var r a2av03pb.SendMessageRequest
		decode := r.UnmarshalProto
		if isJSON {
			decode = r.UnmarshalJSON
		}
		if decode(data) != nil {
			return
		}
		up, err := a2a.FromV03ProtoSendMessageRequest(&r)
		if err != nil {
			if _, ok := err.(*a2a.CompatError); !ok {
				t.Fatalf("error is %T, not *a2a.CompatError", err)
			}
			return
		}
		_ = up.Validate()
		_ = up.AppendJSON(nil)
		_ = a2a.ToV03ProtoMessage(up.Message).AppendProto(nil)
	})
}
