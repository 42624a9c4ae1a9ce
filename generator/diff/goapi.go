package diff

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"slices"
	"sort"
	"strings"
)

// GoFile is one generated Go file: its name and source.
type GoFile struct {
	Name    string
	Content []byte
}

// CompareGoAPI compares the exported API of two generated packages, the way
// apidiff does for a release: every exported type, field, method, function,
// constant and variable, by name and signature. A removed or changed
// identifier breaks callers; an added one does not.
func CompareGoAPI(pkg string, old, new []GoFile) ([]Change, error) {
	oa, err := exportedAPI(old)
	if err != nil {
		return nil, err
	}
	na, err := exportedAPI(new)
	if err != nil {
		return nil, err
	}
	var out []Change
	for _, k := range sortedKeys(oa) {
		nv, ok := na[k]
		switch {
		case !ok:
			out = append(out, Change{Kind: "removed", Element: "go identifier", Path: pkg + "." + k, Detail: oa[k], Breaking: breaks(GoAPI)})
		case nv != oa[k]:
			if added, ok := embedGuarded(oa[k], nv); ok {
				// Implementations embed the interface's Unimplemented type,
				// which answers the new methods: they keep compiling.
				out = append(out, Change{Kind: "changed", Element: "go identifier", Path: pkg + "." + k,
					Detail: "methods added, which implementations get from the Unimplemented type they embed: " + strings.Join(added, "; ")})
				continue
			}
			out = append(out, Change{Kind: "changed", Element: "go identifier", Path: pkg + "." + k,
				Detail: oa[k] + " → " + nv, Breaking: breaks(GoAPI)})
		}
	}
	for _, k := range sortedKeys(na) {
		if _, ok := oa[k]; !ok {
			out = append(out, Change{Kind: "added", Element: "go identifier", Path: pkg + "." + k, Detail: na[k]})
		}
	}
	return out, nil
}

// embedGuarded reports whether an interface changed from old to new only by
// gaining methods, while both require embedding (an unexported mustEmbed
// method, as generated servers have): then no implementation breaks. It
// returns the methods added.
func embedGuarded(old, new string) (added []string, ok bool) {
	methods := func(sig string) ([]string, bool) {
		body, found := strings.CutPrefix(sig, "interface{")
		if !found {
			return nil, false
		}
		return strings.Split(strings.TrimSuffix(body, "}"), "; "), true
	}
	om, ok1 := methods(old)
	nm, ok2 := methods(new)
	guarded := func(ms []string) bool {
		return slices.ContainsFunc(ms, func(m string) bool { return strings.HasPrefix(m, "mustEmbed") })
	}
	if !ok1 || !ok2 || !guarded(om) || !guarded(nm) {
		return nil, false
	}
	for _, m := range om {
		if !slices.Contains(nm, m) {
			return nil, false
		}
	}
	for _, m := range nm {
		if !slices.Contains(om, m) {
			added = append(added, m)
		}
	}
	return added, true
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// exportedAPI maps each exported identifier ("Task", "Task.ID",
// "(*Task).Validate", "NewMessage") to its declaration's signature.
func exportedAPI(files []GoFile) (map[string]string, error) {
	api := map[string]string{}
	fset := token.NewFileSet()
	render := func(n any) string {
		var b bytes.Buffer
		_ = printer.Fprint(&b, fset, n)
		return strings.Join(strings.Fields(b.String()), " ")
	}
	for _, f := range files {
		file, err := parser.ParseFile(fset, f.Name, f.Content, 0)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f.Name, err)
		}
		for _, d := range file.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if !d.Name.IsExported() {
					continue
				}
				name := d.Name.Name
				if d.Recv != nil {
					recv := render(d.Recv.List[0].Type)
					if !ast.IsExported(strings.TrimLeft(recv, "*")) {
						continue
					}
					name = "(" + recv + ")." + name
				}
				api[name] = "func" + strings.TrimPrefix(render(d.Type), "func")
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						if !s.Name.IsExported() {
							continue
						}
						switch t := s.Type.(type) {
						case *ast.StructType:
							api[s.Name.Name] = "struct"
							for _, fl := range t.Fields.List {
								typ := render(fl.Type)
								if len(fl.Names) == 0 {
									api[s.Name.Name+"."+strings.TrimLeft(typ, "*")] = "embedded " + typ
								}
								for _, n := range fl.Names {
									if n.IsExported() {
										api[s.Name.Name+"."+n.Name] = typ
									}
								}
							}
						case *ast.InterfaceType:
							var methods []string
							for _, m := range t.Methods.List {
								for _, n := range m.Names {
									methods = append(methods, n.Name+strings.TrimPrefix(render(m.Type), "func"))
								}
							}
							slices.Sort(methods)
							api[s.Name.Name] = "interface{" + strings.Join(methods, "; ") + "}"
						default:
							assign := ""
							if s.Assign.IsValid() {
								assign = "= "
							}
							api[s.Name.Name] = "type " + assign + render(s.Type)
						}
					case *ast.ValueSpec:
						for i, n := range s.Names {
							if !n.IsExported() {
								continue
							}
							v := d.Tok.String()
							if s.Type != nil {
								v += " " + render(s.Type)
							}
							if d.Tok == token.CONST && i < len(s.Values) {
								v += " = " + render(s.Values[i])
							}
							api[n.Name] = v
						}
					}
				}
			}
		}
	}
	return api, nil
}
