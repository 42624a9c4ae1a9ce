package a2art

import (
	"context"
	"net/http"
	"slices"
	"strconv"
	"strings"

	a2a "github.com/agui-gen/agui-gen/gen/a2a"
)

// The names of the bindings, as AgentInterface.protocolBinding carries them.
const (
	BindingJSONRPC  = "JSONRPC"
	BindingHTTPJSON = "HTTP+JSON"
	BindingGRPC     = "GRPC"
)

// Service parameters (A2A §3.2.6): HTTP headers, or gRPC metadata in lower
// case. The version may also come as a query parameter.
const (
	VersionHeader    = "A2A-Version"
	ExtensionsHeader = "A2A-Extensions"
)

// LegacyVersion is what a request without A2A-Version asks for (A2A §3.6.2).
const LegacyVersion = "0.3"

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
// allowed and ignored (versions are never negotiated by patch). It returns
// the Major.Minor form.
func ParseVersion(s string) (string, bool) {
	parts := strings.Split(strings.TrimSpace(s), ".")
	if len(parts) < 2 || len(parts) > 3 {
		return "", false
	}
	for _, p := range parts {
		if _, err := strconv.ParseUint(p, 10, 16); err != nil {
			return "", false
		}
	}
	major, _ := strconv.ParseUint(parts[0], 10, 16)
	minor, _ := strconv.ParseUint(parts[1], 10, 16)
	return strconv.FormatUint(major, 10) + "." + strconv.FormatUint(minor, 10), true
}

// NegotiateVersion picks the version a call is served in: requested (the
// A2A-Version value, empty when absent) must name one of supported, patch
// ignored. An absent value means LegacyVersion unless absentAs says
// otherwise. A failure is ErrVersionNotSupported, whose message says what
// the request asked for and which header to send instead.
func NegotiateVersion(requested string, supported []string, absentAs string) (string, *a2a.RPCError) {
	v := requested
	if strings.TrimSpace(v) == "" {
		v = absentAs
		if v == "" {
			v = LegacyVersion
		}
	}
	mm, ok := ParseVersion(v)
	if ok {
		for _, s := range supported {
			if s == mm {
				return mm, nil
			}
		}
	}
	if strings.TrimSpace(requested) == "" && absentAs == "" {
		return "", MissingVersion("", supported)
	}
	return "", a2a.NewError(a2a.ErrVersionNotSupported, "the requested A2A protocol version '"+v+
		"' is not supported; this agent speaks "+strings.Join(supported, ", ")+": send the header "+
		VersionHeader+": "+newestVersion(supported))
}

// MissingVersion is the error for a call that names no A2A-Version where
// the version it is read as (LegacyVersion, A2A §3.6.2) is not served: it
// says so, and which header to send. what names the call when it is known
// to be one of this version's ("SendMessage", "POST /message:send"), so the
// client learns that it called the right method with the wrong version.
func MissingVersion(what string, supported []string) *a2a.RPCError {
	msg := "this request names no " + VersionHeader + ", which A2A reads as version " + LegacyVersion +
		" (A2A §3.6.2), and this agent speaks " + strings.Join(supported, ", ") + " here"
	if what != "" {
		msg = what + " is an A2A " + newestVersion(supported) + " method, but this request names no " + VersionHeader +
			", which A2A reads as version " + LegacyVersion + " (A2A §3.6.2)"
	}
	return a2a.NewError(a2a.ErrVersionNotSupported, msg+": send the header "+VersionHeader+": "+newestVersion(supported))
}

// newestVersion is the newest of versions (Major.Minor), or
// a2a.ProtocolVersion when there are none.
func newestVersion(versions []string) string {
	newest := ""
	key := func(v string) (uint64, uint64) {
		major, minor, _ := strings.Cut(v, ".")
		a, _ := strconv.ParseUint(major, 10, 16)
		b, _ := strconv.ParseUint(minor, 10, 16)
		return a, b
	}
	for _, v := range versions {
		if newest == "" {
			newest = v
			continue
		}
		a, b := key(v)
		na, nb := key(newest)
		if a > na || (a == na && b > nb) {
			newest = v
		}
	}
	if newest == "" {
		return a2a.ProtocolVersion
	}
	return newest
}

// splitList reads a comma-separated header value (A2A-Extensions).
func splitList(values []string) []string {
	var out []string
	for _, v := range values {
		for _, item := range strings.Split(v, ",") {
			if item = strings.TrimSpace(item); item != "" {
				out = append(out, item)
			}
		}
	}
	return out
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
