package golang

import (
	"fmt"
	"slices"
	"strings"

	"github.com/agui-gen/agui-gen/generator/ir"
	"github.com/agui-gen/agui-gen/generator/naming"
)

// runtimeNames are the exported identifiers the support code brings into
// every generated package; declarations may not take them.
var runtimeNames = []string{"Error", "Decoder", "Value", "Member", "ErrSyntax", "ErrNoTag", "MaxDepth"}

// names resolves every Go identifier of one generated package once, before
// any code is written.
type names struct {
	decl   map[ir.Decl]string
	field  map[*ir.Field]string
	choice map[string]*choiceType // string-or-array types by spec name
	// order lists the string-or-array types in first-use order.
	order []*choiceType
	other map[*ir.Union]string // fallback member of an open union
}

// choiceType is the Go struct for an inline "string or array" value.
type choiceType struct {
	Name      string // Go name
	Elem      ir.Type
	ListField string // Go name of the array branch
	Doc       string
}

func resolveNames(pkg *ir.Package, reserved ...string) (*names, error) {
	n := &names{decl: map[ir.Decl]string{}, field: map[*ir.Field]string{}, choice: map[string]*choiceType{}, other: map[*ir.Union]string{}}
	scope := naming.NewScope(append(reserved, runtimeNames...)...)
	for _, d := range pkg.Decls {
		goName := naming.Exported(d.DeclName())
		if scope.Taken(goName) {
			return nil, fmt.Errorf("%s: definition %s would be named %s in Go, which is taken", d.DeclPos(), d.DeclName(), goName)
		}
		n.decl[d] = scope.Claim(goName)
	}
	tagMethods := map[*ir.Struct][]string{}
	for _, d := range pkg.Decls {
		if u, ok := d.(*ir.Union); ok {
			for _, m := range u.Members {
				tagMethods[m.Struct] = append(tagMethods[m.Struct], naming.Exported(u.Tag))
			}
		}
	}
	for _, d := range pkg.Decls {
		switch d := d.(type) {
		case *ir.Struct:
			if err := n.structFields(d, scope, tagMethods[d]); err != nil {
				return nil, err
			}
		case *ir.Union:
			if d.Open {
				other, err := claim(scope, "Other"+n.decl[d], d.Pos, "the fallback member of "+d.Name)
				if err != nil {
					return nil, err
				}
				n.other[d] = other
			}
		case *ir.Alias:
			if err := n.useType(d.Type, scope, d.Name); err != nil {
				return nil, err
			}
		}
	}
	return n, nil
}

// claim takes name in scope, or fails when it is taken: a generated name
// that shifted to "Name2" would silently rename public API.
func claim(scope *naming.Scope, name string, pos ir.Pos, what string) (string, error) {
	if scope.Taken(name) {
		return "", fmt.Errorf("%s: %s would be named %s in Go, which is taken", pos, what, name)
	}
	return scope.Claim(name), nil
}

// generatedMethods are the methods every generated object type has; no
// field may take their names.
var generatedMethods = []string{"AppendJSON", "MarshalJSON", "UnmarshalJSON", "Validate"}

func (n *names) structFields(st *ir.Struct, scope *naming.Scope, tagMethods []string) error {
	fs := naming.NewScope(append(slices.Clone(generatedMethods), tagMethods...)...)
	if !st.Closed && !st.IsMixin {
		fs.Claim("Extra")
	}
	for _, m := range st.Mixins {
		fs.Claim(n.decl[m])
	}
	for _, f := range st.Fields {
		goName := naming.Exported(f.Name)
		if fs.Taken(goName) {
			if f.Overrides != nil || !stored(f) {
				continue
			}
			return fmt.Errorf("%s: field %s of %s would be named %s in Go, which is taken", f.Pos, f.Name, st.Name, goName)
		}
		n.field[f] = fs.Claim(goName)
		if err := n.useType(f.Type, scope, st.Name); err != nil {
			return err
		}
	}
	return nil
}

