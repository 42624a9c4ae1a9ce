// Package a2ahttp serves and calls A2A over HTTP: the JSON-RPC 2.0 and
// HTTP+JSON bindings (server handlers and client transports), the agent
// card endpoint and the card-based client, Server-Sent Events, and the
// earlier protocol versions served beside the current one. What an RPC is
// called, what it takes and whether it streams comes from the generated
// Service; nothing here names an RPC.
//
// The generated package binds it to its spec types with a Spec (C is its
// *AgentCard, I its *AgentInterface, as connect-go's generics take a
// request type), and offers its names (a2a.NewHandler, a2a.ServerOption)
// as thin wrappers and aliases; code is written against those.
package a2ahttp

import (
	"github.com/agui-gen/agui-gen/runtime/a2acall"
	"github.com/agui-gen/agui-gen/runtime/a2arpc"
)

// Card is the constraint on the agent card type: a message of the
// generated package, compared with nil.
type Card interface {
	a2arpc.ProtoValue
	comparable
}

// Spec is what the HTTP bindings need to know of the generated package,
// which the runtime cannot import: C is its agent card type, I its agent
// interface type. The generated package fills one, once.
type Spec[C Card, I comparable] struct {
	// Call binds the serving of each call (a2acall) to the same types.
	Call *a2acall.Spec[C]
	// ProtocolVersion is the version the package was generated for,
	// Major.Minor.
	ProtocolVersion string
	// CompatVersions returns the earlier versions it was generated to serve.
	CompatVersions func() []*a2arpc.CompatVersion
	// NewCard returns an empty card.
	NewCard func() C
	// Signed reports whether a card carries signatures, which cover its
	// members as they are.
	Signed func(card C) bool
	// Interfaces returns card.supportedInterfaces; AddInterface appends one.
	Interfaces   func(card C) []I
	AddInterface func(card C, iface Interface)
	// Interface reads an interface, NewInterface makes one.
	Interface    func(iface I) Interface
	NewInterface func(iface Interface) I
}

// Interface is what the bindings read of an agent interface.
type Interface struct {
	URL, ProtocolBinding, ProtocolVersion, Tenant string
}
