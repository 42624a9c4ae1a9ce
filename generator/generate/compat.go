package generate

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/agui-gen/agui-gen/generator/emit/golang"
	"github.com/agui-gen/agui-gen/generator/ir"
	"github.com/agui-gen/agui-gen/generator/load/jsonschema"
	"github.com/agui-gen/agui-gen/schemas"
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

// CompatLosses lists what the generated conversion between the earlier A2A
// version whose JSON Schema is spec and the A2A package cur cannot carry.
func CompatLosses(spec Spec, cur *ir.Package) ([]golang.CompatLoss, error) {
	old, err := LoadA2ACompat(spec)
	if err != nil {
		return nil, err
	}
	if cur.Sources[0].Version == "" {
		if err := SetProtocolVersion(cur, ""); err != nil {
			return nil, err
		}
	}
	c, err := compatRules(spec, old, cur, "compat/a2a/"+old.Name)
	if err != nil {
		return nil, err
	}
	return golang.CompatLosses(cur, c)
}

// EmbeddedCompat returns the embedded earlier A2A version's JSON Schema.
func EmbeddedCompat() (Spec, error) {
	b, err := fs.ReadFile(schemas.FS, schemas.A2AV03Schema)
	return Spec{File: path.Base(schemas.A2AV03Schema), Data: b}, err
}
