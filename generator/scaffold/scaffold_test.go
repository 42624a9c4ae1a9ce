package scaffold

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The repository's example is the scaffold for the repository's own
// generated packages.
const exampleDir, exampleGen = "../../examples/server", "github.com/agui-gen/agui-gen/gen"

func TestExampleIsFresh(t *testing.T) {
	files, err := Files(Options{Gen: exampleGen})
	if err != nil {
		t.Fatal(err)
	}
	if stale := Differing(exampleDir, files); len(stale) > 0 {
		t.Errorf("examples/server differs from the scaffold in %s; run: go run ./cmd/agui-gen scaffold --out examples/server --gen %s --force",
			strings.Join(stale, ", "), exampleGen)
	}
	for _, name := range []string{"gen.go", "go.mod"} {
		if _, ok := files[name]; ok {
			t.Errorf("%s written without being asked for", name)
		}
	}
	// The database the server keeps beside its code stays out of git.
	if ignore := files[".gitignore"]; !bytes.Contains(ignore, []byte("server.db\n")) || !bytes.Contains(ignore, []byte("server.db-wal\n")) {
		t.Errorf(".gitignore: %q", ignore)
	}
}

func TestOptionalFiles(t *testing.T) {
	files, err := Files(Options{Gen: "example.com/app/gen", Generate: true, Module: "example.com/app", Checkout: "/src/agui gen"})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(files["gen.go"], []byte("//go:generate go tool agui-gen generate --out gen --package-path example.com/app/gen\n")) {
		t.Errorf("gen.go:\n%s", files["gen.go"])
	}
	mod := string(files["go.mod"])
	for _, want := range []string{
		"module example.com/app\n",
		"\ntool github.com/agui-gen/agui-gen/cmd/agui-gen\n",
		"\tgithub.com/agui-gen/agui-gen v0.0.0\n",
		"\nreplace github.com/agui-gen/agui-gen => \"/src/agui gen\"\n",
	} {
		if !strings.Contains(mod, want) {
			t.Errorf("go.mod of a development build lacks %q:\n%s", want, mod)
		}
	}
	if !bytes.Contains(files["main.go"], []byte(`"example.com/app/gen/agui"`)) {
		t.Error("main.go does not import the generated packages from example.com/app/gen")
	}
	if strings.Count(mod, "\nreplace ") != 1 {
		t.Errorf("go.mod of a development build without --model replaces more than agui-gen:\n%s", mod)
	}

	// With --model, the adapter's module comes from the checkout too.
	files, err = Files(Options{Gen: "example.com/app/gen", Module: "example.com/app", Checkout: "/src/agui gen",
		Model: Model{Provider: "gemini", Name: "gemini-2.5-flash"}})
	if err != nil {
		t.Fatal(err)
	}
	mod = string(files["go.mod"])
	for _, want := range []string{
		"\tgithub.com/agui-gen/agui-gen v0.0.0\n",
		"\tgithub.com/agui-gen/agui-gen/runtime/model/gemini v0.0.0\n",
		"\nreplace github.com/agui-gen/agui-gen => \"/src/agui gen\"\n",
		"\nreplace github.com/agui-gen/agui-gen/runtime/model/gemini => \"" + filepath.Join("/src/agui gen", "runtime", "model", "gemini") + "\"\n",
	} {
		if !strings.Contains(mod, want) {
			t.Errorf("go.mod of a development build with --model lacks %q:\n%s", want, mod)
		}
	}
}

// TestReleaseRequiresItself: a released agui-gen starts a module that
// requires it, the tool and the runtime at one version, with no replace.
func TestReleaseRequiresItself(t *testing.T) {
	files, err := Files(Options{Gen: "example.com/app/gen", Generate: true, Module: "example.com/app", Version: "v1.4.0"})
	if err != nil {
		t.Fatal(err)
	}
	mod := string(files["go.mod"])
	if !strings.Contains(mod, "\tgithub.com/agui-gen/agui-gen v1.4.0\n") || strings.Contains(mod, "replace") {
		t.Errorf("go.mod of a release:\n%s", mod)
	}
	files, err = Files(Options{Gen: "example.com/app/gen", Module: "example.com/app", Version: "v1.4.0",
		Model: Model{Provider: "openai", Name: "gpt-4.1"}})
	if err != nil {
		t.Fatal(err)
	}
	mod = string(files["go.mod"])
	if !strings.Contains(mod, "\tgithub.com/agui-gen/agui-gen/runtime/model/openai v1.4.0\n") || strings.Contains(mod, "replace") {
		t.Errorf("go.mod of a release with --model requires the adapter at another version:\n%s", mod)
	}
}

