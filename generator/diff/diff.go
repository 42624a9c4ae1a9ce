// Package diff compares two versions of a protocol, IR to IR, and reports
// the changes in protocol terms — events, definitions, fields, enum values,
// union members, RPCs, HTTP bindings, field numbers — each classed as
// breaking or compatible for the JSON wire, the protobuf wire and the
// generated Go API.
package diff

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/agui-gen/agui-gen/generator/ir"
)

// Surface is one of the three things a change can break.
type Surface string

const (
	JSONWire  Surface = "json"
	ProtoWire Surface = "protobuf"
	GoAPI     Surface = "go"
)

// Surfaces lists them in report order.
var Surfaces = []Surface{JSONWire, ProtoWire, GoAPI}

// Change is one difference between the two versions.
type Change struct {
	// Kind is added, removed, changed or renamed.
	Kind string `json:"kind"`
	// Element says what changed: package, definition, event, field, enum
	// value, union member, rpc, http binding.
	Element string `json:"element"`
	// Path names it: "Task.context_id", "A2AService.SendMessage".
	Path string `json:"path"`
	// Detail says how, for a changed or renamed element.
	Detail string `json:"detail,omitempty"`
	// Breaking lists the surfaces the change breaks; the others it leaves
	// compatible.
	Breaking []Surface `json:"breaking,omitempty"`
	// From and To locate the element in the old and new spec.
	From string `json:"from,omitempty"`
	To   string `json:"to,omitempty"`
}

// IsBreaking reports whether the change breaks anything.
func (c Change) IsBreaking() bool { return len(c.Breaking) > 0 }

// Report is the comparison of two versions.
type Report struct {
	From    []ir.Source `json:"from"`
	To      []ir.Source `json:"to"`
	Changes []Change    `json:"changes"`
}

// Breaking counts the breaking changes per surface.
func (r *Report) Breaking() map[Surface]int {
	n := map[Surface]int{}
	for _, c := range r.Changes {
		for _, s := range c.Breaking {
			n[s]++
		}
	}
	return n
}

// HasBreaking reports whether any change breaks anything.
func (r *Report) HasBreaking() bool {
	for _, c := range r.Changes {
		if c.IsBreaking() {
			return true
		}
	}
	return false
}

type differ struct {
	old, new *ir.Package
	proto    bool // the packages come from protos: numbers and the package name matter
	out      []Change
	renamed  map[string]string // old definition name → new, for renames found
	rpcs     map[string]string // old RPC name → new, for those kept or renamed
}

func compare(old, new *ir.Package) *differ {
	d := &differ{old: old, new: new, proto: old.Proto != nil && new.Proto != nil, renamed: map[string]string{}, rpcs: map[string]string{}}
	d.packages()
	d.decls()
	return d
}

// Compare reports what changed from old to new.
func Compare(old, new *ir.Package) *Report {
	d := compare(old, new)
	slices.SortStableFunc(d.out, func(a, b Change) int {
		return cmp.Or(cmp.Compare(rank(a), rank(b)), strings.Compare(a.Path, b.Path), strings.Compare(a.Kind, b.Kind))
	})
	changes := d.out
	if changes == nil {
		changes = []Change{} // "changes": [] in JSON, not null
	}
	return &Report{From: old.Sources, To: new.Sources, Changes: changes}
}

// RPCPairs pairs the RPCs of old's service with new's by the rules the
// report names renames by: the RPC of the same name, or else the one added
// RPC with the same streaming and the same response type (or that type
// renamed). It maps old names to new ones; an RPC new has no counterpart
// for is absent.
func RPCPairs(old, new *ir.Package) map[string]string {
	return compare(old, new).rpcs
}

// rank orders a report: breaking first, then by element.
func rank(c Change) int {
	r := 10 * slices.Index([]string{"package", "rpc", "http binding", "event", "definition", "union member", "field", "field number", "enum value"}, c.Element)
	if !c.IsBreaking() {
		r += 1000
	}
	return r
}

func (d *differ) add(c Change) { d.out = append(d.out, c) }

func breaks(s ...Surface) []Surface { return s }

// wire is the surfaces a wire-level break touches: the JSON wire always,
// the protobuf wire for protos.
func (d *differ) wire() []Surface {
	if d.proto {
		return []Surface{JSONWire, ProtoWire}
	}
	return []Surface{JSONWire}
}

