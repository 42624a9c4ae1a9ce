package aguirt

import (
	"context"
	"testing"

	"go.opentelemetry.io/otel/propagation"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"

	agui "github.com/agui-gen/agui-gen/gen/agui"
)

// discard is a span exporter that drops what it is given.
type discard struct{}

func (discard) ExportSpans(context.Context, []sdktrace.ReadOnlySpan) error { return nil }
func (discard) Shutdown(context.Context) error                             { return nil }

// BenchmarkRunStreamRecording is BenchmarkRunStream with the SDK recording
// every span (batched, then dropped) and metric on both sides: what
// telemetry costs when it is on.
func BenchmarkRunStreamRecording(b *testing.B) {
	tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(discard{}), sdktrace.WithSampler(sdktrace.AlwaysSample()))
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(sdkmetric.NewManualReader()))
	defer tp.Shutdown(context.Background())
	defer mp.Shutdown(context.Background())
	tel := &agui.Telemetry{TracerProvider: tp, MeterProvider: mp, Propagator: propagation.TraceContext{}, AgentName: "bench"}
	benchRun(b, []Option{WithTelemetry(tel)}, &Client{Telemetry: tel})
}
