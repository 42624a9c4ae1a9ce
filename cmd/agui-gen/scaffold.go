package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"
	"golang.org/x/mod/modfile"

	"github.com/agui-gen/agui-gen/generator/generate"
	"github.com/agui-gen/agui-gen/generator/scaffold"
)

func scaffoldCommand() *cli.Command {
	return &cli.Command{
		Name:  "scaffold",
		Usage: "write an example server, yours to edit, that serves AG-UI and A2A on the generated packages",
		Description: "Writes a main package to --out: an AG-UI endpoint with META feedback, capabilities, cancel and " +
			"interrupts; the same agent over A2A (JSON-RPC, HTTP+JSON, gRPC) through the bridge and the task " +
			"runtime; SQLite or PostgreSQL storage; bearer-token auth; graceful shutdown; a chat page on " +
			"@ag-ui/client; and a scripted agent to replace with yours, or with --model an agent on a real " +
			"model. The files are yours: they are not " +
			"*_gen.go, and an existing one is never overwritten without --force.\n\n" +
			"Unless --gen names packages generated elsewhere, the packages are generated into --out/gen, with a " +
			"go:generate line to regenerate them.\n\n" +
			"--model PROVIDER:NAME makes the agent agui.ModelAgent on that model, over runtime/model/PROVIDER " +
			"(openai, anthropic or gemini), on AG-UI and, through the bridge, A2A; go.mod takes in that " +
			"adapter's module and that provider's SDK alone. The server reads its key and base URL at startup, and stops naming the " +
			"variable that is missing: openai OPENAI_API_KEY and OPENAI_BASE_URL (Ollama, vLLM, LM Studio: " +
			"openai:NAME with OPENAI_BASE_URL=http://localhost:11434/v1/); anthropic ANTHROPIC_API_KEY and " +
			"ANTHROPIC_BASE_URL; gemini GEMINI_API_KEY (or GOOGLE_API_KEY) and GOOGLE_GEMINI_BASE_URL. " +
			"Without --model the agent is scripted, and needs no key and no network.\n\n" +
			"--resumable makes the AG-UI runs outlive their connection (agui.WithResumableRuns): their events go to " +
			"a SQLite run log in a file beside --db's (server.db's is server-runs.db), and a client whose stream " +
			"drops resumes it with Last-Event-ID, as the chat page does; the capabilities declare " +
			"transport.resumable.\n\n" +
			"Examples:\n" +
			"  agui-gen scaffold --out ./myagent --module example.com/myagent   # a new module\n" +
			"  agui-gen scaffold --out ./cmd/agent                               # inside your module\n" +
			"  agui-gen scaffold --out ./cmd/agent --gen example.com/app/gen      # packages you generate already\n" +
			"  agui-gen scaffold --out ./myagent --module example.com/myagent --model openai:gpt-4.1   # a real model\n" +
			"  agui-gen scaffold --out ./myagent --module example.com/myagent --resumable   # runs survive a dropped connection",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "out", Usage: "output `DIR`", Required: true},
			&cli.StringFlag{Name: "module", Usage: "start a new module at DIR with this `PATH` (writes go.mod); default: DIR is inside a module"},
			&cli.StringFlag{Name: "gen", Usage: "import `PATH` of packages agui-gen generate wrote already; default: generate them into DIR/gen"},
			&cli.StringFlag{Name: "only", Usage: "agui: a server of AG-UI alone (and META), on the agui package and no A2A, task runtime or gRPC, so go.mod takes in less; default: AG-UI and A2A"},
			&cli.StringFlag{Name: "model", Usage: "the agent runs on the model `PROVIDER:NAME` (openai, anthropic or gemini, as openai:gpt-4.1), its key read from the environment; default: a scripted agent"},
			&cli.BoolFlag{Name: "resumable", Usage: "AG-UI runs outlive their connection: their events go to a SQLite run log beside --db's file (server-runs.db), a client that reconnects gets what it missed, and the capabilities declare transport.resumable"},
			&cli.BoolFlag{Name: "force", Usage: "overwrite files that exist"},
			&cli.BoolFlag{Name: "check", Usage: "write nothing; exit 1 and name the files when DIR differs from the scaffold"},
		},
		Action: runScaffold,
	}
}

