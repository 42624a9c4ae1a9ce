// Package generate runs the pipeline: load the specs, lower them to IR, emit
// Go, and write (or check) the output tree.
package generate

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"go/parser"
	"go/token"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/mod/modfile"

	"github.com/agui-gen/agui-gen/generator/emit/golang"
	"github.com/agui-gen/agui-gen/generator/ir"
	"github.com/agui-gen/agui-gen/generator/load/freeze"
	"github.com/agui-gen/agui-gen/generator/load/jsonschema"
	"github.com/agui-gen/agui-gen/schemas"
)

// Spec is one input file: its name for messages and its bytes.
type Spec struct {
	File string
	Data []byte
	// Version is the protocol version (Major.Minor) an earlier version's
	// proto defines, where its package name does not tell (0.3's is a2a.v1).
	Version string
	// ImportPaths are the directories a proto's imports resolve below, as
	// protoc's -I (--proto-path); google/protobuf and google/api are built in.
	ImportPaths []string
}

// Inputs are the specs to generate from.
type Inputs struct {
	AGUISchema Spec
	// AGUIProtoLedger numbers the AG-UI protobuf transport (proto-freeze.txt).
	AGUIProtoLedger Spec
	Meta            Spec
	// AGUIEarlier are the schemas of earlier AG-UI versions whose clients
	// the server writes events for in their own version. One that is
	// AGUISchema itself is skipped: Embedded names the embedded schema, so
	// that a run given a newer one serves the embedded version's clients.
	AGUIEarlier []Spec
	A2AProto    Spec
	// A2AVersion is the protocol version (Major.Minor) A2AProto defines,
	// which the proto does not state. Empty means: derived from the proto
	// package's version suffix ("lf.a2a.v1" is 1.0).
	A2AVersion string
	// A2ACompat are the specs of earlier A2A versions whose clients the
	// generated server keeps serving beside A2AProto's: a version's JSON
	// Schema (its JSON-RPC wire) and, optionally, its proto (its gRPC
	// service and HTTP+JSON bindings). Each becomes a package below a2a
	// ("a2a/a2av03", "a2a/a2av03pb").
	A2ACompat []Spec
}

// Embedded returns the specs built into the binary.
func Embedded() (Inputs, error) {
	read := func(p string) (Spec, error) {
		b, err := fs.ReadFile(schemas.FS, p)
		return Spec{File: path.Base(p), Data: b}, err
	}
	var in Inputs
	var err error
	if in.AGUISchema, err = read(schemas.AGUISchema); err != nil {
		return in, err
	}
	if in.AGUIProtoLedger, err = read(schemas.AGUIProtoFreeze); err != nil {
		return in, err
	}
	in.AGUIEarlier = []Spec{in.AGUISchema}
	if in.Meta, err = read(schemas.MetaSchema); err != nil {
		return in, err
	}
	if in.A2AProto, err = read(schemas.A2AProto); err != nil {
		return in, err
	}
	in.A2AVersion = schemas.A2AVersion
	v03, err := read(schemas.A2AV03Schema)
	if err != nil {
		return in, err
	}
	v03proto, err := read(schemas.A2AV03Proto)
	if err != nil {
		return in, err
	}
	v03proto.Version = schemas.A2AV03Version
	in.A2ACompat = []Spec{v03, v03proto}
	return in, nil
}

// ReadSpec reads a spec file from disk.
func ReadSpec(file string) (Spec, error) {
	b, err := os.ReadFile(file)
	return Spec{File: filepath.Base(file), Data: b}, err
}

// Options say where the output goes.
type Options struct {
	// ImportPath is the import path of the output directory; each generated
	// package lives below it ("…/gen" → "…/gen/agui").
	ImportPath string
	// ExtendLedger numbers what the AG-UI schema has and the protobuf
	// ledger lacks, instead of failing on it: each new slot gets the next
	// number free in its message or enum, never one given before.
	ExtendLedger bool
}

// File is one output file, relative to the output directory.
type File struct {
	Path    string // slash-separated, e.g. "agui/types_gen.go"
	Content []byte
}

// Generate runs the pipeline and returns the output files in path order.
func Generate(in Inputs, opts Options) ([]File, error) {
	out, err := Run(in, opts)
	if err != nil {
		return nil, err
	}
	return out.Files, nil
}

