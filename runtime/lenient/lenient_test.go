package lenient

import "testing"

func TestJSONCut(t *testing.T) {
	cases := []struct {
		doc, ptr, want string
		inArray, ok    bool
	}{
		{`{"a":1,"b":2,"c":3}`, "/a", `{"b":2,"c":3}`, false, true},
		{`{"a":1,"b":2,"c":3}`, "/b", `{"a":1,"c":3}`, false, true},
		{`{"a":1,"b":2,"c":3}`, "/c", `{"a":1,"b":2}`, false, true},
		{`{"a":1}`, "/a", `{}`, false, true},
		{`{ "a" : 1 , "b" : [ 1 , 2 ] }`, "/a", `{  "b" : [ 1 , 2 ] }`, false, true},
		{`{ "a" : 1 , "b" : [ 1 , 2 ] }`, "/b/0", `{ "a" : 1 , "b" : [  2 ] }`, true, true},
		{`{ "a" : 1 , "b" : [ 1 , 2 ] }`, "/b/1", `{ "a" : 1 , "b" : [ 1  ] }`, true, true},
		{`{"m":[{"c":[{"t":1},{"x":{"y":2}},{"t":3}]}]}`, "/m/0/c/1", `{"m":[{"c":[{"t":1},{"t":3}]}]}`, true, true},
		{`{"m":[{"c":[{"t":1},{"x":{"y":2}},{"t":3}]}]}`, "/m/0/c/1/x", `{"m":[{"c":[{"t":1},{},{"t":3}]}]}`, false, true},
		{`{"a/b":1,"c~d":2}`, "/a~1b", `{"c~d":2}`, false, true},
		{`{"a/b":1,"c~d":2}`, "/c~0d", `{"a/b":1}`, false, true},
		{`{"a":"x,}"}`, "/a", `{}`, false, true},
		{`{"a":1}`, "/b", "", false, false},
		{`{"a":[1]}`, "/a/1", "", false, false},
		{`{"a":1}`, "", "", false, false},
		{`[1,2]`, "/0", `[2]`, true, true},
	}
	for _, c := range cases {
		out, inArray, ok := jsonCut([]byte(c.doc), c.ptr)
		if ok != c.ok || inArray != c.inArray || string(out) != c.want {
			t.Errorf("jsonCut(%s, %q) = %s, %v, %v; want %s, %v, %v", c.doc, c.ptr, out, inArray, ok, c.want, c.inArray, c.ok)
		}
	}
}