func (d *differ) all() []Surface { return append(d.wire(), GoAPI) }

func (d *differ) packages() {
	if d.proto && d.old.Proto.Package != d.new.Proto.Package {
		d.add(Change{Kind: "changed", Element: "package", Path: d.new.Proto.Package,
			Detail:   fmt.Sprintf("package %s → %s: every message's full name and every gRPC method path changes", d.old.Proto.Package, d.new.Proto.Package),
			Breaking: breaks(ProtoWire)})
	}
}

func declKind(d ir.Decl) string {
	switch d.(type) {
	case *ir.Service:
		return "rpc"
	}
	return "definition"
}

func (d *differ) decls() {
	oldByName, newByName := index(d.old.Decls), index(d.new.Decls)
	var removed, added []ir.Decl
	var matched [][2]ir.Decl
	for _, od := range d.old.Decls {
		nd, ok := newByName[od.DeclName()]
		if !ok {
			removed = append(removed, od)
			continue
		}
		matched = append(matched, [2]ir.Decl{od, nd})
	}
	// Matched definitions are compared after renames are known, so RPCs can
	// recognise renamed messages.
	defer func() {
		for _, pair := range matched {
			d.decl(pair[0], pair[1])
		}
	}()
	for _, nd := range d.new.Decls {
		if _, ok := oldByName[nd.DeclName()]; !ok {
			added = append(added, nd)
		}
	}
	// A removed and an added definition with the same shape are a rename.
	for _, od := range removed {
		if i := slices.IndexFunc(added, func(nd ir.Decl) bool { return sameShape(od, nd) }); i >= 0 {
			nd := added[i]
			added = slices.Delete(added, i, i+1)
			d.renamed[od.DeclName()] = nd.DeclName()
			d.add(Change{Kind: "renamed", Element: d.element(od), Path: nd.DeclName(),
				Detail:   fmt.Sprintf("%s → %s, same shape", od.DeclName(), nd.DeclName()),
				Breaking: d.renameBreaks(od), From: od.DeclPos().String(), To: nd.DeclPos().String()})
			matched = append(matched, [2]ir.Decl{od, nd})
			continue
		}
		if s, ok := od.(*ir.Service); ok {
			for _, m := range s.Methods {
				d.add(Change{Kind: "removed", Element: "rpc", Path: s.Name + "." + m.Name, Breaking: d.all(), From: m.Pos.String()})
			}
			continue
		}
		// A definition's name is on no wire: what breaks there is reported
		// on the fields, union members and RPCs that used it.
		d.add(Change{Kind: "removed", Element: d.element(od), Path: od.DeclName(), Breaking: breaks(GoAPI), From: od.DeclPos().String()})
	}
	for _, nd := range added {
		if s, ok := nd.(*ir.Service); ok {
			for _, m := range s.Methods {
				d.add(Change{Kind: "added", Element: "rpc", Path: s.Name + "." + m.Name, To: m.Pos.String()})
			}
			continue
		}
		d.add(Change{Kind: "added", Element: d.element(nd), Path: nd.DeclName(), To: nd.DeclPos().String()})
	}
}

// renameBreaks: a definition's name is on neither wire (a message's full
// name only matters inside google.protobuf.Any, which these specs do not
// use), but it is the Go type's name.
func (d *differ) renameBreaks(ir.Decl) []Surface { return breaks(GoAPI) }

func (d *differ) element(x ir.Decl) string {
	if st, ok := x.(*ir.Struct); ok && d.isEvent(st) {
		return "event"
	}
	return declKind(x)
}

// isEvent reports a member of the union named Event.
func (d *differ) isEvent(st *ir.Struct) bool {
	for _, p := range []*ir.Package{d.old, d.new} {
		if u, ok := p.Lookup("Event").(*ir.Union); ok {
			for _, m := range u.Members {
				if m.Struct.Name == st.Name {
					return true
				}
			}
		}
	}
	return false
}

func index(ds []ir.Decl) map[string]ir.Decl {
	m := map[string]ir.Decl{}
	for _, d := range ds {
		m[d.DeclName()] = d
	}
	return m
}

