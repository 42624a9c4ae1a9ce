package v03

import (
	"encoding/json"
	"strconv"
	"strings"

	a2a "github.com/agui-gen/agui-gen/gen/a2a"
	"github.com/agui-gen/agui-gen/gen/a2a/a2av03pb"
)

// The rules of 0.3's proto, whose messages are the bodies of its gRPC
// service and HTTP+JSON bindings. They differ from 1.0's where the meaning
// moved: parts, the resource names that requests carry ("tasks/{id}"), the
// push config's nesting, and what a 0.3 client finds the agent by.

// FromV03ProtoPart converts a 0.3 proto part (text, a file by URI or bytes,
// or a data object) to 1.0's.
func FromV03ProtoPart(x *a2av03pb.Part) (*a2a.Part, error) {
	if x == nil {
		return nil, nil
	}
	switch p := x.Part.(type) {
	case *a2av03pb.PartText:
		return &a2a.Part{Content: &a2a.PartText{Text: p.Text}}, nil
	case *a2av03pb.PartData:
		data := json.RawMessage(`{}`)
		if p.Data != nil && len(p.Data.Data) > 0 {
			data = p.Data.Data
		}
		return &a2a.Part{Content: &a2a.PartData{Data: data}}, nil
	case *a2av03pb.PartFile:
		if p.File == nil {
			break
		}
		out := &a2a.Part{MediaType: p.File.MIMEType}
		switch f := p.File.File.(type) {
		case *a2av03pb.FilePartFileWithURI:
			out.Content = &a2a.PartURL{URL: f.FileWithURI}
		case *a2av03pb.FilePartFileWithBytes:
			out.Content = &a2a.PartRaw{Raw: f.FileWithBytes}
		default:
			return nil, &a2a.CompatError{Path: "/file", Msg: "a file part needs fileWithUri or fileWithBytes"}
		}
		return out, nil
	}
	return nil, &a2a.CompatError{Msg: "a part must be text, a file or data"}
}

// ToV03ProtoPart converts a 1.0 part to 0.3's proto part; nil when it has
// no content. 0.3's proto has no place for a part's metadata or its file's
// name. A data value that is not an object is carried as {"value": …}, as
// a 0.3 data part holds an object.
func ToV03ProtoPart(x *a2a.Part) *a2av03pb.Part {
	if x == nil {
		return nil
	}
	switch c := x.Content.(type) {
	case *a2a.PartText:
		return &a2av03pb.Part{Part: &a2av03pb.PartText{Text: c.Text}}
	case *a2a.PartRaw:
		return &a2av03pb.Part{Part: &a2av03pb.PartFile{File: &a2av03pb.FilePart{
			File: &a2av03pb.FilePartFileWithBytes{FileWithBytes: c.Raw}, MIMEType: x.MediaType}}}
	case *a2a.PartURL:
		return &a2av03pb.Part{Part: &a2av03pb.PartFile{File: &a2av03pb.FilePart{
			File: &a2av03pb.FilePartFileWithURI{FileWithURI: c.URL}, MIMEType: x.MediaType}}}
	case *a2a.PartData:
		return &a2av03pb.Part{Part: &a2av03pb.PartData{Data: &a2av03pb.DataPart{Data: dataObject(c.Data)}}}
	}
	return nil
}

// fixFromV03ProtoMessage carries the parts, which 0.3's proto names
// "content".
func fixFromV03ProtoMessage(x *a2av03pb.Message, out *a2a.Message) error {
	parts := make([]*a2a.Part, 0, len(x.Content))
	for i, p := range x.Content {
		c, err := FromV03ProtoPart(p)
		if err != nil {
			if e, ok := err.(*a2a.CompatError); ok {
				e.Path = "/content/" + strconv.Itoa(i) + e.Path
			}
			return err
		}
		parts = append(parts, c)
	}
	out.Parts = parts
	return nil
}

// fixToV03ProtoMessage carries the parts as 0.3's "content".
func fixToV03ProtoMessage(x *a2a.Message, out *a2av03pb.Message) {
	for _, p := range x.Parts {
		if c := ToV03ProtoPart(p); c != nil {
			out.Content = append(out.Content, c)
		}
	}
}

// fixFromV03ProtoSendMessageConfiguration: 0.3's "blocking" is 1.0's
// "returnImmediately" turned over. A proto bool has no absence, so a client
// that sends a configuration says which it wants; one that sends none
// waits, as in 1.0. Its push config is 1.0's task push config.
func fixFromV03ProtoSendMessageConfiguration(x *a2av03pb.SendMessageConfiguration, out *a2a.SendMessageConfiguration) error {
	out.ReturnImmediately = !x.Blocking
	if x.PushNotification != nil {
		out.TaskPushNotificationConfig = pushFromV03Proto(x.PushNotification)
	}
	return nil
}