// Output is what a run of the pipeline makes.
type Output struct {
	// Files are the output files in path order.
	Files []File
	// Ledger is the AG-UI protobuf ledger the run numbered the transport
	// by; with Options.ExtendLedger, its Added slots are the ones it
	// numbered, and Format writes it.
	Ledger *freeze.Ledger
	// Notes say what the run decided that its inputs did not state, for
	// the user to read.
	Notes []string
}

// Run runs the pipeline.
func Run(in Inputs, opts Options) (*Output, error) {
	pkg, err := jsonschema.Load("agui",
		jsonschema.Document{File: in.AGUISchema.File, Data: in.AGUISchema.Data},
		jsonschema.Document{File: in.Meta.File, Data: in.Meta.Data})
	if err != nil {
		return nil, err
	}
	ledger, err := freeze.Parse(in.AGUIProtoLedger.File, in.AGUIProtoLedger.Data)
	if err != nil {
		return nil, err
	}
	ledger.Extend = opts.ExtendLedger
	var out []File
	put := func(dir string, files []golang.File) {
		for _, f := range files {
			out = append(out, File{Path: dir + "/" + f.Name, Content: f.Content})
		}
	}
	earlier, err := loadAGUIEarlier(in, pkg)
	if err != nil {
		return nil, err
	}
	files, err := golang.Package(pkg, golang.Options{PackageName: "agui", ImportPath: joinImport(opts.ImportPath, "agui"),
		AGUIRuntime: true, ProtoLedger: ledger, AGUIEarlier: earlier})
	if err != nil {
		return nil, err
	}
	put("agui", files)
	if files, err = golang.MetaStorePackages(joinImport(opts.ImportPath, "agui")); err != nil {
		return nil, err
	}
	put("agui", files)
	main := in.A2AProto
	main.Version = in.A2AVersion
	a2a, err := loadProto(main)
	if err != nil {
		return nil, err
	}
	var notes []string
	if note, err := beyondEmbedded(in, a2a); err != nil {
		return nil, err
	} else if note != "" {
		notes = append(notes, note)
	}
	var compatSchemas []compatSchema
	var compatProtos map[string]*ir.Package
	if earlier, runtime := a2a.Sources[0].Version, schemas.A2AVersion; major(earlier) < major(runtime) {
		// The runtime (card, task store, bindings) is written against the
		// embedded version's model: an earlier major has another one. Its
		// clients are served through the adapter, as --a2a-compat would.
		if a2a, compatSchemas, compatProtos, err = serveEarlierThroughAdapter(in, a2a); err != nil {
			return nil, err
		}
		notes = append(notes, fmt.Sprintf("%s defines A2A %s, older than the A2A %s the runtime is written against: a2a/ is generated from the embedded A2A %s proto, "+
			"and A2A %s clients are served through the generated adapter (a2a/%s, a2a/%spb)", in.A2AProto.File, earlier, runtime, runtime, earlier, CompatPackageName(earlier), CompatPackageName(earlier)))
	} else if compatSchemas, compatProtos, err = loadCompat(in.A2ACompat, a2a, in.A2AProto.File); err != nil {
		return nil, err
	}
	a2aImport := joinImport(opts.ImportPath, "a2a")
	if files, err = golang.ProtoPackage(a2a, golang.Options{PackageName: "a2a", ImportPath: a2aImport, A2ARuntime: true}); err != nil {
		return nil, err
	}
	put("a2a", files)
	cs, err := compats(compatSchemas, compatProtos, a2a, func(p *ir.Package) string { return a2aImport + "/" + p.Name })
	if err != nil {
		return nil, err
	}
	var compatVersions []string
	for _, c := range cs {
		var version string // the earlier version's, from either spec
		if old := c.Old; old != nil {
			if files, err = golang.Package(old, golang.Options{PackageName: old.Name, ImportPath: c.OldImport}); err != nil {
				return nil, err
			}
			put("a2a/"+old.Name, files)
			version = old.Sources[0].Version
		}
		if c.Proto != nil {
			old := c.Proto.Old
			if files, err = golang.ProtoPackage(old, golang.Options{PackageName: old.Name, ImportPath: c.Proto.OldImport}); err != nil {
				return nil, err
			}
			put("a2a/"+old.Name, files)
			version = old.Sources[0].Version
		}
		if files, err = golang.CompatPackageFiles(a2a, c, a2aImport, "a2a"); err != nil {
			return nil, err
		}
		put("a2a", files)
		compatVersions = append(compatVersions, version)
	}
	slices.SortStableFunc(compatVersions, func(a, b string) int { return ir.CompareVersions(b, a) }) // newest first
	list, err := golang.CompatListFile(a2aImport, "a2a", compatVersions)
	if err != nil {
		return nil, err
	}
	put("a2a", []golang.File{list})
	// gRPC and card signatures are subpackages, so that the package with the
	// types and the HTTP bindings needs nothing but the standard library.
	if files, err = golang.GRPCPackage(a2a, a2aImport, a2aImport+"/a2agrpc"); err != nil {
		return nil, err
	}
	put("a2a/a2agrpc", files)
	if files, err = golang.CardPackage(a2aImport, a2aImport+"/a2acard"); err != nil {
		return nil, err
	}
	put("a2a/a2acard", files)
	if files, err = golang.AuthPackage(a2aImport, a2aImport+"/a2aauth"); err != nil {
		return nil, err
	}
	put("a2a/a2aauth", files)
	if files, err = golang.TaskPackage(a2a, a2aImport); err != nil {
		return nil, err
	}
	put("a2a/a2atask", files)
	// The bridge and the host join the two protocols, so they are packages
	// of their own: neither protocol's package depends on the other.
	aguiImport, bridgeImport := joinImport(opts.ImportPath, "agui"), joinImport(opts.ImportPath, "bridge")
	if files, err = golang.BridgePackage(aguiImport, a2aImport); err != nil {
		return nil, err
	}
	put("bridge", files)
	if files, err = golang.AgentHostPackage(aguiImport, a2aImport, bridgeImport); err != nil {
		return nil, err
	}
	put("agenthost", files)
	var dirs []string
	for _, f := range out {
		if d := path.Dir(f.Path); !slices.Contains(dirs, d) {
			dirs = append(dirs, d)
		}
	}
	// Every package asserts the runtime level it was generated for; those
	// whose files do not, the copies of templates, in a file of their own.
	for _, dir := range dirs {
		i := slices.IndexFunc(out, func(f File) bool { return path.Dir(f.Path) == dir })
		if slices.ContainsFunc(out, func(f File) bool { return path.Dir(f.Path) == dir && golang.AssertsRuntime(f.Content) }) {
			continue
		}
		name, err := packageName(out[i])
		if err != nil {
			return nil, err
		}
		h, err := golang.HandshakeFile(joinImport(opts.ImportPath, dir), name)
		if err != nil {
			return nil, err
		}
		out = append(out, File{Path: dir + "/" + h.Name, Content: h.Content})
	}
	// The packages' godoc examples, for those the output holds.
	examples, err := golang.ExampleFiles(dirs, opts.ImportPath)
	if err != nil {
		return nil, err
	}
	for _, f := range examples {
		out = append(out, File{Path: f.Name, Content: f.Content})
	}
	slices.SortFunc(out, func(a, b File) int { return strings.Compare(a.Path, b.Path) })
	return &Output{Files: out, Ledger: ledger, Notes: notes}, nil
}

