package a2art

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

	a2a "github.com/agui-gen/agui-gen/gen/a2a"
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

// WithTelemetry sends the server's traces and metrics where t says
// (default: OpenTelemetry's global providers). Each call is a span named
// after its method, of kind SERVER, child of the trace context the request
// carries (traceparent in its HTTP headers or gRPC metadata).
func WithTelemetry(t *a2a.Telemetry) ServerOption { return func(c *serverConfig) { c.telemetry = t } }

// WithClientTelemetry sends the client's traces and metrics where t says
// (default: OpenTelemetry's global providers). Each call is a span named
// after its method, of kind CLIENT, whose trace context the request
// carries.
func WithClientTelemetry(t *a2a.Telemetry) ClientOption {
	return func(c *clientConfig) { c.telemetry = t }
}

// callObserver holds the instruments of one Telemetry.
type callObserver struct {
	tel            *a2a.Telemetry
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
var observers sync.Map // *a2a.Telemetry → *callObserver

func observerOf(t *a2a.Telemetry) *callObserver {
	if o, ok := observers.Load(t); ok {
		return o.(*callObserver)
	}
	o, _ := observers.LoadOrStore(t, newCallObserver(t))
	return o.(*callObserver)
}

func newCallObserver(t *a2a.Telemetry) *callObserver {
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
func (o *callObserver) startCall(ctx context.Context, kind trace.SpanStartOption, m *a2a.MethodDesc, binding string, req a2a.ProtoValue) call {
	c := call{obs: o, ctx: ctx, method: m.Name, binding: binding}
	if o.tel.Metering() {
		c.start = time.Now()
	}
	if o.tel.Tracing() {
		c.ctx, c.span = o.tracer.Start(ctx, m.Name, kind)
		if c.span.IsRecording() {
			c.span.SetAttributes(attrRPCSystem.String("a2a"), attrRPCMethod.String(m.Name), attrA2ABinding.String(binding))
			c.span.SetAttributes(requestAttrs(req)...)
		} else {
			c.span = nil
		}
	}
	return c
}

// startServer starts the telemetry of a call a server serves, child of the
// trace context of its request.
func (o *callObserver) startServer(ctx context.Context, info *CallInfo, m *a2a.MethodDesc, req a2a.ProtoValue) call {
	c := o.startCall(o.tel.Extract(ctx, info.Header), serverKind, m, info.Binding, req)
	c.server = true
	if c.span != nil {
		c.span.SetAttributes(attrA2AVersion.String(info.Version))
		c.span.SetAttributes(cardAttrs(info.Card)...)
	}
	return c
}

// end ends the call's span and records its duration, with err its outcome
// and resp, when there is one, its answer.
func (c *call) end(resp a2a.ProtoValue, err error) {
	if c.span == nil && c.start.IsZero() {
		return
	}
	status := "OK"
	if err != nil {
		status = errorStatus(c.binding, a2a.AsRPCError(err))
	}
	if c.span != nil {
		c.span.SetAttributes(attrRPCStatus.String(status))
		if err != nil {
			c.span.SetAttributes(attrErrorType.String(status))
			c.span.SetStatus(codes.Error, err.Error())
		}
		if resp != nil {
			c.span.SetAttributes(responseAttrs(resp)...)
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
func (c *call) observeSend(send func(a2a.ProtoValue) error) func(a2a.ProtoValue) error {
	if c.span == nil && c.start.IsZero() {
		return send
	}
	if !c.start.IsZero() {
		c.obs.activeStreams.Add(c.ctx, 1, c.obs.attributes(seriesKey{method: c.method, binding: c.binding}))
	}
	return func(m a2a.ProtoValue) error {
		err := send(m)
		if ev, ok := m.(*a2a.StreamResponse); ok && err == nil {
			if !c.start.IsZero() {
				c.obs.streamEvents.Add(c.ctx, 1, c.obs.attributes(seriesKey{method: c.method, event: eventType(ev)}))
			}
			c.taskEvent(ev)
		}
		return err
	}
}

// endStream ends what observeSend began.
func (c *call) endStream() {
	if !c.start.IsZero() {
		c.obs.activeStreams.Add(c.ctx, -1, c.obs.attributes(seriesKey{method: c.method, binding: c.binding}))
	}
}

// taskEvent puts what a streamed message says of its task on the span.
func (c *call) taskEvent(ev *a2a.StreamResponse) {
	if c.span == nil {
		return
	}
	switch p := ev.Payload.(type) {
	case *a2a.StreamResponseTask:
		c.span.SetAttributes(taskAttrs(p.Task)...)
	case *a2a.StreamResponseStatusUpdate:
		if s := p.StatusUpdate.Status; s != nil {
			state := attrA2ATaskState.String(s.State.String())
			c.span.SetAttributes(attrA2ATaskID.String(p.StatusUpdate.TaskID), state)
			c.span.AddEvent("a2a.task.status_update", trace.WithAttributes(state))
		}
	}
}

func eventType(ev *a2a.StreamResponse) string {
	switch ev.Payload.(type) {
	case *a2a.StreamResponseTask:
		return "task"
	case *a2a.StreamResponseMessage:
		return "message"
	case *a2a.StreamResponseStatusUpdate:
		return "status_update"
	case *a2a.StreamResponseArtifactUpdate:
		return "artifact_update"
	}
	return "unknown"
}

// errorStatus is an error's code as its binding writes it: the JSON-RPC
// code, the HTTP status, or the gRPC status name.
func errorStatus(binding string, e *a2a.RPCError) string {
	switch binding {
	case BindingHTTPJSON:
		return strconv.Itoa(e.HTTPStatus())
	case BindingGRPC:
		return e.Status()
	}
	return strconv.Itoa(e.Code)
}

// cardAttrs are the gen_ai.agent attributes of the agent a card describes.
func cardAttrs(card *a2a.AgentCard) []attribute.KeyValue {
	if card == nil {
		return nil
	}
	attrs := []attribute.KeyValue{attrAgentName.String(card.Name)}
	if card.Description != "" {
		attrs = append(attrs, attrAgentDesc.String(card.Description))
	}
	if card.Version != "" {
		attrs = append(attrs, attrAgentVersion.String(card.Version))
	}
	return attrs
}

// requestAttrs are what a request says of its task, message and tenant.
func requestAttrs(req a2a.ProtoValue) []attribute.KeyValue {
	var attrs []attribute.KeyValue
	add := func(k attribute.Key, v string) {
		if v != "" {
			attrs = append(attrs, k.String(v))
		}
	}
	task := func(tenant, id string) {
		add(attrA2ATenant, tenant)
		add(attrA2ATaskID, id)
	}
	switch r := req.(type) {
	case *a2a.SendMessageRequest:
		add(attrA2ATenant, r.Tenant)
		if m := r.Message; m != nil {
			add(attrA2AMessageID, m.MessageID)
			add(attrA2ATaskID, m.TaskID)
			add(attrConversationID, m.ContextID)
			if len(m.ReferenceTaskIDs) > 0 {
				attrs = append(attrs, attrA2AReferenceIDs.StringSlice(m.ReferenceTaskIDs))
			}
		}
	case *a2a.GetTaskRequest:
		task(r.Tenant, r.ID)
	case *a2a.CancelTaskRequest:
		task(r.Tenant, r.ID)
	case *a2a.SubscribeToTaskRequest:
		task(r.Tenant, r.ID)
	case *a2a.TaskPushNotificationConfig:
		task(r.Tenant, r.TaskID)
	case *a2a.GetTaskPushNotificationConfigRequest:
		task(r.Tenant, r.TaskID)
	case *a2a.ListTaskPushNotificationConfigsRequest:
		task(r.Tenant, r.TaskID)
	case *a2a.DeleteTaskPushNotificationConfigRequest:
		task(r.Tenant, r.TaskID)
	case *a2a.ListTasksRequest:
		add(attrA2ATenant, r.Tenant)
		add(attrConversationID, r.ContextID)
	case *a2a.GetExtendedAgentCardRequest:
		add(attrA2ATenant, r.Tenant)
	}
	return attrs
}

// responseAttrs are what an answer says of its task or message.
func responseAttrs(resp a2a.ProtoValue) []attribute.KeyValue {
	switch r := resp.(type) {
	case *a2a.Task:
		return taskAttrs(r)
	case *a2a.SendMessageResponse:
		switch p := r.Payload.(type) {
		case *a2a.SendMessageResponseTask:
			return taskAttrs(p.Task)
		case *a2a.SendMessageResponseMessage:
			if p.Message != nil {
				return []attribute.KeyValue{attrA2AMessageID.String(p.Message.MessageID)}
			}
		}
	}
	return nil
}

func taskAttrs(t *a2a.Task) []attribute.KeyValue {
	if t == nil {
		return nil
	}
	attrs := []attribute.KeyValue{attrA2ATaskID.String(t.ID), attrConversationID.String(t.ContextID)}
	if t.Status != nil {
		attrs = append(attrs, attrA2ATaskState.String(t.Status.State.String()))
	}
	return attrs
}

// observedTransport is a client transport whose calls are spans and
// whose requests carry their trace context.
type observedTransport struct {
	a2a.Transport
	obs     *callObserver
	binding string
}

// observeTransport wraps the transport t of binding.
func observeTransport(t a2a.Transport, binding string, cfg *clientConfig) a2a.Transport {
	return &observedTransport{Transport: t, obs: observerOf(cfg.telemetry), binding: binding}
}

// ObserveTransport makes each call of t, a transport of binding, a span
// of kind CLIENT, and records its duration, where tel says (nil: the global
// providers). t must write the trace context of each call's context on its
// requests (InjectTraceContext). The transports of this package and of
// a2agrpc come observed.
func ObserveTransport(t a2a.Transport, binding string, tel *a2a.Telemetry) a2a.Transport {
	return &observedTransport{Transport: t, obs: observerOf(tel), binding: binding}
}

// Close closes the transport beneath, when it is an io.Closer (one
// a2agrpc.WithGRPC dialled), and does nothing otherwise.
func (t *observedTransport) Close() error {
	if c, ok := t.Transport.(io.Closer); ok {
		return c.Close()
	}
	return nil
}

func (t *observedTransport) Call(ctx context.Context, m *a2a.MethodDesc, req, resp a2a.ProtoValue) error {
	c := t.obs.startCall(ctx, clientKind, m, t.binding, req)
	err := t.Transport.Call(c.ctx, m, req, resp)
	if err != nil {
		resp = nil
	}
	c.end(resp, err)
	return err
}

func (t *observedTransport) Stream(ctx context.Context, m *a2a.MethodDesc, req a2a.ProtoValue) iter.Seq2[a2a.ProtoValue, error] {
	return func(yield func(a2a.ProtoValue, error) bool) {
		c := t.obs.startCall(ctx, clientKind, m, t.binding, req)
		var failed error
		defer func() { c.end(nil, failed) }()
		for msg, err := range t.Transport.Stream(c.ctx, m, req) {
			if err != nil {
				failed = err
			} else if ev, ok := msg.(*a2a.StreamResponse); ok {
				c.taskEvent(ev)
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
func InjectTraceContext(ctx context.Context, tel *a2a.Telemetry, set func(key, value string)) {
	tel.TextMapPropagator().Inject(ctx, setterCarrier(set))
}

type setterCarrier func(key, value string)

func (s setterCarrier) Get(string) string     { return "" }
func (s setterCarrier) Set(key, value string) { s(key, value) }
func (s setterCarrier) Keys() []string        { return nil }
