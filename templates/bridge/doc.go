// Package bridge joins the two protocols: it runs an A2A agent behind an
// AG-UI endpoint (A2AAgent, and StreamFormat for clients of an A2A server
// that ask for AG-UI events), runs an AG-UI agent as an A2A executor
// (Executor), and reads and writes the AG-UI hints an A2A part can carry in
// its metadata (the agui_* keys Hector introduced).
//
// The mapping follows the official specs on both sides: an A2A task's
// messages and text artifacts become AG-UI text messages, hinted thinking
// becomes reasoning, tool-call data parts become tool calls, other
// artifacts and the task's status become shared state under "a2a", a task
// that needs input ends the run with an interrupt that a resume answers on
// the same task, a canceled task ends the run cancelled, and a failed or
// rejected one ends it with RUN_ERROR.
package bridge

// This file and the others of templates/bridge are written against the
// generated packages gen/agui, gen/a2a and gen/a2a/a2atask; the generator
// copies them into the bridge package of its output with those import
// paths rewritten.
