package a2agrpc

import (
	"context"
	"errors"
	"io"
	"iter"
	"maps"
	"slices"
	"strings"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/metadata"

	"github.com/agui-gen/agui-gen/runtime/a2acall"
	"github.com/agui-gen/agui-gen/runtime/a2ahttp"
	"github.com/agui-gen/agui-gen/runtime/a2arpc"
	"github.com/agui-gen/agui-gen/runtime/telemetry"
)

// ClientOption configures a gRPC transport.
type ClientOption func(*transport)

// WithVersion sets the a2a-version the client sends (default the
// package's Spec.ProtocolVersion).
func WithVersion(v string) ClientOption { return func(t *transport) { t.version = v } }

// WithMetadata adds a metadata pair to every call, such as authorization.
func WithMetadata(key, value string) ClientOption {
	return func(t *transport) { t.md = append(t.md, strings.ToLower(key), value) }
}

// WithClientTelemetry sends the calls' traces and metrics where tel says
// (default: OpenTelemetry's global providers); a call is a span of kind
// CLIENT, whose trace context its metadata carries (traceparent).
func WithClientTelemetry(tel *telemetry.Telemetry) ClientOption {
	return func(t *transport) { t.telemetry = tel }
}

// NewTransport calls over conn, for the generated package's typed clients
// (NewA2AServiceClient).
func NewTransport[C a2ahttp.Card, I comparable](spec *Spec[C, I], conn grpc.ClientConnInterface, opts ...ClientOption) a2arpc.Transport {
	return newTransport(spec, conn, nil, opts)
}

func newTransport[C a2ahttp.Card, I comparable](spec *Spec[C, I], conn grpc.ClientConnInterface, owned *grpc.ClientConn, opts []ClientOption) a2arpc.Transport {
	t := &transport{conn: conn, version: spec.ProtocolVersion, owned: owned}
	for _, o := range opts {
		o(t)
	}
	return spec.ObserveTransport(t, a2arpc.BindingGRPC, t.telemetry)
}

type transport struct {
	conn      grpc.ClientConnInterface
	version   string
	md        []string
	owned     *grpc.ClientConn // the connection WithGRPC dialled, closed by Close
	telemetry *telemetry.Telemetry
}

// Close closes the connection the transport dialled itself (WithGRPC); a
// connection given to NewTransport is the caller's to close.
func (t *transport) Close() error {
	if t.owned == nil {
		return nil
	}
	return t.owned.Close()
}

func (t *transport) outgoing(ctx context.Context) context.Context {
	md := append([]string{"a2a-version", t.version}, t.md...)
	a2acall.InjectTraceContext(ctx, t.telemetry, func(key, value string) { md = append(md, key, value) })
	return metadata.AppendToOutgoingContext(ctx, md...)
}

func (t *transport) Call(ctx context.Context, m *a2arpc.MethodDesc, req, resp a2arpc.ProtoValue) error {
	return fromStatus(t.conn.Invoke(t.outgoing(ctx), m.FullMethod, req, resp), t.version)
}

func (t *transport) Stream(ctx context.Context, m *a2arpc.MethodDesc, req a2arpc.ProtoValue) iter.Seq2[a2arpc.ProtoValue, error] {
	return func(yield func(a2arpc.ProtoValue, error) bool) {
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		out := t.outgoing(ctx)
		if id := a2arpc.LastEventID(ctx); id != "" {
			out = metadata.AppendToOutgoingContext(out, "last-event-id", id) // a stream that continues one the client lost
		}
		cs, err := t.conn.NewStream(out, &grpc.StreamDesc{StreamName: m.Name, ServerStreams: true}, m.FullMethod)
		if err == nil {
			err = cs.SendMsg(req)
		}
		if err == nil {
			err = cs.CloseSend()
		}
		if err != nil {
			yield(nil, fromStatus(err, t.version))
			return
		}
		for {
			msg := m.NewResponse()
			if err := cs.RecvMsg(msg); err != nil {
				if !errors.Is(err, io.EOF) {
					yield(nil, fromStatus(err, t.version))
				}
				return
			}
			if !yield(msg, nil) {
				return
			}
		}
	}
}

// WithGRPC lets the card-based client (a2ahttp.NewTransportFromCard) pick
// gRPC interfaces, dialling their url (host:port, A2A §10) with dialOpts.
// Without a grpc.WithTransportCredentials among them it dials with TLS and
// the system's roots, since the spec puts gRPC on TLS. The headers the
// client's options add (a2ahttp.WithHeader) go as metadata. The transport
// it makes is an io.Closer that closes the connection.
func WithGRPC[C a2ahttp.Card, I comparable](spec *Spec[C, I], dialOpts ...grpc.DialOption) a2ahttp.ClientOption[C, I] {
	return a2ahttp.WithTransport(a2arpc.BindingGRPC, func(iface I, clientOpts ...a2ahttp.ClientOption[C, I]) (a2arpc.Transport, error) {
		target, protocolVersion := spec.Interface(iface)
		for _, scheme := range []string{"grpc://", "grpcs://", "http://", "https://"} {
			target = strings.TrimPrefix(target, scheme)
		}
		opts := append([]grpc.DialOption{grpc.WithTransportCredentials(credentials.NewTLS(nil))}, dialOpts...)
		conn, err := grpc.NewClient(target, opts...)
		if err != nil {
			return nil, err
		}
		copts := []ClientOption{WithClientTelemetry(spec.ClientTelemetry(clientOpts...))}
		if v, ok := a2arpc.ParseVersion(protocolVersion); ok {
			copts = append(copts, WithVersion(v))
		}
		header := spec.ClientHeaders(clientOpts...)
		for _, k := range slices.Sorted(maps.Keys(header)) {
			for _, v := range header[k] {
				copts = append(copts, WithMetadata(k, v))
			}
		}
		return newTransport(spec, conn, conn, copts), nil
	})
}

func splitComma(s string) []string {
	var out []string
	for _, item := range strings.Split(s, ",") {
		if item = strings.TrimSpace(item); item != "" {
			out = append(out, item)
		}
	}
	return out
}
