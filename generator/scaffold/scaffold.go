// Package scaffold renders the example server agui-gen scaffold writes: a
// program the user owns from then on, wired to the generated packages.
// Unlike generated files it is written once, never over a file that exists
// unless forced.
package scaffold

import (
	"bytes"
	"errors"
	"fmt"
	"go/format"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"text/template"

	"golang.org/x/mod/modfile"

	"github.com/agui-gen/agui-gen/templates"
)

// Options say where the scaffolded server finds the generated packages.
type Options struct {
	// Gen is the import path of the directory agui-gen generate writes to
	// (its agui, a2a and bridge packages are below it).
	Gen string
	// Generate adds gen.go, whose go:generate line regenerates the
	// packages in the gen directory beside it.
	Generate bool
	// Version is the agui-gen version a new module (Module) requires, for
	// its tool and for the runtime the generated packages import; empty, for
	// a development build, requires v0.0.0 replaced by Checkout.
	Version string
	// Checkout is the directory of the agui-gen checkout a development build
	// was built from, which a new module's go.mod points its requirement of
	// agui-gen (and of the model adapter's module) at (a replace
	// directive); empty for a released build.
	Checkout string
	// AGUIOnly writes a server of AG-UI alone, on the generated packages
	// AGUIOnlyPackages: no A2A, no task runtime, no gRPC.
	AGUIOnly bool
	// Module, when set, adds a go.mod starting a module of this path, with
	// the dependencies of the generated packages at the versions agui-gen
	// is tested with.
	Module string
	// Model, when its Provider is set, makes the server's agent one on that
	// model (agui.ModelAgent over runtime/model/PROVIDER) rather than the
	// scripted one, and a new module's go.mod takes in that adapter's module
	// and that provider's SDK alone.
	Model Model
	// Resumable makes the server's AG-UI runs outlive their connection
	// (agui.WithResumableRuns): each run's events go to a SQLite run log
	// in a file beside --db's, from which a client that reconnects gets
	// what it missed, and the capabilities declare transport.resumable.
	Resumable bool
}

// Model is a provider's model, as --model PROVIDER:NAME names it.
type Model struct {
	// Provider is one of Providers.
	Provider string
	// Name is the provider's name of the model, as gpt-4.1.
	Name string
}

// Providers are the model providers the scaffold knows: each the name of a
// runtime/model adapter package.
var Providers = []string{"openai", "anthropic", "gemini"}

// sdks are the module of each provider's SDK and the version agui-gen's
// adapter is tested with (the adapter module's go.mod requires it).
var sdks = map[string][2]string{
	"openai":    {"github.com/openai/openai-go/v3", "v3.98.0"},
	"anthropic": {"github.com/anthropics/anthropic-sdk-go/v2", "v2.15.0"},
	"gemini":    {"google.golang.org/genai", "v1.77.0"},
}

// Module is the module of agui-gen's adapter for the provider, which a
// new module requires at agui-gen's version.
func (m Model) Module() string { return "github.com/agui-gen/agui-gen/runtime/model/" + m.Provider }

// SDK is the module of the provider's SDK.
func (m Model) SDK() string { return sdks[m.Provider][0] }

// SDKVersion is the version of SDK that agui-gen's adapter is tested with.
func (m Model) SDKVersion() string { return sdks[m.Provider][1] }

// ModelForm is the accepted form of --model, for messages.
const ModelForm = "PROVIDER:NAME, PROVIDER one of openai, anthropic, gemini (as openai:gpt-4.1)"

// ParseModel reads --model: PROVIDER:NAME, the name being everything after
// the first colon (an Ollama model through openai may hold one, as
// openai:llama3.2:3b).
func ParseModel(s string) (Model, error) {
	provider, name, ok := strings.Cut(s, ":")
	switch {
	case !ok || name == "":
		return Model{}, fmt.Errorf("--model %q: give %s", s, ModelForm)
	case !slices.Contains(Providers, provider):
		return Model{}, fmt.Errorf("--model %q: unknown provider %q; give %s", s, provider, ModelForm)
	case strings.ContainsFunc(name, func(r rune) bool { return r <= ' ' || r == 0x7f }):
		return Model{}, fmt.Errorf("--model %q: a model's name holds no spaces or control characters; give %s", s, ModelForm)
	}
	return Model{Provider: provider, Name: name}, nil
}

