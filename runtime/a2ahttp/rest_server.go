package a2ahttp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/agui-gen/agui-gen/runtime/a2acall"
	"github.com/agui-gen/agui-gen/runtime/a2arpc"
	"github.com/agui-gen/agui-gen/runtime/httprule"
)

// A2AContentType is the media type of A2A's HTTP+JSON bodies (A2A §11.2).
const A2AContentType = "application/a2a+json"

// NewRESTHandler serves svc over HTTP+JSON (A2A §11), routing by the
// google.api.http rules of its methods, additional bindings (/{tenant}/…)
// included. Path variables and, for rules without a body, query parameters
// set request fields by their ProtoJSON names; bodies are ProtoJSON
// (application/a2a+json or application/json). Streaming RPCs answer with
// Server-Sent Events of bare response messages, and a streaming RPC bound
// to GET is served on POST as well, since the spec's prose uses POST for it
// (A2A §11.3.2, a2aproject/A2A#1574). Errors are google.rpc.Status bodies
// with an ErrorInfo detail; a known path with another verb gets 405 with
// Allow, an unknown path a JSON 404.
//
// The earlier versions the server serves (WithEarlierVersions) whose proto
// it was generated with are served too: a request that names such a
// version in A2A-Version, or none, on one of that version's paths
// (/v1/message:send) is converted to this version's RPC and answered in the
// earlier version's ProtoJSON, its errors as that version's clients read
// them. Pages of other origins may call it once WithCORS names theirs.
func NewRESTHandler[C Card, I comparable](spec *Spec[C, I], svc *a2arpc.Service, opts ...ServerOption[C, I]) (http.Handler, error) {
	h := &restHandler[C, I]{cfg: newServerConfig(spec, opts)}
	var err error
	if h.routes, err = restRoutes(svc, nil); err != nil {
		return nil, err
	}
	for _, v := range h.cfg.compat {
		if v.Proto == nil {
			continue
		}
		routes, err := restRoutes(a2acall.CompatService(v, svc), v)
		if err != nil {
			return nil, err
		}
		for _, rt := range routes {
			// The AG-UI format is written from this version's stream.
			i := slices.IndexFunc(v.Proto.Methods, func(m a2arpc.MethodDesc) bool { return m.Name == rt.handler.Desc.Name })
			rt.rpc, rt.serves = &v.RPCs[i], svc.Method(v.RPCs[i].Serves)
			rt.foreign = !h.cfg.ownBindings(v)
		}
		h.earlier = append(h.earlier, routes...)
	}
	var methods []string
	for _, rt := range slices.Concat(h.routes, h.earlier) {
		for _, m := range rt.verbs {
			if !slices.Contains(methods, m) {
				methods = append(methods, m)
			}
		}
	}
	return h.cfg.cors.Handler(h, h.cfg.logger, "a2a", methods, corsHeaders, corsExposed), nil
}

// restRoutes lists the routes of svc's HTTP bindings, for the earlier
// version v when v is not nil.
func restRoutes(svc *a2arpc.Service, v *a2arpc.CompatVersion) ([]*route, error) {
	var routes []*route
	for i := range svc.Handlers {
		mh := &svc.Handlers[i]
		if mh.Unary == nil && mh.Stream == nil {
			continue
		}
		for _, rule := range mh.Desc.HTTP {
			t, err := httprule.Parse(rule.Path)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", mh.Desc.Name, err)
			}
			verbs := []string{rule.Method}
			if mh.Stream != nil && rule.Method == http.MethodGet {
				verbs = append(verbs, http.MethodPost)
			}
			routes = append(routes, &route{tmpl: t, rule: rule, verbs: verbs, handler: mh, earlier: v})
		}
	}
	return routes, nil
}

type restHandler[C Card, I comparable] struct {
	cfg     *serverConfig[C, I]
	routes  []*route
	earlier []*route // of the earlier versions served
}

type route struct {
	tmpl    *httprule.Template
	rule    a2arpc.HTTPRule
	verbs   []string
	handler *a2arpc.MethodHandler
	// earlier is the earlier version the route serves, or nil for this one;
	// rpc says how, and serves is the handler of this version that does.
	earlier *a2arpc.CompatVersion
	foreign bool // earlier is of an earlier major, whose bindings are its own
	rpc     *a2arpc.CompatRPC
	serves  *a2arpc.MethodHandler
}

