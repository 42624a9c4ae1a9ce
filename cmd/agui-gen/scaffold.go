package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/agui-gen/agui-gen/generator/generate"
	"github.com/agui-gen/agui-gen/generator/scaffold"
)

func scaffoldCommand() *cli.Command {
	return &cli.Command{
		Name:  "scaffold",
		Usage: "write an example server, yours to edit, that serves AG-UI and A2A on the generated packages",
		Description: "Writes a main package to --out: an AG-UI endpoint with META feedback, capabilities, cancel and\n" +
			"interrupts; the same agent over A2A (JSON-RPC, HTTP+JSON, gRPC) through the bridge and the task\n" +
			"runtime; SQLite or PostgreSQL storage; bearer-token auth; graceful shutdown; a chat page on\n" +
			"@ag-ui/client; and a scripted agent to replace with yours. The files are yours: they are not\n" +
			"*_gen.go, and an existing one is never overwritten without --force.\n\n" +
			"Unless --gen names packages generated elsewhere, the packages are generated into --out/gen, with a\n" +
			"go:generate line to regenerate them.\n\n" +
			"Examples:\n" +
			"  agui-gen scaffold --out ./myagent --module example.com/myagent   # a new module\n" +
			"  agui-gen scaffold --out ./cmd/agent                               # inside your module\n" +
			"  agui-gen scaffold --out ./cmd/agent --gen example.com/app/gen      # packages you generate already",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "out", Usage: "output `DIR`", Required: true},
			&cli.StringFlag{Name: "module", Usage: "start a new module at DIR with this `PATH` (writes go.mod); default: DIR is inside a module"},
			&cli.StringFlag{Name: "gen", Usage: "import `PATH` of packages agui-gen generate wrote already; default: generate them into DIR/gen"},
			&cli.BoolFlag{Name: "force", Usage: "overwrite files that exist"},
			&cli.BoolFlag{Name: "check", Usage: "write nothing; exit 1 and name the files when DIR differs from the scaffold"},
		},
		Action: runScaffold,
	}
}

func runScaffold(c *cli.Context) error {
	out := c.String("out")
	importPath, module := generate.ImportPathOf(out), c.String("module")
	if module != "" {
		importPath = module
	} else if importPath == "" {
		return fmt.Errorf("%s is not inside a Go module: give --module PATH to start one there", out)
	}
	gen := c.String("gen")
	generateHere := gen == ""
	if generateHere {
		gen = importPath + "/gen"
	}
	files, err := scaffold.Files(scaffold.Options{Gen: gen, Generate: generateHere, Module: module})
	if err != nil {
		return err
	}
	if _, err := os.Stat(filepath.Join(out, "go.mod")); module != "" && err == nil {
		// The module is there already: keep its go.mod, if it is this one.
		if got := generate.ImportPathOf(out); got != module {
			return fmt.Errorf("%s/go.mod names module %q, not %q", out, got, module)
		}
		delete(files, "go.mod")
	}
	if c.Bool("check") {
		if stale := scaffold.Differing(out, files); len(stale) > 0 {
			return cli.Exit(fmt.Sprintf("%s differs from the scaffold: %s\nrun agui-gen scaffold --force to update it",
				out, strings.Join(stale, ", ")), 1)
		}
		return nil
	}
	if err := scaffold.Write(out, files, c.Bool("force")); err != nil {
		return err
	}
	if generateHere {
		in, err := generate.Embedded()
		if err != nil {
			return err
		}
		pkgs, err := generate.Generate(in, generate.Options{ImportPath: gen})
		if err != nil {
			return err
		}
		if err := generate.Write(filepath.Join(out, "gen"), pkgs); err != nil {
			return err
		}
	}
	fmt.Fprintf(c.App.Writer, "wrote %d files to %s\n", len(files), out)
	if module != "" {
		fmt.Fprintf(c.App.Writer, "next: cd %s && go mod tidy && go run .\n", out)
	} else {
		fmt.Fprintf(c.App.Writer, "next: go mod tidy && go run ./%s\n", filepath.ToSlash(filepath.Clean(out)))
	}
	return nil
}
