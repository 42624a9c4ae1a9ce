package a2agrpc

import (
	"context"
	"log/slog"
	"net/http"

	"github.com/agui-gen/agui-gen/runtime/a2ahttp"
	"github.com/agui-gen/agui-gen/runtime/a2arpc"
	"github.com/agui-gen/agui-gen/runtime/telemetry"
)

// Spec is what the gRPC binding needs to know of the generated package,
// which the runtime cannot import: C is its agent card type, I its agent
// interface type. The generated a2agrpc package fills one, once, from the
// exported names of the package with the types (whose own specs bind
// a2acall and a2ahttp), so that the types' package imports no gRPC.
type Spec[C a2ahttp.Card, I comparable] struct {
	// ProtocolVersion is the version the package was generated for,
	// Major.Minor.
	ProtocolVersion string
	// CompatVersions returns the earlier versions it was generated to serve.
	CompatVersions func() []*a2arpc.CompatVersion
	// InvokeUnary and InvokeStream run a handler as every binding does
	// (a2acall.InvokeUnary and InvokeStream, bound to the package's card).
	InvokeUnary  func(ctx context.Context, logger *slog.Logger, h *a2arpc.MethodHandler, req a2arpc.ProtoValue) (a2arpc.ProtoValue, *a2arpc.RPCError)
	InvokeStream func(ctx context.Context, logger *slog.Logger, h *a2arpc.MethodHandler, req a2arpc.ProtoValue, send func(a2arpc.ProtoValue) error) *a2arpc.RPCError
	// ObserveTransport records a client's calls (a2acall.ObserveTransport).
	ObserveTransport func(t a2arpc.Transport, binding string, tel *telemetry.Telemetry) a2arpc.Transport
	// ClientHeaders and ClientTelemetry read what the card-based client's
	// options set (a2ahttp.ClientHeaders and ClientTelemetry).
	ClientHeaders   func(opts ...a2ahttp.ClientOption[C, I]) http.Header
	ClientTelemetry func(opts ...a2ahttp.ClientOption[C, I]) *telemetry.Telemetry
	// Interface reads the url and protocolVersion of an agent interface.
	Interface func(iface I) (url, protocolVersion string)
}
