package a2acall

import "github.com/agui-gen/agui-gen/runtime/a2arpc"

// Spec is what serving a call needs to know of the generated package's
// types, which the runtime cannot import: C is its agent card type
// (*a2a.AgentCard). The generated package fills one, once; every function
// must take the zero C where it takes a card.
type Spec[C comparable] struct {
	// Streams reports whether card declares capabilities.streaming.
	Streams func(card C) bool
	// MissingExtension returns the first extension card marks required
	// that extensions does not name, or "".
	MissingExtension func(card C, extensions []string) string
	// Agent returns the name, description and version of the agent card
	// describes, for the gen_ai.agent attributes of a served call's span.
	Agent func(card C) (name, description, version string)
	// Request, Response and Event say what a request, a unary response and
	// a streamed message say of their task, for the attributes of a call's
	// span. Event's ok is false for a message that is not one of the
	// protocol's stream events (an earlier version's, for one), which is
	// then neither counted nor recorded.
	Request  func(req a2arpc.ProtoValue) Facts
	Response func(resp a2arpc.ProtoValue) Facts
	Event    func(msg a2arpc.ProtoValue) (f Facts, ok bool)
}

// Facts are what a message says of its task, as a call's telemetry records
// them: a plain struct, so that reading them allocates nothing.
type Facts struct {
	Tenant, MessageID, TaskID, ContextID string
	ReferenceTaskIDs                     []string
	// Task reports that the message is, or carries, a task: its id and
	// context are recorded even when empty, and its State when it has one.
	Task bool
	// State is the state of a task, or of a status update, "" for none.
	State string
	// Event is the kind of a streamed event: "task", "message",
	// "status_update", "artifact_update" or "unknown".
	Event string
}
