package a2atask

import (
	"context"
	"encoding/base64"
	"fmt"
	"slices"
	"strconv"

	a2a "github.com/agui-gen/agui-gen/gen/a2a"
)

// pushEnabled refuses the push RPCs of a runtime without push
// notifications.
func (rt *Runtime) pushEnabled() error {
	if rt.pushConfigs == nil {
		return a2a.NewError(a2a.ErrPushNotificationNotSupported, "this agent sends no push notifications")
	}
	return nil
}

// savePushConfig validates and stores a config of a task the caller may
// see, giving it an ID when it has none.
func (rt *Runtime) savePushConfig(ctx context.Context, cfg *a2a.TaskPushNotificationConfig) error {
	if err := rt.pushEnabled(); err != nil {
		return err
	}
	if err := rt.pushSender.Check(cfg.URL); err != nil {
		return a2a.NewError(a2a.ErrInvalidParams, err.Error())
	}
	if cfg.ID == "" {
		cfg.ID = newID()
	}
	existing, err := rt.pushConfigs.PushConfigs(ctx, cfg.TaskID)
	if err != nil {
		return err
	}
	if len(existing) >= maxConfigsPerTask && !slices.ContainsFunc(existing, func(c *a2a.TaskPushNotificationConfig) bool { return c.ID == cfg.ID }) {
		return a2a.NewError(a2a.ErrInvalidParams, fmt.Sprintf("task %s has %d push notification configs, the most it may have", cfg.TaskID, maxConfigsPerTask))
	}
	return rt.pushConfigs.SavePushConfig(ctx, cfg)
}

// CreateTaskPushNotificationConfig adds a webhook to a task.
func (rt *Runtime) CreateTaskPushNotificationConfig(ctx context.Context, req *a2a.TaskPushNotificationConfig) (_ *a2a.TaskPushNotificationConfig, err error) {
	defer rt.explain(&err)
	if err := rt.pushEnabled(); err != nil {
		return nil, err
	}
	if _, err := rt.load(ctx, req.TaskID); err != nil {
		return nil, err
	}
	cfg := req.Clone()
	if err := rt.savePushConfig(ctx, cfg); err != nil {
		return nil, err
	}
	return cfg, nil
}

// GetTaskPushNotificationConfig returns one webhook of a task.
func (rt *Runtime) GetTaskPushNotificationConfig(ctx context.Context, req *a2a.GetTaskPushNotificationConfigRequest) (_ *a2a.TaskPushNotificationConfig, err error) {
	defer rt.explain(&err)
	cfgs, err := rt.taskPushConfigs(ctx, req.TaskID)
	if err != nil {
		return nil, err
	}
	for _, c := range cfgs {
		if c.ID == req.ID {
			return c, nil
		}
	}
	return nil, a2a.NewError(a2a.ErrTaskNotFound, fmt.Sprintf("task %s has no push notification config %q", req.TaskID, req.ID))
}

// ListTaskPushNotificationConfigs pages through the webhooks of a task.
func (rt *Runtime) ListTaskPushNotificationConfigs(ctx context.Context, req *a2a.ListTaskPushNotificationConfigsRequest) (_ *a2a.ListTaskPushNotificationConfigsResponse, err error) {
	defer rt.explain(&err)
	cfgs, err := rt.taskPushConfigs(ctx, req.TaskID)
	if err != nil {
		return nil, err
	}
	size := int(req.PageSize)
	if size <= 0 || size > maxPageSize {
		size = maxPageSize
	}
	start := 0
	if req.PageToken != "" {
		b, err := base64.RawURLEncoding.DecodeString(req.PageToken)
		n, err2 := strconv.Atoi(string(b))
		if err != nil || err2 != nil || n < 0 || n > len(cfgs) {
			return nil, a2a.NewError(a2a.ErrInvalidParams, "pageToken is not one this server issued")
		}
		start = n
	}
	end := min(start+size, len(cfgs))
	resp := &a2a.ListTaskPushNotificationConfigsResponse{Configs: cfgs[start:end]}
	if end < len(cfgs) {
		resp.NextPageToken = base64.RawURLEncoding.EncodeToString([]byte(strconv.Itoa(end)))
	}
	return resp, nil
}

// DeleteTaskPushNotificationConfig removes a webhook of a task. It is
// idempotent (A2A §3.1.10): deleting a config the task does not have, or no
// longer has, succeeds. Only a task the caller may not see is refused, with
// TASK_NOT_FOUND, as one that does not exist.
func (rt *Runtime) DeleteTaskPushNotificationConfig(ctx context.Context, req *a2a.DeleteTaskPushNotificationConfigRequest) (_ *a2a.Empty, err error) {
	defer rt.explain(&err)
	if err := rt.pushEnabled(); err != nil {
		return nil, err
	}
	if _, err := rt.load(ctx, req.TaskID); err != nil {
		return nil, err
	}
	if _, err := rt.pushConfigs.DeletePushConfig(ctx, req.TaskID, req.ID); err != nil {
		return nil, err
	}
	return &a2a.Empty{}, nil
}

// taskPushConfigs returns the configs of a task the caller may see.
func (rt *Runtime) taskPushConfigs(ctx context.Context, taskID string) ([]*a2a.TaskPushNotificationConfig, error) {
	if err := rt.pushEnabled(); err != nil {
		return nil, err
	}
	if _, err := rt.load(ctx, taskID); err != nil {
		return nil, err
	}
	return rt.pushConfigs.PushConfigs(ctx, taskID)
}