// AGUIOnlyPackages are the generated packages an AG-UI server (AGUIOnly)
// uses: the AG-UI package and its META stores.
var AGUIOnlyPackages = []string{"agui", "agui/metasqlite", "agui/metapg"}

// Files renders the scaffold: file paths, slash-separated and relative to
// the output directory, to their contents. The result depends only on opts.
func Files(opts Options) (map[string][]byte, error) {
	if opts.Gen == "" {
		return nil, errors.New("scaffold: no import path for the generated packages")
	}
	if opts.Model.Provider != "" {
		if _, err := ParseModel(opts.Model.Provider + ":" + opts.Model.Name); err != nil {
			return nil, fmt.Errorf("scaffold: %w", err)
		}
	}
	root, err := fs.Sub(templates.Scaffold, "scaffold")
	if err != nil {
		return nil, err
	}
	files := map[string][]byte{}
	err = fs.WalkDir(root, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(root, p)
		if err != nil {
			return err
		}
		name, isTemplate := strings.CutSuffix(p, ".tmpl")
		if isTemplate {
			if data, err = render(p, data, opts); err != nil {
				return err
			}
			if len(bytes.TrimSpace(data)) == 0 {
				return nil // a file these options leave out
			}
		}
		files[name] = data
		return nil
	})
	return files, err
}

var templateFuncs = template.FuncMap{
	// gomodPath quotes a path with spaces, for go.mod.
	"gomodPath": modfile.AutoQuote,
	// adapterDir is the directory of a provider's adapter module in an
	// agui-gen checkout.
	"adapterDir": func(checkout, provider string) string {
		return filepath.Join(checkout, "runtime", "model", provider)
	},
}

func render(name string, text []byte, opts Options) ([]byte, error) {
	t, err := template.New(name).Delims("[[", "]]").Option("missingkey=error").Funcs(templateFuncs).Parse(string(text))
	if err != nil {
		return nil, fmt.Errorf("scaffold: %w", err)
	}
	var out bytes.Buffer
	if err := t.Execute(&out, opts); err != nil {
		return nil, fmt.Errorf("scaffold: %w", err)
	}
	if path.Ext(strings.TrimSuffix(name, ".tmpl")) != ".go" || len(bytes.TrimSpace(out.Bytes())) == 0 {
		return out.Bytes(), nil
	}
	src, err := format.Source(out.Bytes())
	if err != nil {
		return nil, fmt.Errorf("scaffold: %s does not format: %w", name, err)
	}
	return src, nil
}

// Existing lists, sorted, the files of files that dir already holds.
func Existing(dir string, files map[string][]byte) []string {
	var found []string
	for name := range files {
		if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(name))); err == nil {
			found = append(found, name)
		}
	}
	slices.Sort(found)
	return found
}

// Differing lists, sorted, the files of files that dir lacks or holds with
// other contents.
func Differing(dir string, files map[string][]byte) []string {
	var stale []string
	for name, want := range files {
		got, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
		if err != nil || !bytes.Equal(got, want) {
			stale = append(stale, name)
		}
	}
	slices.Sort(stale)
	return stale
}

// Write writes files below dir. Unless force is set it writes nothing when
// any of them exists, and says which.
func Write(dir string, files map[string][]byte, force bool) error {
	if existing := Existing(dir, files); len(existing) > 0 && !force {
		return fmt.Errorf("%s already holds %s; the scaffold is yours once written, so it is not overwritten (--force overwrites)",
			dir, strings.Join(existing, ", "))
	}
	for _, name := range slices.Sorted(maps.Keys(files)) {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, files[name], 0o644); err != nil {
			return err
		}
	}
	return nil
}
