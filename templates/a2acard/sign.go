// This file and the others of templates/a2acard are written against the
// generated package gen/a2a; the generator copies them into the a2acard
// subpackage of its output with that import path rewritten. The JWS and
// JCS work is runtime/cardsig's, on the card's JSON; this layer reads and
// writes the typed card.

package a2acard

import (
	"context"
	"crypto"
	"fmt"

	"github.com/agui-gen/agui-gen/runtime/cardsig"

	a2a "github.com/agui-gen/agui-gen/gen/a2a"
)

// Header is what a signature's protected header says about its key.
type Header = cardsig.Header

// KeyFunc returns the public key a signature was made with, from its
// header. Trust lives here: return only keys obtained out of band, or from
// a jku the caller trusts.
type KeyFunc = cardsig.KeyFunc

// SignOptions name the key a signature is made with.
type SignOptions = cardsig.SignOptions

// ErrUnsigned is returned by Verify for a card without signatures, and
// ErrNoValidSignature, wrapped with what each signature failed of, when no
// signature of a card verifies.
var (
	ErrUnsigned         = cardsig.ErrUnsigned
	ErrNoValidSignature = cardsig.ErrNoValidSignature
)

// StaticKeys trusts the keys given, by key ID.
func StaticKeys(keys map[string]crypto.PublicKey) KeyFunc { return cardsig.StaticKeys(keys) }

// JWKS trusts the public keys of a JSON Web Key Set (RFC 7517), by key ID.
func JWKS(set []byte) (KeyFunc, error) { return cardsig.JWKS(set) }

// Canonical is the payload a card's signatures sign: the card's JSON
// without its signatures and without members that hold nothing, in JCS
// form.
func Canonical(cardJSON []byte) ([]byte, error) { return cardsig.Canonical(cardJSON) }

// Sign adds a signature by key to card. The algorithm follows the key:
// ES256, ES384 or ES512 for ECDSA, EdDSA for Ed25519, RS256 for RSA.
func Sign(card *a2a.AgentCard, key crypto.Signer, opts SignOptions) error {
	s, err := cardsig.Sign(card.AppendJSON(nil), key, opts)
	if err != nil {
		return err
	}
	card.Signatures = append(card.Signatures, &a2a.AgentCardSignature{Protected: s.Protected, Signature: s.Signature})
	return nil
}

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
	sigs := make([]cardsig.Signature, 0, len(card.Signatures))
	for _, s := range card.Signatures {
		if s != nil {
			sigs = append(sigs, cardsig.Signature{Protected: s.Protected, Signature: s.Signature})
		}
	}
	return cardsig.Verify(ctx, card.AppendJSON(nil), sigs, keys)
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
