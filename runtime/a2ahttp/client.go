package a2ahttp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/agui-gen/agui-gen/runtime/a2arpc"
	"github.com/agui-gen/agui-gen/runtime/telemetry"
)

// ClientOption configures the client transports and the card resolver.
type ClientOption[C Card, I comparable] func(*clientConfig[C, I])

type clientConfig[C Card, I comparable] struct {
	spec        *Spec[C, I]
	http        *http.Client
	header      http.Header
	version     string
	maxResponse int64
	factories   map[string]TransportFactory[C, I]
	bindings    []string
	telemetry   *telemetry.Telemetry
}

// TransportFactory makes the transport of one agent interface; the a2agrpc
// package has the one for a2arpc.BindingGRPC.
type TransportFactory[C Card, I comparable] func(iface I, opts ...ClientOption[C, I]) (a2arpc.Transport, error)

func newClientConfig[C Card, I comparable](spec *Spec[C, I], opts []ClientOption[C, I]) *clientConfig[C, I] {
	c := &clientConfig[C, I]{spec: spec, http: http.DefaultClient, header: http.Header{}, version: spec.ProtocolVersion, maxResponse: 64 << 20}
	for _, o := range opts {
		o(c)
	}
	return c
}

// WithHTTPClient sends requests with client (default http.DefaultClient).
func WithHTTPClient[C Card, I comparable](client *http.Client) ClientOption[C, I] {
	return func(c *clientConfig[C, I]) { c.http = client }
}

// WithHeader adds a header to every request, such as Authorization.
func WithHeader[C Card, I comparable](key, value string) ClientOption[C, I] {
	return func(c *clientConfig[C, I]) { c.header.Add(key, value) }
}

// WithVersion sets the A2A-Version the client sends (default
// ProtocolVersion).
func WithVersion[C Card, I comparable](v string) ClientOption[C, I] {
	return func(c *clientConfig[C, I]) { c.version = v }
}

// ClientHeaders returns the headers opts add to every request, for a
// transport of another binding (gRPC sends them as metadata).
func ClientHeaders[C Card, I comparable](spec *Spec[C, I], opts ...ClientOption[C, I]) http.Header {
	return newClientConfig(spec, opts).header
}

// ClientTelemetry is the Telemetry that opts set (WithClientTelemetry), for
// a transport made elsewhere (a2agrpc.WithGRPC); nil when none does.
func ClientTelemetry[C Card, I comparable](spec *Spec[C, I], opts ...ClientOption[C, I]) *telemetry.Telemetry {
	return newClientConfig(spec, opts).telemetry
}

// WithMaxResponseBytes limits a unary response body, and each event of a
// stream (default 64 MiB).
func WithMaxResponseBytes[C Card, I comparable](n int64) ClientOption[C, I] {
	return func(c *clientConfig[C, I]) { c.maxResponse = n }
}

// WithTransport lets NewTransportFromCard use f for interfaces of binding.
func WithTransport[C Card, I comparable](binding string, f TransportFactory[C, I]) ClientOption[C, I] {
	return func(c *clientConfig[C, I]) {
		if c.factories == nil {
			c.factories = map[string]TransportFactory[C, I]{}
		}
		c.factories[binding] = f
	}
}

// WithPreferredBindings orders the bindings NewTransportFromCard picks
// from; by default it follows the card's order, the agent's preference.
func WithPreferredBindings[C Card, I comparable](bindings ...string) ClientOption[C, I] {
	return func(c *clientConfig[C, I]) { c.bindings = bindings }
}

func (c *clientConfig[C, I]) newRequest(ctx context.Context, method, url string, body []byte, contentType, accept string) (*http.Request, error) {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, url, rd)
	if err != nil {
		return nil, err
	}
	for k, v := range c.header {
		req.Header[k] = v
	}
	if body != nil {
		req.Header.Set("Content-Type", contentType)
	}
	req.Header.Set("Accept", accept)
	if accept == "text/event-stream" {
		if id := a2arpc.LastEventID(ctx); id != "" {
			req.Header.Set("Last-Event-ID", id) // a stream that continues one the client lost
		}
	}
	req.Header.Set(a2arpc.VersionHeader, c.version)
	c.telemetry.Inject(ctx, req.Header)
	return req, nil
}

// readAll reads a response body within the limit.
func (c *clientConfig[C, I]) readAll(res *http.Response) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(res.Body, c.maxResponse+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > c.maxResponse {
		return nil, fmt.Errorf("a2a: response body exceeds %d bytes", c.maxResponse)
	}
	return data, nil
}

// errorDetails reads the details of an error (JSON-RPC error.data, or
// google.rpc.Status details): the ErrorInfo reason and metadata, and the
// field violations of a BadRequest.
func errorDetails(raw json.RawMessage) (reason string, meta map[string]string, violations []a2arpc.FieldViolation) {
	var details []struct {
		Type            string            `json:"@type"`
		Reason          string            `json:"reason"`
		Domain          string            `json:"domain"`
		Metadata        map[string]string `json:"metadata"`
		FieldViolations []struct {
			Field       string `json:"field"`
			Description string `json:"description"`
		} `json:"fieldViolations"`
	}
	if json.Unmarshal(raw, &details) != nil {
		return "", nil, nil
	}
	for _, d := range details {
		switch d.Type {
		case "type.googleapis.com/google.rpc.ErrorInfo":
			if d.Domain == a2arpc.ErrorDomain || d.Domain == "" {
				reason, meta = d.Reason, d.Metadata
			}
		case "type.googleapis.com/google.rpc.BadRequest":
			for _, v := range d.FieldViolations {
				violations = append(violations, a2arpc.FieldViolation{Field: v.Field, Description: v.Description})
			}
		}
	}
	return reason, meta, violations
}

// httpError is the error of a response that is not in the protocol's
// shape: its status and the start of its body.
func httpError(res *http.Response, body []byte) error {
	text := strings.TrimSpace(string(body))
	if len(text) > 200 {
		text = text[:200] + "…"
	}
	code := grpcCodeForHTTP(res.StatusCode)
	if res.StatusCode == http.StatusNotFound {
		code = 12 // a path the server does not know, not a task it lacks
	}
	return a2arpc.ErrorFromStatus(code, "", fmt.Sprintf("HTTP %s: %s", res.Status, text))
}

// grpcCodeForHTTP is the google.rpc.Code an HTTP status stands for when a
// body does not say.
func grpcCodeForHTTP(status int) int {
	switch status {
	case http.StatusBadRequest, http.StatusUnsupportedMediaType, http.StatusRequestEntityTooLarge:
		return 3 // INVALID_ARGUMENT
	case http.StatusUnauthorized:
		return 16 // UNAUTHENTICATED
	case http.StatusForbidden:
		return 7 // PERMISSION_DENIED
	case http.StatusNotFound:
		return 5 // NOT_FOUND
	case http.StatusMethodNotAllowed, http.StatusNotImplemented:
		return 12 // UNIMPLEMENTED
	}
	return 2 // UNKNOWN
}

// WithClientTelemetry sends the client's traces and metrics where t says
// (default: OpenTelemetry's global providers). Each call is a span named
// after its method, of kind CLIENT, whose trace context the request
// carries.
func WithClientTelemetry[C Card, I comparable](t *telemetry.Telemetry) ClientOption[C, I] {
	return func(c *clientConfig[C, I]) { c.telemetry = t }
}
