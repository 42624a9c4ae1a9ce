package auth_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/agui-gen/agui-gen/runtime/a2arpc"
	"github.com/agui-gen/agui-gen/runtime/auth"
)

// FuzzParseBearer: a token ParseBearer returns is one non-empty token,
// and reads back the same from a header written in the plain form.
func FuzzParseBearer(f *testing.F) {
	for _, seed := range []string{"Bearer abc", "bearer  a.b.c", "Bearer a, Bearer b", "Bearer a\tb", "Basic x", "Bearer", " Bearer x ", "Bearer \x00"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, header string) {
		token, err := auth.ParseBearer(header)
		if err != nil {
			return
		}
		if token == "" || strings.ContainsFunc(token, func(r rune) bool { return r <= ' ' || r == 0x7f }) {
			t.Fatalf("ParseBearer(%q) = %q", header, token)
		}
		if again, err := auth.ParseBearer("Bearer " + token); err != nil || again != token {
			t.Fatalf("ParseBearer(%q) = %q, but of Bearer and that: %q %v", header, token, again, err)
		}
	})
}

// FuzzJWTVerify: no token made up by the fuzzer verifies with a key it
// does not hold, and none makes Verify panic.
func FuzzJWTVerify(f *testing.F) {
	s := newSigner(f, "k1")
	other := newSigner(f, "k1")
	f.Add(other.token(f, valid("mallory"), nil))
	f.Add("eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.")
	f.Add("a.b.c")
	f.Add("....")
	f.Add(`{"payload":"e30","signatures":[{"protected":"e30","signature":""}]}`)
	j := &auth.JWT{Keys: auth.StaticKeys(s.jwk)}
	f.Fuzz(func(t *testing.T, raw string) {
		if p, err := j.Verify(context.Background(), raw, "jwt"); err == nil {
			t.Fatalf("a token the key did not sign verified: %q as %v", raw, p)
		}
	})
}

// FuzzHTTP: whatever a request's Authorization and API key headers hold,
// the call passes only with the one key or the one token the verifiers
// know, sent once; every refusal is UNAUTHENTICATED.
func FuzzHTTP(f *testing.F) {
	f.Add("Bearer tok-1", "", "")
	f.Add("", "key-1", "")
	f.Add("Bearer tok-1", "key-1", "key-1")
	f.Add("bearer tok-1, Bearer x", "", "")
	f.Add("Bearer tok-1 tok-1", "nope", "")
	a, err := auth.New(schemes, []auth.Requirement{{"opaque": nil}, {"key": nil}}, auth.Verifiers{
		Token:  auth.StaticTokens(map[string]string{"tok-1": "alice"}),
		APIKey: auth.StaticTokens(map[string]string{"key-1": "bot"}),
	})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, authorization, key, key2 string) {
		r := httptest.NewRequest(http.MethodPost, "/", nil)
		if authorization != "" {
			r.Header["Authorization"] = []string{authorization}
		}
		var keys []string
		for _, k := range []string{key, key2} {
			if k != "" {
				keys = append(keys, k)
			}
		}
		if keys != nil {
			r.Header["X-Api-Key"] = keys
		}
		p, err := a.HTTP(r)
		words := strings.Fields(authorization)
		tokenOK := len(words) == 2 && strings.EqualFold(words[0], "bearer") && words[1] == "tok-1"
		keyOK := len(keys) == 1 && keys[0] == "key-1"
		switch {
		case err != nil:
			if p != nil || !errors.Is(err, a2arpc.ErrUnauthenticated) {
				t.Fatalf("refused with %v, principal %v", err, p)
			}
			if keyOK {
				t.Fatalf("the known key, once, refused: %v", err)
			}
		case p == nil:
			t.Fatal("an anonymous call passed")
		case p.(*auth.Principal).String() == "opaque:alice":
			if !tokenOK {
				t.Fatalf("passed as alice with Authorization %q", authorization)
			}
		case p.(*auth.Principal).String() == "key:bot":
			if !keyOK {
				t.Fatalf("passed as the bot with keys %q", keys)
			}
		default:
			t.Fatalf("passed as %v", p)
		}
	})
}
