package v03

import (
	"encoding/json"
	"strconv"

	a2a "github.com/agui-gen/agui-gen/gen/a2a"
	"github.com/agui-gen/agui-gen/gen/a2a/a2av03"
)

// Push notification configs are shaped differently: 0.3 nests the config
// (id, url, token, authentication) in a TaskPushNotificationConfig beside
// the task id, and names the task "id" and the config
// "pushNotificationConfigId" in its params; 1.0 has one flat config with
// task_id and id. 0.3's authentication lists schemes, 1.0's names one: a
// config with several keeps the first.

// FromV03TaskPushNotificationConfig converts a 0.3 config to 1.0's.
func FromV03TaskPushNotificationConfig(x *a2av03.TaskPushNotificationConfig) (*a2a.TaskPushNotificationConfig, error) {
	c := pushFromV03(&x.PushNotificationConfig)
	c.TaskID = x.TaskID
	return c, nil
}

// ToV03TaskPushNotificationConfig converts a 1.0 config to 0.3's.
func ToV03TaskPushNotificationConfig(x *a2a.TaskPushNotificationConfig) *a2av03.TaskPushNotificationConfig {
	if x == nil {
		return nil
	}
	return &a2av03.TaskPushNotificationConfig{TaskID: x.TaskID, PushNotificationConfig: pushToV03(x)}
}

// pushFromV03 converts the config proper; the caller sets the task.
func pushFromV03(p *a2av03.PushNotificationConfig) *a2a.TaskPushNotificationConfig {
	c := &a2a.TaskPushNotificationConfig{URL: p.URL}
	if p.ID != nil {
		c.ID = *p.ID
	}
	if p.Token != nil {
		c.Token = *p.Token
	}
	if auth := p.Authentication; auth != nil && len(auth.Schemes) > 0 {
		c.Authentication = &a2a.AuthenticationInfo{Scheme: auth.Schemes[0]}
		if auth.Credentials != nil {
			c.Authentication.Credentials = *auth.Credentials
		}
	}
	return c
}

func pushToV03(c *a2a.TaskPushNotificationConfig) a2av03.PushNotificationConfig {
	p := a2av03.PushNotificationConfig{URL: c.URL}
	if c.ID != "" {
		p.ID = &c.ID
	}
	if c.Token != "" {
		p.Token = &c.Token
	}
	if auth := c.Authentication; auth != nil {
		p.Authentication = &a2av03.PushNotificationAuthenticationInfo{Schemes: []string{auth.Scheme}}
		if auth.Credentials != "" {
			p.Authentication.Credentials = &auth.Credentials
		}
	}
	return p
}

// FromV03GetTaskPushNotificationConfigRequest reads 0.3's get params: the
// task is "id", the config "pushNotificationConfigId" (absent: the task's
// only config, which 0.3 clients name by the task's id).
func FromV03GetTaskPushNotificationConfigRequest(x *a2av03.GetTaskPushNotificationConfigParams) (*a2a.GetTaskPushNotificationConfigRequest, error) {
	req := &a2a.GetTaskPushNotificationConfigRequest{TaskID: x.ID, ID: x.ID}
	if x.PushNotificationConfigID != nil {
		req.ID = *x.PushNotificationConfigID
	}
	return req, nil
}

// FromV03DeleteTaskPushNotificationConfigRequest reads 0.3's delete params.
func FromV03DeleteTaskPushNotificationConfigRequest(x *a2av03.DeleteTaskPushNotificationConfigParams) (*a2a.DeleteTaskPushNotificationConfigRequest, error) {
	return &a2a.DeleteTaskPushNotificationConfigRequest{TaskID: x.ID, ID: x.PushNotificationConfigID}, nil
}

// FromV03ListTaskPushNotificationConfigsRequest reads 0.3's list params,
// whose "id" is the task's.
func FromV03ListTaskPushNotificationConfigsRequest(x *a2av03.ListTaskPushNotificationConfigParams) (*a2a.ListTaskPushNotificationConfigsRequest, error) {
	return &a2a.ListTaskPushNotificationConfigsRequest{TaskID: x.ID}, nil
}

// appendV03ListTaskPushNotificationConfigsResponse writes 0.3's list
// result, a bare array of configs; 1.0 pages, 0.3 does not, so a next page
// token is dropped (the runtime answers 0.3 clients with every config).
func appendV03ListTaskPushNotificationConfigsResponse(b []byte, resp *a2a.ListTaskPushNotificationConfigsResponse) []byte {
	b = append(b, '[')
	for i, c := range resp.Configs {
		if i > 0 {
			b = append(b, ',')
		}
		b = ToV03TaskPushNotificationConfig(c).AppendJSON(b)
	}
	return append(b, ']')
}

// ToV03GetTaskPushNotificationConfigParams writes 1.0's get request as
// 0.3's params.
func ToV03GetTaskPushNotificationConfigParams(x *a2a.GetTaskPushNotificationConfigRequest) *a2av03.GetTaskPushNotificationConfigParams {
	return &a2av03.GetTaskPushNotificationConfigParams{ID: x.TaskID, PushNotificationConfigID: &x.ID}
}

// ToV03DeleteTaskPushNotificationConfigParams writes 1.0's delete request
// as 0.3's params.
func ToV03DeleteTaskPushNotificationConfigParams(x *a2a.DeleteTaskPushNotificationConfigRequest) *a2av03.DeleteTaskPushNotificationConfigParams {
	return &a2av03.DeleteTaskPushNotificationConfigParams{ID: x.TaskID, PushNotificationConfigID: x.ID}
}

// ToV03ListTaskPushNotificationConfigParams writes 1.0's list request as
// 0.3's params; 0.3 does not page, so the page size and token are dropped.
func ToV03ListTaskPushNotificationConfigParams(x *a2a.ListTaskPushNotificationConfigsRequest) *a2av03.ListTaskPushNotificationConfigParams {
	return &a2av03.ListTaskPushNotificationConfigParams{ID: x.TaskID}
}

// readV03ListTaskPushNotificationConfigsResponse reads 0.3's list result,
// an array of configs, as one page of 1.0's.
func readV03ListTaskPushNotificationConfigsResponse(result []byte) (*a2a.ListTaskPushNotificationConfigsResponse, error) {
	var list []json.RawMessage
	if err := json.Unmarshal(result, &list); err != nil {
		return nil, &a2a.CompatError{Msg: "the result is not a list of push configs: " + err.Error()}
	}
	resp := &a2a.ListTaskPushNotificationConfigsResponse{}
	for i, raw := range list {
		var c a2av03.TaskPushNotificationConfig
		if err := c.UnmarshalJSON(raw); err != nil {
			return nil, err
		}
		v1, err := FromV03TaskPushNotificationConfig(&c)
		if err != nil {
			return nil, &a2a.CompatError{Path: "/" + strconv.Itoa(i), Msg: err.Error()}
		}
		resp.Configs = append(resp.Configs, v1)
	}
	return resp, nil
}
