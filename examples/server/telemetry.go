package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strings"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/otlp/otlpmetric/otlpmetricgrpc"
	"go.opentelemetry.io/otel/exporters/otlp/otlpmetric/otlpmetrichttp"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracegrpc"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/propagation"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
)

// setupTelemetry installs OpenTelemetry's SDK as the global tracer and
// meter providers, exporting over OTLP, when the standard environment
// variables ask for it, and returns what flushes and stops it. The
// generated packages send their spans and metrics to the global providers;
// without an SDK those record nothing and cost next to nothing.
//
// Traces are on when OTEL_TRACES_EXPORTER is otlp, or unset while an OTLP
// endpoint is (OTEL_EXPORTER_OTLP_ENDPOINT or
// OTEL_EXPORTER_OTLP_TRACES_ENDPOINT); metrics likewise with
// OTEL_METRICS_EXPORTER and OTEL_EXPORTER_OTLP_METRICS_ENDPOINT;
// OTEL_SDK_DISABLED=true turns both off. OTEL_EXPORTER_OTLP_PROTOCOL (or
// its _TRACES_ and _METRICS_ forms) picks http/protobuf (the default) or
// grpc; the exporters read the endpoints, headers, timeouts and TLS
// settings themselves, the resource reads OTEL_SERVICE_NAME and
// OTEL_RESOURCE_ATTRIBUTES, the metric reader OTEL_METRIC_EXPORT_INTERVAL.
// Trace context crosses the wire as W3C traceparent, tracestate and
// baggage (OTEL_PROPAGATORS=none turns that off).
func setupTelemetry(ctx context.Context, logger *slog.Logger) (shutdown func(context.Context) error, err error) {
	var stops []func(context.Context) error
	shutdown = func(ctx context.Context) error {
		var errs []error
		for _, stop := range stops {
			errs = append(errs, stop(ctx))
		}
		return errors.Join(errs...)
	}
	if strings.EqualFold(os.Getenv("OTEL_SDK_DISABLED"), "true") {
		return shutdown, nil
	}
	if os.Getenv("OTEL_PROPAGATORS") != "none" {
		otel.SetTextMapPropagator(propagation.NewCompositeTextMapPropagator(propagation.TraceContext{}, propagation.Baggage{}))
	}
	traces, metrics := exporting("TRACES"), exporting("METRICS")
	if !traces && !metrics {
		return shutdown, nil
	}
	// The environment's service name and attributes override this default.
	res, err := resource.New(ctx, resource.WithAttributes(attribute.String("service.name", "agent-server")), resource.WithFromEnv(), resource.WithTelemetrySDK())
	if err != nil {
		return shutdown, fmt.Errorf("telemetry: %w", err)
	}
	if traces {
		var exp sdktrace.SpanExporter
		if protocol("TRACES") == "grpc" {
			exp, err = otlptracegrpc.New(ctx)
		} else {
			exp, err = otlptracehttp.New(ctx)
		}
		if err != nil {
			return shutdown, fmt.Errorf("telemetry: the trace exporter: %w", err)
		}
		tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(exp), sdktrace.WithResource(res))
		otel.SetTracerProvider(tp)
		stops = append(stops, tp.Shutdown)
	}
	if metrics {
		var exp sdkmetric.Exporter
		if protocol("METRICS") == "grpc" {
			exp, err = otlpmetricgrpc.New(ctx)
		} else {
			exp, err = otlpmetrichttp.New(ctx)
		}
		if err != nil {
			return shutdown, fmt.Errorf("telemetry: the metric exporter: %w", err)
		}
		mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(sdkmetric.NewPeriodicReader(exp)), sdkmetric.WithResource(res))
		otel.SetMeterProvider(mp)
		stops = append(stops, mp.Shutdown)
	}
	logger.Info("exporting telemetry over OTLP", "traces", traces, "metrics", metrics)
	return shutdown, nil
}

// exporting reports whether the environment asks for signal ("TRACES" or
// "METRICS") to be exported.
func exporting(signal string) bool {
	switch os.Getenv("OTEL_" + signal + "_EXPORTER") {
	case "otlp":
		return true
	case "":
		return os.Getenv("OTEL_EXPORTER_OTLP_ENDPOINT") != "" || os.Getenv("OTEL_EXPORTER_OTLP_"+signal+"_ENDPOINT") != ""
	}
	return false
}

// protocol is the OTLP protocol the environment names for signal.
func protocol(signal string) string {
	if p := os.Getenv("OTEL_EXPORTER_OTLP_" + signal + "_PROTOCOL"); p != "" {
		return p
	}
	return os.Getenv("OTEL_EXPORTER_OTLP_PROTOCOL")
}
