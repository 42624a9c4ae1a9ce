// Command agui-gen generates Go types, encoders, decoders and validators
// from the AG-UI schema, agui-gen's META definitions and (later) the A2A
// proto.
package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	goruntime "runtime"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"
	"golang.org/x/mod/modfile"

	"github.com/agui-gen/agui-gen/generator/generate"
)

// version is set by the linker for releases; otherwise the module version is
// read from the build info.
var version = ""

// helpWidth is the width help text is wrapped to.
const helpWidth = 100

func init() {
	// Help is wrapped to helpWidth columns, where urfave/cli wraps at
	// 10,000, and each flag's text goes below its name, indented, so that
	// the wrapped lines line up.
	cli.HelpPrinter = func(w io.Writer, templ string, data any) {
		cli.HelpPrinterCustom(w, templ, data, map[string]any{"wrapAt": func() int { return helpWidth }})
	}
	flagString := cli.FlagStringer
	cli.FlagStringer = func(f cli.Flag) string {
		name, usage, ok := strings.Cut(flagString(f), "\t")
		if !ok {
			return name
		}
		return name + "\n" + usage
	}
}

func main() {
	if err := newApp().Run(os.Args); err != nil {
		fmt.Fprintln(os.Stderr, "agui-gen:", err)
		code := 2
		var exit cli.ExitCoder
		if errors.As(err, &exit) {
			code = exit.ExitCode()
		}
		os.Exit(code)
	}
}

func newApp() *cli.App {
	app := &cli.App{
		Name:  "agui-gen",
		Usage: "generate Go for the AG-UI and A2A agent protocols",
		Description: "agui-gen reads the specs of two agent protocols, embedded or given as files: the AG-UI JSON " +
			"Schema with agui-gen's META event definitions, and the A2A proto with the specs of the earlier A2A " +
			"version whose clients a server keeps serving (v0.3's JSON Schema and proto). It writes Go packages: " +
			"agui (types, codecs, validators, the server and client, META stores), a2a (types, codecs, the " +
			"JSON-RPC and HTTP+JSON bindings and clients, with a2agrpc, a2atask, a2acard, a2aauth and the " +
			"earlier version's packages below it), bridge (A2A and AG-UI joined) and agenthost (several agents " +
			"on one server).",
		// main prints errors and chooses the exit code.
		ExitErrHandler: func(*cli.Context, error) {},
		Commands:       []*cli.Command{generateCommand(), scaffoldCommand(), diffCommand(), descriptorCommand(), versionCommand()},
		Version:        buildVersion(),
		// A first word that names no command is refused, with the command
		// it most likely meant.
		Action: func(c *cli.Context) error {
			if c.NArg() == 0 {
				return cli.ShowAppHelp(c)
			}
			msg := fmt.Sprintf("no command %q", c.Args().First())
			var names []string
			for _, cmd := range c.App.Commands {
				names = append(names, cmd.Names()...)
			}
			if s := closest(c.Args().First(), names); s != "" {
				msg += fmt.Sprintf(": did you mean %q?", s)
			}
			return cli.Exit(msg+"\nrun agui-gen --help for the commands", 2)
		},
	}
	for _, cmd := range app.Commands {
		strict(cmd)
	}
	return app
}

