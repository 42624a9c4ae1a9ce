// Package a2aauth authenticates A2A calls as an agent card declares: from
// its securitySchemes (HTTP bearer, JWT, OAuth 2.0 and OpenID Connect
// bearer tokens, API keys in a header, query parameter or cookie, mutual
// TLS) and its securityRequirements (alternatives, each a set of schemes
// that must all pass, with the scopes they need). The result plugs into
// the bindings: a2a.WithAuthenticator(auth.HTTP), and
// a2agrpc.WithAuthenticator(auth.GRPC).
//
// A call that carries no credentials is anonymous (principal nil) when the
// card lists no requirements, and refused with UNAUTHENTICATED otherwise;
// credentials that do not verify are UNAUTHENTICATED; a valid token without
// a required scope is PERMISSION_DENIED.
package a2aauth

// This file is written against the generated package gen/a2a; the
// generator copies it into the a2aauth subpackage of its output with that
// import path rewritten.

import (
	"context"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/peer"

	a2a "github.com/agui-gen/agui-gen/gen/a2a"
)

// Principal is who a call comes from. Its String, the scheme and the
// subject, names the owner of the tasks the call creates.
type Principal struct {
	// Subject identifies the caller: the token's sub, the key's or token's
	// name, the certificate's common name.
	Subject string
	// Scheme is the security scheme that identified it.
	Scheme string
	// Scopes are the scopes the credentials grant.
	Scopes []string
	// Claims are a JWT's claims, raw.
	Claims json.RawMessage
}

func (p *Principal) String() string {
	if p == nil {
		return ""
	}
	return p.Scheme + ":" + p.Subject // one subject name in two schemes is two owners
}

// Verifiers check the credentials of each kind of scheme. A card that names
// a scheme whose verifier is missing is refused by New.
type Verifiers struct {
	// Token checks a bearer token of an HTTP bearer scheme that is not a JWT.
	Token func(ctx context.Context, token string) (*Principal, error)
	// APIKey checks the key of an API key scheme.
	APIKey func(ctx context.Context, key string) (*Principal, error)
	// JWT checks the bearer tokens of JWT bearer, OAuth 2.0 and OpenID
	// Connect schemes.
	JWT *JWT
}

// StaticTokens accepts the tokens given, each naming its principal's
// subject, compared in constant time. For Verifiers.Token and APIKey.
func StaticTokens(tokens map[string]string) func(context.Context, string) (*Principal, error) {
	return func(_ context.Context, token string) (*Principal, error) {
		for t, subject := range tokens {
			if subtle.ConstantTimeCompare([]byte(t), []byte(token)) == 1 {
				return &Principal{Subject: subject}, nil
			}
		}
		return nil, errors.New("unknown credentials")
	}
}

// JWT verifies JSON Web Tokens: signed with an allowed algorithm by a key
// of the key set, from the issuer, for the audience, and not expired.
type JWT struct {
	// Issuer and Audience, when set, must match iss and one of aud.
	Issuer, Audience string
	// Algorithms allowed (default: the RS, PS, ES and EdDSA families; HS256
	// and its kin only when listed, as they need a shared secret).
	Algorithms []jose.SignatureAlgorithm
	// Keys returns the key set to verify with.
	Keys KeySet
	// Leeway allows for clock skew (default one minute).
	Leeway time.Duration
}

// KeySet returns the keys tokens are verified with; kid is the key ID the
// token names ("" for none), so that a set fetched from an issuer can be
// fetched again when a rotated key appears.
type KeySet func(ctx context.Context, kid string) (*jose.JSONWebKeySet, error)

// StaticKeys is a key set given in code: public keys, or []byte secrets
// for HMAC.
func StaticKeys(keys ...jose.JSONWebKey) KeySet {
	set := &jose.JSONWebKeySet{Keys: keys}
	return func(context.Context, string) (*jose.JSONWebKeySet, error) { return set, nil }
}

// JWKSFile reads a JSON Web Key Set from a file, once.
func JWKSFile(path string) (KeySet, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var set jose.JSONWebKeySet
	if err := json.Unmarshal(data, &set); err != nil {
		return nil, fmt.Errorf("a2aauth: %s: %w", path, err)
	}
	return func(context.Context, string) (*jose.JSONWebKeySet, error) { return &set, nil }, nil
}

