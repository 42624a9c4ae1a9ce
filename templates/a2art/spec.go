// Package a2art is the spec-typed piece of the A2A runtime: what
// runtime/a2acall and runtime/a2ahttp, which cannot import generated code,
// read of gen/a2a's agent card, interfaces and messages. It is written
// against gen/a2a and copied into it with the a2a. qualifiers removed; the
// package's wrappers (NewHandler, InvokeUnary, …) pass these specs.
package a2art

import (
	"slices"

	a2a "github.com/agui-gen/agui-gen/gen/a2a"
	"github.com/agui-gen/agui-gen/runtime/a2acall"
	"github.com/agui-gen/agui-gen/runtime/a2ahttp"
	"github.com/agui-gen/agui-gen/runtime/a2arpc"
)

// callSpec binds the serving of a call to the package's card and messages.
var callSpec = &a2acall.Spec[*a2a.AgentCard]{
	Streams: func(card *a2a.AgentCard) bool {
		caps := card.Capabilities
		return caps != nil && caps.Streaming != nil && *caps.Streaming // absent is false
	},
	MissingExtension: func(card *a2a.AgentCard, extensions []string) string {
		if card.Capabilities != nil {
			for _, ext := range card.Capabilities.Extensions {
				if ext.Required && !slices.Contains(extensions, ext.URI) {
					return ext.URI
				}
			}
		}
		return ""
	},
	Agent: func(card *a2a.AgentCard) (string, string, string) { return card.Name, card.Description, card.Version },
	Request: func(req a2arpc.ProtoValue) (f a2acall.Facts) {
		switch r := req.(type) {
		case *a2a.SendMessageRequest:
			f.Tenant = r.Tenant
			if m := r.Message; m != nil {
				f.MessageID, f.TaskID, f.ContextID, f.ReferenceTaskIDs = m.MessageID, m.TaskID, m.ContextID, m.ReferenceTaskIDs
			}
		case *a2a.GetTaskRequest:
			f.Tenant, f.TaskID = r.Tenant, r.ID
		case *a2a.CancelTaskRequest:
			f.Tenant, f.TaskID = r.Tenant, r.ID
		case *a2a.SubscribeToTaskRequest:
			f.Tenant, f.TaskID = r.Tenant, r.ID
		case *a2a.TaskPushNotificationConfig:
			f.Tenant, f.TaskID = r.Tenant, r.TaskID
		case *a2a.GetTaskPushNotificationConfigRequest:
			f.Tenant, f.TaskID = r.Tenant, r.TaskID
		case *a2a.ListTaskPushNotificationConfigsRequest:
			f.Tenant, f.TaskID = r.Tenant, r.TaskID
		case *a2a.DeleteTaskPushNotificationConfigRequest:
			f.Tenant, f.TaskID = r.Tenant, r.TaskID
		case *a2a.ListTasksRequest:
			f.Tenant, f.ContextID = r.Tenant, r.ContextID
		case *a2a.GetExtendedAgentCardRequest:
			f.Tenant = r.Tenant
		}
		return f
	},
	Response: func(resp a2arpc.ProtoValue) a2acall.Facts {
		switch r := resp.(type) {
		case *a2a.Task:
			return taskFacts(r)
		case *a2a.SendMessageResponse:
			switch p := r.Payload.(type) {
			case *a2a.SendMessageResponseTask:
				return taskFacts(p.Task)
			case *a2a.SendMessageResponseMessage:
				if p.Message != nil {
					return a2acall.Facts{Event: "message", MessageID: p.Message.MessageID}
				}
			}
		}
		return a2acall.Facts{}
	},
	Event: func(msg a2arpc.ProtoValue) (a2acall.Facts, bool) {
		ev, ok := msg.(*a2a.StreamResponse)
		if !ok {
			return a2acall.Facts{}, false // an earlier version's message
		}
		switch p := ev.Payload.(type) {
		case *a2a.StreamResponseTask:
			f := taskFacts(p.Task)
			f.Event = "task"
			return f, true
		case *a2a.StreamResponseMessage:
			return a2acall.Facts{Event: "message"}, true
		case *a2a.StreamResponseStatusUpdate:
			f := a2acall.Facts{Event: "status_update", TaskID: p.StatusUpdate.TaskID}
			if s := p.StatusUpdate.Status; s != nil {
				f.State = s.State.String()
			}
			return f, true
		case *a2a.StreamResponseArtifactUpdate:
			return a2acall.Facts{Event: "artifact_update"}, true
		}
		return a2acall.Facts{Event: "unknown"}, true
	},
}

func taskFacts(t *a2a.Task) a2acall.Facts {
	if t == nil {
		return a2acall.Facts{}
	}
	f := a2acall.Facts{Task: true, TaskID: t.ID, ContextID: t.ContextID}
	if t.Status != nil {
		f.State = t.Status.State.String()
	}
	return f
}

// httpSpec binds the HTTP bindings to the package's card and interfaces.
var httpSpec = &a2ahttp.Spec[*a2a.AgentCard, *a2a.AgentInterface]{
	Call:            callSpec,
	ProtocolVersion: a2a.ProtocolVersion,
	CompatVersions:  a2a.CompatVersions,
	NewCard:         func() *a2a.AgentCard { return new(a2a.AgentCard) },
	Signed:          func(card *a2a.AgentCard) bool { return len(card.Signatures) > 0 },
	Interfaces:      func(card *a2a.AgentCard) []*a2a.AgentInterface { return card.SupportedInterfaces },
	AddInterface: func(card *a2a.AgentCard, i a2ahttp.Interface) {
		card.SupportedInterfaces = append(card.SupportedInterfaces, newInterface(i))
	},
	Interface: func(i *a2a.AgentInterface) a2ahttp.Interface {
		return a2ahttp.Interface{URL: i.URL, ProtocolBinding: i.ProtocolBinding, ProtocolVersion: i.ProtocolVersion, Tenant: i.Tenant}
	},
	NewInterface: newInterface,
}

func newInterface(i a2ahttp.Interface) *a2a.AgentInterface {
	return &a2a.AgentInterface{URL: i.URL, ProtocolBinding: i.ProtocolBinding, ProtocolVersion: i.ProtocolVersion, Tenant: i.Tenant}
}