// match finds the most specific of routes for the request's path and
// method, or the methods allowed on the path when none takes this one.
//
// accept, when not nil, keeps only the routes it accepts: an earlier
// version's, for a request of that version.
func match(routes []*route, r *http.Request, path []string, accept func(*route) bool) (best *route, vars map[string]string, allow []string) {
	for _, rt := range routes {
		if accept != nil && !accept(rt) {
			continue
		}
		v, ok := rt.tmpl.Match(path)
		if !ok {
			continue
		}
		if !slices.Contains(rt.verbs, r.Method) {
			allow = append(allow, rt.verbs...)
			continue
		}
		if best == nil || slices.Compare(rt.tmpl.Specificity(), best.tmpl.Specificity()) > 0 {
			best, vars = rt, v
		}
	}
	return best, vars, allow
}

func (h *restHandler[C, I]) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	path := httprule.SplitPath(r.URL.EscapedPath())
	// An earlier version's client names its version, or none (0.3 clients
	// send no A2A-Version); its paths are its own (/v1/…).
	if len(h.earlier) > 0 {
		clientOf := h.cfg.clientOf(r)
		if rt, vars, _ := match(h.earlier, r, path, func(rt *route) bool { return clientOf(rt.earlier) }); rt != nil {
			h.serve(w, r, rt, vars, rt.earlier.Version)
			return
		}
	}
	// The version is negotiated before the path is routed: a request without
	// A2A-Version is a 0.3 client's (A2A §3.6.2), whose paths (/v1/card) this
	// service may not have, and it is told that its version is not served
	// rather than that nothing is there.
	version, rerr := h.cfg.negotiate(r)
	best, bestVars, allow := match(h.routes, r, path, nil)
	if rerr != nil {
		if best != nil && h.cfg.missingVersion(r) {
			// One of this version's paths, without its header.
			rerr = a2arpc.MissingVersion(best.handler.Desc.Name+" ("+r.Method+" "+r.URL.Path+")", h.cfg.versions)
		}
		writeError(w, rerr)
		return
	}
	if best == nil {
		if len(allow) > 0 {
			slices.Sort(allow)
			allow = slices.Compact(allow)
			w.Header().Set("Allow", strings.Join(allow, ", "))
			writeStatus(w, http.StatusMethodNotAllowed, "UNIMPLEMENTED", a2arpc.NewError(a2arpc.ErrMethodNotFound, r.Method+" is not allowed on "+r.URL.Path))
			return
		}
		writeStatus(w, http.StatusNotFound, "NOT_FOUND", a2arpc.NewError(a2arpc.ErrMethodNotFound, "no A2A method at "+r.Method+" "+r.URL.Path))
		return
	}
	h.serve(w, r, best, bestVars, version)
}

func (h *restHandler[C, I]) serve(w http.ResponseWriter, r *http.Request, rt *route, vars map[string]string, version string) {
	fail := func(status int, rerr *a2arpc.RPCError) {
		if status == 0 {
			status = restStatus(rerr)
		}
		if rt.foreign {
			writeEarlierError(w, status, rerr)
			return
		}
		writeStatus(w, status, statusName(rerr), rerr)
	}
	info, rerr := h.cfg.callInfo(r, a2arpc.BindingHTTPJSON)
	if rerr != nil {
		fail(0, rerr)
		return
	}
	info.Version, info.Method = version, rt.handler.Desc
	if rt.handler.Stream != nil {
		release, ok := h.cfg.admitStream(w, func(rerr *a2arpc.RPCError) { fail(http.StatusServiceUnavailable, rerr) })
		if !ok {
			return // before the body is read
		}
		defer release()
	}
	req, rerr, status := h.request(w, r, rt, vars)
	if rerr != nil {
		fail(status, rerr)
		return
	}
	ctx := a2acall.WithCallInfo(r.Context(), info)
	if rt.handler.Stream != nil {
		if f := h.cfg.streamFormat(r); f != nil {
			handler := rt.handler
			if rt.earlier != nil {
				// An earlier version's stream in the AG-UI format is this
				// version's stream in it: the format reads this version,
				// and the call validates the converted request.
				up, err := rt.rpc.Up(req)
				if err != nil {
					fail(0, a2acall.InvalidParams(err))
					return
				}
				req, handler = up, rt.serves
			}
			if rerr := serveFormat(ctx, h.cfg, f, w, r, handler, req); rerr != nil {
				fail(0, rerr)
			}
			return
		}
		h.serveStream(ctx, w, rt, req)
		return
	}
	resp, rerr := a2acall.InvokeUnary(ctx, h.cfg.spec.Call, h.cfg.logger, rt.handler, req)
	if rerr != nil {
		fail(0, rerr)
		return
	}
	body := resp.AppendJSON(nil)
	if rt.rule.ResponseBody != "" {
		body = member(body, rt.rule.ResponseBody)
	}
	if rt.earlier != nil {
		w.Header().Set("Content-Type", "application/json") // 0.3 has no media type of its own
	} else {
		w.Header().Set("Content-Type", A2AContentType)
	}
	w.Write(body)
}

