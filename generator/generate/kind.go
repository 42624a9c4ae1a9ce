package generate

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/agui-gen/agui-gen/generator/load/jsonschema"
)

// Kinds of spec file, as WhatIs names them.
const (
	KindAGUISchema = "an AG-UI JSON Schema"
	KindMeta       = "META event definitions"
	KindA2ASchema  = "an A2A JSON Schema"
	KindProto      = "a proto"
)

// WhatIs names what a spec file holds, as far as its top level tells:
// KindAGUISchema (an object with $defs), KindMeta (one that also names the
// schema it extends), KindA2ASchema (v0.3's JSON Schema, whose types are
// under definitions), KindProto (a .proto file), or "" when it is none of
// them; for a file that is not JSON, the second result says why.
func WhatIs(s Spec) (string, error) {
	if strings.HasSuffix(s.File, ".proto") {
		return KindProto, nil
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(s.Data, &top); err != nil {
		if !json.Valid(s.Data) {
			return "", fmt.Errorf("it is not JSON: %w", err)
		}
		return "", nil
	}
	switch {
	case isExtension(s.Data):
		return KindMeta, nil
	case isSchema(s.Data):
		return KindAGUISchema, nil
	case top["definitions"] != nil && bytes.Contains(s.Data, []byte(`"AgentCard"`)):
		return KindA2ASchema, nil
	}
	return "", nil
}

// flagFor is the generate flag that takes a spec of kind.
var flagFor = map[string]string{
	KindAGUISchema: "--agui-schema",
	KindMeta:       "--meta",
	KindA2ASchema:  "--a2a-compat",
	KindProto:      "--a2a-proto (or --a2a-compat, for an earlier version's)",
}

// Expect checks, before anything is loaded from it, that s is of the kind
// flag takes (KindAGUISchema or KindMeta), and otherwise says what it is
// instead and which flag takes that, so that a wrong file is named at once
// rather than by what the loader misses in it.
func Expect(flag string, s Spec, want string) error {
	got, err := WhatIs(s)
	if got == want {
		return nil
	}
	msg := fmt.Sprintf("%s %s is not %s", flag, s.File, want)
	switch {
	case err != nil:
		msg += ": " + err.Error()
	case got != "":
		msg += fmt.Sprintf(": it is %s; pass it with %s", got, flagFor[got])
	case want == KindMeta:
		msg += ": it does not name the schema it extends in " + jsonschema.ExtendsKeyword
	default:
		msg += ": it has no $defs, where an AG-UI schema.json defines its events and types (`agui-gen version` names the embedded one)"
	}
	return fmt.Errorf("%s", msg)
}
