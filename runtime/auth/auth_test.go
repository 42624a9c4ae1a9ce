package auth_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
	"google.golang.org/grpc/metadata"

	"github.com/agui-gen/agui-gen/runtime/a2arpc"
	"github.com/agui-gen/agui-gen/runtime/auth"
)

type signer struct {
	key *ecdsa.PrivateKey
	jwk jose.JSONWebKey
}

func newSigner(t testing.TB, kid string) signer {
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return signer{key: k, jwk: jose.JSONWebKey{Key: &k.PublicKey, KeyID: kid, Algorithm: "ES256", Use: "sig"}}
}

func (s signer) token(t testing.TB, claims jwt.Claims, extra map[string]any) string {
	sig, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.ES256, Key: s.key},
		(&jose.SignerOptions{}).WithType("JWT").WithHeader("kid", s.jwk.KeyID))
	if err != nil {
		t.Fatal(err)
	}
	tok, err := jwt.Signed(sig).Claims(claims).Claims(extra).Serialize()
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

func valid(sub string) jwt.Claims {
	now := time.Now()
	return jwt.Claims{Issuer: "https://auth.example", Audience: jwt.Audience{"agent"}, Subject: sub,
		Expiry: jwt.NewNumericDate(now.Add(time.Hour)), IssuedAt: jwt.NewNumericDate(now)}
}

// schemes: a JWT bearer scheme, an opaque bearer one, an API key in a
// header, an OAuth 2.0 scheme and mutual TLS.
var schemes = map[string]auth.Scheme{
	"jwt":    {Kind: auth.KindHTTP, HTTPScheme: "Bearer", BearerFormat: "JWT"},
	"opaque": {Kind: auth.KindHTTP, HTTPScheme: "bearer"},
	"key":    {Kind: auth.KindAPIKey, Location: "header", Name: "X-API-Key"},
	"oauth":  {Kind: auth.KindOAuth2},
	"mtls":   {Kind: auth.KindMutualTLS},
}

func request(header ...string) *http.Request {
	r := httptest.NewRequest(http.MethodPost, "/", nil)
	for i := 0; i+1 < len(header); i += 2 {
		r.Header.Add(header[i], header[i+1])
	}
	return r
}

func subject(t *testing.T, p any, err error) string {
	t.Helper()
	if err != nil {
		return ""
	}
	if p == nil {
		return "<anonymous>"
	}
	return p.(*auth.Principal).String()
}

