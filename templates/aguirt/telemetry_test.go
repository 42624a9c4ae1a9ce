package aguirt

import (
	"context"
	"net/http/httptest"
	"testing"

	"go.opentelemetry.io/otel/attribute"
	metricnoop "go.opentelemetry.io/otel/metric/noop"
	"go.opentelemetry.io/otel/propagation"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
	tracenoop "go.opentelemetry.io/otel/trace/noop"

	agui "github.com/agui-gen/agui-gen/gen/agui"
)

func testTelemetry() (*agui.Telemetry, *tracetest.InMemoryExporter, *sdkmetric.ManualReader) {
	spans := tracetest.NewInMemoryExporter()
	reader := sdkmetric.NewManualReader()
	return &agui.Telemetry{
		TracerProvider: sdktrace.NewTracerProvider(sdktrace.WithSyncer(spans)),
		MeterProvider:  sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader)),
		Propagator:     propagation.TraceContext{},
		AgentName:      "helper",
	}, spans, reader
}

func spanNamed(t *testing.T, spans []tracetest.SpanStub, name string, kind trace.SpanKind) tracetest.SpanStub {
	t.Helper()
	for _, s := range spans {
		if s.Name == name && s.SpanKind == kind {
			return s
		}
	}
	t.Fatalf("no %s span %q among %d", kind, name, len(spans))
	return tracetest.SpanStub{}
}

func spanAttr(s tracetest.SpanStub, key attribute.Key) string {
	for _, a := range s.Attributes {
		if a.Key == key {
			return a.Value.Emit()
		}
	}
	return ""
}

// TestRunTelemetry: a run from our client to our handler is one trace: the
// client's agui.run (CLIENT), the handler's agui.run inside it, the
// agent's invoke_agent inside that, and a tool call's execute_tool inside
// the agent's; the run span counts the events and says the outcome, and
// the metrics count them by type.
func TestRunTelemetry(t *testing.T) {
	tel, spans, reader := testTelemetry()
	agent := AgentFunc(func(ctx context.Context, in *agui.RunAgentInput, s *Stream) error {
		if err := s.Text("looking it up"); err != nil {
			return err
		}
		id, err := s.ToolCall("search", `{"q":"weather"}`)
		if err != nil {
			return err
		}
		return s.ToolResult(id, "sunny")
	})
	srv := httptest.NewServer(NewHandler(agent, WithTelemetry(tel), WithLogger(quietLogger())))
	defer srv.Close()
	c := &Client{URL: srv.URL, Telemetry: tel}
	rs, err := c.Run(context.Background(), &agui.RunAgentInput{ThreadID: "t1", RunID: "r1"})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, err := range rs.Events() {
		if err != nil {
			t.Fatal(err)
		}
		n++
	}
	got := spans.GetSpans()
	client := spanNamed(t, got, "agui.run", trace.SpanKindClient)
	run := spanNamed(t, got, "agui.run", trace.SpanKindInternal)
	agentSpan := spanNamed(t, got, "invoke_agent helper", trace.SpanKindInternal)
	tool := spanNamed(t, got, "execute_tool search", trace.SpanKindInternal)
	for _, link := range []struct {
		child, parent tracetest.SpanStub
	}{{run, client}, {agentSpan, run}, {tool, agentSpan}} {
		if link.child.Parent.SpanID() != link.parent.SpanContext.SpanID() || link.child.SpanContext.TraceID() != client.SpanContext.TraceID() {
			t.Errorf("%s is not a child of %s in one trace", link.child.Name, link.parent.Name)
		}
	}
	for key, want := range map[attribute.Key]string{attribute.Key("agui.thread_id"): "t1", attribute.Key("agui.run_id"): "r1", attribute.Key("agui.run.outcome"): "success", attribute.Key("agui.events.count"): itoa(n)} {
		if got := spanAttr(run, key); got != want {
			t.Errorf("agui.run %s = %q, want %q", key, got, want)
		}
	}
	for key, want := range map[attribute.Key]string{attribute.Key("gen_ai.operation.name"): "invoke_agent", "gen_ai.agent.name": "helper", "gen_ai.conversation.id": "t1", "gen_ai.system": "_OTHER"} {
		if got := spanAttr(agentSpan, key); got != want {
			t.Errorf("invoke_agent %s = %q, want %q", key, got, want)
		}
	}
	if spanAttr(tool, attribute.Key("gen_ai.tool.name")) != "search" || spanAttr(tool, attribute.Key("gen_ai.tool.call.id")) == "" {
		t.Errorf("execute_tool attributes: %v", tool.Attributes)
	}

	var rm metricdata.ResourceMetrics
	if err := reader.Collect(context.Background(), &rm); err != nil {
		t.Fatal(err)
	}
	counted := int64(0)
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			if m.Name == "agui.server.events" {
				for _, p := range m.Data.(metricdata.Sum[int64]).DataPoints {
					counted += p.Value
				}
			}
		}
	}
	if counted != int64(n) {
		t.Errorf("agui.server.events counted %d, the client read %d", counted, n)
	}
}

