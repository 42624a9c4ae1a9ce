package a2acall

import (
	"context"
	"io"
	"iter"
	"strconv"
	"sync"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/trace"

	"github.com/agui-gen/agui-gen/runtime/a2arpc"
	"github.com/agui-gen/agui-gen/runtime/telemetry"
)

// instrumentationScope names the tracer and meter of the A2A runtime.
const instrumentationScope = "agui-gen/a2a"

// The attributes of the A2A spans (semantic conventions for GenAI, the A2A
// draft), and of this runtime's metrics.
const (
	attrRPCSystem       = attribute.Key("rpc.system.name")
	attrRPCMethod       = attribute.Key("rpc.method")
	attrRPCStatus       = attribute.Key("rpc.response.status_code")
	attrA2AVersion      = attribute.Key("a2a.protocol.version")
	attrA2ABinding      = attribute.Key("a2a.protocol.binding")
	attrA2ATaskID       = attribute.Key("a2a.task.id")
	attrA2ATaskState    = attribute.Key("a2a.task.state")
	attrA2AMessageID    = attribute.Key("a2a.message.id")
	attrA2ATenant       = attribute.Key("a2a.tenant")
	attrA2AReferenceIDs = attribute.Key("a2a.message.reference_task_ids")
	attrA2AEventType    = attribute.Key("a2a.event.type")
	attrAgentName       = attribute.Key("gen_ai.agent.name")
	attrAgentDesc       = attribute.Key("gen_ai.agent.description")
	attrAgentVersion    = attribute.Key("gen_ai.agent.version")
	attrConversationID  = attribute.Key("gen_ai.conversation.id")
	attrErrorType       = attribute.Key("error.type")
)

// callObserver holds the instruments of one Telemetry.
type callObserver struct {
	tel            *telemetry.Telemetry
	tracer         trace.Tracer
	serverDuration metric.Float64Histogram
	clientDuration metric.Float64Histogram
	activeStreams  metric.Int64UpDownCounter
	streamEvents   metric.Int64Counter
	// series holds the attributes of each metric series met so far, by
	// seriesKey, made once: a measurement then allocates nothing.
	series sync.Map
}

// observers are the callObservers made so far, by Telemetry; nil's uses the
// global providers, which forward to whatever SDK is installed later.
var observers sync.Map // *telemetry.Telemetry → *callObserver

func observerOf(t *telemetry.Telemetry) *callObserver {
	if o, ok := observers.Load(t); ok {
		return o.(*callObserver)
	}
	o, _ := observers.LoadOrStore(t, newCallObserver(t))
	return o.(*callObserver)
}

func newCallObserver(t *telemetry.Telemetry) *callObserver {
	m := t.Meter(instrumentationScope)
	o := &callObserver{tel: t, tracer: t.Tracer(instrumentationScope)}
	// An instrument the SDK refuses is a no-op one: telemetry must not stop
	// a server.
	o.serverDuration, _ = m.Float64Histogram("rpc.server.call.duration", metric.WithUnit("s"),
		metric.WithDescription("Measures the duration of an incoming Remote Procedure Call (RPC)."))
	o.clientDuration, _ = m.Float64Histogram("rpc.client.call.duration", metric.WithUnit("s"),
		metric.WithDescription("Measures the duration of an outgoing Remote Procedure Call (RPC)."))
	o.activeStreams, _ = m.Int64UpDownCounter("a2a.server.active_streams", metric.WithUnit("{stream}"),
		metric.WithDescription("Streaming calls in progress."))
	o.streamEvents, _ = m.Int64Counter("a2a.server.stream.events", metric.WithUnit("{event}"),
		metric.WithDescription("Messages sent on streaming calls."))
	return o
}

// seriesKey names a metric series: a method on a binding, with the status
// of its answer or the type of a streamed event when the series has one.
type seriesKey struct{ method, binding, status, event string }

