package a2ahttp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"mime"
	"net/http"
	"strconv"
	"strings"

	"github.com/agui-gen/agui-gen/runtime/a2acall"
	"github.com/agui-gen/agui-gen/runtime/a2arpc"
	"github.com/agui-gen/agui-gen/runtime/jsonrpc"
	"github.com/agui-gen/agui-gen/runtime/sse"
)

// NewJSONRPCHandler serves svc over JSON-RPC 2.0 (A2A §9): POST a request
// whose method is an RPC's name and whose params are its request message in
// ProtoJSON; unary RPCs answer with one response, streaming RPCs with
// Server-Sent Events whose data are JSON-RPC responses. A streaming call
// refused before its first event (a malformed request, a card without
// streaming, a finished task to subscribe to) is answered as a unary one,
// one application/json response, as the A2A TCK and @a2a-js/sdk expect;
// only an error after the first event is an event of the stream. (A 0.3
// client is answered in SSE either way, since 0.3's SDKs read nothing
// else; WithStreamRefusalsAsEvents does the same for every client.) Errors
// follow
// JSON-RPC 2.0 §5.1 (-32700, -32600, -32601, -32602, -32603) and the A2A
// table (-32001…), with a google.rpc.ErrorInfo in error.data. Batches are
// served as §6 says, unary RPCs only; notifications run and get no reply.
// Pages of other origins may call it once WithCORS names theirs.
func NewJSONRPCHandler[C Card, I comparable](spec *Spec[C, I], svc *a2arpc.Service, opts ...ServerOption[C, I]) http.Handler {
	cfg := newServerConfig(spec, opts)
	return cfg.cors.Handler(&jsonrpcHandler[C, I]{svc: svc, cfg: cfg}, cfg.logger, "a2a", []string{http.MethodPost}, corsHeaders, corsExposed)
}

type jsonrpcHandler[C Card, I comparable] struct {
	svc *a2arpc.Service
	cfg *serverConfig[C, I]
}

// nullID is the id of a response to a request whose id could not be read.
var nullID = json.RawMessage("null")

// rpcRequest is one JSON-RPC request object, its members still raw.
type rpcRequest struct {
	id       json.RawMessage // nil for a notification
	method   string
	params   json.RawMessage
	streamed bool // the method streams
	handler  *a2arpc.MethodHandler
	// compat is the earlier version's method the request names, served by
	// handler; nil for a method of this version.
	compat        *a2arpc.CompatMethod
	compatVersion *a2arpc.CompatVersion
	// foreign reports that compatVersion is of an earlier major, whose
	// bindings are its own (ownBindings).
	foreign bool
	// earlier reports a request refused before its method is known from a
	// client that may speak an earlier version: its error is written in the
	// form every version reads.
	earlier bool
}

// appendAnswer appends the response to req in the JSON of its version.
// An earlier version of this major reads this version's errors, details
// and all.
func (r *rpcRequest) appendAnswer(b []byte, id json.RawMessage, result a2arpc.ProtoValue, rerr *a2arpc.RPCError) []byte {
	switch {
	case r == nil:
	case r.compat != nil && (rerr == nil || r.foreign):
		return appendCompatResponse(b, id, r.compat, result, rerr)
	case r.earlier && rerr != nil:
		return appendCompatResponse(b, id, nil, nil, rerr)
	}
	return appendResponse(b, id, result, rerr)
}

