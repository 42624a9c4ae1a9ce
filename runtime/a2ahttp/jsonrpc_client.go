package a2ahttp

import (
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"mime"
	"net/http"
	"strconv"
	"sync/atomic"

	"github.com/agui-gen/agui-gen/runtime/a2acall"
	"github.com/agui-gen/agui-gen/runtime/a2arpc"
	"github.com/agui-gen/agui-gen/runtime/jsonrpc"
	"github.com/agui-gen/agui-gen/runtime/sse"
	"github.com/agui-gen/agui-gen/runtime/wire"
)

// NewJSONRPCTransport calls over JSON-RPC 2.0, POSTing to url (an
// AgentInterface's url).
func NewJSONRPCTransport[C Card, I comparable](spec *Spec[C, I], url string, opts ...ClientOption[C, I]) a2arpc.Transport {
	cfg := newClientConfig(spec, opts)
	return a2acall.ObserveTransport(spec.Call, &jsonrpcTransport[C, I]{url: url, cfg: cfg}, a2arpc.BindingJSONRPC, cfg.telemetry)
}

// NewCompatJSONRPCTransport calls a server that speaks only the earlier
// protocol version v (one of a2a.CompatVersions: a 0.3 agent) over JSON-RPC
// at url: each call is converted to v's method and JSON, and the answer
// back. NewTransportFromCard picks it when a card offers nothing newer.
func NewCompatJSONRPCTransport[C Card, I comparable](spec *Spec[C, I], url string, v *a2arpc.CompatVersion, opts ...ClientOption[C, I]) a2arpc.Transport {
	cfg := newClientConfig(spec, opts)
	cfg.version = v.Version
	return a2acall.ObserveTransport(spec.Call, &jsonrpcTransport[C, I]{url: url, cfg: cfg, compat: v}, a2arpc.BindingJSONRPC, cfg.telemetry)
}

type jsonrpcTransport[C Card, I comparable] struct {
	url    string
	cfg    *clientConfig[C, I]
	nextID atomic.Int64
	compat *a2arpc.CompatVersion // the earlier version the server speaks, or nil
}

// compatMethod is the earlier version's method for method; an error when
// that version has none.
func (t *jsonrpcTransport[C, I]) compatMethod(method *a2arpc.MethodDesc) (*a2arpc.CompatMethod, error) {
	m := t.compat.ServedBy(method.Name)
	if m == nil {
		return nil, a2arpc.NewError(a2arpc.ErrUnsupportedOperation, "A2A "+t.compat.Version+" has no "+method.Name)
	}
	return m, nil
}

// decode reads a result into resp: as it is, or through the earlier
// version's method m.
func (t *jsonrpcTransport[C, I]) decode(method *a2arpc.MethodDesc, m *a2arpc.CompatMethod, result json.RawMessage, resp a2arpc.ProtoValue) error {
	if m == nil {
		return decodeResult(method, result, resp)
	}
	v, err := m.Response(result)
	if err != nil {
		return a2arpc.NewError(a2arpc.ErrInvalidAgentResponse, method.Name+" (A2A "+t.compat.Version+" "+m.Method+"): "+err.Error())
	}
	return resp.UnmarshalProto(v.AppendProto(nil))
}

func (t *jsonrpcTransport[C, I]) post(ctx context.Context, method *a2arpc.MethodDesc, req a2arpc.ProtoValue, accept string) (*http.Response, int64, error) {
	id := t.nextID.Add(1)
	body := []byte(`{"jsonrpc":"2.0","id":`)
	body = strconv.AppendInt(body, id, 10)
	body = append(body, `,"method":`...)
	if t.compat == nil {
		body = appendJSONString(body, method.Name)
		body = append(body, `,"params":`...)
		body = req.AppendJSON(body)
	} else {
		m, err := t.compatMethod(method)
		if err != nil {
			return nil, 0, err
		}
		body = appendJSONString(body, m.Method)
		if params := m.Params(req); params != nil { // a method without params has none
			body = append(body, `,"params":`...)
			body = append(body, params...)
		}
	}
	body = append(body, '}')
	hr, err := t.cfg.newRequest(ctx, http.MethodPost, t.url, body, "application/json", accept)
	if err != nil {
		return nil, 0, err
	}
	res, err := t.cfg.http.Do(hr)
	if err != nil {
		return nil, 0, fmt.Errorf("a2a: %s: %w", method.Name, err)
	}
	return res, id, nil
}

func (t *jsonrpcTransport[C, I]) Call(ctx context.Context, method *a2arpc.MethodDesc, req, resp a2arpc.ProtoValue) error {
	res, id, err := t.post(ctx, method, req, "application/json")
	if err != nil {
		return err
	}
	defer res.Body.Close()
	data, err := t.cfg.readAll(res)
	if err != nil {
		return err
	}
	result, err := readRPCResponse(res, data, id)
	if err != nil {
		return err
	}
	return t.decode(method, t.compat.ServedBy(method.Name), result, resp)
}

func (t *jsonrpcTransport[C, I]) Stream(ctx context.Context, method *a2arpc.MethodDesc, req a2arpc.ProtoValue) iter.Seq2[a2arpc.ProtoValue, error] {
	return t.stream(ctx, method, req, nil)
}

func (t *jsonrpcTransport[C, I]) StreamReusing(ctx context.Context, method *a2arpc.MethodDesc, req a2arpc.ProtoValue, resp a2arpc.ReusableValue) iter.Seq2[a2arpc.ProtoValue, error] {
	return t.stream(ctx, method, req, resp)
}