// attributes are the attributes of series k, as a measurement option.
func (o *callObserver) attributes(k seriesKey) metric.MeasurementOption {
	if opt, ok := o.series.Load(k); ok {
		return opt.(metric.MeasurementOption)
	}
	attrs := []attribute.KeyValue{attrRPCSystem.String("a2a"), attrRPCMethod.String(k.method)}
	if k.binding != "" {
		attrs = append(attrs, attrA2ABinding.String(k.binding))
	}
	if k.status != "" {
		attrs = append(attrs, attrRPCStatus.String(k.status))
		if k.status != "OK" {
			attrs = append(attrs, attrErrorType.String(k.status))
		}
	}
	if k.event != "" {
		attrs = append(attrs, attrA2AEventType.String(k.event))
	}
	opt, _ := o.series.LoadOrStore(k, metric.WithAttributeSet(attribute.NewSet(attrs...)))
	return opt.(metric.MeasurementOption)
}

// The span kinds, made once.
var (
	serverKind = trace.WithSpanKind(trace.SpanKindServer)
	clientKind = trace.WithSpanKind(trace.SpanKindClient)
)

// call is the telemetry of one call, served or made: its span, when spans
// are recorded, and its start, when metrics are.
type call struct {
	obs     *callObserver
	ctx     context.Context
	span    trace.Span
	start   time.Time
	method  string
	binding string
	server  bool
}

// startCall starts the telemetry of a call of m on binding, in ctx, as kind.
func startCall[C comparable](o *callObserver, ctx context.Context, spec *Spec[C], kind trace.SpanStartOption, m *a2arpc.MethodDesc, binding string, req a2arpc.ProtoValue) call {
	c := call{obs: o, ctx: ctx, method: m.Name, binding: binding}
	if o.tel.Metering() {
		c.start = time.Now()
	}
	if o.tel.Tracing() {
		c.ctx, c.span = o.tracer.Start(ctx, m.Name, kind)
		if c.span.IsRecording() {
			c.span.SetAttributes(attrRPCSystem.String("a2a"), attrRPCMethod.String(m.Name), attrA2ABinding.String(binding))
			c.span.SetAttributes(requestAttrs(spec.Request(req))...)
		} else {
			c.span = nil
		}
	}
	return c
}

// startServer starts the telemetry of a call a server serves, child of the
// trace context of its request.
func startServer[C comparable](o *callObserver, ctx context.Context, spec *Spec[C], info *CallInfo[C], m *a2arpc.MethodDesc, req a2arpc.ProtoValue) call {
	c := startCall(o, o.tel.Extract(ctx, info.Header), spec, serverKind, m, info.Binding, req)
	c.server = true
	if c.span != nil {
		c.span.SetAttributes(attrA2AVersion.String(info.Version))
		c.span.SetAttributes(cardAttrs(spec, info.Card)...)
	}
	return c
}

// end ends the call's span and records its duration, with err its outcome
// and resp, when there is one, its answer.
func endCall[C comparable](c *call, spec *Spec[C], resp a2arpc.ProtoValue, err error) {
	if c.span == nil && c.start.IsZero() {
		return
	}
	status := "OK"
	if err != nil {
		status = errorStatus(c.binding, a2arpc.AsRPCError(err))
	}
	if c.span != nil {
		c.span.SetAttributes(attrRPCStatus.String(status))
		if err != nil {
			c.span.SetAttributes(attrErrorType.String(status))
			c.span.SetStatus(codes.Error, err.Error())
		}
		if resp != nil {
			c.span.SetAttributes(responseAttrs(spec.Response(resp))...)
		}
		c.span.End()
	}
	if !c.start.IsZero() {
		duration := c.obs.clientDuration
		if c.server {
			duration = c.obs.serverDuration
		}
		duration.Record(c.ctx, time.Since(c.start).Seconds(), c.obs.attributes(seriesKey{method: c.method, binding: c.binding, status: status}))
	}
}

