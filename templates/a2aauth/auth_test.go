// The tests of this package exercise it as generated, in gen/a2a/a2aauth
// (its card reading, and the names of runtime/auth it offers): run
// agui-gen generate --out gen after editing the template.

package a2aauth_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
	"google.golang.org/grpc/metadata"

	"github.com/agui-gen/agui-gen/examples/a2a-demo/echo"
	a2a "github.com/agui-gen/agui-gen/gen/a2a"
	"github.com/agui-gen/agui-gen/gen/a2a/a2aauth"
)

// securedCard declares a JWT bearer scheme, an API key in a header, and an
// OAuth 2.0 scheme; a caller needs the JWT or the key, or an OAuth token
// with the tasks.write scope.
func securedCard() *a2a.AgentCard {
	card := echo.Card("https://agent.example")
	card.SecuritySchemes = map[string]*a2a.SecurityScheme{
		"jwt": {Scheme: &a2a.SecuritySchemeHTTPAuthSecurityScheme{HTTPAuthSecurityScheme: &a2a.HTTPAuthSecurityScheme{Scheme: "Bearer", BearerFormat: "JWT"}}},
		"key": {Scheme: &a2a.SecuritySchemeAPIKeySecurityScheme{APIKeySecurityScheme: &a2a.APIKeySecurityScheme{Location: "header", Name: "X-API-Key"}}},
		"oauth": {Scheme: &a2a.SecuritySchemeOAuth2SecurityScheme{OAuth2SecurityScheme: &a2a.OAuth2SecurityScheme{
			Flows: &a2a.OAuthFlows{Flow: &a2a.OAuthFlowsClientCredentials{ClientCredentials: &a2a.ClientCredentialsOAuthFlow{
				TokenURL: "https://auth.example/token", Scopes: map[string]string{"tasks.write": "run tasks"}}}}}}},
	}
	card.SecurityRequirements = []*a2a.SecurityRequirement{
		{Schemes: map[string]*a2a.StringList{"jwt": {}}},
		{Schemes: map[string]*a2a.StringList{"key": {}}},
		{Schemes: map[string]*a2a.StringList{"oauth": {List: []string{"tasks.write"}}}},
	}
	return card
}

type signer struct {
	key *ecdsa.PrivateKey
	jwk jose.JSONWebKey
}

func newSigner(t *testing.T) signer {
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return signer{key: k, jwk: jose.JSONWebKey{Key: &k.PublicKey, KeyID: "k1", Algorithm: "ES256", Use: "sig"}}
}

func (s signer) token(t *testing.T, claims jwt.Claims, extra map[string]any) string {
	sig, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.ES256, Key: s.key}, (&jose.SignerOptions{}).WithType("JWT").WithHeader("kid", "k1"))
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

func request(header ...string) *http.Request {
	r := httptest.NewRequest(http.MethodPost, "/", nil)
	for i := 0; i+1 < len(header); i += 2 {
		r.Header.Set(header[i], header[i+1])
	}
	return r
}

func TestSchemes(t *testing.T) {
	s := newSigner(t)
	auth, err := a2aauth.New(securedCard(), a2aauth.Verifiers{
		APIKey: a2aauth.StaticTokens(map[string]string{"key-123": "ci-bot"}),
		JWT:    &a2aauth.JWT{Issuer: "https://auth.example", Audience: "agent", Keys: a2aauth.StaticKeys(s.jwk)},
	})
	if err != nil {
		t.Fatal(err)
	}
	expired := valid("alice")
	expired.Expiry = jwt.NewNumericDate(time.Now().Add(-time.Hour))
	wrongIssuer := valid("alice")
	wrongIssuer.Issuer = "https://evil.example"
	noExpiry := valid("alice")
	noExpiry.Expiry = nil
	hs, _ := jose.NewSigner(jose.SigningKey{Algorithm: jose.HS256, Key: []byte("0123456789abcdef0123456789abcdef")}, nil)
	hsToken, _ := jwt.Signed(hs).Claims(valid("mallory")).Serialize()
	cases := []struct {
		name    string
		req     *http.Request
		subject string
		want    error
	}{
		{"jwt", request("Authorization", "Bearer "+s.token(t, valid("alice"), nil)), "alice", nil},
		{"api key", request("X-API-Key", "key-123"), "ci-bot", nil},
		{"oauth scope", request("Authorization", "Bearer "+s.token(t, valid("bob"), map[string]any{"scope": "tasks.read tasks.write"})), "bob", nil},
		{"nothing", request(), "", a2a.ErrUnauthenticated},
		{"wrong key", request("X-API-Key", "nope"), "", a2a.ErrUnauthenticated},
		{"expired", request("Authorization", "Bearer "+s.token(t, expired, nil)), "", a2a.ErrUnauthenticated},
		{"wrong issuer", request("Authorization", "Bearer "+s.token(t, wrongIssuer, nil)), "", a2a.ErrUnauthenticated},
		{"no expiry", request("Authorization", "Bearer "+s.token(t, noExpiry, nil)), "", a2a.ErrUnauthenticated},
		{"HMAC not allowed", request("Authorization", "Bearer "+hsToken), "", a2a.ErrUnauthenticated},
		{"not a JWT", request("Authorization", "Bearer hello"), "", a2a.ErrUnauthenticated},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, err := auth.HTTP(c.req)
			if c.want != nil {
				if !errors.Is(err, c.want) {
					t.Fatalf("got %v, want %v", err, c.want)
				}
				return
			}
			if err != nil || p.(*a2aauth.Principal).Subject != c.subject {
				t.Fatalf("got %v %v", p, err)
			}
		})
	}
}

