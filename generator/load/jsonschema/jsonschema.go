// Package jsonschema lowers JSON Schema documents into the IR: 2020-12 ones
// (the AG-UI schema and the META definitions that extend it) and draft-07
// ones with "definitions" (the A2A v0.3 JSON Schema), whose anyOf unions are
// read as oneOf: a value matches exactly one member there too.
//
// It reads the documents through libopenapi, by wrapping them, unchanged, as
// the component schemas of a synthetic OpenAPI 3.1 document. The wrapper is
// written on the first line of the first document, so line numbers that
// libopenapi reports are the documents' own.
package jsonschema

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/pb33f/libopenapi/datamodel"
	"github.com/pb33f/libopenapi/datamodel/high/base"
	"github.com/pb33f/libopenapi/datamodel/low"
	lowbase "github.com/pb33f/libopenapi/datamodel/low/base"
	v3low "github.com/pb33f/libopenapi/datamodel/low/v3"

	"github.com/agui-gen/agui-gen/generator/ir"
)

// Document is one schema file to load.
type Document struct {
	File string // base name, for messages and provenance
	Data []byte
	// ID names a document that has no $id of its own (the A2A v0.3 JSON
	// Schema has none); a document's own $id wins.
	ID string
	// Version is the protocol version of a document whose $id does not say
	// it.
	Version string
	// Roots, when set, limits the load to these definitions and those they
	// reference; the rest of the document is not read.
	Roots []string
}

// BaseKeyword is the root keyword by which an extension document names the
// $id of the base document it was written against. References to that $id
// are pointed at the base document actually loaded, so an extension keeps
// working when the base schema moves to a new version (and a new $id).
const BaseKeyword = "x-agui-base"

// ExtendsKeyword is the root keyword by which an extension document appends
// members to the base document's unions and values to its enums. Validators
// ignore it; the generator reads it.
const ExtendsKeyword = "x-agui-extends"

// Error is a problem in a schema, located by file, line and JSON pointer.
type Error struct {
	Pos ir.Pos
	Msg string
}

func (e *Error) Error() string { return e.Pos.String() + ": " + e.Msg }

// Load lowers base and then each extension into one package named name.
// Extensions may refer to the base document's definitions by its $id.
func Load(name string, base Document, extensions ...Document) (*ir.Package, error) {
	docs := append([]Document{base}, extensions...)
	l := &loader{pkg: &ir.Package{Name: name}, decls: map[string]ir.Decl{}, after: map[string][]ir.Decl{}}
	roots, err := l.open(docs)
	if err != nil {
		return nil, err
	}
	for i, root := range roots {
		if err := l.declare(root); err != nil {
			return nil, err
		}
		if i == 0 {
			l.pkg.Title, l.pkg.Doc = root.schema.Title, root.schema.Description
		}
	}
	for _, root := range roots {
		if err := l.define(root); err != nil {
			return nil, err
		}
	}
	for _, root := range roots[1:] {
		if err := l.extend(root); err != nil {
			return nil, err
		}
	}
	if err := l.resolveUnions(); err != nil {
		return nil, err
	}
	l.markNarrowed()
	return l.pkg, nil
}

// root is one opened document.
type root struct {
	doc        Document
	at         *positions // of the document as given
	schema     *base.Schema
	id         string
	defs       string // the keyword holding the definitions: "$defs", or draft-07's "definitions"
	lineOffset int    // lines of the wrapper before this document starts
	raw        map[string]json.RawMessage
}

type loader struct {
	pkg   *ir.Package
	decls map[string]ir.Decl
	// pending holds the definitions whose bodies define fills in, by name.
	pending []pendingDecl
	// unions are resolved after every struct is known.
	unions []pendingUnion
	// synthesized declarations are inserted after the declaration that needed them.
	after map[string][]ir.Decl
	cur   *root
}

type pendingDecl struct {
	root   *root
	name   string
	proxy  *base.SchemaProxy
	schema *base.Schema
}

type pendingUnion struct {
	union   *ir.Union
	members []string
	pos     ir.Pos
	// inline reports a union written at its use site, which resolveUnions
	// may replace by the one member that can hold every other.
	inline bool
}

func discardLogger() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