func runScaffold(c *cli.Context) error {
	var mdl scaffold.Model
	if c.IsSet("model") {
		var err error
		if mdl, err = scaffold.ParseModel(c.String("model")); err != nil {
			return cli.Exit("scaffold "+err.Error(), 2)
		}
	}
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
	var aguiOnly bool
	switch only := c.String("only"); only {
	case "":
	case "agui":
		aguiOnly = true
	default:
		return cli.Exit(fmt.Sprintf("scaffold --only %s: the scaffold is an AG-UI server (--only agui) or, without --only, an AG-UI and A2A one", only), 2)
	}
	files, err := scaffold.Files(scaffold.Options{Gen: gen, Generate: generateHere, Module: module, Version: pinnableVersion(buildVersion()), Checkout: checkout(), AGUIOnly: aguiOnly, Model: mdl, Resumable: c.Bool("resumable")})
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
	summary := fmt.Sprintf("wrote %d files to %s", len(files), out)
	if generateHere {
		in, err := generate.Embedded()
		if err != nil {
			return err
		}
		pkgs, err := generate.Generate(in, generate.Options{ImportPath: gen})
		if err != nil {
			return err
		}
		if aguiOnly {
			if pkgs, err = generate.Select(pkgs, gen, scaffold.AGUIOnlyPackages); err != nil {
				return err
			}
		}
		dir := filepath.Join(out, "gen")
		if _, err := generate.Write(dir, pkgs); err != nil {
			return err
		}
		summary += fmt.Sprintf(", and %d generated files to %s", len(pkgs), dir)
	}
	root, first := out, ""
	if module == "" {
		root = generate.ModuleRoot(out)
		if generateHere && !requires(root, aguiGenModule) {
			// The generated packages import agui-gen's runtime, which the
			// enclosing module must require; tidy cannot find an
			// unpublished agui-gen by itself.
			first = requireRuntime() + " && "
		}
	}
	fmt.Fprintf(c.App.Writer, "%s\nnext: %s\n", summary, nextSteps(root, out, first))
	return nil
}

// requires reports whether the go.mod in root requires module.
func requires(root, module string) bool {
	data, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		return false
	}
	mod, err := modfile.ParseLax("go.mod", data, nil)
	if err != nil {
		return false
	}
	return slices.ContainsFunc(mod.Require, func(r *modfile.Require) bool { return r.Mod.Path == module })
}

// nextSteps is the shell command that runs the scaffold in out, in the
// module rooted at root: first (a command ending in " && ", or ""), go mod
// tidy there, and go run the package by its path from there.
func nextSteps(root, out, first string) string {
	root, errRoot := filepath.Abs(root)
	out, errOut := filepath.Abs(out)
	rel, err := filepath.Rel(root, out)
	if errRoot != nil || errOut != nil || err != nil {
		return first + "go mod tidy && go run ." // cannot happen for a directory just written
	}
	pkg := "."
	if rel != "." {
		pkg = "./" + filepath.ToSlash(rel)
	}
	steps := first + "go mod tidy && go run " + shellQuote(pkg)
	cwd, err := os.Getwd()
	if err == nil && cwd == root {
		return steps
	}
	dir := root
	if r, err := filepath.Rel(cwd, root); err == nil && filepath.IsLocal(r) {
		dir = r // shorter, and what the user typed
	}
	return "cd " + shellQuote(dir) + " && " + steps
}

// shellQuote quotes s for a POSIX shell, when it needs quoting.
func shellQuote(s string) string {
	const literal = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./:@+=,%"
	if s != "" && strings.Trim(s, literal) == "" {
		return s // every byte is one the shell takes as it is
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
