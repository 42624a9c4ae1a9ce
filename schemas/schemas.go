// Package schemas embeds the spec files agui-gen generates from when no
// other file is given, so the binary works with no flags. SOURCES.md says
// where each file came from.
package schemas

import "embed"

// Embedded file paths, relative to FS.
const (
	AGUISchema      = "agui/schema.json"
	AGUIProtoFreeze = "agui/proto-freeze.txt"
	MetaSchema      = "meta/meta-events.schema.json"
	A2AProto        = "a2a/a2a.proto"
	// A2AV03Schema is the JSON Schema of A2A v0.3.0, the wire of the v0.3
	// clients a v1 server keeps serving.
	A2AV03Schema = "a2a/a2a-v0.3.0.schema.json"
	// A2AV03Proto is the proto of A2A v0.3.0: the gRPC service and the
	// HTTP+JSON bindings of the v0.3 clients, whose bodies are its ProtoJSON.
	A2AV03Proto = "a2a/a2a-v0.3.0.proto"
)

// A2AV03Version is the protocol version of A2AV03Proto, which its package
// name (a2a.v1) does not tell apart from 1.0.
const A2AV03Version = "0.3"

// A2AVersion is the A2A protocol version (Major.Minor) of the embedded
// a2a.proto. The proto file itself does not state it; SOURCES.md records
// the release tag it came from (v1.0.1).
const A2AVersion = "1.0"

// FS holds every embedded spec file.
//
//go:embed agui/* meta/* a2a/*
var FS embed.FS
