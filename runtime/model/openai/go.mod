module github.com/agui-gen/agui-gen/runtime/model/openai

go 1.26.0

require (
	github.com/agui-gen/agui-gen v0.0.0-00010101000000-000000000000
	github.com/google/go-cmp v0.7.0
	github.com/openai/openai-go/v3 v3.98.0
)

require (
	github.com/cespare/xxhash/v2 v2.3.0 // indirect
	github.com/coder/websocket v1.8.15 // indirect
	github.com/evanphx/json-patch/v5 v5.9.11 // indirect
	github.com/go-logr/logr v1.4.4 // indirect
	github.com/go-logr/stdr v1.2.2 // indirect
	github.com/rs/cors v1.11.1 // indirect
	github.com/tidwall/gjson v1.20.0 // indirect
	github.com/tidwall/match v1.1.1 // indirect
	github.com/tidwall/pretty v1.2.1 // indirect
	github.com/tidwall/sjson v1.2.5 // indirect
	go.opentelemetry.io/auto/sdk v1.2.1 // indirect
	go.opentelemetry.io/otel v1.47.0 // indirect
	go.opentelemetry.io/otel/log v1.47.0 // indirect
	go.opentelemetry.io/otel/metric v1.47.0 // indirect
	go.opentelemetry.io/otel/trace v1.47.0 // indirect
)

// The adapter is developed and tested with the agui-gen of this checkout. A
// module that requires the adapter ignores this line (only the main
// module's replace directives apply) and takes its own version of agui-gen.
replace github.com/agui-gen/agui-gen => ../../..
