package main

// The generated AG-UI package lives in gen/agui. Regenerate it with
//
//	go generate ./...
//
//go:generate go run github.com/agui-gen/agui-gen/cmd/agui-gen generate --out gen --package-path example.com/downstream/gen
