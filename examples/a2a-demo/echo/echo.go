// Package echo is a small A2A agent kept in memory: it answers every
// message with a task that echoes the message's text as an artifact and
// completes. It serves the demo and the binding tests; a real agent runs on
// the task runtime instead.
package echo

import (
	"context"
	"encoding/base64"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/agui-gen/agui-gen/gen/a2a"
)

// Agent is the echo agent. Its zero value is not ready; use New.
type Agent struct {
	a2a.UnimplementedA2AServiceServer

	// ExtendedCard, when set, is what GetExtendedAgentCard answers to an
	// authenticated caller.
	ExtendedCard *a2a.AgentCard
	// StepDelay paces streamed events, so a test can watch a stream live.
	StepDelay time.Duration

	mu    sync.Mutex
	tasks map[string]*a2a.Task
	order []string
	seq   int
}

// New returns an empty echo agent.
func New() *Agent { return &Agent{tasks: map[string]*a2a.Task{}} }

func (a *Agent) newID(prefix string) string {
	a.seq++
	return prefix + "-" + strconv.Itoa(a.seq)
}

// text joins the text parts of a message.
func text(m *a2a.Message) string {
	var parts []string
	for _, p := range m.Parts {
		if t, ok := p.Content.(*a2a.PartText); ok {
			parts = append(parts, t.Text)
		}
	}
	return strings.Join(parts, " ")
}

// start records a new task for msg in the submitted state.
func (a *Agent) start(msg *a2a.Message) (*a2a.Task, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if msg.TaskID != "" {
		if _, ok := a.tasks[msg.TaskID]; !ok {
			return nil, a2a.NewError(a2a.ErrTaskNotFound, "task "+msg.TaskID+" not found")
		}
		return nil, a2a.NewError(a2a.ErrUnsupportedOperation, "task "+msg.TaskID+" is complete and takes no more messages")
	}
	ctxID := msg.ContextID
	if ctxID == "" {
		ctxID = a.newID("ctx")
	}
	now := time.Now().UTC().Truncate(time.Millisecond)
	in := *msg
	in.ContextID = ctxID
	t := &a2a.Task{ID: a.newID("task"), ContextID: ctxID,
		Status:  &a2a.TaskStatus{State: a2a.TaskStateSubmitted, Timestamp: &now},
		History: []*a2a.Message{&in}}
	in.TaskID = t.ID
	a.tasks[t.ID] = t
	a.order = append(a.order, t.ID)
	return t, nil
}

func (a *Agent) artifact(t *a2a.Task, echo string) *a2a.Artifact {
	return &a2a.Artifact{ArtifactID: t.ID + "-echo", Name: "echo",
		Parts: []*a2a.Part{{Content: &a2a.PartText{Text: echo}, MediaType: "text/plain"}}}
}

// finish completes t with its echo artifact and the agent's reply.
func (a *Agent) finish(t *a2a.Task, art *a2a.Artifact) {
	a.mu.Lock()
	defer a.mu.Unlock()
	now := time.Now().UTC().Truncate(time.Millisecond)
	reply := &a2a.Message{MessageID: a.newID("msg"), ContextID: t.ContextID, TaskID: t.ID, Role: a2a.RoleAgent,
		Parts: []*a2a.Part{{Content: &a2a.PartText{Text: "done"}}}}
	t.Artifacts = []*a2a.Artifact{art}
	t.History = append(t.History, reply)
	t.Status = &a2a.TaskStatus{State: a2a.TaskStateCompleted, Timestamp: &now}
}

func (a *Agent) snapshot(t *a2a.Task, historyLength *int32) *a2a.Task {
	a.mu.Lock()
	defer a.mu.Unlock()
	c := *t
	c.History = slices.Clone(t.History)
	if historyLength != nil && int(*historyLength) < len(c.History) {
		c.History = c.History[len(c.History)-int(*historyLength):]
	}
	return &c
}