func (d *differ) decl(od, nd ir.Decl) {
	switch o := od.(type) {
	case *ir.Struct:
		if n, ok := nd.(*ir.Struct); ok {
			d.structs(o, n)
			return
		}
	case *ir.Enum:
		if n, ok := nd.(*ir.Enum); ok {
			d.enums(o, n)
			return
		}
	case *ir.Union:
		if n, ok := nd.(*ir.Union); ok {
			d.unions(o, n)
			return
		}
	case *ir.Alias:
		if n, ok := nd.(*ir.Alias); ok {
			if typeString(o.Type) != typeString(n.Type) {
				d.add(Change{Kind: "changed", Element: "definition", Path: n.Name,
					Detail: fmt.Sprintf("type %s → %s", typeString(o.Type), typeString(n.Type)), Breaking: d.all(), From: o.Pos.String(), To: n.Pos.String()})
			}
			d.constraints(n.Name, o.Constraints, n.Constraints, o.Pos, n.Pos)
			return
		}
	case *ir.Service:
		if n, ok := nd.(*ir.Service); ok {
			d.services(o, n)
			return
		}
	}
	d.add(Change{Kind: "changed", Element: "definition", Path: nd.DeclName(),
		Detail: fmt.Sprintf("kind %T → %T", od, nd), Breaking: d.all(), From: od.DeclPos().String(), To: nd.DeclPos().String()})
}

func (d *differ) structs(o, n *ir.Struct) {
	of, nf := o.AllFields(), n.AllFields()
	byName := func(fs []*ir.Field) map[string]*ir.Field {
		m := map[string]*ir.Field{}
		for _, f := range fs {
			m[f.Name] = f
		}
		return m
	}
	om, nm := byName(of), byName(nf)
	var removed, added []*ir.Field
	for _, f := range of {
		g, ok := nm[f.Name]
		if !ok {
			removed = append(removed, f)
			continue
		}
		d.field(n.Name, f, g)
	}
	for _, g := range nf {
		if _, ok := om[g.Name]; !ok {
			added = append(added, g)
		}
	}
	for _, f := range removed {
		// Same number and same type: the field was renamed.
		if i := slices.IndexFunc(added, func(g *ir.Field) bool {
			return d.proto && f.Number == g.Number && typeString(f.Type) == typeString(g.Type)
		}); i >= 0 {
			g := added[i]
			added = slices.Delete(added, i, i+1)
			d.add(Change{Kind: "renamed", Element: "field", Path: n.Name + "." + g.Name,
				Detail:   fmt.Sprintf("%s → %s (JSON %s → %s), same number %d and type", f.Name, g.Name, f.WireName(), g.WireName(), g.Number),
				Breaking: breaks(JSONWire, GoAPI), From: f.Pos.String(), To: g.Pos.String()})
			continue
		}
		d.add(Change{Kind: "removed", Element: "field", Path: n.Name + "." + f.Name, Breaking: d.all(), From: f.Pos.String()})
	}
	for _, g := range added {
		c := Change{Kind: "added", Element: "field", Path: n.Name + "." + g.Name, To: g.Pos.String()}
		if g.Required {
			c.Detail = "required"
			// Senders of the old version do not send it; receivers of the new
			// version reject them.
			c.Breaking = d.wire()
		}
		d.add(c)
	}
	if o.Closed != n.Closed && !d.proto {
		detail, br := "closed → open (undeclared members allowed)", []Surface(nil)
		if n.Closed {
			detail, br = "open → closed (undeclared members rejected)", breaks(JSONWire)
		}
		d.add(Change{Kind: "changed", Element: "definition", Path: n.Name, Detail: detail, Breaking: br, From: o.Pos.String(), To: n.Pos.String()})
	}
}

