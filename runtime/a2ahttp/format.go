package a2ahttp

import (
	"context"
	"iter"
	"mime"
	"net/http"
	"strconv"
	"strings"

	"github.com/agui-gen/agui-gen/runtime/a2acall"
	"github.com/agui-gen/agui-gen/runtime/a2arpc"
)

// A StreamFormat answers a streaming RPC in a wire format of its own,
// instead of the binding's SSE, for a client that asks for it: with its
// media type in Accept, or its name in the format query parameter. What
// goes wrong before the first response (a malformed request, a refused
// version or caller, an unknown task) is still the binding's to answer.
type StreamFormat struct {
	// Name is the value of the format query parameter that selects it.
	Name string
	// MediaType is the Accept media type that selects it.
	MediaType string
	// Serve writes the response to req, a call of method. responses yields
	// what the RPC streams, the first of them already in hand, and ends
	// with the RPC's error, if any, as a final (nil, err) pair. Serve may
	// stop early; the call is then cancelled. The binding's SSE event ids
	// (and so Last-Event-ID) are the binding's own: a format has its own
	// framing.
	Serve func(w http.ResponseWriter, r *http.Request, method *a2arpc.MethodDesc, req a2arpc.ProtoValue, responses iter.Seq2[a2arpc.ProtoValue, error])
}

// WithStreamFormat adds a format streaming RPCs can be answered in.
func WithStreamFormat[C Card, I comparable](f StreamFormat) ServerOption[C, I] {
	return func(c *serverConfig[C, I]) { c.formats = append(c.formats, f) }
}

// streamFormat is the format r asks for, or nil for the binding's own.
func (c *serverConfig[C, I]) streamFormat(r *http.Request) *StreamFormat {
	if len(c.formats) == 0 {
		return nil
	}
	name := r.URL.Query().Get("format")
	accept := r.Header.Values("Accept")
	for i := range c.formats {
		f := &c.formats[i]
		if name != "" && name == f.Name {
			return f
		}
		for _, value := range accept {
			for _, item := range strings.Split(value, ",") {
				if mt, params, err := mime.ParseMediaType(strings.TrimSpace(item)); err == nil && mt == f.MediaType && !refused(params["q"]) {
					return f
				}
			}
		}
	}
	return nil
}

// refused reports whether an Accept quality value refuses its media type.
func refused(q string) bool {
	v, err := strconv.ParseFloat(q, 64)
	return err == nil && v == 0
}

// serveFormat runs a streaming RPC for f. It waits for the first response
// (or the error that comes instead, which it returns for the binding to
// report), then hands the stream to f.Serve.
func serveFormat[C Card, I comparable](ctx context.Context, cfg *serverConfig[C, I], f *StreamFormat, w http.ResponseWriter, r *http.Request,
	h *a2arpc.MethodHandler, req a2arpc.ProtoValue) *a2arpc.RPCError {
	ctx, cancel := context.WithCancel(ctx)
	type item struct {
		msg a2arpc.ProtoValue
		err *a2arpc.RPCError
	}
	items := make(chan item)
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer close(items)
		rerr := a2acall.InvokeStream(ctx, cfg.spec.Call, cfg.logger, h, req, func(m a2arpc.ProtoValue) error {
			select {
			case items <- item{msg: m}:
				return nil
			case <-ctx.Done():
				return ctx.Err()
			}
		})
		if rerr != nil {
			select {
			case items <- item{err: rerr}:
			case <-ctx.Done():
			}
		}
	}()
	defer func() { cancel(); <-done }()
	first := <-items // the zero item when the call ends with nothing
	if first.err != nil {
		return first.err
	}
	f.Serve(w, r.WithContext(ctx), h.Desc, req, func(yield func(a2arpc.ProtoValue, error) bool) {
		if first.msg == nil {
			return
		}
		if !yield(first.msg, nil) {
			return
		}
		for it := range items {
			var err error
			if it.err != nil {
				err = it.err
			}
			if !yield(it.msg, err) {
				return
			}
		}
	})
	return nil
}
