package main

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/agui-gen/agui-gen/generator/generate"
)

func diffCommand() *cli.Command {
	return &cli.Command{
		Name:  "diff",
		Usage: "report what changed between two spec versions, and whether it breaks",
		Description: "Compares two versions of the specs in protocol terms: events, definitions, fields (type, required, " +
			"presence, enum values, defaults, constraints), union members, RPCs, streaming, HTTP bindings, " +
			"field numbers and package names, with renames recognised where the evidence is strong (same " +
			"field number and type, same shape). Each change is classed breaking or compatible for the JSON " +
			"wire, the protobuf wire and the generated Go API; the exported Go identifiers that change are " +
			"listed too.\n\n" +
			"Each side is a spec file, a folder of spec files, or \"embedded\" (the specs built into agui-gen). " +
			"When both sides have an AG-UI protobuf ledger (embedded, a folder's proto-freeze*.txt, or " +
			"--from-ledger/--to-ledger), a number that moved or was given to another slot is breaking on the " +
			"protobuf wire, and what the new schema adds is shown with the number --extend-ledger would give it.\n\n" +
			"Examples:\n" +
			"  agui-gen diff --from embedded --to new/schema.json\n" +
			"  agui-gen diff --from a2a-v0.3.0.proto --to a2a.proto --format markdown > comment.md\n" +
			"  agui-gen diff --from old/ --to new/ --fail-on-breaking    # in CI\n\n" +
			"With --compat, --from is an earlier A2A version's JSON Schema (\"embedded\": v0.3.0's, with its proto), or the " +
			"proto of an earlier version of --to's major version, and --to an A2A proto (or \"embedded\"), and the report lists " +
			"what the conversion generate emits between the two cannot carry, converter by converter, and which rule " +
			"completes it:\n" +
			"  agui-gen diff --compat --from embedded --to embedded\n" +
			"  agui-gen diff --compat --from a2a-v1.0.0.proto --to a2a-dev-1.1.proto --to-version 1.1",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "from", Usage: "the old side: `FILE`, folder or \"embedded\"", Required: true},
			&cli.StringFlag{Name: "to", Usage: "the new side: `FILE`, folder or \"embedded\"", Required: true},
			&cli.StringFlag{Name: "format", Value: "text", Usage: "text, markdown or json"},
			&cli.StringFlag{Name: "from-ledger", Usage: "the old side's AG-UI protobuf ledger `FILE` (default: the embedded side's, or a folder's proto-freeze*.txt)"},
			&cli.StringFlag{Name: "to-ledger", Usage: "the new side's AG-UI protobuf ledger `FILE`, likewise"},
			&cli.BoolFlag{Name: "fail-on-breaking", Usage: "exit 1 when any change is breaking"},
			protoPathFlag(),
			&cli.BoolFlag{Name: "compat", Usage: "list what the generated conversion from the earlier A2A version of --from (its JSON Schema, or a proto of --to's major version, as [VERSION=]FILE) to --to cannot carry"},
			&cli.StringFlag{Name: "to-version", Usage: "with --compat: the protocol `VERSION` (Major.Minor) --to's proto defines, as generate's --a2a-version"},
		},
		Action: runDiff,
	}
}

func runDiff(c *cli.Context) error {
	if c.Bool("compat") {
		return runCompatDiff(c)
	}
	from, err := generate.LoadSide(c.Context, c.String("from"), c.StringSlice("proto-path")...)
	if err != nil {
		return err
	}
	to, err := generate.LoadSide(c.Context, c.String("to"), c.StringSlice("proto-path")...)
	if err != nil {
		return err
	}
	for _, l := range []struct {
		flag string
		side *generate.Side
	}{{"from-ledger", from}, {"to-ledger", to}} {
		if f := c.String(l.flag); f != "" {
			if l.side.AGUILedger, err = generate.ReadLedger(f); err != nil {
				return err
			}
		}
	}
	reports, err := generate.Diff(from, to)
	if err != nil {
		return err
	}
	w := c.App.Writer
	breaking := false
	for i, r := range reports {
		if i > 0 && c.String("format") != "json" {
			fmt.Fprintln(w)
		}
		switch c.String("format") {
		case "text":
			err = r.WriteText(w)
		case "markdown":
			err = r.WriteMarkdown(w)
		case "json":
			err = r.WriteJSON(w)
		default:
			return fmt.Errorf("--format %q: want text, markdown or json", c.String("format"))
		}
		if err != nil {
			return err
		}
		breaking = breaking || r.HasBreaking()
	}
	if breaking && c.Bool("fail-on-breaking") {
		return cli.Exit("breaking changes found", 1)
	}
	return nil
}

// runCompatDiff lists what the conversion between two A2A versions cannot
// carry.
func runCompatDiff(c *cli.Context) error {
	var specs []generate.Spec
	var err error
	if f := c.String("from"); f == "embedded" {
		specs, err = generate.EmbeddedCompat()
	} else if specs, err = earlierSpecs("from", []string{f}, true); err == nil && len(specs) == 0 {
		err = fmt.Errorf("--from %s names no earlier version", f)
	}
	if err != nil {
		return err
	}
	for i := range specs {
		specs[i].ImportPaths = c.StringSlice("proto-path")
	}
	to, err := generate.LoadSide(c.Context, c.String("to"), c.StringSlice("proto-path")...)
	if err != nil {
		return err
	}
	if to.A2A == nil {
		return fmt.Errorf("--to %s has no A2A proto", c.String("to"))
	}
	if v := c.String("to-version"); v != "" {
		if err := generate.SetProtocolVersion(to.A2A, v); err != nil {
			return err
		}
	}
	losses, err := generate.CompatLosses(specs, to.A2A)
	if err != nil {
		return err
	}
	w := c.App.Writer
	switch c.String("format") {
	case "json":
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(losses)
	case "text", "markdown":
	default:
		return fmt.Errorf("--format %q: want text, markdown or json", c.String("format"))
	}
	var from []string
	for _, s := range specs {
		from = append(from, s.File)
	}
	fmt.Fprintf(w, "What the generated conversion between %s and %s cannot carry (%d converters):\n", strings.Join(from, " and "), to.A2A.Sources[0].File, len(losses))
	for _, l := range losses {
		fmt.Fprintf(w, "\n%s (%s → %s)\n", l.Converter, l.From, l.To)
		if len(l.Lost) > 0 {
			fmt.Fprintf(w, "  dropped:  %s\n", strings.Join(l.Lost, ", "))
		}
		if len(l.Unfilled) > 0 {
			fmt.Fprintf(w, "  unfilled: %s\n", strings.Join(l.Unfilled, ", "))
		}
		if l.Fix != "" {
			fmt.Fprintf(w, "  rule:     %s carries what the versions mean alike\n", l.Fix)
		}
		if l.Rule {
			fmt.Fprintf(w, "  rule:     written whole by hand (templates/a2acompat); its doc says what it drops\n")
		}
	}
	return nil
}
