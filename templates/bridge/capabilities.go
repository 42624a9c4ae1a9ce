package bridge

import (
	"context"
	"encoding/json"
	"strings"

	a2a "github.com/agui-gen/agui-gen/gen/a2a"
	agui "github.com/agui-gen/agui-gen/gen/agui"
)

// CapabilitiesFromCard is what an A2A agent behind A2AAgent can do, in
// AG-UI's terms, from its card: its identity; a stream (the bridge always
// streams); interrupts (a task that needs input is one); the input media
// its default input modes name; no client-provided tools (A2A has no field
// for them); and its skills under custom.a2aSkills.
func CapabilitiesFromCard(card *a2a.AgentCard) *agui.AgentCapabilities {
	yes, no := true, false
	caps := &agui.AgentCapabilities{
		Identity:       &agui.IdentityCapabilities{Name: nonEmpty(card.Name), Description: nonEmpty(card.Description), Version: nonEmpty(card.Version), DocumentationURL: card.DocumentationURL},
		Transport:      &agui.TransportCapabilities{Streaming: &yes},
		Tools:          &agui.ToolsCapabilities{ClientProvided: &no},
		HumanInTheLoop: &agui.HumanInTheLoopCapabilities{Supported: &yes, Interrupts: &yes},
	}
	if card.Provider != nil {
		caps.Identity.Provider = nonEmpty(card.Provider.Organization)
	}
	var in agui.MultimodalInputCapabilities
	for _, mode := range card.DefaultInputModes {
		switch {
		case strings.HasPrefix(mode, "image/"):
			in.Image = &yes
		case strings.HasPrefix(mode, "audio/"):
			in.Audio = &yes
		case strings.HasPrefix(mode, "video/"):
			in.Video = &yes
		case mode == "application/pdf":
			in.Pdf = &yes
		case !strings.HasPrefix(mode, "text/") && mode != "application/json":
			in.File = &yes
		}
	}
	if in != (agui.MultimodalInputCapabilities{}) {
		caps.Multimodal = &agui.MultimodalCapabilities{Input: &in}
	}
	type skill struct {
		ID          string   `json:"id"`
		Name        string   `json:"name"`
		Description string   `json:"description,omitempty"`
		Tags        []string `json:"tags,omitempty"`
	}
	var skills []skill
	for _, s := range card.Skills {
		skills = append(skills, skill{ID: s.ID, Name: s.Name, Description: s.Description, Tags: s.Tags})
	}
	if len(skills) > 0 {
		caps.Custom, _ = json.Marshal(map[string]any{"a2aSkills": skills})
	}
	return caps
}

func nonEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// Capabilities declares what the A2A agent can do, from Card; an agent
// without a card declares nothing.
func (a *A2AAgent) Capabilities(context.Context) (*agui.AgentCapabilities, error) {
	if a.Card == nil {
		return nil, nil
	}
	return CapabilitiesFromCard(a.Card), nil
}
