// Package aguirt is the AG-UI runtime: the HTTP handler, the stream builder,
// the sequence verifier and the client. It is written against the generated
// package gen/agui and copied into it by the generator, which drops the
// import and the agui. qualifiers, so the generated package carries its own
// runtime and imports nothing of agui-gen.
//
// Rules for code here: refer to generated names only as agui.Name, use no
// other identifier named agui, and use only exported API of gen/agui.
package aguirt

import agui "github.com/agui-gen/agui-gen/gen/agui"

// protocolVersion is the version this runtime speaks, from the schema.
const protocolVersion = agui.ProtocolVersion