func (h *jsonrpcHandler[C, I]) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		h.writeError(w, http.StatusMethodNotAllowed, nullID, a2arpc.NewError(a2arpc.ErrInvalidRequest, "JSON-RPC requests are POSTed; got "+r.Method))
		return
	}
	if ct := r.Header.Get("Content-Type"); ct != "" && !isJSONMediaType(ct) {
		h.writeError(w, http.StatusUnsupportedMediaType, nullID, a2arpc.NewError(a2arpc.ErrInvalidRequest, "Content-Type "+ct+" is not JSON"))
		return
	}
	info, rerr := h.cfg.callInfo(r, a2arpc.BindingJSONRPC)
	if rerr != nil {
		h.writeEarlyError(w, r, rerr) // the body, and its id, are not read yet
		return
	}
	body, rerr, status := h.cfg.readBody(w, r)
	if rerr != nil {
		h.writeError(w, status, nullID, rerr)
		return
	}
	trimmed := bytes.TrimLeft(body, " \t\r\n")
	if len(trimmed) > 0 && trimmed[0] == '[' {
		if rerr := h.cfg.version(r, info); rerr != nil {
			h.writeError(w, http.StatusOK, nullID, rerr)
			return
		}
		h.serveBatch(w, r, info, body)
		return
	}
	// The version is negotiated before the method is looked up: a client that
	// sends no A2A-Version speaks 0.3 (A2A §3.6.2), whose method names
	// ("tasks/get") this service does not have, and it is told that its
	// version is not served rather than that its method does not exist.
	// A method of an earlier version served beside this one (0.3's
	// "message/send") is that version's, whatever the header says.
	req, rerr := h.parse(body, h.cfg.namedEarlier(r))
	if rerr == nil {
		if req.compat != nil {
			rerr = compatVersion(r, req.compatVersion, req.method, info)
		} else if rerr = h.cfg.version(r, info); rerr != nil && req.handler != nil && h.cfg.missingVersion(r) {
			rerr = a2arpc.MissingVersion(req.method, h.cfg.versions) // one of this version's methods, without its header
		}
	}
	if rerr == nil {
		rerr = req.resolve()
	}
	if rerr != nil {
		switch {
		case req.notification():
			w.WriteHeader(http.StatusNoContent) // a notification gets no answer, error or not
		case req != nil && req.id != nil && req.streamed:
			h.writeRefusal(w, req, req.id, rerr)
		default:
			h.writeErrorFor(w, http.StatusOK, req, req.idOrNull(), rerr)
		}
		return
	}
	ctx := h.context(r.Context(), info, req)
	if req.streamed {
		h.serveStream(ctx, w, r, req)
		return
	}
	result, rerr := h.unary(ctx, req)
	if req.id == nil {
		w.WriteHeader(http.StatusNoContent)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Write(req.appendAnswer(nil, req.id, result, rerr))
}

// notification reports whether r is a well-formed request without an id,
// which JSON-RPC 2.0 §4.1 says is never answered.
func (r *rpcRequest) notification() bool { return r != nil && r.method != "" && r.id == nil }

// idOrNull is the id to answer r with: null when it could not be read.
func (r *rpcRequest) idOrNull() json.RawMessage {
	if r == nil || r.id == nil {
		return nullID
	}
	return r.id
}

func (h *jsonrpcHandler[C, I]) context(ctx context.Context, info *a2acall.CallInfo[C], req *rpcRequest) context.Context {
	call := *info
	call.Method = req.handler.Desc
	return a2acall.WithCallInfo(ctx, &call)
}

// parse reads one request object and finds its method's handler, if the
// service has one; resolve says whether it does. On an error the returned
// request, when not nil, holds the id that was read.
//
// named is the earlier version the request names in A2A-Version, when the
// server serves it: its methods come first, since one given by its proto
// alone (1.0 beside 1.1) names its methods as this version does.
func (h *jsonrpcHandler[C, I]) parse(data []byte, named *a2arpc.CompatVersion) (*rpcRequest, *a2arpc.RPCError) {
	if env, ok := jsonrpc.Scan(data); ok && string(env.Version) == `"2.0"` &&
		(!env.HasID || (kind(env.ID) != 'o' && kind(env.ID) != 'a' && kind(env.ID) != 'b')) && (env.Params == nil || kind(env.Params) == 'o') {
		req := &rpcRequest{params: env.Params, method: string(env.Method)}
		if env.HasID {
			req.id = env.ID
		}
		if h.lookup(req, named) {
			return req, nil
		}
	}
	return h.parseSlowly(data, named)
}

// lookup sets the handler of req's method and reports whether the service
// serves it: named's method of that name, else this version's, else an
// earlier version's of that name (0.3's "message/send").
func (h *jsonrpcHandler[C, I]) lookup(req *rpcRequest, named *a2arpc.CompatVersion) bool {
	req.handler, req.compat, req.compatVersion = nil, nil, nil
	if m := named.Method(req.method); m != nil {
		req.handler, req.compat, req.compatVersion = h.svc.Method(m.Serves), m, named
	} else {
		req.handler = h.svc.Method(req.method)
	}
	if req.handler == nil {
		if v, m := h.cfg.compatMethod(req.method); m != nil {
			req.handler, req.compat, req.compatVersion = h.svc.Method(m.Serves), m, v
		}
	}
	if req.handler == nil || (req.handler.Unary == nil && req.handler.Stream == nil) {
		req.handler = nil
		return false
	}
	req.streamed = req.handler.Stream != nil
	req.foreign = req.compatVersion != nil && !h.cfg.ownBindings(req.compatVersion)
	return true
}

// resolve refuses a request whose method the service does not serve.
func (r *rpcRequest) resolve() *a2arpc.RPCError {
	if r.handler == nil {
		return a2arpc.NewError(a2arpc.ErrMethodNotFound, "method not found: "+strconv.Quote(r.method))
	}
	return nil
}