// observeSend wraps the send of a streaming call a server serves: each
// message counted, and its task's id and state, and each change of the
// state, on the span.
func observeSend[C comparable](c *call, spec *Spec[C], send func(a2arpc.ProtoValue) error) func(a2arpc.ProtoValue) error {
	if c.span == nil && c.start.IsZero() {
		return send
	}
	if !c.start.IsZero() {
		c.obs.activeStreams.Add(c.ctx, 1, c.obs.attributes(seriesKey{method: c.method, binding: c.binding}))
	}
	return func(m a2arpc.ProtoValue) error {
		err := send(m)
		if err != nil {
			return err
		}
		if f, ok := spec.Event(m); ok {
			if !c.start.IsZero() {
				c.obs.streamEvents.Add(c.ctx, 1, c.obs.attributes(seriesKey{method: c.method, event: f.Event}))
			}
			c.taskEvent(&f)
		}
		return nil
	}
}

// endStream ends what observeSend began.
func (c *call) endStream() {
	if !c.start.IsZero() {
		c.obs.activeStreams.Add(c.ctx, -1, c.obs.attributes(seriesKey{method: c.method, binding: c.binding}))
	}
}

// taskEvent puts what a streamed message says of its task on the span: a
// task's attributes, or a status update's task and state, with an event
// for the change of state.
func (c *call) taskEvent(f *Facts) {
	if c.span == nil {
		return
	}
	switch {
	case f.Task:
		c.span.SetAttributes(taskAttrs(f)...)
	case f.Event == "status_update" && f.State != "":
		state := attrA2ATaskState.String(f.State)
		c.span.SetAttributes(attrA2ATaskID.String(f.TaskID), state)
		c.span.AddEvent("a2a.task.status_update", trace.WithAttributes(state))
	}
}

// errorStatus is an error's code as its binding writes it: the JSON-RPC
// code, the HTTP status, or the gRPC status name.
func errorStatus(binding string, e *a2arpc.RPCError) string {
	switch binding {
	case a2arpc.BindingHTTPJSON:
		return strconv.Itoa(e.HTTPStatus())
	case a2arpc.BindingGRPC:
		return e.Status()
	}
	return strconv.Itoa(e.Code)
}

// cardAttrs are the gen_ai.agent attributes of the agent a card describes.
func cardAttrs[C comparable](spec *Spec[C], card C) []attribute.KeyValue {
	var none C
	if card == none {
		return nil
	}
	name, desc, version := spec.Agent(card)
	attrs := []attribute.KeyValue{attrAgentName.String(name)}
	if desc != "" {
		attrs = append(attrs, attrAgentDesc.String(desc))
	}
	if version != "" {
		attrs = append(attrs, attrAgentVersion.String(version))
	}
	return attrs
}

// requestAttrs are what a request says of its task, message and tenant.
func requestAttrs(f Facts) []attribute.KeyValue {
	var attrs []attribute.KeyValue
	add := func(k attribute.Key, v string) {
		if v != "" {
			attrs = append(attrs, k.String(v))
		}
	}
	add(attrA2ATenant, f.Tenant)
	add(attrA2AMessageID, f.MessageID)
	add(attrA2ATaskID, f.TaskID)
	add(attrConversationID, f.ContextID)
	if len(f.ReferenceTaskIDs) > 0 {
		attrs = append(attrs, attrA2AReferenceIDs.StringSlice(f.ReferenceTaskIDs))
	}
	return attrs
}

// responseAttrs are what an answer says of its task or message.
func responseAttrs(f Facts) []attribute.KeyValue {
	switch {
	case f.Task:
		return taskAttrs(&f)
	case f.Event == "message":
		return []attribute.KeyValue{attrA2AMessageID.String(f.MessageID)}
	}
	return nil
}

