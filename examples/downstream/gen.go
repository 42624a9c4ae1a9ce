package main

// The generated packages live below gen/. Regenerate them with
//
//	go generate ./...
//
// agui-gen is one of this module's tools (go.mod's tool directive), and
// the packages' import path comes from go.mod.
//
//go:generate go tool agui-gen generate --out gen --only agui