// stream is Stream, decoding every event's result into reuse when it is
// not nil.
func (t *jsonrpcTransport[C, I]) stream(ctx context.Context, method *a2arpc.MethodDesc, req a2arpc.ProtoValue, reuse a2arpc.ReusableValue) iter.Seq2[a2arpc.ProtoValue, error] {
	return func(yield func(a2arpc.ProtoValue, error) bool) {
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		m := t.compat.ServedBy(method.Name)
		res, id, err := t.post(ctx, method, req, "text/event-stream")
		if err != nil {
			yield(nil, err)
			return
		}
		defer res.Body.Close()
		if mt, _, _ := mime.ParseMediaType(res.Header.Get("Content-Type")); mt != "text/event-stream" {
			// A call refused before its stream started: one JSON-RPC response.
			data, err := t.cfg.readAll(res)
			if err == nil {
				var result json.RawMessage
				if result, err = readRPCResponse(res, data, id); err == nil {
					msg := method.NewResponse()
					if err = t.decode(method, m, result, msg); err == nil {
						yield(msg, nil)
						return
					}
				}
			}
			yield(nil, err)
			return
		}
		readEvents(ctx, method, res.Body, t.cfg.maxResponse, yield, func(ev sse.Event) (a2arpc.ProtoValue, error) {
			if reuse != nil && m == nil && readResultInto(ev.Data, id, reuse) {
				return reuse, nil
			}
			// Anything but a plain result is read again, for what it says.
			result, err := readRPCResponse(res, ev.Data, id)
			if err != nil {
				return nil, err
			}
			if reuse != nil && m == nil && !isNull(result) {
				if err := reuse.UnmarshalJSONReusing(result); err != nil {
					return nil, a2arpc.NewError(a2arpc.ErrInvalidAgentResponse, method.Name+": "+err.Error())
				}
				return reuse, nil
			}
			msg := method.NewResponse()
			return msg, t.decode(method, m, result, msg)
		})
	}
}

// readResultInto reads a JSON-RPC response in one pass, decoding its result
// into resp where it meets it, so the result is not scanned twice (once
// for the envelope, once for the message). It reports false for anything
// but a non-null result to request id, in a well-formed "2.0" envelope
// without an error member; resp then holds nothing of use, and the caller
// reads the response again with readRPCResponse.
func readResultInto(data []byte, id int64, resp a2arpc.ReusableValue) bool {
	r := wire.NewReader(data, wire.Decoder{})
	var idText [20]byte
	want := strconv.AppendInt(idText[:0], id, 10)
	version, ours, result := false, false, false
	if r.BeginObject() {
		for r.NextField() {
			switch string(r.Key()) {
			case "jsonrpc":
				version = string(r.ReadRawText()) == `"2.0"`
			case "id":
				ours = string(r.ReadRawText()) == string(want)
			case "result":
				if result = r.Peek() != 'n'; result {
					resp.ReadJSONReusing(r)
				} else {
					r.Skip()
				}
			case "error":
				r.Release()
				return false
			default:
				r.Skip()
			}
		}
	}
	return r.Finish() == nil && version && ours && result
}

// readRPCResponse reads one JSON-RPC response to request id: its result,
// or its error as an *RPCError. An error answer may carry a null id (the
// server could not read ours); a result must carry ours.
func readRPCResponse(res *http.Response, data []byte, id int64) (json.RawMessage, error) {
	// The common answer, a result to our request, is taken in one pass.
	var idText [20]byte // the id as we sent it, without allocating for it per event
	if env, ok := jsonrpc.Scan(data); ok && string(env.Version) == `"2.0"` && env.Error == nil && env.Result != nil &&
		string(env.ID) == string(strconv.AppendInt(idText[:0], id, 10)) {
		return env.Result, nil
	}
	var env struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Result  json.RawMessage `json:"result"`
		Error   *struct {
			Code    int             `json:"code"`
			Message string          `json:"message"`
			Data    json.RawMessage `json:"data"`
		} `json:"error"`
	}
	if err := json.Unmarshal(data, &env); err != nil || env.JSONRPC != "2.0" {
		if res.StatusCode != http.StatusOK {
			return nil, httpError(res, data)
		}
		return nil, a2arpc.NewError(a2arpc.ErrInvalidAgentResponse, "the answer is not a JSON-RPC 2.0 response")
	}
	if env.Error != nil {
		reason, meta, violations := errorDetails(env.Error.Data)
		e := a2arpc.ErrorFromCode(env.Error.Code, reason, env.Error.Message)
		e.Metadata, e.Violations = meta, violations
		return nil, e
	}
	if string(env.ID) != strconv.FormatInt(id, 10) {
		return nil, a2arpc.NewError(a2arpc.ErrInvalidAgentResponse, fmt.Sprintf("the answer is to request %s, not %d", env.ID, id))
	}
	return env.Result, nil
}

// decodeResult decodes a result into resp. A null or absent result leaves
// resp empty, since peers answer google.protobuf.Empty with null, nothing
// or {}; for a response with required fields that is no answer at all.
func decodeResult(method *a2arpc.MethodDesc, result json.RawMessage, resp a2arpc.ProtoValue) error {
	if isNull(result) {
		if resp.Validate() != nil {
			return a2arpc.NewError(a2arpc.ErrInvalidAgentResponse, method.Name+": the answer has no result")
		}
		return nil
	}
	if err := resp.UnmarshalJSON(result); err != nil {
		return a2arpc.NewError(a2arpc.ErrInvalidAgentResponse, method.Name+": "+err.Error())
	}
	return nil
}

// isNull reports whether a result is absent or null.
func isNull(result json.RawMessage) bool {
	return len(result) == 0 || string(result) == "null"
}