func (d *differ) field(owner string, f, g *ir.Field) {
	path := owner + "." + g.Name
	at := func(kind, detail string, br []Surface) {
		d.add(Change{Kind: kind, Element: "field", Path: path, Detail: detail, Breaking: br, From: f.Pos.String(), To: g.Pos.String()})
	}
	if ft, gt := typeString(f.Type), typeString(g.Type); ft != gt {
		at("changed", fmt.Sprintf("type %s → %s", ft, gt), d.all())
	}
	if f.WireName() != g.WireName() {
		at("changed", fmt.Sprintf("JSON name %s → %s", f.WireName(), g.WireName()), breaks(JSONWire))
	}
	if d.proto && f.Number != g.Number {
		d.add(Change{Kind: "changed", Element: "field number", Path: path, Detail: fmt.Sprintf("number %d → %d", f.Number, g.Number),
			Breaking: breaks(ProtoWire), From: f.Pos.String(), To: g.Pos.String()})
	}
	switch {
	case !f.Required && g.Required:
		at("changed", "optional → required", append(d.wire(), d.goIfPointerChanges(f, g)...))
	case f.Required && !g.Required:
		at("changed", "required → optional", d.goIfPointerChanges(f, g))
	}
	if f.Presence != g.Presence {
		at("changed", fmt.Sprintf("explicit presence %v → %v", f.Presence, g.Presence), breaks(GoAPI))
	}
	if (f.Const == nil) != (g.Const == nil) || (f.Const != nil && g.Const != nil && *f.Const != *g.Const) {
		at("changed", fmt.Sprintf("const %s → %s", constString(f.Const), constString(g.Const)), d.all())
	}
	if f.Default != g.Default {
		at("changed", fmt.Sprintf("default %s → %s", orNone(f.Default), orNone(g.Default)), breaks(JSONWire))
	}
	if f.Deprecated != g.Deprecated && g.Deprecated {
		at("changed", "deprecated", nil)
	}
	d.constraints(path, f.Constraints, g.Constraints, f.Pos, g.Pos)
}

// goIfPointerChanges: in a package from a JSON Schema, optionality decides
// whether a scalar is a pointer in Go, so flipping it breaks Go callers. (A
// proto's REQUIRED is validation only; presence decides pointers there.)
func (d *differ) goIfPointerChanges(f, g *ir.Field) []Surface {
	if d.proto {
		return nil
	}
	scalar := func(t ir.Type) bool {
		switch t.Kind {
		case ir.KindString, ir.KindInt, ir.KindFloat, ir.KindBool:
			return true
		}
		return false
	}
	if scalar(f.Type) && scalar(g.Type) && f.Presence == g.Presence {
		return breaks(GoAPI)
	}
	return nil
}

func (d *differ) constraints(path string, o, n ir.Constraints, op, np ir.Pos) {
	check := func(name string, ov, nv *float64, tighter func(o, n float64) bool) {
		if ov == nil && nv == nil || ov != nil && nv != nil && *ov == *nv {
			return
		}
		var br []Surface
		switch {
		case ov == nil:
			br = breaks(JSONWire) // a new bound rejects what was accepted
		case nv != nil && tighter(*ov, *nv):
			br = breaks(JSONWire)
		}
		d.add(Change{Kind: "changed", Element: "field", Path: path,
			Detail: fmt.Sprintf("%s %s → %s", name, num(ov), num(nv)), Breaking: br, From: op.String(), To: np.String()})
	}
	check("minimum", o.Minimum, n.Minimum, func(o, n float64) bool { return n > o })
	check("maximum", o.Maximum, n.Maximum, func(o, n float64) bool { return n < o })
	check("minItems", toF(o.MinItems), toF(n.MinItems), func(o, n float64) bool { return n > o })
	check("maxItems", toF(o.MaxItems), toF(n.MaxItems), func(o, n float64) bool { return n < o })
	if o.Pattern != n.Pattern {
		d.add(Change{Kind: "changed", Element: "field", Path: path, Detail: fmt.Sprintf("pattern %q → %q", o.Pattern, n.Pattern),
			Breaking: breaks(JSONWire), From: op.String(), To: np.String()})
	}
}

func toF(v *int64) *float64 {
	if v == nil {
		return nil
	}
	f := float64(*v)
	return &f
}