// strict makes a command's mistakes short errors that say what to do,
// instead of its help: a flag it does not have (with the flag it most
// likely meant), a required flag left out, and arguments it does not take.
func strict(cmd *cli.Command) {
	var required []string
	for _, f := range cmd.Flags {
		if rf, ok := f.(cli.RequiredFlag); ok && rf.IsRequired() {
			required = append(required, f.Names()[0])
			if sf, ok := f.(*cli.StringFlag); ok {
				sf.Required = false // checked below, without the help dump
			}
		}
	}
	usage := func(msg string) error {
		return cli.Exit(fmt.Sprintf("%s\nrun agui-gen %s --help for its flags", msg, cmd.Name), 2)
	}
	cmd.OnUsageError = func(c *cli.Context, err error, _ bool) error {
		msg := err.Error()
		if name, ok := strings.CutPrefix(msg, "flag provided but not defined: "); ok {
			var names []string
			for _, f := range cmd.Flags {
				names = append(names, f.Names()...)
			}
			if s := closest(strings.TrimLeft(name, "-"), names); s != "" {
				msg += fmt.Sprintf(": did you mean --%s?", s)
			}
		}
		return usage(msg)
	}
	action := cmd.Action
	cmd.Action = func(c *cli.Context) error {
		if c.NArg() > 0 {
			return usage(fmt.Sprintf("%s takes no arguments, but was given %q", cmd.Name, c.Args().Slice()))
		}
		for _, name := range required {
			if !c.IsSet(name) {
				return usage("--" + name + " is required")
			}
		}
		return action(c)
	}
}

func generateCommand() *cli.Command {
	return &cli.Command{
		Name:  "generate",
		Usage: "write the generated packages",
		Description: "Writes the packages below --out, each in a directory of its own: DIR/agui for AG-UI and META, " +
			"DIR/a2a for A2A (with its subpackages), DIR/bridge and DIR/agenthost. Files are named *_gen.go and " +
			"start with a \"Code generated ... DO NOT EDIT.\" line; generated files that are no longer produced " +
			"are deleted, other files are never touched.\n\n" +
			"Examples:\n" +
			"  agui-gen generate --out ./gen\n" +
			"  agui-gen generate --out ./internal/gen --package-path example.com/app/internal/gen\n" +
			"  agui-gen generate --out ./gen --agui-schema specs/schema.json --meta specs/meta.schema.json\n" +
			"  agui-gen generate --out ./gen --a2a-proto specs/a2a.proto\n" +
			"  agui-gen generate --out ./gen --agui-schema specs/schema.json \\\n" +
			"      --agui-ledger specs/proto-freeze.txt --extend-ledger\n" +
			"  agui-gen generate --out ./gen --check    # in CI: exit 1 if ./gen is stale\n\n" +
			"In a go:generate line, with agui-gen a tool of your module (go get -tool, or go mod edit -tool),\n" +
			"generating the AG-UI package alone (leave out --only for every package):\n" +
			"  //go:generate go tool agui-gen generate --out gen --only agui",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "out", Usage: "output `DIR`; each package is written below it (DIR/agui, DIR/a2a, DIR/bridge, DIR/agenthost)", Required: true},
			&cli.StringFlag{Name: "package-path", Usage: "import `PATH` of DIR (for qualified names in generated code); default: derived from go.mod when DIR is inside the module"},
			&cli.StringFlag{Name: "agui-schema", Usage: "AG-UI JSON Schema `FILE` (default: the embedded AG-UI 1.1 schema)"},
			&cli.StringFlag{Name: "meta", Usage: "META event definitions `FILE` (default: the embedded definitions)"},
			&cli.StringFlag{Name: "agui-ledger", Usage: "AG-UI protobuf number ledger `FILE` (proto-freeze.txt) that numbers the binary transport (default: the embedded one, for the embedded schema)"},
			&cli.BoolFlag{Name: "extend-ledger", Usage: "number what the AG-UI schema adds and the ledger lacks (the next free number of each message or enum, never one given before), and write the ledger back to --agui-ledger FILE for you to commit; a FILE that does not exist starts from the embedded ledger"},
			&cli.StringSliceFlag{Name: "agui-earlier", Usage: "AG-UI JSON Schema `FILE` of an earlier version whose clients get their runs' events in their own version: events it lacks left out, optional members it lacks cleared (repeatable; default: the embedded AG-UI 1.1 schema, when --agui-schema is a later one; none: no earlier version)"},
			&cli.StringFlag{Name: "a2a-proto", Usage: "A2A proto `FILE` (default: the embedded a2a.proto v1.0.1); an earlier major version's (v0.3.0) is served through the adapter of the embedded one's runtime"},
			&cli.StringSliceFlag{Name: "a2a-compat", Usage: "spec `FILE` of an earlier A2A version whose clients the server keeps serving: its JSON Schema (its JSON-RPC wire, as DIR/a2a/a2av<major><minor>) and its proto (its gRPC service and HTTP+JSON bindings, as DIR/a2a/a2av<major><minor>pb), as VERSION=FILE when its package does not tell the version; a version of --a2a-proto's major needs its proto alone (repeatable; default: the embedded v0.3.0 schema and proto; none: no earlier version)"},
			protoPathFlag(),
			&cli.StringFlag{Name: "a2a-version", Usage: "protocol `VERSION` (Major.Minor) that --a2a-proto defines, which a proto does not state; default: from its package name (a2a.v1 is 0.3, lf.a2a.v1 1.0)"},
			&cli.StringSliceFlag{Name: "only", Usage: "generate only these `PACKAGES` (below --out: agui, a2a, a2a/a2agrpc, bridge, agenthost, …) and the generated packages they import, so go.mod takes in no more than they need (repeatable or comma-separated; default: all)"},
			&cli.BoolFlag{Name: "check", Usage: "write nothing; exit 1 and name the stale files when DIR differs from what would be generated"},
		},
		Action: runGenerate,
	}
}