// loadAGUIEarlier loads the earlier AG-UI versions' schemas, each with the
// META definitions, so that META events are no version's difference. A
// schema that is cur's own is skipped, and so is the embedded one (the
// default) when it is not earlier than cur; any other of cur's version or
// a later one is refused, as is a second schema of one version.
func loadAGUIEarlier(in Inputs, cur *ir.Package) ([]*ir.Package, error) {
	var out []*ir.Package
	seen := map[string]string{}
	embedded, err := fs.ReadFile(schemas.FS, schemas.AGUISchema)
	if err != nil {
		return nil, err
	}
	for _, spec := range in.AGUIEarlier {
		if bytes.Equal(spec.Data, in.AGUISchema.Data) {
			continue
		}
		pkg, err := jsonschema.Load("agui",
			jsonschema.Document{File: spec.File, Data: spec.Data},
			jsonschema.Document{File: in.Meta.File, Data: in.Meta.Data})
		if err != nil {
			return nil, err
		}
		v, curV := pkg.Sources[0].Version, cur.Sources[0].Version
		switch {
		case v == "":
			return nil, fmt.Errorf("%s: its $id (%q) names no protocol version, so the clients it is the version of are unknown", spec.File, pkg.Sources[0].ID)
		case ir.CompareVersions(v, curV) >= 0:
			if bytes.Equal(spec.Data, embedded) {
				continue // the default, for a schema older than the embedded one
			}
			return nil, fmt.Errorf("%s defines AG-UI %s, not earlier than %s's %s", spec.File, v, in.AGUISchema.File, curV)
		case seen[v] != "":
			return nil, fmt.Errorf("%s: a second schema of AG-UI %s (the first is %s)", spec.File, v, seen[v])
		}
		seen[v] = spec.File
		out = append(out, pkg)
	}
	return out, nil
}

