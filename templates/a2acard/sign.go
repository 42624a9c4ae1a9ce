package a2acard

// This file is the spec-typed piece of the a2acard package: it reads and
// writes the typed card, and runtime/cardsig does the JWS and JCS work on
// the card's JSON. It is written against the generated package gen/a2a and
// copied into the a2acard subpackage of the output with that import path
// rewritten; the rest of the package (its doc, the aliases of cardsig's
// names) is generated (generator/emit/golang/a2aauth.go).

import (
	"context"
	"crypto"
	"fmt"

	"github.com/agui-gen/agui-gen/runtime/cardsig"

	a2a "github.com/agui-gen/agui-gen/gen/a2a"
)

// Sign adds a signature by key to card. The algorithm follows the key:
// ES256, ES384 or ES512 for ECDSA, EdDSA for Ed25519, RS256 for RSA.
func Sign(card *a2a.AgentCard, key crypto.Signer, opts cardsig.SignOptions) error {
	s, err := cardsig.Sign(card.AppendJSON(nil), key, opts)
	if err != nil {
		return err
	}
	card.Signatures = append(card.Signatures, &a2a.AgentCardSignature{Protected: s.Protected, Signature: s.Signature})
	return nil
}

// Verify checks the signatures of a card as received (its JSON): it
// succeeds when one of them verifies with the key keys returns for it.
func Verify(ctx context.Context, cardJSON []byte, keys cardsig.KeyFunc) error {
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
func VerifyCard(ctx context.Context, card *a2a.AgentCard, keys cardsig.KeyFunc) error {
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
func Resolve(ctx context.Context, baseURL string, keys cardsig.KeyFunc, opts ...a2a.ClientOption) (*a2a.AgentCard, error) {
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