// fixToV03ProtoTaskStatusUpdateEvent sets "final", as for 0.3's JSON: the
// update of a terminal state, or of one that waits for the client, ends a
// 0.3 client's stream.
func fixToV03ProtoTaskStatusUpdateEvent(x *a2a.TaskStatusUpdateEvent, out *a2av03pb.TaskStatusUpdateEvent) {
	out.Final = final(x.Status)
}

// Requests name tasks and push configs by resource name in 0.3's proto
// ("tasks/{task}", "tasks/{task}/pushNotificationConfigs/{config}"), by id
// in 1.0's.

// fixFromV03ProtoGetTaskRequest reads the task from "name".
func fixFromV03ProtoGetTaskRequest(x *a2av03pb.GetTaskRequest, out *a2a.GetTaskRequest) (err error) {
	out.ID, err = taskName("/name", x.Name)
	return err
}

// fixFromV03ProtoCancelTaskRequest reads the task from "name".
func fixFromV03ProtoCancelTaskRequest(x *a2av03pb.CancelTaskRequest, out *a2a.CancelTaskRequest) (err error) {
	out.ID, err = taskName("/name", x.Name)
	return err
}

// fixFromV03ProtoSubscribeToTaskRequest reads the task from "name".
func fixFromV03ProtoSubscribeToTaskRequest(x *a2av03pb.TaskSubscriptionRequest, out *a2a.SubscribeToTaskRequest) (err error) {
	out.ID, err = taskName("/name", x.Name)
	return err
}

// fixFromV03ProtoGetTaskPushNotificationConfigRequest reads the task and
// the config from "name". A name without a config
// ("tasks/{task}/pushNotificationConfigs/", as a2a-go v0.3 sends when it
// is given none) asks for the task's only config, which 0.3 names by the
// task's id, as over JSON-RPC.
func fixFromV03ProtoGetTaskPushNotificationConfigRequest(x *a2av03pb.GetTaskPushNotificationConfigRequest, out *a2a.GetTaskPushNotificationConfigRequest) error {
	if task, ok := strings.CutSuffix(x.Name, "/pushNotificationConfigs/"); ok {
		id, err := taskName("/name", task)
		out.TaskID, out.ID = id, id
		return err
	}
	var err error
	out.TaskID, out.ID, err = configName("/name", x.Name)
	return err
}

// fixFromV03ProtoDeleteTaskPushNotificationConfigRequest reads the task and
// the config from "name".
func fixFromV03ProtoDeleteTaskPushNotificationConfigRequest(x *a2av03pb.DeleteTaskPushNotificationConfigRequest, out *a2a.DeleteTaskPushNotificationConfigRequest) (err error) {
	out.TaskID, out.ID, err = configName("/name", x.Name)
	return err
}

// fixFromV03ProtoListTaskPushNotificationConfigsRequest reads the task from
// "parent".
func fixFromV03ProtoListTaskPushNotificationConfigsRequest(x *a2av03pb.ListTaskPushNotificationConfigRequest, out *a2a.ListTaskPushNotificationConfigsRequest) (err error) {
	out.TaskID, err = taskName("/parent", x.Parent)
	return err
}

// FromV03ProtoTaskPushNotificationConfigOfCreateTaskPushNotificationConfigRequest
// reads 0.3's create request: the task is "parent", the config nested in
// "config". The config's id is its own "id", else the request's
// "configId".
func FromV03ProtoTaskPushNotificationConfigOfCreateTaskPushNotificationConfigRequest(x *a2av03pb.CreateTaskPushNotificationConfigRequest) (*a2a.TaskPushNotificationConfig, error) {
	if x == nil {
		return nil, nil
	}
	task, err := taskName("/parent", x.Parent)
	if err != nil {
		return nil, err
	}
	if x.Config == nil || x.Config.PushNotificationConfig == nil {
		return nil, &a2a.CompatError{Path: "/config/pushNotificationConfig", Msg: "is required"}
	}
	c := pushFromV03Proto(x.Config.PushNotificationConfig)
	c.TaskID = task
	if c.ID == "" {
		c.ID = x.ConfigID
	}
	return c, nil
}

// ToV03ProtoTaskPushNotificationConfig converts a 1.0 config to 0.3's: the
// config proper nested beside its resource name.
func ToV03ProtoTaskPushNotificationConfig(x *a2a.TaskPushNotificationConfig) *a2av03pb.TaskPushNotificationConfig {
	if x == nil {
		return nil
	}
	p := &a2av03pb.PushNotificationConfig{ID: x.ID, URL: x.URL, Token: x.Token}
	if auth := x.Authentication; auth != nil {
		p.Authentication = &a2av03pb.AuthenticationInfo{Schemes: []string{auth.Scheme}, Credentials: auth.Credentials}
	}
	return &a2av03pb.TaskPushNotificationConfig{Name: "tasks/" + x.TaskID + "/pushNotificationConfigs/" + x.ID, PushNotificationConfig: p}
}

