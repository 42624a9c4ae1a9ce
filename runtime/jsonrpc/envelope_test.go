package jsonrpc

import (
	"encoding/json"
	"testing"
	"unicode/utf8"
)

// FuzzScan: whatever Scan takes is valid JSON whose
// members are the ones it returned, as encoding/json reads them.
func FuzzScan(f *testing.F) {
	for _, seed := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"parts":[{"text":"a\"b"}]}}}`,
		`{"id":"x","method":"GetTask","jsonrpc":"2.0"}`, `{"jsonrpc":"2.0","id":7,"result":{"task":{"id":"t"}}}`,
		`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"bad"}}`, `{"id":null}`, `{}`, `{"a":[1,-2.5e3,true,null,{}]}`,
		`{"method":"Get\u0054ask"}`, `{"a":01}`, `{"a":[1,]}`, `{"a":tru}`, `{"a":1} x`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if !utf8.Valid(data) {
			return // the handler refuses such a body before it parses it
		}
		env, ok := Scan(data)
		if !ok {
			return
		}
		if !json.Valid(data) {
			t.Fatalf("took invalid JSON %q", data)
		}
		var m map[string]json.RawMessage
		if err := json.Unmarshal(data, &m); err != nil {
			t.Fatalf("took %q: %v", data, err)
		}
		var wantMethod string
		if raw, ok := m["method"]; ok {
			if json.Unmarshal(raw, &wantMethod) != nil || wantMethod != string(env.Method) {
				t.Fatalf("method %q, encoding/json reads %s", env.Method, raw)
			}
		}
		_, wantID := m["id"]
		if env.HasID != wantID || string(env.ID) != string(m["id"]) || string(env.Params) != string(m["params"]) ||
			string(env.Version) != string(m["jsonrpc"]) || string(env.Result) != string(m["result"]) || string(env.Error) != string(m["error"]) {
			t.Fatalf("%q: members differ from encoding/json's", data)
		}
	})
}
