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
// a required scope is PERMISSION_DENIED. The checking is agui-gen's
// runtime/auth; this package reads the card into it.
package a2aauth

// This file is written against the generated package gen/a2a; the
// generator copies it into the a2aauth subpackage of its output with that
// import path rewritten.

import (
	"context"
	"net/http"
	"time"

	jose "github.com/go-jose/go-jose/v4"

	"github.com/agui-gen/agui-gen/runtime/auth"

	a2a "github.com/agui-gen/agui-gen/gen/a2a"
)

// Principal is who a call comes from. Its String, the scheme and the
// subject, names the owner of the tasks the call creates.
type Principal = auth.Principal

// Verifiers check the credentials of each kind of scheme. A card that names
// a scheme whose verifier is missing is refused by New.
type Verifiers = auth.Verifiers

// JWT verifies JSON Web Tokens: signed with an allowed algorithm by a key
// of the key set, from the issuer, for the audience, and not expired.
type JWT = auth.JWT

// KeySet returns the keys tokens are verified with, by the key ID a token
// names.
type KeySet = auth.KeySet

// Authenticator checks calls against a card's requirements: its HTTP
// method is for a2a.WithAuthenticator, its GRPC method for
// a2agrpc.WithAuthenticator.
type Authenticator = auth.Authenticator

// StaticTokens accepts the tokens given, each naming its principal's
// subject, compared in constant time. For Verifiers.Token and APIKey.
func StaticTokens(tokens map[string]string) func(context.Context, string) (*Principal, error) {
	return auth.StaticTokens(tokens)
}

// StaticKeys is a key set given in code: public keys, or []byte secrets
// for HMAC.
func StaticKeys(keys ...jose.JSONWebKey) KeySet { return auth.StaticKeys(keys...) }

// JWKSFile reads a JSON Web Key Set from a file, once.
func JWKSFile(path string) (KeySet, error) { return auth.JWKSFile(path) }

// JWKSURL fetches a JSON Web Key Set from url (an issuer's jwks_uri) and
// keeps it for refresh, fetching it again sooner when a token names a key
// the set lacks; see auth.JWKSURL.
func JWKSURL(url string, refresh time.Duration, client *http.Client) KeySet {
	return auth.JWKSURL(url, refresh, client)
}

// New builds the authenticator of a card. It refuses a card whose
// requirements name a scheme the card does not define, or one no verifier
// checks.
func New(card *a2a.AgentCard, v Verifiers) (*Authenticator, error) {
	schemes := make(map[string]auth.Scheme, len(card.SecuritySchemes))
	for name, s := range card.SecuritySchemes {
		schemes[name] = schemeOf(s)
	}
	requirements := make([]auth.Requirement, 0, len(card.SecurityRequirements))
	for _, req := range card.SecurityRequirements {
		alt := auth.Requirement{}
		if req != nil {
			for name, scopes := range req.Schemes {
				alt[name] = nil
				if scopes != nil {
					alt[name] = scopes.List
				}
			}
		}
		requirements = append(requirements, alt)
	}
	return auth.New(schemes, requirements, v)
}

// schemeOf reads a card's security scheme; one of no kind known here has
// the zero Kind, which auth.New refuses where a requirement names it.
func schemeOf(s *a2a.SecurityScheme) auth.Scheme {
	if s == nil {
		return auth.Scheme{}
	}
	switch sc := s.Scheme.(type) {
	case *a2a.SecuritySchemeHTTPAuthSecurityScheme:
		if h := sc.HTTPAuthSecurityScheme; h != nil {
			return auth.Scheme{Kind: auth.KindHTTP, HTTPScheme: h.Scheme, BearerFormat: h.BearerFormat}
		}
	case *a2a.SecuritySchemeAPIKeySecurityScheme:
		if k := sc.APIKeySecurityScheme; k != nil {
			return auth.Scheme{Kind: auth.KindAPIKey, Location: k.Location, Name: k.Name}
		}
	case *a2a.SecuritySchemeOAuth2SecurityScheme:
		return auth.Scheme{Kind: auth.KindOAuth2}
	case *a2a.SecuritySchemeOpenIDConnectSecurityScheme:
		return auth.Scheme{Kind: auth.KindOpenIDConnect}
	case *a2a.SecuritySchemeMTLSSecurityScheme:
		return auth.Scheme{Kind: auth.KindMutualTLS}
	}
	return auth.Scheme{}
}
