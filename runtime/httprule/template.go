// Package httprule parses, matches and fills in the path templates of
// google.api.http rules, by which the HTTP+JSON binding routes a request to
// its RPC and a client builds the URL of a call. The generated service
// descriptors carry the rules (a2arpc.HTTPRule); the template syntax is
// the rule's:
//
//	Template = "/" Segments [ Verb ] ;
//	Segment  = "*" | "**" | LITERAL | Variable ;
//	Variable = "{" FieldPath [ "=" Segments ] "}" ;
//	Verb     = ":" LITERAL ;
package httprule

import (
	"fmt"
	"net/url"
	"strings"
)

// Template is a parsed path template.
type Template struct {
	segs   []segment
	vars   []variable
	fields []string
	verb   string
}

type segment struct {
	literal string // for a literal segment
	wild    bool   // "*": one segment
	deep    bool   // "**": the rest of the path
}

// variable binds the segments [start, end) to a field.
type variable struct {
	field      string
	start, end int
}

// Parse parses a path template, such as "/tasks/{id=*}:cancel".
func Parse(src string) (*Template, error) {
	t := &Template{}
	if !strings.HasPrefix(src, "/") {
		return nil, fmt.Errorf("path template %q does not start with /", src)
	}
	rest := src[1:]
	// The verb follows the last ':' that is outside braces.
	depth := 0
	for i := 0; i < len(rest); i++ {
		switch rest[i] {
		case '{':
			depth++
		case '}':
			depth--
		case ':':
			if depth == 0 {
				t.verb, rest = rest[i+1:], rest[:i]
				if t.verb == "" || strings.ContainsAny(t.verb, "/{}*:") {
					return nil, fmt.Errorf("path template %q: bad verb", src)
				}
			}
		}
	}
	for len(rest) > 0 {
		var tok string
		if rest[0] == '{' {
			end := strings.IndexByte(rest, '}')
			if end < 0 {
				return nil, fmt.Errorf("path template %q: unclosed variable", src)
			}
			tok, rest = rest[:end+1], rest[end+1:]
			field, pattern, hasPattern := strings.Cut(tok[1:len(tok)-1], "=")
			if field == "" {
				return nil, fmt.Errorf("path template %q: variable without a field", src)
			}
			if !hasPattern {
				pattern = "*"
			}
			v := variable{field: field, start: len(t.segs)}
			for _, p := range strings.Split(pattern, "/") {
				s, err := parseSeg(src, p)
				if err != nil {
					return nil, err
				}
				t.segs = append(t.segs, s)
			}
			v.end = len(t.segs)
			t.vars = append(t.vars, v)
			t.fields = append(t.fields, field)
		} else {
			end := strings.IndexByte(rest, '/')
			if end < 0 {
				end = len(rest)
			}
			s, err := parseSeg(src, rest[:end])
			if err != nil {
				return nil, err
			}
			t.segs = append(t.segs, s)
			rest = rest[end:]
		}
		if strings.HasPrefix(rest, "/") {
			rest = rest[1:]
			if rest == "" {
				return nil, fmt.Errorf("path template %q ends with /", src)
			}
		} else if rest != "" {
			return nil, fmt.Errorf("path template %q: unexpected %q", src, rest)
		}
	}
	for i, s := range t.segs {
		if s.deep && i != len(t.segs)-1 {
			return nil, fmt.Errorf("path template %q: ** must be the last segment", src)
		}
	}
	return t, nil
}

func parseSeg(src, p string) (segment, error) {
	switch {
	case p == "*":
		return segment{wild: true}, nil
	case p == "**":
		return segment{deep: true}, nil
	case p == "" || strings.ContainsAny(p, "{}*"):
		return segment{}, fmt.Errorf("path template %q: bad segment %q", src, p)
	}
	return segment{literal: p}, nil
}

// Path is a request's path split into raw (still escaped) segments, so
// that an escaped "/" or ":" stays data.
type Path []string

// SplitPath splits a request's escaped path (url.URL.EscapedPath).
func SplitPath(escaped string) Path {
	return strings.Split(strings.TrimPrefix(escaped, "/"), "/")
}

