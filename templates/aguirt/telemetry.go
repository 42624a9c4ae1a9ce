package aguirt

import (
	agui "github.com/agui-gen/agui-gen/gen/agui"
	"github.com/agui-gen/agui-gen/runtime/aguitel"
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

// observe tells a run's telemetry what ev means: its type, a run's end
// and outcome, a tool call's start and result. The stream's lock is held.
func observe(rt *aguitel.Run, ev agui.Event) {
	rt.Event(string(ev.Type()))
	switch e := ev.(type) {
	case *agui.RunFinishedEvent:
		outcome := "success"
		if e.Outcome != nil {
			outcome = e.Outcome.Type()
		}
		rt.Outcome(outcome, "")
	case *agui.RunErrorEvent:
		errorType := "run_error"
		if e.Code != nil {
			errorType = *e.Code
		}
		rt.Outcome("error", errorType)
	case *agui.ToolCallStartEvent:
		rt.StartTool(e.ToolCallID, e.ToolCallName)
	case *agui.ToolCallChunkEvent:
		if e.ToolCallID != nil && e.ToolCallName != nil {
			rt.StartTool(*e.ToolCallID, *e.ToolCallName)
		}
	case *agui.ToolCallResultEvent:
		rt.EndTool(e.ToolCallID)
	}
}