// JWKSURL fetches a JSON Web Key Set from url (an issuer's jwks_uri) and
// keeps it for refresh, fetching again after that, or sooner (at most once
// a minute) when a token names a key the set lacks, as after a rotation. A
// failed fetch keeps the keys it has and is not tried again for ten
// seconds, so a slow or failing issuer does not hold up every call.
func JWKSURL(url string, refresh time.Duration, client *http.Client) KeySet {
	if client == nil {
		client = &http.Client{Timeout: 10 * time.Second}
	}
	var mu sync.Mutex
	var cached *jose.JSONWebKeySet
	var fetched, failed time.Time
	return func(ctx context.Context, kid string) (*jose.JSONWebKeySet, error) {
		mu.Lock()
		defer mu.Unlock()
		stale := cached == nil || time.Since(fetched) >= refresh ||
			(kid != "" && len(cached.Key(kid)) == 0 && time.Since(fetched) >= time.Minute)
		if !stale || time.Since(failed) < 10*time.Second {
			if cached == nil {
				return nil, fmt.Errorf("a2aauth: no keys from %s yet", url)
			}
			return cached, nil
		}
		set, err := fetchJWKS(ctx, client, url)
		if err != nil {
			failed = time.Now()
			if cached != nil {
				return cached, nil // keep serving with the keys we have
			}
			return nil, err
		}
		cached, fetched = set, time.Now()
		return cached, nil
	}
}

func fetchJWKS(ctx context.Context, client *http.Client, url string) (*jose.JSONWebKeySet, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	res, err := client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("a2aauth: fetching %s: %w", url, err)
	}
	defer res.Body.Close()
	data, err := io.ReadAll(io.LimitReader(res.Body, 1<<20))
	if err != nil || res.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("a2aauth: fetching %s: %s %v", url, res.Status, err)
	}
	var set jose.JSONWebKeySet
	if err := json.Unmarshal(data, &set); err != nil {
		return nil, fmt.Errorf("a2aauth: %s: %w", url, err)
	}
	return &set, nil
}

var asymmetric = []jose.SignatureAlgorithm{jose.RS256, jose.RS384, jose.RS512, jose.PS256, jose.PS384, jose.PS512,
	jose.ES256, jose.ES384, jose.ES512, jose.EdDSA}

// verify checks a token and returns its principal.
func (j *JWT) verify(ctx context.Context, raw, scheme string) (*Principal, error) {
	algs := j.Algorithms
	if len(algs) == 0 {
		algs = asymmetric
	}
	tok, err := jwt.ParseSigned(raw, algs)
	if err != nil {
		return nil, fmt.Errorf("not a signed JWT: %w", err)
	}
	kid := ""
	if len(tok.Headers) > 0 {
		kid = tok.Headers[0].KeyID
	}
	keys, err := j.Keys(ctx, kid)
	if err != nil {
		return nil, err
	}
	var claims jwt.Claims
	var extra map[string]any
	var verified bool
	for _, k := range candidates(keys, tok) {
		if err := tok.Claims(k.Key, &claims, &extra); err == nil {
			verified = true
			break
		}
	}
	if !verified {
		return nil, errors.New("the JWT's signature does not verify with any key")
	}
	if claims.Expiry == nil {
		return nil, errors.New("the JWT has no expiry")
	}
	if claims.Subject == "" {
		return nil, errors.New("the JWT names no subject")
	}
	leeway := j.Leeway
	if leeway == 0 {
		leeway = time.Minute
	}
	expected := jwt.Expected{Issuer: j.Issuer, Time: time.Now()}
	if j.Audience != "" {
		expected.AnyAudience = jwt.Audience{j.Audience}
	}
	if err := claims.ValidateWithLeeway(expected, leeway); err != nil {
		return nil, err
	}
	p := &Principal{Subject: claims.Subject, Scheme: scheme, Scopes: scopes(extra)}
	p.Claims, _ = json.Marshal(extra)
	return p, nil
}

