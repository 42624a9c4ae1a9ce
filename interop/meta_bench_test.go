package interop_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/agui-gen/agui-gen/gen/agui"
	"github.com/agui-gen/agui-gen/gen/agui/metapg"
	"github.com/agui-gen/agui-gen/gen/agui/metasqlite"
)

// metaBenchStore opens the META store a benchmark names; ok is false for
// Postgres when no server answers.
func metaBenchStore(b *testing.B, name string) (store agui.MetaStore, ok bool) {
	ctx := context.Background()
	switch name {
	case "memory":
		return agui.NewMemoryMeta(), true
	case "sqlite":
		sq, err := metasqlite.Open(ctx, filepath.Join(b.TempDir(), "meta.db"))
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { sq.Close() })
		return sq, true
	}
	dsn := benchPostgres(b)
	if dsn == "" {
		return nil, false
	}
	pg, err := metapg.Open(ctx, dsn)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { pg.Close() })
	return pg, true
}

// benchMeta is the i-th META event of a benchmark: the common feedback
// kinds in turn, about message m<i>.
func benchMeta(i int) *agui.MetaEvent {
	msg := "m" + strconv.Itoa(i)
	switch i % 4 {
	case 0:
		return agui.NewThumbsUpMeta(msg)
	case 1:
		return agui.NewRatingMeta(msg, float64(i%5+1))
	case 2:
		return agui.NewTagMeta([]string{"helpful", "accurate"}, msg)
	default:
		return agui.NewNoteMeta("the answer to " + msg + " cited the right source")
	}
}

// BenchmarkMetaIntake measures META events per second taken at POST
// {path}/meta over loopback HTTP, validated and stored, and acknowledged
// with their sequence numbers: one event per request and batches of 100,
// on each store. SQLite writes with synchronous=FULL, so a request waits
// for its fsync.
//
//	go test ./interop -run XXX -bench MetaIntake -benchtime 200x -count 8
func BenchmarkMetaIntake(b *testing.B) {
	for _, name := range []string{"memory", "sqlite", "postgres"} {
		for _, batch := range []int{1, 100} {
			b.Run("store="+name+"/batch="+strconv.Itoa(batch), func(b *testing.B) {
				store, ok := metaBenchStore(b, name)
				if !ok {
					b.Skip("no " + name)
				}
				srv := httptest.NewServer(agui.NewHandler(agui.AgentFunc(func(context.Context, *agui.RunAgentInput, *agui.Stream) error { return nil }),
					agui.WithMetaStore(store)))
				defer srv.Close()
				c := agui.Client{URL: srv.URL}
				ctx := context.Background()
				events := make([]*agui.MetaEvent, batch)
				b.ReportAllocs()
				// One op is one request of batch events.
				sent := 0
				for b.Loop() {
					for j := range events {
						events[j] = benchMeta(sent + j)
					}
					stored, err := c.SendMeta(ctx, "thread-"+strconv.Itoa(sent/1000), "", events...)
					if err != nil || len(stored) != batch {
						b.Fatalf("%d stored: %v", len(stored), err)
					}
					sent += batch
				}
				b.ReportMetric(float64(sent)/b.Elapsed().Seconds(), "events/s")
			})
		}
	}
}

// metaStreamAgent writes the run of encoderScriptAgent's text: n
// TEXT_MESSAGE_CONTENT events, and, when withMeta, a META event about the
// message after every ninth, so one event in ten is META.
func metaStreamAgent(n int, withMeta bool) agui.AgentFunc {
	return func(ctx context.Context, in *agui.RunAgentInput, s *agui.Stream) error {
		role := agui.TextMessageRoleAssistant
		if err := s.Emit(&agui.TextMessageStartEvent{MessageID: "m1", Role: &role}); err != nil {
			return err
		}
		for i := range n {
			if err := s.Emit(&agui.TextMessageContentEvent{MessageID: "m1", Delta: "chunk " + strconv.Itoa(i) + " "}); err != nil {
				return err
			}
			if withMeta && i%9 == 8 {
				if err := s.Emit(benchMeta(i)); err != nil {
					return err
				}
			}
		}
		return s.Emit(&agui.TextMessageEndEvent{MessageID: "m1"})
	}
}

// BenchmarkMetaStream measures a mixed stream against the same stream
// without META, in one run: 9,000 text chunks, and in the mixed runs 1,000
// META events among them (10%).
//
//   - layer=verifier: the events, built beforehand, through agui.Verifier;
//   - layer=client: served by agui.NewHandler over loopback HTTP and read
//     by agui.Client (decode, verify, assemble), META sent as
//     CUSTOM{name:"meta"} (the default) or natively.
//
// events/s counts every event; text/s only the text chunks, the work both
// streams share.
//
//	go test ./interop -run XXX -bench MetaStream -count 8
func BenchmarkMetaStream(b *testing.B) {
	const chunks = 9000
	for _, withMeta := range []bool{false, true} {
		mix := "none"
		if withMeta {
			mix = "10%"
		}
		b.Run("layer=verifier/meta="+mix, func(b *testing.B) {
			events := recordRun(b, metaStreamAgent(chunks, withMeta))
			b.ReportAllocs()
			for b.Loop() {
				v := agui.NewVerifier()
				for _, ev := range events {
					if err := v.Check(ev); err != nil {
						b.Fatal(err)
					}
				}
			}
			reportMetaRates(b, len(events), chunks)
		})
	}
	for _, c := range []struct {
		name string
		meta bool
		opts []agui.Option
	}{
		{"none", false, nil},
		{"10%-custom", true, nil},
		{"10%-native", true, []agui.Option{agui.WithNativeMeta()}},
	} {
		b.Run("layer=client/meta="+c.name, func(b *testing.B) {
			srv := httptest.NewServer(agui.NewHandler(metaStreamAgent(chunks, c.meta), c.opts...))
			defer srv.Close()
			tr := http.DefaultTransport.(*http.Transport).Clone()
			defer tr.CloseIdleConnections()
			client := agui.Client{URL: srv.URL, HTTPClient: &http.Client{Transport: tr}}
			want := chunks + 4
			if c.meta {
				want += chunks / 9
			}
			b.ReportAllocs()
			for b.Loop() {
				rs, err := client.Run(context.Background(), benchInput())
				if err != nil {
					b.Fatal(err)
				}
				n, metas := 0, 0
				for {
					ev, err := rs.Next()
					if errors.Is(err, io.EOF) {
						break
					}
					if err != nil {
						b.Fatalf("after %d events: %v", n, err)
					}
					if _, ok := ev.(*agui.MetaEvent); ok {
						metas++
					}
					n++
				}
				if n != want || (metas > 0) != c.meta || len(rs.Warnings()) > 0 {
					b.Fatalf("%d events (want %d), %d META, warnings %q", n, want, metas, rs.Warnings())
				}
			}
			reportMetaRates(b, want, chunks)
		})
	}
}

// recordRun runs agent in process and keeps its events, RUN_STARTED and
// RUN_FINISHED included.
func recordRun(b *testing.B, agent agui.Agent) []agui.Event {
	var events []agui.Event
	err := agui.Invoke(context.Background(), agent, benchInput(), func(ev agui.Event) error {
		events = append(events, ev)
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	return events
}

func reportMetaRates(b *testing.B, events, text int) {
	runs := float64(b.N) / b.Elapsed().Seconds()
	b.ReportMetric(runs*float64(events), "events/s")
	b.ReportMetric(runs*float64(text), "text/s")
}
