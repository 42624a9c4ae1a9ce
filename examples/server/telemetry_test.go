package main

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"sync"
	"testing"

	"go.opentelemetry.io/otel"
	metricnoop "go.opentelemetry.io/otel/metric/noop"
	tracenoop "go.opentelemetry.io/otel/trace/noop"
	colmetricpb "go.opentelemetry.io/proto/otlp/collector/metrics/v1"
	coltracepb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
	metricpb "go.opentelemetry.io/proto/otlp/metrics/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/proto"

	"github.com/agui-gen/agui-gen/gen/a2a"
	"github.com/agui-gen/agui-gen/gen/agui"
)

// otlpReceiver is an OTLP/HTTP collector in the test's process: it
// decodes what the exporters send with the OTLP protobuf messages.
type otlpReceiver struct {
	mu      sync.Mutex
	spans   []*tracepb.Span
	metrics map[string]*metricpb.Metric // by name, the last export's
}

func (r *otlpReceiver) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	body, err := io.ReadAll(req.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	var answer proto.Message
	switch req.URL.Path {
	case "/v1/traces":
		var m coltracepb.ExportTraceServiceRequest
		if err := proto.Unmarshal(body, &m); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		for _, rs := range m.ResourceSpans {
			for _, ss := range rs.ScopeSpans {
				r.spans = append(r.spans, ss.Spans...)
			}
		}
		answer = &coltracepb.ExportTraceServiceResponse{}
	case "/v1/metrics":
		var m colmetricpb.ExportMetricsServiceRequest
		if err := proto.Unmarshal(body, &m); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		for _, rm := range m.ResourceMetrics {
			for _, sm := range rm.ScopeMetrics {
				for _, metric := range sm.Metrics {
					r.metrics[metric.Name] = metric
				}
			}
		}
		answer = &colmetricpb.ExportMetricsServiceResponse{}
	default:
		http.NotFound(w, req)
		return
	}
	out, _ := proto.Marshal(answer)
	w.Header().Set("Content-Type", "application/x-protobuf")
	w.Write(out)
}

// exportTo points the OTLP exporters at a new receiver, for the servers
// started after it; the global providers go back to no-ops when the test
// ends.
func exportTo(t *testing.T) *otlpReceiver {
	rec := &otlpReceiver{metrics: map[string]*metricpb.Metric{}}
	srv := httptest.NewServer(rec)
	t.Cleanup(srv.Close)
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", srv.URL)
	t.Setenv("OTEL_EXPORTER_OTLP_PROTOCOL", "http/protobuf")
	t.Setenv("OTEL_SEMCONV_STABILITY_OPT_IN", "gen_ai_latest_experimental")
	t.Setenv("OTEL_SERVICE_NAME", "scaffold-test")
	t.Cleanup(func() {
		otel.SetTracerProvider(tracenoop.NewTracerProvider())
		otel.SetMeterProvider(metricnoop.NewMeterProvider())
	})
	return rec
}

// spanTree indexes a trace's spans.
type spanTree struct {
	byID map[string]*tracepb.Span
}

func (tr spanTree) parent(s *tracepb.Span) *tracepb.Span { return tr.byID[string(s.ParentSpanId)] }

// find is the one span named name of kind below under, at any depth.
func (tr spanTree) find(t *testing.T, name string, kind tracepb.Span_SpanKind, under *tracepb.Span) *tracepb.Span {
	t.Helper()
	return tr.one(t, name, kind, under, func(s *tracepb.Span) bool {
		for p := tr.parent(s); p != nil; p = tr.parent(p) {
			if p == under {
				return true
			}
		}
		return false
	})
}

// child is the one span named name of kind whose parent is parent.
func (tr spanTree) child(t *testing.T, name string, kind tracepb.Span_SpanKind, parent *tracepb.Span) *tracepb.Span {
	t.Helper()
	return tr.one(t, name, kind, parent, func(s *tracepb.Span) bool { return tr.parent(s) == parent })
}

func (tr spanTree) one(t *testing.T, name string, kind tracepb.Span_SpanKind, from *tracepb.Span, related func(*tracepb.Span) bool) *tracepb.Span {
	t.Helper()
	var found []*tracepb.Span
	for _, s := range tr.byID {
		if s.Name == name && s.Kind == kind && related(s) {
			found = append(found, s)
		}
	}
	if len(found) != 1 {
		var names []string
		for _, s := range tr.byID {
			if tr.parent(s) == from {
				names = append(names, s.Kind.String()+" "+s.Name)
			}
		}
		t.Fatalf("%d %s spans %q from %s, want 1; its children: %v", len(found), kind, name, from.GetName(), names)
	}
	return found[0]
}

func attrs(s *tracepb.Span) map[string]string {
	out := map[string]string{}
	for _, kv := range s.Attributes {
		out[kv.Key] = anyValue(kv.Value)
	}
	return out
}

func anyValue(v *commonpb.AnyValue) string {
	switch x := v.Value.(type) {
	case *commonpb.AnyValue_StringValue:
		return x.StringValue
	case *commonpb.AnyValue_IntValue:
		return strconv.FormatInt(x.IntValue, 10)
	case *commonpb.AnyValue_BoolValue:
		if x.BoolValue {
			return "true"
		}
		return "false"
	}
	return v.String()
}

func wantAttrs(t *testing.T, s *tracepb.Span, want map[string]string) {
	t.Helper()
	got := attrs(s)
	for k, v := range want {
		if got[k] != v {
			t.Errorf("span %s: %s = %q, want %q", s.Name, k, got[k], v)
		}
	}
}