// serveEarlierThroughAdapter turns a run whose A2A proto, given, defines
// an earlier major version than the runtime's into one that generates the
// runtime from the embedded proto and serves that earlier version beside
// it: given replaces the compat proto of its version among the compat
// specs loaded. Its JSON-RPC wire is its JSON Schema, which must be among
// the compat specs (the embedded ones are, unless --a2a-compat replaced
// them).
func serveEarlierThroughAdapter(in Inputs, given *ir.Package) (*ir.Package, []compatSchema, map[string]*ir.Package, error) {
	embedded, err := Embedded()
	if err != nil {
		return nil, nil, nil, err
	}
	cur, err := loadProto(Spec{File: embedded.A2AProto.File, Data: embedded.A2AProto.Data, Version: embedded.A2AVersion})
	if err != nil {
		return nil, nil, nil, err
	}
	compatSchemas, compatProtos, err := loadCompat(in.A2ACompat, cur, embedded.A2AProto.File)
	if err != nil {
		return nil, nil, nil, err
	}
	version := given.Sources[0].Version
	if !slices.ContainsFunc(compatSchemas, func(cs compatSchema) bool { return cs.pkg.Sources[0].Version == version }) {
		return nil, nil, nil, fmt.Errorf("%s defines A2A %s, which is served beside the runtime's A2A %s through the adapter; its JSON-RPC wire is its JSON Schema: give it with --a2a-compat FILE",
			given.Sources[0].File, version, embedded.A2AVersion)
	}
	given.Name = CompatPackageName(version) + "pb"
	compatProtos[version] = given
	return cur, compatSchemas, compatProtos, nil
}

// major is the major number of a Major.Minor version.
func major(version string) int {
	m, _, _ := strings.Cut(version, ".")
	n, _ := strconv.Atoi(m)
	return n
}

// SetProtocolVersion records the protocol version a proto package defines:
// version when given (Major.Minor), else that of the embedded proto in the
// same package (a2a.v1 is 0.3, lf.a2a.v1 1.0), else the one its package
// name's version suffix implies ("example.a2a.v2" is 2.0).
func SetProtocolVersion(pkg *ir.Package, version string) error {
	if version == "" {
		version = embeddedPackageVersions()[pkg.Proto.Package]
	}
	if version == "" {
		m := packageVersion.FindStringSubmatch(pkg.Proto.Package)
		if m == nil {
			return fmt.Errorf("%s: package %s has no version suffix; give the protocol version (--a2a-version)", pkg.Sources[0].File, pkg.Proto.Package)
		}
		version = m[1] + ".0"
	}
	if !majorMinor.MatchString(version) {
		return fmt.Errorf("protocol version %q is not Major.Minor", version)
	}
	pkg.Sources[0].Version = version
	return nil
}

// embeddedPackageVersions maps the proto package of each embedded A2A
// proto to the version it defines: a proto in one of those packages
// defines that version unless told otherwise (0.3's a2a.v1 would read as
// 1.0 by its suffix).
var embeddedPackageVersions = sync.OnceValue(func() map[string]string {
	versions := map[string]string{}
	for file, version := range map[string]string{schemas.A2AProto: schemas.A2AVersion, schemas.A2AV03Proto: schemas.A2AV03Version} {
		data, err := fs.ReadFile(schemas.FS, file)
		if err != nil {
			panic(err) // embedded: present in every build
		}
		if m := protoPackage.FindSubmatch(data); m != nil {
			versions[string(m[1])] = version
		}
	}
	return versions
})

var (
	packageVersion = regexp.MustCompile(`\.v(\d+)$`)
	majorMinor     = regexp.MustCompile(`^\d+\.\d+$`)
)

func joinImport(base, pkg string) string {
	if base == "" {
		return pkg
	}
	return strings.TrimSuffix(base, "/") + "/" + pkg
}

// Written counts what Write did: the files it wrote anew or over others,
// those already as generated, and the generated files it removed.
type Written struct {
	Changed, Unchanged, Removed int
}