// TestRunTelemetryError: a run whose agent fails says so on its span.
func TestRunTelemetryError(t *testing.T) {
	tel, spans, _ := testTelemetry()
	agent := AgentFunc(func(context.Context, *agui.RunAgentInput, *Stream) error {
		return &RunError{Message: "no model", Code: "model_unavailable"}
	})
	srv := httptest.NewServer(NewHandler(agent, WithTelemetry(tel), WithLogger(quietLogger())))
	defer srv.Close()
	rs, err := (&Client{URL: srv.URL, Telemetry: tel}).Run(context.Background(), &agui.RunAgentInput{ThreadID: "t1", RunID: "r2"})
	if err != nil {
		t.Fatal(err)
	}
	if err := rs.Wait(); err != nil || rs.RunError() == nil {
		t.Fatalf("Wait: %v, RUN_ERROR %v", err, rs.RunError())
	}
	run := spanNamed(t, spans.GetSpans(), "agui.run", trace.SpanKindInternal)
	if spanAttr(run, attribute.Key("agui.run.outcome")) != "error" || spanAttr(run, attribute.Key("error.type")) != "model_unavailable" {
		t.Errorf("agui.run of a failed run: %v", run.Attributes)
	}
	if agentSpan := spanNamed(t, spans.GetSpans(), "invoke_agent helper", trace.SpanKindInternal); spanAttr(agentSpan, attribute.Key("error.type")) != "model_unavailable" {
		t.Errorf("invoke_agent of a failed run: %v", agentSpan.Attributes)
	}
}

func itoa(n int) string { return attribute.IntValue(n).Emit() }

// TestMetaTelemetry: META events taken in are counted by their type.
func TestMetaTelemetry(t *testing.T) {
	tel, _, reader := testTelemetry()
	srv := httptest.NewServer(NewHandler(AgentFunc(func(context.Context, *agui.RunAgentInput, *Stream) error { return nil }),
		WithTelemetry(tel), WithMetaStore(NewMemoryMeta()), WithLogger(quietLogger())))
	defer srv.Close()
	if _, err := (&Client{URL: srv.URL}).SendMeta(context.Background(), "t1", "r1",
		agui.NewThumbsUpMeta("m1"), agui.NewNoteMeta("good"), agui.NewThumbsUpMeta("m2")); err != nil {
		t.Fatal(err)
	}
	var rm metricdata.ResourceMetrics
	if err := reader.Collect(context.Background(), &rm); err != nil {
		t.Fatal(err)
	}
	got := map[string]int64{}
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			if m.Name == "agui.server.meta_events" {
				for _, p := range m.Data.(metricdata.Sum[int64]).DataPoints {
					typ, _ := p.Attributes.Value(attribute.Key("agui.meta.type"))
					got[typ.AsString()] += p.Value
				}
			}
		}
	}
	if got["thumbs_up"] != 2 || got["note"] != 1 {
		t.Errorf("agui.server.meta_events: %v", got)
	}
}

// TestTelemetryOff: with no SDK (the global providers, or no-op ones) a
// run starts no span, yet the trace context its request carries reaches
// its agent, for the calls the agent makes to carry on.
func TestTelemetryOff(t *testing.T) {
	for name, tel := range map[string]*agui.Telemetry{
		"global": {Propagator: propagation.TraceContext{}},
		"noop":   {Propagator: propagation.TraceContext{}, TracerProvider: tracenoop.NewTracerProvider(), MeterProvider: metricnoop.NewMeterProvider()},
	} {
		t.Run(name, func(t *testing.T) {
			if tel.Tracing() || tel.Metering() {
				t.Fatalf("Tracing %v, Metering %v with no SDK", tel.Tracing(), tel.Metering())
			}
			seen := make(chan trace.SpanContext, 1)
			h := NewHandler(AgentFunc(func(ctx context.Context, _ *agui.RunAgentInput, s *Stream) error {
				seen <- trace.SpanContextFromContext(ctx)
				return nil
			}), WithTelemetry(tel), WithLogger(quietLogger()))
			const parent = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"
			post(t, h, runInput, map[string]string{"traceparent": parent})
			sc := <-seen
			if sc.TraceID().String() != "0af7651916cd43dd8448eb211c80319c" || sc.SpanID().String() != "b7ad6b7169203331" {
				t.Errorf("the agent's trace context: %v", sc)
			}
		})
	}
}
