package generate

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/agui-gen/agui-gen/generator/diff"
	"github.com/agui-gen/agui-gen/generator/emit/golang"
	"github.com/agui-gen/agui-gen/generator/ir"
	"github.com/agui-gen/agui-gen/generator/load/freeze"
	"github.com/agui-gen/agui-gen/generator/load/jsonschema"
	protoload "github.com/agui-gen/agui-gen/generator/load/proto"
)

// Side is one version of the specs, lowered to IR, for agui-gen diff. A
// side holds whichever protocols its files describe.
type Side struct {
	AGUI *ir.Package // the AG-UI schema alone
	// AGUIMeta is the AG-UI schema with META, when the side has META.
	AGUIMeta *ir.Package
	A2A      *ir.Package
	// AGUILedger numbers the AG-UI protobuf transport, when the side has
	// one: the embedded specs do, and so does a folder with a
	// proto-freeze*.txt.
	AGUILedger *freeze.Ledger
}

// LoadSide reads a side named by a spec file, a folder of spec files, or
// "embedded". A .proto file is A2A; a JSON Schema is the AG-UI schema, or
// META definitions when it extends another schema (x-agui-extends), which
// are then read over the embedded AG-UI schema when the side has none.
//
// A proto's imports resolve below importPaths (--proto-path), besides the
// built-in google/protobuf and google/api files.
func LoadSide(ctx context.Context, spec string, importPaths ...string) (*Side, error) {
	var files []Spec
	if spec == "embedded" {
		in, err := Embedded()
		if err != nil {
			return nil, err
		}
		files = []Spec{in.AGUISchema, in.Meta, in.A2AProto, in.AGUIProtoLedger}
	} else {
		info, err := os.Stat(spec)
		if err != nil {
			return nil, err
		}
		paths := []string{spec}
		if info.IsDir() {
			paths = nil
			for _, pattern := range []string{"*.json", "*.proto", "proto-freeze*.txt"} {
				m, _ := filepath.Glob(filepath.Join(spec, pattern))
				paths = append(paths, m...)
			}
		}
		for _, p := range paths {
			s, err := ReadSpec(p)
			if err != nil {
				return nil, err
			}
			files = append(files, s)
		}
	}
	var schema, meta, proto, ledger *Spec
	for i := range files {
		f := &files[i]
		switch {
		case strings.HasSuffix(f.File, ".txt"):
			if ledger != nil {
				return nil, fmt.Errorf("%s: two protobuf ledgers (%s, %s); name one file", spec, ledger.File, f.File)
			}
			ledger = f
		case strings.HasSuffix(f.File, ".proto"):
			if proto != nil {
				return nil, fmt.Errorf("%s: two protos (%s, %s); name one file", spec, proto.File, f.File)
			}
			proto = f
		case isExtension(f.Data):
			if meta != nil {
				return nil, fmt.Errorf("%s: two META definition files (%s, %s); name one file", spec, meta.File, f.File)
			}
			meta = f
		case isSchema(f.Data):
			if schema != nil {
				return nil, fmt.Errorf("%s: two AG-UI schemas (%s, %s); name one file", spec, schema.File, f.File)
			}
			schema = f
		}
	}
	side := &Side{}
	if schema == nil && meta != nil {
		in, err := Embedded()
		if err != nil {
			return nil, err
		}
		schema = &in.AGUISchema
	}
	if schema != nil {
		base := jsonschema.Document{File: schema.File, Data: schema.Data}
		pkg, err := jsonschema.Load("agui", base)
		if err != nil {
			return nil, err
		}
		side.AGUI = pkg
		if meta != nil {
			if side.AGUIMeta, err = jsonschema.Load("agui", base, jsonschema.Document{File: meta.File, Data: meta.Data}); err != nil {
				return nil, err
			}
		}
	}
	if proto != nil {
		pkg, err := protoload.Load(ctx, "a2a", proto.File, proto.Data, protoload.WithImportPaths(importPaths...))
		if err != nil {
			return nil, err
		}
		side.A2A = pkg
	}
	if ledger != nil {
		l, err := freeze.Parse(ledger.File, ledger.Data)
		if err != nil {
			return nil, err
		}
		side.AGUILedger = l
	}
	if side.AGUI == nil && side.A2A == nil {
		return nil, fmt.Errorf("%s: no AG-UI schema, META definitions or A2A proto found", spec)
	}
	return side, nil
}

