package a2atask

import a2a "github.com/agui-gen/agui-gen/gen/a2a"

// Terminal reports whether a task in state s can change no more (A2A §3.1):
// completed, failed, canceled or rejected.
func Terminal(s a2a.TaskState) bool {
	switch s {
	case a2a.TaskStateCompleted, a2a.TaskStateFailed, a2a.TaskStateCanceled, a2a.TaskStateRejected:
		return true
	}
	return false
}

// Interrupted reports whether a task in state s waits for its client:
// input-required or auth-required. Such a task continues, with the same
// ID, when the client sends it a message.
func Interrupted(s a2a.TaskState) bool {
	return s == a2a.TaskStateInputRequired || s == a2a.TaskStateAuthRequired
}

// settled reports whether a task in state s has given its client an answer
// to wait for: terminal or interrupted. A blocking SendMessage returns
// then, and a stream closes.
func settled(s a2a.TaskState) bool { return Terminal(s) || Interrupted(s) }

// legal says whether a task may go from state from to state to. A task
// starts submitted; works; may stop for input or authorization and resume
// working; and ends in one terminal state. Rejection is an answer to the
// request, so it comes before any other outcome.
func legal(from, to a2a.TaskState) bool {
	if Terminal(from) || to == a2a.TaskStateUnspecified || to == a2a.TaskStateSubmitted {
		return false
	}
	switch from {
	case a2a.TaskStateSubmitted:
		return true
	case a2a.TaskStateWorking:
		return to != a2a.TaskStateRejected
	case a2a.TaskStateInputRequired, a2a.TaskStateAuthRequired:
		return to == a2a.TaskStateWorking || to == a2a.TaskStateCanceled || to == a2a.TaskStateFailed
	}
	return false
}