// SendMessage answers with the completed task.
func (a *Agent) SendMessage(ctx context.Context, req *a2a.SendMessageRequest) (*a2a.SendMessageResponse, error) {
	t, err := a.start(req.Message)
	if err != nil {
		return nil, err
	}
	a.finish(t, a.artifact(t, text(req.Message)))
	var hl *int32
	if req.Configuration != nil {
		hl = req.Configuration.HistoryLength
	}
	return &a2a.SendMessageResponse{Payload: &a2a.SendMessageResponseTask{Task: a.snapshot(t, hl)}}, nil
}

// SendStreamingMessage streams the task, WORKING, the artifact and
// COMPLETED.
func (a *Agent) SendStreamingMessage(ctx context.Context, req *a2a.SendMessageRequest, send func(*a2a.StreamResponse) error) error {
	t, err := a.start(req.Message)
	if err != nil {
		return err
	}
	pause := func() error {
		if a.StepDelay == 0 {
			return ctx.Err()
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(a.StepDelay):
			return nil
		}
	}
	if err := send(&a2a.StreamResponse{Payload: &a2a.StreamResponseTask{Task: a.snapshot(t, nil)}}); err != nil {
		return err
	}
	now := time.Now().UTC().Truncate(time.Millisecond)
	working := &a2a.TaskStatus{State: a2a.TaskStateWorking, Timestamp: &now}
	a.mu.Lock()
	t.Status = working
	a.mu.Unlock()
	if err := pause(); err != nil {
		return err
	}
	if err := send(&a2a.StreamResponse{Payload: &a2a.StreamResponseStatusUpdate{StatusUpdate: &a2a.TaskStatusUpdateEvent{
		TaskID: t.ID, ContextID: t.ContextID, Status: working}}}); err != nil {
		return err
	}
	art := a.artifact(t, text(req.Message))
	if err := pause(); err != nil {
		return err
	}
	if err := send(&a2a.StreamResponse{Payload: &a2a.StreamResponseArtifactUpdate{ArtifactUpdate: &a2a.TaskArtifactUpdateEvent{
		TaskID: t.ID, ContextID: t.ContextID, Artifact: art, LastChunk: true}}}); err != nil {
		return err
	}
	a.finish(t, art)
	return send(&a2a.StreamResponse{Payload: &a2a.StreamResponseStatusUpdate{StatusUpdate: &a2a.TaskStatusUpdateEvent{
		TaskID: t.ID, ContextID: t.ContextID, Status: a.snapshot(t, nil).Status}}})
}

func (a *Agent) task(id string) (*a2a.Task, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	t, ok := a.tasks[id]
	if !ok {
		return nil, a2a.NewError(a2a.ErrTaskNotFound, "task "+strconv.Quote(id)+" not found")
	}
	return t, nil
}

// GetTask answers with a task it ran.
func (a *Agent) GetTask(ctx context.Context, req *a2a.GetTaskRequest) (*a2a.Task, error) {
	t, err := a.task(req.ID)
	if err != nil {
		return nil, err
	}
	return a.snapshot(t, req.HistoryLength), nil
}

// ListTasks pages through the tasks, newest first.
func (a *Agent) ListTasks(ctx context.Context, req *a2a.ListTasksRequest) (*a2a.ListTasksResponse, error) {
	size := int32(50)
	if req.PageSize != nil {
		if *req.PageSize < 1 || *req.PageSize > 100 {
			return nil, a2a.NewError(a2a.ErrInvalidParams, "pageSize must be between 1 and 100")
		}
		size = *req.PageSize
	}
	start := 0
	if req.PageToken != "" {
		b, err := base64.RawURLEncoding.DecodeString(req.PageToken)
		n, err2 := strconv.Atoi(string(b))
		if err != nil || err2 != nil || n < 0 {
			return nil, a2a.NewError(a2a.ErrInvalidParams, "pageToken is not one this agent issued")
		}
		start = n
	}
	a.mu.Lock()
	var match []*a2a.Task
	for i := len(a.order) - 1; i >= 0; i-- {
		t := a.tasks[a.order[i]]
		if (req.ContextID == "" || t.ContextID == req.ContextID) && (req.Status == 0 || t.Status.State == req.Status) {
			match = append(match, t)
		}
	}
	a.mu.Unlock()
	resp := &a2a.ListTasksResponse{PageSize: size, TotalSize: int32(len(match))}
	end := min(start+int(size), len(match))
	for _, t := range match[min(start, len(match)):end] {
		c := a.snapshot(t, req.HistoryLength)
		if req.IncludeArtifacts == nil || !*req.IncludeArtifacts {
			c.Artifacts = nil
		}
		resp.Tasks = append(resp.Tasks, c)
	}
	if end < len(match) {
		resp.NextPageToken = base64.RawURLEncoding.EncodeToString([]byte(strconv.Itoa(end)))
	}
	return resp, nil
}