// parseSlowly reads a request that jsonrpc.Scan did not take, with
// encoding/json, to tell a parse error from an invalid request.
func (h *jsonrpcHandler[C, I]) parseSlowly(data []byte, named *a2arpc.CompatVersion) (*rpcRequest, *a2arpc.RPCError) {
	var members map[string]json.RawMessage
	if err := json.Unmarshal(data, &members); err != nil {
		if !json.Valid(data) {
			return nil, a2arpc.NewError(a2arpc.ErrParse, "parse error: "+err.Error())
		}
		return nil, a2arpc.NewError(a2arpc.ErrInvalidRequest, "a JSON-RPC request is an object")
	}
	req := &rpcRequest{}
	if id, ok := members["id"]; ok {
		switch kind(id) {
		case 's', 'n', '0':
			req.id = id
		default:
			return nil, a2arpc.NewError(a2arpc.ErrInvalidRequest, "id must be a string, a number or null")
		}
	}
	if v, ok := members["jsonrpc"]; !ok || string(v) != `"2.0"` {
		return req, a2arpc.NewError(a2arpc.ErrInvalidRequest, `jsonrpc must be "2.0"`)
	}
	m, ok := members["method"]
	if !ok || kind(m) != 's' {
		return req, a2arpc.NewError(a2arpc.ErrInvalidRequest, "method must be a string")
	}
	if err := json.Unmarshal(m, &req.method); err != nil {
		return req, a2arpc.NewError(a2arpc.ErrInvalidRequest, "method must be a string")
	}
	h.lookup(req, named)
	req.params = members["params"]
	switch kind(req.params) {
	case 0, 'o':
	case 'a':
		return req, a2arpc.NewError(a2arpc.ErrInvalidParams, "params must be an object (by-name); A2A has no positional params")
	default:
		return req, a2arpc.NewError(a2arpc.ErrInvalidRequest, "params must be an object")
	}
	return req, nil
}

// kind classifies a raw JSON value by its first byte: 'o'bject, 'a'rray,
// 's'tring, 'n'umber, '0' for null, 'b'oolean, 0 when absent.
func kind(v json.RawMessage) byte {
	v = bytes.TrimLeft(v, " \t\r\n")
	if len(v) == 0 {
		return 0
	}
	switch c := v[0]; {
	case c == '{':
		return 'o'
	case c == '[':
		return 'a'
	case c == '"':
		return 's'
	case c == 'n':
		return '0'
	case c == 't' || c == 'f':
		return 'b'
	default:
		return 'n'
	}
}

// decode builds the request message from params.
func (h *jsonrpcHandler[C, I]) decode(req *rpcRequest) (a2arpc.ProtoValue, *a2arpc.RPCError) {
	msg := req.handler.Desc.NewRequest()
	params := req.params
	if params == nil {
		params = json.RawMessage("{}")
	}
	if req.compat != nil {
		converted, err := req.compat.Request(params)
		if err != nil {
			return nil, a2acall.InvalidParams(err)
		}
		return converted, nil
	}
	if rerr := decodeRequest(params, msg); rerr != nil {
		return nil, rerr
	}
	return msg, nil
}

func (h *jsonrpcHandler[C, I]) unary(ctx context.Context, req *rpcRequest) (a2arpc.ProtoValue, *a2arpc.RPCError) {
	msg, rerr := h.decode(req)
	if rerr != nil {
		return nil, rerr
	}
	return a2acall.InvokeUnary(ctx, h.cfg.spec.Call, h.cfg.logger, req.handler, msg)
}

// sseOnly reports whether r is an earlier major version's (0.3) streaming
// call, whose clients read its answer only as SSE (@a2a-js/sdk 0.3 fails on
// any other Content-Type without reading it): an error before the first
// event is then the stream's only event.
func (r *rpcRequest) sseOnly() bool {
	return r.earlier || (r.compat != nil && r.foreign)
}

