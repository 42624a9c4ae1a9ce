package golang

import (
	"github.com/dave/jennifer/jen"

	"github.com/agui-gen/agui-gen/templates"
)

// The runtime packages that a2aauth and a2acard name: the checking of
// credentials, and the signing of agent cards.
const (
	authPkg    = runtimePath + "/auth"
	cardsigPkg = runtimePath + "/cardsig"
	josePkg    = "github.com/go-jose/go-jose/v4"
)

// runtimeName is one name of a runtime package that a generated package
// offers as its own: a type alias, a variable holding the runtime's value,
// or a function calling the runtime's (params and results set).
type runtimeName struct {
	kind      byte // 't' type, 'v' variable, 'f' function
	name, doc string
	params    []grpcParam
	variadic  bool
	results   []jen.Code
}

// emitRuntimeNames writes names, each the runtime's of the same name in pkg.
func emitRuntimeNames(f *jen.File, pkg string, names []runtimeName) {
	for _, n := range names {
		f.Add(comment(wrap(n.name+" "+n.doc, 97)))
		switch n.kind {
		case 't':
			f.Type().Id(n.name).Op("=").Qual(pkg, n.name)
		case 'v':
			f.Var().Id(n.name).Op("=").Qual(pkg, n.name)
		case 'f':
			var params, args []jen.Code
			for i, p := range n.params {
				typ, arg := p.typ, jen.Id(p.name)
				if n.variadic && i == len(n.params)-1 {
					typ, arg = jen.Op("...").Add(typ), arg.Op("...")
				}
				params = append(params, jen.Id(p.name).Add(typ))
				args = append(args, arg)
			}
			sig := jen.Func().Id(n.name).Params(params...)
			if len(n.results) == 1 {
				sig.Add(n.results[0])
			} else {
				sig.Params(n.results...)
			}
			f.Add(sig.Block(jen.Return(jen.Qual(pkg, n.name).Call(args...))))
		}
		f.Line()
	}
}

// packageDoc writes a package comment, wrapped.
func packageDoc(f *jen.File, text string) {
	for _, line := range wrap(text, 97) {
		f.PackageComment(line)
	}
}

// AuthPackage emits the a2aauth subpackage, which authenticates calls from
// an agent card's security schemes: runtime/auth's names (auth_gen.go), and
// the spec-typed reading of the card, templates/a2aauth, against parent.
func AuthPackage(parent, importPath string) ([]File, error) {
	names, err := renderFile(importPath, "a2aauth", "auth_gen.go", "", func(f *jen.File) {
		f.ImportName(authPkg, "auth")
		f.ImportAlias(josePkg, "jose")
		packageDoc(f, "Package a2aauth authenticates A2A calls as an agent card declares: from its "+
			"securitySchemes (HTTP bearer, JWT, OAuth 2.0 and OpenID Connect bearer tokens, API keys in a "+
			"header, query parameter or cookie, mutual TLS) and its securityRequirements (alternatives, "+
			"each a set of schemes that must all pass, with the scopes they need). The result plugs into "+
			"the bindings: a2a.WithAuthenticator(auth.HTTP), and a2agrpc.WithAuthenticator(auth.GRPC).\n\n"+
			"A call that carries no credentials is anonymous (principal nil) when the card lists no "+
			"requirements, and refused with UNAUTHENTICATED otherwise; credentials that do not verify are "+
			"UNAUTHENTICATED; a valid token without a required scope is PERMISSION_DENIED. The checking is "+
			"agui-gen's runtime/auth, whose names this package offers; New reads the card into it.")
		ctx := jen.Qual("context", "Context")
		emitRuntimeNames(f, authPkg, []runtimeName{
			{kind: 't', name: "Principal", doc: "is who a call comes from. Its String, the scheme and the " +
				"subject, names the owner of the tasks the call creates."},
			{kind: 't', name: "Verifiers", doc: "check the credentials of each kind of scheme. A card that " +
				"names a scheme whose verifier is missing is refused by New."},
			{kind: 't', name: "JWT", doc: "verifies JSON Web Tokens: signed with an allowed algorithm by a " +
				"key of the key set, from the issuer, for the audience, and not expired."},
			{kind: 't', name: "KeySet", doc: "returns the keys tokens are verified with, by the key ID a " +
				"token names."},
			{kind: 't', name: "Authenticator", doc: "checks calls against a card's requirements: its HTTP " +
				"method is for a2a.WithAuthenticator, its GRPC method for a2agrpc.WithAuthenticator."},
			{kind: 'f', name: "StaticTokens", doc: "accepts the tokens given, each naming its principal's " +
				"subject, compared in constant time. For Verifiers.Token and APIKey.",
				params:  []grpcParam{{"tokens", jen.Map(jen.String()).String()}},
				results: []jen.Code{jen.Func().Params(ctx, jen.String()).Params(jen.Op("*").Id("Principal"), jen.Error())}},
			{kind: 'f', name: "StaticKeys", doc: "is a key set given in code: public keys, or []byte " +
				"secrets for HMAC.", params: []grpcParam{{"keys", jen.Qual(josePkg, "JSONWebKey")}}, variadic: true,
				results: []jen.Code{jen.Id("KeySet")}},
			{kind: 'f', name: "JWKSFile", doc: "reads a JSON Web Key Set from a file, once.",
				params: []grpcParam{{"path", jen.String()}}, results: []jen.Code{jen.Id("KeySet"), jen.Error()}},
			{kind: 'f', name: "JWKSURL", doc: "fetches a JSON Web Key Set from url (an issuer's jwks_uri) " +
				"and keeps it for refresh, fetching it again sooner when a token names a key the set lacks.",
				params: []grpcParam{{"url", jen.String()}, {"refresh", jen.Qual("time", "Duration")},
					{"client", jen.Op("*").Qual("net/http", "Client")}}, results: []jen.Code{jen.Id("KeySet")}},
		})
	})
	if err != nil {
		return nil, err
	}
	card, err := subpackageSupport(templates.A2AAuth, "a2aauth", "a2aauth", parent)
	if err != nil {
		return nil, err
	}
	return append([]File{names}, card...), nil
}

