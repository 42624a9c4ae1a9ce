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
)

// FS holds every embedded spec file.
//
//go:embed agui/* meta/* a2a/*
var FS embed.FS
