package aguirt

import (
	"errors"
	"strings"

	agui "github.com/agui-gen/agui-gen/gen/agui"
	"github.com/agui-gen/agui-gen/runtime/lenient"
	"github.com/agui-gen/agui-gen/runtime/wire"
)

// Receiving is forgiving where the protocol says so and strict everywhere
// else: material from a newer version is stripped with a warning, and a
// malformed known field is fatal.

// DecodeEventLenient decodes one event the way an AG-UI receiver must. An
// event of a type this package does not know is dropped: it returns a nil
// event and a nil error. Members the schema does not declare are stripped;
// so is an unrecognised member of a union in an optional position or a
// list (an outcome, a content part, a patch operation, a message), and an
// unrecognised value of a closed string set in an optional position (a
// role). If what was stripped was required, the list element holding it is
// dropped instead, or, outside a list, the event is malformed. Each of
// these is reported to warn (which may be nil) with the JSON pointer of
// what went. Any other failure to decode or validate is returned, as an
// *agui.Error.
func DecodeEventLenient(data []byte, warn func(msg string)) (agui.Event, error) {
	if warn == nil {
		warn = func(string) {}
	}
	// The common case, an event with nothing to strip, decodes strictly in
	// one pass; anything else takes the tolerant path below.
	if ev, err := (agui.Decoder{Strict: true}).DecodeEvent(data); err == nil && ev.Validate() == nil {
		return ev, nil
	}
	ev, err := decodeLenient(data, func(d agui.Decoder, b []byte) (agui.Event, error) { return d.DecodeEvent(b) }, warn)
	if err != nil {
		var e *agui.Error
		if errors.As(err, &e) && e.Path == "/type" && errors.Is(err, agui.ErrUnknownEvent) {
			warn("dropped an event of unrecognised type " + strings.TrimPrefix(e.Msg, "unknown type "))
			return nil, nil
		}
		return nil, err
	}
	return ev, nil
}

// unknownSentinels are the errors behind an unrecognised member of a
// nested union.
var unknownSentinels = []error{
	agui.ErrUnknownMessage,
	agui.ErrUnknownContentPart,
	agui.ErrUnknownPartSource,
	agui.ErrUnknownRunFinishedOutcome,
	agui.ErrUnknownSubagentFinishedOutcome,
	agui.ErrUnknownJSONPatchOperation,
}

// decodeLenient decodes and validates data, stripping what a receiver
// tolerates (see DecodeEventLenient and runtime/lenient).
func decodeLenient[T interface{ Validate() error }](data []byte, decode func(agui.Decoder, []byte) (T, error), warn func(string)) (T, error) {
	return lenient.Decode(data, func(d wire.Decoder, b []byte) (T, error) { return decode(agui.Decoder(d), b) }, unknownSentinels, warn)
}