// serveStream answers a streaming RPC with SSE of JSON-RPC responses. An
// error before the first message is a plain JSON-RPC response (writeRefusal),
// one after it an event of the stream.
func (h *jsonrpcHandler[C, I]) serveStream(ctx context.Context, w http.ResponseWriter, r *http.Request, req *rpcRequest) {
	release, ok := h.cfg.admitStream(w, func(rerr *a2arpc.RPCError) {
		h.writeErrorFor(w, http.StatusServiceUnavailable, req, req.idOrNull(), rerr)
	})
	if !ok {
		return
	}
	defer release()
	msg, rerr := h.decode(req)
	if rerr != nil {
		h.writeRefusal(w, req, req.id, rerr)
		return
	}
	if f := h.cfg.streamFormat(r); f != nil && req.id != nil {
		if rerr := serveFormat(ctx, h.cfg, f, w, r, req.handler, msg); rerr != nil {
			h.writeRefusal(w, req, req.id, rerr)
		}
		return
	}
	id := req.id
	if id == nil {
		id = nullID
	}
	ctx, stream, end := h.cfg.openStream(ctx, w)
	defer end()
	var buf []byte
	sent := false
	next := eventIDs[C](ctx)
	rerr = a2acall.InvokeStream(ctx, h.cfg.spec.Call, h.cfg.logger, req.handler, msg, func(m a2arpc.ProtoValue) error {
		if req.id == nil {
			return nil // a notification: nobody listens
		}
		buf = req.appendAnswer(buf[:0], id, m, nil)
		sent = true
		return stream.Event(ctx, "", next(), buf)
	})
	switch {
	case req.id == nil:
		w.WriteHeader(http.StatusNoContent) // a notification gets no answer, error or not
	case rerr != nil && !sent:
		end() // nothing was written: the writer has not started the stream
		h.writeRefusal(w, req, id, rerr)
	case rerr != nil:
		h.writeStreamError(w, stream, req, id, rerr)
	default:
		stream.Open() // a stream with no events is still a stream
	}
}

// writeRefusal answers a streaming call refused before its first event:
// with one JSON-RPC response, as a unary call is answered, or, for a 0.3
// client, as the only event of a stream.
func (h *jsonrpcHandler[C, I]) writeRefusal(w http.ResponseWriter, req *rpcRequest, id json.RawMessage, rerr *a2arpc.RPCError) {
	switch {
	case id == nil:
		w.WriteHeader(http.StatusNoContent)
	case req.sseOnly() || h.cfg.refusalsAsEvents:
		h.writeStreamError(w, nil, req, id, rerr)
	default:
		h.writeErrorFor(w, http.StatusOK, req, id, rerr)
	}
}

// writeStreamError reports a streaming call's failure: as an SSE event when
// the stream has started, else as the stream's only event.
func (h *jsonrpcHandler[C, I]) writeStreamError(w http.ResponseWriter, stream *sse.Queue, req *rpcRequest, id json.RawMessage, rerr *a2arpc.RPCError) {
	if id == nil {
		w.WriteHeader(http.StatusNoContent)
		return
	}
	if stream == nil {
		stream = newEventStream(w, sse.QueueConfig{})
		defer stream.Close()
	}
	_ = stream.Event(context.Background(), "", "", req.appendAnswer(nil, id, nil, rerr))
}

// maxBatch bounds the requests of one batch, which run one after another
// and whose answers are held until the last: A2A does not define batches,
// and its SDKs do not send them.
const maxBatch = 64