// TestScopeDenied: an OAuth token without the scope a requirement names is
// refused as PERMISSION_DENIED when no other alternative passes.
func TestScopeDenied(t *testing.T) {
	s := newSigner(t)
	card := securedCard()
	card.SecurityRequirements = card.SecurityRequirements[2:] // OAuth with tasks.write only
	auth, err := a2aauth.New(card, a2aauth.Verifiers{JWT: &a2aauth.JWT{Keys: a2aauth.StaticKeys(s.jwk)}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = auth.HTTP(request("Authorization", "Bearer "+s.token(t, valid("carol"), map[string]any{"scp": []string{"tasks.read"}})))
	if !errors.Is(err, a2a.ErrPermissionDenied) {
		t.Fatalf("%v", err)
	}
}

func TestNewRefusesWhatItCannotCheck(t *testing.T) {
	if _, err := a2aauth.New(securedCard(), a2aauth.Verifiers{APIKey: a2aauth.StaticTokens(nil)}); err == nil || !strings.Contains(err.Error(), "JWT") {
		t.Fatalf("no JWT verifier: %v", err)
	}
	card := securedCard()
	card.SecurityRequirements = append(card.SecurityRequirements, &a2a.SecurityRequirement{Schemes: map[string]*a2a.StringList{"ghost": {}}})
	if _, err := a2aauth.New(card, a2aauth.Verifiers{APIKey: a2aauth.StaticTokens(nil), JWT: &a2aauth.JWT{}}); err == nil {
		t.Fatal("a requirement naming no scheme")
	}
	open := echo.Card("x")
	auth, err := a2aauth.New(open, a2aauth.Verifiers{})
	if err != nil {
		t.Fatal(err)
	}
	if p, err := auth.HTTP(request()); p != nil || err != nil {
		t.Fatalf("a card without requirements admits anyone: %v %v", p, err)
	}
}

func TestJWKSFromFileAndURL(t *testing.T) {
	s := newSigner(t)
	set, _ := json.Marshal(jose.JSONWebKeySet{Keys: []jose.JSONWebKey{s.jwk}})
	path := filepath.Join(t.TempDir(), "jwks.json")
	os.WriteFile(path, set, 0o600)
	fromFile, err := a2aauth.JWKSFile(path)
	if err != nil {
		t.Fatal(err)
	}
	fetches := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fetches++; w.Write(set) }))
	defer srv.Close()
	for name, keys := range map[string]a2aauth.KeySet{"file": fromFile, "url": a2aauth.JWKSURL(srv.URL, time.Hour, nil)} {
		auth, err := a2aauth.New(securedCard(), a2aauth.Verifiers{APIKey: a2aauth.StaticTokens(nil), JWT: &a2aauth.JWT{Keys: keys}})
		if err != nil {
			t.Fatal(err)
		}
		for range 2 {
			if p, err := auth.HTTP(request("Authorization", "Bearer "+s.token(t, valid("dave"), nil))); err != nil || p.(*a2aauth.Principal).Subject != "dave" {
				t.Fatalf("%s: %v", name, err)
			}
		}
	}
	if fetches != 1 {
		t.Fatalf("the key set was fetched %d times", fetches)
	}
}

