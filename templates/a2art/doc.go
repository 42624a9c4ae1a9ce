// Package a2art is the A2A runtime: the JSON-RPC 2.0 and HTTP+JSON
// bindings (server handlers and client transports), Server-Sent Events,
// protocol version negotiation and agent card serving. It is written
// against the generated package gen/a2a and copied into it with the a2a.
// qualifiers removed, so generated code never imports agui-gen. What an RPC
// is called, what it takes and whether it streams comes from the generated
// Service; nothing here names an RPC.
package a2art
