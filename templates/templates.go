// Package templates holds the hand-written support code that generated
// packages need. Each subdirectory is a real Go package, compiled and tested
// here, whose files the generator copies into its output under the output's
// package name, so generated code never imports agui-gen.
package templates

import "embed"

// JSONWire is the JSON reader, writer and error types behind every generated
// encoder, decoder and validator.
//
//go:embed jsonwire/*.go
var JSONWire embed.FS

// AGUIRuntime is the AG-UI runtime (server, stream builder, verifier,
// client), written against the generated package gen/agui and copied into
// it with the agui. qualifiers removed.
//
//go:embed aguirt/*.go
var AGUIRuntime embed.FS

// AGUIImportPath is the import path the AG-UI runtime templates use for the
// generated package; the generator removes it when copying them.
const AGUIImportPath = "github.com/agui-gen/agui-gen/gen/agui"
