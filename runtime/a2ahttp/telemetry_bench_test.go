package a2ahttp_test

import (
	"context"
	"testing"

	"go.opentelemetry.io/otel/propagation"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"

	a2a "github.com/agui-gen/agui-gen/gen/a2a"
)

// discard is a span exporter that drops what it is given.
type discard struct{}

func (discard) ExportSpans(context.Context, []sdktrace.ReadOnlySpan) error { return nil }
func (discard) Shutdown(context.Context) error                             { return nil }

// recordingTelemetry is a Telemetry with the SDK recording every span
// (batched, then dropped) and every metric (aggregated in memory).
func recordingTelemetry(b *testing.B) *a2a.Telemetry {
	tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(discard{}), sdktrace.WithSampler(sdktrace.AlwaysSample()))
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(sdkmetric.NewManualReader()))
	b.Cleanup(func() {
		tp.Shutdown(context.Background())
		mp.Shutdown(context.Background())
	})
	return &a2a.Telemetry{TracerProvider: tp, MeterProvider: mp, Propagator: propagation.TraceContext{}}
}

// BenchmarkSendMessageRecording is BenchmarkSendMessage with the SDK
// recording on both sides: what telemetry costs when it is on.
func BenchmarkSendMessageRecording(b *testing.B) {
	tel := recordingTelemetry(b)
	benchSend(b, []a2a.ServerOption{a2a.WithTelemetry(tel)}, []a2a.ClientOption{a2a.WithClientTelemetry(tel)})
}
