package openai_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"testing"

	oai "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/agui-gen/agui-gen/runtime/model"
	"github.com/agui-gen/agui-gen/runtime/model/openai"
)

// benchTokens is how many text chunks one replayed stream holds.
const benchTokens = 1000

// replay answers every request with body, in process, so the benchmark
// measures the SDK and the adapter, not a loopback connection.
type replay struct{ body []byte }

func (r replay) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Body != nil {
		_, _ = io.Copy(io.Discard, req.Body)
		_ = req.Body.Close()
	}
	return &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"text/event-stream"}},
		Body: io.NopCloser(bytes.NewReader(r.body)), Request: req}, nil
}

func benchStream() []byte {
	var b bytes.Buffer
	chunk := `data: {"id":"chatcmpl-B9MBs8CjcvOU2jLn4n570S5qMJKcT","object":"chat.completion.chunk","created":1741569952,"model":"gpt-4.1-2025-04-14","system_fingerprint":"fp_06737a9306","choices":[{"index":0,"delta":{"content":%q},"logprobs":null,"finish_reason":null}],"usage":null}` + "\n\n"
	for i := range benchTokens {
		fmt.Fprintf(&b, chunk, fmt.Sprintf(" tok%d", i%10))
	}
	b.WriteString(`data: {"id":"chatcmpl-B9MBs8CjcvOU2jLn4n570S5qMJKcT","object":"chat.completion.chunk","created":1741569952,"model":"gpt-4.1-2025-04-14","choices":[{"index":0,"delta":{},"finish_reason":"stop"}],"usage":null}` + "\n\n")
	b.WriteString(`data: {"id":"chatcmpl-B9MBs8CjcvOU2jLn4n570S5qMJKcT","object":"chat.completion.chunk","created":1741569952,"model":"gpt-4.1-2025-04-14","choices":[],"usage":{"prompt_tokens":19,"completion_tokens":1000,"total_tokens":1019}}` + "\n\ndata: [DONE]\n\n")
	return b.Bytes()
}

type nopSink struct{ n int }

func (*nopSink) StartText(string) error                     { return nil }
func (s *nopSink) Text(d string) error                      { s.n += len(d); return nil }
func (*nopSink) EndText() error                             { return nil }
func (*nopSink) StartReasoning(string) error                { return nil }
func (*nopSink) Reasoning(string) error                     { return nil }
func (*nopSink) EndReasoning() error                        { return nil }
func (*nopSink) StartToolCall(string, string, string) error { return nil }
func (*nopSink) ToolCallArgs(string, string) error          { return nil }
func (*nopSink) EndToolCall(string) error                   { return nil }
func (*nopSink) ToolResult(string, string) error            { return nil }
func (*nopSink) EncryptedValue(model.EncryptedValue) error  { return nil }
func (*nopSink) Usage(model.Usage) error                    { return nil }

// BenchmarkStream reads the same replayed stream of benchTokens text
// chunks with the bare SDK (impl=sdk: NewStreaming, Next, the delta's
// content) and through the adapter into a sink that does nothing
// (impl=adapter). The difference is the adapter's cost; ns/token and
// allocs/token are per streamed chunk.
func BenchmarkStream(b *testing.B) {
	body := benchStream()
	client := oai.NewClient(option.WithBaseURL("http://replay.invalid/v1/"), option.WithAPIKey("k"),
		option.WithMaxRetries(0), option.WithHTTPClient(&http.Client{Transport: replay{body}}))
	req := &model.Request{Messages: []model.Message{model.Text(model.RoleUser, "Hello")}}
	perToken := func(b *testing.B) {
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*benchTokens), "ns/token")
	}
	b.Run("impl=sdk", func(b *testing.B) {
		b.ReportAllocs()
		ctx := context.Background()
		p := oai.ChatCompletionNewParams{Model: "gpt-4.1", Messages: []oai.ChatCompletionMessageParamUnion{oai.UserMessage("Hello")},
			StreamOptions: oai.ChatCompletionStreamOptionsParam{IncludeUsage: oai.Bool(true)}}
		n := 0
		for b.Loop() {
			s := client.Chat.Completions.NewStreaming(ctx, p)
			for s.Next() {
				c := s.Current()
				if len(c.Choices) > 0 {
					n += len(c.Choices[0].Delta.Content)
				}
			}
			if err := s.Err(); err != nil {
				b.Fatal(err)
			}
			_ = s.Close()
		}
		perToken(b)
	})
	b.Run("impl=adapter", func(b *testing.B) {
		b.ReportAllocs()
		ctx := context.Background()
		m := openai.New(client, "gpt-4.1")
		sink := &nopSink{}
		for b.Loop() {
			if _, err := m.Stream(ctx, req, sink); err != nil {
				b.Fatal(err)
			}
		}
		perToken(b)
	})
}
