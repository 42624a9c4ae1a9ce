// Package a2atask is the A2A task runtime: it serves the task RPCs of the
// A2A service on an Executor, the agent a user writes, and a Store, where
// tasks and their events live.
//
// Every mutation of a task (a status change, an artifact) is one event
// and raises the task's generation by one. The generation is the
// optimistic-concurrency check of the store, the cursor of the task's
// event log, and the place a subscription resumes from: SubscribeToTask
// sends the task as it is at generation g, then every event after g, with
// no gap and no duplicate.
//
// This package holds the runtime and the in-memory store; databases come in
// subpackages, so that a server without one imports none.
package a2atask

// This file and the others of templates/a2atask are written against the
// generated package gen/a2a; the generator copies them into the a2atask
// subpackage of its output with that import path rewritten.
