package a2ahttp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"mime"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"

	"github.com/agui-gen/agui-gen/runtime/a2acall"
	"github.com/agui-gen/agui-gen/runtime/a2arpc"
	"github.com/agui-gen/agui-gen/runtime/httprule"
	"github.com/agui-gen/agui-gen/runtime/sse"
)

// NewRESTTransport calls over HTTP+JSON, at the paths of the methods'
// google.api.http rules below baseURL (an AgentInterface's url). It picks
// the rule whose path variables the request fills best, so a request with
// a tenant goes to /{tenant}/…; fields not in the path travel in the body,
// or as query parameters for rules without one.
func NewRESTTransport[C Card, I comparable](spec *Spec[C, I], baseURL string, opts ...ClientOption[C, I]) a2arpc.Transport {
	t := &restTransport[C, I]{base: strings.TrimSuffix(baseURL, "/"), cfg: newClientConfig(spec, opts), tmpl: map[string]*httprule.Template{}, contentType: A2AContentType}
	if slices.ContainsFunc(spec.CompatVersions(), func(v *a2arpc.CompatVersion) bool { return v.Version == t.cfg.version }) {
		t.contentType = "application/json" // an earlier version had no media type of its own, and its servers read only this one
	}
	return a2acall.ObserveTransport(spec.Call, t, a2arpc.BindingHTTPJSON, t.cfg.telemetry)
}

type restTransport[C Card, I comparable] struct {
	base        string
	cfg         *clientConfig[C, I]
	contentType string // of request bodies, in the version the transport speaks
	mu          sync.Mutex
	tmpl        map[string]*httprule.Template
}

func (t *restTransport[C, I]) template(path string) (*httprule.Template, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if p, ok := t.tmpl[path]; ok {
		return p, nil
	}
	p, err := httprule.Parse(path)
	if err != nil {
		return nil, err
	}
	t.tmpl[path] = p
	return p, nil
}

// build turns a request into an HTTP method, URL and body.
func (t *restTransport[C, I]) build(method *a2arpc.MethodDesc, req a2arpc.ProtoValue) (verb, target string, body []byte, err error) {
	doc := req.AppendJSON(nil)
	var members map[string]json.RawMessage
	if err := json.Unmarshal(doc, &members); err != nil {
		return "", "", nil, err
	}
	text := func(field string) (string, bool) {
		raw, ok := members[jsonName(field)]
		if !ok {
			return "", false
		}
		var s string
		if json.Unmarshal(raw, &s) == nil {
			return s, true
		}
		return string(raw), kind(raw) == 'n' || kind(raw) == 'b'
	}
	var rule *a2arpc.HTTPRule
	var tmpl *httprule.Template
	bound := -1
	for i := range method.HTTP {
		p, err := t.template(method.HTTP[i].Path)
		if err != nil {
			return "", "", nil, err
		}
		if _, ok := p.Expand(text); ok && len(p.Fields()) > bound {
			rule, tmpl, bound = &method.HTTP[i], p, len(p.Fields())
		}
	}
	if rule == nil {
		return "", "", nil, a2arpc.NewError(a2arpc.ErrInvalidParams, method.Name+": the request lacks the fields its HTTP path needs")
	}
	path, _ := tmpl.Expand(text)
	for _, field := range tmpl.Fields() {
		delete(members, jsonName(field))
	}
	target = t.base + path
	switch rule.Body {
	case "*":
		if body, err = json.Marshal(members); err != nil {
			return "", "", nil, err
		}
	case "":
		q := url.Values{}
		for name, raw := range members {
			values, ok := queryValues(raw)
			if !ok {
				return "", "", nil, a2arpc.NewError(a2arpc.ErrInvalidParams, method.Name+": field "+name+" cannot travel as a query parameter")
			}
			q[name] = values
		}
		if len(q) > 0 {
			target += "?" + q.Encode()
		}
	default:
		if body = members[jsonName(rule.Body)]; body == nil {
			body = []byte("{}")
		}
	}
	return rule.Method, target, body, nil
}

// queryValues is the text of a scalar, or of each element of an array of
// scalars, as a query parameter carries it.
func queryValues(raw json.RawMessage) ([]string, bool) {
	switch kind(raw) {
	case 's':
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return nil, false
		}
		return []string{s}, true
	case 'n', 'b':
		return []string{string(raw)}, true
	case 'a':
		var items []json.RawMessage
		if json.Unmarshal(raw, &items) != nil {
			return nil, false
		}
		var out []string
		for _, it := range items {
			v, ok := queryValues(it)
			if !ok || len(v) != 1 {
				return nil, false
			}
			out = append(out, v[0])
		}
		return out, true
	}
	return nil, false
}

// jsonName is the ProtoJSON name of a proto field name: "task_id" is
// "taskId".
func jsonName(field string) string {
	var b strings.Builder
	upper := false
	for _, r := range field {
		if r == '_' {
			upper = true
			continue
		}
		if upper && r >= 'a' && r <= 'z' {
			r -= 'a' - 'A'
		}
		upper = false
		b.WriteRune(r)
	}
	return b.String()
}

