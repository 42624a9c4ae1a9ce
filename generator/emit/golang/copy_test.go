package golang

import (
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func rewritten(t *testing.T, rw importRewrite, src string) string {
	t.Helper()
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, "t.go", src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	file.Name = ast.NewIdent("out")
	rw.apply(file)
	var b strings.Builder
	if err := format.Node(&b, fset, file); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestImportRewriteJoinsPackage: a template copied into the package it was
// written against loses the import and the qualifier, and only those: a
// variable of the package's name, strings and comments stay as they are.
func TestImportRewriteJoinsPackage(t *testing.T) {
	src := `// Package tmpl is the template's, not the output's.
package tmpl

import (
	"strings"

	a2a "github.com/agui-gen/agui-gen/gen/a2a"
	"github.com/agui-gen/agui-gen/gen/a2a/a2av03"
)

// Card returns a2a.AgentCard's name.
func Card(c *a2a.AgentCard, old *a2av03.AgentCard) string {
	a2a := strings.ToUpper(c.Name) // a local a2a, not the package
	return a2a + "a2a.Name" + old.Name + a2a.String()
}

var _ a2a.ProtoValue = (*a2a.Task)(nil)
`
	want := `package out

import (
	"strings"

	"example.com/app/gen/a2a/a2av03"
)

// Card returns a2a.AgentCard's name.
func Card(c *AgentCard, old *a2av03.AgentCard) string {
	a2a := strings.ToUpper(c.Name) // a local a2a, not the package
	return a2a + "a2a.Name" + old.Name + a2a.String()
}

var _ ProtoValue = (*Task)(nil)
`
	rw := importRewrite{into: "github.com/agui-gen/agui-gen/gen/a2a", paths: map[string]string{
		"github.com/agui-gen/agui-gen/gen/a2a/a2av03": "example.com/app/gen/a2a/a2av03"}}
	if diff := cmp.Diff(want, rewritten(t, rw, src)); diff != "" {
		t.Errorf("rewritten (-want +got):\n%s", diff)
	}
}

// TestImportRewriteMovesByPrefix: a template of a package of its own keeps
// its package comment, and its imports of generated packages move to the
// output's by the longest prefix that ends at a path element.
func TestImportRewriteMovesByPrefix(t *testing.T) {
	src := `// Package tmpl stays documented.
package tmpl

import (
	"github.com/agui-gen/agui-gen/gen/a2a"
	"github.com/agui-gen/agui-gen/gen/a2a/a2atask"
	"github.com/agui-gen/agui-gen/gen/a2aextra"
	"github.com/agui-gen/agui-gen/runtime/wire"
)

var _ = a2a.Task{}
var _ = a2atask.Runtime{}
var _ = a2aextra.X
var _ = wire.Ptr
`
	got := rewritten(t, importRewrite{paths: map[string]string{"github.com/agui-gen/agui-gen/gen/a2a": "example.com/gen/a2a"}}, src)
	for _, want := range []string{
		"// Package tmpl stays documented.\npackage out\n",
		`"example.com/gen/a2a"`,
		`"example.com/gen/a2a/a2atask"`,
		`"github.com/agui-gen/agui-gen/gen/a2aextra"`, // another element, not below gen/a2a
		`"github.com/agui-gen/agui-gen/runtime/wire"`, // the runtime is imported, not copied
		"var _ = a2a.Task{}",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("rewritten file lacks %q:\n%s", want, got)
		}
	}
}
