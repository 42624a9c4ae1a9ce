// Package cardsig signs and verifies agent cards (A2A §8.4) on their JSON:
// a JWS (RFC 7515, github.com/go-jose/go-jose/v4) with a detached payload,
// the JCS form (RFC 8785, github.com/gowebpki/jcs) of the card without its
// signatures. It knows no A2A type: it takes a card as JSON bytes (what the
// generated AgentCard's AppendJSON writes) and its signatures as Signature
// values; the generated a2acard package reads and writes the typed card
// around it.
//
// Before canonicalizing, members that hold nothing (empty strings, null,
// empty lists and objects) are dropped, as @a2a-js/sdk does, so that a card
// signed by one SDK verifies in the other whatever each omits by default.
//
// Only the generated a2acard package imports this one, so code that does
// not sign cards does not link go-jose or jcs.
package cardsig

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
)

// Signature is one signature of a card, as the card carries it: the
// base64url protected header and the base64url signature of a JWS in
// compact form whose payload is detached.
type Signature struct {
	Protected string
	Signature string
}

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
		if k, ok := keys[h.KeyID]; ok && k != nil {
			return k, nil
		}
		return nil, fmt.Errorf("no trusted key with kid %q", h.KeyID)
	}
}

// JWKS trusts the public keys of a JSON Web Key Set (RFC 7517), by key ID.
// Symmetric keys in the set are ignored: a card's signature must be
// checkable by anyone.
func JWKS(set []byte) (KeyFunc, error) {
	var jwks jose.JSONWebKeySet
	if err := json.Unmarshal(set, &jwks); err != nil {
		return nil, fmt.Errorf("cardsig: reading the JWKS: %w", err)
	}
	keys := map[string]crypto.PublicKey{}
	for _, k := range jwks.Keys {
		if pub := k.Public(); pub.Key != nil {
			keys[k.KeyID] = pub.Key
		}
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

// Sign signs a card given as JSON with key and returns the signature to
// add to the card's signatures. Signatures the card already has are not
// signed. The algorithm follows the key: ES256, ES384 or ES512 for ECDSA,
// EdDSA for Ed25519, RS256 for RSA.
func Sign(cardJSON []byte, key crypto.Signer, opts SignOptions) (Signature, error) {
	if opts.KeyID == "" {
		return Signature{}, errors.New("cardsig: a signature needs a key ID")
	}
	if key == nil {
		return Signature{}, errors.New("cardsig: no key to sign with")
	}
	alg, err := algorithmOf(key.Public())
	if err != nil {
		return Signature{}, err
	}
	payload, err := Canonical(cardJSON)
	if err != nil {
		return Signature{}, err
	}
	so := (&jose.SignerOptions{}).WithType("JOSE").WithHeader("kid", opts.KeyID)
	if opts.KeyURL != "" {
		so = so.WithHeader("jku", opts.KeyURL)
	}
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: alg, Key: key}, so)
	if err != nil {
		return Signature{}, fmt.Errorf("cardsig: %w", err)
	}
	jws, err := signer.Sign(payload)
	if err != nil {
		return Signature{}, fmt.Errorf("cardsig: signing: %w", err)
	}
	compact, err := jws.DetachedCompactSerialize()
	if err != nil {
		return Signature{}, err
	}
	protected, signature, _ := strings.Cut(compact, "..")
	return Signature{Protected: protected, Signature: signature}, nil
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
	return "", fmt.Errorf("cardsig: no JWS algorithm for a %T key", pub)
}

// verifiable are the algorithms Verify accepts; "none" and HMAC are not
// among them, since a card's signature must be checkable by anyone.
var verifiable = []jose.SignatureAlgorithm{jose.ES256, jose.ES384, jose.ES512, jose.EdDSA,
	jose.RS256, jose.RS384, jose.RS512, jose.PS256, jose.PS384, jose.PS512}

// ErrUnsigned is returned by Verify for a card without signatures.
var ErrUnsigned = errors.New("cardsig: the agent card has no signatures")

// ErrNoValidSignature is returned, wrapped with what each signature
// failed of, by Verify when no signature of a card verifies.
var ErrNoValidSignature = errors.New("cardsig: no signature of the card verifies")

// Verify checks the signatures sigs of a card given as JSON: it succeeds
// when one of them verifies with the key keys returns for it. What is
// signed is Canonical(cardJSON); a typed caller passes the card as it
// decoded it, encoded again, so that a member a decoder reads differently
// from a JSON tool cannot change the card a signature covers.
func Verify(ctx context.Context, cardJSON []byte, sigs []Signature, keys KeyFunc) error {
	if len(sigs) == 0 {
		return ErrUnsigned
	}
	payload, err := Canonical(cardJSON)
	if err != nil {
		return err
	}
	var errs []error
	for i, s := range sigs {
		header, err := verifyOne(ctx, s, payload, keys)
		if err != nil {
			if header.KeyID != "" {
				err = fmt.Errorf("signature %d (kid %q): %w", i, header.KeyID, err)
			} else {
				err = fmt.Errorf("signature %d: %w", i, err)
			}
			errs = append(errs, err)
			continue
		}
		return nil
	}
	return fmt.Errorf("%w: %w", ErrNoValidSignature, errors.Join(errs...))
}

// verifyOne checks one signature over payload.
func verifyOne(ctx context.Context, s Signature, payload []byte, keys KeyFunc) (Header, error) {
	if s.Protected == "" || s.Signature == "" || strings.Contains(s.Protected+s.Signature, ".") {
		return Header{}, errors.New("not a detached JWS: a protected header and a signature, each base64url")
	}
	jws, err := jose.ParseDetached(s.Protected+".."+s.Signature, payload, verifiable)
	if err != nil {
		return Header{}, err
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
		return header, err
	}
	return header, jws.DetachedVerify(payload, key)
}

// Canonical is the payload a card's signatures sign: the card's JSON
// without its signatures and without members that hold nothing, in JCS
// form. The card must be a JSON object.
func Canonical(cardJSON []byte) ([]byte, error) {
	d := json.NewDecoder(bytes.NewReader(cardJSON))
	d.UseNumber()
	var card map[string]any
	if err := d.Decode(&card); err != nil {
		return nil, fmt.Errorf("cardsig: reading the card: %w", err)
	}
	if len(bytes.TrimSpace(cardJSON[d.InputOffset():])) > 0 {
		return nil, errors.New("cardsig: reading the card: more than one JSON value")
	}
	if card == nil {
		return nil, errors.New("cardsig: reading the card: not a JSON object")
	}
	delete(card, "signatures")
	cleaned, _ := dropEmpty(card)
	if cleaned == nil {
		cleaned = map[string]any{}
	}
	plain, err := json.Marshal(cleaned)
	if err != nil {
		return nil, fmt.Errorf("cardsig: %w", err)
	}
	out, err := jcs.Transform(plain)
	if err != nil {
		return nil, fmt.Errorf("cardsig: %w", err)
	}
	return out, nil
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
