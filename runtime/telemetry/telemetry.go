// Package telemetry is what the A2A and AG-UI runtimes share of their
// OpenTelemetry instrumentation: where traces and metrics go, the name the
// conventions give an agent's provider, and log correlation. The generated
// agui and a2a packages name its Telemetry as theirs (agui.Telemetry and
// a2a.Telemetry are this one type), so one value serves both protocols.
package telemetry

import (
	"context"
	"log/slog"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"
	metricnoop "go.opentelemetry.io/otel/metric/noop"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"
	tracenoop "go.opentelemetry.io/otel/trace/noop"
)

// Telemetry says where a server's or a client's traces and metrics go, and
// how trace context crosses the wire. A nil *Telemetry, and any field left
// nil, take OpenTelemetry's global tracer provider, meter provider and
// propagator, which record nothing and cost next to nothing until a program
// installs an SDK (otel.SetTracerProvider and the like). Make one for a
// program, or a server, and keep it: the runtimes keep the instruments
// they make for each Telemetry they are given.
//
// The names follow the OpenTelemetry semantic conventions for GenAI agent
// spans and the A2A draft beside them (status Development, as of
// semantic-conventions-genai in November 2026); AG-UI has no conventions,
// and its names are those of the AG-UI .NET SDK.
type Telemetry struct {
	TracerProvider trace.TracerProvider
	MeterProvider  metric.MeterProvider
	Propagator     propagation.TextMapPropagator
	// AgentName names the agent on the invoke_agent spans
	// (gen_ai.agent.name) where nothing else does: an A2A server names its
	// agent after its card.
	AgentName string
	// ProviderName is the agent's provider on its spans (gen_ai.provider.name,
	// or gen_ai.system unless OTEL_SEMCONV_STABILITY_OPT_IN holds
	// gen_ai_latest_experimental); default "_OTHER", the conventions' value
	// for a provider they do not list.
	ProviderName string
}

// Tracer is the tracer of scope from t's provider.
func (t *Telemetry) Tracer(scope string) trace.Tracer {
	if t == nil || t.TracerProvider == nil {
		return otel.GetTracerProvider().Tracer(scope)
	}
	return t.TracerProvider.Tracer(scope)
}

// Meter is the meter of scope from t's provider.
func (t *Telemetry) Meter(scope string) metric.Meter {
	if t == nil || t.MeterProvider == nil {
		return otel.GetMeterProvider().Meter(scope)
	}
	return t.MeterProvider.Meter(scope)
}

// TextMapPropagator is the propagator that reads and writes trace context
// on the wire.
func (t *Telemetry) TextMapPropagator() propagation.TextMapPropagator {
	if t == nil || t.Propagator == nil {
		return otel.GetTextMapPropagator()
	}
	return t.Propagator
}

// Tracing reports whether t's spans are recorded anywhere: its
// TracerProvider is not a no-op, or, with none, the program installed a
// tracer provider globally (otel.SetTracerProvider). The runtimes start no
// span when it is false, so that telemetry left off costs next to nothing;
// the trace context a request carries still reaches the calls it makes.
func (t *Telemetry) Tracing() bool {
	tp := otel.GetTracerProvider()
	if t != nil && t.TracerProvider != nil {
		tp = t.TracerProvider
	}
	_, noop := tp.(tracenoop.TracerProvider)
	return tp != unsetTracerProvider && !noop
}

// Metering reports whether t's metrics are recorded anywhere, as Tracing
// does for spans.
func (t *Telemetry) Metering() bool {
	mp := otel.GetMeterProvider()
	if t != nil && t.MeterProvider != nil {
		mp = t.MeterProvider
	}
	_, noop := mp.(metricnoop.MeterProvider)
	return mp != unsetMeterProvider && !noop
}

// The global providers before a program sets its own: OpenTelemetry's
// stand-ins, which record nothing until then.
var (
	unsetTracerProvider = otel.GetTracerProvider()
	unsetMeterProvider  = otel.GetMeterProvider()
)

