package examples_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestDocsGoBlocksAreExampleCode: every Go block of the README and of docs/ is a
// run of lines of code that compiles and runs in CI: an Example function
// of a generated package (templates/examples, written into every output as
// example_gen_test.go, run by go test there), a model adapter's Example or
// the downstream example's go:generate line. Indentation aside, the lines must be the same, in
// order, so the docs cannot drift from the code.
func TestDocsGoBlocksAreExampleCode(t *testing.T) {
	docs, err := filepath.Glob("../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	var sources []string
	err = filepath.WalkDir("../templates/examples", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, "_test.go") {
			return err
		}
		b, err := os.ReadFile(p)
		sources = append(sources, string(b))
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	gen, err := os.ReadFile("downstream/gen.go")
	if err != nil {
		t.Fatal(err)
	}
	sources = append(sources, string(gen))
	for _, p := range adapterExamples {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		sources = append(sources, string(b))
	}
	count := 0
	for _, doc := range append([]string{"../README.md"}, docs...) {
		text, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range goBlock.FindAllSubmatchIndex(text, -1) {
			count++
			block := string(text[b[2]:b[3]])
			line := strings.Count(string(text[:b[0]]), "\n") + 1
			if !containsLines(sources, lines(block)) {
				t.Errorf("%s:%d: this Go block is not a run of lines of templates/examples or examples/downstream:\n%s",
					strings.TrimPrefix(doc, "../"), line, block)
			}
		}
	}
	if count < 10 {
		t.Fatalf("the README and docs/ have %d Go blocks; the pattern no longer finds them", count)
	}
}

// adapterExamples are the model adapters' Example programs, each shown
// whole in docs/agui.md.
var adapterExamples = []string{
	"../runtime/model/openai/example_test.go",
	"../runtime/model/anthropic/example_test.go",
	"../runtime/model/gemini/example_test.go",
}

// TestDocsShowTheAdapterExamples: docs/agui.md's guide to an agent on a
// model ends with each adapter's Example program, whole and as it is, so
// a reader can copy a program that go test runs.
func TestDocsShowTheAdapterExamples(t *testing.T) {
	doc, err := os.ReadFile("../docs/agui.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks := map[string]bool{}
	for _, b := range goBlock.FindAllSubmatch(doc, -1) {
		blocks[string(b[1])] = true
	}
	for _, p := range adapterExamples {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if !blocks[string(src)] {
			t.Errorf("docs/agui.md has no Go block equal to %s; copy the file into the guide's adapter section", strings.TrimPrefix(p, "../"))
		}
	}
}

var goBlock = regexp.MustCompile("(?s)```go\n(.*?)```(?:\n|$)")

// lines are s's lines without their indentation.
func lines(s string) []string {
	var out []string
	for _, l := range strings.Split(strings.TrimRight(s, "\n"), "\n") {
		out = append(out, strings.TrimSpace(l))
	}
	return out
}

// containsLines reports whether one of sources holds want as consecutive
// lines.
func containsLines(sources []string, want []string) bool {
	for _, src := range sources {
		have := lines(src)
		for i := 0; i+len(want) <= len(have); i++ {
			if slicesEqual(have[i:i+len(want)], want) {
				return true
			}
		}
	}
	return false
}

func slicesEqual(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestDocsFencesAreClosed: every code fence the README and docs/ open is
// closed, so that no page renders its last sections as code.
func TestDocsFencesAreClosed(t *testing.T) {
	docs, err := filepath.Glob("../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, doc := range append([]string{"../README.md"}, docs...) {
		text, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		open := 0 // the line of the fence that is open, or 0
		for i, line := range strings.Split(string(text), "\n") {
			trimmed := strings.TrimSpace(line)
			if !strings.HasPrefix(trimmed, "```") {
				continue
			}
			switch {
			case open == 0:
				open = i + 1
			case trimmed == "```":
				open = 0
			default:
				t.Errorf("%s:%d: a fence opens (%s) inside the one opened at line %d", strings.TrimPrefix(doc, "../"), i+1, trimmed, open)
			}
		}
		if open != 0 {
			t.Errorf("%s:%d: this code fence is never closed", strings.TrimPrefix(doc, "../"), open)
		}
	}
}

// TestDocsResumingAgentIsThePages: the ResumingHttpAgent docs/agui.md shows
// (which interop/agui_resume_test.go runs, cutting its streams) is, byte for
// byte, the file the scaffold's chat page resumes its runs with.
func TestDocsResumingAgentIsThePages(t *testing.T) {
	doc, err := os.ReadFile("../docs/agui.md")
	if err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile("../templates/scaffold/web/resuming-agent.js")
	if err != nil {
		t.Fatal(err)
	}
	found := 0
	for _, m := range jsBlock.FindAllSubmatch(doc, -1) {
		if strings.Contains(string(m[1]), "export class ResumingHttpAgent") {
			found++
			if string(m[1]) != string(page) {
				t.Error("docs/agui.md's ResumingHttpAgent differs from templates/scaffold/web/resuming-agent.js: change both")
			}
		}
	}
	if found != 1 {
		t.Errorf("docs/agui.md has %d js blocks with the ResumingHttpAgent class, want 1", found)
	}
}

var jsBlock = regexp.MustCompile("(?s)```js\n(.*?)```")
