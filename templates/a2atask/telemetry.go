package a2atask

// This file is written against the generated package gen/a2a; the
// generator copies it into the a2atask subpackage of its output.

import (
	"context"
	"net/url"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/baggage"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/trace"

	a2a "github.com/agui-gen/agui-gen/gen/a2a"
)

// instrumentationScope names the tracer and meter of the task runtime.
const instrumentationScope = "agui-gen/a2a/a2atask"

const (
	attrErrorType   = attribute.Key("error.type")
	attrTaskID      = attribute.Key("a2a.task.id")
	attrTaskState   = attribute.Key("a2a.task.state")
	attrPushOutcome = attribute.Key("a2a.push.outcome")
)

// WithTelemetry sends the runtime's traces and metrics where t says
// (default: OpenTelemetry's global providers). An executor runs in a span
// invoke_agent, child of the span of the call that started its run (the
// server's, a2a.WithTelemetry), with an event for each state its task
// enters; the runtime counts the states tasks enter and its push
// deliveries.
func WithTelemetry(t *a2a.Telemetry) Option { return func(rt *Runtime) { rt.tel = t } }

// taskObserver holds the runtime's instruments.
type taskObserver struct {
	tel          *a2a.Telemetry
	tracer       trace.Tracer
	transitions  metric.Int64Counter
	pushAttempts metric.Int64Counter
}

func newTaskObserver(t *a2a.Telemetry) *taskObserver {
	m := t.Meter(instrumentationScope)
	o := &taskObserver{tel: t, tracer: t.Tracer(instrumentationScope)}
	// An instrument the SDK refuses is a no-op one: telemetry must not stop
	// a server.
	o.transitions, _ = m.Int64Counter("a2a.task.transitions", metric.WithUnit("{transition}"),
		metric.WithDescription("The states tasks entered (a2a.task.state)."))
	o.pushAttempts, _ = m.Int64Counter("a2a.push.deliveries", metric.WithUnit("{delivery}"),
		metric.WithDescription("Push notification deliveries attempted, by outcome (a2a.push.outcome: delivered or failed)."))
	return o
}

// transition counts the state a task entered with ev, when it entered one:
// its first state with the task itself, any other with a status update.
func (o *taskObserver) transition(ev *a2a.StreamResponse) {
	if !o.tel.Metering() {
		return
	}
	state, _, ok := EventStatus(ev)
	if p, isTask := ev.Payload.(*a2a.StreamResponseTask); isTask && p.Task.Status != nil {
		state, ok = p.Task.Status.State, true
	}
	if ok {
		o.transitions.Add(context.Background(), 1, metric.WithAttributes(attrTaskState.String(state.String())))
	}
}

// startPush starts the span of one push notification to cfg's webhook,
// child of parent (the span of the task's run, when this process runs it).
func (o *taskObserver) startPush(ctx context.Context, parent trace.SpanContext, taskID string, cfg *a2a.TaskPushNotificationConfig) (context.Context, trace.Span) {
	ctx = trace.ContextWithSpanContext(ctx, parent)
	if !o.tel.Tracing() {
		return ctx, nil
	}
	ctx, span := o.tracer.Start(ctx, "a2a.push", trace.WithSpanKind(trace.SpanKindClient))
	if span.IsRecording() {
		span.SetAttributes(attrTaskID.String(taskID), attribute.String("a2a.push.config_id", cfg.ID))
		if u, err := url.Parse(cfg.URL); err == nil {
			span.SetAttributes(attribute.String("server.address", u.Hostname()))
		}
	}
	return ctx, span
}

// endPush ends a push notification's span, counting its outcome.
func (o *taskObserver) endPush(span trace.Span, err error) {
	outcome := "delivered"
	if err != nil {
		outcome = "failed"
	}
	if span != nil {
		if err != nil {
			span.SetStatus(codes.Error, err.Error())
		}
		span.SetAttributes(attrPushOutcome.String(outcome))
		span.End()
	}
	if o.tel.Metering() {
		o.pushAttempts.Add(context.Background(), 1, metric.WithAttributes(attrPushOutcome.String(outcome)))
	}
}

// runTrace is the span context of the run of task id in this process, or
// the empty one.
func (rt *Runtime) runTrace(id string) trace.SpanContext {
	if sc, ok := rt.traces.Load(id); ok {
		return sc.(trace.SpanContext)
	}
	return trace.SpanContext{}
}

// traceParent is what a run keeps of the call that started it: the span
// its executor's span is the child of, the baggage, and the name of the
// agent the call was made to (its card's).
type traceParent struct {
	span    trace.SpanContext
	baggage baggage.Baggage
	agent   string
}

func traceParentOf(ctx context.Context) traceParent {
	p := traceParent{span: trace.SpanContextFromContext(ctx), baggage: baggage.FromContext(ctx)}
	if info := a2a.CallInfoFrom(ctx); info != nil && info.Card != nil {
		p.agent = info.Card.Name
	}
	return p
}

// startAgent starts the invoke_agent span of run's executor in ctx, the
// run's own context, under the call that started the run.
func (o *taskObserver) startAgent(ctx context.Context, run *Run) (context.Context, trace.Span) {
	if run.parent.baggage.Len() > 0 {
		ctx = baggage.ContextWithBaggage(ctx, run.parent.baggage)
	}
	ctx = trace.ContextWithSpanContext(ctx, run.parent.span)
	if !o.tel.Tracing() {
		return ctx, nil // the call's trace context still reaches the executor's calls
	}
	ctx, span := o.tel.StartAgent(ctx, o.tracer, run.parent.agent, run.task.ContextID)
	if span.IsRecording() {
		span.SetAttributes(attrTaskID.String(run.task.ID))
	}
	return ctx, span
}

// endAgent ends the executor's span, if it has one, with its error.
func endAgent(span trace.Span, err error) {
	if span == nil {
		return
	}
	if err != nil {
		span.SetStatus(codes.Error, err.Error())
		span.SetAttributes(attrErrorType.String("executor_error"))
	}
	span.End()
}

// stateEvent marks on the run's span the state its task entered.
func (r *Run) stateEvent(state a2a.TaskState) {
	if r.span != nil {
		r.span.AddEvent("a2a.task.status_update", trace.WithAttributes(attrTaskState.String(state.String())))
	}
}