// Inject writes the trace context of ctx (traceparent, tracestate,
// baggage) into header, as t's propagator writes it.
func (t *Telemetry) Inject(ctx context.Context, header http.Header) {
	t.TextMapPropagator().Inject(ctx, propagation.HeaderCarrier(header))
}

// Extract returns ctx with the trace context header carries, unless ctx is
// inside a span already (an HTTP server's own, say), which then stays the
// parent.
func (t *Telemetry) Extract(ctx context.Context, header http.Header) context.Context {
	if len(header) == 0 || trace.SpanContextFromContext(ctx).IsValid() {
		return ctx
	}
	return t.TextMapPropagator().Extract(ctx, propagation.HeaderCarrier(header))
}

// StartAgent starts, with tracer, the span of an agent's work in ctx:
// invoke_agent, followed by the agent's name (def, unless t names the
// agent), with the GenAI conventions' attributes and the conversation it
// belongs to.
func (t *Telemetry) StartAgent(ctx context.Context, tracer trace.Tracer, def, conversationID string) (context.Context, trace.Span) {
	agent := t.Agent(def)
	name := "invoke_agent"
	if agent != "" {
		name += " " + agent
	}
	ctx, span := tracer.Start(ctx, name, trace.WithSpanKind(trace.SpanKindInternal))
	if span.IsRecording() {
		span.SetAttributes(attribute.String("gen_ai.operation.name", "invoke_agent"), t.Provider(),
			attribute.String("gen_ai.conversation.id", conversationID))
		if agent != "" {
			span.SetAttributes(attribute.String("gen_ai.agent.name", agent))
		}
	}
	return ctx, span
}

// Agent is the name of the agent, or def when t names none.
func (t *Telemetry) Agent(def string) string {
	if t == nil || t.AgentName == "" {
		return def
	}
	return t.AgentName
}

// Provider is the agent's provider under the name the conventions the
// process opted into give it: gen_ai.provider.name in the latest ones,
// gen_ai.system in semantic conventions 1.36 and earlier, the default.
func (t *Telemetry) Provider() attribute.KeyValue {
	name := "_OTHER"
	if t != nil && t.ProviderName != "" {
		name = t.ProviderName
	}
	if LatestGenAIConventions() {
		return attribute.String("gen_ai.provider.name", name)
	}
	return attribute.String("gen_ai.system", name)
}

// LatestGenAIConventions reports whether OTEL_SEMCONV_STABILITY_OPT_IN asks
// for the latest experimental GenAI conventions (gen_ai_latest_experimental),
// read once, as the OpenTelemetry instrumentations read it: a
// comma-separated list.
var LatestGenAIConventions = sync.OnceValue(func() bool {
	return slices.ContainsFunc(strings.Split(os.Getenv("OTEL_SEMCONV_STABILITY_OPT_IN"), ","), func(s string) bool {
		return strings.TrimSpace(s) == "gen_ai_latest_experimental"
	})
})

// LogHandler wraps h so that a record logged with a context that holds a
// span carries the span's trace_id and span_id, for logs and traces to be
// read together.
func LogHandler(h slog.Handler) slog.Handler { return traceLogHandler{h} }

type traceLogHandler struct{ slog.Handler }

func (h traceLogHandler) Handle(ctx context.Context, r slog.Record) error {
	if sc := trace.SpanContextFromContext(ctx); sc.IsValid() {
		r = r.Clone()
		r.AddAttrs(slog.String("trace_id", sc.TraceID().String()), slog.String("span_id", sc.SpanID().String()))
	}
	return h.Handler.Handle(ctx, r)
}

func (h traceLogHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	return traceLogHandler{h.Handler.WithAttrs(attrs)}
}

func (h traceLogHandler) WithGroup(name string) slog.Handler {
	return traceLogHandler{h.Handler.WithGroup(name)}
}
