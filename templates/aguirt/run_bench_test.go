package aguirt

import (
	"context"
	"net/http/httptest"
	"testing"

	agui "github.com/agui-gen/agui-gen/gen/agui"
)

// BenchmarkRunStream: one run of 200 text deltas, handler and client in
// this process, with telemetry as a program that installs no
// OpenTelemetry SDK has it (the global no-op providers): the baseline the
// instrumentation's cost is measured against, by running this benchmark on
// a commit from before it too.
//
//	go test ./templates/aguirt -run XXX -bench 'RunStream$' -count 10 > new.txt
func BenchmarkRunStream(b *testing.B) {
	benchRun(b, nil, nil)
}

// benchRun measures a run of a handler made with opts, read by client.
func benchRun(b *testing.B, opts []Option, client *Client) {
	agent := AgentFunc(func(ctx context.Context, in *agui.RunAgentInput, s *Stream) error {
		for range 200 {
			if err := s.Text("a few words "); err != nil {
				return err
			}
		}
		return nil
	})
	srv := httptest.NewServer(NewHandler(agent, append([]Option{WithLogger(quietLogger())}, opts...)...))
	defer srv.Close()
	if client == nil {
		client = &Client{}
	}
	client.URL = srv.URL
	ctx := context.Background()
	in := &agui.RunAgentInput{ThreadID: "t", RunID: "r"}
	b.ReportAllocs()
	for b.Loop() {
		rs, err := client.Run(ctx, in)
		if err != nil {
			b.Fatal(err)
		}
		if err := rs.Wait(); err != nil {
			b.Fatal(err)
		}
	}
}
