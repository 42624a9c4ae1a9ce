package a2ahttp

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/agui-gen/agui-gen/runtime/a2acall"
	"github.com/agui-gen/agui-gen/runtime/a2arpc"
	"github.com/agui-gen/agui-gen/runtime/bounds"
	"github.com/agui-gen/agui-gen/runtime/telemetry"
)

// DefaultMaxBodyBytes is the request body limit unless WithMaxBodyBytes
// says otherwise.
const DefaultMaxBodyBytes = 1 << 20

// ServerOption configures the server handlers.
type ServerOption[C Card, I comparable] func(*serverConfig[C, I])

type serverConfig[C Card, I comparable] struct {
	spec         *Spec[C, I]
	maxBody      int64
	logger       *slog.Logger
	versions     []string
	absentAs     string
	authenticate func(*http.Request) (any, error)
	keepAlive    time.Duration
	formats      []StreamFormat
	card         C
	writeTimeout time.Duration
	streams      *bounds.Streams
	compat       []*a2arpc.CompatVersion // the earlier versions served
	telemetry    *telemetry.Telemetry
	cors         *CORS
	// refusalsAsEvents answers a JSON-RPC streaming call refused before its
	// first event as a stream of that one error (WithStreamRefusalsAsEvents).
	refusalsAsEvents bool
}

func newServerConfig[C Card, I comparable](spec *Spec[C, I], opts []ServerOption[C, I]) *serverConfig[C, I] {
	c := &serverConfig[C, I]{spec: spec, maxBody: DefaultMaxBodyBytes, logger: slog.Default(), versions: []string{spec.ProtocolVersion},
		writeTimeout: DefaultWriteTimeout, streams: bounds.NewStreams(DefaultMaxStreams), compat: spec.CompatVersions()}
	for _, o := range opts {
		o(c)
	}
	return c
}

// WithMaxBodyBytes limits request bodies (default 1 MiB); a larger body is
// refused with 413 before it is read.
func WithMaxBodyBytes[C Card, I comparable](n int64) ServerOption[C, I] {
	return func(c *serverConfig[C, I]) { c.maxBody = n }
}

// WithLogger logs refused requests and handler failures (default
// slog.Default()).
func WithLogger[C Card, I comparable](l *slog.Logger) ServerOption[C, I] {
	return func(c *serverConfig[C, I]) { c.logger = l }
}

// WithProtocolVersions sets the protocol versions (Major.Minor) the server
// accepts in A2A-Version; by default only ProtocolVersion.
func WithProtocolVersions[C Card, I comparable](versions ...string) ServerOption[C, I] {
	return func(c *serverConfig[C, I]) { c.versions = versions }
}

// WithMissingVersionAs serves a request that carries no A2A-Version as
// version v. The spec reads an absent header as 0.3 (A2A §3.6.2), which a
// 1.x server refuses with VERSION_NOT_SUPPORTED; clients written before the
// header existed can be served as 1.0 with this option.
func WithMissingVersionAs[C Card, I comparable](v string) ServerOption[C, I] {
	return func(c *serverConfig[C, I]) { c.absentAs = v }
}

// WithAuthenticator runs authenticate on every request before its body is
// read. Its result becomes CallInfo.Principal; an error refuses the call:
// with its own code when it is an *RPCError (ErrPermissionDenied gives
// 403), else with ErrUnauthenticated (401). The agent card is never behind
// it.
func WithAuthenticator[C Card, I comparable](authenticate func(*http.Request) (principal any, err error)) ServerOption[C, I] {
	return func(c *serverConfig[C, I]) { c.authenticate = authenticate }
}

// WithAgentCard holds every call to what card declares (A2A §3.3.4): a
// streaming RPC is refused with UNSUPPORTED_OPERATION unless
// capabilities.streaming is true, and a call that does not name every
// extension the card marks required in A2A-Extensions with
// EXTENSION_SUPPORT_REQUIRED. NewHandler passes the card it serves; give
// it to NewJSONRPCHandler and NewRESTHandler when they serve one card
// between them.
func WithAgentCard[C Card, I comparable](card C) ServerOption[C, I] {
	return func(c *serverConfig[C, I]) { c.card = card }
}

// WithStreamRefusalsAsEvents answers a JSON-RPC streaming call that is
// refused before its first event (a card without streaming, a finished task
// to subscribe to, a refused caller) as an SSE stream whose only event is
// the error, instead of one application/json response. The A2A TCK, and the
// clients of @a2a-js/sdk 1.3, a2a-dotnet and a2a-rs, read the plain
// response; a2a-go v2's JSON-RPC client (v2.4.0) reads only SSE and takes a
// plain response for an empty stream, so a server whose callers use it may
// want this option.
func WithStreamRefusalsAsEvents[C Card, I comparable]() ServerOption[C, I] {
	return func(c *serverConfig[C, I]) { c.refusalsAsEvents = true }
}

