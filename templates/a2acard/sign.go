package a2acard

import (
	"bytes"
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rsa"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/gowebpki/jcs"

	a2a "github.com/agui-gen/agui-gen/gen/a2a"
)

// Header is what a signature's protected header says about its key.
type Header struct {
	Algorithm string // alg
	KeyID     string // kid
	KeyURL    string // jku, when the signer published one
	Type      string // typ
}

// KeyFunc returns the public key a signature was made with, from its
// header. Trust lives here: return only keys obtained out of band, or from
// a jku the caller trusts.
type KeyFunc func(ctx context.Context, h Header) (crypto.PublicKey, error)

// StaticKeys trusts the keys given, by key ID.
func StaticKeys(keys map[string]crypto.PublicKey) KeyFunc {
	return func(_ context.Context, h Header) (crypto.PublicKey, error) {
		if k, ok := keys[h.KeyID]; ok {
			return k, nil
		}
		return nil, fmt.Errorf("no trusted key with kid %q", h.KeyID)
	}
}

// JWKS trusts the keys of a JSON Web Key Set (RFC 7517), by key ID.
func JWKS(set []byte) (KeyFunc, error) {
	var jwks jose.JSONWebKeySet
	if err := json.Unmarshal(set, &jwks); err != nil {
		return nil, fmt.Errorf("a2acard: reading the JWKS: %w", err)
	}
	keys := map[string]crypto.PublicKey{}
	for _, k := range jwks.Keys {
		keys[k.KeyID] = k.Public().Key
	}
	return StaticKeys(keys), nil
}

// SignOptions name the key a signature is made with.
type SignOptions struct {
	// KeyID is the kid of the protected header; verifiers look the key up by
	// it. Required.
	KeyID string
	// KeyURL, when set, is the jku: where verifiers may fetch the key set.
	KeyURL string
}

// Sign adds a signature by key to card. The algorithm follows the key:
// ES256, ES384 or ES512 for ECDSA, EdDSA for Ed25519, RS256 for RSA.
func Sign(card *a2a.AgentCard, key crypto.Signer, opts SignOptions) error {
	if opts.KeyID == "" {
		return errors.New("a2acard: a signature needs a key ID")
	}
	alg, err := algorithmOf(key.Public())
	if err != nil {
		return err
	}
	payload, err := Canonical(card.AppendJSON(nil))
	if err != nil {
		return err
	}
	so := (&jose.SignerOptions{}).WithType("JOSE").WithHeader("kid", opts.KeyID)
	if opts.KeyURL != "" {
		so = so.WithHeader("jku", opts.KeyURL)
	}
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: alg, Key: key}, so)
	if err != nil {
		return fmt.Errorf("a2acard: %w", err)
	}
	jws, err := signer.Sign(payload)
	if err != nil {
		return fmt.Errorf("a2acard: signing: %w", err)
	}
	compact, err := jws.DetachedCompactSerialize()
	if err != nil {
		return err
	}
	protected, signature, _ := strings.Cut(compact, "..")
	card.Signatures = append(card.Signatures, &a2a.AgentCardSignature{Protected: protected, Signature: signature})
	return nil
}

func algorithmOf(pub crypto.PublicKey) (jose.SignatureAlgorithm, error) {
	switch k := pub.(type) {
	case *ecdsa.PublicKey:
		switch k.Curve {
		case elliptic.P256():
			return jose.ES256, nil
		case elliptic.P384():
			return jose.ES384, nil
		case elliptic.P521():
			return jose.ES512, nil
		}
	case ed25519.PublicKey:
		return jose.EdDSA, nil
	case *rsa.PublicKey:
		return jose.RS256, nil
	}
	return "", fmt.Errorf("a2acard: no JWS algorithm for a %T key", pub)
}

// verifiable are the algorithms Verify accepts; "none" and HMAC are not
// among them, since a card's signature must be checkable by anyone.
var verifiable = []jose.SignatureAlgorithm{jose.ES256, jose.ES384, jose.ES512, jose.EdDSA,
	jose.RS256, jose.RS384, jose.RS512, jose.PS256, jose.PS384, jose.PS512}

// ErrUnsigned is returned by Verify for a card without signatures.
var ErrUnsigned = errors.New("a2acard: the agent card has no signatures")

