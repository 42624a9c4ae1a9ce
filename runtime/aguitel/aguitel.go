// Package aguitel is the telemetry of AG-UI runs: the agui.run span of a
// run a handler serves or a client sends, the agent's invoke_agent span and
// a tool call's execute_tool span, and the agui.server.* metrics. It takes
// what it records as strings and ids; the generated package tells it what
// each event means (its type, a run's outcome, a tool call's start and
// result), so nothing here knows an event type.
package aguitel

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

	"github.com/agui-gen/agui-gen/runtime/aguihttp"
	"github.com/agui-gen/agui-gen/runtime/telemetry"
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

// Observer holds the instruments of a handler.
type Observer struct {
	tel        *telemetry.Telemetry
	agent      string // the agent's name on its spans, unless tel names one (WithAgentName)
	tracer     trace.Tracer
	duration   metric.Float64Histogram
	active     metric.Int64UpDownCounter
	events     metric.Int64Counter
	metaEvents metric.Int64Counter
}

// NewObserver makes the instruments of a handler that records to t,
// naming its agent agentName on its spans unless t names one.
func NewObserver(t *telemetry.Telemetry, agentName string) *Observer {
	m := t.Meter(instrumentationScope)
	o := &Observer{tel: t, agent: agentName, tracer: t.Tracer(instrumentationScope)}
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

// Run is the telemetry of one run: its span, its agent's, the
// tool calls open, and what its events come to. A run has none (nil) when
// neither spans nor metrics are recorded: every method does nothing then.
type Run struct {
	obs       *Observer
	ctx       context.Context // holds the agui.run span
	span      trace.Span      // nil when spans are not recorded
	agent     trace.Span
	agentCtx  context.Context
	metering  bool
	start     time.Time
	events    int64
	byType    map[string]int64
	tools     map[string]trace.Span
	outcome   string
	errorType string
}

// internalKind is the kind of the runtime's spans, made once.
var internalKind = trace.WithSpanKind(trace.SpanKindInternal)

// StartRun starts the telemetry of a run: ctx with the trace context header
// carries (unless ctx holds a span already), and the run's span in it.
func (o *Observer) StartRun(ctx context.Context, header http.Header, threadID, runID string, parentRunID *string) (context.Context, *Run) {
	ctx = o.tel.Extract(ctx, header)
	tracing, metering := o.tel.Tracing(), o.tel.Metering()
	if !tracing && !metering {
		return ctx, nil
	}
	rt := &Run{obs: o, ctx: ctx, metering: metering, start: time.Now(), byType: map[string]int64{}, outcome: "incomplete"}
	if tracing {
		rt.ctx, rt.span = o.tracer.Start(ctx, "agui.run", internalKind)
		if rt.span.IsRecording() {
			rt.span.SetAttributes(attrThreadID.String(threadID), attrRunID.String(runID))
			if parentRunID != nil {
				rt.span.SetAttributes(attrParentRunID.String(*parentRunID))
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

// CarryTrace is to with the trace context of from (its span, or the
// remote one it was given, and its baggage): what a run's agent passes on
// in the calls it makes.
func CarryTrace(to, from context.Context) context.Context {
	if span := trace.SpanFromContext(from); span.SpanContext().IsValid() {
		to = trace.ContextWithSpan(to, span)
	}
	if b := baggage.FromContext(from); b.Len() > 0 {
		to = baggage.ContextWithBaggage(to, b)
	}
	return to
}

// StartAgent starts the invoke_agent span in ctx, the agent's context,
// under the run's span, and returns ctx with it.
func (rt *Run) StartAgent(ctx context.Context, threadID string) context.Context {
	if rt == nil || rt.span == nil {
		return ctx
	}
	rt.agentCtx, rt.agent = rt.obs.tel.StartAgent(trace.ContextWithSpan(ctx, rt.span), rt.obs.tracer, rt.obs.agent, threadID)
	return rt.agentCtx
}

// EndAgent ends the invoke_agent span with the agent's error, whose code
// (a RunError's, or "") is errorType.
func (rt *Run) EndAgent(err error, errorType string) {
	if rt == nil || rt.agent == nil {
		return
	}
	if err != nil {
		rt.agent.SetStatus(codes.Error, err.Error())
		rt.agent.SetAttributes(attrErrorType.String(errorType))
	}
	rt.agent.End()
}

// Event counts one event the run sends, of type typ. The stream's lock is
// held: one run's calls never race.
func (rt *Run) Event(typ string) {
	rt.events++
	if rt.metering {
		rt.byType[typ]++
	}
}

// Outcome sets what the run came to: its RUN_FINISHED outcome, or "error"
// with the error.type of a RUN_ERROR.
func (rt *Run) Outcome(outcome, errorType string) {
	rt.outcome, rt.errorType = outcome, errorType
}

// EndTool ends the execute_tool span of a tool call, at its result.
func (rt *Run) EndTool(id string) {
	if span, ok := rt.tools[id]; ok {
		span.End()
		delete(rt.tools, id)
	}
}

// StartTool starts the execute_tool span of a tool call, which its result
// ends, or the run's end when none comes in it (a tool the client runs).
func (rt *Run) StartTool(id, name string) {
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

// End ends the run's span and records what the run came to.
func (rt *Run) End() {
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

// StartClientRun starts the span of a run a client sends.
func StartClientRun(ctx context.Context, tel *telemetry.Telemetry, threadID, runID string) (context.Context, trace.Span) {
	if !tel.Tracing() {
		return ctx, nil
	}
	ctx, span := tel.Tracer(instrumentationScope).Start(ctx, "agui.run", clientKind)
	if span.IsRecording() {
		span.SetAttributes(attrThreadID.String(threadID), attrRunID.String(runID))
	}
	return ctx, span
}

var clientKind = trace.WithSpanKind(trace.SpanKindClient)

// EndClientRun ends a client's run span, if it has one, with err, unless it is
// the stream's clean end (io.EOF).
func EndClientRun(span trace.Span, err error) {
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

// MetaEvent counts a META event taken in, of type metaType.
func (o *Observer) MetaEvent(ctx context.Context, metaType string) {
	o.metaEvents.Add(ctx, 1, metric.WithAttributes(attrMetaType.String(metaType)))
}