// request builds the request message from the body, the path variables
// and the query parameters, and validates it. A failure comes with the
// HTTP status to answer with, or 0 for the error's own.
func (h *restHandler[C, I]) request(w http.ResponseWriter, r *http.Request, rt *route, vars map[string]string) (a2arpc.ProtoValue, *a2arpc.RPCError, int) {
	req := rt.handler.Desc.NewRequest()
	if rt.rule.Body != "" && r.Method != http.MethodGet {
		body, rerr, status := h.cfg.readBody(w, r)
		if rerr != nil {
			return nil, rerr, status
		}
		// A body of null is no body: a2a-go's client sends one with CancelTask.
		if trimmed := bytes.TrimSpace(body); len(trimmed) > 0 && !bytes.Equal(trimmed, []byte("null")) {
			if ct := r.Header.Get("Content-Type"); ct != "" && !isJSONMediaType(ct) {
				// ContentTypeNotSupported is about message parts' media types;
				// a body that is not JSON is an invalid request, as JSON-RPC has it.
				return nil, a2arpc.NewError(a2arpc.ErrInvalidRequest, "Content-Type "+ct+" is not JSON; send "+A2AContentType), http.StatusUnsupportedMediaType
			}
			if rt.rule.Body != "*" {
				body = append(append([]byte(`{"`+rt.rule.Body+`":`), body...), '}')
			}
			if err := req.UnmarshalJSON(body); err != nil {
				return nil, a2acall.InvalidParams(err), http.StatusBadRequest
			}
		}
	} else if setter, ok := req.(a2arpc.FieldSetter); ok {
		for name, values := range r.URL.Query() {
			if name == a2arpc.VersionHeader {
				continue
			}
			if alias, ok := queryAliases[name]; ok {
				name = alias
			}
			for _, v := range values {
				if err := setter.SetField(name, v); err != nil {
					if errors.Is(err, a2arpc.ErrUnknownField) {
						break // unknown fields are ignored (A2A §5.7)
					}
					return nil, a2acall.InvalidParams(err), http.StatusBadRequest
				}
			}
		}
	}
	if len(vars) > 0 {
		setter, ok := req.(a2arpc.FieldSetter)
		if !ok {
			return nil, a2arpc.NewError(a2arpc.ErrInternal, rt.handler.Desc.Name+": request has no SetField"), 0
		}
		for _, field := range rt.tmpl.Fields() {
			if err := setter.SetField(field, vars[field]); err != nil {
				return nil, a2acall.InvalidParams(err), http.StatusBadRequest
			}
		}
	}
	return req, nil, 0
}

// queryAliases are query parameter names that clients in use send for a
// field of another name: a2a-go v2's REST client sends ListTasks'
// statusTimestampAfter as lastUpdatedAfter.
var queryAliases = map[string]string{"lastUpdatedAfter": "statusTimestampAfter"}

// serveStream answers with SSE of bare response messages. An error before
// the first message is an ordinary error response; after it, an "error"
// event holding the google.rpc.Status.
func (h *restHandler[C, I]) serveStream(ctx context.Context, w http.ResponseWriter, rt *route, req a2arpc.ProtoValue) {
	ctx, stream, end := h.cfg.openStream(ctx, w)
	defer end()
	var buf []byte
	sent := false
	next := eventIDs[C](ctx)
	rerr := a2acall.InvokeStream(ctx, h.cfg.spec.Call, h.cfg.logger, rt.handler, req, func(m a2arpc.ProtoValue) error {
		buf = m.AppendJSON(buf[:0])
		sent = true
		return stream.Event(ctx, "", next(), buf)
	})
	if rerr == nil {
		stream.Open() // a stream with no events is still a stream
		return
	}
	if !sent {
		stream.Close()
		if rt.foreign {
			writeEarlierError(w, restStatus(rerr), rerr)
			return
		}
		writeError(w, rerr)
		return
	}
	if rt.foreign {
		_ = stream.Event(ctx, "error", "", appendEarlierError(nil, rerr))
		return
	}
	_ = stream.Event(ctx, "error", "", appendStatus(nil, restStatus(rerr), statusName(rerr), rerr))
}

