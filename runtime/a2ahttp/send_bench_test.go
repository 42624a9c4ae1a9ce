package a2ahttp_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/agui-gen/agui-gen/examples/a2a-demo/echo"
	a2a "github.com/agui-gen/agui-gen/gen/a2a"
)

// BenchmarkSendMessage: one SendMessage over JSON-RPC, client and server in
// this process, to the echo agent, with telemetry as a program that
// installs no OpenTelemetry SDK has it (the global no-op providers): the
// baseline the instrumentation's cost is measured against, by running this
// benchmark on a commit from before it too.
//
//	go test ./runtime/a2ahttp -run XXX -bench 'SendMessage$' -count 10 > new.txt
func BenchmarkSendMessage(b *testing.B) {
	benchSend(b, nil, nil)
}

// benchSend measures SendMessage to a server made with opts, from a client
// made with copts.
func benchSend(b *testing.B, opts []a2a.ServerOption, copts []a2a.ClientOption) {
	var h http.Handler
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { h.ServeHTTP(w, r) }))
	defer srv.Close()
	var err error
	if h, err = a2a.NewHandler(a2a.BindA2AService(echo.New()), echo.Card(srv.URL), opts...); err != nil {
		b.Fatal(err)
	}
	c := a2a.NewA2AServiceClient(a2a.NewJSONRPCTransport(srv.URL, copts...))
	ctx := context.Background()
	req := &a2a.SendMessageRequest{Message: &a2a.Message{MessageID: "m", Role: a2a.RoleUser, Parts: []*a2a.Part{{Content: &a2a.PartText{Text: "hello"}}}}}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.SendMessage(ctx, req); err != nil {
			b.Fatal(err)
		}
	}
}