func taskAttrs(f *Facts) []attribute.KeyValue {
	attrs := []attribute.KeyValue{attrA2ATaskID.String(f.TaskID), attrConversationID.String(f.ContextID)}
	if f.State != "" {
		attrs = append(attrs, attrA2ATaskState.String(f.State))
	}
	return attrs
}

// observedTransport is a client transport whose calls are spans and
// whose requests carry their trace context.
type observedTransport[C comparable] struct {
	a2arpc.Transport
	spec    *Spec[C]
	obs     *callObserver
	binding string
}

// ObserveTransport makes each call of t, a transport of binding, a span
// of kind CLIENT, and records its duration, where tel says (nil: the global
// providers). t must write the trace context of each call's context on its
// requests (InjectTraceContext). The transports of this package and of
// a2agrpc come observed.
func ObserveTransport[C comparable](spec *Spec[C], t a2arpc.Transport, binding string, tel *telemetry.Telemetry) a2arpc.Transport {
	return &observedTransport[C]{Transport: t, spec: spec, obs: observerOf(tel), binding: binding}
}

// Close closes the transport beneath, when it is an io.Closer (one
// a2agrpc.WithGRPC dialled), and does nothing otherwise.
func (t *observedTransport[C]) Close() error {
	if c, ok := t.Transport.(io.Closer); ok {
		return c.Close()
	}
	return nil
}

func (t *observedTransport[C]) Call(ctx context.Context, m *a2arpc.MethodDesc, req, resp a2arpc.ProtoValue) error {
	c := startCall(t.obs, ctx, t.spec, clientKind, m, t.binding, req)
	err := t.Transport.Call(c.ctx, m, req, resp)
	if err != nil {
		resp = nil
	}
	endCall(&c, t.spec, resp, err)
	return err
}

func (t *observedTransport[C]) Stream(ctx context.Context, m *a2arpc.MethodDesc, req a2arpc.ProtoValue) iter.Seq2[a2arpc.ProtoValue, error] {
	return t.stream(ctx, m, req, nil)
}

func (t *observedTransport[C]) StreamReusing(ctx context.Context, m *a2arpc.MethodDesc, req a2arpc.ProtoValue, resp a2arpc.ReusableValue) iter.Seq2[a2arpc.ProtoValue, error] {
	return t.stream(ctx, m, req, resp)
}

// stream observes a stream of the transport beneath: one that decodes
// into reuse when it is not nil.
func (t *observedTransport[C]) stream(ctx context.Context, m *a2arpc.MethodDesc, req a2arpc.ProtoValue, reuse a2arpc.ReusableValue) iter.Seq2[a2arpc.ProtoValue, error] {
	return func(yield func(a2arpc.ProtoValue, error) bool) {
		c := startCall(t.obs, ctx, t.spec, clientKind, m, t.binding, req)
		var failed error
		defer func() { endCall(&c, t.spec, nil, failed) }()
		var messages iter.Seq2[a2arpc.ProtoValue, error]
		if reuse != nil {
			messages = a2arpc.StreamReusing(c.ctx, t.Transport, m, req, reuse)
		} else {
			messages = t.Transport.Stream(c.ctx, m, req)
		}
		for msg, err := range messages {
			if err != nil {
				failed = err
			} else if f, ok := t.spec.Event(msg); ok {
				c.taskEvent(&f)
			}
			if !yield(msg, err) {
				return
			}
		}
	}
}

// InjectTraceContext writes the trace context of ctx (traceparent,
// tracestate, baggage) through set, as tel's propagator writes it (nil:
// the global propagator): for a transport written outside this package,
// set adds a header or a gRPC metadata entry.
func InjectTraceContext(ctx context.Context, tel *telemetry.Telemetry, set func(key, value string)) {
	tel.TextMapPropagator().Inject(ctx, setterCarrier(set))
}

type setterCarrier func(key, value string)

func (s setterCarrier) Get(string) string     { return "" }
func (s setterCarrier) Set(key, value string) { s(key, value) }
func (s setterCarrier) Keys() []string        { return nil }