// TestGoModPinsTestedVersions: a new module starts on the versions of the
// dependencies this repository tests the generated packages with.
func TestGoModPinsTestedVersions(t *testing.T) {
	files, err := Files(Options{Gen: "example.com/app/gen", Module: "example.com/app"})
	if err != nil {
		t.Fatal(err)
	}
	ours, err := os.ReadFile("../../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	pinned := 0
	for _, line := range strings.Split(string(files["go.mod"]), "\n") {
		f := strings.Fields(line)
		if len(f) != 2 || !strings.Contains(f[0], ".") || !strings.HasPrefix(f[1], "v") || f[0] == "github.com/agui-gen/agui-gen" {
			continue
		}
		pinned++
		if !bytes.Contains(ours, []byte("\t"+f[0]+" "+f[1]+"\n")) {
			t.Errorf("the scaffold's go.mod requires %s %s; agui-gen's go.mod has another version", f[0], f[1])
		}
	}
	if pinned == 0 {
		t.Error("the scaffold's go.mod pins nothing")
	}
}

func TestWriteNeverOverwrites(t *testing.T) {
	dir := t.TempDir()
	files := map[string][]byte{"main.go": []byte("package main\n"), "web/index.html": []byte("<p>")}
	if err := Write(dir, files, false); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "main.go"), []byte("package main // mine\n"), 0o644)
	err := Write(dir, map[string][]byte{"main.go": []byte("package main\n"), "agent.go": []byte("package main\n")}, false)
	if err == nil || !strings.Contains(err.Error(), "main.go") {
		t.Fatalf("over an edited file: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "agent.go")); err == nil {
		t.Error("a refused scaffold wrote some of its files")
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "main.go")); string(got) != "package main // mine\n" {
		t.Errorf("main.go became %q", got)
	}
	if err := Write(dir, files, true); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "main.go")); string(got) != "package main\n" {
		t.Errorf("forced: main.go is %q", got)
	}
}

// TestBundleIsFresh rebuilds the chat page's @ag-ui/client bundle from the
// npm lock and compares it with the one checked in.
func TestBundleIsFresh(t *testing.T) {
	nodeDir := "../../interop/node"
	_, errNode := exec.LookPath("node")
	_, errMods := os.Stat(filepath.Join(nodeDir, "node_modules", "esbuild"))
	if errNode != nil || errMods != nil {
		msg := "Node or esbuild missing: install Node.js and run `npm ci` in interop/node"
		if os.Getenv("CI") != "" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	out := t.TempDir()
	cmd := exec.Command("node", "build-chat-bundle.mjs", out)
	cmd.Dir = nodeDir
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("node build-chat-bundle.mjs: %v\n%s", err, msg)
	}
	for _, name := range []string{"agui-client.js", "agui-client.LICENSES.txt"} {
		built, _ := os.ReadFile(filepath.Join(out, name))
		checkedIn, err := os.ReadFile(filepath.Join("../../templates/scaffold/web", name))
		if err != nil || !bytes.Equal(built, checkedIn) {
			t.Errorf("templates/scaffold/web/%s is stale: run node build-chat-bundle.mjs in interop/node, then agui-gen scaffold --force for examples/server", name)
		}
	}
}

