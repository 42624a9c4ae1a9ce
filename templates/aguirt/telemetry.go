package aguirt

import (
	"context"
	"errors"
	"io"
	"net/http"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/baggage"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/trace"

	agui "github.com/agui-gen/agui-gen/gen/agui"
	"github.com/agui-gen/agui-gen/runtime/aguihttp"
)

// instrumentationScope names the tracer and meter of the AG-UI runtime.
const instrumentationScope = "agui-gen/agui"

// The attributes of the AG-UI spans (those of the AG-UI .NET SDK; AG-UI
// has no semantic conventions) and of the GenAI agent and tool spans.
const (
	attrThreadID    = attribute.Key("agui.thread_id")
	attrRunID       = attribute.Key("agui.run_id")
	attrParentRunID = attribute.Key("agui.parent_run_id")
	attrOutcome     = attribute.Key("agui.run.outcome")
	attrEventsCount = attribute.Key("agui.events.count")
	attrEventType   = attribute.Key("agui.event.type")
	attrMetaType    = attribute.Key("agui.meta.type")
	attrErrorType   = attribute.Key("error.type")
	attrOperation   = attribute.Key("gen_ai.operation.name")
	attrToolName    = attribute.Key("gen_ai.tool.name")
	attrToolCallID  = attribute.Key("gen_ai.tool.call.id")
)

// WithTelemetry sends the handler's traces and metrics where t says
// (default: OpenTelemetry's global providers). Each run is a span
// agui.run, child of the trace context of its request (traceparent), with
// the agent's work in a span invoke_agent inside it and each tool call the
// agent makes in a span execute_tool inside that.
func WithTelemetry(t *agui.Telemetry) Option { return func(c *handlerConfig) { c.telemetry = t } }

// WithAgentName names the agent on its invoke_agent spans
// (gen_ai.agent.name) when the Telemetry names none: the multi-agent host
// names each agent so.
func WithAgentName(name string) Option { return func(c *handlerConfig) { c.agentName = name } }

// runObserver holds the instruments of a handler.
type runObserver struct {
	tel        *agui.Telemetry
	agent      string // the agent's name on its spans, unless tel names one (WithAgentName)
	tracer     trace.Tracer
	duration   metric.Float64Histogram
	active     metric.Int64UpDownCounter
	events     metric.Int64Counter
	metaEvents metric.Int64Counter
}

func newRunObserver(t *agui.Telemetry, agentName string) *runObserver {
	m := t.Meter(instrumentationScope)
	o := &runObserver{tel: t, agent: agentName, tracer: t.Tracer(instrumentationScope)}
	// An instrument the SDK refuses is a no-op one: telemetry must not stop
	// a server.
	o.duration, _ = m.Float64Histogram("agui.server.run.duration", metric.WithUnit("s"),
		metric.WithDescription("The duration of AG-UI runs, from the request to the run's last event."))
	o.active, _ = m.Int64UpDownCounter("agui.server.active_runs", metric.WithUnit("{run}"),
		metric.WithDescription("AG-UI runs in progress."))
	o.events, _ = m.Int64Counter("agui.server.events", metric.WithUnit("{event}"),
		metric.WithDescription("AG-UI events sent to clients."))
	o.metaEvents, _ = m.Int64Counter("agui.server.meta_events", metric.WithUnit("{event}"),
		metric.WithDescription("META events taken in."))
	return o
}

// runTelemetry is the telemetry of one run: its span, its agent's, the
// tool calls open, and what its events come to. A run has none (nil) when
// neither spans nor metrics are recorded: every method does nothing then.
type runTelemetry struct {
	obs       *runObserver
	ctx       context.Context // holds the agui.run span
	span      trace.Span      // nil when spans are not recorded
	agent     trace.Span
	agentCtx  context.Context
	metering  bool
	start     time.Time
	events    int64
	byType    map[agui.EventType]int64
	tools     map[string]trace.Span
	outcome   string
	errorType string
}

// internalKind is the kind of the runtime's spans, made once.
var internalKind = trace.WithSpanKind(trace.SpanKindInternal)

// startRun starts the telemetry of a run: ctx with the trace context header
// carries (unless ctx holds a span already), and the run's span in it.
func (o *runObserver) startRun(ctx context.Context, header http.Header, input *agui.RunAgentInput) (context.Context, *runTelemetry) {
	ctx = o.tel.Extract(ctx, header)
	tracing, metering := o.tel.Tracing(), o.tel.Metering()
	if !tracing && !metering {
		return ctx, nil
	}
	rt := &runTelemetry{obs: o, ctx: ctx, metering: metering, start: time.Now(), byType: map[agui.EventType]int64{}, outcome: "incomplete"}
	if tracing {
		rt.ctx, rt.span = o.tracer.Start(ctx, "agui.run", internalKind)
		if rt.span.IsRecording() {
			rt.span.SetAttributes(attrThreadID.String(input.ThreadID), attrRunID.String(input.RunID))
			if input.ParentRunID != nil {
				rt.span.SetAttributes(attrParentRunID.String(*input.ParentRunID))
			}
		} else {
			rt.span = nil
		}
	}
	if metering {
		o.active.Add(rt.ctx, 1)
	}
	return rt.ctx, rt
}