// writeEarlierError writes rerr as 0.3's HTTP+JSON clients read an error:
// the JSON-RPC error object, {"code":-32001,"message":…}, with an HTTP
// status (A2A 0.3 gave REST no error shape of its own; @a2a-js/sdk's 0.3
// client and server use this one).
func writeEarlierError(w http.ResponseWriter, status int, rerr *a2arpc.RPCError) {
	w.Header().Set("Content-Type", "application/json")
	setRetryAfter(w, status, rerr)
	if status == http.StatusUnauthorized {
		w.Header().Set("WWW-Authenticate", `Bearer realm="a2a"`)
	}
	w.WriteHeader(status)
	w.Write(appendEarlierError(nil, rerr))
}

func appendEarlierError(b []byte, rerr *a2arpc.RPCError) []byte {
	b = append(b, `{"code":`...)
	b = strconv.AppendInt(b, int64(rerr.Code), 10)
	b = append(b, `,"message":`...)
	b = appendJSONString(b, rerr.Error())
	return append(b, '}')
}

// writeError writes rerr as a google.rpc.Status body with its HTTP status.
func writeError(w http.ResponseWriter, rerr *a2arpc.RPCError) {
	writeStatus(w, restStatus(rerr), statusName(rerr), rerr)
}

// Unavailable, as the cause of an error (RPCError.Err), says that the call
// may succeed later; HTTP+JSON answers it with 503 and Retry-After. It is
// a2acall.Unavailable.
type Unavailable = a2acall.Unavailable

// unavailable returns the Unavailable behind rerr, or nil.
func unavailable(rerr *a2arpc.RPCError) *Unavailable {
	var u *Unavailable
	if errors.As(rerr, &u) {
		return u
	}
	return nil
}

// restStatus is the HTTP status of rerr in HTTP+JSON: 503 for an error
// that passes (Unavailable), else the error table's.
func restStatus(rerr *a2arpc.RPCError) int {
	if unavailable(rerr) != nil {
		return http.StatusServiceUnavailable
	}
	return rerr.HTTPStatus()
}

// statusName is the google.rpc.Code name of rerr in HTTP+JSON.
func statusName(rerr *a2arpc.RPCError) string {
	if unavailable(rerr) != nil {
		return "UNAVAILABLE"
	}
	return rerr.Status()
}

// setRetryAfter says, on a 503 of an error that passes, when to try again.
func setRetryAfter(w http.ResponseWriter, httpStatus int, rerr *a2arpc.RPCError) {
	if u := unavailable(rerr); u != nil && httpStatus == http.StatusServiceUnavailable {
		secs := int64((u.RetryAfter + time.Second - 1) / time.Second)
		w.Header().Set("Retry-After", strconv.FormatInt(max(secs, 1), 10))
	}
}

func writeStatus(w http.ResponseWriter, httpStatus int, status string, rerr *a2arpc.RPCError) {
	// application/json, not application/a2a+json: google.rpc.Status is not
	// an A2A message, and clients (a2a-go) read error bodies only as JSON.
	w.Header().Set("Content-Type", "application/json")
	setRetryAfter(w, httpStatus, rerr)
	if httpStatus == http.StatusUnauthorized {
		w.Header().Set("WWW-Authenticate", `Bearer realm="a2a"`) // RFC 9110 §15.5.2 asks for a challenge
	}
	w.WriteHeader(httpStatus)
	w.Write(appendStatus(nil, httpStatus, status, rerr))
}

// appendStatus appends {"error":{code,status,message,details}}, the JSON
// form of google.rpc.Status that A2A §11.6 uses.
func appendStatus(b []byte, httpStatus int, status string, rerr *a2arpc.RPCError) []byte {
	b = append(b, `{"error":{"code":`...)
	b = strconv.AppendInt(b, int64(httpStatus), 10)
	b = append(b, `,"status":`...)
	b = appendJSONString(b, status)
	b = append(b, `,"message":`...)
	b = appendJSONString(b, rerr.Error())
	b = append(b, `,"details":`...)
	b = appendErrorDetails(b, rerr)
	return append(b, '}', '}')
}

// member returns the JSON of one member of a JSON object, or null.
func member(obj []byte, name string) []byte {
	var m map[string]json.RawMessage
	if json.Unmarshal(obj, &m) != nil || m[name] == nil {
		return []byte("null")
	}
	return m[name]
}
