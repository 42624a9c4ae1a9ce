package bridge

import (
	"context"
	"iter"
	"net/http"

	a2a "github.com/agui-gen/agui-gen/gen/a2a"
	agui "github.com/agui-gen/agui-gen/gen/agui"
)

// EventsMediaType is the Accept media type, and FormatName the value of
// the format query parameter, with which a client of an A2A server asks
// for AG-UI events, as Hector has it.
const (
	EventsMediaType = "application/x-agui-events"
	FormatName      = "agui"
)

// StreamFormat answers the streaming RPCs of an A2A server
// (SendStreamingMessage, SubscribeToTask) with the official AG-UI events,
// as SSE, for a client that asks for them: give it to the server with
// a2a.WithStreamFormat. The run's thread is the task's context; it starts
// with the task, and ends as A2AAgent's runs do. opts configure the AG-UI
// side (WithKeepAlive, WithLogger).
func StreamFormat(opts ...agui.Option) a2a.StreamFormat {
	return a2a.StreamFormat{Name: FormatName, MediaType: EventsMediaType,
		Serve: func(w http.ResponseWriter, r *http.Request, _ *a2a.MethodDesc, req a2a.ProtoValue, responses iter.Seq2[a2a.ProtoValue, error]) {
			next, stop := iter.Pull2(responses)
			defer stop()
			first, _, _ := next()
			input := &agui.RunAgentInput{RunID: agui.NewID("run"), Messages: []agui.Message{}}
			if resp, ok := first.(*a2a.StreamResponse); ok {
				input.ThreadID = contextOf(resp)
			}
			if input.ThreadID == "" {
				input.ThreadID = input.RunID
			}
			agui.ServeRun(w, r, agui.AgentFunc(func(ctx context.Context, _ *agui.RunAgentInput, s *agui.Stream) error {
				// A subscription catches up with what the task holds, and a
				// new task's stream shows all of it; a message that continues
				// a task, only what the message brings.
				send, isSend := req.(*a2a.SendMessageRequest)
				t := newTranslator(s, nil, !isSend || send.Message.TaskID == "", nil)
				for msg, err, ok := first, error(nil), true; ok; msg, err, ok = next() {
					if err != nil {
						return streamError(err)
					}
					if resp, isResp := msg.(*a2a.StreamResponse); isResp {
						if err := t.apply(resp); err != nil {
							return err
						}
					}
					// An AG-UI run ends at an interrupt, and its answer is the next
					// run; a subscription to the task would go on through the answer.
					if t.state == a2a.TaskStateInputRequired || t.state == a2a.TaskStateAuthRequired {
						break
					}
				}
				return t.end()
			}), input, opts...)
		}}
}

// contextOf is the context id a stream response names.
func contextOf(resp *a2a.StreamResponse) string {
	switch p := resp.Payload.(type) {
	case *a2a.StreamResponseTask:
		return p.Task.ContextID
	case *a2a.StreamResponseMessage:
		return p.Message.ContextID
	case *a2a.StreamResponseStatusUpdate:
		return p.StatusUpdate.ContextID
	case *a2a.StreamResponseArtifactUpdate:
		return p.ArtifactUpdate.ContextID
	}
	return ""
}