// TestHTTP: each scheme over HTTP, and the hostile ways of presenting
// credentials: every refusal is UNAUTHENTICATED, never a principal.
func TestHTTP(t *testing.T) {
	s := newSigner(t, "k1")
	a, err := auth.New(schemes, []auth.Requirement{{"jwt": nil}, {"key": nil}, {"oauth": {"tasks.write"}}}, auth.Verifiers{
		APIKey: auth.StaticTokens(map[string]string{"key-123": "ci-bot", "key-456": "other-bot"}),
		JWT:    &auth.JWT{Issuer: "https://auth.example", Audience: "agent", Keys: auth.StaticKeys(s.jwk)},
	})
	if err != nil {
		t.Fatal(err)
	}
	alice := s.token(t, valid("alice"), nil)
	bob := s.token(t, valid("bob"), nil)
	expired := valid("alice")
	expired.Expiry = jwt.NewNumericDate(time.Now().Add(-time.Hour))
	wrongAudience := valid("alice")
	wrongAudience.Audience = jwt.Audience{"another-agent"}
	noSubject := valid("")
	stranger := newSigner(t, "k1")
	cases := []struct {
		name string
		req  *http.Request
		want string // the principal, or "" for UNAUTHENTICATED
	}{
		{"jwt", request("Authorization", "Bearer "+alice), "jwt:alice"},
		{"scheme in upper case", request("Authorization", "BEARER "+alice), "jwt:alice"},
		{"spaces around", request("Authorization", "  Bearer   "+alice+" "), "jwt:alice"},
		{"api key", request("X-API-Key", "key-123"), "key:ci-bot"},
		{"nothing", request(), ""},
		{"unknown key", request("X-API-Key", "nope"), ""},
		{"basic", request("Authorization", "Basic YWxpY2U6c2VjcmV0"), ""},
		{"bearer without token", request("Authorization", "Bearer "), ""},
		{"token without scheme", request("Authorization", alice), ""},
		{"expired", request("Authorization", "Bearer "+s.token(t, expired, nil)), ""},
		{"another audience", request("Authorization", "Bearer "+s.token(t, wrongAudience, nil)), ""},
		{"no subject", request("Authorization", "Bearer "+s.token(t, noSubject, nil)), ""},
		{"signed by a stranger", request("Authorization", "Bearer "+stranger.token(t, valid("alice"), nil)), ""},
		{"tampered claims", request("Authorization", "Bearer "+swapPayload(alice, bob)), ""},
		{"alg none", request("Authorization", "Bearer "+unsigned(t, valid("alice"))), ""},
		// Two credentials in one request where one is read: refused, not
		// the first taken, whatever a proxy before us checked.
		{"two Authorization headers", request("Authorization", "Bearer "+alice, "Authorization", "Bearer "+bob), ""},
		{"two Authorization headers, one garbage", request("Authorization", "Bearer "+alice, "Authorization", "Bearer x"), ""},
		{"two bearer credentials in one header", request("Authorization", "Bearer "+alice+", Bearer "+bob), ""},
		{"two tokens after Bearer", request("Authorization", "Bearer "+alice+" "+bob), ""},
		{"a tab in the token", request("Authorization", "Bearer "+alice+"\t"+bob), ""},
		{"two API key headers", request("X-API-Key", "key-123", "X-API-Key", "key-456"), ""},
		{"two API key headers, one unknown", request("X-API-Key", "nope", "X-API-Key", "key-123"), ""},
		// Alternatives: a bad JWT does not stop a good key from passing.
		{"bad JWT, good key", request("Authorization", "Bearer x", "X-API-Key", "key-123"), "key:ci-bot"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, err := a.HTTP(c.req)
			if got := subject(t, p, err); got != c.want {
				t.Fatalf("got %q (%v), want %q", got, err, c.want)
			}
			if c.want == "" && (!errors.Is(err, a2arpc.ErrUnauthenticated) || p != nil) {
				t.Fatalf("refused with %v (principal %v), want UNAUTHENTICATED", err, p)
			}
		})
	}
}

// swapPayload is token a with token b's claims: a signature over other
// claims.
func swapPayload(a, b string) string {
	pa, pb := strings.Split(a, "."), strings.Split(b, ".")
	return pa[0] + "." + pb[1] + "." + pa[2]
}

func unsigned(t *testing.T, claims jwt.Claims) string {
	s, _ := newSigner(t, "k1"), 0
	parts := strings.Split(s.token(t, claims, nil), ".")
	return "eyJhbGciOiJub25lIn0." + parts[1] + "."
}