// WithKeepAlive writes an SSE comment on a stream that has been idle for
// interval, so proxies keep it open. Off by default.
func WithKeepAlive[C Card, I comparable](interval time.Duration) ServerOption[C, I] {
	return func(c *serverConfig[C, I]) { c.keepAlive = interval }
}

// callInfo builds the CallInfo of an HTTP request and authenticates it;
// the version is negotiated later, by version.
func (c *serverConfig[C, I]) callInfo(r *http.Request, binding string) (*a2acall.CallInfo[C], *a2arpc.RPCError) {
	info := &a2acall.CallInfo[C]{Binding: binding, Header: r.Header, Extensions: a2arpc.SplitList(r.Header.Values(a2arpc.ExtensionsHeader)),
		LastEventID: r.Header.Get("Last-Event-ID"), Card: c.card, Telemetry: c.telemetry}
	if c.authenticate != nil {
		p, err := c.authenticate(r)
		if err != nil {
			return nil, a2acall.AuthError(err)
		}
		info.Principal = p
	}
	return info, nil
}

// version negotiates the protocol version of a call and records it in
// info.
func (c *serverConfig[C, I]) version(r *http.Request, info *a2acall.CallInfo[C]) *a2arpc.RPCError {
	v, err := c.negotiate(r)
	if err != nil {
		return err
	}
	info.Version = v
	return nil
}

// negotiate picks the protocol version of a request from its A2A-Version
// header or query parameter.
func (c *serverConfig[C, I]) negotiate(r *http.Request) (string, *a2arpc.RPCError) {
	return a2arpc.NegotiateVersion(requestedVersion(r), c.versions, c.absentAs)
}

// missingVersion reports whether r names no A2A-Version and is read as
// LegacyVersion for it (no WithMissingVersionAs).
func (c *serverConfig[C, I]) missingVersion(r *http.Request) bool {
	return c.absentAs == "" && strings.TrimSpace(requestedVersion(r)) == ""
}

// requestedVersion is the version a request names in its A2A-Version
// header or query parameter, or "".
func requestedVersion(r *http.Request) string {
	if v := r.Header.Get(a2arpc.VersionHeader); v != "" {
		return v
	}
	return r.URL.Query().Get(a2arpc.VersionHeader)
}

// readBody reads a request body within the size limit and checks that it
// is UTF-8, as JSON text must be (RFC 8259 §8.1).
func (c *serverConfig[C, I]) readBody(w http.ResponseWriter, r *http.Request) ([]byte, *a2arpc.RPCError, int) {
	if r.ContentLength > c.maxBody {
		return nil, a2arpc.NewError(a2arpc.ErrInvalidRequest, fmt.Sprintf("request body of %d bytes exceeds the limit of %d", r.ContentLength, c.maxBody)), http.StatusRequestEntityTooLarge
	}
	body, err := readAll(http.MaxBytesReader(w, r.Body, c.maxBody), r.ContentLength)
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return nil, a2arpc.NewError(a2arpc.ErrInvalidRequest, "request body exceeds the limit of "+strconv.FormatInt(c.maxBody, 10)+" bytes"), http.StatusRequestEntityTooLarge
		}
		return nil, a2arpc.NewError(a2arpc.ErrInvalidRequest, "reading the request body: "+err.Error()), http.StatusBadRequest
	}
	if !utf8.Valid(body) {
		return nil, a2arpc.NewError(a2arpc.ErrParse, "the request body is not valid UTF-8"), http.StatusBadRequest
	}
	return body, nil, 0
}

// readAll reads a body, in one allocation when its length is declared.
func readAll(r io.Reader, length int64) ([]byte, error) {
	if length <= 0 {
		return io.ReadAll(r)
	}
	buf := make([]byte, length+1) // one more, to see the end
	n, err := io.ReadFull(r, buf)
	switch err {
	case io.ErrUnexpectedEOF, io.EOF:
		return buf[:n], nil
	case nil:
		// The body is longer than declared: read the rest, within the limit.
		rest, err := io.ReadAll(r)
		return append(buf, rest...), err
	}
	return nil, err
}

// decodeRequest decodes a request message; a failure is ErrInvalidParams
// naming the field.
func decodeRequest(data []byte, req a2arpc.ProtoValue) *a2arpc.RPCError {
	if err := req.UnmarshalJSON(data); err != nil {
		return a2acall.InvalidParams(err)
	}
	return nil
}

// WithTelemetry sends the server's traces and metrics where t says
// (default: OpenTelemetry's global providers). Each call is a span named
// after its method, of kind SERVER, child of the trace context the request
// carries (traceparent in its HTTP headers or gRPC metadata).
func WithTelemetry[C Card, I comparable](t *telemetry.Telemetry) ServerOption[C, I] {
	return func(c *serverConfig[C, I]) { c.telemetry = t }
}
