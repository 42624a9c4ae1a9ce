package golang

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"io/fs"
	"path"
	"reflect"
	"slices"
	"strconv"
	"strings"
)

// importRewrite adapts a template, written against the generated packages
// of this repository (github.com/agui-gen/agui-gen/gen/...), to the output
// it is copied into. It works on the syntax tree, as protogen's
// ImportRewriteFunc does, so strings and comments are never touched.
type importRewrite struct {
	// into is the template's import path of the generated package the
	// files are copied into, or "" when they make a package of their own.
	// Its import goes, and so does the qualifier of every name it provided.
	into string
	// paths maps a template's import path, or a prefix of it that ends at
	// a path element, to the output's: "…/gen/a2a" to "example.com/app/gen/a2a"
	// also moves "…/gen/a2a/a2atask".
	paths map[string]string
}

// path is the output's import path for a template's import p.
func (rw importRewrite) path(p string) string {
	best := ""
	for from := range rw.paths {
		if (p == from || strings.HasPrefix(p, from+"/")) && len(from) > len(best) {
			best = from
		}
	}
	if best == "" {
		return p
	}
	return rw.paths[best] + p[len(best):]
}

// apply rewrites file in place.
func (rw importRewrite) apply(file *ast.File) {
	qualifier := ""
	for _, imp := range file.Imports {
		p, _ := strconv.Unquote(imp.Path.Value)
		if rw.into != "" && p == rw.into {
			qualifier = path.Base(p)
			if imp.Name != nil {
				qualifier = imp.Name.Name
			}
			continue
		}
		imp.Path.Value = strconv.Quote(rw.path(p))
	}
	if rw.into == "" {
		return
	}
	// The template's package comment is the template package's; the
	// package it joins has its own.
	if file.Doc != nil {
		file.Comments = slices.DeleteFunc(file.Comments, func(c *ast.CommentGroup) bool { return c == file.Doc })
		file.Doc = nil
	}
	isInto := func(spec ast.Spec) bool { return spec.(*ast.ImportSpec).Path.Value == strconv.Quote(rw.into) }
	file.Imports = slices.DeleteFunc(file.Imports, func(imp *ast.ImportSpec) bool { return isInto(imp) })
	file.Decls = slices.DeleteFunc(file.Decls, func(d ast.Decl) bool {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.IMPORT {
			return false
		}
		gd.Specs = slices.DeleteFunc(gd.Specs, isInto)
		return len(gd.Specs) == 0
	})
	if qualifier != "" {
		unqualify(reflect.ValueOf(file), qualifier)
	}
}

var (
	exprType   = reflect.TypeFor[ast.Expr]()
	objectType = reflect.TypeFor[*ast.Object]()
	scopeType  = reflect.TypeFor[*ast.Scope]()
)

// unqualify replaces, in the tree below v, every selector qualifier.X whose
// qualifier is an unresolved identifier (a package name, not a variable of
// that name) with X.
func unqualify(v reflect.Value, qualifier string) {
	switch v.Kind() {
	case reflect.Pointer:
		// The resolver's objects and scopes point back into the tree.
		if !v.IsNil() && v.Type() != objectType && v.Type() != scopeType {
			unqualify(v.Elem(), qualifier)
		}
	case reflect.Interface:
		if !v.IsNil() {
			unqualify(v.Elem(), qualifier)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			unqualifyAt(v.Field(i), qualifier)
		}
	case reflect.Slice:
		for i := range v.Len() {
			unqualifyAt(v.Index(i), qualifier)
		}
	}
}

// unqualifyAt is unqualify for a settable place of the tree, which a
// qualified selector there is replaced in.
func unqualifyAt(v reflect.Value, qualifier string) {
	if v.Type() == exprType && !v.IsNil() {
		if sel, ok := v.Interface().(*ast.SelectorExpr); ok {
			if id, ok := sel.X.(*ast.Ident); ok && id.Name == qualifier && id.Obj == nil {
				v.Set(reflect.ValueOf(sel.Sel))
				return
			}
		}
	}
	unqualify(v, qualifier)
}

// copyTemplates copies the non-test Go files of a templates directory that
// include admits into the output package, under the output's package name
// and with the generated-code header, adapted by rw; each file's name gets
// prefix.
func copyTemplates(fsys fs.FS, dir, pkgName, prefix string, include func(string) bool, rw importRewrite) ([]File, error) {
	entries, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return nil, err
	}
	var out []File
	for _, e := range entries {
		name := e.Name()
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") || !include(name) {
			continue
		}
		src, err := fs.ReadFile(fsys, path.Join(dir, name))
		if err != nil {
			return nil, err
		}
		fset := token.NewFileSet()
		file, err := parser.ParseFile(fset, name, src, parser.ParseComments)
		if err != nil {
			return nil, fmt.Errorf("templates/%s/%s: %w", dir, name, err)
		}
		file.Name = ast.NewIdent(pkgName)
		rw.apply(file)
		var buf bytes.Buffer
		fmt.Fprintf(&buf, "// %s\n// Source: templates/%s/%s\n\n", Header, dir, name)
		if err := format.Node(&buf, fset, file); err != nil {
			return nil, err
		}
		formatted, err := format.Source(buf.Bytes())
		if err != nil {
			return nil, fmt.Errorf("templates/%s/%s: %w", dir, name, err)
		}
		out = append(out, File{Name: prefix + strings.TrimSuffix(name, ".go") + "_gen.go", Content: formatted})
	}
	return out, nil
}