// TestOneChatTurnIsOneTrace runs a chat turn as CopilotKit would, over
// AG-UI, to a server that answers it with another
// server's A2A agent through the bridge (AG-UI → bridge → A2A task →
// bridge → the scripted agent), with the OTLP exporters pointed at a
// receiver in this process. What arrives is one trace, with the spans,
// links and attributes of the conventions, and the metrics.
func TestOneChatTurnIsOneTrace(t *testing.T) {
	// The A2A agent, then the exporters, then the AG-UI front: both servers
	// are in this process, so they share its global providers.
	agent := startServer(t, config{})
	rec := exportTo(t)
	ctx, cancel := context.WithCancel(context.Background())
	front, done := serve(t, ctx, config{a2aAgent: agent})
	c := agui.Client{URL: front + "/agui"}
	rs, err := c.Run(context.Background(), &agui.RunAgentInput{ThreadID: "t-otel", RunID: "r-otel", Messages: []agui.Message{
		&agui.UserMessage{BaseMessage: agui.BaseMessage{ID: "u1"}, Content: agui.TextContent("What is the weather in Paris?")}}})
	if err != nil {
		t.Fatal(err)
	}
	if err := rs.Wait(); err != nil {
		t.Fatal(err)
	}
	// Shutting the front down flushes its exporters.
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}

	rec.mu.Lock()
	defer rec.mu.Unlock()
	var root *tracepb.Span
	for _, s := range rec.spans {
		if s.Name == "agui.run" && s.Kind == tracepb.Span_SPAN_KIND_CLIENT {
			root = s
		}
	}
	if root == nil {
		t.Fatalf("no client span among %d", len(rec.spans))
	}
	tr := spanTree{byID: map[string]*tracepb.Span{}}
	for _, s := range rec.spans {
		if string(s.TraceId) == string(root.TraceId) {
			tr.byID[string(s.SpanId)] = s
		}
	}
	var run *tracepb.Span
	for _, s := range tr.byID {
		if s.Name == "agui.run" && s.Kind == tracepb.Span_SPAN_KIND_INTERNAL && tr.parent(s) == root {
			run = s
		}
	}
	if run == nil {
		t.Fatalf("no agui.run span is the client's child (%d spans in its trace, %d in all)", len(tr.byID), len(rec.spans))
	}
	wantAttrs(t, run, map[string]string{"agui.thread_id": "t-otel", "agui.run_id": "r-otel", "agui.run.outcome": "success"})
	if attrs(run)["agui.events.count"] == "" {
		t.Error("agui.run carries no agui.events.count")
	}
	invoke := tr.child(t, "invoke_agent scripted-agent", tracepb.Span_SPAN_KIND_INTERNAL, run)
	wantAttrs(t, invoke, map[string]string{"gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "scripted-agent",
		"gen_ai.provider.name": "_OTHER", "gen_ai.conversation.id": "t-otel"})
	client := tr.child(t, "SendStreamingMessage", tracepb.Span_SPAN_KIND_CLIENT, invoke)
	// The trace context crossed HTTP: the A2A server's span is the A2A
	// client's child.
	server := tr.child(t, "SendStreamingMessage", tracepb.Span_SPAN_KIND_SERVER, client)
	wantAttrs(t, server, map[string]string{"rpc.method": "SendStreamingMessage", "a2a.protocol.binding": "JSONRPC",
		"a2a.task.state": "TASK_STATE_COMPLETED", "gen_ai.agent.name": "scripted-agent", "a2a.protocol.version": a2a.ProtocolVersion})
	task := attrs(server)["a2a.task.id"]
	if task == "" || attrs(client)["a2a.task.id"] != task {
		t.Errorf("the task's id on the client %q and the server %q", attrs(client)["a2a.task.id"], task)
	}
	executor := tr.child(t, "invoke_agent scripted-agent", tracepb.Span_SPAN_KIND_INTERNAL, server)
	wantAttrs(t, executor, map[string]string{"a2a.task.id": task})
	var states []string
	for _, ev := range executor.Events {
		if ev.Name == "a2a.task.status_update" {
			states = append(states, anyValue(ev.Attributes[0].Value))
		}
	}
	if !slices.Contains(states, "TASK_STATE_COMPLETED") {
		t.Errorf("the task's states on its executor's span: %v", states)
	}
	// The bridge runs the scripted agent as an AG-UI run of its own.
	inner := tr.child(t, "agui.run", tracepb.Span_SPAN_KIND_INTERNAL, executor)
	tool := tr.find(t, "execute_tool get_weather", tracepb.Span_SPAN_KIND_INTERNAL, inner)
	wantAttrs(t, tool, map[string]string{"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "get_weather"})

	for _, name := range []string{"agui.server.run.duration", "agui.server.events", "agui.server.active_runs", "rpc.server.call.duration", "rpc.client.call.duration", "a2a.task.transitions", "a2a.server.stream.events"} {
		if rec.metrics[name] == nil {
			t.Errorf("no metric %s among %d", name, len(rec.metrics))
		}
	}
}

// TestTelemetryOffByDefault: without the OTEL_* variables that ask for an
// exporter, the global providers stay OpenTelemetry's no-ops.
func TestTelemetryOffByDefault(t *testing.T) {
	for _, v := range []string{"OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "OTEL_EXPORTER_OTLP_METRICS_ENDPOINT",
		"OTEL_TRACES_EXPORTER", "OTEL_METRICS_EXPORTER"} {
		t.Setenv(v, "")
	}
	shutdown, err := setupTelemetry(context.Background(), slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer shutdown(context.Background())
	if _, span := otel.Tracer("test").Start(context.Background(), "probe"); span.IsRecording() {
		t.Error("a span records with no exporter asked for")
	}
}
