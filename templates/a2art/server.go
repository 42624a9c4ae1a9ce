package a2art

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"runtime/debug"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	a2a "github.com/agui-gen/agui-gen/gen/a2a"
	"github.com/agui-gen/agui-gen/runtime/a2arpc"
	"github.com/agui-gen/agui-gen/runtime/bounds"
)

// DefaultMaxBodyBytes is the request body limit unless WithMaxBodyBytes
// says otherwise.
const DefaultMaxBodyBytes = 1 << 20

// ServerOption configures the server handlers.
type ServerOption func(*serverConfig)

type serverConfig struct {
	maxBody      int64
	logger       *slog.Logger
	versions     []string
	absentAs     string
	authenticate func(*http.Request) (any, error)
	keepAlive    time.Duration
	formats      []StreamFormat
	card         *a2a.AgentCard
	writeTimeout time.Duration
	streams      *bounds.Streams
	compat       []*a2a.CompatVersion // the earlier versions served
	telemetry    *a2a.Telemetry
	cors         *CORS
	// refusalsAsEvents answers a JSON-RPC streaming call refused before its
	// first event as a stream of that one error (WithStreamRefusalsAsEvents).
	refusalsAsEvents bool
}

func newServerConfig(opts []ServerOption) *serverConfig {
	c := &serverConfig{maxBody: DefaultMaxBodyBytes, logger: slog.Default(), versions: []string{a2a.ProtocolVersion},
		writeTimeout: DefaultWriteTimeout, streams: bounds.NewStreams(DefaultMaxStreams), compat: a2a.CompatVersions()}
	for _, o := range opts {
		o(c)
	}
	return c
}

// WithMaxBodyBytes limits request bodies (default 1 MiB); a larger body is
// refused with 413 before it is read.
func WithMaxBodyBytes(n int64) ServerOption { return func(c *serverConfig) { c.maxBody = n } }

// WithLogger logs refused requests and handler failures (default
// slog.Default()).
func WithLogger(l *slog.Logger) ServerOption { return func(c *serverConfig) { c.logger = l } }

// WithProtocolVersions sets the protocol versions (Major.Minor) the server
// accepts in A2A-Version; by default only ProtocolVersion.
func WithProtocolVersions(versions ...string) ServerOption {
	return func(c *serverConfig) { c.versions = versions }
}

// WithMissingVersionAs serves a request that carries no A2A-Version as
// version v. The spec reads an absent header as 0.3 (A2A §3.6.2), which a
// 1.x server refuses with VERSION_NOT_SUPPORTED; clients written before the
// header existed can be served as 1.0 with this option.
func WithMissingVersionAs(v string) ServerOption { return func(c *serverConfig) { c.absentAs = v } }

// WithAuthenticator runs authenticate on every request before its body is
// read. Its result becomes CallInfo.Principal; an error refuses the call:
// with its own code when it is an *RPCError (ErrPermissionDenied gives
// 403), else with ErrUnauthenticated (401). The agent card is never behind
// it.
func WithAuthenticator(authenticate func(*http.Request) (principal any, err error)) ServerOption {
	return func(c *serverConfig) { c.authenticate = authenticate }
}

// WithAgentCard holds every call to what card declares (A2A §3.3.4): a
// streaming RPC is refused with UNSUPPORTED_OPERATION unless
// capabilities.streaming is true, and a call that does not name every
// extension the card marks required in A2A-Extensions with
// EXTENSION_SUPPORT_REQUIRED. NewHandler passes the card it serves; give
// it to NewJSONRPCHandler and NewRESTHandler when they serve one card
// between them.
func WithAgentCard(card *a2a.AgentCard) ServerOption { return func(c *serverConfig) { c.card = card } }

// WithStreamRefusalsAsEvents answers a JSON-RPC streaming call that is
// refused before its first event (a card without streaming, a finished task
// to subscribe to, a refused caller) as an SSE stream whose only event is
// the error, instead of one application/json response. The A2A TCK, and the
// clients of @a2a-js/sdk 1.3, a2a-dotnet and a2a-rs, read the plain
// response; a2a-go v2's JSON-RPC client (v2.4.0) reads only SSE and takes a
// plain response for an empty stream, so a server whose callers use it may
// want this option.
func WithStreamRefusalsAsEvents() ServerOption {
	return func(c *serverConfig) { c.refusalsAsEvents = true }
}

