package a2agrpc_test

import (
	"context"
	"errors"
	"testing"

	"go.opentelemetry.io/otel/propagation"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	a2a "github.com/agui-gen/agui-gen/gen/a2a"
	"github.com/agui-gen/agui-gen/gen/a2a/a2agrpc"
)

// TestGRPCTelemetry: over gRPC, the trace context travels in the call's
// metadata, so the server's span (SERVER) is the client's (CLIENT) child;
// a refused call's error.type is its gRPC status.
func TestGRPCTelemetry(t *testing.T) {
	spans := tracetest.NewInMemoryExporter()
	tel := &a2a.Telemetry{TracerProvider: sdktrace.NewTracerProvider(sdktrace.WithSyncer(spans)), Propagator: propagation.TraceContext{}}
	addr := serveGRPC(t, a2agrpc.WithTelemetry(tel))
	c := a2a.NewA2AServiceClient(a2agrpc.NewTransport(dial(t, addr), a2agrpc.WithClientTelemetry(tel)))
	if _, err := c.GetTask(context.Background(), &a2a.GetTaskRequest{ID: "missing"}); !errors.Is(err, a2a.ErrTaskNotFound) {
		t.Fatalf("GetTask: %v", err)
	}
	byKind := map[trace.SpanKind]tracetest.SpanStub{}
	for _, s := range spans.GetSpans() {
		if s.Name != "GetTask" {
			t.Errorf("span %s", s.Name)
		}
		byKind[s.SpanKind] = s
	}
	client, server := byKind[trace.SpanKindClient], byKind[trace.SpanKindServer]
	if !server.Parent.IsValid() || server.Parent.SpanID() != client.SpanContext.SpanID() {
		t.Fatalf("the server's span %v is not the client's %v child", server.Parent, client.SpanContext)
	}
	for _, s := range []tracetest.SpanStub{client, server} {
		var errorType, binding string
		for _, a := range s.Attributes {
			switch a.Key {
			case "error.type":
				errorType = a.Value.AsString()
			case "a2a.protocol.binding":
				binding = a.Value.AsString()
			}
		}
		if errorType != "NOT_FOUND" || binding != a2a.BindingGRPC {
			t.Errorf("%s span: error.type %q, binding %q", s.SpanKind, errorType, binding)
		}
	}
}
