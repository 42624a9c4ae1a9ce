package a2ahttp_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"testing"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/propagation"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	a2a "github.com/agui-gen/agui-gen/gen/a2a"
)

// recorder is a Telemetry whose spans and metrics a test reads.
type recorder struct {
	tel    *a2a.Telemetry
	spans  *tracetest.InMemoryExporter
	reader *sdkmetric.ManualReader
}

func newRecorder() *recorder {
	spans := tracetest.NewInMemoryExporter()
	reader := sdkmetric.NewManualReader()
	return &recorder{spans: spans, reader: reader, tel: &a2a.Telemetry{
		TracerProvider: sdktrace.NewTracerProvider(sdktrace.WithSyncer(spans)),
		MeterProvider:  sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader)),
		Propagator:     propagation.NewCompositeTextMapPropagator(propagation.TraceContext{}, propagation.Baggage{}),
	}}
}

// span is the one ended span named name of kind.
func (r *recorder) span(t *testing.T, name string, kind trace.SpanKind) tracetest.SpanStub {
	t.Helper()
	var found []tracetest.SpanStub
	for _, s := range r.spans.GetSpans() {
		if s.Name == name && s.SpanKind == kind {
			found = append(found, s)
		}
	}
	if len(found) != 1 {
		t.Fatalf("%d %s spans named %s, want 1", len(found), kind, name)
	}
	return found[0]
}

func attr(s tracetest.SpanStub, key string) (attribute.Value, bool) {
	for _, a := range s.Attributes {
		if string(a.Key) == key {
			return a.Value, true
		}
	}
	return attribute.Value{}, false
}

func wantAttrs(t *testing.T, s tracetest.SpanStub, want map[string]string) {
	t.Helper()
	for k, v := range want {
		got, ok := attr(s, k)
		if !ok || got.Emit() != v {
			t.Errorf("span %s: %s = %q (set %v), want %q", s.Name, k, got.Emit(), ok, v)
		}
	}
}

// histogram is the data points of the histogram named name.
func (r *recorder) histogram(t *testing.T, name string) []metricdata.HistogramDataPoint[float64] {
	t.Helper()
	var rm metricdata.ResourceMetrics
	if err := r.reader.Collect(context.Background(), &rm); err != nil {
		t.Fatal(err)
	}
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			if m.Name == name {
				return m.Data.(metricdata.Histogram[float64]).DataPoints
			}
		}
	}
	t.Fatalf("no metric %s", name)
	return nil
}