// useType registers the string-or-array types a type mentions.
func (n *names) useType(t ir.Type, scope *naming.Scope, owner string) error {
	switch t.Kind {
	case ir.KindArray, ir.KindMap:
		return n.useType(*t.Elem, scope, owner)
	case ir.KindStringOrArray:
		if c, ok := n.choice[t.Name]; ok {
			if !sameType(c.Elem, *t.Elem) {
				return fmt.Errorf("%s: two different string-or-array values are both named %s", owner, t.Name)
			}
			return nil
		}
		elemName := n.typeName(*t.Elem)
		ws := naming.Words(elemName)
		list := naming.Exported(ws[len(ws)-1]) + "s"
		name, err := claim(scope, naming.Exported(t.Name), ir.Pos{File: owner}, "the string-or-array type of "+owner+"."+t.Name)
		if err != nil {
			return err
		}
		c := &choiceType{Name: name, Elem: *t.Elem, ListField: list}
		n.choice[t.Name] = c
		n.order = append(n.order, c)
	}
	return nil
}

func sameType(a, b ir.Type) bool {
	if a.Kind != b.Kind || a.Decl != b.Decl || a.JSONType != b.JSONType || a.NotNull != b.NotNull {
		return false
	}
	if a.Elem == nil || b.Elem == nil {
		return a.Elem == b.Elem
	}
	return sameType(*a.Elem, *b.Elem)
}

// typeName is a readable name for a type, for messages and derived names.
func (n *names) typeName(t ir.Type) string {
	switch t.Kind {
	case ir.KindNamed:
		return n.decl[t.Decl]
	case ir.KindString:
		return "String"
	case ir.KindInt:
		return "Integer"
	case ir.KindFloat:
		return "Number"
	case ir.KindBool:
		return "Boolean"
	case ir.KindArray:
		return n.typeName(*t.Elem) + "List"
	}
	return "Value"
}

// stored reports whether a field has a Go struct field: consts that are
// always written, union tags and selector tags are implied by the type.
func stored(f *ir.Field) bool {
	if f.Discriminator || f.TagOf != "" || f.Narrowed {
		return false
	}
	return f.Const == nil || !f.Required
}

// access is the Go expression path from a struct value to one of its fields,
// through embedded mixins.
func (n *names) access(st *ir.Struct, f *ir.Field) (string, bool) {
	for _, own := range st.Fields {
		if own == f {
			return n.field[f], true
		}
	}
	for _, m := range st.Mixins {
		if p, ok := n.access(m, f); ok {
			return n.decl[m] + "." + p, true
		}
	}
	return "", false
}

// docLines turns a spec description into comment lines that start with the
// Go name, as godoc expects: "Opens a message." on TextMessageStartEvent
// becomes "TextMessageStartEvent opens a message.", and "When the event was
// created." on Timestamp becomes "Timestamp is when the event was created.".
func docLines(name, doc string) []string {
	doc = strings.TrimSpace(doc)
	if doc == "" {
		return nil
	}
	first := strings.ToLower(strings.Fields(doc)[0])
	first = strings.TrimRight(first, ".,;:")
	verb := strings.HasSuffix(first, "s") && !strings.HasSuffix(first, "ss") && !slices.Contains(nounsEndingInS, first)
	text := name + " is " + lowerFirst(doc)
	if verb {
		text = name + " " + lowerFirst(doc)
	}
	return wrap(text, 100)
}

// nounsEndingInS are first words of descriptions that are not verbs.
var nounsEndingInS = []string{"its", "this", "tools", "answers", "values", "extras", "details", "options", "parts", "settings", "ids", "is", "was", "has"}

// lowerFirst lower-cases a description's first letter unless the first word
// is an acronym or a name ("JSON", "RFC", "AG-UI").
func lowerFirst(s string) string {
	if strings.HasPrefix(s, "A ") {
		return "a" + s[1:]
	}
	if len(s) > 1 && s[0] >= 'A' && s[0] <= 'Z' && s[1] >= 'a' && s[1] <= 'z' {
		return strings.ToLower(s[:1]) + s[1:]
	}
	return s
}

func wrap(text string, width int) []string {
	var lines []string
	for _, para := range strings.Split(text, "\n") {
		words := strings.Fields(para)
		if len(words) == 0 {
			lines = append(lines, "")
			continue
		}
		line := words[0]
		for _, w := range words[1:] {
			if len(line)+1+len(w) > width {
				lines = append(lines, line)
				line = w
				continue
			}
			line += " " + w
		}
		lines = append(lines, line)
	}
	return lines
}