// TestScopesAndConjunctions: scopes are checked per scheme; an
// alternative that lacks one is PERMISSION_DENIED unless another passes;
// an alternative of two schemes needs both, and its principal is the
// first by name.
func TestScopesAndConjunctions(t *testing.T) {
	s := newSigner(t, "k1")
	v := auth.Verifiers{APIKey: auth.StaticTokens(map[string]string{"k": "bot"}), JWT: &auth.JWT{Keys: auth.StaticKeys(s.jwk)}}
	a, err := auth.New(schemes, []auth.Requirement{{"oauth": {"tasks.write"}}}, v)
	if err != nil {
		t.Fatal(err)
	}
	reader := s.token(t, valid("carol"), map[string]any{"scp": []string{"tasks.read"}})
	writer := s.token(t, valid("dan"), map[string]any{"scope": "tasks.read tasks.write"})
	if _, err := a.HTTP(request("Authorization", "Bearer "+reader)); !errors.Is(err, a2arpc.ErrPermissionDenied) {
		t.Errorf("without the scope: %v", err)
	}
	if p, err := a.HTTP(request("Authorization", "Bearer "+writer)); subject(t, p, err) != "oauth:dan" {
		t.Errorf("with the scope: %v %v", p, err)
	}
	both, err := auth.New(schemes, []auth.Requirement{{"oauth": nil, "key": nil}}, v)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := both.HTTP(request("Authorization", "Bearer "+reader)); !errors.Is(err, a2arpc.ErrUnauthenticated) {
		t.Errorf("a token without the key: %v", err)
	}
	if p, err := both.HTTP(request("Authorization", "Bearer "+reader, "X-API-Key", "k")); subject(t, p, err) != "key:bot" {
		t.Errorf("a token and a key: %v %v", p, err)
	}
	open, err := auth.New(schemes, []auth.Requirement{{"key": nil}, {}}, v)
	if err != nil {
		t.Fatal(err)
	}
	if p, err := open.HTTP(request("X-API-Key", "nope")); p != nil || err != nil {
		t.Errorf("an empty alternative admits anyone: %v %v", p, err)
	}
	if p, err := open.HTTP(request("X-API-Key", "k")); subject(t, p, err) != "key:bot" {
		t.Errorf("an empty alternative after a passing one: %v %v", p, err)
	}
}

