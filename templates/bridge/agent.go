package bridge

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"iter"
	"log/slog"
	"net/url"
	"strings"
	"time"

	a2a "github.com/agui-gen/agui-gen/gen/a2a"
	agui "github.com/agui-gen/agui-gen/gen/agui"
	"github.com/agui-gen/agui-gen/runtime/a2arpc"
)

// interruptPrefix starts the id of every interrupt the bridge raises for
// an A2A task: "a2a/<task id, path-escaped>", then "/<id>" when the
// interrupt came from an AG-UI agent behind the task.
const interruptPrefix = "a2a/"

// The type member of the data parts that carry AG-UI interrupts on an A2A
// task that needs input, and the resume entries that answer them.
const (
	dataInterrupts = "agui.interrupts"
	dataResume     = "agui.resume"
)

// DefaultCancelTimeout bounds the CancelTask the bridge sends when the
// AG-UI client goes away mid-run.
const DefaultCancelTimeout = 10 * time.Second

// A2AClient is what A2AAgent calls: *a2a.A2AServiceClient over any
// binding, or an in-process service. A client that also has
// SendStreamingMessageReusing, as *a2a.A2AServiceClient has, streams
// through it.
type A2AClient interface {
	SendStreamingMessage(ctx context.Context, req *a2a.SendMessageRequest) iter.Seq2[*a2a.StreamResponse, error]
	SendMessage(ctx context.Context, req *a2a.SendMessageRequest) (*a2a.SendMessageResponse, error)
	GetTask(ctx context.Context, req *a2a.GetTaskRequest) (*a2a.Task, error)
	CancelTask(ctx context.Context, req *a2a.CancelTaskRequest) (*a2a.Task, error)
}

// subscribingClient is an A2AClient that can subscribe to a task, as
// *a2a.A2AServiceClient can: a run whose stream drops before its task
// settles resubscribes through it (A2AAgent.ResubscribeAttempts).
type subscribingClient interface {
	SubscribeToTask(ctx context.Context, req *a2a.SubscribeToTaskRequest) iter.Seq2[*a2a.StreamResponse, error]
}

// reusingClient is an A2AClient that can decode the responses of a stream
// into one value, as *a2a.A2AServiceClient does: the bridge renders each
// response before it takes the next, and keeps nothing of it but strings
// and clones, so it streams through one.
type reusingClient interface {
	SendStreamingMessageReusing(ctx context.Context, req *a2a.SendMessageRequest) iter.Seq2[*a2a.StreamResponse, error]
}

// A2AAgent is an AG-UI agent that runs on an A2A agent. A run sends the
// thread's new user and tool messages (the ones after the last assistant
// message) as one streaming message in the context named by the thread id,
// and renders what the A2A agent streams back; an agent that does not
// stream is sent the message plainly. A task that needs input ends the run
// with an interrupt; a run whose resume answers it continues the same
// task, and one that abandons it cancels the task. A run the client
// abandons cancels its task, unless the task has already settled; so does
// a run cancelled or stopped. On a handler with agui.WithResumableRuns a
// client that goes away does not abandon the run: the run follows its
// task to the end, and a client that resumes it sees what an A2A
// subscriber to the task sees.
//
// A stream that drops before its task settles does not end the run: it
// resubscribes to the task (SubscribeToTask) after the last event id it
// received (Last-Event-ID) and goes on, none twice. That takes a client
// that can subscribe (*a2a.A2AServiceClient) and a server that names its
// events (the task runtime's HTTP bindings; gRPC streams have no ids);
// otherwise, or when the server refuses, the run fails as before.
//
// A2A has no field for the client's tools, so RunAgentInput.tools are not
// forwarded.
type A2AAgent struct {
	// Client calls the A2A agent.
	Client A2AClient
	// Card, when set, is the A2A agent's card, from which the AG-UI
	// endpoint declares its capabilities (CapabilitiesFromCard).
	Card *a2a.AgentCard
	// Tenant, when set, goes in every request.
	Tenant string
	// CancelTimeout bounds the CancelTask of an abandoned run
	// (DefaultCancelTimeout when zero).
	CancelTimeout time.Duration
	// Logger says what an event carried across A2A held that this package
	// cannot read (default slog.Default()).
	Logger *slog.Logger
	// ResubscribeAttempts is how many times in a row a run resubscribes
	// to a task whose stream dropped before the task settled; an event
	// received starts the count again (5 when zero; negative: never).
	// ResubscribeBackoff is the wait before the first resubscription of a
	// series, doubled for each next one up to 2 s (100 ms when zero).
	ResubscribeAttempts int
	ResubscribeBackoff  time.Duration
}