// pushFromV03Proto converts the config proper; the caller sets the task.
// 0.3's authentication lists schemes, 1.0's names one: the first is kept.
func pushFromV03Proto(p *a2av03pb.PushNotificationConfig) *a2a.TaskPushNotificationConfig {
	c := &a2a.TaskPushNotificationConfig{ID: p.ID, URL: p.URL, Token: p.Token}
	if auth := p.Authentication; auth != nil && len(auth.Schemes) > 0 {
		c.Authentication = &a2a.AuthenticationInfo{Scheme: auth.Schemes[0], Credentials: auth.Credentials}
	}
	return c
}

// taskName reads the task id of a resource name "tasks/{id}" at path.
func taskName(path, name string) (string, error) {
	id, ok := strings.CutPrefix(name, "tasks/")
	if !ok || id == "" || strings.Contains(id, "/") {
		return "", &a2a.CompatError{Path: path, Msg: "want tasks/{id}, not " + strconv.Quote(name)}
	}
	return id, nil
}

// configName reads "tasks/{task}/pushNotificationConfigs/{config}" at path.
func configName(path, name string) (task, config string, err error) {
	parts := strings.Split(name, "/")
	if len(parts) != 4 || parts[0] != "tasks" || parts[1] == "" || parts[2] != "pushNotificationConfigs" || parts[3] == "" {
		return "", "", &a2a.CompatError{Path: path, Msg: "want tasks/{task}/pushNotificationConfigs/{config}, not " + strconv.Quote(name)}
	}
	return parts[1], parts[3], nil
}

// fixToV03ProtoAgentCard fills what a 0.3 client finds the agent by, as
// fixToV03AgentCard does for 0.3's JSON: the protocol version, "url",
// "preferredTransport" and "additionalInterfaces" for the interfaces that
// serve 0.3, "security" and "supportsAuthenticatedExtendedCard".
func fixToV03ProtoAgentCard(x *a2a.AgentCard, out *a2av03pb.AgentCard) {
	out.ProtocolVersion = "0.3.0"
	for _, i := range servedToV03(x) {
		if out.URL == "" {
			out.URL, out.PreferredTransport = i.URL, i.ProtocolBinding
		}
		out.AdditionalInterfaces = append(out.AdditionalInterfaces, &a2av03pb.AgentInterface{URL: i.URL, Transport: i.ProtocolBinding})
	}
	out.Security = securityToV03Proto(x.SecurityRequirements)
	out.SupportsAuthenticatedExtendedCard = extendedCard(x)
}

// fixToV03ProtoAgentSkill moves a skill's security requirements to 0.3's
// "security".
func fixToV03ProtoAgentSkill(x *a2a.AgentSkill, out *a2av03pb.AgentSkill) {
	out.Security = securityToV03Proto(x.SecurityRequirements)
}

// securityToV03Proto writes 1.0's requirements as 0.3's, which have the
// same shape under another name.
func securityToV03Proto(reqs []*a2a.SecurityRequirement) []*a2av03pb.Security {
	var out []*a2av03pb.Security
	for _, r := range reqs {
		s := &a2av03pb.Security{Schemes: map[string]*a2av03pb.StringList{}}
		for name, scopes := range r.Schemes {
			s.Schemes[name] = &a2av03pb.StringList{}
			if scopes != nil {
				s.Schemes[name].List = scopes.List
			}
		}
		out = append(out, s)
	}
	return out
}

// The client's side: this version's requests to a server of 0.3's proto,
// and its answers back.

// fixToV03ProtoGetTaskRequest names the task "tasks/{id}".
func fixToV03ProtoGetTaskRequest(x *a2a.GetTaskRequest, out *a2av03pb.GetTaskRequest) {
	out.Name = "tasks/" + x.ID
}

// fixToV03ProtoCancelTaskRequest names the task "tasks/{id}".
func fixToV03ProtoCancelTaskRequest(x *a2a.CancelTaskRequest, out *a2av03pb.CancelTaskRequest) {
	out.Name = "tasks/" + x.ID
}

// fixToV03ProtoTaskSubscriptionRequest names the task "tasks/{id}".
func fixToV03ProtoTaskSubscriptionRequest(x *a2a.SubscribeToTaskRequest, out *a2av03pb.TaskSubscriptionRequest) {
	out.Name = "tasks/" + x.ID
}

