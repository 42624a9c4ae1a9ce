package generate

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/agui-gen/agui-gen/generator/diff"
	"github.com/agui-gen/agui-gen/generator/emit/golang"
	"github.com/agui-gen/agui-gen/generator/ir"
	"github.com/agui-gen/agui-gen/generator/load/jsonschema"
	protoload "github.com/agui-gen/agui-gen/generator/load/proto"
	"github.com/agui-gen/agui-gen/templates"
)

// LoadA2ACompat loads the JSON Schema of an earlier A2A version (v0.3's
// a2a.json, generated from its TypeScript types), which defines that
// version's JSON wire: what a server of the current version needs to serve
// the clients still speaking it.
//
// Only the JSON-RPC requests and success responses, the agent card and what
// they refer to are read; the JSON-RPC error objects are the transport's,
// not the version's. The schema states no version of its own; the agent
// card's protocolVersion default ("0.3.0") does.
func LoadA2ACompat(spec Spec) (*ir.Package, error) {
	roots, err := compatRoots(spec)
	if err != nil {
		return nil, err
	}
	pkg, err := jsonschema.Load("a2a", jsonschema.Document{File: spec.File, Data: spec.Data,
		ID: "urn:agui-gen:a2a-schema:" + spec.File, Roots: roots})
	if err != nil {
		return nil, err
	}
	card, _ := pkg.Lookup("AgentCard").(*ir.Struct)
	var version string
	if card != nil {
		for _, f := range card.Fields {
			if f.Name == "protocolVersion" {
				_ = json.Unmarshal([]byte(f.Default), &version)
			}
		}
	}
	m := semver.FindStringSubmatch(version)
	if m == nil {
		return nil, fmt.Errorf("%s: AgentCard.protocolVersion has no default Major.Minor.Patch version (%q), so the version the schema defines is unknown", spec.File, version)
	}
	pkg.Sources[0].Version = m[1] + "." + m[2]
	pkg.Name = CompatPackageName(pkg.Sources[0].Version)
	return pkg, nil
}

var semver = regexp.MustCompile(`^(\d+)\.(\d+)\.\d+$`)

// compatSchema is an earlier version's JSON Schema, loaded.
type compatSchema struct {
	spec Spec
	pkg  *ir.Package
}

// loadCompat loads the specs of the earlier versions cur's package serves:
// JSON Schemas, in the order given, and protos by their version. A proto's
// version is its spec's, or else its package name's, which must not be
// cur's own (0.3's a2a.v1 would read as 1.0: name it, 0.3=FILE).
func loadCompat(specs []Spec, cur *ir.Package, curFile string) ([]compatSchema, map[string]*ir.Package, error) {
	var schemas []compatSchema
	protos := map[string]*ir.Package{}
	curVersion := cur.Sources[0].Version
	for _, spec := range specs {
		if !strings.HasSuffix(spec.File, ".proto") {
			pkg, err := LoadA2ACompat(spec)
			if err != nil {
				return nil, nil, err
			}
			if pkg.Sources[0].Version == curVersion {
				return nil, nil, fmt.Errorf("%s defines A2A %s, the version of %s itself", spec.File, curVersion, curFile)
			}
			schemas = append(schemas, compatSchema{spec, pkg})
			continue
		}
		pkg, err := loadProto(spec)
		if err != nil {
			return nil, nil, err
		}
		v := pkg.Sources[0].Version
		switch {
		case v == curVersion && spec.Version == "":
			return nil, nil, fmt.Errorf("%s: its package %s reads as A2A %s, the version of %s itself; name the version it defines: --a2a-compat VERSION=%s", spec.File, pkg.Proto.Package, v, curFile, spec.File)
		case v == curVersion:
			return nil, nil, fmt.Errorf("%s defines A2A %s, the version of %s itself", spec.File, v, curFile)
		case protos[v] != nil:
			return nil, nil, fmt.Errorf("%s: a second proto of A2A %s (the first is %s)", spec.File, v, protos[v].Sources[0].File)
		}
		pkg.Name = CompatPackageName(v) + "pb"
		protos[v] = pkg
	}
	return schemas, protos, nil
}

// loadProto loads an A2A proto and records the version it defines: the
// spec's, or else as SetProtocolVersion reads it.
func loadProto(spec Spec) (*ir.Package, error) {
	pkg, err := protoload.Load(context.Background(), "a2a", spec.File, spec.Data, protoload.WithImportPaths(spec.ImportPaths...))
	if err != nil {
		return nil, err
	}
	if err := SetProtocolVersion(pkg, spec.Version); err != nil {
		return nil, err
	}
	return pkg, nil
}

// CompatPackageName is the Go package of an earlier A2A version: "a2av03"
// for 0.3.
func CompatPackageName(version string) string {
	major, minor, _ := strings.Cut(version, ".")
	return fmt.Sprintf("a2av%s%s", major, minor)
}