// Verify checks the signatures of a card as received (its JSON): it
// succeeds when one of them verifies with the key keys returns for it.
func Verify(ctx context.Context, cardJSON []byte, keys KeyFunc) error {
	card := new(a2a.AgentCard)
	if err := card.UnmarshalJSON(cardJSON); err != nil {
		return fmt.Errorf("a2acard: reading the card: %w", err)
	}
	return VerifyCard(ctx, card, keys)
}

// VerifyCard checks the signatures of a decoded card. What is signed is
// the card as decoded, re-encoded, not the bytes it came in: a member the
// decoder reads differently from a JSON tool (a field under both its JSON
// and its proto name, say) cannot change the card a signature covers.
func VerifyCard(ctx context.Context, card *a2a.AgentCard, keys KeyFunc) error {
	if len(card.Signatures) == 0 {
		return ErrUnsigned
	}
	payload, err := Canonical(card.AppendJSON(nil))
	if err != nil {
		return err
	}
	var errs []error
	for i, s := range card.Signatures {
		jws, err := jose.ParseDetached(s.Protected+".."+s.Signature, payload, verifiable)
		if err != nil {
			errs = append(errs, fmt.Errorf("signature %d: %w", i, err))
			continue
		}
		h := jws.Signatures[0].Protected
		header := Header{Algorithm: h.Algorithm, KeyID: h.KeyID}
		if typ, ok := h.ExtraHeaders[jose.HeaderType].(string); ok {
			header.Type = typ
		}
		if jku, ok := h.ExtraHeaders["jku"].(string); ok {
			header.KeyURL = jku
		}
		key, err := keys(ctx, header)
		if err != nil {
			errs = append(errs, fmt.Errorf("signature %d (kid %q): %w", i, header.KeyID, err))
			continue
		}
		if err := jws.DetachedVerify(payload, key); err != nil {
			errs = append(errs, fmt.Errorf("signature %d (kid %q): %w", i, header.KeyID, err))
			continue
		}
		return nil
	}
	return fmt.Errorf("a2acard: no signature of the card verifies: %w", errors.Join(errs...))
}

// Canonical is the payload a card's signatures sign: the card's JSON
// without its signatures and without members that hold nothing, in JCS
// form.
func Canonical(cardJSON []byte) ([]byte, error) {
	d := json.NewDecoder(bytes.NewReader(cardJSON))
	d.UseNumber()
	var card map[string]any
	if err := d.Decode(&card); err != nil {
		return nil, fmt.Errorf("a2acard: reading the card: %w", err)
	}
	delete(card, "signatures")
	cleaned, _ := dropEmpty(card)
	if cleaned == nil {
		cleaned = map[string]any{}
	}
	plain, err := json.Marshal(cleaned)
	if err != nil {
		return nil, err
	}
	return jcs.Transform(plain)
}

// dropEmpty removes empty strings, nulls, and the lists and objects left
// empty by that, and reports whether anything is left of v.
func dropEmpty(v any) (any, bool) {
	switch v := v.(type) {
	case nil:
		return nil, false
	case string:
		return v, v != ""
	case []any:
		out := v[:0]
		for _, e := range v {
			if e, ok := dropEmpty(e); ok {
				out = append(out, e)
			}
		}
		return out, len(out) > 0
	case map[string]any:
		for k, e := range v {
			if e, ok := dropEmpty(e); ok {
				v[k] = e
			} else {
				delete(v, k)
			}
		}
		return v, len(v) > 0
	}
	return v, true
}

// Resolve fetches the card published below baseURL (with a2a.ResolveCard
// and opts), verifies its signatures with keys and validates it.
func Resolve(ctx context.Context, baseURL string, keys KeyFunc, opts ...a2a.ClientOption) (*a2a.AgentCard, error) {
	card, err := a2a.ResolveCard(ctx, baseURL, opts...)
	if err != nil {
		return nil, err
	}
	if err := VerifyCard(ctx, card, keys); err != nil {
		return nil, err
	}
	if err := card.Validate(); err != nil {
		return nil, fmt.Errorf("a2acard: the card below %s: %w", baseURL, err)
	}
	return card, nil
}
