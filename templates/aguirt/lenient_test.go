package aguirt

import (
	"errors"
	"strings"
	"testing"

	agui "github.com/agui-gen/agui-gen/gen/agui"
)

func TestDecodeEventLenient(t *testing.T) {
	cases := []struct {
		name      string
		doc       string
		wantNil   bool     // dropped
		wantJSON  string   // the event as decoded
		warnings  []string // substrings, one per warning, in order
		errPath   string   // a failure at this path
		errTarget error    // which errors.Is
	}{
		{name: "clean", doc: `{"type":"TEXT_MESSAGE_END","messageId":"m"}`, wantJSON: `{"type":"TEXT_MESSAGE_END","messageId":"m"}`},
		{name: "unknown type", doc: `{"type":"FUTURE","x":1}`, wantNil: true, warnings: []string{`"FUTURE"`}},
		{name: "unknown member", doc: `{"type":"TEXT_MESSAGE_END","messageId":"m","future":{"a":1}}`,
			wantJSON: `{"type":"TEXT_MESSAGE_END","messageId":"m"}`, warnings: []string{"/future"}},
		{name: "unknown outcome", doc: `{"type":"RUN_FINISHED","threadId":"t","runId":"r","outcome":{"type":"paused"},"extra":1}`,
			wantJSON: `{"type":"RUN_FINISHED","threadId":"t","runId":"r"}`, warnings: []string{"/outcome", "/extra"}},
		{name: "unknown patch op", doc: `{"type":"STATE_DELTA","delta":[{"op":"inc","path":"/a"},{"op":"remove","path":"/b"}]}`,
			wantJSON: `{"type":"STATE_DELTA","delta":[{"op":"remove","path":"/b"}]}`, warnings: []string{"/delta/0"}},
		{name: "unknown message role", doc: `{"type":"MESSAGES_SNAPSHOT","messages":[{"id":"a","role":"narrator","content":"x"},{"id":"b","role":"user","content":"y"}]}`,
			wantJSON: `{"type":"MESSAGES_SNAPSHOT","messages":[{"id":"b","role":"user","content":"y"}]}`, warnings: []string{"/messages/0"}},
		{name: "unknown part source drops the part", doc: `{"type":"TOOL_CALL_RESULT","messageId":"t","toolCallId":"c","content":[` +
			`{"type":"text","text":"a"},{"type":"image","source":{"type":"hologram","value":"v"}}]}`,
			wantJSON: `{"type":"TOOL_CALL_RESULT","messageId":"t","toolCallId":"c","content":[{"type":"text","text":"a"}]}`,
			warnings: []string{"/content/1/source", "/content/1"}},
		{name: "unknown optional enum value", doc: `{"type":"TEXT_MESSAGE_START","messageId":"m","role":"narrator"}`,
			wantJSON: `{"type":"TEXT_MESSAGE_START","messageId":"m"}`, warnings: []string{"/role"}},
		{name: "unknown required enum value", doc: `{"type":"REASONING_ENCRYPTED_VALUE","subtype":"span","entityId":"e","encryptedValue":"x"}`,
			errPath: "/subtype"},
		{name: "wrong type", doc: `{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":42}`, errPath: "/delta"},
		{name: "outcome not an object", doc: `{"type":"RUN_FINISHED","threadId":"t","runId":"r","outcome":[]}`, errPath: "/outcome"},
		{name: "no type", doc: `{"messageId":"m"}`, errTarget: agui.ErrNoTag},
		{name: "not an object", doc: `[1]`, errPath: ""},
		{name: "null rawEvent", doc: `{"type":"TEXT_MESSAGE_END","messageId":"m","rawEvent":null}`, errPath: "/rawEvent"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var warnings []string
			ev, err := DecodeEventLenient([]byte(c.doc), func(w string) { warnings = append(warnings, w) })
			if c.errPath != "" || c.errTarget != nil || (c.wantJSON == "" && !c.wantNil) {
				var e *agui.Error
				if !errors.As(err, &e) || e.Path != c.errPath || (c.errTarget != nil && !errors.Is(err, c.errTarget)) {
					t.Fatalf("got %v, %v; want an *agui.Error at %q", ev, err, c.errPath)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if c.wantNil != (ev == nil) {
				t.Fatalf("event %v", ev)
			}
			if ev != nil && string(ev.AppendJSON(nil)) != c.wantJSON {
				t.Errorf("decoded %s; want %s", ev.AppendJSON(nil), c.wantJSON)
			}
			if len(warnings) != len(c.warnings) {
				t.Fatalf("warnings %q; want %d", warnings, len(c.warnings))
			}
			for i, w := range c.warnings {
				if !strings.Contains(warnings[i], w) {
					t.Errorf("warning %q lacks %q", warnings[i], w)
				}
			}
		})
	}
}
