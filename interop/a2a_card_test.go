package interop_test

import (
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/json"
	"strings"
	"testing"

	jose "github.com/go-jose/go-jose/v4"

	"github.com/agui-gen/agui-gen/examples/a2a-demo/echo"
	"github.com/agui-gen/agui-gen/gen/a2a"
	"github.com/agui-gen/agui-gen/gen/a2a/a2acard"
	"github.com/agui-gen/agui-gen/runtime/cardsig"
)

// richCard is a card with every kind of member a canonical form has to get
// right: nested objects, a map, optional booleans set to false, numbers
// with fractions and exponents in a Struct, non-ASCII text.
func richCard() *a2a.AgentCard {
	card := echo.Card("https://agent.example/a2a")
	no, docs := false, "https://agent.example/docs"
	card.Capabilities.PushNotifications = &no
	card.Capabilities.Extensions = []*a2a.AgentExtension{{URI: "https://ext.example/v1", Description: "Äußerst nützlich",
		Params: json.RawMessage(`{"ratio":1.50,"big":1e3,"list":[1,"two",{"three":3}]}`)}}
	card.Provider = &a2a.AgentProvider{Organization: "Example ✓", URL: "https://example.com"}
	card.DocumentationURL = &docs
	card.SecuritySchemes = map[string]*a2a.SecurityScheme{"key": {Scheme: &a2a.SecuritySchemeAPIKeySecurityScheme{
		APIKeySecurityScheme: &a2a.APIKeySecurityScheme{Location: "header", Name: "X-API-Key"}}}}
	return card
}

type jwkKey struct {
	signer crypto.Signer
	alg    string
}

func cardKeys(t *testing.T) map[string]jwkKey {
	ec, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	_, ed, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return map[string]jwkKey{"es256": {ec, "ES256"}, "eddsa": {ed, "EdDSA"}}
}

func jwk(t *testing.T, key any, alg, kid string) json.RawMessage {
	b, err := json.Marshal(jose.JSONWebKey{Key: key, Algorithm: alg, KeyID: kid})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func sigNode(t *testing.T, mode string, in map[string]any) []byte {
	t.Helper()
	data, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	return runNode(t, data, "a2a-card-sig.mjs", mode)
}

// TestCardSignaturesWithA2AJS: a card a2acard signs verifies with
// @a2a-js/sdk's verifyAgentCardSignature, one the SDK signs verifies with
// a2acard, and the two canonical forms are the same bytes.
func TestCardSignaturesWithA2AJS(t *testing.T) {
	requireA2AJS(t)
	ctx := context.Background()
	card := richCard()
	canonical, err := a2acard.Canonical(card.AppendJSON(nil))
	if err != nil {
		t.Fatal(err)
	}
	var theirs string
	if err := json.Unmarshal(sigNode(t, "canonical", map[string]any{"card": json.RawMessage(card.AppendJSON(nil))}), &theirs); err != nil {
		t.Fatal(err)
	}
	if theirs != string(canonical) {
		t.Fatalf("canonical forms differ:\nours   %s\ntheirs %s", canonical, theirs)
	}
	for kid, k := range cardKeys(t) {
		t.Run(kid, func(t *testing.T) {
			signed := richCard()
			if err := a2acard.Sign(signed, k.signer, a2acard.SignOptions{KeyID: kid}); err != nil {
				t.Fatal(err)
			}
			pub := jwk(t, k.signer.Public(), k.alg, kid)
			out := sigNode(t, "verify", map[string]any{"card": json.RawMessage(signed.AppendJSON(nil)), "jwk": pub})
			if strings.TrimSpace(string(out)) != `{"ok":true}` {
				t.Fatalf("the SDK does not verify our signature: %s", out)
			}
			signed.Description = "changed after signing"
			out = sigNode(t, "verify", map[string]any{"card": json.RawMessage(signed.AppendJSON(nil)), "jwk": pub})
			if !strings.Contains(string(out), "No valid signatures") {
				t.Fatalf("the SDK verified a changed card: %s", out)
			}

			theirsSigned := sigNode(t, "sign", map[string]any{"card": json.RawMessage(richCard().AppendJSON(nil)),
				"jwk": jwk(t, k.signer, k.alg, kid), "kid": kid})
			trusted := a2acard.StaticKeys(map[string]crypto.PublicKey{kid: k.signer.Public()})
			if err := a2acard.Verify(ctx, theirsSigned, trusted); err != nil {
				t.Fatalf("we do not verify the SDK's signature: %v\n%s", err, theirsSigned)
			}
			var decoded a2a.AgentCard
			if err := decoded.UnmarshalJSON(theirsSigned); err != nil || len(decoded.Signatures) != 1 {
				t.Fatalf("the SDK's signed card: %v", err)
			}
			// runtime/cardsig on the SDK's bytes as they came, with no
			// generated type between: the same verdict.
			var raw struct{ Signatures []cardsig.Signature }
			if err := json.Unmarshal(theirsSigned, &raw); err != nil || len(raw.Signatures) != 1 {
				t.Fatalf("the SDK's signatures: %v", err)
			}
			if err := cardsig.Verify(ctx, theirsSigned, raw.Signatures, trusted); err != nil {
				t.Fatalf("cardsig does not verify the SDK's signature over its bytes: %v", err)
			}
			if err := cardsig.Verify(ctx, signed.AppendJSON(nil), raw.Signatures, trusted); err == nil {
				t.Fatal("cardsig verified the SDK's signature over a changed card")
			}
		})
	}
}
