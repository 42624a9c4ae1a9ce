package generate

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/agui-gen/agui-gen/generator/ir"
	"github.com/agui-gen/agui-gen/generator/load/jsonschema"
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