func runGenerate(c *cli.Context) error {
	in, err := generate.Embedded()
	if err != nil {
		return err
	}
	if f := c.String("agui-schema"); f != "" {
		if in.AGUISchema, err = generate.ReadSpec(f); err != nil {
			return err
		}
		if err := generate.Expect("--agui-schema", in.AGUISchema, generate.KindAGUISchema); err != nil {
			return cli.Exit(err.Error(), 2)
		}
	}
	if f := c.String("meta"); f != "" {
		if in.Meta, err = generate.ReadSpec(f); err != nil {
			return err
		}
		if err := generate.Expect("--meta", in.Meta, generate.KindMeta); err != nil {
			return cli.Exit(err.Error(), 2)
		}
	}
	ledgerFile, extend := c.String("agui-ledger"), c.Bool("extend-ledger")
	if extend && ledgerFile == "" {
		return errors.New("--extend-ledger writes the ledger it extends: name it with --agui-ledger FILE (a FILE that does not exist starts from the embedded ledger)")
	}
	if ledgerFile != "" {
		spec, err := generate.ReadSpec(ledgerFile)
		switch {
		case err == nil:
			in.AGUIProtoLedger = spec
		case extend && errors.Is(err, fs.ErrNotExist):
			in.AGUIProtoLedger.File = filepath.Base(ledgerFile) // the embedded ledger, to be written there
		default:
			return err
		}
	}
	if files := c.StringSlice("agui-earlier"); len(files) > 0 {
		if in.AGUIEarlier, err = earlierSpecs("agui-earlier", files, false); err != nil {
			return err
		}
	}
	if f := c.String("a2a-proto"); f != "" {
		if in.A2AProto, err = generate.ReadSpec(f); err != nil {
			return err
		}
		in.A2AVersion = "" // the embedded proto's; this one's comes from the flag or its package
	}
	if v := c.String("a2a-version"); v != "" {
		in.A2AVersion = v
	}
	if files := c.StringSlice("a2a-compat"); len(files) > 0 {
		if in.A2ACompat, err = earlierSpecs("a2a-compat", files, true); err != nil {
			return err
		}
	}
	if dirs := c.StringSlice("proto-path"); len(dirs) > 0 {
		in.A2AProto.ImportPaths = dirs
		for i := range in.A2ACompat {
			in.A2ACompat[i].ImportPaths = dirs
		}
	}
	out := c.String("out")
	importPath := c.String("package-path")
	if importPath == "" {
		importPath = generate.ImportPathOf(out)
	}
	result, err := generate.Run(in, generate.Options{ImportPath: importPath, ExtendLedger: extend})
	if err != nil {
		return err
	}
	if importPath == "" {
		// The packages import each other by path: without one, they would
		// not compile.
		return cli.Exit(fmt.Sprintf("%s is in no Go module (no go.mod above it), so the generated packages' import path is unknown:\n"+
			"run go mod init in the project first, or name the path of %s with --package-path", out, out), 2)
	}
	for _, note := range result.Notes {
		fmt.Fprintf(c.App.ErrWriter, "agui-gen: %s\n", note)
	}
	files := result.Files
	if only := c.StringSlice("only"); len(only) > 0 {
		if files, err = generate.Select(files, importPath, only); err != nil {
			return cli.Exit(err.Error(), 2)
		}
	}
	if added := result.Ledger.Added(); len(added) > 0 {
		if c.Bool("check") {
			return cli.Exit(fmt.Sprintf("%s lacks %d slots of the schema: %s\nrun agui-gen generate --extend-ledger to number them", ledgerFile, len(added), strings.Join(added, ", ")), 1)
		}
		if err := os.WriteFile(ledgerFile, result.Ledger.Format(), 0o644); err != nil {
			return err
		}
		fmt.Fprintf(c.App.ErrWriter, "agui-gen: numbered %d new slots in %s (commit it with the schema):\n", len(added), ledgerFile)
		for _, k := range added {
			n, _ := result.Ledger.Number(k)
			fmt.Fprintf(c.App.ErrWriter, "  %s = %d\n", k, n)
		}
	}
	if c.Bool("check") {
		stale, err := generate.Stale(out, files)
		if err != nil {
			return err
		}
		if len(stale) > 0 {
			return cli.Exit(generate.Describe(stale)+"\nrun agui-gen generate to update them", 1)
		}
		return nil
	}
	w, err := generate.Write(out, files)
	if err != nil {
		return err
	}
	fmt.Fprintf(c.App.Writer, "generated %d files in %s: %d written, %d already up to date, %d removed\n",
		len(files), out, w.Changed, w.Unchanged, w.Removed)
	if missing, err := generate.Unrequired(out, files); err != nil {
		fmt.Fprintf(c.App.ErrWriter, "agui-gen: could not check go.mod: %v\n", err)
	} else if len(missing) > 0 {
		next := "run go mod tidy"
		if slices.ContainsFunc(missing, func(p string) bool { return strings.HasPrefix(p, aguiGenModule+"/") }) {
			next = "run " + requireRuntime() + " && go mod tidy"
		}
		fmt.Fprintf(c.App.ErrWriter, "agui-gen: the generated packages import what go.mod does not require yet; %s:\n  %s\n",
			next, strings.Join(missing, "\n  "))
	}
	return nil
}