// Run runs input on the A2A agent.
func (a *A2AAgent) Run(ctx context.Context, input *agui.RunAgentInput, s *agui.Stream) error {
	msg, canceled, err := a.message(ctx, input)
	if err != nil {
		return err
	}
	// A new task's first snapshot holds news (an agent may answer with a
	// whole task); a continued task's holds what earlier runs showed.
	t := newTranslator(s, input.State, msg != nil && msg.TaskID == "", a.Logger)
	if msg == nil { // every interrupt was abandoned, and its task canceled
		if err := t.task(canceled, true); err != nil {
			return err
		}
		return t.end()
	}
	req := &a2a.SendMessageRequest{Tenant: a.Tenant, Message: msg}
	responses := a.Client.SendStreamingMessage
	if rc, ok := a.Client.(reusingClient); ok {
		responses = rc.SendStreamingMessageReusing
	}
	stream := responses(ctx, req)
	if sc, ok := a.Client.(subscribingClient); ok && a.ResubscribeAttempts >= 0 {
		r := &a2arpc.Resubscription[*a2a.StreamResponse]{
			Subscribe: func(ctx context.Context) iter.Seq2[*a2a.StreamResponse, error] {
				return sc.SubscribeToTask(ctx, &a2a.SubscribeToTaskRequest{Tenant: a.Tenant, ID: t.taskID})
			},
			More:    func(error) bool { return t.taskID != "" && !settled(t.state) },
			Refused: refused,
			// A server that answers with the task as it is did not go on
			// after the last event: what the run has shown would show again.
			Resubscribed: func(first *a2a.StreamResponse, after string) error {
				if _, ok := first.Payload.(*a2a.StreamResponseTask); ok {
					return &agui.RunError{Message: "the A2A agent answered the resubscription to task " + t.taskID + " after event " + after +
						" with the whole task, which the run has shown", Code: "A2A_STREAM_ENDED"}
				}
				return nil
			},
			Attempts: a.ResubscribeAttempts, Backoff: a.ResubscribeBackoff,
		}
		stream = r.Stream(ctx, func(ctx context.Context) iter.Seq2[*a2a.StreamResponse, error] { return responses(ctx, req) })
	}
	received := false
	for resp, err := range stream {
		var runErr *agui.RunError
		switch {
		case err == nil:
		case ctx.Err() != nil:
			return a.abandon(ctx, t)
		case !received && errors.Is(err, a2a.ErrUnsupportedOperation):
			return a.sendPlainly(ctx, req, t)
		case errors.As(err, &runErr):
			return err
		case errors.Is(err, a2arpc.ErrStreamEnded):
			return a.streamEnded(t)
		default:
			return streamError(err)
		}
		received = true
		if err := t.apply(resp); err != nil {
			// The run takes no more events (it was cancelled or stopped
			// between two of the task's, or refused one: a bug to report,
			// not the A2A agent's): no one shows the task any more.
			a.abandon(ctx, t)
			return err
		}
	}
	if ctx.Err() != nil {
		return a.abandon(ctx, t)
	}
	if t.taskID != "" && !settled(t.state) {
		return a.streamEnded(t)
	}
	return t.end()
}

// streamEnded is the error of a run whose A2A stream ended before its task
// settled.
func (a *A2AAgent) streamEnded(t *translator) error {
	return &agui.RunError{Message: "the A2A stream ended with task " + t.taskID + " still " + t.state.String(), Code: "A2A_STREAM_ENDED"}
}

// abandon cancels the task of a run no one shows any more (its context
// done, or its stream stopped), unless the task has settled, and returns
// the context's error.
func (a *A2AAgent) abandon(ctx context.Context, t *translator) error {
	if !settled(t.state) {
		a.cancel(ctx, t.taskID)
	}
	return ctx.Err()
}

// refused reports whether err is the A2A agent's answer that the call
// cannot succeed as made (a 4xx-class error), not a stream that failed on
// its way.
func refused(err error) bool {
	var re *a2a.RPCError
	return errors.As(err, &re) && re.HTTPStatus() < 500
}

// sendPlainly sends the message with SendMessage, for an agent that does
// not stream, and renders its answer whole.
func (a *A2AAgent) sendPlainly(ctx context.Context, req *a2a.SendMessageRequest, t *translator) error {
	resp, err := a.Client.SendMessage(ctx, req)
	if err != nil {
		return streamError(err)
	}
	switch p := resp.Payload.(type) {
	case *a2a.SendMessageResponseTask:
		err = t.task(p.Task, true)
	case *a2a.SendMessageResponseMessage:
		err = t.message(p.Message)
	}
	if err != nil {
		return err
	}
	return t.end()
}