// candidates are the keys a token may be signed with: the one its kid
// names, or every key when it names none.
func candidates(set *jose.JSONWebKeySet, tok *jwt.JSONWebToken) []jose.JSONWebKey {
	if len(tok.Headers) > 0 && tok.Headers[0].KeyID != "" {
		return set.Key(tok.Headers[0].KeyID)
	}
	return set.Keys
}

// scopes reads the OAuth scope claim ("scope", space-separated, or "scp",
// a list).
func scopes(claims map[string]any) []string {
	if s, ok := claims["scope"].(string); ok {
		return strings.Fields(s)
	}
	var out []string
	if list, ok := claims["scp"].([]any); ok {
		for _, v := range list {
			if s, ok := v.(string); ok {
				out = append(out, s)
			}
		}
	}
	return out
}

// Authenticator checks calls against a card's requirements.
type Authenticator struct {
	schemes      map[string]*a2a.SecurityScheme
	requirements []map[string][]string // alternatives: scheme name → scopes
	v            Verifiers
}

// New builds the authenticator of a card. It refuses a card whose
// requirements name a scheme the card does not define, or one no verifier
// checks.
func New(card *a2a.AgentCard, v Verifiers) (*Authenticator, error) {
	a := &Authenticator{schemes: card.SecuritySchemes, v: v}
	for _, req := range card.SecurityRequirements {
		alt := map[string][]string{}
		for name, scopes := range req.Schemes {
			s, ok := card.SecuritySchemes[name]
			if !ok {
				return nil, fmt.Errorf("a2aauth: the card requires scheme %q, which it does not define", name)
			}
			if err := a.checkable(name, s); err != nil {
				return nil, err
			}
			if scopes != nil {
				alt[name] = scopes.List
			} else {
				alt[name] = nil
			}
		}
		a.requirements = append(a.requirements, alt)
	}
	return a, nil
}

func (a *Authenticator) checkable(name string, s *a2a.SecurityScheme) error {
	missing := func(what string) error {
		return fmt.Errorf("a2aauth: scheme %q needs a %s verifier", name, what)
	}
	switch sc := s.Scheme.(type) {
	case *a2a.SecuritySchemeHTTPAuthSecurityScheme:
		if !strings.EqualFold(sc.HTTPAuthSecurityScheme.Scheme, "bearer") {
			return fmt.Errorf("a2aauth: scheme %q: HTTP %s authentication is not supported", name, sc.HTTPAuthSecurityScheme.Scheme)
		}
		if a.v.JWT == nil && a.v.Token == nil {
			return missing("Token or JWT")
		}
	case *a2a.SecuritySchemeAPIKeySecurityScheme:
		if a.v.APIKey == nil {
			return missing("APIKey")
		}
	case *a2a.SecuritySchemeOAuth2SecurityScheme, *a2a.SecuritySchemeOpenIDConnectSecurityScheme:
		if a.v.JWT == nil {
			return missing("JWT")
		}
	case *a2a.SecuritySchemeMTLSSecurityScheme:
	default:
		return fmt.Errorf("a2aauth: scheme %q has no kind", name)
	}
	return nil
}

// callCreds are what one call carries.
type callCreds struct {
	header  func(string) string
	query   func(string) string
	cookie  func(string) string
	subject string // a verified client certificate's common name
}

// HTTP authenticates an HTTP request, for a2a.WithAuthenticator.
func (a *Authenticator) HTTP(r *http.Request) (any, error) {
	c := callCreds{header: r.Header.Get, query: r.URL.Query().Get, cookie: func(name string) string {
		if ck, err := r.Cookie(name); err == nil {
			return ck.Value
		}
		return ""
	}}
	if r.TLS != nil && len(r.TLS.VerifiedChains) > 0 {
		c.subject = r.TLS.VerifiedChains[0][0].Subject.CommonName
	}
	return a.authenticate(r.Context(), c)
}

// GRPC authenticates a gRPC call from its metadata and peer, for
// a2agrpc.WithAuthenticator.
func (a *Authenticator) GRPC(ctx context.Context, md metadata.MD) (any, error) {
	get := func(name string) string {
		if v := md.Get(name); len(v) > 0 {
			return v[0]
		}
		return ""
	}
	c := callCreds{header: get, query: func(string) string { return "" }, cookie: func(string) string { return "" }}
	if p, ok := peer.FromContext(ctx); ok {
		if info, ok := p.AuthInfo.(credentials.TLSInfo); ok && len(info.State.VerifiedChains) > 0 {
			c.subject = info.State.VerifiedChains[0][0].Subject.CommonName
		}
	}
	return a.authenticate(ctx, c)
}