// TestVerifierContract: a principal-less answer of a verifier is a
// refusal, and the scheme of a verifier's principal is the scheme's name.
func TestVerifierContract(t *testing.T) {
	calls := 0
	a, err := auth.New(schemes, []auth.Requirement{{"opaque": nil}}, auth.Verifiers{
		Token: func(_ context.Context, token string) (*auth.Principal, error) {
			calls++
			if token == "ok" {
				return &auth.Principal{Subject: "eve", Scheme: "whatever"}, nil
			}
			return nil, nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	if p, err := a.HTTP(request("Authorization", "Bearer nil")); p != nil || !errors.Is(err, a2arpc.ErrUnauthenticated) {
		t.Errorf("a verifier that names no principal: %v %v", p, err)
	}
	if p, err := a.HTTP(request("Authorization", "Bearer ok")); subject(t, p, err) != "opaque:eve" {
		t.Errorf("got %v %v", p, err)
	}
	if calls != 2 {
		t.Errorf("the verifier was called %d times", calls)
	}
}

func TestNewRefuses(t *testing.T) {
	all := auth.Verifiers{Token: auth.StaticTokens(nil), APIKey: auth.StaticTokens(nil), JWT: &auth.JWT{Keys: auth.StaticKeys()}}
	for name, c := range map[string]struct {
		schemes map[string]auth.Scheme
		v       auth.Verifiers
		want    string
	}{
		"undefined scheme":    {map[string]auth.Scheme{}, all, "not defined"},
		"no kind":             {map[string]auth.Scheme{"s": {}}, all, "no kind"},
		"basic":               {map[string]auth.Scheme{"s": {Kind: auth.KindHTTP, HTTPScheme: "Basic"}}, all, "not supported"},
		"bearer, no verifier": {map[string]auth.Scheme{"s": {Kind: auth.KindHTTP, HTTPScheme: "Bearer"}}, auth.Verifiers{APIKey: all.APIKey}, "Token or JWT"},
		"key, no verifier":    {map[string]auth.Scheme{"s": {Kind: auth.KindAPIKey, Location: "header", Name: "K"}}, auth.Verifiers{Token: all.Token}, "APIKey"},
		"key, no location":    {map[string]auth.Scheme{"s": {Kind: auth.KindAPIKey, Location: "body", Name: "K"}}, all, "location"},
		"key, no name":        {map[string]auth.Scheme{"s": {Kind: auth.KindAPIKey, Location: "query"}}, all, "no name"},
		"OIDC, no verifier":   {map[string]auth.Scheme{"s": {Kind: auth.KindOpenIDConnect}}, auth.Verifiers{Token: all.Token}, "JWT"},
	} {
		_, err := auth.New(c.schemes, []auth.Requirement{{"s": nil}}, c.v)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error with %q", name, err, c.want)
		}
	}
	// A scheme no requirement names is not checked.
	if _, err := auth.New(map[string]auth.Scheme{"s": {}}, nil, auth.Verifiers{}); err != nil {
		t.Errorf("an unused scheme of no kind: %v", err)
	}
}

// TestAPIKeyLocations: query parameters and cookies, once each.
func TestAPIKeyLocations(t *testing.T) {
	v := auth.Verifiers{APIKey: auth.StaticTokens(map[string]string{"k9": "bot"})}
	for _, loc := range []string{"query", "Cookie"} {
		a, err := auth.New(map[string]auth.Scheme{"key": {Kind: auth.KindAPIKey, Location: loc, Name: "api_key"}}, []auth.Requirement{{"key": nil}}, v)
		if err != nil {
			t.Fatal(err)
		}
		once, twice := httptest.NewRequest(http.MethodPost, "/?api_key=k9", nil), httptest.NewRequest(http.MethodPost, "/?api_key=k9&api_key=x", nil)
		if loc == "Cookie" {
			once, twice = request("Cookie", "api_key=k9"), request("Cookie", "api_key=x; api_key=k9")
		}
		if p, err := a.HTTP(once); subject(t, p, err) != "key:bot" {
			t.Errorf("key in %s: %v %v", loc, p, err)
		}
		if p, err := a.HTTP(twice); p != nil || !errors.Is(err, a2arpc.ErrUnauthenticated) {
			t.Errorf("key twice in %s: %v %v", loc, p, err)
		}
	}
}

// TestGRPC: metadata keys are lower case; a key sent twice is refused.
func TestGRPC(t *testing.T) {
	a, err := auth.New(schemes, []auth.Requirement{{"key": nil}, {"opaque": nil}}, auth.Verifiers{
		APIKey: auth.StaticTokens(map[string]string{"k": "bot"}), Token: auth.StaticTokens(map[string]string{"t": "tom"})})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, c := range []struct {
		md   metadata.MD
		want string
	}{
		{metadata.Pairs("x-api-key", "k"), "key:bot"},
		{metadata.Pairs("authorization", "Bearer t"), "opaque:tom"},
		{metadata.Pairs(), ""},
		{metadata.Pairs("x-api-key", "k", "x-api-key", "k"), ""},
		{metadata.Pairs("authorization", "Bearer t", "authorization", "Bearer t"), ""},
	} {
		p, err := a.GRPC(ctx, c.md)
		if got := subject(t, p, err); got != c.want {
			t.Errorf("%v: got %q (%v), want %q", c.md, got, err, c.want)
		}
	}
}

// TestMutualTLS: the subject of a verified client certificate, from an
// HTTP request's TLS state or from Credentials built by hand.
func TestMutualTLS(t *testing.T) {
	a, err := auth.New(schemes, []auth.Requirement{{"mtls": nil}}, auth.Verifiers{})
	if err != nil {
		t.Fatal(err)
	}
	r := request()
	if _, err := a.HTTP(r); !errors.Is(err, a2arpc.ErrUnauthenticated) {
		t.Errorf("no certificate: %v", err)
	}
	r.TLS = &tls.ConnectionState{VerifiedChains: [][]*x509.Certificate{{{Subject: pkix.Name{CommonName: "svc-a"}}}}}
	if p, err := a.HTTP(r); subject(t, p, err) != "mtls:svc-a" {
		t.Errorf("a verified certificate: %v %v", p, err)
	}
	r.TLS = &tls.ConnectionState{PeerCertificates: []*x509.Certificate{{Subject: pkix.Name{CommonName: "svc-a"}}}}
	if _, err := a.HTTP(r); !errors.Is(err, a2arpc.ErrUnauthenticated) {
		t.Errorf("a certificate nobody verified: %v", err)
	}
	if p, err := a.Authenticate(context.Background(), auth.Credentials{Subject: "svc-b"}); err != nil || p.Subject != "svc-b" {
		t.Errorf("Credentials by hand: %v %v", p, err)
	}
}

func TestParseBearer(t *testing.T) {
	for in, want := range map[string]string{
		"Bearer abc":        "abc",
		"bearer abc":        "abc",
		"BeArEr  abc.d-e_f": "abc.d-e_f",
		" Bearer abc== ":    "abc==",
		"Bearer":            "",
		"Bearer ":           "",
		"Bearerabc":         "",
		"Basic abc":         "",
		"Bearer a b":        "",
		"Bearer a,Bearer b": "a,Bearer",
		"Bearer a\x00b":     "",
		"Bearer a\x7fb":     "",
		"Bearer\tabc":       "",
	} {
		got, err := auth.ParseBearer(in)
		if in == "Bearer a,Bearer b" {
			// A comma is a token character; the space after it is not.
			if err == nil {
				t.Errorf("%q: %q", in, got)
			}
			continue
		}
		if got != want || (err == nil) != (want != "") {
			t.Errorf("%q: %q %v, want %q", in, got, err, want)
		}
	}
}

// TestJWKSURL: the set is fetched once, and again (at most once a minute)
// for a kid it lacks; a failing issuer leaves the keys that were fetched.
func TestJWKSURL(t *testing.T) {
	s := newSigner(t, "k1")
	fetches, fail := 0, false
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		fetches++
		if fail {
			http.Error(w, "down", http.StatusServiceUnavailable)
			return
		}
		w.Write([]byte(`{"keys":[` + mustJSON(t, s.jwk) + `]}`))
	}))
	defer srv.Close()
	keys := auth.JWKSURL(srv.URL, time.Hour, nil)
	j := &auth.JWT{Keys: keys}
	ctx := context.Background()
	for range 3 {
		if p, err := j.Verify(ctx, s.token(t, valid("gus"), nil), "jwt"); err != nil || p.Subject != "gus" {
			t.Fatalf("verify: %v", err)
		}
	}
	if fetches != 1 {
		t.Errorf("fetched %d times for one kid", fetches)
	}
	fail = true
	rotated := newSigner(t, "k2")
	if _, err := j.Verify(ctx, rotated.token(t, valid("gus"), nil), "jwt"); err == nil {
		t.Error("a token of a key the set lacks verified")
	}
	if fetches != 1 {
		t.Errorf("refetched within the minute: %d", fetches)
	}
	if _, err := auth.JWKSURL(srv.URL, time.Hour, nil)(ctx, ""); err == nil {
		t.Error("a failing issuer, no keys yet, and no error")
	}
}

func mustJSON(t *testing.T, k jose.JSONWebKey) string {
	b, err := k.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestJWTWithoutKeys(t *testing.T) {
	s := newSigner(t, "k1")
	tok := s.token(t, valid("x"), nil)
	for name, j := range map[string]*auth.JWT{
		"no key set":   {},
		"nil key set":  {Keys: func(context.Context, string) (*jose.JSONWebKeySet, error) { return nil, nil }},
		"failing keys": {Keys: func(context.Context, string) (*jose.JSONWebKeySet, error) { return nil, errors.New("down") }},
		"empty set":    {Keys: auth.StaticKeys()},
		"HMAC only":    {Algorithms: []jose.SignatureAlgorithm{jose.HS256}, Keys: auth.StaticKeys(s.jwk)},
	} {
		if p, err := j.Verify(context.Background(), tok, "jwt"); err == nil {
			t.Errorf("%s: verified as %v", name, p)
		}
	}
}