// settled reports whether a task in state has ended or stopped for the
// client.
func settled(state a2a.TaskState) bool {
	switch state {
	case a2a.TaskStateCompleted, a2a.TaskStateFailed, a2a.TaskStateCanceled, a2a.TaskStateRejected,
		a2a.TaskStateInputRequired, a2a.TaskStateAuthRequired:
		return true
	}
	return false
}

// streamError is the RUN_ERROR of an A2A call that failed: its A2A error
// reason, when it has one, is the code.
func streamError(err error) error {
	var re *a2a.RPCError
	if errors.As(err, &re) {
		return &agui.RunError{Message: "the A2A agent refused the message: " + re.Error(), Code: re.Status()}
	}
	return &agui.RunError{Message: "calling the A2A agent: " + err.Error(), Code: "A2A_UNAVAILABLE"}
}

// cancel cancels the task of a run the client abandoned.
func (a *A2AAgent) cancel(ctx context.Context, taskID string) {
	if taskID == "" {
		return
	}
	timeout := a.CancelTimeout
	if timeout <= 0 {
		timeout = DefaultCancelTimeout
	}
	ctx, stop := context.WithTimeout(context.WithoutCancel(ctx), timeout)
	defer stop()
	_, _ = a.Client.CancelTask(ctx, &a2a.CancelTaskRequest{Tenant: a.Tenant, ID: taskID})
}

// message is what a run sends: the answer to the interrupts its resume
// covers, on their task, or else the thread's new messages. When the
// resume abandons every interrupt, message is nil and canceled is the task
// it canceled.
func (a *A2AAgent) message(ctx context.Context, input *agui.RunAgentInput) (msg *a2a.Message, canceled *a2a.Task, err error) {
	byTask := map[string][]agui.ResumeEntry{}
	var order []string
	for _, entry := range input.Resume {
		task, inner, ok := parseInterruptID(entry.InterruptID)
		if !ok {
			continue // not ours: an unknown entry is ignored
		}
		if _, seen := byTask[task]; !seen {
			order = append(order, task)
		}
		entry.InterruptID = inner
		byTask[task] = append(byTask[task], entry)
	}
	if len(order) > 1 {
		return nil, nil, &agui.RunError{Message: "the resume answers interrupts of " + strings.Join(order, ", ") +
			"; a run continues one A2A task", Code: "RESUME_SPANS_TASKS"}
	}
	if len(order) == 1 {
		return a.resume(ctx, input.ThreadID, order[0], byTask[order[0]])
	}
	parts, id := newParts(input.Messages)
	if len(parts) == 0 {
		return nil, nil, &agui.RunError{Message: "the run has no new user or tool message to send to the A2A agent", Code: "NO_INPUT"}
	}
	if id == "" {
		id = agui.NewID("msg")
	}
	return &a2a.Message{MessageID: id, ContextID: input.ThreadID, Role: a2a.RoleUser, Parts: parts}, nil, nil
}

// resume answers the interrupts of a task of the thread: a follow-up
// message carrying the answers, or, when every entry abandons its
// interrupt, a CancelTask. The bridge's own interrupt is answered with the
// payload alone; interrupts an AG-UI agent behind the task raised, with
// the resume entries as well, in a data part its Executor reads.
func (a *A2AAgent) resume(ctx context.Context, threadID, taskID string, entries []agui.ResumeEntry) (*a2a.Message, *a2a.Task, error) {
	resolved, carried := false, false
	for _, e := range entries {
		resolved = resolved || e.Status == agui.ResumeEntryStatusResolved
		carried = carried || e.InterruptID != ""
	}
	if !resolved {
		// The id came from the client: cancel only a task of this thread.
		task, err := a.Client.GetTask(ctx, &a2a.GetTaskRequest{Tenant: a.Tenant, ID: taskID})
		if err != nil {
			return nil, nil, streamError(err)
		}
		if task.ContextID != threadID {
			return nil, nil, &agui.RunError{Message: "the resume names task " + taskID + ", which is not of this thread", Code: "RESUME_FOREIGN_TASK"}
		}
		if task, err = a.Client.CancelTask(ctx, &a2a.CancelTaskRequest{Tenant: a.Tenant, ID: taskID}); err != nil {
			return nil, nil, streamError(err)
		}
		return nil, task, nil
	}
	var parts []*a2a.Part
	for _, e := range entries {
		if e.InterruptID == "" && e.Status == agui.ResumeEntryStatusResolved {
			parts = append(parts, payloadPart(e.Payload))
		}
	}
	if carried {
		data, _ := json.Marshal(map[string]any{"type": dataResume, "resume": entries})
		parts = append(parts, &a2a.Part{Content: &a2a.PartData{Data: data}, MediaType: "application/json"})
	}
	// The thread is the task's context: a server refuses a task of another.
	return &a2a.Message{MessageID: agui.NewID("msg"), ContextID: threadID, TaskID: taskID, Role: a2a.RoleUser, Parts: parts}, nil, nil
}