// Write writes files under dir, and deletes the files agui-gen generated
// earlier in the packages it writes that are no longer produced. Files it
// did not generate, *_gen.go or not, are left alone.
func Write(dir string, files []File) (Written, error) {
	var w Written
	for _, f := range files {
		p := filepath.Join(dir, filepath.FromSlash(f.Path))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return w, err
		}
		if old, err := os.ReadFile(p); err == nil && bytes.Equal(old, f.Content) {
			w.Unchanged++
			continue
		}
		if err := os.WriteFile(p, f.Content, 0o644); err != nil {
			return w, err
		}
		w.Changed++
	}
	gone, err := orphans(dir, files)
	if err != nil {
		return w, err
	}
	for _, o := range gone {
		if err := os.Remove(o); err != nil {
			return w, err
		}
		w.Removed++
	}
	return w, nil
}

// orphans lists the files agui-gen generated earlier under dir that files
// no longer holds: *_gen.go and *_gen_test.go files that start with
// agui-gen's header, in the
// packages files writes and in the packages below them (an earlier
// version's package left behind by --a2a-compat none). Other files,
// generated or not, are never touched, nor is anything inside another
// module.
func orphans(dir string, files []File) ([]string, error) {
	want, dirs := map[string]bool{}, map[string]bool{}
	for _, f := range files {
		p := filepath.Join(dir, filepath.FromSlash(f.Path))
		want[p] = true
		dirs[filepath.Dir(p)] = true
	}
	var out []string
	seen := map[string]bool{}
	for d := range dirs {
		if _, err := os.Stat(d); errors.Is(err, fs.ErrNotExist) {
			continue // nothing written there yet
		}
		err := filepath.WalkDir(d, func(p string, e fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if e.IsDir() {
				if p != d && (dirs[p] || seen[p]) {
					return filepath.SkipDir // walked on its own
				}
				if _, err := os.Stat(filepath.Join(p, "go.mod")); err == nil && p != d {
					return filepath.SkipDir
				}
				seen[p] = true
				return nil
			}
			if want[p] || !strings.HasSuffix(p, "_gen.go") && !strings.HasSuffix(p, "_gen_test.go") {
				return nil
			}
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			if bytes.HasPrefix(data, []byte("// "+golang.Header+"\n")) {
				out = append(out, p)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

// Stale compares files with what is under dir and returns the paths (relative
// to dir) that differ, are missing, or are generated files no longer
// produced.
func Stale(dir string, files []File) ([]string, error) {
	var stale []string
	for _, f := range files {
		old, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(f.Path)))
		switch {
		case errors.Is(err, fs.ErrNotExist):
			stale = append(stale, f.Path+" (missing)")
		case err != nil:
			return nil, err
		case !bytes.Equal(old, f.Content):
			stale = append(stale, f.Path+" (differs)")
		}
	}
	extra, err := orphans(dir, files)
	if err != nil {
		return nil, err
	}
	for _, e := range extra {
		rel, _ := filepath.Rel(dir, e)
		stale = append(stale, filepath.ToSlash(rel)+" (no longer generated)")
	}
	slices.Sort(stale)
	return stale, nil
}

// Describe formats a list of stale paths for a message.
func Describe(stale []string) string {
	return fmt.Sprintf("%d stale file(s):\n  %s", len(stale), strings.Join(stale, "\n  "))
}

// Describe1 summarises one spec: its identity (a schema's $id, a proto's
// package) and digest.
func Describe1(s Spec) string {
	id := ""
	if strings.HasSuffix(s.File, ".proto") {
		if m := protoPackage.FindSubmatch(s.Data); m != nil {
			id = "package " + string(m[1])
		}
	} else {
		var top struct {
			ID string `json:"$id"`
		}
		_ = json.Unmarshal(s.Data, &top)
		id = top.ID
	}
	sum := sha256.Sum256(s.Data)
	if id == "" {
		return fmt.Sprintf("sha256:%x", sum[:6])
	}
	return fmt.Sprintf("%s sha256:%x", id, sum[:6])
}

var protoPackage = regexp.MustCompile(`(?m)^package\s+([\w.]+)\s*;`)

// ImportPathOf derives the import path of dir from the enclosing go.mod, or
// returns "" when dir is not inside a module.
func ImportPathOf(dir string) string {
	root := ModuleRoot(dir)
	if root == "" {
		return ""
	}
	data, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		return ""
	}
	mod := modulePath(data)
	abs, err := filepath.Abs(dir)
	if mod == "" || err != nil {
		return ""
	}
	rel, err := filepath.Rel(root, abs)
	if err != nil {
		return ""
	}
	if rel == "." {
		return mod
	}
	return mod + "/" + filepath.ToSlash(rel)
}

// ModuleRoot returns the directory of the go.mod that encloses dir, or ""
// when dir is not inside a module.
func ModuleRoot(dir string) string {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return ""
	}
	for d := abs; ; d = filepath.Dir(d) {
		if fi, err := os.Stat(filepath.Join(d, "go.mod")); err == nil && !fi.IsDir() {
			return d
		}
		if filepath.Dir(d) == d {
			return ""
		}
	}
}

func modulePath(gomod []byte) string {
	for _, line := range strings.Split(string(gomod), "\n") {
		line = strings.TrimSpace(line)
		if rest, ok := strings.CutPrefix(line, "module "); ok {
			return strings.Trim(strings.TrimSpace(rest), `"`)
		}
	}
	return ""
}

// Select keeps of files the packages named in only (paths below the output
// directory: "agui", "a2a/a2agrpc") and the generated packages they import,
// as the files' own imports say, so that a project takes in no more of the
// generated code, and of its dependencies, than it uses. importPath is the
// output directory's import path. An unknown name is an error that lists
// the packages there are.
func Select(files []File, importPath string, only []string) ([]File, error) {
	byPkg := map[string][]File{}
	for _, f := range files {
		dir := path.Dir(f.Path)
		byPkg[dir] = append(byPkg[dir], f)
	}
	keep := map[string]bool{}
	var visit func(pkg string) error
	visit = func(pkg string) error {
		if keep[pkg] {
			return nil
		}
		keep[pkg] = true
		for _, f := range byPkg[pkg] {
			paths, err := imports(f)
			if err != nil {
				return err
			}
			for _, p := range paths {
				if dep, ok := strings.CutPrefix(p, importPath+"/"); ok {
					if err := visit(dep); err != nil {
						return err
					}
				}
			}
		}
		return nil
	}
	for _, name := range only {
		name = strings.Trim(path.Clean(filepath.ToSlash(name)), "/")
		if byPkg[name] == nil {
			return nil, fmt.Errorf("--only %s: no such package; the packages are %s", name, strings.Join(slices.Sorted(maps.Keys(byPkg)), ", "))
		}
		if err := visit(name); err != nil {
			return nil, err
		}
	}
	var out []File
	for _, f := range files {
		if keep[path.Dir(f.Path)] {
			out = append(out, f)
		}
	}
	return out, nil
}

// Unrequired lists the imports of files (test files included) that the
// go.mod of the module enclosing dir neither provides nor requires: what
// the project's go.mod has yet to take in, by go mod tidy, for the
// generated packages to build, as when a new agui-gen's output imports a
// module the earlier one did not. None when dir is in no module.
func Unrequired(dir string, files []File) ([]string, error) {
	root := ModuleRoot(dir)
	if root == "" {
		return nil, nil
	}
	data, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		return nil, err
	}
	mod, err := modfile.ParseLax("go.mod", data, nil)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(root, "go.mod"), err)
	}
	known := []string{mod.Module.Mod.Path}
	for _, r := range mod.Require {
		known = append(known, r.Mod.Path)
	}
	within := func(p, module string) bool { return p == module || strings.HasPrefix(p, module+"/") }
	missing := map[string]bool{}
	for _, f := range files {
		if !strings.HasSuffix(f.Path, ".go") {
			continue
		}
		paths, err := imports(f)
		if err != nil {
			return nil, err
		}
		for _, p := range paths {
			if first, _, _ := strings.Cut(p, "/"); !strings.Contains(first, ".") {
				continue // the standard library
			}
			if !slices.ContainsFunc(known, func(m string) bool { return within(p, m) }) {
				missing[p] = true
			}
		}
	}
	return slices.Sorted(maps.Keys(missing)), nil
}

// packageName is the package clause of f, a Go file.
func packageName(f File) (string, error) {
	parsed, err := parser.ParseFile(token.NewFileSet(), f.Path, f.Content, parser.PackageClauseOnly)
	if err != nil {
		return "", fmt.Errorf("%s: %w", f.Path, err)
	}
	return parsed.Name.Name, nil
}

// imports lists the import paths of f, a Go file.
func imports(f File) ([]string, error) {
	parsed, err := parser.ParseFile(token.NewFileSet(), f.Path, f.Content, parser.ImportsOnly)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", f.Path, err)
	}
	paths := make([]string, len(parsed.Imports))
	for i, imp := range parsed.Imports {
		paths[i], _ = strconv.Unquote(imp.Path.Value)
	}
	return paths, nil
}
