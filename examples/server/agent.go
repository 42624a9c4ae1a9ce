package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/agui-gen/agui-gen/gen/agui"
)

// scriptedAgent is the agent to replace: it answers from a script, to show
// every kind of event the chat page draws. Put your model behind Run.
//
//   - a message that mentions "delete" asks for confirmation first (an
//     interrupt); the resume carries the answer;
//   - any other message gets reasoning, an activity, a tool call with its
//     result, state, and a streamed answer.
type scriptedAgent struct {
	// pace is the pause between streamed words, so a page shows them arrive.
	pace time.Duration
}

// confirmDelete is the id of the one question the agent asks.
const confirmDelete = "confirm-delete"

// Run implements agui.Agent.
func (a *scriptedAgent) Run(ctx context.Context, in *agui.RunAgentInput, s *agui.Stream) error {
	if len(in.Resume) > 0 {
		return a.resume(ctx, in.Resume, s)
	}
	text := lastUserText(in)
	if strings.Contains(strings.ToLower(text), "delete") {
		return ask(s, "Delete the draft? This cannot be undone.")
	}
	if err := s.Reasoning("The user asks about the weather; I will look it up."); err != nil {
		return err
	}
	if err := s.EndReasoning(); err != nil {
		return err
	}
	if err := s.StateSnapshot(json.RawMessage(`{"city":"Paris","status":"looking up"}`)); err != nil {
		return err
	}
	// An activity's id is the run's own: each answer's card is its own.
	activity := "activity-search-" + in.RunID
	if err := s.ActivitySnapshot(activity, "search", json.RawMessage(`{"query":"weather Paris","sources":1}`)); err != nil {
		return err
	}
	id, err := s.ToolCall("get_weather", `{"city":"Paris"}`)
	if err != nil {
		return err
	}
	if err := s.ToolResult(id, `{"sky":"sunny","celsius":21}`); err != nil {
		return err
	}
	if err := s.ActivityDelta(activity, "search", &agui.ReplaceOperation{Path: "/sources", Value: json.RawMessage(`2`)}); err != nil {
		return err
	}
	if err := s.StateDelta(&agui.ReplaceOperation{Path: "/status", Value: json.RawMessage(`"done"`)}); err != nil {
		return err
	}
	return a.say(ctx, s, "It is sunny in Paris, 21 °C. A good day for a walk along the Seine.")
}

// ask ends the run with the confirmation question: the client answers it
// in the next run's resume.
func ask(s *agui.Stream, question string) error {
	return s.Interrupt(agui.Interrupt{ID: confirmDelete, Reason: "confirmation", Message: &question})
}

// resume acts on the answers to the question the run before asked. The
// resume comes from the client: check that it answers that question, and
// what it says, before acting on it.
func (a *scriptedAgent) resume(ctx context.Context, answers []agui.ResumeEntry, s *agui.Stream) error {
	if len(answers) != 1 || answers[0].InterruptID != confirmDelete {
		return &agui.RunError{Message: fmt.Sprintf("a resume here answers %q, the one question this agent asks, and nothing else", confirmDelete),
			Code: "unknown_interrupt"}
	}
	answer := answers[0]
	if answer.Status == agui.ResumeEntryStatusCancelled {
		return a.say(ctx, s, "Nothing was deleted.")
	}
	approved, ok := yesOrNo(answer.Payload)
	switch {
	case !ok:
		return ask(s, "Please answer yes or no: delete the draft?")
	case approved:
		return a.say(ctx, s, "The draft is deleted.")
	}
	return a.say(ctx, s, "Kept the draft.")
}

// yesOrNo reads an answer: true or false, as the chat page sends, or the
// text an A2A client replied with, which the bridge passes as a string.
func yesOrNo(payload json.RawMessage) (yes, ok bool) {
	if err := json.Unmarshal(payload, &yes); err == nil {
		return yes, true
	}
	var text string
	if err := json.Unmarshal(payload, &text); err != nil {
		return false, false
	}
	switch strings.ToLower(strings.Trim(text, " .!")) {
	case "yes", "y":
		return true, true
	case "no", "n":
		return false, true
	}
	return false, false
}

// say streams text a word at a time.
func (a *scriptedAgent) say(ctx context.Context, s *agui.Stream, text string) error {
	for i, word := range strings.Fields(text) {
		if i > 0 {
			word = " " + word
		}
		if err := s.Text(word); err != nil {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(a.pace):
		}
	}
	return nil
}

func lastUserText(in *agui.RunAgentInput) string {
	for i := len(in.Messages) - 1; i >= 0; i-- {
		if m, ok := in.Messages[i].(*agui.UserMessage); ok {
			return m.Content.Text
		}
	}
	return ""
}

// capabilities is what GET /agui/capabilities answers.
func capabilities() *agui.AgentCapabilities {
	yes := true
	return &agui.AgentCapabilities{
		Transport:      &agui.TransportCapabilities{Streaming: &yes},
		Tools:          &agui.ToolsCapabilities{Supported: &yes},
		State:          &agui.StateCapabilities{Snapshots: &yes, Deltas: &yes},
		Reasoning:      &agui.ReasoningCapabilities{Supported: &yes, Streaming: &yes},
		HumanInTheLoop: &agui.HumanInTheLoopCapabilities{Interrupts: &yes, Feedback: &yes},
	}
}
