package httprule

import (
	"slices"
	"strings"
	"testing"
)

func TestParseRefusesBadTemplates(t *testing.T) {
	for _, src := range []string{
		"tasks", "/tasks/", "/tasks/{id", "/tasks/{=*}", "/tasks/**/x", "/tasks:", "/tasks:a/b",
		"/ta*sks", "/tasks//x", "/tasks/{id}x",
	} {
		if _, err := Parse(src); err == nil {
			t.Errorf("Parse(%q) took it", src)
		}
	}
}

func TestMatch(t *testing.T) {
	cases := []struct {
		tmpl, path string
		want       map[string]string // nil: no match
	}{
		{"/tasks/{id}", "/tasks/t1", map[string]string{"id": "t1"}},
		{"/tasks/{id}", "/tasks/t%2F1", map[string]string{"id": "t/1"}}, // an escaped slash is data
		{"/tasks/{id}", "/tasks/t1/x", nil},
		{"/tasks/{id}", "/tasks/", nil},
		{"/tasks/{id=*}:cancel", "/tasks/t1:cancel", map[string]string{"id": "t1"}},
		{"/tasks/{id=*}:cancel", "/tasks/t1", nil},
		{"/tasks/{id=*}:cancel", "/tasks/t1%3Acancel", nil}, // an escaped colon is no verb
		{"/tasks/{id}", "/tasks/x%3Asubscribe", map[string]string{"id": "x:subscribe"}},
		{"/{name=tasks/*}", "/tasks/t1", map[string]string{"name": "tasks/t1"}},
		{"/{name=tasks/*}", "/other/t1", nil},
		{"/{name=tasks/*}", "/tasks/t%2F1", map[string]string{"name": "tasks/t%2F1"}}, // {+name}: %2F kept
		{"/files/{path=**}", "/files/a/b/c", map[string]string{"path": "a/b/c"}},
		{"/{tenant}/tasks", "/acme/tasks", map[string]string{"tenant": "acme"}},
		{"/tasks/{id}", "/tasks/%zz", nil}, // a bad escape matches nothing
	}
	for _, c := range cases {
		tmpl, err := Parse(c.tmpl)
		if err != nil {
			t.Fatalf("Parse(%q): %v", c.tmpl, err)
		}
		got, ok := tmpl.Match(SplitPath(c.path))
		if ok != (c.want != nil) || (ok && !equal(got, c.want)) {
			t.Errorf("%s on %s: %v, %v; want %v", c.tmpl, c.path, got, ok, c.want)
		}
	}
}

// TestSpecificity: of two templates that match a path, the one with a
// literal where the other has a variable, or with a verb, ranks higher.
func TestSpecificity(t *testing.T) {
	order := []string{"/{a}/{b}", "/{a}/b", "/a/{b}", "/a/{b}:verb"}
	for i := 1; i < len(order); i++ {
		lo, _ := Parse(order[i-1])
		hi, _ := Parse(order[i])
		if slices.Compare(hi.Specificity(), lo.Specificity()) <= 0 {
			t.Errorf("%s does not rank above %s", order[i], order[i-1])
		}
	}
}

func TestExpandEscapes(t *testing.T) {
	tmpl, _ := Parse("/{tenant}/tasks/{id=*}:cancel")
	fields := map[string]string{"tenant": "a b", "id": "x:y/z"}
	got, ok := tmpl.Expand(func(f string) (string, bool) { v, ok := fields[f]; return v, ok })
	if want := "/a%20b/tasks/x%3Ay%2Fz:cancel"; !ok || got != want {
		t.Errorf("Expand: %q, %v; want %q", got, ok, want)
	}
	vars, ok := tmpl.Match(SplitPath(got))
	if !ok || !equal(vars, fields) {
		t.Errorf("the expanded path matches back as %v, %v", vars, ok)
	}
	if _, ok := tmpl.Expand(func(f string) (string, bool) { return "", f == "tenant" }); ok {
		t.Error("Expand without an id took it")
	}
	if anon, _ := Parse("/tasks/*"); anon != nil {
		if got, ok := anon.Expand(func(string) (string, bool) { return "x", true }); ok {
			t.Errorf("Expand filled a wildcard no variable binds: %q", got)
		}
	}
	if !slices.Equal(tmpl.Fields(), []string{"tenant", "id"}) {
		t.Errorf("Fields: %q", tmpl.Fields())
	}
}

// FuzzMatch: no request path makes Match panic, and what a template
// expands to from the values it matched matches back to them.
func FuzzMatch(f *testing.F) {
	for _, seed := range [][2]string{
		{"/tasks/{id=*}:cancel", "/tasks/t1:cancel"}, {"/{name=tasks/*}", "/tasks/%2F"}, {"/files/{p=**}", "/files"},
		{"/a/{b}", "//"}, {"/{x}", "/%"},
	} {
		f.Add(seed[0], seed[1])
	}
	f.Fuzz(func(t *testing.T, src, path string) {
		tmpl, err := Parse(src)
		if err != nil {
			return
		}
		vars, ok := tmpl.Match(SplitPath(path))
		if !ok {
			return
		}
		for _, v := range vars {
			if v == "" || strings.Contains(v, "//") {
				return // Expand refuses an empty value; an empty segment is no path
			}
		}
		again, ok := tmpl.Expand(func(f string) (string, bool) { v, ok := vars[f]; return v, ok })
		if !ok {
			return // a wildcard that no variable binds cannot be filled in
		}
		back, ok := tmpl.Match(SplitPath(again))
		if !ok || !equal(back, vars) {
			t.Fatalf("%s: %s matched as %v, expanded to %s, which matches as %v", src, path, vars, again, back)
		}
	})
}

func equal(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}
