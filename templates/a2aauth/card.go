package a2aauth

// This file is the spec-typed piece of the a2aauth package: it reads an
// agent card's security schemes into runtime/auth, which does the checking.
// It is written against the generated package gen/a2a and copied into the
// a2aauth subpackage of the output with that import path rewritten; the
// rest of the package (its doc, the aliases of runtime/auth's names) is
// generated (generator/emit/golang/a2aauth.go).

import (
	"github.com/agui-gen/agui-gen/runtime/auth"

	a2a "github.com/agui-gen/agui-gen/gen/a2a"
)

// New builds the authenticator of a card. It refuses a card whose
// requirements name a scheme the card does not define, or one no verifier
// checks.
func New(card *a2a.AgentCard, v auth.Verifiers) (*auth.Authenticator, error) {
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