// TestTelemetryAcrossBindings: a call from our client to our server, on
// each HTTP binding, is one trace: the client's span (CLIENT) is the parent
// of the server's (SERVER), both named after the method and carrying the
// A2A draft's attributes; a refused call has its error.type; the durations
// are recorded per method, binding and status.
func TestTelemetryAcrossBindings(t *testing.T) {
	for _, binding := range []string{a2a.BindingJSONRPC, a2a.BindingHTTPJSON} {
		t.Run(binding, func(t *testing.T) {
			rec := newRecorder()
			base, _ := serveEcho(t, a2a.WithTelemetry(rec.tel))
			card, err := a2a.ResolveCard(context.Background(), base)
			if err != nil {
				t.Fatal(err)
			}
			tr, _, err := a2a.NewTransportFromCard(card, a2a.WithPreferredBindings(binding), a2a.WithClientTelemetry(rec.tel))
			if err != nil {
				t.Fatal(err)
			}
			c := a2a.NewA2AServiceClient(tr)
			msg := userMessage("hello")
			msg.ContextID = "ctx-1"
			resp, err := c.SendMessage(context.Background(), &a2a.SendMessageRequest{Message: msg})
			if err != nil {
				t.Fatal(err)
			}
			task := resp.Payload.(*a2a.SendMessageResponseTask).Task

			client, server := rec.span(t, "SendMessage", trace.SpanKindClient), rec.span(t, "SendMessage", trace.SpanKindServer)
			if server.Parent.SpanID() != client.SpanContext.SpanID() || server.SpanContext.TraceID() != client.SpanContext.TraceID() {
				t.Fatalf("the server's span is not the client's child: parent %s, client %s", server.Parent.SpanID(), client.SpanContext.SpanID())
			}
			want := map[string]string{"rpc.system.name": "a2a", "rpc.method": "SendMessage", "a2a.protocol.binding": binding,
				"a2a.message.id": msg.MessageID, "gen_ai.conversation.id": "ctx-1", "a2a.task.id": task.ID,
				"a2a.task.state": "TASK_STATE_COMPLETED", "rpc.response.status_code": "OK"}
			wantAttrs(t, client, want)
			want["a2a.protocol.version"] = a2a.ProtocolVersion
			want["gen_ai.agent.name"] = card.Name
			wantAttrs(t, server, want)

			if _, err := c.GetTask(context.Background(), &a2a.GetTaskRequest{ID: "no-such-task"}); !errors.Is(err, a2a.ErrTaskNotFound) {
				t.Fatalf("GetTask: %v", err)
			}
			code := "-32001"
			if binding == a2a.BindingHTTPJSON {
				code = "404"
			}
			for _, kind := range []trace.SpanKind{trace.SpanKindClient, trace.SpanKindServer} {
				wantAttrs(t, rec.span(t, "GetTask", kind), map[string]string{"error.type": code, "a2a.task.id": "no-such-task"})
			}

			var statuses []string
			for _, p := range rec.histogram(t, "rpc.server.call.duration") {
				method, _ := p.Attributes.Value("rpc.method")
				status, _ := p.Attributes.Value("rpc.response.status_code")
				b, _ := p.Attributes.Value("a2a.protocol.binding")
				if b.AsString() != binding || p.Count != 1 {
					t.Errorf("data point %v: %d calls", p.Attributes.ToSlice(), p.Count)
				}
				statuses = append(statuses, method.AsString()+" "+status.AsString())
			}
			if got := strings.Join(statuses, ", "); !strings.Contains(got, "SendMessage OK") || !strings.Contains(got, "GetTask "+code) {
				t.Errorf("rpc.server.call.duration: %s", got)
			}
		})
	}
}

// TestTelemetryStream: a streaming call's span carries its task and a span
// event for each change of its state.
func TestTelemetryStream(t *testing.T) {
	rec := newRecorder()
	base, _ := serveEcho(t, a2a.WithTelemetry(rec.tel))
	c := a2a.NewA2AServiceClient(a2a.NewJSONRPCTransport(base, a2a.WithClientTelemetry(rec.tel)))
	for _, err := range c.SendStreamingMessage(context.Background(), &a2a.SendMessageRequest{Message: userMessage("hi")}) {
		if err != nil {
			t.Fatal(err)
		}
	}
	server := rec.span(t, "SendStreamingMessage", trace.SpanKindServer)
	wantAttrs(t, server, map[string]string{"a2a.task.state": "TASK_STATE_COMPLETED"})
	var states []string
	for _, ev := range server.Events {
		if ev.Name == "a2a.task.status_update" {
			for _, a := range ev.Attributes {
				states = append(states, a.Value.AsString())
			}
		}
	}
	if len(states) == 0 || states[len(states)-1] != "TASK_STATE_COMPLETED" {
		t.Errorf("state changes on the span: %v", states)
	}
	client := rec.span(t, "SendStreamingMessage", trace.SpanKindClient)
	if server.Parent.SpanID() != client.SpanContext.SpanID() {
		t.Error("the stream's server span is not the client's child")
	}
}

// TestLogHandlerCorrelates: a record logged inside a span carries its ids.
func TestLogHandlerCorrelates(t *testing.T) {
	rec := newRecorder()
	var buf bytes.Buffer
	logger := slog.New(a2a.LogHandler(slog.NewJSONHandler(&buf, nil)))
	ctx, span := rec.tel.Tracer("test").Start(context.Background(), "work")
	logger.InfoContext(ctx, "inside")
	span.End()
	logger.InfoContext(context.Background(), "outside")
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	sc := span.SpanContext()
	if !strings.Contains(lines[0], `"trace_id":"`+sc.TraceID().String()+`"`) || !strings.Contains(lines[0], `"span_id":"`+sc.SpanID().String()+`"`) {
		t.Errorf("inside a span: %s", lines[0])
	}
	if strings.Contains(lines[1], "trace_id") {
		t.Errorf("outside a span: %s", lines[1])
	}
}