func TestParseModel(t *testing.T) {
	for in, want := range map[string]Model{
		"openai:gpt-4.1":              {"openai", "gpt-4.1"},
		"anthropic:claude-sonnet-4-5": {"anthropic", "claude-sonnet-4-5"},
		"gemini:gemini-2.5-flash":     {"gemini", "gemini-2.5-flash"},
		"openai:llama3.2:3b":          {"openai", "llama3.2:3b"}, // an Ollama name, through OPENAI_BASE_URL
	} {
		if got, err := ParseModel(in); err != nil || got != want {
			t.Errorf("ParseModel(%q) = %+v, %v; want %+v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "openai", "openai:", ":gpt-4.1", "mistral:large", "OpenAI:gpt-4.1", "openai:gpt 4"} {
		_, err := ParseModel(in)
		if err == nil || !strings.Contains(err.Error(), ModelForm) {
			t.Errorf("ParseModel(%q): %v; want an error naming %q", in, err, ModelForm)
		}
	}
	if _, err := Files(Options{Gen: exampleGen, Model: Model{Provider: "mistral", Name: "large"}}); err == nil {
		t.Error("Files rendered a model of an unknown provider")
	}
}

// TestModelScaffold: --model renders model.go on the provider's adapter and
// environment, serves that agent on AG-UI and A2A, and takes in that
// adapter's module and that provider's SDK alone, at the version the
// adapter's module requires; without it there is no model.go.
func TestModelScaffold(t *testing.T) {
	sdks := map[string]string{"openai": "github.com/openai/openai-go/v3", "anthropic": "github.com/anthropics/anthropic-sdk-go/v2", "gemini": "google.golang.org/genai"}
	env := map[string][]string{
		"openai":    {`"OPENAI_API_KEY"`, `"OPENAI_BASE_URL"`},
		"anthropic": {`"ANTHROPIC_API_KEY"`, `"ANTHROPIC_BASE_URL"`},
		"gemini":    {`"GEMINI_API_KEY"`, `"GOOGLE_API_KEY"`, `"GOOGLE_GEMINI_BASE_URL"`},
	}
	for provider := range sdks {
		adapterMod, err := os.ReadFile("../../runtime/model/" + provider + "/go.mod")
		if err != nil {
			t.Fatal(err)
		}
		if m := (Model{Provider: provider}); !bytes.Contains(adapterMod, []byte("\t"+m.SDK()+" "+m.SDKVersion()+"\n")) {
			t.Errorf("the scaffold requires %s %s; runtime/model/%s/go.mod has another version", m.SDK(), m.SDKVersion(), provider)
		}
		for _, aguiOnly := range []bool{false, true} {
			files, err := Files(Options{Gen: "example.com/app/gen", Module: "example.com/app", AGUIOnly: aguiOnly,
				Model: Model{Provider: provider, Name: `test-"model"`}})
			if err != nil {
				t.Fatal(err)
			}
			m := string(files["model.go"])
			for _, want := range append([]string{
				`"github.com/agui-gen/agui-gen/runtime/model/` + provider + `"`,
				`"example.com/app/gen/agui"`,
				"agui.ModelAgent(",
				`const modelName = "test-\"model\""`,
			}, env[provider]...) {
				if !strings.Contains(m, want) {
					t.Errorf("%s model.go lacks %s:\n%s", provider, want, m)
				}
			}
			mainGo := string(files["main.go"])
			for _, want := range []string{"agent, err := modelAgent(ctx)", "cfg.agent = agent", "agent = cfg.agent"} {
				if !strings.Contains(mainGo, want) {
					t.Errorf("%s main.go lacks %q", provider, want)
				}
			}
			if !aguiOnly && !strings.Contains(mainGo, "&bridge.Executor{Agent: agent,") {
				t.Errorf("%s: A2A does not serve the model's agent through the bridge", provider)
			}
			mod := string(files["go.mod"])
			for p, other := range sdks {
				if got := strings.Contains(mod, other); got != (p == provider) {
					t.Errorf("--model %s: go.mod takes in %s: %v", provider, other, got)
				}
				adapter := "\tgithub.com/agui-gen/agui-gen/runtime/model/" + p + " v0.0.0\n"
				if got := strings.Contains(mod, adapter); got != (p == provider) {
					t.Errorf("--model %s: go.mod requires runtime/model/%s: %v", provider, p, got)
				}
			}
			for _, v := range env[provider] {
				if !strings.Contains(string(files["README.md"]), strings.Trim(v, `"`)) {
					t.Errorf("%s README.md does not name %s", provider, v)
				}
			}
		}
	}
	files, err := Files(Options{Gen: exampleGen})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := files["model.go"]; ok || bytes.Contains(files["main.go"], []byte("modelAgent")) {
		t.Error("a scaffold without --model has a model's agent")
	}
}

// TestResumableScaffold: --resumable serves the AG-UI runs with
// agui.WithResumableRuns on a SQLite run log beside the database (on
// PostgreSQL, a pglog in it), which .gitignore keeps out of git,
// and tests a resumed run; without it, none of that is written.
func TestResumableScaffold(t *testing.T) {
	for _, aguiOnly := range []bool{false, true} {
		files, err := Files(Options{Gen: "example.com/app/gen", Module: "example.com/app", AGUIOnly: aguiOnly, Resumable: true})
		if err != nil {
			t.Fatal(err)
		}
		mainGo := string(files["main.go"])
		for _, want := range []string{
			"sqlitelog.Open(ctx, runLogFile(db.dsn), sqlitelog.Options{})",
			"pglog.Open(ctx, db.dsn, pglog.Options{})",
			`return strings.TrimSuffix(dbFile, ext) + "-runs" + ext`,
			"agui.WithResumableRuns(st.runs, agui.TrackRuns(&runs))",
			"runs.Wait(context.Background())",
		} {
			if !strings.Contains(mainGo, want) {
				t.Errorf("--resumable (only agui: %v): main.go lacks %q", aguiOnly, want)
			}
		}
		if !bytes.Contains(files["main_test.go"], []byte("func TestResumableRun(")) {
			t.Errorf("--resumable (only agui: %v): main_test.go does not test a resumed run", aguiOnly)
		}
		if !bytes.Contains(files[".gitignore"], []byte("\nserver-runs.db\n")) {
			t.Errorf("--resumable: .gitignore:\n%s", files[".gitignore"])
		}
		if !bytes.Contains(files["README.md"], []byte("## Runs that survive a dropped connection")) {
			t.Error("--resumable: the README does not say what it does")
		}
	}
	files, err := Files(Options{Gen: exampleGen})
	if err != nil {
		t.Fatal(err)
	}
	for name, text := range files {
		if bytes.Contains(text, []byte("WithResumableRuns")) || bytes.Contains(text, []byte("server-runs.db")) {
			t.Errorf("a scaffold without --resumable has resumable runs in %s", name)
		}
	}
}
