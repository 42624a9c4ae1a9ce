package a2art

import (
	"context"
	"net/http"
	"slices"
	"strconv"

	a2a "github.com/agui-gen/agui-gen/gen/a2a"
	"github.com/agui-gen/agui-gen/runtime/a2arpc"
)

// The names of the bindings, as AgentInterface.protocolBinding carries them.
const (
	BindingJSONRPC  = a2arpc.BindingJSONRPC
	BindingHTTPJSON = a2arpc.BindingHTTPJSON
	BindingGRPC     = a2arpc.BindingGRPC
)

// Service parameters (A2A §3.2.6): HTTP headers, or gRPC metadata in lower
// case. The version may also come as a query parameter.
const (
	VersionHeader    = a2arpc.VersionHeader
	ExtensionsHeader = a2arpc.ExtensionsHeader
)

// LegacyVersion is what a request without A2A-Version asks for (A2A §3.6.2).
const LegacyVersion = a2arpc.LegacyVersion

// CallInfo is what a server knows about one call beyond its request
// message. Handlers read it with CallInfoFrom.
type CallInfo struct {
	// Binding is BindingJSONRPC, BindingHTTPJSON or BindingGRPC.
	Binding string
	// Method is the RPC being served.
	Method *a2a.MethodDesc
	// Version is the negotiated protocol version, Major.Minor.
	Version string
	// Extensions are the extension URIs the client asked for (A2A-Extensions).
	Extensions []string
	// Principal is what the Authenticator returned, or nil.
	Principal any
	// Card is the agent card the server serves (WithAgentCard; NewHandler
	// passes its own), whose capabilities every call is held to; nil when
	// the server was given none.
	Card *a2a.AgentCard
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
	Telemetry *a2a.Telemetry
}

type callInfoKey struct{}

// WithCallInfo returns ctx carrying info; the bindings call it before a
// handler runs.
func WithCallInfo(ctx context.Context, info *CallInfo) context.Context {
	return context.WithValue(ctx, callInfoKey{}, info)
}

// CallInfoFrom returns the CallInfo of the call ctx belongs to, or nil.
func CallInfoFrom(ctx context.Context) *CallInfo {
	info, _ := ctx.Value(callInfoKey{}).(*CallInfo)
	return info
}

// ParseVersion reads a protocol version: Major.Minor, with a patch number
// allowed and ignored. It returns the Major.Minor form.
func ParseVersion(s string) (string, bool) { return a2arpc.ParseVersion(s) }

// NegotiateVersion picks the version a call is served in: requested (the
// A2A-Version value, empty when absent) must name one of supported, patch
// ignored. An absent value means LegacyVersion unless absentAs says
// otherwise. A failure is ErrVersionNotSupported, whose message says what
// the request asked for and which header to send instead.
func NegotiateVersion(requested string, supported []string, absentAs string) (string, *a2a.RPCError) {
	return a2arpc.NegotiateVersion(requested, supported, absentAs)
}

// MissingVersion is the error for a call that names no A2A-Version where
// the version it is read as (LegacyVersion) is not served; what names the
// call when it is known to be one of this version's ("SendMessage").
func MissingVersion(what string, supported []string) *a2a.RPCError {
	return a2arpc.MissingVersion(what, supported)
}

// checkCard refuses a call the card the server serves does not allow (A2A
// §3.3.4): a streaming RPC unless capabilities.streaming is true (absent is
// false, as the spec and both official SDKs read it), and any RPC that does
// not name, in A2A-Extensions, every extension the card marks required. The
// card itself is never behind it: it is how a client learns what to send.
func checkCard(info *CallInfo) *a2a.RPCError {
	if info == nil || info.Card == nil || info.Method == nil {
		return nil
	}
	caps := info.Card.Capabilities
	if info.Method.ServerStreaming && (caps == nil || caps.Streaming == nil || !*caps.Streaming) {
		return a2a.NewError(a2a.ErrUnsupportedOperation, info.Method.Name+" streams, and this agent's card does not declare streaming")
	}
	if caps == nil {
		return nil
	}
	for _, ext := range caps.Extensions {
		if ext.Required && !slices.Contains(info.Extensions, ext.URI) {
			return a2a.NewError(a2a.ErrExtensionSupportRequired, "this agent requires the extension "+strconv.Quote(ext.URI)+": name it in "+ExtensionsHeader)
		}
	}
	return nil
}