// protoPathFlag is the flag that names the directories the imports of a
// proto resolve below, as protoc's -I.
func protoPathFlag() cli.Flag {
	return &cli.StringSliceFlag{Name: "proto-path", Usage: "`DIR` the imports of an A2A proto resolve below, as protoc's -I (repeatable; google/protobuf and google/api are built in); the messages and enums of imported files of the proto's own package are generated with it"}
}

// earlierSpecs reads the files a repeatable flag names as earlier
// versions' specs: "none" alone for none, else each FILE or, when
// versioned, VERSION=FILE, which names the version of a proto whose package
// does not tell it (0.3's is a2a.v1).
func earlierSpecs(flag string, files []string, versioned bool) ([]generate.Spec, error) {
	if slices.Contains(files, "none") {
		if len(files) > 1 {
			return nil, fmt.Errorf("--%s none means no earlier version: give it alone", flag)
		}
		return nil, nil
	}
	var specs []generate.Spec
	for _, f := range files {
		version, file, named := strings.Cut(f, "=")
		if !named || !versioned {
			version, file = "", f
		}
		spec, err := generate.ReadSpec(file)
		if err != nil {
			return nil, err
		}
		spec.Version = version
		specs = append(specs, spec)
	}
	return specs, nil
}

// closest returns the candidate a mistyped word most likely meant: one it
// begins, or one within an edit or two of it (a third of its length at
// most); "" when none is that close.
func closest(word string, candidates []string) string {
	best, bestDist := "", 0
	for _, c := range candidates {
		d := editDistance(word, c)
		if len(word) >= 2 && strings.HasPrefix(c, word) {
			d = 0
		}
		if d <= max(1, min(2, len(word)/3)) && (best == "" || d < bestDist) {
			best, bestDist = c, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance of a and b.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}

// buildVersion is this binary's version: the linker's, else the module's
// from the build info (what go install or go run …@vX.Y.Z record), else
// "(devel)".
func buildVersion() string {
	if version != "" {
		return version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		return bi.Main.Version
	}
	return "(devel)"
}

// checkout is the root of the agui-gen checkout this binary was built
// from, for a development build, whose module a project can reach only by
// a replace directive; "" for a released build, or when the build recorded
// no source directory (-trimpath) or the checkout is gone.
func checkout() string {
	if pinnableVersion(buildVersion()) != "" {
		return ""
	}
	_, file, _, ok := goruntime.Caller(0)
	if !ok || !filepath.IsAbs(file) {
		return ""
	}
	root := filepath.Dir(filepath.Dir(filepath.Dir(file))) // <root>/cmd/agui-gen/main.go
	data, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil || modfile.ModulePath(data) != aguiGenModule {
		return ""
	}
	return root
}

// aguiGenModule is agui-gen's module path: the generator's and the
// runtime's the generated packages import.
const aguiGenModule = "github.com/agui-gen/agui-gen"

// requireRuntime is the command that makes a project's go.mod require the
// agui-gen whose runtime the generated packages import: this build's
// version, or, for a development build, its checkout.
func requireRuntime() string {
	if v := pinnableVersion(buildVersion()); v != "" {
		return "go get " + aguiGenModule + "@" + v
	}
	dir := checkout()
	if dir == "" {
		dir = "/path/to/agui-gen"
	}
	return "go mod edit -require=" + aguiGenModule + "@v0.0.0 -replace=" + aguiGenModule + "=" + shellQuote(dir)
}

// revision is the VCS revision the binary was built from, when the build
// recorded one (a build in a git checkout): " (revision 1a2b3c4d5e6f, 2026-11-26T18:00:00Z, modified)".
func revision() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	var rev, at, modified string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			at = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				modified = ", modified"
			}
		}
	}
	if rev == "" {
		return ""
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if at != "" {
		at = ", " + at
	}
	return " (revision " + rev + at + modified + ")"
}

// pinnableVersion is v if a go run …@v line can fetch it: not a
// development build, and not one from a modified checkout ("+dirty"), whose
// version names no commit anyone can fetch. Otherwise it is "".
func pinnableVersion(v string) string {
	if !strings.HasPrefix(v, "v") || strings.Contains(v, "+") {
		return ""
	}
	return v
}

func versionCommand() *cli.Command {
	return &cli.Command{
		Name:  "version",
		Usage: "print agui-gen's version and the spec versions it embeds",
		Action: func(c *cli.Context) error {
			fmt.Fprintf(c.App.Writer, "agui-gen %s%s\n", buildVersion(), revision())
			in, err := generate.Embedded()
			if err != nil {
				return err
			}
			for _, s := range append([]generate.Spec{in.AGUISchema, in.Meta, in.A2AProto}, in.A2ACompat...) {
				fmt.Fprintf(c.App.Writer, "  %s %s\n", s.File, generate.Describe1(s))
			}
			return nil
		},
	}
}