// WithKeepAlive writes an SSE comment on a stream that has been idle for
// interval, so proxies keep it open. Off by default.
func WithKeepAlive(interval time.Duration) ServerOption {
	return func(c *serverConfig) { c.keepAlive = interval }
}

// callInfo builds the CallInfo of an HTTP request and authenticates it;
// the version is negotiated later, by version.
func (c *serverConfig) callInfo(r *http.Request, binding string) (*CallInfo, *a2a.RPCError) {
	info := &CallInfo{Binding: binding, Header: r.Header, Extensions: a2arpc.SplitList(r.Header.Values(ExtensionsHeader)),
		LastEventID: r.Header.Get("Last-Event-ID"), Card: c.card, Telemetry: c.telemetry}
	if c.authenticate != nil {
		p, err := c.authenticate(r)
		if err != nil {
			return nil, AuthError(err)
		}
		info.Principal = p
	}
	return info, nil
}

// AuthError is what an authenticator's error becomes: an *RPCError keeps
// its code (ErrPermissionDenied), anything else is ErrUnauthenticated.
func AuthError(err error) *a2a.RPCError {
	var re *a2a.RPCError
	if errors.As(err, &re) {
		return a2a.AsRPCError(err)
	}
	return a2a.NewError(a2a.ErrUnauthenticated, err.Error())
}

// version negotiates the protocol version of a call and records it in
// info.
func (c *serverConfig) version(r *http.Request, info *CallInfo) *a2a.RPCError {
	v, err := c.negotiate(r)
	if err != nil {
		return err
	}
	info.Version = v
	return nil
}

// negotiate picks the protocol version of a request from its A2A-Version
// header or query parameter.
func (c *serverConfig) negotiate(r *http.Request) (string, *a2a.RPCError) {
	return NegotiateVersion(requestedVersion(r), c.versions, c.absentAs)
}

// missingVersion reports whether r names no A2A-Version and is read as
// LegacyVersion for it (no WithMissingVersionAs).
func (c *serverConfig) missingVersion(r *http.Request) bool {
	return c.absentAs == "" && strings.TrimSpace(requestedVersion(r)) == ""
}

// requestedVersion is the version a request names in its A2A-Version
// header or query parameter, or "".
func requestedVersion(r *http.Request) string {
	if v := r.Header.Get(VersionHeader); v != "" {
		return v
	}
	return r.URL.Query().Get(VersionHeader)
}