func (a *Authenticator) authenticate(ctx context.Context, c callCreds) (any, error) {
	if len(a.requirements) == 0 {
		return nil, nil
	}
	var denied, failed error
	for _, alt := range a.requirements {
		p, err := a.satisfy(ctx, alt, c)
		if err == nil {
			if p == nil {
				return nil, nil // an empty requirement: anonymous calls are allowed
			}
			return p, nil
		}
		if errors.Is(err, a2a.ErrPermissionDenied) {
			denied = err
		} else if failed == nil {
			failed = err
		}
	}
	if denied != nil {
		return nil, denied
	}
	return nil, failed
}

// satisfy checks one alternative: every scheme in it must pass. The
// principal is the first scheme's.
func (a *Authenticator) satisfy(ctx context.Context, alt map[string][]string, c callCreds) (*Principal, error) {
	names := make([]string, 0, len(alt))
	for name := range alt {
		names = append(names, name)
	}
	slices.Sort(names)
	var first *Principal
	for _, name := range names {
		p, err := a.check(ctx, name, a.schemes[name], c)
		if err != nil {
			return nil, a2a.NewError(a2a.ErrUnauthenticated, name+": "+err.Error())
		}
		for _, scope := range alt[name] {
			if !slices.Contains(p.Scopes, scope) {
				return nil, a2a.NewError(a2a.ErrPermissionDenied, fmt.Sprintf("%s: the credentials lack scope %q", name, scope))
			}
		}
		if first == nil {
			first = p
		}
	}
	return first, nil
}

func bearer(c callCreds) (string, error) {
	auth := c.header("Authorization")
	token, ok := strings.CutPrefix(auth, "Bearer ")
	if !ok {
		if token, ok = strings.CutPrefix(auth, "bearer "); !ok || token == "" {
			return "", errors.New("no bearer token")
		}
	}
	return strings.TrimSpace(token), nil
}

func (a *Authenticator) check(ctx context.Context, name string, s *a2a.SecurityScheme, c callCreds) (*Principal, error) {
	switch sc := s.Scheme.(type) {
	case *a2a.SecuritySchemeHTTPAuthSecurityScheme:
		token, err := bearer(c)
		if err != nil {
			return nil, err
		}
		if a.v.JWT != nil && (strings.EqualFold(sc.HTTPAuthSecurityScheme.BearerFormat, "JWT") || a.v.Token == nil) {
			return a.v.JWT.verify(ctx, token, name)
		}
		p, err := a.v.Token(ctx, token)
		if p != nil {
			p.Scheme = name
		}
		return p, err
	case *a2a.SecuritySchemeOAuth2SecurityScheme, *a2a.SecuritySchemeOpenIDConnectSecurityScheme:
		token, err := bearer(c)
		if err != nil {
			return nil, err
		}
		return a.v.JWT.verify(ctx, token, name)
	case *a2a.SecuritySchemeAPIKeySecurityScheme:
		k := sc.APIKeySecurityScheme
		var key string
		switch strings.ToLower(k.Location) {
		case "header":
			key = c.header(k.Name)
		case "query":
			key = c.query(k.Name)
		case "cookie":
			key = c.cookie(k.Name)
		default:
			return nil, fmt.Errorf("API key location %q is not header, query or cookie", k.Location)
		}
		if key == "" {
			return nil, fmt.Errorf("no API key in %s %q", k.Location, k.Name)
		}
		p, err := a.v.APIKey(ctx, key)
		if p != nil {
			p.Scheme = name
		}
		return p, err
	case *a2a.SecuritySchemeMTLSSecurityScheme:
		if c.subject == "" {
			return nil, errors.New("no verified client certificate")
		}
		return &Principal{Subject: c.subject, Scheme: name}, nil
	}
	return nil, errors.New("unsupported scheme")
}