// fixToV03ProtoGetTaskPushNotificationConfigRequest names the config
// "tasks/{task}/pushNotificationConfigs/{config}".
func fixToV03ProtoGetTaskPushNotificationConfigRequest(x *a2a.GetTaskPushNotificationConfigRequest, out *a2av03pb.GetTaskPushNotificationConfigRequest) {
	out.Name = "tasks/" + x.TaskID + "/pushNotificationConfigs/" + x.ID
}

// fixToV03ProtoDeleteTaskPushNotificationConfigRequest names the config.
func fixToV03ProtoDeleteTaskPushNotificationConfigRequest(x *a2a.DeleteTaskPushNotificationConfigRequest, out *a2av03pb.DeleteTaskPushNotificationConfigRequest) {
	out.Name = "tasks/" + x.TaskID + "/pushNotificationConfigs/" + x.ID
}

// fixToV03ProtoListTaskPushNotificationConfigRequest names the task as the
// parent.
func fixToV03ProtoListTaskPushNotificationConfigRequest(x *a2a.ListTaskPushNotificationConfigsRequest, out *a2av03pb.ListTaskPushNotificationConfigRequest) {
	out.Parent = "tasks/" + x.TaskID
}

// ToV03ProtoCreateTaskPushNotificationConfigRequest writes a 1.0 config as
// 0.3's create request: the task as its parent, the config nested.
func ToV03ProtoCreateTaskPushNotificationConfigRequest(x *a2a.TaskPushNotificationConfig) *a2av03pb.CreateTaskPushNotificationConfigRequest {
	if x == nil {
		return nil
	}
	return &a2av03pb.CreateTaskPushNotificationConfigRequest{Parent: "tasks/" + x.TaskID, ConfigID: x.ID, Config: ToV03ProtoTaskPushNotificationConfig(x)}
}

// FromV03ProtoTaskPushNotificationConfig reads 0.3's config: the task and
// the config's id from its resource name (or the config's own id), the
// rest from the nested config.
func FromV03ProtoTaskPushNotificationConfig(x *a2av03pb.TaskPushNotificationConfig) (*a2a.TaskPushNotificationConfig, error) {
	if x == nil {
		return nil, nil
	}
	c := &a2a.TaskPushNotificationConfig{}
	if x.PushNotificationConfig != nil {
		c = pushFromV03Proto(x.PushNotificationConfig)
	}
	task, id, err := configName("/name", x.Name)
	if err != nil {
		return nil, err
	}
	c.TaskID = task
	if c.ID == "" {
		c.ID = id
	}
	return c, nil
}

// fixToV03ProtoSendMessageConfiguration writes 1.0's "returnImmediately"
// as 0.3's "blocking", and its task push config as 0.3's push config.
func fixToV03ProtoSendMessageConfiguration(x *a2a.SendMessageConfiguration, out *a2av03pb.SendMessageConfiguration) {
	out.Blocking = !x.ReturnImmediately
	if c := x.TaskPushNotificationConfig; c != nil {
		out.PushNotification = ToV03ProtoTaskPushNotificationConfig(c).PushNotificationConfig
	}
}

// fixFromV03ProtoAgentCard reads where a 0.3 card says to call, as
// fixFromV03AgentCard does for 0.3's JSON: "url" with
// "preferredTransport", then "additionalInterfaces", each an interface at
// the card's protocol version; security and the extended card move back.
func fixFromV03ProtoAgentCard(x *a2av03pb.AgentCard, out *a2a.AgentCard) error {
	additional := make([][2]string, len(x.AdditionalInterfaces))
	for i, a := range x.AdditionalInterfaces {
		additional[i] = [2]string{a.URL, a.Transport}
	}
	cardFromV03(out, x.ProtocolVersion, x.URL, x.PreferredTransport, additional, x.SupportsAuthenticatedExtendedCard)
	out.SecurityRequirements = securityFromV03Proto(x.Security)
	return nil
}

// fixFromV03ProtoAgentSkill moves a skill's 0.3 "security" to 1.0's
// requirements.
func fixFromV03ProtoAgentSkill(x *a2av03pb.AgentSkill, out *a2a.AgentSkill) error {
	out.SecurityRequirements = securityFromV03Proto(x.Security)
	return nil
}

func securityFromV03Proto(reqs []*a2av03pb.Security) []*a2a.SecurityRequirement {
	var out []*a2a.SecurityRequirement
	for _, r := range reqs {
		req := &a2a.SecurityRequirement{Schemes: map[string]*a2a.StringList{}}
		for name, scopes := range r.Schemes {
			req.Schemes[name] = &a2a.StringList{}
			if scopes != nil {
				req.Schemes[name].List = scopes.List
			}
		}
		out = append(out, req)
	}
	return out
}