// readBody reads a request body within the size limit and checks that it
// is UTF-8, as JSON text must be (RFC 8259 §8.1).
func (c *serverConfig) readBody(w http.ResponseWriter, r *http.Request) ([]byte, *a2a.RPCError, int) {
	if r.ContentLength > c.maxBody {
		return nil, a2a.NewError(a2a.ErrInvalidRequest, fmt.Sprintf("request body of %d bytes exceeds the limit of %d", r.ContentLength, c.maxBody)), http.StatusRequestEntityTooLarge
	}
	body, err := readAll(http.MaxBytesReader(w, r.Body, c.maxBody), r.ContentLength)
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return nil, a2a.NewError(a2a.ErrInvalidRequest, "request body exceeds the limit of "+strconv.FormatInt(c.maxBody, 10)+" bytes"), http.StatusRequestEntityTooLarge
		}
		return nil, a2a.NewError(a2a.ErrInvalidRequest, "reading the request body: "+err.Error()), http.StatusBadRequest
	}
	if !utf8.Valid(body) {
		return nil, a2a.NewError(a2a.ErrParse, "the request body is not valid UTF-8"), http.StatusBadRequest
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
func decodeRequest(data []byte, req a2a.ProtoValue) *a2a.RPCError {
	if err := req.UnmarshalJSON(data); err != nil {
		return InvalidParams(err)
	}
	return nil
}

func validateRequest(req a2a.ProtoValue) *a2a.RPCError {
	if err := req.Validate(); err != nil {
		return InvalidParams(err)
	}
	return nil
}

// InvalidParams turns an error from decoding or validating a request into
// ErrInvalidParams (ErrParse for malformed JSON) with a field violation
// naming where it happened.
func InvalidParams(err error) *a2a.RPCError {
	var re *a2a.RPCError
	if errors.As(err, &re) {
		return re
	}
	e := a2a.NewError(a2a.ErrInvalidParams, "invalid params: "+err.Error())
	var de *a2a.Error
	if errors.As(err, &de) {
		if de.Rule == "syntax" {
			e = a2a.NewError(a2a.ErrParse, "parse error: "+err.Error())
		}
		e.Violations = []a2a.FieldViolation{{Field: fieldPath(de.Path), Description: de.Msg}}
	}
	return e
}

// fieldPath turns a JSON pointer into the field path google.rpc.BadRequest
// uses: "/message/parts/0/text" is "message.parts[0].text".
func fieldPath(pointer string) string {
	var b strings.Builder
	for _, tok := range strings.Split(strings.TrimPrefix(pointer, "/"), "/") {
		if tok == "" {
			continue
		}
		if _, err := strconv.Atoi(tok); err == nil && b.Len() > 0 {
			b.WriteString("[" + tok + "]")
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~"))
	}
	return b.String()
}

// InvokeUnary runs a unary handler the way every binding does: the call
// held to the card of its CallInfo (WithAgentCard), the request validated
// (ErrInvalidParams naming the field), a panic caught and
// logged (ErrInternal), a nil response made the empty response message, and
// an error outside the A2A table logged and answered as ErrInternal without
// its text, which may hold details the caller should not see.
func InvokeUnary(ctx context.Context, logger *slog.Logger, h *a2a.MethodHandler, req a2a.ProtoValue) (resp a2a.ProtoValue, rerr *a2a.RPCError) {
	call := startCall(ctx, h, req)
	defer func() { call.end(resp, rpcError(rerr)) }()
	rerr = invoke(call.ctx, logger, h, req, func(ctx context.Context) (err error) {
		resp, err = h.Unary(ctx, req)
		return err
	})
	if rerr != nil {
		return nil, rerr
	}
	if resp == nil {
		resp = h.Desc.NewResponse()
	}
	return resp, nil
}

// InvokeStream runs a streaming handler as InvokeUnary runs a unary one;
// send writes one message to the caller.
func InvokeStream(ctx context.Context, logger *slog.Logger, h *a2a.MethodHandler, req a2a.ProtoValue, send func(a2a.ProtoValue) error) (rerr *a2a.RPCError) {
	call := startCall(ctx, h, req)
	defer func() { call.end(nil, rpcError(rerr)) }()
	send = call.observeSend(send)
	defer call.endStream()
	return invoke(call.ctx, logger, h, req, func(ctx context.Context) error { return h.Stream(ctx, req, send) })
}

// startCall starts the telemetry of a call (WithTelemetry): its span, in
// the context the handler gets.
func startCall(ctx context.Context, h *a2a.MethodHandler, req a2a.ProtoValue) call {
	info := CallInfoFrom(ctx)
	if info == nil {
		info = &CallInfo{}
	}
	return observerOf(info.Telemetry).startServer(ctx, info, h.Desc, req)
}

// rpcError is rerr as an error: nil when it is nil.
func rpcError(rerr *a2a.RPCError) error {
	if rerr == nil {
		return nil
	}
	return rerr
}

// invoke holds the call to the card it is served under, validates req and
// runs call, the handler's work on it, catching a panic and turning its
// error into the A2A error the caller gets.
func invoke(ctx context.Context, logger *slog.Logger, h *a2a.MethodHandler, req a2a.ProtoValue, call func(context.Context) error) (rerr *a2a.RPCError) {
	if rerr := checkCard(CallInfoFrom(ctx)); rerr != nil {
		return rerr
	}
	if h.Desc.Earlier == "" { // an earlier version's request is validated once converted (compatService)
		if rerr := validateRequest(req); rerr != nil {
			return rerr
		}
	}
	defer func() {
		if p := recover(); p != nil {
			logger.ErrorContext(ctx, "a2a: handler panicked", "method", h.Desc.Name, "panic", p, "stack", string(debug.Stack()))
			rerr = a2a.NewError(a2a.ErrInternal, "internal error")
		}
	}()
	if err := call(ctx); err != nil {
		return handlerError(ctx, logger, h, err)
	}
	return nil
}

func handlerError(ctx context.Context, logger *slog.Logger, h *a2a.MethodHandler, err error) *a2a.RPCError {
	var re *a2a.RPCError
	if errors.As(err, &re) {
		return a2a.AsRPCError(err)
	}
	if ctx.Err() == nil {
		logger.ErrorContext(ctx, "a2a: handler failed", "method", h.Desc.Name, "err", err)
	}
	return a2a.NewError(a2a.ErrInternal, "internal error")
}