// TestOverTheBindings: the authenticator on the generated handler: a call
// without credentials gets 401 in the protocol's shape, the card stays
// public, and the principal reaches the handler.
func TestOverTheBindings(t *testing.T) {
	s := newSigner(t)
	card := securedCard()
	auth, err := a2aauth.New(card, a2aauth.Verifiers{APIKey: a2aauth.StaticTokens(map[string]string{"k": "bot"}), JWT: &a2aauth.JWT{Keys: a2aauth.StaticKeys(s.jwk)}})
	if err != nil {
		t.Fatal(err)
	}
	agent := echo.New()
	agent.ExtendedCard = card
	h, err := a2a.NewHandler(a2a.BindA2AService(agent), card, a2a.WithAuthenticator(auth.HTTP))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	res, err := http.Get(srv.URL + a2a.WellKnownCardPath)
	if err != nil || res.StatusCode != 200 {
		t.Fatalf("the card: %v %v", res.Status, err)
	}
	req, _ := http.NewRequest(http.MethodGet, srv.URL+"/extendedAgentCard", nil)
	req.Header.Set("A2A-Version", "1.0")
	res, err = http.DefaultClient.Do(req)
	if err != nil || res.StatusCode != http.StatusUnauthorized || res.Header.Get("WWW-Authenticate") == "" {
		t.Fatalf("without credentials: %v %v, challenge %q", res.Status, err, res.Header.Get("WWW-Authenticate"))
	}
	c := a2a.NewA2AServiceClient(a2a.NewJSONRPCTransport(srv.URL, a2a.WithHeader("Authorization", "Bearer "+s.token(t, valid("erin"), nil))))
	got, err := c.GetExtendedAgentCard(context.Background(), &a2a.GetExtendedAgentCardRequest{})
	if err != nil || got.Name != "echo" {
		t.Fatalf("with a JWT: %v", err)
	}
}

func TestAPIKeyLocationsAndHMAC(t *testing.T) {
	secret := []byte("0123456789abcdef0123456789abcdef")
	for _, loc := range []string{"query", "cookie"} {
		card := securedCard()
		card.SecuritySchemes["key"].Scheme.(*a2a.SecuritySchemeAPIKeySecurityScheme).APIKeySecurityScheme.Location = loc
		auth, err := a2aauth.New(card, a2aauth.Verifiers{APIKey: a2aauth.StaticTokens(map[string]string{"k9": "bot"}),
			JWT: &a2aauth.JWT{Algorithms: []jose.SignatureAlgorithm{jose.HS256}, Keys: a2aauth.StaticKeys(jose.JSONWebKey{Key: secret, KeyID: "hs", Algorithm: "HS256"})}})
		if err != nil {
			t.Fatal(err)
		}
		r := httptest.NewRequest(http.MethodPost, "/?X-API-Key=k9", nil)
		if loc == "cookie" {
			r = httptest.NewRequest(http.MethodPost, "/", nil)
			r.AddCookie(&http.Cookie{Name: "X-API-Key", Value: "k9"})
		}
		if p, err := auth.HTTP(r); err != nil || p.(*a2aauth.Principal).Subject != "bot" {
			t.Fatalf("key in %s: %v", loc, err)
		}
		// HMAC tokens verify when the algorithm is listed.
		hs, _ := jose.NewSigner(jose.SigningKey{Algorithm: jose.HS256, Key: secret}, (&jose.SignerOptions{}).WithHeader("kid", "hs"))
		tok, _ := jwt.Signed(hs).Claims(valid("frank")).Serialize()
		if p, err := auth.HTTP(request("Authorization", "Bearer "+tok)); err != nil || p.(*a2aauth.Principal).Subject != "frank" {
			t.Fatalf("HS256 when listed: %v", err)
		}
	}
}

// TestGRPCMetadata: over gRPC, the authenticator reads the call's
// metadata (lower-case keys).
func TestGRPCMetadata(t *testing.T) {
	auth, err := a2aauth.New(securedCard(), a2aauth.Verifiers{APIKey: a2aauth.StaticTokens(map[string]string{"k": "bot"}), JWT: &a2aauth.JWT{Keys: a2aauth.StaticKeys()}})
	if err != nil {
		t.Fatal(err)
	}
	p, err := auth.GRPC(context.Background(), metadata.Pairs("x-api-key", "k"))
	if err != nil || p.(*a2aauth.Principal).Subject != "bot" {
		t.Fatalf("gRPC metadata: %v", err)
	}
	if _, err := auth.GRPC(context.Background(), metadata.Pairs()); !errors.Is(err, a2a.ErrUnauthenticated) {
		t.Fatalf("no metadata: %v", err)
	}
}