func num(v *float64) string {
	if v == nil {
		return "none"
	}
	return fmt.Sprint(*v)
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

func constString(l *ir.Literal) string {
	if l == nil {
		return "none"
	}
	switch l.Kind {
	case ir.KindInt:
		return fmt.Sprint(l.Int)
	case ir.KindBool:
		return fmt.Sprint(l.Bool)
	}
	return fmt.Sprintf("%q", l.String)
}

func (d *differ) enums(o, n *ir.Enum) {
	ov := map[string]*ir.EnumValue{}
	for _, v := range o.Values {
		ov[v.Value] = v
	}
	nv := map[string]*ir.EnumValue{}
	for _, v := range n.Values {
		nv[v.Value] = v
	}
	byNumber := func(vs []*ir.EnumValue, num int) *ir.EnumValue {
		for _, v := range vs {
			if v.Number == num {
				return v
			}
		}
		return nil
	}
	for _, v := range o.Values {
		w, ok := nv[v.Value]
		if !ok {
			if d.proto {
				if r := byNumber(n.Values, v.Number); r != nil && ov[r.Value] == nil {
					d.add(Change{Kind: "renamed", Element: "enum value", Path: n.Name + "." + r.Value,
						Detail: fmt.Sprintf("%s → %s, same number %d", v.Value, r.Value, v.Number), Breaking: breaks(JSONWire, GoAPI), From: v.Pos.String(), To: r.Pos.String()})
					continue
				}
			}
			d.add(Change{Kind: "removed", Element: "enum value", Path: n.Name + "." + v.Value, Breaking: d.all(), From: v.Pos.String()})
			continue
		}
		if d.proto && v.Number != w.Number {
			d.add(Change{Kind: "changed", Element: "enum value", Path: n.Name + "." + v.Value,
				Detail: fmt.Sprintf("number %d → %d", v.Number, w.Number), Breaking: breaks(ProtoWire), From: v.Pos.String(), To: w.Pos.String()})
		}
	}
	for _, w := range n.Values {
		if _, ok := ov[w.Value]; ok {
			continue
		}
		if d.proto {
			if r := byNumber(o.Values, w.Number); r != nil && nv[r.Value] == nil {
				continue // reported as a rename
			}
		}
		d.add(Change{Kind: "added", Element: "enum value", Path: n.Name + "." + w.Value, To: w.Pos.String()})
	}
}

func (d *differ) unions(o, n *ir.Union) {
	if o.Tag != n.Tag {
		d.add(Change{Kind: "changed", Element: "definition", Path: n.Name, Detail: fmt.Sprintf("told apart by %q → %q", o.Tag, n.Tag),
			Breaking: d.all(), From: o.Pos.String(), To: n.Pos.String()})
	}
	om := map[string]bool{}
	for _, m := range o.Members {
		om[m.Value] = true
	}
	nm := map[string]bool{}
	for _, m := range n.Members {
		nm[m.Value] = true
		if !om[m.Value] {
			// Receivers drop a value they do not know, so a new member is
			// compatible on the wire and additive in Go.
			d.add(Change{Kind: "added", Element: "union member", Path: n.Name + "." + m.Value, To: m.Pos.String()})
		}
	}
	for _, m := range o.Members {
		if !nm[m.Value] {
			d.add(Change{Kind: "removed", Element: "union member", Path: n.Name + "." + m.Value, Breaking: d.all(), From: m.Pos.String()})
		}
	}
}

func (d *differ) services(o, n *ir.Service) {
	om := map[string]*ir.Method{}
	for _, m := range o.Methods {
		om[m.Name] = m
	}
	nm := map[string]*ir.Method{}
	for _, m := range n.Methods {
		nm[m.Name] = m
	}
	var removed, added []*ir.Method
	for _, m := range o.Methods {
		if w, ok := nm[m.Name]; ok {
			d.rpcs[m.Name] = w.Name
			d.method(n.Name, m, w)
		} else {
			removed = append(removed, m)
		}
	}
	for _, w := range n.Methods {
		if _, ok := om[w.Name]; !ok {
			added = append(added, w)
		}
	}
	for _, m := range removed {
		// The one added RPC with the same streaming and the same response
		// type (or that type renamed) is the removed one renamed.
		same := func(w *ir.Method) bool {
			out := m.Output.Name
			if r, ok := d.renamed[out]; ok {
				out = r
			}
			return w.ClientStreaming == m.ClientStreaming && w.ServerStreaming == m.ServerStreaming && w.Output.Name == out
		}
		candidates := 0
		for _, w := range added {
			if same(w) {
				candidates++
			}
		}
		if i := slices.IndexFunc(added, same); i >= 0 && candidates == 1 {
			w := added[i]
			added = slices.Delete(added, i, i+1)
			d.rpcs[m.Name] = w.Name
			d.add(Change{Kind: "renamed", Element: "rpc", Path: n.Name + "." + w.Name, Detail: fmt.Sprintf("%s → %s", m.Name, w.Name),
				Breaking: d.all(), From: m.Pos.String(), To: w.Pos.String()})
			continue
		}
		d.add(Change{Kind: "removed", Element: "rpc", Path: n.Name + "." + m.Name, Breaking: d.all(), From: m.Pos.String()})
	}
	for _, w := range added {
		d.add(Change{Kind: "added", Element: "rpc", Path: n.Name + "." + w.Name, To: w.Pos.String()})
	}
}

func (d *differ) method(svc string, m, w *ir.Method) {
	path := svc + "." + w.Name
	at := func(el, detail string, br []Surface) {
		d.add(Change{Kind: "changed", Element: el, Path: path, Detail: detail, Breaking: br, From: m.Pos.String(), To: w.Pos.String()})
	}
	if m.Input.Name != w.Input.Name {
		at("rpc", fmt.Sprintf("request %s → %s", m.Input.Name, w.Input.Name), d.all())
	}
	if m.Output.Name != w.Output.Name {
		at("rpc", fmt.Sprintf("response %s → %s", m.Output.Name, w.Output.Name), d.all())
	}
	if m.ServerStreaming != w.ServerStreaming || m.ClientStreaming != w.ClientStreaming {
		at("rpc", fmt.Sprintf("streaming client=%v server=%v → client=%v server=%v", m.ClientStreaming, m.ServerStreaming, w.ClientStreaming, w.ServerStreaming), d.all())
	}
	oh, nh := httpRules(m.HTTP), httpRules(w.HTTP)
	for _, r := range oh {
		if !slices.Contains(nh, r) {
			at("http binding", "removed "+r, breaks(JSONWire))
		}
	}
	for _, r := range nh {
		if !slices.Contains(oh, r) {
			at("http binding", "added "+r, nil)
		}
	}
}

func httpRules(rs []ir.HTTPRule) []string {
	var out []string
	for _, r := range rs {
		s := r.Method + " " + r.Path
		if r.Body != "" {
			s += " body=" + r.Body
		}
		out = append(out, s)
	}
	return out
}

// typeString renders a type for comparison and messages, by declaration
// name so renamed-but-equal types compare by name.
func typeString(t ir.Type) string {
	switch t.Kind {
	case ir.KindString:
		return "string"
	case ir.KindInt:
		return cmp.Or(t.Scalar, "integer")
	case ir.KindFloat:
		return cmp.Or(t.Scalar, "number")
	case ir.KindBool:
		return "boolean"
	case ir.KindBytes:
		return "bytes"
	case ir.KindTimestamp:
		return "timestamp"
	case ir.KindAny:
		if t.Scalar != "" {
			return t.Scalar
		}
		if t.JSONType != "" {
			return "any " + t.JSONType
		}
		return "any"
	case ir.KindArray:
		return "[]" + typeString(*t.Elem)
	case ir.KindMap:
		return "map<" + typeString(*t.Key) + "," + typeString(*t.Elem) + ">"
	case ir.KindStringOrArray:
		return "string|[]" + typeString(*t.Elem)
	case ir.KindNamed:
		return t.Decl.DeclName()
	}
	return "?"
}

// sameShape reports two declarations with the same fields: same names,
// numbers and types (the evidence a rename needs).
func sameShape(a, b ir.Decl) bool {
	sa, ok1 := a.(*ir.Struct)
	sb, ok2 := b.(*ir.Struct)
	if !ok1 || !ok2 {
		ea, ok1 := a.(*ir.Enum)
		eb, ok2 := b.(*ir.Enum)
		if !ok1 || !ok2 || len(ea.Values) != len(eb.Values) {
			return false
		}
		for i := range ea.Values {
			if ea.Values[i].Value != eb.Values[i].Value || ea.Values[i].Number != eb.Values[i].Number {
				return false
			}
		}
		return true
	}
	fa, fb := sa.AllFields(), sb.AllFields()
	if len(fa) != len(fb) || len(fa) == 0 {
		return false
	}
	for i := range fa {
		if fa[i].Name != fb[i].Name || fa[i].Number != fb[i].Number || typeString(fa[i].Type) != typeString(fb[i].Type) {
			return false
		}
	}
	return true
}