func (l *loader) open(docs []Document) ([]*root, error) {
	var env bytes.Buffer
	env.WriteString(`{"openapi":"3.1.0","info":{"title":"agui-gen","version":"0"},"paths":{},"components":{"schemas":{`)
	roots := make([]*root, len(docs))
	for i, d := range docs {
		var top map[string]json.RawMessage
		if err := json.Unmarshal(d.Data, &top); err != nil {
			return nil, syntaxError(d.File, d.Data, err)
		}
		orig := d.Data
		var id string
		if raw, ok := top["$id"]; ok {
			_ = json.Unmarshal(raw, &id)
		}
		if id == "" && d.ID != "" {
			// Local references resolve against the document's $id, so the
			// given one is written in, on the first line, where it moves no
			// line.
			id = d.ID
			open := bytes.IndexByte(d.Data, '{')
			d.Data = slices.Concat(d.Data[:open+1], fmt.Appendf(nil, "%q:%q,", "$id", id), d.Data[open+1:])
		}
		if id == "" {
			return nil, &Error{Pos: ir.Pos{File: d.File, Pointer: "#"}, Msg: "the document has no $id; every schema the generator reads must name itself"}
		}
		defs := "$defs"
		if _, ok := top["$defs"]; !ok {
			if _, ok := top["definitions"]; !ok {
				return nil, &Error{Pos: ir.Pos{File: d.File, Pointer: "#"}, Msg: "the document has no $defs (nor draft-07 definitions)"}
			}
			defs = "definitions"
			d.Data = draft07(d.Data)
		}
		if i > 0 {
			env.WriteString(",\n")
			d.Data = retarget(d.Data, top, roots[0].id)
		}
		roots[i] = &root{doc: d, at: newPositions(d.File, orig), id: id, defs: defs, lineOffset: bytes.Count(env.Bytes(), []byte("\n")), raw: top}
		fmt.Fprintf(&env, "%q:", fmt.Sprintf("doc%d", i))
		env.Write(d.Data)
		l.pkg.Sources = append(l.pkg.Sources, ir.Source{
			File: d.File, ID: id, Version: cmp.Or(versionOf(id), d.Version), SHA256: digest(d.Data),
		})
	}
	env.WriteString("}}}")
	// A reference to a file agui-gen was not given is said where it is,
	// before the library that resolves references reports it with none.
	ids := make([]string, len(roots))
	for i, r := range roots {
		ids[i] = r.id
	}
	for _, r := range roots {
		// As retargeted: an extension's references to the base it names
		// point at the base loaded. (Retargeting keeps every line.)
		if err := foreignRef(r.doc.File, r.doc.Data, ids); err != nil {
			return nil, err
		}
	}
	// The document is read and its references resolved by libopenapi's
	// low-level OpenAPI 3 model, and only the schemas are lifted to the
	// high-level one: what libopenapi.Document.BuildV3Model does, without
	// the packages of the whole high-level document, Swagger, Arazzo and
	// change reports, whose compilation was a fifth of a fresh build's.
	cfg := datamodel.NewDocumentConfiguration()
	cfg.Logger = discardLogger()
	info, err := datamodel.ExtractSpecInfoWithConfig(env.Bytes(), cfg)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", docs[0].File, err)
	}
	doc, err := v3low.CreateDocumentFromConfig(info, cfg)
	if err == nil && doc == nil {
		err = errors.New("no OpenAPI document was read")
	}
	if err != nil {
		return nil, fmt.Errorf("resolving %s: %w", fileList(docs), err)
	}
	// A hash cache of every schema built, which BuildV3Model clears too.
	defer lowbase.SchemaQuickHashMap.Clear()
	schemas := doc.Components.Value.Schemas.Value
	for i, r := range roots {
		name := fmt.Sprintf("doc%d", i)
		var proxy *base.SchemaProxy
		for p := schemas.First(); p != nil; p = p.Next() {
			if p.Key().Value == name {
				v := p.Value()
				proxy = base.NewSchemaProxy(&low.NodeReference[*lowbase.SchemaProxy]{Value: v.Value, ValueNode: v.ValueNode})
				break
			}
		}
		if proxy == nil {
			return nil, &Error{Pos: ir.Pos{File: r.doc.File, Pointer: "#"}, Msg: "the schema was not read"}
		}
		s, err := proxy.BuildSchema()
		if err != nil {
			return nil, &Error{Pos: ir.Pos{File: r.doc.File, Pointer: "#"}, Msg: err.Error()}
		}
		r.schema = s
	}
	return roots, nil
}

// retarget rewrites an extension's references to the base document it names
// (BaseKeyword) into references to the loaded base document's $id. The
// rewrite stays within each line, so line numbers still point at the file.
func retarget(data []byte, top map[string]json.RawMessage, baseID string) []byte {
	var named string
	if raw, ok := top[BaseKeyword]; !ok || json.Unmarshal(raw, &named) != nil || named == "" || named == baseID {
		return data
	}
	return bytes.ReplaceAll(data, []byte(`"`+named+`#`), []byte(`"`+baseID+`#`))
}

// draft07 renames a draft-07 document's top-level "definitions" to "$defs"
// and its references with it, in place, so that lines and every other byte
// stay where they were and positions still point into the file.
func draft07(data []byte) []byte {
	out := bytes.ReplaceAll(data, []byte(`"#/definitions/`), []byte(`"#/$defs/`))
	dec := json.NewDecoder(bytes.NewReader(out))
	depth := 0
	for {
		start := dec.InputOffset()
		tok, err := dec.Token()
		if err != nil {
			return out
		}
		switch tok {
		case json.Delim('{'), json.Delim('['):
			depth++
		case json.Delim('}'), json.Delim(']'):
			depth--
		}
		if depth == 1 && tok == "definitions" && dec.More() {
			// start is before any whitespace that precedes the key.
			i := bytes.Index(out[start:], []byte(`"definitions"`))
			key := int(start) + i
			return slices.Concat(out[:key], []byte(`"$defs"`), out[key+len(`"definitions"`):])
		}
		if depth == 1 && tok != nil {
			if _, isKey := tok.(string); isKey {
				var skip json.RawMessage
				if dec.Decode(&skip) != nil {
					return out
				}
			}
		}
	}
}

func fileList(docs []Document) string {
	var names []string
	for _, d := range docs {
		names = append(names, d.File)
	}
	return strings.Join(names, ", ")
}