// payloadPart is a resume payload as an answer: a string as text, other
// JSON as data.
func payloadPart(payload json.RawMessage) *a2a.Part {
	var s string
	if len(payload) == 0 || string(payload) == "null" {
		return &a2a.Part{Content: &a2a.PartText{Text: ""}}
	}
	if json.Unmarshal(payload, &s) == nil {
		return &a2a.Part{Content: &a2a.PartText{Text: s}}
	}
	return &a2a.Part{Content: &a2a.PartData{Data: payload}, MediaType: "application/json"}
}

// parseInterruptID splits an interrupt id the bridge made into its task
// and the id of the interrupt within it ("" for the task's own).
func parseInterruptID(id string) (task, inner string, ok bool) {
	rest, ok := strings.CutPrefix(id, interruptPrefix)
	if !ok {
		return "", "", false
	}
	escaped, inner, _ := strings.Cut(rest, "/")
	task, err := url.PathUnescape(escaped)
	return task, inner, err == nil && task != ""
}

// newParts turns the thread's messages after the last assistant message
// into A2A parts: user text and media, and tool results. id is the user
// message's id when there is exactly one.
func newParts(messages []agui.Message) (parts []*a2a.Part, id string) {
	start := len(messages)
	for start > 0 {
		switch messages[start-1].(type) {
		case *agui.UserMessage, *agui.ToolMessage:
			start--
			continue
		}
		break
	}
	users := 0
	for _, m := range messages[start:] {
		switch m := m.(type) {
		case *agui.UserMessage:
			users++
			id = m.ID
			parts = append(parts, contentParts(m.Content)...)
		case *agui.ToolMessage:
			parts = append(parts, ToolResultPart(ToolResult{ToolCallID: m.ToolCallID, Content: contentText(m.Content), IsError: m.Error != nil}))
		}
	}
	if users != 1 {
		id = ""
	}
	return parts, id
}

// contentParts turns AG-UI content into A2A parts: text as text, media by
// URL or inline bytes.
func contentParts(c agui.Content) []*a2a.Part {
	if !c.IsList() {
		if c.Text == "" {
			return nil
		}
		return []*a2a.Part{{Content: &a2a.PartText{Text: c.Text}}}
	}
	var parts []*a2a.Part
	for _, p := range c.Parts {
		var src agui.PartSource
		switch p := p.(type) {
		case *agui.TextPart:
			parts = append(parts, &a2a.Part{Content: &a2a.PartText{Text: p.Text}})
			continue
		case *agui.ImagePart:
			src = p.Source
		case *agui.AudioPart:
			src = p.Source
		case *agui.VideoPart:
			src = p.Source
		case *agui.DocumentPart:
			src = p.Source
		}
		if part := sourcePart(src); part != nil {
			parts = append(parts, part)
		}
	}
	return parts
}

func sourcePart(src agui.PartSource) *a2a.Part {
	switch s := src.(type) {
	case *agui.DataSource:
		raw, err := base64.StdEncoding.DecodeString(s.Value)
		if err != nil {
			return nil
		}
		return &a2a.Part{Content: &a2a.PartRaw{Raw: raw}, MediaType: s.MIMEType}
	case *agui.URLSource:
		p := &a2a.Part{Content: &a2a.PartURL{URL: s.Value}}
		if s.MIMEType != nil {
			p.MediaType = *s.MIMEType
		}
		return p
	}
	return nil
}

// contentText is the text of AG-UI content.
func contentText(c agui.Content) string {
	if !c.IsList() {
		return c.Text
	}
	var b strings.Builder
	for _, p := range c.Parts {
		if t, ok := p.(*agui.TextPart); ok {
			b.WriteString(t.Text)
		}
	}
	return b.String()
}
