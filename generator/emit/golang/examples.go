package golang

import (
	"bytes"
	"errors"
	"fmt"
	"go/format"
	"go/parser"
	"go/token"
	"io/fs"
	"path"
	"strconv"
	"strings"

	"github.com/agui-gen/agui-gen/templates"
)

// ExampleFiles returns the godoc Example functions (templates/examples) of
// the packages among dirs (output directories, "agui", "a2a/a2atask") that
// have them, as <dir>/example_gen_test.go, their imports of the generated
// packages pointed at importPath, the output's root.
func ExampleFiles(dirs []string, importPath string) ([]File, error) {
	var out []File
	for _, dir := range dirs {
		src, err := fs.ReadFile(templates.Examples, path.Join("examples", dir, "example_test.go"))
		if errors.Is(err, fs.ErrNotExist) {
			continue // no examples for this package
		}
		if err != nil {
			return nil, err
		}
		content, err := rewriteExample(src, dir, importPath)
		if err != nil {
			return nil, err
		}
		out = append(out, File{Name: dir + "/example_gen_test.go", Content: content})
	}
	return out, nil
}

// rewriteExample points an example file's imports of the generated packages
// at importPath and heads it as generated.
func rewriteExample(src []byte, dir, importPath string) ([]byte, error) {
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, "examples/"+dir+"/example_test.go", src, parser.ParseComments)
	if err != nil {
		return nil, err
	}
	for _, imp := range file.Imports {
		p, _ := strconv.Unquote(imp.Path.Value)
		if rest, ok := strings.CutPrefix(p, templates.GenImportPath+"/"); ok {
			imp.Path.Value = strconv.Quote(joinPath(importPath, rest))
		}
	}
	var buf bytes.Buffer
	fmt.Fprintf(&buf, "// %s\n// Source: templates/examples/%s/example_test.go\n\n", Header, dir)
	if err := format.Node(&buf, fset, file); err != nil {
		return nil, fmt.Errorf("examples/%s: %w", dir, err)
	}
	return format.Source(buf.Bytes())
}

func joinPath(base, rest string) string {
	if base == "" {
		return rest
	}
	return strings.TrimSuffix(base, "/") + "/" + rest
}
