// Package a2acall serves and observes one A2A call, whatever its binding:
// the CallInfo a handler reads, the invocation every binding runs (the
// call held to the agent card, the request validated, a panic caught, an
// error made one of the A2A table), and the call's traces and metrics. The
// generated package binds it to its spec types with a Spec, since the
// runtime never imports generated code.
package a2acall

import (
	"context"
	"net/http"
	"strconv"

	"github.com/agui-gen/agui-gen/runtime/a2arpc"
	"github.com/agui-gen/agui-gen/runtime/telemetry"
)

// CallInfo is what a server knows about one call beyond its request
// message. Handlers read it with From (the generated a2a.CallInfoFrom).
type CallInfo[C comparable] struct {
	// Binding is a2arpc.BindingJSONRPC, BindingHTTPJSON or BindingGRPC.
	Binding string
	// Method is the RPC being served.
	Method *a2arpc.MethodDesc
	// Version is the negotiated protocol version, Major.Minor.
	Version string
	// Extensions are the extension URIs the client asked for (A2A-Extensions).
	Extensions []string
	// Principal is what the Authenticator returned, or nil.
	Principal any
	// Card is the agent card the server serves (WithAgentCard; NewHandler
	// passes its own), whose capabilities every call is held to; nil when
	// the server was given none.
	Card C
	// Header holds the request's HTTP headers, or its gRPC metadata with
	// canonical keys.
	Header http.Header
	// LastEventID is the id of the last event a client that reconnects to
	// a stream received (the Last-Event-ID header, or last-event-id
	// metadata), for the handler to resume after; empty otherwise.
	LastEventID string
	// EventID, set by the bindings whose streams carry event ids (Server-Sent
	// Events), names the next message the handler sends on its stream: call
	// it just before send. Nil where streams have no ids.
	EventID func(id string)
	// Telemetry is where the call's traces and metrics go (WithTelemetry);
	// nil for OpenTelemetry's global providers.
	Telemetry *telemetry.Telemetry
}

type callInfoKey struct{}

// WithCallInfo returns ctx carrying info; the bindings call it before a
// handler runs.
func WithCallInfo[C comparable](ctx context.Context, info *CallInfo[C]) context.Context {
	return context.WithValue(ctx, callInfoKey{}, info)
}

// From returns the CallInfo of the call ctx belongs to, or nil.
func From[C comparable](ctx context.Context) *CallInfo[C] {
	info, _ := ctx.Value(callInfoKey{}).(*CallInfo[C])
	return info
}

// checkCard refuses a call the card the server serves does not allow (A2A
// §3.3.4): a streaming RPC unless capabilities.streaming is true (absent is
// false, as the spec and both official SDKs read it), and any RPC that does
// not name, in A2A-Extensions, every extension the card marks required. The
// card itself is never behind it: it is how a client learns what to send.
func checkCard[C comparable](spec *Spec[C], info *CallInfo[C]) *a2arpc.RPCError {
	var none C
	if info == nil || info.Card == none || info.Method == nil {
		return nil
	}
	if info.Method.ServerStreaming && !spec.Streams(info.Card) {
		return a2arpc.NewError(a2arpc.ErrUnsupportedOperation, info.Method.Name+" streams, and this agent's card does not declare streaming")
	}
	if ext := spec.MissingExtension(info.Card, info.Extensions); ext != "" {
		return a2arpc.NewError(a2arpc.ErrExtensionSupportRequired, "this agent requires the extension "+strconv.Quote(ext)+": name it in "+a2arpc.ExtensionsHeader)
	}
	return nil
}
