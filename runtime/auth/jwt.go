package auth

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"sync"
	"time"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
)

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
		return nil, fmt.Errorf("auth: %s: %w", path, err)
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
				return nil, fmt.Errorf("auth: no keys from %s yet", url)
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
		return nil, fmt.Errorf("auth: fetching %s: %w", url, err)
	}
	defer res.Body.Close()
	data, err := io.ReadAll(io.LimitReader(res.Body, 1<<20))
	if err != nil || res.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("auth: fetching %s: %s %v", url, res.Status, err)
	}
	var set jose.JSONWebKeySet
	if err := json.Unmarshal(data, &set); err != nil {
		return nil, fmt.Errorf("auth: %s: %w", url, err)
	}
	return &set, nil
}

var asymmetric = []jose.SignatureAlgorithm{jose.RS256, jose.RS384, jose.RS512, jose.PS256, jose.PS384, jose.PS512,
	jose.ES256, jose.ES384, jose.ES512, jose.EdDSA}

// Verify checks a token and returns its principal, under scheme: the
// token's subject, with the scopes of its scope or scp claim and its
// claims. A token without an expiry or a subject is refused.
func (j *JWT) Verify(ctx context.Context, raw, scheme string) (*Principal, error) {
	if j.Keys == nil {
		return nil, errors.New("no key set to verify JWTs with")
	}
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
	if keys == nil {
		return nil, errors.New("no keys to verify JWTs with")
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