// CardPackage emits the a2acard subpackage, which signs and verifies agent
// cards: runtime/cardsig's names (cardsig_gen.go), and the spec-typed
// signing of the typed card, templates/a2acard, against parent.
func CardPackage(parent, importPath string) ([]File, error) {
	names, err := renderFile(importPath, "a2acard", "cardsig_gen.go", "", func(f *jen.File) {
		f.ImportName(cardsigPkg, "cardsig")
		packageDoc(f, "Package a2acard signs and verifies agent cards (A2A §8.4): a JWS (RFC 7515, "+
			"github.com/go-jose/go-jose/v4) with a detached payload, the JCS form (RFC 8785) of the card "+
			"without its signatures. It lives apart from the package with the types so that code that does "+
			"not sign cards does not import them.\n\n"+
			"Before canonicalizing, members that hold nothing (empty strings, null, empty lists and "+
			"objects) are dropped, as @a2a-js/sdk does, so that a card signed by one SDK verifies in the "+
			"other whatever each omits by default. The JWS and JCS work is agui-gen's runtime/cardsig, "+
			"whose names this package offers.")
		emitRuntimeNames(f, cardsigPkg, []runtimeName{
			{kind: 't', name: "Header", doc: "is what a signature's protected header says about its key."},
			{kind: 't', name: "KeyFunc", doc: "returns the public key a signature was made with, from its " +
				"header. Trust lives here: return only keys obtained out of band, or from a jku the caller trusts."},
			{kind: 't', name: "SignOptions", doc: "name the key a signature is made with."},
			{kind: 'v', name: "ErrUnsigned", doc: "is returned by Verify for a card without signatures."},
			{kind: 'v', name: "ErrNoValidSignature", doc: "is returned, wrapped with what each signature " +
				"failed of, when no signature of a card verifies."},
			{kind: 'f', name: "StaticKeys", doc: "trusts the keys given, by key ID.",
				params:  []grpcParam{{"keys", jen.Map(jen.String()).Qual("crypto", "PublicKey")}},
				results: []jen.Code{jen.Id("KeyFunc")}},
			{kind: 'f', name: "JWKS", doc: "trusts the public keys of a JSON Web Key Set (RFC 7517), by key ID.",
				params: []grpcParam{{"set", jen.Index().Byte()}}, results: []jen.Code{jen.Id("KeyFunc"), jen.Error()}},
			{kind: 'f', name: "Canonical", doc: "is the payload a card's signatures sign: the card's JSON " +
				"without its signatures and without members that hold nothing, in JCS form.",
				params: []grpcParam{{"cardJSON", jen.Index().Byte()}}, results: []jen.Code{jen.Index().Byte(), jen.Error()}},
		})
	})
	if err != nil {
		return nil, err
	}
	sign, err := subpackageSupport(templates.A2ACard, "a2acard", "a2acard", parent)
	if err != nil {
		return nil, err
	}
	return append([]File{names}, sign...), nil
}
