// Package aguirt is the spec-typed part of the AG-UI runtime: the HTTP
// handler, the stream builder, the sequence verifier, the reducer and the
// client's event handling. It is written against the generated package
// gen/agui and copied into it by the generator, which drops the import and
// the agui. qualifiers. What holds no spec type (transport, telemetry,
// threads, lenient decoding, SQL stores) is imported from agui-gen's
// runtime instead, and the generator names it in gen/agui (runtimeapi_gen.go).
//
// Rules for code here: refer to generated names only as agui.Name, use no
// other identifier named agui, and use only exported API of gen/agui.
package aguirt

import agui "github.com/agui-gen/agui-gen/gen/agui"

// protocolVersion is the version this runtime speaks, from the schema.
const protocolVersion = agui.ProtocolVersion
