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