func (h *jsonrpcHandler[C, I]) serveBatch(w http.ResponseWriter, r *http.Request, info *a2acall.CallInfo[C], body []byte) {
	var items []json.RawMessage
	if err := json.Unmarshal(body, &items); err != nil {
		h.writeError(w, http.StatusOK, nullID, a2arpc.NewError(a2arpc.ErrParse, "parse error: "+err.Error()))
		return
	}
	if len(items) == 0 {
		h.writeError(w, http.StatusOK, nullID, a2arpc.NewError(a2arpc.ErrInvalidRequest, "an empty batch is not a request"))
		return
	}
	if len(items) > maxBatch {
		h.writeError(w, http.StatusOK, nullID, a2arpc.NewError(a2arpc.ErrInvalidRequest, fmt.Sprintf("a batch holds at most %d requests; this one has %d", maxBatch, len(items))))
		return
	}
	out := []byte{'['}
	answered := 0
	for _, item := range items {
		req, rerr := h.parse(item, nil) // a batch is this version's: it was negotiated so
		if rerr == nil {
			rerr = req.resolve() // the batch's version is negotiated already
		}
		var result a2arpc.ProtoValue
		switch {
		case rerr != nil:
		case req.streamed:
			rerr = a2arpc.NewError(a2arpc.ErrInvalidRequest, req.method+" streams its answer, which a batch cannot carry")
		default:
			result, rerr = h.unary(h.context(r.Context(), info, req), req)
		}
		if req.notification() {
			continue
		}
		if answered > 0 {
			out = append(out, ',')
		}
		out = req.appendAnswer(out, req.idOrNull(), result, rerr)
		answered++
	}
	if answered == 0 {
		w.WriteHeader(http.StatusNoContent)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Write(append(out, ']'))
}

// writeEarlyError answers a call refused before its body is read: as a
// plain response, with status 200, since a JSON-RPC client reads errors
// from the body of a 200 (a2a-go's reads no other); to a 0.3 client that
// streams, as the only event of an SSE stream.
func (h *jsonrpcHandler[C, I]) writeEarlyError(w http.ResponseWriter, r *http.Request, rerr *a2arpc.RPCError) {
	// A client that names no version, or an earlier major the server
	// serves, may read only that version's error object, without 1.0's
	// details.
	req := &rpcRequest{earlier: h.cfg.mayBeEarlier(r)}
	if (req.earlier || h.cfg.refusalsAsEvents) && acceptsSSE(r.Header.Values("Accept")) {
		h.writeStreamError(w, nil, req, nullID, rerr)
		return
	}
	h.writeErrorFor(w, http.StatusOK, req, nullID, rerr)
}

// acceptsSSE reports whether an Accept header names text/event-stream.
func acceptsSSE(accept []string) bool {
	for _, v := range accept {
		for _, item := range strings.Split(v, ",") {
			if mt, params, err := mime.ParseMediaType(strings.TrimSpace(item)); err == nil && mt == "text/event-stream" && !refused(params["q"]) {
				return true
			}
		}
	}
	return false
}

func (h *jsonrpcHandler[C, I]) writeError(w http.ResponseWriter, status int, id json.RawMessage, rerr *a2arpc.RPCError) {
	h.writeErrorFor(w, status, nil, id, rerr)
}

// writeErrorFor answers req with an error, in the JSON of its version.
func (h *jsonrpcHandler[C, I]) writeErrorFor(w http.ResponseWriter, status int, req *rpcRequest, id json.RawMessage, rerr *a2arpc.RPCError) {
	if status >= 500 || rerr.Code == a2arpc.ErrInternal.Code {
		h.cfg.logger.Warn("a2a: JSON-RPC request failed", "code", rerr.Code, "err", rerr.Message)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(req.appendAnswer(nil, id, nil, rerr))
}

// appendResponse appends a JSON-RPC response object: result, or error when
// rerr is set.
func appendResponse(b []byte, id json.RawMessage, result a2arpc.ProtoValue, rerr *a2arpc.RPCError) []byte {
	b = append(b, `{"jsonrpc":"2.0","id":`...)
	b = append(b, id...)
	if rerr != nil {
		b = append(b, `,"error":`...)
		b = appendRPCError(b, rerr)
		return append(b, '}')
	}
	b = append(b, `,"result":`...)
	b = result.AppendJSON(b)
	return append(b, '}')
}

// appendRPCError appends a JSON-RPC error object; data holds the
// google.rpc.ErrorInfo of the error and, for invalid params, a
// google.rpc.BadRequest naming the fields.
func appendRPCError(b []byte, e *a2arpc.RPCError) []byte {
	b = append(b, `{"code":`...)
	b = strconv.AppendInt(b, int64(e.Code), 10)
	b = append(b, `,"message":`...)
	b = appendJSONString(b, e.Error())
	b = append(b, `,"data":`...)
	b = appendErrorDetails(b, e)
	return append(b, '}')
}

// appendErrorDetails appends the details of an error as ProtoJSON Any
// values: its ErrorInfo, then a BadRequest when it names fields.
func appendErrorDetails(b []byte, e *a2arpc.RPCError) []byte {
	b = append(b, `[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":`...)
	b = appendJSONString(b, e.Reason)
	b = append(b, `,"domain":"`+a2arpc.ErrorDomain+`"`...)
	if len(e.Metadata) > 0 {
		meta, _ := json.Marshal(e.Metadata) // sorted keys
		b = append(b, `,"metadata":`...)
		b = append(b, meta...)
	}
	b = append(b, '}')
	if len(e.Violations) > 0 {
		b = append(b, `,{"@type":"type.googleapis.com/google.rpc.BadRequest","fieldViolations":[`...)
		for i, v := range e.Violations {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"field":`...)
			b = appendJSONString(b, v.Field)
			b = append(b, `,"description":`...)
			b = appendJSONString(b, v.Description)
			b = append(b, '}')
		}
		b = append(b, ']', '}')
	}
	return append(b, ']')
}

func appendJSONString(b []byte, s string) []byte {
	q, _ := json.Marshal(s)
	return append(b, q...)
}

// isJSONMediaType accepts application/json, application/a2a+json and any
// other +json type.
func isJSONMediaType(ct string) bool {
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil {
		return false
	}
	return mt == "application/json" || (strings.HasPrefix(mt, "application/") && strings.HasSuffix(mt, "+json"))
}
