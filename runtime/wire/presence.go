package wire

import "strconv"

// PresentOf returns the first of names that the object ahead has as a
// member, for a union whose types are told apart by a required member only
// one of them declares; the reader stays before the object. It records an
// error and returns "" when the object has none of them.
func (r *Reader) PresentOf(names ...string) string {
	if c := r.Peek(); c != '{' {
		if kindName(c) == "an invalid token" || c == 0 {
			r.syntax("expected an object, found " + kindName(c))
		} else {
			r.Fail("oneOf", "expected an object, found "+kindName(c))
		}
		return ""
	}
	saved, depth := r.pos, len(r.stack)
	defer func() {
		if r.err == nil {
			r.pos, r.stack = saved, r.stack[:depth]
		}
	}()
	r.pos++
	if !r.enter() {
		return ""
	}
	for r.NextField() {
		for _, n := range names {
			if string(r.Key()) == n {
				return n
			}
		}
		r.Skip()
	}
	if r.err == nil {
		msg := "has none of the members"
		for i, n := range names {
			if i > 0 {
				msg += ","
			}
			msg += " " + strconv.Quote(n)
		}
		r.FailWith("oneOf", msg+" that say which kind of value it is", ErrNoTag)
	}
	return ""
}