// ReadLedger reads an AG-UI protobuf ledger file.
func ReadLedger(file string) (*freeze.Ledger, error) {
	spec, err := ReadSpec(file)
	if err != nil {
		return nil, err
	}
	return freeze.Parse(spec.File, spec.Data)
}

func topLevel(data []byte) map[string]json.RawMessage {
	var top map[string]json.RawMessage
	_ = json.Unmarshal(data, &top)
	return top
}

func isSchema(data []byte) bool { return topLevel(data)["$defs"] != nil }

// isExtension reports a schema that extends another (the META definitions).
func isExtension(data []byte) bool {
	top := topLevel(data)
	return top["$defs"] != nil && top[jsonschema.ExtendsKeyword] != nil
}

// Diff compares two sides protocol by protocol (AG-UI with META, A2A), IR to
// IR, and folds in the exported-API changes of the Go each side generates.
func Diff(from, to *Side) ([]*diff.Report, error) {
	var reports []*diff.Report
	// META is compared only when both sides have it, so a bare AG-UI schema
	// against the embedded set compares AG-UI with AG-UI.
	oldAGUI, newAGUI := from.AGUI, to.AGUI
	if from.AGUIMeta != nil && to.AGUIMeta != nil {
		oldAGUI, newAGUI = from.AGUIMeta, to.AGUIMeta
	}
	pairs := []struct {
		old, new *ir.Package
		emit     func(*ir.Package) ([]golang.File, error)
	}{
		{oldAGUI, newAGUI, func(p *ir.Package) ([]golang.File, error) {
			return golang.Package(p, golang.Options{PackageName: "agui", ImportPath: "agui"})
		}},
		{from.A2A, to.A2A, func(p *ir.Package) ([]golang.File, error) {
			return golang.ProtoPackage(p, golang.Options{PackageName: "a2a", ImportPath: "a2a"})
		}},
	}
	for _, pair := range pairs {
		if pair.old == nil || pair.new == nil {
			continue
		}
		r := diff.Compare(pair.old, pair.new)
		oldGo, err := pair.emit(pair.old)
		if err != nil {
			return nil, fmt.Errorf("generating Go for %s: %w", pair.old.Sources[0].File, err)
		}
		newGo, err := pair.emit(pair.new)
		if err != nil {
			return nil, fmt.Errorf("generating Go for %s: %w", pair.new.Sources[0].File, err)
		}
		api, err := diff.CompareGoAPI(pair.new.Name, goFiles(oldGo), goFiles(newGo))
		if err != nil {
			return nil, err
		}
		r.Changes = append(r.Changes, api...)
		if pair.new.Name == "agui" {
			numbers, err := ledgerChanges(from.AGUILedger, to.AGUILedger, newAGUI)
			if err != nil {
				return nil, err
			}
			r.Changes = append(r.Changes, numbers...)
		}
		reports = append(reports, r)
	}
	if len(reports) == 0 {
		return nil, fmt.Errorf("the two sides share no protocol to compare")
	}
	return reports, nil
}

// ledgerChanges compares the protobuf ledgers of two AG-UI sides, the new
// one as generate --extend-ledger would leave it for the new schema: what
// the schema adds shows with the number it would get.
func ledgerChanges(old, new *freeze.Ledger, schema *ir.Package) ([]diff.Change, error) {
	if old == nil || new == nil {
		return nil, nil
	}
	extended := new.Clone()
	extended.Extend = true
	if _, err := golang.Package(schema, golang.Options{PackageName: "agui", ImportPath: "agui", ProtoLedger: extended}); err != nil {
		return nil, fmt.Errorf("numbering %s's protobuf transport: %w", schema.Sources[0].File, err)
	}
	changes := diff.Ledgers(old, extended)
	unnumbered := extended.Added()
	for i, c := range changes {
		if _, found := slices.BinarySearch(unnumbered, c.Path); found {
			changes[i].Detail += "; not in " + new.File + " yet: agui-gen generate --extend-ledger writes it there"
		}
	}
	return changes, nil
}

func goFiles(fs []golang.File) []diff.GoFile {
	var out []diff.GoFile
	for _, f := range fs {
		out = append(out, diff.GoFile{Name: f.Name, Content: f.Content})
	}
	return out
}
