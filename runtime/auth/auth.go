// Package auth authenticates calls as a set of security schemes declares:
// HTTP bearer tokens (opaque, or JWTs), OAuth 2.0 and OpenID Connect bearer
// tokens (JWTs with scopes), API keys in a header, query parameter or
// cookie, and mutual TLS; and security requirements (alternatives, each a
// set of schemes that must all pass, with the scopes they need). It knows
// no A2A type: the generated a2aauth package reads an agent card's
// securitySchemes and securityRequirements into Scheme and Requirement
// values and hands them to New.
//
// A call that carries no credentials is anonymous (principal nil) when
// there are no requirements, and refused with UNAUTHENTICATED otherwise;
// credentials that do not verify are UNAUTHENTICATED, and so are
// ambiguous ones (a header a credential is read from sent twice, a bearer
// credential that is two words); a valid token without a required scope
// is PERMISSION_DENIED. The errors are a2arpc's, which the A2A bindings
// answer with 401 and 403.
//
// Only the generated a2aauth package imports this one, so code that does
// not authenticate A2A calls does not link go-jose.
package auth

import (
	"context"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/peer"

	"github.com/agui-gen/agui-gen/runtime/a2arpc"
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

// Verifiers check the credentials of each kind of scheme. Schemes whose
// verifier is missing are refused by New.
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

// Kind is the kind of a security scheme (OpenAPI's type).
type Kind int

// The kinds of security schemes. The zero Kind is none: New refuses a
// requirement that names a scheme of no kind.
const (
	KindHTTP          Kind = iota + 1 // an HTTP authentication scheme (only bearer is supported)
	KindAPIKey                        // an API key in a header, query parameter or cookie
	KindOAuth2                        // OAuth 2.0: bearer JWTs with scopes
	KindOpenIDConnect                 // OpenID Connect: bearer JWTs
	KindMutualTLS                     // a client certificate the TLS layer verified
)

// Scheme is one security scheme, reduced to what checking a call needs.
type Scheme struct {
	Kind Kind
	// HTTPScheme is a KindHTTP scheme's name ("Bearer"; the case does not
	// matter), and BearerFormat its bearer format: "JWT" sends its tokens
	// to Verifiers.JWT even when there is a Token verifier.
	HTTPScheme, BearerFormat string
	// Location ("header", "query" or "cookie") and Name say where a
	// KindAPIKey scheme's key is.
	Location, Name string
}

// Requirement is one alternative of the security requirements: the
// schemes, by name, that must all pass, each with the scopes it needs. An
// empty Requirement admits anonymous calls.
type Requirement map[string][]string

// Authenticator checks calls against security requirements.
type Authenticator struct {
	schemes      map[string]Scheme
	requirements []Requirement
	v            Verifiers
}

// New builds the authenticator of schemes and requirements, checked with
// v. It refuses requirements that name a scheme schemes does not define,
// or one no verifier checks.
func New(schemes map[string]Scheme, requirements []Requirement, v Verifiers) (*Authenticator, error) {
	a := &Authenticator{schemes: map[string]Scheme{}, v: v}
	for _, req := range requirements {
		alt := Requirement{}
		for name, scopes := range req {
			s, ok := schemes[name]
			if !ok {
				return nil, fmt.Errorf("auth: the requirements name scheme %q, which is not defined", name)
			}
			if err := a.checkable(name, s); err != nil {
				return nil, err
			}
			a.schemes[name] = s
			alt[name] = slices.Clone(scopes)
		}
		a.requirements = append(a.requirements, alt)
	}
	return a, nil
}

func (a *Authenticator) checkable(name string, s Scheme) error {
	missing := func(what string) error {
		return fmt.Errorf("auth: scheme %q needs a %s verifier", name, what)
	}
	switch s.Kind {
	case KindHTTP:
		if !strings.EqualFold(s.HTTPScheme, "bearer") {
			return fmt.Errorf("auth: scheme %q: HTTP %s authentication is not supported", name, s.HTTPScheme)
		}
		if a.v.JWT == nil && a.v.Token == nil {
			return missing("Token or JWT")
		}
	case KindAPIKey:
		switch strings.ToLower(s.Location) {
		case "header", "query", "cookie":
		default:
			return fmt.Errorf("auth: scheme %q: API key location %q is not header, query or cookie", name, s.Location)
		}
		if s.Name == "" {
			return fmt.Errorf("auth: scheme %q: the API key has no name", name)
		}
		if a.v.APIKey == nil {
			return missing("APIKey")
		}
	case KindOAuth2, KindOpenIDConnect:
		if a.v.JWT == nil {
			return missing("JWT")
		}
	case KindMutualTLS:
	default:
		return fmt.Errorf("auth: scheme %q has no kind", name)
	}
	return nil
}

// Credentials are what one call carries, whatever its transport: every
// value of a header (or gRPC metadata key), query parameter and cookie of
// a name, and the subject of the client certificate the TLS layer
// verified.
type Credentials struct {
	Header  func(name string) []string
	Query   func(name string) []string
	Cookie  func(name string) []string
	Subject string // a verified client certificate's common name, or ""
}

// FromHTTP reads the credentials of an HTTP request.
func FromHTTP(r *http.Request) Credentials {
	var query url.Values
	c := Credentials{
		Header: r.Header.Values,
		Query: func(name string) []string {
			if query == nil {
				query = r.URL.Query()
			}
			return query[name]
		},
		Cookie: func(name string) []string {
			var out []string
			for _, ck := range r.CookiesNamed(name) {
				out = append(out, ck.Value)
			}
			return out
		},
	}
	if r.TLS != nil && len(r.TLS.VerifiedChains) > 0 && len(r.TLS.VerifiedChains[0]) > 0 {
		c.Subject = r.TLS.VerifiedChains[0][0].Subject.CommonName
	}
	return c
}

// FromGRPC reads the credentials of a gRPC call: its metadata (as headers)
// and its peer's verified certificate.
func FromGRPC(ctx context.Context, md metadata.MD) Credentials {
	c := Credentials{Header: md.Get}
	if p, ok := peer.FromContext(ctx); ok {
		if info, ok := p.AuthInfo.(credentials.TLSInfo); ok && len(info.State.VerifiedChains) > 0 && len(info.State.VerifiedChains[0]) > 0 {
			c.Subject = info.State.VerifiedChains[0][0].Subject.CommonName
		}
	}
	return c
}

// HTTP authenticates an HTTP request; its signature is the one the A2A
// bindings' WithAuthenticator takes. The principal is a *Principal, or nil
// for an anonymous call.
func (a *Authenticator) HTTP(r *http.Request) (any, error) {
	return principal(a.Authenticate(r.Context(), FromHTTP(r)))
}

// GRPC authenticates a gRPC call from its metadata and peer; its
// signature is the one the gRPC binding's WithAuthenticator takes.
func (a *Authenticator) GRPC(ctx context.Context, md metadata.MD) (any, error) {
	return principal(a.Authenticate(ctx, FromGRPC(ctx, md)))
}

// principal keeps a nil *Principal from becoming a non-nil any.
func principal(p *Principal, err error) (any, error) {
	if p == nil {
		return nil, err
	}
	return p, err
}

// Authenticate checks the credentials of a call against the requirements:
// the first alternative that passes gives the principal (nil for an empty
// one, or when there are no requirements). When none passes, the error is
// a2arpc.ErrPermissionDenied when an alternative failed for want of a
// scope only, else a2arpc.ErrUnauthenticated.
func (a *Authenticator) Authenticate(ctx context.Context, c Credentials) (*Principal, error) {
	if len(a.requirements) == 0 {
		return nil, nil
	}
	var denied, failed error
	for _, alt := range a.requirements {
		p, err := a.satisfy(ctx, alt, c)
		if err == nil {
			return p, nil
		}
		if errors.Is(err, a2arpc.ErrPermissionDenied) {
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
// principal is the first scheme's, in the order of the names.
func (a *Authenticator) satisfy(ctx context.Context, alt Requirement, c Credentials) (*Principal, error) {
	names := make([]string, 0, len(alt))
	for name := range alt {
		names = append(names, name)
	}
	slices.Sort(names)
	var first *Principal
	for _, name := range names {
		p, err := a.check(ctx, name, a.schemes[name], c)
		if err == nil && p == nil {
			err = errors.New("the verifier named no principal")
		}
		if err != nil {
			return nil, a2arpc.NewError(a2arpc.ErrUnauthenticated, name+": "+err.Error())
		}
		for _, scope := range alt[name] {
			if !slices.Contains(p.Scopes, scope) {
				return nil, a2arpc.NewError(a2arpc.ErrPermissionDenied, fmt.Sprintf("%s: the credentials lack scope %q", name, scope))
			}
		}
		if first == nil {
			first = p
		}
	}
	return first, nil
}

// one is the single value of a credential sent values times, or an error
// when it was sent more than once: a proxy may have checked the one and
// the server would check the other.
func one(values []string, what string) (string, error) {
	switch len(values) {
	case 0:
		return "", nil
	case 1:
		return values[0], nil
	}
	return "", fmt.Errorf("%s sent %d times", what, len(values))
}

// ParseBearer reads the token of an Authorization header's value with
// the Bearer scheme (RFC 6750 §2.1; the scheme's name in any case). A
// value of another scheme, an empty token, or a token with white space
// or control characters in it (two credentials in one header, say) is
// refused.
func ParseBearer(authorization string) (string, error) {
	scheme, token, ok := strings.Cut(strings.TrimSpace(authorization), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return "", errors.New("no bearer token")
	}
	token = strings.TrimLeft(token, " ")
	if token == "" {
		return "", errors.New("no bearer token")
	}
	for i := 0; i < len(token); i++ {
		if b := token[i]; b <= ' ' || b == 0x7f {
			return "", errors.New("the bearer credential is not one token")
		}
	}
	return token, nil
}

// get calls f, which a Credentials may leave nil.
func get(f func(string) []string, name string) []string {
	if f == nil {
		return nil
	}
	return f(name)
}

func bearer(c Credentials) (string, error) {
	auth, err := one(get(c.Header, "Authorization"), "the Authorization header")
	if err != nil {
		return "", err
	}
	return ParseBearer(auth)
}

func (a *Authenticator) check(ctx context.Context, name string, s Scheme, c Credentials) (*Principal, error) {
	switch s.Kind {
	case KindHTTP:
		token, err := bearer(c)
		if err != nil {
			return nil, err
		}
		if a.v.JWT != nil && (strings.EqualFold(s.BearerFormat, "JWT") || a.v.Token == nil) {
			return a.v.JWT.Verify(ctx, token, name)
		}
		return named(name)(a.v.Token(ctx, token))
	case KindOAuth2, KindOpenIDConnect:
		token, err := bearer(c)
		if err != nil {
			return nil, err
		}
		return a.v.JWT.Verify(ctx, token, name)
	case KindAPIKey:
		var values []string
		switch strings.ToLower(s.Location) {
		case "header":
			values = get(c.Header, s.Name)
		case "query":
			values = get(c.Query, s.Name)
		case "cookie":
			values = get(c.Cookie, s.Name)
		}
		key, err := one(values, fmt.Sprintf("the API key %s %q", s.Location, s.Name))
		if err != nil {
			return nil, err
		}
		if key == "" {
			return nil, fmt.Errorf("no API key in %s %q", s.Location, s.Name)
		}
		return named(name)(a.v.APIKey(ctx, key))
	case KindMutualTLS:
		if c.Subject == "" {
			return nil, errors.New("no verified client certificate")
		}
		return &Principal{Subject: c.Subject, Scheme: name}, nil
	}
	return nil, errors.New("unsupported scheme")
}

// named sets the scheme of the principal a verifier returns.
func named(scheme string) func(*Principal, error) (*Principal, error) {
	return func(p *Principal, err error) (*Principal, error) {
		if err != nil {
			return nil, err
		}
		if p != nil {
			p.Scheme = scheme
		}
		return p, nil
	}
}