// carryTrace is to with the trace context of from (its span, or the
// remote one it was given, and its baggage): what a run's agent passes on
// in the calls it makes.
func carryTrace(to, from context.Context) context.Context {
	if span := trace.SpanFromContext(from); span.SpanContext().IsValid() {
		to = trace.ContextWithSpan(to, span)
	}
	if b := baggage.FromContext(from); b.Len() > 0 {
		to = baggage.ContextWithBaggage(to, b)
	}
	return to
}

// startAgent starts the invoke_agent span in ctx, the agent's context,
// under the run's span, and returns ctx with it.
func (rt *runTelemetry) startAgent(ctx context.Context, input *agui.RunAgentInput) context.Context {
	if rt == nil || rt.span == nil {
		return ctx
	}
	rt.agentCtx, rt.agent = rt.obs.tel.StartAgent(trace.ContextWithSpan(ctx, rt.span), rt.obs.tracer, rt.obs.agent, input.ThreadID)
	return rt.agentCtx
}

// endAgent ends the invoke_agent span with the agent's error.
func (rt *runTelemetry) endAgent(err error) {
	if rt == nil || rt.agent == nil {
		return
	}
	if err != nil {
		rt.agent.SetStatus(codes.Error, err.Error())
		rt.agent.SetAttributes(attrErrorType.String(errorCode(err)))
	}
	rt.agent.End()
}

// event takes one event the run sends: counted, and its tool calls made
// spans and its end the run's outcome. The stream's lock is held.
func (rt *runTelemetry) event(ev agui.Event) {
	rt.events++
	if rt.metering {
		rt.byType[ev.Type()]++
	}
	switch e := ev.(type) {
	case *agui.RunFinishedEvent:
		rt.outcome = "success"
		if e.Outcome != nil {
			rt.outcome = e.Outcome.Type()
		}
	case *agui.RunErrorEvent:
		rt.outcome, rt.errorType = "error", "run_error"
		if e.Code != nil {
			rt.errorType = *e.Code
		}
	case *agui.ToolCallStartEvent:
		rt.startTool(e.ToolCallID, e.ToolCallName)
	case *agui.ToolCallChunkEvent:
		if e.ToolCallID != nil && e.ToolCallName != nil {
			rt.startTool(*e.ToolCallID, *e.ToolCallName)
		}
	case *agui.ToolCallResultEvent:
		if span, ok := rt.tools[e.ToolCallID]; ok {
			span.End()
			delete(rt.tools, e.ToolCallID)
		}
	}
}

// startTool starts the execute_tool span of a tool call, which its result
// ends, or the run's end when none comes in it (a tool the client runs).
func (rt *runTelemetry) startTool(id, name string) {
	if rt.span == nil {
		return
	}
	parent := rt.agentCtx
	if parent == nil {
		parent = rt.ctx
	}
	_, span := rt.obs.tracer.Start(parent, "execute_tool "+name, internalKind,
		trace.WithAttributes(attrOperation.String("execute_tool"), attrToolName.String(name), attrToolCallID.String(id)))
	if rt.tools == nil {
		rt.tools = map[string]trace.Span{}
	}
	rt.tools[id] = span
}

// end ends the run's span and records what the run came to.
func (rt *runTelemetry) end() {
	if rt == nil {
		return
	}
	outcome := []attribute.KeyValue{attrOutcome.String(rt.outcome)}
	if rt.errorType != "" {
		outcome = append(outcome, attrErrorType.String(rt.errorType))
	}
	if rt.span != nil {
		for _, span := range rt.tools {
			span.End()
		}
		if rt.errorType != "" {
			rt.span.SetStatus(codes.Error, rt.errorType)
		}
		rt.span.SetAttributes(append(outcome, attrEventsCount.Int64(rt.events))...)
		rt.span.End()
	}
	if rt.metering {
		rt.obs.active.Add(rt.ctx, -1)
		rt.obs.duration.Record(rt.ctx, time.Since(rt.start).Seconds(), metric.WithAttributes(outcome...))
		for typ, n := range rt.byType {
			rt.obs.events.Add(rt.ctx, n, metric.WithAttributes(attrEventType.String(string(typ))))
		}
	}
}

// startClientRun starts the span of a run a Client sends.
func startClientRun(ctx context.Context, tel *agui.Telemetry, input *agui.RunAgentInput) (context.Context, trace.Span) {
	if !tel.Tracing() {
		return ctx, nil
	}
	ctx, span := tel.Tracer(instrumentationScope).Start(ctx, "agui.run", clientKind)
	if span.IsRecording() {
		span.SetAttributes(attrThreadID.String(input.ThreadID), attrRunID.String(input.RunID))
	}
	return ctx, span
}

var clientKind = trace.WithSpanKind(trace.SpanKindClient)

// endSpan ends a client's run span, if it has one, with err, unless it is
// the stream's clean end (io.EOF).
func endSpan(span trace.Span, err error) {
	if span == nil {
		return
	}
	if err != nil && !errors.Is(err, io.EOF) {
		span.SetStatus(codes.Error, err.Error())
		if span.IsRecording() {
			span.SetAttributes(attrErrorType.String(aguihttp.ErrorType(err)))
		}
	}
	span.End()
}
