package diff

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/agui-gen/agui-gen/generator/ir"
)

// WriteText writes the report for a terminal.
func (r *Report) WriteText(w io.Writer) error {
	fmt.Fprintf(w, "%s → %s\n", sources(r.From), sources(r.To))
	if len(r.Changes) == 0 {
		_, err := fmt.Fprintln(w, "no changes")
		return err
	}
	fmt.Fprintln(w, r.summary())
	for _, c := range r.Changes {
		mark := "compatible"
		if c.IsBreaking() {
			mark = "BREAKING " + surfaces(c.Breaking)
		}
		line := fmt.Sprintf("  %-24s %-7s %-13s %s", mark, c.Kind, c.Element, c.Path)
		if c.Detail != "" {
			line += ": " + c.Detail
		}
		fmt.Fprintln(w, strings.TrimRight(line, " "))
	}
	return nil
}

// WriteMarkdown writes the report as a pull-request comment.
func (r *Report) WriteMarkdown(w io.Writer) error {
	fmt.Fprintf(w, "### Spec changes: %s → %s\n\n", sources(r.From), sources(r.To))
	if len(r.Changes) == 0 {
		_, err := fmt.Fprintln(w, "No changes.")
		return err
	}
	fmt.Fprintf(w, "%s\n\n", r.summary())
	fmt.Fprintln(w, "| | change | element | path | detail | JSON | protobuf | Go API |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|")
	for _, c := range r.Changes {
		icon := "✅"
		if c.IsBreaking() {
			icon = "❌"
		}
		cell := func(s Surface) string {
			for _, b := range c.Breaking {
				if b == s {
					return "breaking"
				}
			}
			return "ok"
		}
		fmt.Fprintf(w, "| %s | %s | %s | `%s` | %s | %s | %s | %s |\n", icon, c.Kind, c.Element, c.Path,
			strings.ReplaceAll(c.Detail, "|", `\|`), cell(JSONWire), cell(ProtoWire), cell(GoAPI))
	}
	return nil
}

// WriteJSON writes the report as JSON.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

func (r *Report) summary() string {
	n := r.Breaking()
	breaking := 0
	for _, c := range r.Changes {
		if c.IsBreaking() {
			breaking++
		}
	}
	return fmt.Sprintf("%d changes, %d breaking (JSON wire %d, protobuf wire %d, Go API %d)",
		len(r.Changes), breaking, n[JSONWire], n[ProtoWire], n[GoAPI])
}

func surfaces(ss []Surface) string {
	var out []string
	for _, s := range ss {
		out = append(out, string(s))
	}
	return strings.Join(out, ",")
}

func sources(ss []ir.Source) string {
	var out []string
	for _, s := range ss {
		name := s.File
		if s.Version != "" {
			name += " " + s.Version
		} else if s.ID != "" {
			name += " (" + s.ID + ")"
		}
		out = append(out, name)
	}
	return strings.Join(out, " + ")
}
