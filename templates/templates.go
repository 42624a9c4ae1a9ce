// Package templates holds the hand-written support code that generated
// packages need. Each subdirectory is a real Go package, compiled and tested
// here, whose files the generator copies into its output under the output's
// package name, so generated code never imports agui-gen.
package templates

import "embed"

// AGUIRuntime is the AG-UI runtime (server, stream builder, verifier,
// client), written against the generated package gen/agui and copied into
// it with the agui. qualifiers removed.
//
//go:embed aguirt/*.go
var AGUIRuntime embed.FS

// A2ARuntime is the spec-typed piece of the A2A runtime: the specs that bind
// runtime/a2acall and runtime/a2ahttp (the bindings, clients, version
// negotiation, agent card) to gen/a2a's types, written against gen/a2a and
// copied into it with the a2a. qualifiers removed.
//
//go:embed a2art/*.go
var A2ARuntime embed.FS

// A2ACompat holds, per earlier A2A version (a2acompat/v03), the rules of
// its conversion to the current version: routes.txt and Go written against
// gen/a2a and the earlier version's package, copied into gen/a2a.
//
//go:embed a2acompat
var A2ACompat embed.FS

// A2ACard is the spec-typed piece of the a2acard subpackage: the signing
// and verifying of the typed agent card over runtime/cardsig, written
// against gen/a2a and copied into a2acard with the import path rewritten
// beside the generated aliases of cardsig's names.
//
//go:embed a2acard/*.go
var A2ACard embed.FS

// A2ATask is the A2A task runtime (executor, lifecycle, stores), written
// against gen/a2a and copied into its a2atask subpackage with the import
// path rewritten.
//
//go:embed a2atask/*.go
var A2ATask embed.FS

// A2ATaskSQLite is the SQLite task store, written against gen/a2a and
// gen/a2a/a2atask and copied into a2atask/sqlitestore.
//
//go:embed a2atask/sqlitestore/sqlite.go
var A2ATaskSQLite embed.FS

// A2ATaskPostgres is the PostgreSQL task store, written against gen/a2a
// and gen/a2a/a2atask and copied into a2atask/pgstore.
//
//go:embed a2atask/pgstore/pg.go
var A2ATaskPostgres embed.FS

// A2AAuth is the spec-typed piece of the a2aauth subpackage: the reading of
// an agent card's security schemes into runtime/auth, written against
// gen/a2a and copied into a2aauth beside the generated aliases of
// runtime/auth's names.
//
//go:embed a2aauth/*.go
var A2AAuth embed.FS

// Bridge joins AG-UI and A2A (an A2A agent behind AG-UI, an AG-UI agent
// as an A2A executor, the agui_* part hints), written against gen/agui,
// gen/a2a and gen/a2a/a2atask and copied into the bridge package.
//
//go:embed bridge/*.go
var Bridge embed.FS

// AgentHost serves several named agents over both protocols, written
// against gen/agui, gen/a2a and gen/bridge and copied into the agenthost
// package.
//
//go:embed agenthost/*.go
var AgentHost embed.FS

// MetaSQLite and MetaPostgres keep META events for the AG-UI intake,
// written against gen/agui and copied into its metasqlite and metapg
// subpackages.
//
//go:embed metasqlite/sqlite.go
var MetaSQLite embed.FS

//go:embed metapg/pg.go
var MetaPostgres embed.FS

// Examples holds the godoc Example functions of the generated packages:
// examples/<the package's directory below the output>/example_test.go,
// compiled and run here against gen/ and written into every output as
// example_gen_test.go.
//
//go:embed examples
var Examples embed.FS

// GenImportPath is the import path of the generated packages' root, below
// which the templates import them.
const GenImportPath = "github.com/agui-gen/agui-gen/gen"

// BridgeImportPath is the import path the templates use for the generated
// bridge package.
const BridgeImportPath = "github.com/agui-gen/agui-gen/gen/bridge"

// A2AImportPath is the import path the A2A runtime templates use for the
// generated package.
const A2AImportPath = "github.com/agui-gen/agui-gen/gen/a2a"

// AGUIImportPath is the import path the AG-UI runtime templates use for the
// generated package; the generator removes it when copying them.
const AGUIImportPath = "github.com/agui-gen/agui-gen/gen/agui"

// Scaffold holds the files agui-gen scaffold writes once for a user to own:
// *.go.tmpl are text templates (delimiters [[ ]], given the generated
// packages' import path as .Gen), the rest is copied as it is.
//
//go:embed all:scaffold
var Scaffold embed.FS
