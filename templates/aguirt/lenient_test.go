package aguirt

import (
	"errors"
	"strings"
	"testing"

	agui "github.com/agui-gen/agui-gen/gen/agui"
)

func TestJSONCut(t *testing.T) {
	cases := []struct {
		doc, ptr, want string
		inArray, ok    bool
	}{
		{`{"a":1,"b":2,"c":3}`, "/a", `{"b":2,"c":3}`, false, true},
		{`{"a":1,"b":2,"c":3}`, "/b", `{"a":1,"c":3}`, false, true},
		{`{"a":1,"b":2,"c":3}`, "/c", `{"a":1,"b":2}`, false, true},
		{`{"a":1}`, "/a", `{}`, false, true},
		{`{ "a" : 1 , "b" : [ 1 , 2 ] }`, "/a", `{  "b" : [ 1 , 2 ] }`, false, true},
		{`{ "a" : 1 , "b" : [ 1 , 2 ] }`, "/b/0", `{ "a" : 1 , "b" : [  2 ] }`, true, true},
		{`{ "a" : 1 , "b" : [ 1 , 2 ] }`, "/b/1", `{ "a" : 1 , "b" : [ 1  ] }`, true, true},
		{`{"m":[{"c":[{"t":1},{"x":{"y":2}},{"t":3}]}]}`, "/m/0/c/1", `{"m":[{"c":[{"t":1},{"t":3}]}]}`, true, true},
		{`{"m":[{"c":[{"t":1},{"x":{"y":2}},{"t":3}]}]}`, "/m/0/c/1/x", `{"m":[{"c":[{"t":1},{},{"t":3}]}]}`, false, true},
		{`{"a/b":1,"c~d":2}`, "/a~1b", `{"c~d":2}`, false, true},
		{`{"a/b":1,"c~d":2}`, "/c~0d", `{"a/b":1}`, false, true},
		{`{"a":"x,}"}`, "/a", `{}`, false, true},
		{`{"a":1}`, "/b", "", false, false},
		{`{"a":[1]}`, "/a/1", "", false, false},
		{`{"a":1}`, "", "", false, false},
		{`[1,2]`, "/0", `[2]`, true, true},
	}
	for _, c := range cases {
		out, inArray, ok := jsonCut([]byte(c.doc), c.ptr)
		if ok != c.ok || inArray != c.inArray || string(out) != c.want {
			t.Errorf("jsonCut(%s, %q) = %s, %v, %v; want %s, %v, %v", c.doc, c.ptr, out, inArray, ok, c.want, c.inArray, c.ok)
		}
	}
}

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