// Match matches a request path; it returns the variables' values,
// unescaped, by their field paths.
func (t *Template) Match(path Path) (map[string]string, bool) {
	segs := path
	if t.verb != "" {
		last := segs[len(segs)-1]
		base, ok := strings.CutSuffix(last, ":"+t.verb)
		if !ok {
			return nil, false
		}
		segs = append(append(Path{}, segs[:len(segs)-1]...), base)
	}
	n := len(t.segs)
	deep := n > 0 && t.segs[n-1].deep
	if len(segs) != n && !(deep && len(segs) >= n-1) {
		return nil, false
	}
	for i, s := range t.segs {
		if s.deep {
			break
		}
		if segs[i] == "" {
			return nil, false
		}
		if !s.wild {
			lit, err := url.PathUnescape(segs[i])
			if err != nil || lit != s.literal {
				return nil, false
			}
		}
	}
	vars := make(map[string]string, len(t.vars))
	for _, v := range t.vars {
		end := v.end
		if t.segs[end-1].deep {
			end = len(segs)
		}
		multi := v.end-v.start > 1 || t.segs[v.end-1].deep
		parts := make([]string, 0, end-v.start)
		for _, raw := range segs[v.start:end] {
			if multi {
				// A variable of several segments keeps an escaped slash
				// escaped, so that it stays apart from the slashes
				// between them, as google.api.http says ({+var}).
				raw = keepSlashes.Replace(raw)
			}
			p, err := url.PathUnescape(raw)
			if err != nil {
				return nil, false
			}
			parts = append(parts, p)
		}
		vars[v.field] = strings.Join(parts, "/")
	}
	return vars, true
}

// keepSlashes escapes the escaped slashes of a raw segment once more, so
// that unescaping it leaves them escaped.
var keepSlashes = strings.NewReplacer("%2F", "%252F", "%2f", "%252f")

// Specificity ranks templates that match the same path, compared with
// slices.Compare: a literal segment beats a variable one, earlier segments
// first, and a verb beats none.
func (t *Template) Specificity() []int {
	out := make([]int, 0, len(t.segs)+1)
	for _, s := range t.segs {
		switch {
		case s.literal != "":
			out = append(out, 2)
		case s.wild:
			out = append(out, 1)
		default:
			out = append(out, 0)
		}
	}
	if t.verb != "" {
		out = append(out, 1)
	}
	return out
}

// Expand fills the template's variables from values, escaping each
// segment, for a client building a URL. It reports false when a variable
// has no value, or a wildcard is bound to no variable.
func (t *Template) Expand(values func(field string) (string, bool)) (string, bool) {
	var b strings.Builder
	for i := 0; i < len(t.segs); {
		b.WriteByte('/')
		v := t.varAt(i)
		if v == nil {
			if t.segs[i].literal == "" {
				return "", false // a wildcard no variable binds: nothing to fill it with
			}
			b.WriteString(url.PathEscape(t.segs[i].literal))
			i++
			continue
		}
		val, ok := values(v.field)
		if !ok || val == "" {
			return "", false
		}
		if v.end-v.start > 1 || t.segs[v.end-1].deep {
			// A multi-segment variable keeps its slashes.
			parts := strings.Split(val, "/")
			for j, p := range parts {
				parts[j] = escapeSegment(p)
			}
			b.WriteString(strings.Join(parts, "/"))
		} else {
			b.WriteString(escapeSegment(val))
		}
		i = v.end
	}
	if t.verb != "" {
		b.WriteString(":" + t.verb)
	}
	return b.String(), true
}

// escapeSegment escapes a variable's value for a path segment: ':' too,
// which url.PathEscape keeps but which would start a verb ("x:subscribe").
func escapeSegment(v string) string {
	return strings.ReplaceAll(url.PathEscape(v), ":", "%3A")
}

// Fields are the field paths of the template's variables, in order. The
// caller must not change the slice.
func (t *Template) Fields() []string { return t.fields }

func (t *Template) varAt(seg int) *variable {
	for i := range t.vars {
		if t.vars[i].start == seg {
			return &t.vars[i]
		}
	}
	return nil
}
