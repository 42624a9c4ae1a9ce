package bridge

import (
	"encoding/json"
	"slices"
	"testing"

	agui "github.com/agui-gen/agui-gen/gen/agui"
)

func TestHasOtherMember(t *testing.T) {
	for in, want := range map[string]bool{
		`{"type":"X","messageId":"a","delta":"b"}`:                                            false,
		`{"type":"X","messageId":"a","delta":"b","timestamp":1}`:                              false,
		`{"type":"X","messageId":"a","delta":"b","metadata":{"messageId":1,"z":[1,{"q":2}]}}`: true,
		`{"type":"X","messageId":"a\"b","delta":"{\"x\":1}"}`:                                 false,
		`{"type":"X","messageId":"a","de\u006cta":"b"}`:                                       true, // escaped: taken for another
		`{"type":"X","messageId":"a","delta":"b","rawEvent":[{"a":1}]}`:                       true,
	} {
		if got := hasOtherMember([]byte(in), []string{"messageId", "delta"}); got != want {
			t.Errorf("%s: %v, want %v", in, got, want)
		}
	}
}

func TestResidual(t *testing.T) {
	plain := &agui.TextMessageContentEvent{MessageID: "m", Delta: "d"}
	if r := residual(plain, "messageId", "delta"); r != nil {
		t.Errorf("a content event with nothing more: %s", r)
	}
	ev := &agui.TextMessageContentEvent{MessageID: "m", Delta: "d", BaseEvent: agui.BaseEvent{Metadata: json.RawMessage(`{"k":1}`)}}
	if r := residual(ev, "messageId", "delta"); string(r) != `{"metadata":{"k":1},"type":"TEXT_MESSAGE_CONTENT"}` {
		t.Errorf("residual: %s", r)
	}
}

// FuzzHasOtherMember: whatever object the decoder reads with a member
// beyond carried, hasOtherMember sees it too (it may also take an escaped
// name for another member, which only costs a decode).
func FuzzHasOtherMember(f *testing.F) {
	f.Add([]byte(`{"type":"X","messageId":"a","delta":"b","metadata":{"messageId":1}}`))
	f.Add([]byte(`{"messageId":"a\"","x":[{"y":"}"}]}`))
	carried := []string{"messageId", "delta"}
	f.Fuzz(func(t *testing.T, data []byte) {
		var members map[string]json.RawMessage
		if json.Unmarshal(data, &members) != nil {
			return
		}
		other := false
		for k := range members {
			other = other || !slices.Contains(carried, k) && !slices.Contains(notResidual, k)
		}
		if other && !hasOtherMember(data, carried) {
			t.Errorf("%s: a member beyond %v went unseen", data, carried)
		}
	})
}

// A member that does not decode, or that this package's schema does not
// know, is left out and named; the others are added.
func TestResidualsAddLeavesOutWhatItCannotRead(t *testing.T) {
	r := residuals{agui.EventTypeTextMessageStart: {
		"metadata": json.RawMessage(`{"k":1}`),
		"name":     json.RawMessage(`42`),
		"priority": json.RawMessage(`2`),
	}}
	ev, leftOut := r.add(&agui.TextMessageStartEvent{MessageID: "m1"})
	start := ev.(*agui.TextMessageStartEvent)
	if string(start.Metadata) != `{"k":1}` || start.Name != nil || start.MessageID != "m1" {
		t.Errorf("added: %s", ev.AppendJSON(nil))
	}
	slices.Sort(leftOut)
	if !slices.Equal(leftOut, []string{"/name", "/priority"}) {
		t.Errorf("left out: %v", leftOut)
	}
}
