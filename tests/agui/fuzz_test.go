package agui_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/agui-gen/agui-gen/gen/agui"
)

// addFixtureSeeds seeds a fuzz target with every fixture document.
func addFixtureSeeds(f *testing.F) {
	docs, _ := filepath.Glob(filepath.Join(fixtureDir, "*", "*", "*.json"))
	for _, d := range docs {
		if b, err := os.ReadFile(d); err == nil {
			f.Add(b)
		}
	}
}

// FuzzUnmarshalEvent: any input either decodes to an event that re-encodes
// to JSON that decodes to the same encoding, or fails with an *agui.Error;
// it never panics.
func FuzzUnmarshalEvent(f *testing.F) {
	addFixtureSeeds(f)
	f.Add([]byte(`{"type":"META","metaType":"rating","payload":{"messageId":"m","rating":4}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		ev, err := agui.UnmarshalEvent(data)
		if err != nil {
			var e *agui.Error
			if !errors.As(err, &e) {
				t.Fatalf("error is %T, not *agui.Error", err)
			}
			return
		}
		_ = ev.Validate()
		first := ev.AppendJSON(nil)
		again, err := agui.UnmarshalEvent(first)
		if err != nil {
			t.Fatalf("re-decoding our own output failed: %v\n%s", err, first)
		}
		if second := again.AppendJSON(nil); !bytes.Equal(first, second) {
			t.Fatalf("encoding is not stable:\n%s\n%s", first, second)
		}
	})
}

// FuzzRunAgentInput covers the request body a server parses.
func FuzzRunAgentInput(f *testing.F) {
	addFixtureSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		var in agui.RunAgentInput
		if err := (agui.Decoder{Strict: true}).Decode(data, &in); err != nil {
			var e *agui.Error
			if !errors.As(err, &e) {
				t.Fatalf("error is %T, not *agui.Error", err)
			}
			return
		}
		_ = in.Validate()
		out := in.AppendJSON(nil)
		var back agui.RunAgentInput
		if err := back.UnmarshalJSON(out); err != nil {
			t.Fatalf("re-decoding our own output failed: %v\n%s", err, out)
		}
	})
}

// FuzzUnmarshalEventProto: the protobuf decoder never panics, and what it
// accepts re-encodes to bytes it accepts again as the same event.
func FuzzUnmarshalEventProto(f *testing.F) {
	docs, _ := filepath.Glob(filepath.Join(fixtureDir, "*Event", "valid", "*.json"))
	for _, d := range docs {
		data, err := os.ReadFile(d)
		if err != nil {
			continue
		}
		if ev, err := agui.UnmarshalEvent(data); err == nil {
			if b, ok := agui.AppendEventProto(nil, ev); ok {
				f.Add(b)
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		ev, err := agui.UnmarshalEventProto(data)
		if err != nil {
			var e *agui.Error
			if !errors.As(err, &e) {
				t.Fatalf("error is %T, not *agui.Error", err)
			}
			return
		}
		b, ok := agui.AppendEventProto(nil, ev)
		if !ok {
			t.Fatalf("decoded a %s that has no protobuf form", ev.Type())
		}
		again, err := agui.UnmarshalEventProto(b)
		if err != nil {
			t.Fatalf("re-decoding our own encoding: %v", err)
		}
		if !bytes.Equal(ev.AppendJSON(nil), again.AppendJSON(nil)) {
			t.Fatalf("protobuf round trip changed the event:\n%s\n%s", ev.AppendJSON(nil), again.AppendJSON(nil))
		}
	})
}