// do sends a request; a streaming RPC bound to GET is retried with POST on
// 405, as servers that follow the spec's prose serve only that
// (a2aproject/A2A#1574).
func (t *restTransport[C, I]) do(ctx context.Context, method *a2arpc.MethodDesc, req a2arpc.ProtoValue, accept string) (*http.Response, error) {
	verb, target, body, err := t.build(method, req)
	if err != nil {
		return nil, err
	}
	send := func(verb string) (*http.Response, error) {
		hr, err := t.cfg.newRequest(ctx, verb, target, body, t.contentType, accept)
		if err != nil {
			return nil, err
		}
		res, err := t.cfg.http.Do(hr)
		if err != nil {
			return nil, fmt.Errorf("a2a: %s: %w", method.Name, err)
		}
		return res, nil
	}
	res, err := send(verb)
	if err == nil && res.StatusCode == http.StatusMethodNotAllowed && method.ServerStreaming && verb == http.MethodGet {
		res.Body.Close()
		return send(http.MethodPost)
	}
	return res, err
}

func (t *restTransport[C, I]) Call(ctx context.Context, method *a2arpc.MethodDesc, req, resp a2arpc.ProtoValue) error {
	res, err := t.do(ctx, method, req, A2AContentType+", application/json")
	if err != nil {
		return err
	}
	defer res.Body.Close()
	data, err := t.cfg.readAll(res)
	if err != nil {
		return err
	}
	if res.StatusCode/100 != 2 {
		return statusError(res, data)
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil
	}
	if err := resp.UnmarshalJSON(data); err != nil {
		return a2arpc.NewError(a2arpc.ErrInvalidAgentResponse, method.Name+": "+err.Error())
	}
	return nil
}

func (t *restTransport[C, I]) Stream(ctx context.Context, method *a2arpc.MethodDesc, req a2arpc.ProtoValue) iter.Seq2[a2arpc.ProtoValue, error] {
	return t.stream(ctx, method, req, nil)
}

func (t *restTransport[C, I]) StreamReusing(ctx context.Context, method *a2arpc.MethodDesc, req a2arpc.ProtoValue, resp a2arpc.ReusableValue) iter.Seq2[a2arpc.ProtoValue, error] {
	return t.stream(ctx, method, req, resp)
}

// stream is Stream, decoding every event into reuse when it is not nil.
func (t *restTransport[C, I]) stream(ctx context.Context, method *a2arpc.MethodDesc, req a2arpc.ProtoValue, reuse a2arpc.ReusableValue) iter.Seq2[a2arpc.ProtoValue, error] {
	return func(yield func(a2arpc.ProtoValue, error) bool) {
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		res, err := t.do(ctx, method, req, "text/event-stream")
		if err != nil {
			yield(nil, err)
			return
		}
		defer res.Body.Close()
		if mt, _, _ := mime.ParseMediaType(res.Header.Get("Content-Type")); res.StatusCode/100 != 2 || mt != "text/event-stream" {
			data, err := t.cfg.readAll(res)
			if err == nil {
				err = statusError(res, data)
			}
			yield(nil, err)
			return
		}
		readEvents(ctx, method, res.Body, t.cfg.maxResponse, yield, func(ev sse.Event) (a2arpc.ProtoValue, error) {
			if ev.Name == "error" || bytes.HasPrefix(ev.Data, []byte(`{"error"`)) {
				return nil, statusError(res, ev.Data)
			}
			var msg a2arpc.ProtoValue
			var err error
			if reuse != nil {
				msg, err = reuse, reuse.UnmarshalJSONReusing(ev.Data)
			} else {
				msg = method.NewResponse()
				err = msg.UnmarshalJSON(ev.Data)
			}
			if err != nil {
				return nil, a2arpc.NewError(a2arpc.ErrInvalidAgentResponse, method.Name+": "+err.Error())
			}
			return msg, nil
		})
	}
}

// statusError reads a google.rpc.Status error body, or the JSON-RPC error
// object A2A 0.3's HTTP+JSON servers answer with ({"code":-32001,…}).
func statusError(res *http.Response, data []byte) error {
	var body struct {
		Error *struct {
			Code    int             `json:"code"`
			Status  string          `json:"status"`
			Message string          `json:"message"`
			Details json.RawMessage `json:"details"`
		} `json:"error"`
		Code    *int   `json:"code"`
		Message string `json:"message"`
	}
	if json.Unmarshal(data, &body) != nil {
		return httpError(res, data)
	}
	if body.Error == nil {
		if body.Code != nil && *body.Code < 0 {
			return a2arpc.ErrorFromCode(*body.Code, "", body.Message)
		}
		return httpError(res, data)
	}
	reason, meta, violations := errorDetails(body.Error.Details)
	code := grpcCodeForHTTP(res.StatusCode)
	if body.Error.Status != "" {
		code = a2arpc.GRPCCodeOf(body.Error.Status)
	}
	e := a2arpc.ErrorFromStatus(code, reason, body.Error.Message)
	e.Metadata, e.Violations = meta, violations
	return e
}