// CancelTask refuses: every echo task completes at once.
func (a *Agent) CancelTask(ctx context.Context, req *a2a.CancelTaskRequest) (*a2a.Task, error) {
	t, err := a.task(req.ID)
	if err != nil {
		return nil, err
	}
	return nil, a2a.NewError(a2a.ErrTaskNotCancelable, fmt.Sprintf("task %s is %s", t.ID, a.snapshot(t, nil).Status.State))
}

// SubscribeToTask refuses: a completed task has nothing more to say.
func (a *Agent) SubscribeToTask(ctx context.Context, req *a2a.SubscribeToTaskRequest, send func(*a2a.StreamResponse) error) error {
	if _, err := a.task(req.ID); err != nil {
		return err
	}
	return a2a.NewError(a2a.ErrUnsupportedOperation, "task "+req.ID+" is in a terminal state")
}

// GetExtendedAgentCard answers authenticated callers with ExtendedCard.
func (a *Agent) GetExtendedAgentCard(ctx context.Context, req *a2a.GetExtendedAgentCardRequest) (*a2a.AgentCard, error) {
	if a.ExtendedCard == nil {
		return nil, a2a.ErrExtendedAgentCardNotConfigured
	}
	if info := a2a.CallInfoFrom(ctx); info == nil || info.Principal == nil {
		return nil, a2a.NewError(a2a.ErrUnauthenticated, "the extended agent card is for authenticated callers")
	}
	return a.ExtendedCard, nil
}

// The push notification RPCs answer that this agent sends none.

func (a *Agent) CreateTaskPushNotificationConfig(context.Context, *a2a.TaskPushNotificationConfig) (*a2a.TaskPushNotificationConfig, error) {
	return nil, a2a.ErrPushNotificationNotSupported
}

func (a *Agent) GetTaskPushNotificationConfig(context.Context, *a2a.GetTaskPushNotificationConfigRequest) (*a2a.TaskPushNotificationConfig, error) {
	return nil, a2a.ErrPushNotificationNotSupported
}

func (a *Agent) ListTaskPushNotificationConfigs(context.Context, *a2a.ListTaskPushNotificationConfigsRequest) (*a2a.ListTaskPushNotificationConfigsResponse, error) {
	return nil, a2a.ErrPushNotificationNotSupported
}

func (a *Agent) DeleteTaskPushNotificationConfig(context.Context, *a2a.DeleteTaskPushNotificationConfigRequest) (*a2a.Empty, error) {
	return nil, a2a.ErrPushNotificationNotSupported
}

// Card returns the echo agent's card for an agent served at baseURL with
// NewHandler.
func Card(baseURL string) *a2a.AgentCard {
	streaming, push, extended := true, false, true
	return &a2a.AgentCard{
		Name:                "echo",
		Description:         "Answers every message with a task that echoes its text as an artifact.",
		Version:             "1.0.0",
		SupportedInterfaces: a2a.Interfaces(baseURL),
		Capabilities:        &a2a.AgentCapabilities{Streaming: &streaming, PushNotifications: &push, ExtendedAgentCard: &extended},
		DefaultInputModes:   []string{"text/plain"},
		DefaultOutputModes:  []string{"text/plain"},
		Skills: []*a2a.AgentSkill{{ID: "echo", Name: "Echo", Description: "Repeats what it is told.",
			Tags: []string{"echo", "test"}, Examples: []string{"hello"}}},
	}
}