func digest(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

var versionInID = regexp.MustCompile(`/(\d+\.\d+(?:\.\d+)?)/`)

// versionOf reads the protocol version from a schema $id such as
// https://ag-ui.com/spec/1.1/schema.json.
func versionOf(id string) string {
	if m := versionInID.FindStringSubmatch(id); m != nil {
		return m[1]
	}
	return ""
}

// pos locates a schema reached through proxy, whose pointer is ptr.
func (l *loader) pos(proxy *base.SchemaProxy, ptr string) ir.Pos {
	// The document's own bytes first: the library keeps no place for some
	// schemas (an unresolved reference's is the wrapper's start).
	if p := l.cur.at.pos(ptr); p.Line > 0 {
		return p
	}
	p := ir.Pos{File: l.cur.doc.File, Pointer: ptr}
	if proxy != nil && proxy.GoLow() != nil {
		if kn := proxy.GoLow().GetKeyNode(); kn != nil && kn.Line > 0 {
			p.Line, p.Col = kn.Line-l.cur.lineOffset, kn.Column
		} else if vn := proxy.GoLow().GetValueNode(); vn != nil && vn.Line > 0 {
			p.Line, p.Col = vn.Line-l.cur.lineOffset, vn.Column
		}
	}
	return p
}

func (l *loader) errorf(proxy *base.SchemaProxy, ptr, format string, args ...any) error {
	return &Error{Pos: l.pos(proxy, ptr), Msg: fmt.Sprintf(format, args...)}
}

// declare creates an empty declaration for every definition, so references
// resolve whatever their order.
func (l *loader) declare(r *root) error {
	l.cur = r
	wanted, err := reachable(r)
	if err != nil {
		return err
	}
	for name, proxy := range r.schema.Defs.FromOldest() {
		if wanted != nil && !wanted[name] {
			continue
		}
		ptr := "#/" + r.defs + "/" + name
		if _, dup := l.decls[name]; dup {
			return l.errorf(proxy, ptr, "definition %s is already defined by an earlier document", name)
		}
		s, err := proxy.BuildSchema()
		if err != nil {
			return l.errorf(proxy, ptr, "%v", err)
		}
		common := ir.Common{Name: name, Doc: s.Description, Deprecated: isTrue(s.Deprecated), Pos: l.pos(proxy, ptr)}
		var d ir.Decl
		switch {
		case len(s.OneOf) > 0 && allRefs(s.OneOf), len(s.AnyOf) > 0 && allRefs(s.AnyOf):
			d = &ir.Union{Common: common}
		case len(s.Enum) > 0:
			d = &ir.Enum{Common: common}
		case hasType(s, "object") && (orderedLen(s) > 0 || len(s.AllOf) > 0):
			d = &ir.Struct{Common: common, Closed: closed(s)}
		default:
			d = &ir.Alias{Common: common}
		}
		l.decls[name] = d
		l.pkg.Decls = append(l.pkg.Decls, d)
		l.pending = append(l.pending, pendingDecl{root: r, name: name, proxy: proxy, schema: s})
	}
	return nil
}

var localRef = regexp.MustCompile(`"\$ref"\s*:\s*"#/(?:\$defs|definitions)/([^"/]+)"`)

// reachable returns the definitions r.doc.Roots reach by local references,
// or nil to load every definition.
func reachable(r *root) (map[string]bool, error) {
	if len(r.doc.Roots) == 0 {
		return nil, nil
	}
	var defs map[string]json.RawMessage
	if err := json.Unmarshal(r.raw[r.defs], &defs); err != nil {
		return nil, &Error{Pos: ir.Pos{File: r.doc.File, Pointer: "#/" + r.defs}, Msg: err.Error()}
	}
	seen := map[string]bool{}
	queue := slices.Clone(r.doc.Roots)
	for len(queue) > 0 {
		name := queue[0]
		queue = queue[1:]
		if seen[name] {
			continue
		}
		body, ok := defs[name]
		if !ok {
			return nil, &Error{Pos: ir.Pos{File: r.doc.File, Pointer: "#/" + r.defs}, Msg: "no definition " + name + " to start from"}
		}
		seen[name] = true
		for _, m := range localRef.FindAllSubmatch(body, -1) {
			queue = append(queue, string(m[1]))
		}
	}
	return seen, nil
}

func isTrue(b *bool) bool { return b != nil && *b }

func allRefs(ps []*base.SchemaProxy) bool {
	for _, p := range ps {
		if !p.IsReference() {
			return false
		}
	}
	return true
}

func hasType(s *base.Schema, t string) bool { return slices.Contains(s.Type, t) }

func orderedLen(s *base.Schema) int {
	if s.Properties == nil {
		return 0
	}
	return s.Properties.Len()
}

func closed(s *base.Schema) bool {
	u := s.UnevaluatedProperties
	if u != nil && u.IsB() && !u.B {
		return true
	}
	a := s.AdditionalProperties
	return a != nil && a.IsB() && !a.B
}

// define fills in every declaration of r.
func (l *loader) define(r *root) error {
	l.cur = r
	for _, p := range l.pending {
		if p.root != r {
			continue
		}
		ptr := "#/" + r.defs + "/" + p.name
		var err error
		switch d := l.decls[p.name].(type) {
		case *ir.Union:
			err = l.defineUnion(d, p.proxy, p.schema, ptr)
		case *ir.Enum:
			err = l.defineEnum(d, p.proxy, p.schema, ptr)
		case *ir.Struct:
			err = l.defineStruct(d, p.proxy, p.schema, ptr)
		case *ir.Alias:
			err = l.defineAlias(d, p.proxy, p.schema, ptr)
		}
		if err != nil {
			return err
		}
	}
	l.insertSynthesized()
	return nil
}

func (l *loader) insertSynthesized() {
	if len(l.after) == 0 {
		return
	}
	var out []ir.Decl
	for _, d := range l.pkg.Decls {
		out = append(out, d)
		out = append(out, l.after[d.DeclName()]...)
		delete(l.after, d.DeclName())
	}
	l.pkg.Decls = out
}

func (l *loader) defineUnion(u *ir.Union, proxy *base.SchemaProxy, s *base.Schema, ptr string) error {
	kw, members := unionKeyword(s)
	if err := l.rejectUnsupported(proxy, s, ptr, kw, "description", "$anchor"); err != nil {
		return err
	}
	pu := pendingUnion{union: u, pos: u.Pos}
	for i, m := range members {
		name, err := l.refName(m, fmt.Sprintf("%s/%s/%d", ptr, kw, i))
		if err != nil {
			return err
		}
		pu.members = append(pu.members, name)
	}
	l.unions = append(l.unions, pu)
	return nil
}

// unionKeyword returns the keyword that lists a union's members, and the
// members. Draft-07 schemas generated from TypeScript write a union as anyOf;
// the loader reads it as oneOf, and resolveUnions proves that exactly one
// member can match.
func unionKeyword(s *base.Schema) (string, []*base.SchemaProxy) {
	if len(s.AnyOf) > 0 {
		return "anyOf", s.AnyOf
	}
	return "oneOf", s.OneOf
}

func (l *loader) defineEnum(e *ir.Enum, proxy *base.SchemaProxy, s *base.Schema, ptr string) error {
	if err := l.rejectUnsupported(proxy, s, ptr, "enum", "type", "description", "$anchor"); err != nil {
		return err
	}
	if !slices.Equal(s.Type, []string{"string"}) {
		return l.errorf(proxy, ptr, "enum %s must have type string; only string enums are supported", e.Name)
	}
	for i, n := range s.Enum {
		var v string
		if err := n.Decode(&v); err != nil {
			return l.errorf(proxy, fmt.Sprintf("%s/enum/%d", ptr, i), "enum value is not a string")
		}
		e.Values = append(e.Values, &ir.EnumValue{Value: v, Pos: e.Pos})
	}
	return nil
}

func (l *loader) defineAlias(a *ir.Alias, proxy *base.SchemaProxy, s *base.Schema, ptr string) error {
	t, c, err := l.typeOf(proxy, s, ptr, a.Name, "")
	if err != nil {
		return err
	}
	a.Type, a.Constraints = t, c
	return nil
}

func (l *loader) defineStruct(st *ir.Struct, proxy *base.SchemaProxy, s *base.Schema, ptr string) error {
	if err := l.rejectUnsupported(proxy, s, ptr, "type", "properties", "required", "allOf",
		"unevaluatedProperties", "additionalProperties", "description", "$anchor", "title"); err != nil {
		return err
	}
	if a := s.AdditionalProperties; a != nil && !(a.IsB()) {
		return l.errorf(proxy, ptr+"/additionalProperties", "a schema-valued additionalProperties beside properties is not supported")
	}
	inherited := map[string]*ir.Field{}
	var selectors []selector
	for i, m := range s.AllOf {
		mptr := fmt.Sprintf("%s/allOf/%d", ptr, i)
		if !m.IsReference() {
			sel, err := l.selectorOf(m, mptr)
			if err != nil {
				return err
			}
			selectors = append(selectors, sel)
			continue
		}
		name, err := l.refName(m, mptr)
		if err != nil {
			return err
		}
		mixin, ok := l.decls[name].(*ir.Struct)
		if !ok {
			return l.errorf(m, mptr, "allOf member %s is not an object definition", name)
		}
		mixin.IsMixin = true
		st.Mixins = append(st.Mixins, mixin)
	}
	// Mixins are defined in document order before their users in every spec we
	// read; a forward mixin would be read with no fields, so refuse it.
	for _, m := range st.Mixins {
		if len(m.Fields) == 0 && len(m.Mixins) == 0 {
			return l.errorf(proxy, ptr+"/allOf", "mixin %s must be defined before %s", m.Name, st.Name)
		}
		for _, f := range m.AllFields() {
			inherited[f.Name] = f
		}
	}
	required := map[string]bool{}
	for _, r := range s.Required {
		required[r] = true
	}
	for name, fp := range s.Properties.FromOldest() {
		fptr := ptr + "/properties/" + escapePointer(name)
		f, err := l.field(fp, fptr, st.Name, name, required[name])
		if err != nil {
			return err
		}
		delete(required, name)
		if prev, ok := inherited[name]; ok {
			if f.Const == nil {
				return l.errorf(fp, fptr, "property %s restates mixin property %s.%s without narrowing it to a const; only const narrowing is supported", name, ownerOf(st, prev), name)
			}
			f.Overrides = prev
		}
		st.Fields = append(st.Fields, f)
	}
	for _, name := range s.Required { // in document order, so the error reported is always the same
		if !required[name] {
			continue
		}
		prev, ok := inherited[name]
		if !ok {
			return l.errorf(proxy, ptr+"/required", "required property %s is not declared", name)
		}
		if !prev.Required {
			return l.errorf(proxy, ptr+"/required", "%s makes optional mixin property %s required; not supported", st.Name, name)
		}
	}
	for _, sel := range selectors {
		if err := l.applySelector(st, sel); err != nil {
			return err
		}
	}
	return nil
}

func ownerOf(st *ir.Struct, f *ir.Field) string {
	for _, m := range st.Mixins {
		if slices.Contains(m.AllFields(), f) {
			return m.Name
		}
	}
	return st.Name
}

// selector is one "if tag = V then value is T" rule of an external union:
//
//	{"if": {"properties": {"metaType": {"const": "rating"}}, "required": ["metaType"]},
//	 "then": {"properties": {"payload": {"$ref": "#/$defs/RatingPayload"}}}}
type selector struct {
	tag, value, field, member string
	pos                       ir.Pos
}

func (l *loader) selectorOf(p *base.SchemaProxy, ptr string) (selector, error) {
	bad := func() (selector, error) {
		return selector{}, l.errorf(p, ptr, "an inline allOf member must be an if/then rule selecting a property's definition by a sibling's const")
	}
	s, err := p.BuildSchema()
	if err != nil || s.If == nil || s.Then == nil || s.Else != nil {
		return bad()
	}
	ifs, err1 := s.If.BuildSchema()
	then, err2 := s.Then.BuildSchema()
	if err1 != nil || err2 != nil || orderedLen(ifs) != 1 || orderedLen(then) != 1 {
		return bad()
	}
	tag, tp := ifs.Properties.First().Key(), ifs.Properties.First().Value()
	ts, err := tp.BuildSchema()
	if err != nil || ts.Const == nil || !slices.Contains(ifs.Required, tag) {
		return bad()
	}
	field, fp := then.Properties.First().Key(), then.Properties.First().Value()
	if !fp.IsReference() {
		return bad()
	}
	member, err := l.refName(fp, ptr+"/then/properties/"+escapePointer(field))
	if err != nil {
		return selector{}, err
	}
	return selector{tag: tag, value: ts.Const.Value, field: field, member: member, pos: l.pos(p, ptr)}, nil
}

// applySelector turns the selected field into an external union: one union
// declaration per selected field, named by the field schema's title.
func (l *loader) applySelector(st *ir.Struct, sel selector) error {
	var tagField, valueField *ir.Field
	for _, f := range st.Fields {
		switch f.Name {
		case sel.tag:
			tagField = f
		case sel.field:
			valueField = f
		}
	}
	if tagField == nil || valueField == nil {
		return &Error{Pos: sel.pos, Msg: fmt.Sprintf("if/then rule names %s and %s, which %s does not declare", sel.tag, sel.field, st.Name)}
	}
	if tagField.Type.Kind != ir.KindString || !tagField.Required {
		return &Error{Pos: sel.pos, Msg: fmt.Sprintf("%s selects a definition, so it must be a required string", sel.tag)}
	}
	member, ok := l.decls[sel.member].(*ir.Struct)
	if !ok {
		return &Error{Pos: sel.pos, Msg: fmt.Sprintf("%s is not an object definition", sel.member)}
	}
	u, ok := valueField.Type.Decl.(*ir.Union)
	if valueField.Type.Kind != ir.KindNamed || !ok {
		if valueField.Type.Kind != ir.KindAny || valueField.Type.JSONType != "object" {
			return &Error{Pos: valueField.Pos, Msg: fmt.Sprintf("%s is selected by %s, so it must be an object", sel.field, sel.tag)}
		}
		name := valueField.Type.Name
		if name == "" {
			name = st.Name + naming(sel.field)
		}
		u = &ir.Union{Common: ir.Common{Name: name, Doc: valueField.Doc, Pos: valueField.Pos},
			Tag: sel.tag, External: true, Open: true}
		valueField.Type = ir.Named(u)
		tagField.TagOf = sel.field
		l.decls[name] = u
		l.after[st.Name] = append(l.after[st.Name], u)
	}
	for _, m := range u.Members {
		if m.Value == sel.value {
			return &Error{Pos: sel.pos, Msg: fmt.Sprintf("%s %q selects two definitions", sel.tag, sel.value)}
		}
	}
	u.Members = append(u.Members, &ir.UnionMember{Value: sel.value, Struct: member, Pos: sel.pos})
	return nil
}

// naming upper-cases the first letter of a spec name; full Go naming is the
// emitters' job, this only builds spec-level names for synthesized types.
func naming(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

func (l *loader) field(p *base.SchemaProxy, ptr, owner, name string, required bool) (*ir.Field, error) {
	s, err := p.BuildSchema()
	if err != nil {
		return nil, l.errorf(p, ptr, "%v", err)
	}
	f := &ir.Field{Name: name, Doc: s.Description, Required: required, Deprecated: isTrue(s.Deprecated), Pos: l.pos(p, ptr)}
	if s.Default != nil {
		var v any
		if err := s.Default.Decode(&v); err != nil {
			return nil, l.errorf(p, ptr+"/default", "default: %v", err)
		}
		b, _ := json.Marshal(v)
		f.Default = string(b)
	}
	if s.Const != nil && !p.IsReference() {
		if err := l.rejectUnsupported(p, s, ptr, "const", "type", "description"); err != nil {
			return nil, err
		}
		lit, err := literalOf(s.Const.Value, s.Const.Tag)
		if err != nil {
			return nil, l.errorf(p, ptr+"/const", "%v", err)
		}
		if len(s.Type) > 0 && !slices.Equal(s.Type, []string{jsonTypeOf(lit.Kind)}) {
			return nil, l.errorf(p, ptr+"/type", "type %v does not match const %s", s.Type, s.Const.Value)
		}
		f.Const = lit
		f.Type = ir.Type{Kind: lit.Kind}
		return f, nil
	}
	t, c, err := l.typeOf(p, s, ptr, owner, name)
	if err != nil {
		return nil, err
	}
	f.Type, f.Constraints = t, c
	return f, nil
}

func jsonTypeOf(k ir.Kind) string {
	switch k {
	case ir.KindInt:
		return "integer"
	case ir.KindBool:
		return "boolean"
	}
	return "string"
}

func literalOf(value, tag string) (*ir.Literal, error) {
	switch tag {
	case "!!str":
		return &ir.Literal{Kind: ir.KindString, String: value}, nil
	case "!!int":
		n, err := strconv.ParseInt(value, 10, 64)
		if err != nil {
			return nil, err
		}
		return &ir.Literal{Kind: ir.KindInt, Int: n}, nil
	case "!!bool":
		return &ir.Literal{Kind: ir.KindBool, Bool: value == "true"}, nil
	}
	return nil, fmt.Errorf("const %s is not a string, integer or boolean", value)
}

// typeOf lowers the schema at a use site (a property, an array's items, an
// alias definition) to a type reference and its constraints.
func (l *loader) typeOf(p *base.SchemaProxy, s *base.Schema, ptr, owner, name string) (ir.Type, ir.Constraints, error) {
	var c ir.Constraints
	notNull := false
	if s.Not != nil {
		ns, err := s.Not.BuildSchema()
		if err != nil || !slices.Equal(ns.Type, []string{"null"}) || ns.Not != nil || orderedLen(ns) > 0 {
			return ir.Type{}, c, l.errorf(p, ptr+"/not", "only not: {type: null} is supported")
		}
		notNull = true
	}
	if p.IsReference() {
		target, err := l.refName(p, ptr)
		if err != nil {
			return ir.Type{}, c, err
		}
		if err := l.rejectUnsupported(p, s, ptr, "$ref", "description", "default", "not"); err != nil && p.IsTransformedRefWithSiblings() {
			return ir.Type{}, c, err
		}
		t := ir.Named(l.decls[target])
		t.NotNull = notNull
		return t, c, nil
	}
	if err := l.rejectUnsupported(p, s, ptr, "type", "description", "default", "not", "items", "minItems", "maxItems",
		"minimum", "maximum", "minLength", "maxLength", "pattern", "contentEncoding", "contentMediaType",
		"additionalProperties", "oneOf", "anyOf", "enum", "$anchor", "title", "format"); err != nil {
		return ir.Type{}, c, err
	}
	c = ir.Constraints{Minimum: s.Minimum, Maximum: s.Maximum, MinItems: s.MinItems, MaxItems: s.MaxItems,
		MinLength: s.MinLength, MaxLength: s.MaxLength, Pattern: s.Pattern, Encoding: s.ContentEncoding}
	if c.Pattern != "" {
		if _, err := regexp.Compile(c.Pattern); err != nil {
			return ir.Type{}, c, l.errorf(p, ptr+"/pattern", "pattern is not a regular expression Go can run: %v", err)
		}
	}
	if kw, members := unionKeyword(s); len(members) > 0 && allRefs(members) {
		t, err := l.inlineUnion(p, members, ptr+"/"+kw, owner, name)
		t.NotNull = notNull
		return t, c, err
	}
	if len(s.AnyOf) > 0 {
		return ir.Type{}, c, l.errorf(p, ptr+"/anyOf", "an inline anyOf must list references to definitions")
	}
	if len(s.OneOf) > 0 {
		t, err := l.stringOrArray(p, s, ptr, name)
		t.NotNull = notNull
		return t, c, err
	}
	if len(s.Enum) > 0 {
		e := &ir.Enum{Common: ir.Common{Name: owner + naming(name), Doc: s.Description, Pos: l.pos(p, ptr)}}
		if err := l.defineEnum(e, p, s, ptr); err != nil {
			return ir.Type{}, c, err
		}
		if _, dup := l.decls[e.Name]; dup {
			return ir.Type{}, c, l.errorf(p, ptr, "inline enum would be named %s, which is taken", e.Name)
		}
		l.decls[e.Name] = e
		l.after[owner] = append(l.after[owner], e)
		return ir.Named(e), ir.Constraints{}, nil
	}
	if len(s.Type) > 1 {
		// A JSON-RPC id is ["string", "integer"] or with "null": any of a
		// few scalars, kept as the JSON text it was sent as.
		for _, k := range s.Type {
			if !slices.Contains([]string{"string", "integer", "number", "boolean", "null"}, k) {
				return ir.Type{}, c, l.errorf(p, ptr+"/type", "a list of types is supported for scalars only, not %s", k)
			}
		}
		return ir.Type{Kind: ir.KindAny, NotNull: !slices.Contains(s.Type, "null"), JSONType: "scalar"}, c, nil
	}
	kind := ""
	if len(s.Type) == 1 {
		kind = s.Type[0]
	}
	t := ir.Type{NotNull: notNull}
	switch kind {
	case "string":
		t.Kind = ir.KindString
	case "integer":
		t.Kind = ir.KindInt
	case "number":
		t.Kind = ir.KindFloat
	case "boolean":
		t.Kind = ir.KindBool
	case "array":
		if s.Items == nil || !s.Items.IsA() {
			return ir.Type{}, c, l.errorf(p, ptr, "an array must declare its items")
		}
		ip := s.Items.A
		is, err := ip.BuildSchema()
		if err != nil {
			return ir.Type{}, c, l.errorf(ip, ptr+"/items", "%v", err)
		}
		elem, ec, err := l.typeOf(ip, is, ptr+"/items", owner, name)
		if err != nil {
			return ir.Type{}, c, err
		}
		if !ec.IsZero() {
			return ir.Type{}, c, l.errorf(ip, ptr+"/items", "constraints on array items are not supported; name the item type")
		}
		t.Kind, t.Elem = ir.KindArray, &elem
	case "object":
		if orderedLen(s) > 0 || len(s.AllOf) > 0 {
			return ir.Type{}, c, l.errorf(p, ptr, "an inline object with properties is not supported; move it to $defs")
		}
		if a := s.AdditionalProperties; a != nil && a.IsA() && !isEmptySchema(a.A) {
			vs, err := a.A.BuildSchema()
			if err != nil {
				return ir.Type{}, c, l.errorf(a.A, ptr+"/additionalProperties", "%v", err)
			}
			elem, ec, err := l.typeOf(a.A, vs, ptr+"/additionalProperties", owner, name)
			if err != nil {
				return ir.Type{}, c, err
			}
			if !ec.IsZero() {
				return ir.Type{}, c, l.errorf(a.A, ptr+"/additionalProperties", "constraints on map values are not supported; name the value type")
			}
			t.Kind, t.Key, t.Elem = ir.KindMap, &ir.Type{Kind: ir.KindString}, &elem
			return t, c, nil
		}
		t.Kind, t.JSONType, t.Name = ir.KindAny, "object", s.Title
	case "":
		t.Kind = ir.KindAny
	case "null":
		// Only null (the result of a JSON-RPC method that returns
		// nothing): kept as the JSON text sent.
		t.Kind, t.JSONType = ir.KindAny, "null"
	default:
		return ir.Type{}, c, l.errorf(p, ptr+"/type", "type %s is not supported", kind)
	}
	return t, c, nil
}

// isEmptySchema reports a schema with no keyword ({}), which any value
// matches.
func isEmptySchema(p *base.SchemaProxy) bool {
	if p.IsReference() {
		return false
	}
	s, err := p.BuildSchema()
	if err != nil {
		return false
	}
	return len(s.Type) == 0 && orderedLen(s) == 0 && len(s.AllOf)+len(s.AnyOf)+len(s.OneOf) == 0 && s.Items == nil &&
		s.AdditionalProperties == nil && s.Const == nil && len(s.Enum) == 0 && s.Not == nil
}

// inlineUnion lowers an inline oneOf/anyOf of references to a union named
// for the property that holds it ("FilePart.file" is FilePartFile). How its
// members are told apart is settled by resolveUnions, once every struct is
// known.
func (l *loader) inlineUnion(p *base.SchemaProxy, members []*base.SchemaProxy, ptr, owner, name string) (ir.Type, error) {
	s, _ := p.BuildSchema()
	u := &ir.Union{Common: ir.Common{Name: owner + naming(name), Doc: s.Description, Pos: l.pos(p, ptr)}}
	if _, dup := l.decls[u.Name]; dup {
		return ir.Type{}, l.errorf(p, ptr, "inline union would be named %s, which is taken", u.Name)
	}
	pu := pendingUnion{union: u, pos: u.Pos, inline: true}
	for i, m := range members {
		ref, err := l.refName(m, fmt.Sprintf("%s/%d", ptr, i))
		if err != nil {
			return ir.Type{}, err
		}
		pu.members = append(pu.members, ref)
	}
	l.decls[u.Name] = u
	l.after[owner] = append(l.after[owner], u)
	l.unions = append(l.unions, pu)
	return ir.Named(u), nil
}

// stringOrArray lowers oneOf [{type: string}, {type: array, items: X}], the
// only anonymous union the schema uses.
func (l *loader) stringOrArray(p *base.SchemaProxy, s *base.Schema, ptr, name string) (ir.Type, error) {
	if len(s.OneOf) != 2 {
		return ir.Type{}, l.errorf(p, ptr+"/oneOf", "an inline oneOf must be exactly [string, array]")
	}
	a, err1 := s.OneOf[0].BuildSchema()
	b, err2 := s.OneOf[1].BuildSchema()
	if err1 != nil || err2 != nil || !slices.Equal(a.Type, []string{"string"}) || !slices.Equal(b.Type, []string{"array"}) ||
		b.Items == nil || !b.Items.IsA() {
		return ir.Type{}, l.errorf(p, ptr+"/oneOf", "an inline oneOf must be exactly [string, array]")
	}
	is, err := b.Items.A.BuildSchema()
	if err != nil {
		return ir.Type{}, l.errorf(p, ptr+"/oneOf/1/items", "%v", err)
	}
	elem, _, err := l.typeOf(b.Items.A, is, ptr+"/oneOf/1/items", "", name)
	if err != nil {
		return ir.Type{}, err
	}
	return ir.Type{Kind: ir.KindStringOrArray, Elem: &elem, Name: naming(name)}, nil
}

// refName returns the definition a $ref names. Local refs (#/$defs/X) and
// refs into another loaded document by its $id (https://…/schema.json#/$defs/X)
// are both accepted.
func (l *loader) refName(p *base.SchemaProxy, ptr string) (string, error) {
	ref := p.GetReference()
	i := strings.Index(ref, "#/$defs/")
	if i < 0 || strings.Contains(ref[i+len("#/$defs/"):], "/") {
		return "", l.errorf(p, ptr, "$ref %q does not name a definition (#/$defs/Name)", ref)
	}
	name := ref[i+len("#/$defs/"):]
	if _, ok := l.decls[name]; !ok {
		return "", l.errorf(p, ptr, "$ref %q names no definition", ref)
	}
	return name, nil
}

// rejectUnsupported fails on any keyword of s the generator does not model,
// so a spec change never silently loses a constraint.
func (l *loader) rejectUnsupported(p *base.SchemaProxy, s *base.Schema, ptr string, allowed ...string) error {
	present := map[string]bool{
		"type": len(s.Type) > 0, "allOf": len(s.AllOf) > 0, "oneOf": len(s.OneOf) > 0, "anyOf": len(s.AnyOf) > 0,
		"not": s.Not != nil, "properties": orderedLen(s) > 0, "required": len(s.Required) > 0,
		"enum": len(s.Enum) > 0, "const": s.Const != nil, "items": s.Items != nil, "prefixItems": len(s.PrefixItems) > 0,
		"contains": s.Contains != nil, "if": s.If != nil, "then": s.Then != nil, "else": s.Else != nil,
		"dependentSchemas": s.DependentSchemas != nil, "dependentRequired": s.DependentRequired != nil,
		"patternProperties": s.PatternProperties != nil, "propertyNames": s.PropertyNames != nil,
		"unevaluatedItems": s.UnevaluatedItems != nil, "unevaluatedProperties": s.UnevaluatedProperties != nil,
		"additionalProperties": s.AdditionalProperties != nil, "minimum": s.Minimum != nil, "maximum": s.Maximum != nil,
		"exclusiveMinimum": s.ExclusiveMinimum != nil, "exclusiveMaximum": s.ExclusiveMaximum != nil,
		"multipleOf": s.MultipleOf != nil, "minLength": s.MinLength != nil, "maxLength": s.MaxLength != nil,
		"pattern": s.Pattern != "", "minItems": s.MinItems != nil, "maxItems": s.MaxItems != nil,
		"uniqueItems": s.UniqueItems != nil, "minProperties": s.MinProperties != nil, "maxProperties": s.MaxProperties != nil,
		"$dynamicRef": s.DynamicRef != "", "contentSchema": s.ContentSchema != nil, "discriminator": s.Discriminator != nil,
	}
	for _, kw := range slices.Sorted(mapsKeys(present)) {
		if present[kw] && !slices.Contains(allowed, kw) {
			return l.errorf(p, ptr+"/"+kw, "keyword %s is not supported here", kw)
		}
	}
	return nil
}

func mapsKeys(m map[string]bool) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// extends is the shape of the ExtendsKeyword value.
type extends map[string]struct {
	Enum  []string `json:"enum"`
	OneOf []struct {
		Ref string `json:"$ref"`
	} `json:"oneOf"`
}

// extend applies an extension document's ExtendsKeyword.
func (l *loader) extend(r *root) error {
	l.cur = r
	raw, ok := r.raw[ExtendsKeyword]
	if !ok {
		return nil
	}
	var ext extends
	if err := json.Unmarshal(raw, &ext); err != nil {
		return &Error{Pos: ir.Pos{File: r.doc.File, Pointer: "#/" + ExtendsKeyword}, Msg: err.Error()}
	}
	for _, target := range slices.Sorted(func(yield func(string) bool) {
		for k := range ext {
			if !yield(k) {
				return
			}
		}
	}) {
		e := ext[target]
		pos := ir.Pos{File: r.doc.File, Pointer: "#/" + ExtendsKeyword + "/" + escapePointer(target)}
		switch d := l.decls[target].(type) {
		case *ir.Enum:
			if len(e.OneOf) > 0 {
				return &Error{Pos: pos, Msg: target + " is an enum; extend it with enum"}
			}
			for _, v := range e.Enum {
				d.Values = append(d.Values, &ir.EnumValue{Value: v, Pos: pos})
			}
			d.Extended = append(d.Extended, r.doc.File)
		case *ir.Union:
			if len(e.Enum) > 0 {
				return &Error{Pos: pos, Msg: target + " is a union; extend it with oneOf"}
			}
			for i := range l.unions {
				if l.unions[i].union != d {
					continue
				}
				for _, m := range e.OneOf {
					name := m.Ref[strings.LastIndex(m.Ref, "/")+1:]
					if _, ok := l.decls[name]; !ok || !strings.Contains(m.Ref, "#/$defs/") {
						return &Error{Pos: pos, Msg: fmt.Sprintf("$ref %q names no definition", m.Ref)}
					}
					l.unions[i].members = append(l.unions[i].members, name)
				}
			}
		default:
			return &Error{Pos: pos, Msg: fmt.Sprintf("%s names no enum or union of the base schema", target)}
		}
	}
	return nil
}

// resolveUnions finds each union's tag: the one property every member
// narrows to a distinct required const.
func (l *loader) resolveUnions() error {
	for _, pu := range l.unions {
		u := pu.union
		var members []*ir.Struct
		for _, name := range pu.members {
			st, ok := l.decls[name].(*ir.Struct)
			if !ok {
				return &Error{Pos: pu.pos, Msg: fmt.Sprintf("oneOf member %s of %s is not an object definition", name, u.Name)}
			}
			members = append(members, st)
		}
		tag := ""
		for _, f := range members[0].AllFields() {
			if isTagIn(f.Name, members) {
				tag = f.Name
				break
			}
		}
		if tag == "" {
			if keys := presenceKeys(members); keys != nil {
				for i, st := range members {
					u.Members = append(u.Members, &ir.UnionMember{Value: keys[i], Struct: st, Pos: st.Pos})
				}
				continue
			}
			if all := subsuming(members); pu.inline && all != nil {
				l.replace(u, all)
				continue
			}
			return &Error{Pos: pu.pos, Msg: fmt.Sprintf("the members of %s share no property with a required, distinct const value to tell them apart, "+
				"nor does each have a required property of its own", u.Name)}
		}
		u.Tag = tag
		for _, st := range members {
			f := fieldNamed(st, tag)
			f.Discriminator = true
			u.Members = append(u.Members, &ir.UnionMember{Value: f.Const.String, Struct: st, Pos: st.Pos})
		}
		u.TagType = l.tagEnum(u, members[0])
	}
	return nil
}

// presenceKeys returns, for each member, a required property no other member
// declares, so the member present says which one a value is (FileWithBytes
// has "bytes", FileWithUri "uri"); nil when some member has none.
func presenceKeys(members []*ir.Struct) []string {
	var keys []string
	for _, st := range members {
		key := ""
		for _, f := range st.AllFields() {
			if !f.Required {
				continue
			}
			alone := true
			for _, other := range members {
				if other != st && fieldNamed(other, f.Name) != nil {
					alone = false
					break
				}
			}
			if alone {
				key = f.Name
				break
			}
		}
		if key == "" {
			return nil
		}
		keys = append(keys, key)
	}
	return keys
}

// subsuming returns the member that declares every property of the others,
// each with the same type and no stricter, so any value of the union is a
// value of it (TaskIdParams or GetTaskPushNotificationConfigParams is the
// latter); nil when there is none.
func subsuming(members []*ir.Struct) *ir.Struct {
	for _, cand := range members {
		ok := true
		for _, other := range members {
			for _, f := range other.AllFields() {
				g := fieldNamed(cand, f.Name)
				if g == nil || !sameType(f.Type, g.Type) || (g.Required && !f.Required) {
					ok = false
				}
			}
		}
		if ok {
			return cand
		}
	}
	return nil
}

func sameType(a, b ir.Type) bool {
	if a.Kind != b.Kind || a.Decl != b.Decl || a.JSONType != b.JSONType {
		return false
	}
	if a.Elem != nil || b.Elem != nil {
		return a.Elem != nil && b.Elem != nil && sameType(*a.Elem, *b.Elem)
	}
	return true
}

// replace points every use of the inline union u at st, and drops u.
func (l *loader) replace(u *ir.Union, st *ir.Struct) {
	var fix func(t *ir.Type)
	fix = func(t *ir.Type) {
		if t.Decl == u {
			t.Decl = st
		}
		if t.Elem != nil {
			fix(t.Elem)
		}
	}
	for _, d := range l.pkg.Decls {
		if s, ok := d.(*ir.Struct); ok {
			for _, f := range s.Fields {
				fix(&f.Type)
			}
		}
	}
	l.pkg.Decls = slices.DeleteFunc(l.pkg.Decls, func(d ir.Decl) bool { return d == ir.Decl(u) })
	delete(l.decls, u.Name)
}

func isTagIn(name string, members []*ir.Struct) bool {
	seen := map[string]bool{}
	for _, st := range members {
		f := fieldNamed(st, name)
		if f == nil || f.Const == nil || f.Const.Kind != ir.KindString || !f.Required || seen[f.Const.String] {
			return false
		}
		seen[f.Const.String] = true
	}
	return true
}

func fieldNamed(st *ir.Struct, name string) *ir.Field {
	for _, f := range st.AllFields() {
		if f.Name == name {
			return f
		}
	}
	return nil
}

// tagEnum finds the enum that names a union's tag values: the type the
// members' mixin gives the tag, or else the one enum whose values are exactly
// the members' tag values.
func (l *loader) tagEnum(u *ir.Union, first *ir.Struct) *ir.Enum {
	if f := fieldNamed(first, u.Tag); f != nil && f.Overrides != nil && f.Overrides.Type.Kind == ir.KindNamed {
		if e, ok := f.Overrides.Type.Decl.(*ir.Enum); ok {
			return e
		}
	}
	var want []string
	for _, m := range u.Members {
		want = append(want, m.Value)
	}
	slices.Sort(want)
	var found *ir.Enum
	for _, d := range l.pkg.Decls {
		e, ok := d.(*ir.Enum)
		if !ok {
			continue
		}
		var got []string
		for _, v := range e.Values {
			got = append(got, v.Value)
		}
		slices.Sort(got)
		if slices.Equal(got, want) {
			if found != nil {
				return nil
			}
			found = e
		}
	}
	return found
}

// markNarrowed flags mixin fields that every composing struct narrows to a
// const, so the mixin's Go type leaves them out.
func (l *loader) markNarrowed() {
	users := map[*ir.Struct][]*ir.Struct{}
	for _, d := range l.pkg.Decls {
		if st, ok := d.(*ir.Struct); ok {
			for _, m := range st.Mixins {
				users[m] = append(users[m], st)
			}
		}
	}
	var narrowedIn func(f *ir.Field, st *ir.Struct) bool
	narrowedIn = func(f *ir.Field, st *ir.Struct) bool {
		for _, g := range st.Fields {
			if g.Overrides == f {
				return true
			}
		}
		if st.IsMixin && len(users[st]) > 0 {
			for _, u := range users[st] {
				if !narrowedIn(f, u) {
					return false
				}
			}
			return true
		}
		return false
	}
	for mixin, us := range users {
		for _, f := range mixin.Fields {
			all := true
			for _, u := range us {
				if !narrowedIn(f, u) {
					all = false
					break
				}
			}
			f.Narrowed = all
		}
	}
}

func escapePointer(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}