// compatRoots lists the definitions a compat package holds: every JSON-RPC
// request (a "jsonrpc" member and a const "method") and success response
// (a "jsonrpc" and a "result" member), and the AgentCard.
func compatRoots(spec Spec) ([]string, error) {
	var doc struct {
		Definitions map[string]struct {
			Properties map[string]struct {
				Const any `json:"const"`
			} `json:"properties"`
		} `json:"definitions"`
	}
	if err := json.Unmarshal(spec.Data, &doc); err != nil {
		return nil, fmt.Errorf("%s: %w", spec.File, err)
	}
	roots := []string{"AgentCard"}
	for name, d := range doc.Definitions {
		_, rpc := d.Properties["jsonrpc"]
		method, isRequest := d.Properties["method"]
		_, isResponse := d.Properties["result"]
		if rpc && ((isRequest && method.Const != nil) || isResponse) {
			roots = append(roots, name)
		}
	}
	if _, ok := doc.Definitions["AgentCard"]; !ok || len(roots) == 1 {
		return nil, fmt.Errorf("%s: not an A2A JSON Schema: it defines no AgentCard and JSON-RPC requests in \"definitions\"", spec.File)
	}
	slices.Sort(roots[1:])
	return roots, nil
}

// compatRules pairs the earlier version loaded from spec with the rules of
// its conversion to cur's version (templates/a2acompat/v<major><minor>).
func compatRules(spec Spec, old, cur *ir.Package, oldImport string) (golang.Compat, error) {
	dir := "a2acompat/v" + strings.ReplaceAll(old.Sources[0].Version, ".", "")
	if _, err := fs.Stat(templates.A2ACompat, dir); err != nil {
		return golang.Compat{}, fmt.Errorf("%s: no conversion rules for A2A %s ⇄ %s (templates/%s)", spec.File, old.Sources[0].Version, cur.Sources[0].Version, dir)
	}
	return golang.Compat{Old: old, OldImport: oldImport, Rules: templates.A2ACompat, Dir: dir}, nil
}

// protoOnlyCompat is an earlier version given by its proto alone, old,
// served beside cur: one of cur's major version, whose JSON-RPC wire is the
// ProtoJSON of its proto, as cur's is. Its rules (templates/a2acompat/
// v<major><minor>) are used when there are any; where the generated
// conversions cannot pair two fields, the generation stops and names the
// rule to write there.
func protoOnlyCompat(old, cur *ir.Package, oldImport string) (golang.Compat, error) {
	v, curV := old.Sources[0].Version, cur.Sources[0].Version
	if major(v) != major(curV) {
		return golang.Compat{}, fmt.Errorf("%s defines A2A %s, whose JSON Schema (its JSON-RPC wire, unlike A2A %s's, is not its proto's ProtoJSON) is not given: give both files of that version", old.Sources[0].File, v, curV)
	}
	c := golang.Compat{Proto: &golang.CompatProto{Old: old, OldImport: oldImport, RPCs: diff.RPCPairs(old, cur)}}
	dir := "a2acompat/v" + strings.ReplaceAll(v, ".", "")
	if _, err := fs.Stat(templates.A2ACompat, dir); err == nil {
		c.Rules, c.Dir = templates.A2ACompat, dir
	}
	return c, nil
}

// compats pairs each earlier version loaded with its conversion to cur: a
// JSON Schema's with its rules and its proto, when that is given; then a
// proto given alone (protoOnlyCompat), by version. importOf names the Go
// import path of the package generated from an earlier version's spec.
func compats(schemas []compatSchema, protos map[string]*ir.Package, cur *ir.Package, importOf func(*ir.Package) string) ([]golang.Compat, error) {
	protos = maps.Clone(protos)
	var out []golang.Compat
	for _, cs := range schemas {
		c, err := compatRules(cs.spec, cs.pkg, cur, importOf(cs.pkg))
		if err != nil {
			return nil, err
		}
		if p := protos[cs.pkg.Sources[0].Version]; p != nil {
			delete(protos, cs.pkg.Sources[0].Version)
			c.Proto = &golang.CompatProto{Old: p, OldImport: importOf(p), RPCs: diff.RPCPairs(p, cur)}
		}
		out = append(out, c)
	}
	for _, v := range slices.Sorted(maps.Keys(protos)) {
		c, err := protoOnlyCompat(protos[v], cur, importOf(protos[v]))
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

// CompatLosses lists what the generated conversions between an earlier A2A
// version and the A2A package cur cannot carry: specs are that version's
// JSON Schema and, optionally, its proto.
func CompatLosses(specs []Spec, cur *ir.Package) ([]golang.CompatLoss, error) {
	if cur.Sources[0].Version == "" {
		if err := SetProtocolVersion(cur, ""); err != nil {
			return nil, err
		}
	}
	schemas, protos, err := loadCompat(specs, cur, cur.Sources[0].File)
	if err != nil {
		return nil, err
	}
	if len(schemas) != 1 && (len(schemas) != 0 || len(protos) != 1) {
		return nil, fmt.Errorf("want the JSON Schema of one earlier A2A version, or the proto of one of the same major version, found %d schemas", len(schemas))
	}
	cs, err := compats(schemas, protos, cur, func(p *ir.Package) string { return "compat/a2a/" + p.Name })
	if err != nil {
		return nil, err
	}
	return golang.CompatLosses(cur, cs[0])
}

// EmbeddedCompat returns the specs of the embedded earlier A2A version:
// its JSON Schema and its proto.
func EmbeddedCompat() ([]Spec, error) {
	in, err := Embedded()
	return in.A2ACompat, err
}
