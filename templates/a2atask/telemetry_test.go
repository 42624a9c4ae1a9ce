package a2atask

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"

	"go.opentelemetry.io/otel/propagation"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/agui-gen/agui-gen/examples/a2a-demo/echo"
	a2a "github.com/agui-gen/agui-gen/gen/a2a"
)

// TestTaskTelemetry: the executor's invoke_agent span is the child of the
// server's span of the call that started its run, in the client's trace,
// with an event for each state the task entered; push notifications carry
// a trace context; the runtime counts the states entered and the
// deliveries.
func TestTaskTelemetry(t *testing.T) {
	spans := tracetest.NewInMemoryExporter()
	reader := sdkmetric.NewManualReader()
	tel := &a2a.Telemetry{TracerProvider: sdktrace.NewTracerProvider(sdktrace.WithSyncer(spans)),
		MeterProvider: sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader)), Propagator: propagation.TraceContext{}}
	hook := &receiver{}
	webhook := httptest.NewServer(hook)
	defer webhook.Close()
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	store := NewMemory()
	rt := New(echoing, store, WithLogger(quiet), WithTelemetry(tel),
		WithPushNotifications(store, NewPushSender(WithPrivateNetworks(), WithPushTelemetry(tel))))
	defer rt.Close()
	var h http.Handler
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { h.ServeHTTP(w, r) }))
	defer srv.Close()
	card := echo.Card(srv.URL)
	var err error
	if h, err = a2a.NewHandler(a2a.BindA2AService(rt), card, a2a.WithTelemetry(tel), a2a.WithLogger(quiet)); err != nil {
		t.Fatal(err)
	}
	c := a2a.NewA2AServiceClient(a2a.NewJSONRPCTransport(srv.URL, a2a.WithClientTelemetry(tel)))
	task := sendTask(t, c, &a2a.SendMessageRequest{Message: userMessage("ping"), Configuration: &a2a.SendMessageConfiguration{
		TaskPushNotificationConfig: &a2a.TaskPushNotificationConfig{URL: webhook.URL}}})
	_, headers := hook.waitFor(t, 4)
	rt.Close() // every span ended

	var server, agent tracetest.SpanStub
	pushes := 0
	for _, s := range spans.GetSpans() {
		switch {
		case s.Name == "SendMessage" && s.SpanKind == trace.SpanKindServer:
			server = s
		case s.Name == "invoke_agent "+card.Name:
			agent = s
		case s.Name == "a2a.push":
			pushes++
		}
	}
	if !agent.SpanContext.IsValid() || agent.Parent.SpanID() != server.SpanContext.SpanID() || agent.SpanContext.TraceID() != server.SpanContext.TraceID() {
		t.Fatalf("invoke_agent %v is not the child of the server's span %v", agent.Parent, server.SpanContext)
	}
	var states []string
	for _, ev := range agent.Events {
		states = append(states, ev.Attributes[0].Value.AsString())
	}
	if want := []string{"TASK_STATE_WORKING", "TASK_STATE_COMPLETED"}; len(states) != 2 || states[0] != want[0] || states[1] != want[1] {
		t.Errorf("the states on invoke_agent: %v, want %v", states, want)
	}
	for _, a := range agent.Attributes {
		if a.Key == attrTaskID && a.Value.AsString() != task.ID {
			t.Errorf("invoke_agent's task %s, want %s", a.Value.AsString(), task.ID)
		}
	}
	if pushes != 4 {
		t.Errorf("%d a2a.push spans, want 4", pushes)
	}
	for _, h := range headers {
		if h.Get("Traceparent") == "" {
			t.Errorf("a push notification without traceparent: %v", h)
		}
	}

	var rm metricdata.ResourceMetrics
	if err := reader.Collect(context.Background(), &rm); err != nil {
		t.Fatal(err)
	}
	counts := map[string]int64{}
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			sum, ok := m.Data.(metricdata.Sum[int64])
			if !ok {
				continue
			}
			for _, p := range sum.DataPoints {
				for _, kv := range p.Attributes.ToSlice() {
					counts[m.Name+" "+kv.Value.AsString()] += p.Value
				}
			}
		}
	}
	for key, want := range map[string]int64{"a2a.task.transitions TASK_STATE_SUBMITTED": 1, "a2a.task.transitions TASK_STATE_WORKING": 1,
		"a2a.task.transitions TASK_STATE_COMPLETED": 1, "a2a.push.deliveries delivered": 4} {
		if counts[key] != want {
			t.Errorf("%s = %d, want %d (all: %v)", key, counts[key], want, counts)
		}
	}
}
